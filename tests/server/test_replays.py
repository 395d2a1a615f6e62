"""``get_replay``: a finished match step by step, every hand shown, with the strong bot's analysis
of each person's moves; refused for a match that is unknown or not over; analysed once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardavia.games.records import replay_states
from cardavia.protocol import messages as m
from cardavia.protocol.delta import apply
from cardavia.server.app import CardaviaServer
from tests.support.clients import Client, client


async def _finished(url: str, game: str, seed: int) -> tuple[Client, m.MatchResult]:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now(game, "random"))
    result = await anna.play_until_over(random.Random(seed))
    assert result.record is not None
    return anna, result


async def _replay(player: Client, record: str) -> m.Replay:
    await player.send(player.req.get_replay(record))
    replay: m.Replay = await player.expect(m.Replay, timeout=30)
    return replay


@pytest.mark.parametrize("game", ["briscola", "doudizhu"])
async def test_the_steps_rebuild_every_seat_s_view_to_the_end(
    server: CardaviaServer, url: str, game: str
) -> None:
    anna, result = await _finished(url, game, 4)
    replay = await _replay(anna, result.record or "")
    assert replay.record_id == result.record
    assert replay.record == await server.archiver.load_record(result.record or "")
    start, actions = replay_states(replay.record)
    seats = len(replay.views)
    assert seats == start.seats
    assert replay.views == [start.view(seat) for seat in range(seats)]
    assert len(replay.steps) == len(actions)
    views: list[Any] = list(replay.views)
    for step, action in zip(replay.steps, actions, strict=True):
        assert (step["deal"], step["seat"], step["action"]) == (action.deal, action.seat, action.action)
        assert len(step["ops"]) == seats
        views = [apply(view, ops) for view, ops in zip(views, step["ops"], strict=True)]
        assert views == [action.after.view(seat) for seat in range(seats)]
    assert views[0] == anna.store.view  # what the person saw at the end, from the live deltas
    assert any(views[seat] != views[0] for seat in range(1, seats))  # every hand shown, not one seat's


async def test_the_analysis_covers_the_person_s_moves_and_no_bot_s(server: CardaviaServer, url: str) -> None:
    anna, result = await _finished(url, "schnapsen", 2)
    replay = await _replay(anna, result.record or "")
    assert len(replay.analysis) == len(replay.steps)
    for step, entry in zip(replay.steps, replay.analysis, strict=True):
        if step["seat"] != 0:
            assert entry is None
            continue
        assert entry is not None
        assert set(entry) <= {"best", "differs", "forced"}
        assert isinstance(entry["best"], dict)
        assert isinstance(entry["differs"], bool)
        played = {k: v for k, v in step["action"].items() if k != "auto"}
        if entry.get("forced"):
            assert entry["best"] == played
            assert entry["differs"] is False
    assert any(entry is not None and not entry.get("forced") for entry in replay.analysis)


async def test_a_second_replay_reads_the_analysis_the_first_one_kept(
    server: CardaviaServer, url: str
) -> None:
    anna, result = await _finished(url, "briscola", 7)
    record = result.record or ""
    first = await _replay(anna, record)
    assert server.replays.analysed == 1
    assert await server.archiver.drain(timeout=10)
    assert await server.archive.load_analysis(record) == first.analysis
    bo = await client(url, "Bo")  # anyone may look at a finished match
    await bo.hello()
    second = await _replay(bo, record)
    assert second.analysis == first.analysis
    assert second.steps == first.steps
    assert server.replays.analysed == 1  # not analysed again


async def test_a_match_still_being_played_or_unknown_has_no_replay(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("scopa", "random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    for record in (f"{snapshot.room.room}-1", "r-0000000000000000-1", "../etc/passwd", "x" * 64):
        await anna.send(anna.req.get_replay(record))
        error: m.Error = await anna.expect(m.Error)
        assert error.code == "unknown_record", record
        await anna.send(anna.req.get_record(record))
        error = await anna.expect(m.Error)
        assert error.code == "unknown_record", record
