from validators import is_valid_name


class User:
    def __init__(self, name, email):
        self.name = name
        self.email = email

    @classmethod
    def create(cls, name, email):
        if not is_valid_name(name):
            raise ValueError("name is empty")
        return cls(name, email)
