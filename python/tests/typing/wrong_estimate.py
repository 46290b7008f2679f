import seozoom


def cost(client: seozoom.Client) -> None:
    client.estimate("keywords", "metrcs", keyword=["a"])
