import seozoom


def call(client: seozoom.Client) -> None:
    row = client.keywords.metrics(["mutuo"]).rows[0]
    print(row["search_volumes"])
