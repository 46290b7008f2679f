import seozoom


def call(client: seozoom.Client) -> None:
    client.domains.keywords("example.it", "best")
