def is_valid_name(name):
    return bool(name.strip())
