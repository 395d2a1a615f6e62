"""What /metrics says a node did: each series counts what its name and help say."""

from __future__ import annotations

import random
from typing import Any

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from tests.support.clients import Client, client
from tests.support.metrics import metric_samples


async def _record(server: CardaviaServer, result: m.MatchResult) -> dict[str, Any]:
    assert await server.archiver.drain(timeout=10)  # written by the server's archiver
    record = await server.archive.load_record(result.record or "")
    assert record is not None
    return record


def _moves(record: dict[str, Any], seat: int) -> int:
    return sum(1 for deal in record["deals"] for a in deal["actions"] if a["seat"] == seat)


async def _play_against_a_bot(url: str) -> tuple[Client, m.MatchResult]:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    return anna, await anna.play_until_over(random.Random(11))


async def test_each_bot_decision_is_timed_under_its_level(server: CardaviaServer, url: str) -> None:
    _, result = await _play_against_a_bot(url)
    bot_moves = _moves(await _record(server, result), 1)
    assert bot_moves > 0
    samples = await metric_samples(server)
    assert samples[("cardavia_bot_think_seconds_count", (("level", "random"),))] == bot_moves
    assert samples[("cardavia_bot_think_seconds_sum", (("level", "random"),))] > 0


async def test_action_seconds_times_accepted_moves_and_nothing_else(server: CardaviaServer, url: str) -> None:
    anna, result = await _play_against_a_bot(url)
    await anna.send(m.GetCatalogue(id=50))
    await anna.expect(m.Catalogue)
    await anna.send(m.ListRooms(id=51))
    await anna.expect(m.Rooms)
    await anna.send(anna.req.act({"play": "AC"}))  # the match is over: refused
    refused: m.Error = await anna.expect(m.Error)
    assert refused.code == "game_over"
    moves = _moves(await _record(server, result), 0)
    samples = await metric_samples(server)
    assert samples[("cardavia_action_seconds_count", ())] == moves
    assert samples[("cardavia_actions_total", (("game", "briscola"),))] == moves
