import seozoom


def make() -> seozoom.Client:
    return seozoom.Client(db="us")
