"""Reconnection, resume tokens, the turn timer and spectators, over real sockets."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from cardavia.games.cards import ALL_CARDS, Card
from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.protocol.codec import unpack_frame
from cardavia.server.app import CardaviaServer
from cardavia.server.room import Room
from tests.support.clients import client
from tests.support.servers import own_server
from tests.support.waiting import wait_until

CODES = {c.code for c in ALL_CARDS}


async def _record(server: CardaviaServer, record_id: str) -> dict[str, object]:
    assert await server.archiver.drain(timeout=10)  # written by the server's archiver
    data = await server.archive.load_record(record_id)
    assert data is not None
    return data


@pytest.mark.parametrize("drop_seed", range(4))
async def test_reconnecting_mid_game_loses_and_repeats_no_move(
    server: CardaviaServer, url: str, drop_seed: int
) -> None:
    rng = random.Random(drop_seed)
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("scopa", "random"))
    moves_sent = 0
    drops = 0
    while True:
        message = await anna.recv()
        if isinstance(message, m.MatchResult):
            break
        if isinstance(message, m.YourTurn):
            if drops < 3 and rng.random() < 0.15:
                drops += 1
                resume = anna.resume
                await anna.ws.close()
                anna = await client(url)
                welcome = await anna.hello(resume=resume)
                assert welcome.room is not None
                assert welcome.resume != resume  # rotated on every connection
                continue
            await anna.send(anna.req.act(rng.choice(message.legal)))
            moves_sent += 1
    assert drops > 0
    record = await _record(server, message.record or "")
    assert replay(record).ok
    human_moves = [
        a
        for d in record["deals"]
        for a in d["actions"]
        if a["seat"] == 0 and not a.get("auto")  # type: ignore[attr-defined,index]
    ]
    assert len(human_moves) == moves_sent


async def test_a_second_connection_with_the_token_replaces_the_first(
    server: CardaviaServer, url: str
) -> None:
    first = await client(url)
    await first.hello()
    await first.send(first.req.play_now("briscola", "random"))
    await first.expect(m.Snapshot)
    second = await client(url)
    await second.hello(resume=first.resume)
    await second.expect(m.Snapshot)
    left: m.Left = await first.expect(m.Left)
    assert "replaced" in left.reason
    result = await second.play_until_over(random.Random(5))
    assert result.record


async def test_an_unknown_resume_token_is_refused_and_a_fresh_session_given(url: str) -> None:
    anna = await client(url)
    await anna.send(anna.req.hello("Anna", resume="not-a-token"))
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "bad_resume_token"
    welcome: m.Welcome = await anna.expect(m.Welcome)
    assert welcome.room is None


async def _drop_at_first_turn(server: CardaviaServer, url: str) -> tuple[str, Room]:
    """Anna starts a Briscola match against a bot, and her connection dies at her first turn."""
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    await anna.expect(m.YourTurn)
    [room] = server.rooms.values()
    await anna.ws.close()
    return anna.resume, room


async def test_after_the_grace_period_a_bot_plays_the_seat_and_the_player_can_reclaim_it(
    tmp_path: Path,
) -> None:
    # Bots that take their time, so the match is still on when the player is back: with instant
    # bots the stand-in could finish it before the reconnect.
    async with own_server(tmp_path, bot_delay=0.05) as (server, url):
        resume, room = await _drop_at_first_turn(server, url)
        # the stand-in bot plays on once the grace period is over
        await wait_until(lambda: room.auto_moves, "the stand-in's first move", timeout=10.0)
        anna = await client(url)
        await anna.hello(resume=resume)
        snapshot: m.Snapshot = await anna.expect(m.Snapshot)
        result = await anna.play_until_over(random.Random(8))
        record = await _record(server, result.record or "")
    auto = [a for d in record["deals"] for a in d["actions"] if a.get("auto")]  # type: ignore[attr-defined,index]
    assert auto, "the stand-in bot's moves are marked in the record"
    assert all(a["seat"] == 0 for a in auto)  # type: ignore[index]
    assert snapshot.seat == 0
    assert replay(record).ok


async def test_a_player_who_dropped_before_the_end_finds_the_result_long_after_it(tmp_path: Path) -> None:
    """A finished room nobody is in closes after the grace period, but waits ``result_seconds`` for
    a player who dropped before the end, and closes a grace period after that player has seen it."""
    async with own_server(tmp_path, grace_seconds=0.2, result_seconds=30.0) as (server, url):
        resume, room = await _drop_at_first_turn(server, url)
        await wait_until(lambda: room.finished, "the stand-in playing the match out", timeout=10.0)
        await asyncio.sleep(1.0)  # five grace periods pass on purpose: the room waits for its player
        assert room.id in server.rooms
        anna = await client(url)
        welcome = await anna.hello(resume=resume)
        assert welcome.room == room.id
        snapshot: m.Snapshot = await anna.expect(m.Snapshot)
        result: m.MatchResult = await anna.expect(m.MatchResult)
        assert snapshot.seat == 0
        assert room.last_result is not None
        assert result.record == room.last_result.record
        await anna.ws.close()
        # seen: only the grace period now
        await wait_until(lambda: room.id not in server.rooms, "the room closed a grace period after")


@pytest.mark.slow
async def test_turn_timer_expiry_plays_a_bot_move_marked_in_the_record(tmp_path: Path) -> None:
    # Clients and operators may ask for 5 s at the least: the room's timer is shortened in place
    async with own_server(tmp_path) as (server, url):
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.create_room("briscola", humans=1, bot_level="random", public=True))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        server.rooms[made.room.room].entry.turn_seconds = 0.2
        await anna.send(anna.req.start())
        first_turn: m.YourTurn = await anna.expect(m.YourTurn)
        assert first_turn.deadline is not None
        # never answer: every one of our turns is played by the timer
        result: m.MatchResult = await anna.expect(m.MatchResult, timeout=60)
        record = await _record(server, result.record or "")
    ours = [a for d in record["deals"] for a in d["actions"] if a["seat"] == 0]  # type: ignore[attr-defined,index]
    assert ours
    assert all(a.get("auto") for a in ours)
    assert replay(record).ok


async def test_spectators_and_seats_never_see_another_seats_hidden_cards(
    server: CardaviaServer, url: str
) -> None:
    anna, bo, eve = await client(url, "Anna"), await client(url, "Bo"), await client(url, "Eve")
    for c in (anna, bo, eve):
        await c.hello()
    await anna.send(anna.req.create_room("scopa", humans=2, bot_level="random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.join(room=snapshot.room.room))
    await bo.expect(m.Snapshot)
    await eve.send(m.Spectate(id=9, room=snapshot.room.room))
    await eve.expect(m.Snapshot)
    await anna.send(anna.req.start())
    watcher = asyncio.create_task(eve.expect(m.MatchResult, timeout=30))
    results = await asyncio.gather(
        anna.play_until_over(random.Random(1)), bo.play_until_over(random.Random(2))
    )
    await watcher
    record = await _record(server, results[0].record or "")
    for viewer, seat in ((anna, 0), (bo, 1), (eve, None)):
        allowed = _engine_views(record, seat)
        seen = [v for v in viewer.views_seen if v != "{}"]  # "{}": the room before the deal
        assert seen
        assert not [v for v in seen if v not in allowed], (
            f"seat {seat} was sent a view the engine never gave it"
        )
        turns = [unpack_frame(f, None) for f in viewer.frames]
        assert (seat is None) == (not [t for t in turns if t["type"] == "your_turn"])


def _engine_views(record: dict[str, object], seat: int | None) -> set[str]:
    """Every view the engine gives ``seat`` while replaying ``record``: the only views it may be sent."""
    from cardavia.games.chance import RecordedChance
    from cardavia.games.registry import get_game

    game = get_game(str(record["game"]))
    deals = record["deals"]
    assert isinstance(deals, list)
    chance = RecordedChance(
        dealer=deals[0]["dealer"],
        shuffles=tuple(
            tuple(tuple(Card.parse(c) for c in o) for o in (*d["redeals"], d["order"])) for d in deals
        ),
    )
    state = game.new(record["options"], chance)  # type: ignore[arg-type]
    views = {json.dumps(state.view(seat), sort_keys=True)}
    for deal in deals:
        for data in deal["actions"]:
            action = game.action_from_data({k: v for k, v in data.items() if k != "auto"})
            state, _ = state.apply(action, seat=data["seat"])
            views.add(json.dumps(state.view(seat), sort_keys=True))
    return views


async def test_coming_back_soon_replays_only_the_missed_deltas(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    while True:  # play until a move of ours hands the turn to the bot
        turn: m.YourTurn = await anna.expect(m.YourTurn)
        await anna.send(anna.req.act(turn.legal[0]))
        await anna.expect(m.Delta)  # our own move
        assert anna.store.view is not None
        if anna.store.view["to_move"] != 0:
            break  # the bot's answer comes while we are away
    await anna.ws.close()
    await asyncio.sleep(0.2)  # away a moment on purpose: the bot's answer is sent meanwhile
    back = await client(url)
    back.store = anna.store  # the client keeps its view across the reconnection
    await back.hello(resume=anna.resume, last_seq=anna.store.seq)
    first = await back.recv()
    assert isinstance(first, m.Delta), f"a short absence is bridged by the missed deltas, not {first}"
    await back.expect(m.YourTurn)
    assert back.store.view is not None
    assert back.store.view["to_move"] == 0

    stale = await client(url)
    await stale.hello(resume=back.resume, last_seq=0)  # far behind: a snapshot
    assert isinstance(await stale.recv(), m.Snapshot)


async def test_a_request_sent_with_hello_is_answered_right_after_the_welcome(url: str) -> None:
    """Frames are handled in order: a request need not wait for the welcome (the page asks for
    the catalogue this way), and one sent with a refused token still follows the new welcome."""
    for resume in (None, "no-such-token"):
        anna = await client(url)
        await anna.send(anna.req.hello("Anna", resume=resume))
        await anna.send(m.GetCatalogue(id=7))
        answers = [await anna.recv() for _ in range(3 if resume else 2)]
        kinds = [type(answer) for answer in answers]
        assert kinds == ([m.Error] if resume else []) + [m.Welcome, m.Catalogue]
        assert answers[-1].id == 7
        assert {game["id"] for game in answers[-1].games} == {"scopa", "briscola", "schnapsen", "doudizhu"}
        await anna.ws.close()
