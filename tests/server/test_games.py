"""Full games through the real server, with the records checked by replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardavia.games.records import replay
from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from tests.support.clients import client


async def _replays(server: CardaviaServer, record_id: str) -> dict[str, object]:
    assert await server.archiver.drain(timeout=10)  # written by the server's archiver
    record = await server.archive.load_record(record_id)
    assert record is not None
    report = replay(record)
    assert report.ok, report.problems
    return record


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_one_human_against_bots(server: CardaviaServer, url: str, game: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now(game, "random"))
    result = await anna.play_until_over(random.Random(1))
    assert result.record
    record = await _replays(server, result.record)
    assert record["seats"][0]["kind"] == "human"  # type: ignore[index]
    assert anna.store.view is not None
    assert anna.store.view["result"] == {
        "scores": result.scores,
        "winner": result.winner,
        "reason": result.reason,
    }
    # every deal_result is the record's score of that deal, and the last one's totals the match's
    deal_results = [x for x in anna.received if isinstance(x, m.DealResult)]
    deals: Any = record["deals"]
    for deal_result in deal_results:
        score = deals[deal_result.deal]["score"]
        assert (deal_result.points, deal_result.detail) == (score["points"], score["detail"])
    if game != "briscola":  # one deal, scored by the match result alone
        assert deal_results
        assert deal_results[-1].totals == result.scores
    await anna.ws.close()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_two_humans_in_one_room(server: CardaviaServer, url: str, game: str) -> None:
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    await anna.hello()
    await bo.hello()
    await anna.send(anna.req.create_room(game, humans=2, bot_level="random", public=False))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.join(code=snapshot.room.code))
    await bo.expect(m.Snapshot)
    await anna.send(anna.req.start())
    import asyncio

    results = await asyncio.gather(
        anna.play_until_over(random.Random(2)), bo.play_until_over(random.Random(3))
    )
    assert results[0] == results[1]
    record = await _replays(server, results[0].record or "")
    kinds = [s["kind"] for s in record["seats"]]  # type: ignore[index,union-attr]
    assert kinds.count("human") == 2
    await anna.ws.close()
    await bo.ws.close()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_most_deltas_are_made_from_the_fields_a_move_changed(
    server: CardaviaServer, url: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room narrows a move's delta with ``State.view_update`` whenever the player's last
    view is of the position before the move; the player still ends on the engine's own view."""
    state_class = type(GAMES[game].new(None, "probe"))
    narrowed = []
    named = state_class.view_update

    def counted(self: Any, seat: int | None, events: list[Any]) -> Any:
        fields = named(self, seat, events)
        narrowed.append(fields is not None)
        return fields

    monkeypatch.setattr(state_class, "view_update", counted)
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now(game, "random"))
    await anna.play_until_over(random.Random(4))
    deltas = [x for x in anna.received if isinstance(x, m.Delta)]
    assert deltas
    assert sum(narrowed) >= 0.8 * len(deltas), (sum(narrowed), len(deltas))
    room = next(iter(server.rooms.values()))
    assert room.state is not None
    assert anna.store.view == room.state.view(0)
    await anna.ws.close()
