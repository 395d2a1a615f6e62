"""Rated matches: a rated match against bots changes a profile's rating exactly once, pushes
``rating_change``, and shows in history and on the leaderboard; a casual one changes no rating;
and on a cluster any node serves any finished match's record."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardavia.bots.ratings import bot_rating
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.store import MatchEnd, RatingChange, StorageUnavailable
from tests.support.clients import Client, client
from tests.support.nodes import node_url, two_nodes
from tests.support.postgres import fresh_database
from tests.support.servers import server_config
from tests.support.waiting import wait_until


async def _with_profile(url: str, name: str = "Anna") -> tuple[Client, m.Profile]:
    player = await client(url, name)
    await player.hello()
    await player.send(player.req.create_profile(name))
    profile: m.Profile = await player.expect(m.Profile)
    return player, profile


async def _after_the_result(player: Client, kind: type[m.Reply]) -> m.Reply:
    """The next message of ``kind``; fails on an error."""
    message: m.Reply = await player.expect(kind, timeout=10)
    return message


async def test_a_rated_match_against_a_bot_changes_the_rating_once(server: CardaviaServer, url: str) -> None:
    anna, profile = await _with_profile(url)
    await anna.send(anna.req.play_now("briscola", "basic", rated=True))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert snapshot.room.rated
    result = await anna.play_until_over(random.Random(5))
    assert result.record is not None
    change = await _after_the_result(anna, m.RatingChange)
    assert isinstance(change, m.RatingChange)
    assert (change.record, change.game, change.before) == (result.record, "briscola", 1500)
    assert change.after != change.before
    assert (change.after > change.before) == (result.winner == 0)
    assert change.deviation < 350  # one match is known about the player now
    [rating] = await server.archive.ratings(profile.player.id)
    assert (rating.game, rating.games, round(rating.rating)) == ("briscola", 1, change.after)

    # the same end submitted again (as a node that adopts the finished room does) changes nothing
    room = server.rooms[snapshot.room.room]
    again = server.room_keeper.match_end(
        room, result.record, await server.archiver.load_record(result.record) or {}
    )
    assert again.seats[0].player == profile.player.id
    assert again.seats[1].fixed == bot_rating("briscola", "basic")
    assert await server.archive.record_match(again) is None
    assert [r.games for r in await server.archive.ratings(profile.player.id)] == [1]

    await anna.send(anna.req.get_history())
    history: m.History = await anna.expect(m.History)
    [entry] = history.matches
    assert (entry.record, entry.rated, entry.seat) == (result.record, True, 0)
    assert (entry.rating_before, entry.rating_after) == (1500, change.after)
    assert entry.players[1]["bot"] is True
    await anna.send(anna.req.get_leaderboard("briscola"))
    board: m.Leaderboard = await anna.expect(m.Leaderboard)
    assert board.me is not None
    assert (board.me.player, board.me.rating, board.me.games) == (profile.player.id, change.after, 1)


async def test_a_casual_match_changes_no_rating_but_is_in_the_history(
    server: CardaviaServer, url: str
) -> None:
    anna, profile = await _with_profile(url)
    await anna.send(anna.req.play_now("briscola", "random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert not snapshot.room.rated
    result = await anna.play_until_over(random.Random(6))
    assert await server.archiver.drain(timeout=10)
    assert await server.archive.ratings(profile.player.id) == []
    await anna.send(anna.req.get_history())
    history: m.History = await anna.expect(m.History)
    [entry] = history.matches
    assert (entry.record, entry.rated, entry.rating_before, entry.rating_after) == (
        result.record,
        False,
        None,
        None,
    )
    assert not any(isinstance(message, m.RatingChange) for message in anna.received)


async def test_two_profiles_in_a_rated_room_are_both_rated(server: CardaviaServer, url: str) -> None:
    anna, anna_profile = await _with_profile(url, "Anna")
    bo, bo_profile = await _with_profile(url, "Bo")
    await anna.send(anna.req.create_room("schnapsen", humans=2, rated=True))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.join(room=made.room.room))
    await bo.expect(m.Snapshot)
    await anna.send(anna.req.start())
    rng = random.Random(8)
    while True:  # both play at random until the match is over
        done = False
        for player in (anna, bo):
            try:
                message = await player.recv(timeout=0.05)
            except TimeoutError:
                continue
            if isinstance(message, m.YourTurn):
                await player.send(player.req.act(rng.choice(message.legal)))
            elif isinstance(message, m.MatchResult):
                done = True
            elif isinstance(message, m.Error):
                raise AssertionError(message)
        if done:
            break
    changes = [await _after_the_result(p, m.RatingChange) for p in (anna, bo)]
    assert all(isinstance(c, m.RatingChange) for c in changes)
    moved = sorted(c.after - c.before for c in changes if isinstance(c, m.RatingChange))
    assert moved[0] < 0 < moved[1]  # one won, the other lost
    for profile in (anna_profile, bo_profile):
        assert [r.games for r in await server.archive.ratings(profile.player.id)] == [1]


@pytest.fixture
async def shared_database() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


async def test_any_node_serves_the_record_of_a_match_another_node_finished(
    tmp_path: Path, shared_database: str
) -> None:
    config = server_config(tmp_path, database_url=shared_database)
    async with two_nodes(config) as (a, b):
        anna, profile = await _with_profile(node_url(a))
        await anna.send(anna.req.play_now("scopa", "random", rated=True))
        result = await anna.play_until_over(random.Random(9))
        assert result.record is not None
        await _after_the_result(anna, m.RatingChange)  # written, so in the shared database
        bo = await client(node_url(b), "Bo")
        await bo.hello()
        await bo.send(bo.req.get_record(result.record))
        record: m.RecordMessage = await bo.expect(m.RecordMessage)
        assert record.record == await a.archiver.load_record(result.record)
        await bo.send(bo.req.get_history(player=profile.player.id))
        history: m.History = await bo.expect(m.History)
        assert [e.record for e in history.matches] == [result.record]
        assert not b.rooms  # node b never ran the match


class Away:
    """The archive's database does not answer ``record_match`` until ``back``."""

    def __init__(self, server: CardaviaServer, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tries = 0
        self._monkeypatch = monkeypatch

        async def unreachable(end: MatchEnd) -> list[RatingChange] | None:
            self.tries += 1
            raise StorageUnavailable("connection refused")

        monkeypatch.setattr(server.archive, "record_match", unreachable)

    def back(self) -> None:
        self._monkeypatch.undo()


async def test_a_finished_room_stays_in_the_lobby_until_the_archive_has_its_match(
    server: CardaviaServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, profile = await _with_profile(url)
    away = Away(server, monkeypatch)
    await anna.send(anna.req.play_now("briscola", "random", rated=True))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    room = snapshot.room.room
    result = await anna.play_until_over(random.Random(12))
    await wait_until(lambda: away.tries >= 1, "a write the database did not take")
    await anna.send(anna.req.get_record(result.record or ""))  # served from the node's memory
    await anna.expect(m.RecordMessage)
    await anna.send(anna.req.leave())
    await anna.expect(m.Left)
    await wait_until(lambda: room not in server.rooms, "the room closed on its node")
    assert await server.lobby.get_room(room) is not None  # an adopter could still finish it
    journal = await server.lobby.load_match(room)
    assert journal is not None
    assert journal[0]["seats"][0]["player"] == profile.player.id
    away.back()
    change = await _after_the_result(anna, m.RatingChange)
    assert isinstance(change, m.RatingChange)
    assert change.record == result.record
    await wait_until(lambda: _gone(server, room), "the room's lobby entry released")
    assert [r.games for r in await server.archive.ratings(profile.player.id)] == [1]


async def _gone(server: CardaviaServer, room: str) -> bool:
    return await server.lobby.get_room(room) is None and await server.lobby.load_match(room) is None


async def test_a_rematch_journals_the_ends_the_archive_does_not_have_yet(
    server: CardaviaServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, profile = await _with_profile(url)
    away = Away(server, monkeypatch)
    await anna.send(anna.req.play_now("briscola", "random", rated=True))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    room = snapshot.room.room
    first = await anna.play_until_over(random.Random(13))
    await anna.send(anna.req.rematch())
    await anna.expect(m.Snapshot)
    journal = await server.lobby.load_match(room)
    assert journal is not None
    [unarchived] = journal[0]["unarchived"]
    assert unarchived["record_id"] == first.record
    assert unarchived["seats"][0]["player"] == profile.player.id
    assert unarchived["record"] == await server.archiver.load_record(first.record or "")
    second = await anna.play_until_over(random.Random(14))
    assert away.tries >= 1
    away.back()
    assert await server.archiver.drain(timeout=15)
    history = await server.archive.history(profile.player.id)
    assert sorted(e.record for e in history) == sorted([first.record or "", second.record or ""])
    assert [r.games for r in await server.archive.ratings(profile.player.id)] == [2]


async def test_a_record_not_on_this_node_while_the_database_is_away_is_asked_for_again_later(
    server: CardaviaServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable(*args: object) -> None:
        raise StorageUnavailable("connection refused")

    monkeypatch.setattr(server.archive, "load_record", unreachable)
    anna = await client(url)
    await anna.hello()
    for request in (anna.req.get_record("r-0123456789abcdef-1"), anna.req.get_replay("r-0123456789abcdef-1")):
        await anna.send(request)
        error: m.Error = await anna.expect(m.Error)
        assert (error.code, error.id) == ("storage_unavailable", request.id)
        assert error.retry_after is not None
        assert error.retry_after > 0
