"""``get_replay``: a finished match step by step, every hand shown, with the strong bot's analysis
of each person's moves; refused for a match that is unknown or not over; analysed once."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from cardavia.bots.base import Bot
from cardavia.bots.registry import make_bot
from cardavia.games import briscola
from cardavia.games.records import replay_states
from cardavia.protocol import messages as m
from cardavia.protocol.delta import apply
from cardavia.server import replays
from cardavia.server.app import CardaviaServer
from cardavia.server.archiver import MatchArchiver
from cardavia.server.bot_runner import BotRunner
from cardavia.server.store import open_archive
from tests.support.clients import Client, client
from tests.support.waiting import wait_until


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


def _held(started: str, release: str) -> list[Any]:
    """Work that runs until the test lets it end: marks ``started``, then waits for ``release``
    to exist (files: a worker process sees them as a thread does)."""
    Path(started).touch()
    while not Path(release).exists():
        time.sleep(0.005)
    return [None, {"best": {"play": "7D"}, "differs": False}]


def _strong_move() -> tuple[Bot, dict[str, Any], list[Any]]:
    """A strong bot (it thinks in a worker, never inline) and a position to move in."""
    state = briscola.GAME.new(None, "held")
    seat = state.to_move
    assert seat is not None
    bot = make_bot("briscola", "strong", seed=1, iterations=20)
    return bot, state.view(seat), list(state.legal_actions(seat))


@pytest.mark.parametrize("workers", [0, 1])
async def test_a_strong_bot_s_move_is_answered_while_an_analysis_runs(workers: int, tmp_path: Path) -> None:
    """Analyses run aside, in a pool of their own: a bot's move does not queue behind one (with
    a shared worker this test would hang until its guard, the analysis never being let end)."""
    runner = BotRunner(workers)
    started, release = tmp_path / "started", tmp_path / "release"
    try:
        analysis = asyncio.ensure_future(runner.run_aside(_held, str(started), str(release)))
        await wait_until(started.exists, "the analysis to start", timeout=60)
        bot, view, legal = _strong_move()
        assert not runner.decides_inline(bot)
        async with asyncio.timeout(120):  # a guard against a hang, not a speed check
            move = await runner.choose(bot, view, legal)
        assert move in legal
        assert not analysis.done()  # the move came back while the analysis was still running
        release.touch()
        assert await analysis == [None, {"best": {"play": "7D"}, "differs": False}]
    finally:
        release.touch()
        runner.close()
    with pytest.raises(RuntimeError, match="closed"):
        await runner.run_aside(_held, str(started), str(release))


async def test_a_replay_s_analysis_runs_aside_from_the_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Replays`` hands its analysis to the pool of its own; a strong bot's move is answered
    meanwhile, and the analysis, once let end, is the replay's."""
    started, release = tmp_path / "started", tmp_path / "release"
    monkeypatch.setattr(replays, "analyse_record", lambda record, budget: _held(str(started), str(release)))
    archive = open_archive(f"sqlite://{tmp_path / 'archive.db'}")
    runner = BotRunner(0)
    try:
        keeper = replays.Replays(MatchArchiver(archive), runner)
        analysis = asyncio.ensure_future(keeper.analysis("r-1", {"seats": []}))
        await wait_until(started.exists, "the analysis to start", timeout=60)
        bot, view, legal = _strong_move()
        async with asyncio.timeout(120):  # a guard against a hang, not a speed check
            assert await runner.choose(bot, view, legal) in legal
        assert not analysis.done()
        release.touch()
        assert await analysis == [None, {"best": {"play": "7D"}, "differs": False}]
        assert keeper.analysed == 1
    finally:
        release.touch()
        runner.close()
        await archive.close()
