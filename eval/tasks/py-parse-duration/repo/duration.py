def parse_duration(text):
    return int(text)
