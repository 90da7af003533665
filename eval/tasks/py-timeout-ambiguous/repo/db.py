CONNECT_TIMEOUT = 5


def db_settings():
    return {"timeout": CONNECT_TIMEOUT}
