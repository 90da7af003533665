DOWNLOAD_TIMEOUT = 10


def download_settings():
    return {"timeout": DOWNLOAD_TIMEOUT}
