import seozoom


def call(client: seozoom.Client) -> None:
    client.domains.keywords("example.it", "bestest", 10)
