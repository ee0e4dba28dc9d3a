PREFIX = "acme.agents"


def scrub(value):
    return "".join(ch for ch in value if ch.isalnum())
