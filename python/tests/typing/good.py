"""A correct use of the typed surface: mypy --strict passes."""

import datetime
from typing import List, Optional

import seozoom


def volumes(client: seozoom.Client) -> List[Optional[int]]:
    result = client.keywords.metrics(["scarpe running", "mutuo"], db="it")
    rows: List[seozoom.KeywordMetrics] = result.rows
    return [row["search_volume"] for row in rows]


def history(client: seozoom.Client, day: datetime.date) -> int:
    page = client.domains.keywords("example.it", "bypage", 100, page=2, max_rows=300)
    first: datetime.date = day
    return len(page.rows) + first.day + page.units_used


async def intents(client: seozoom.AsyncClient) -> List[str]:
    result = await client.keywords.metrics(["mutuo"])
    return [intent for row in result.rows for intent in row["search_intent"]]


def handled(client: seozoom.Client) -> str:
    try:
        client.keywords.metrics(["mutuo"])
    except seozoom.Refused as refused:
        return refused.parameter
    except seozoom.Partial as partial:
        return str(len(partial.result.rows))
    return ""


def cost(client: seozoom.Client) -> int:
    estimate = client.estimate("keywords", "metrics", keyword=["a"], db="es")
    return estimate["min"]


async def tasks(client: seozoom.AsyncClient) -> int:
    import asyncio

    task = asyncio.create_task(client.keywords.metrics(["a"]))
    both = await asyncio.gather(task, client.domains.metrics(["example.it"]))
    left = both[0].units_remaining
    return len(both[1].rows) + (left if left is not None else 0) + both[0].cached_items


def configured() -> seozoom.Client:
    return seozoom.Client(db="uk", budget="500/day")
