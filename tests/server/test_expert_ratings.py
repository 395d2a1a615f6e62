"""The expert level on the server: a game that lists it seats it like any level; a rated room
seats it only once it has a published fixed rating (``bots/data/ratings.json``, from
``cardavia arena --calibrate``), and the leaderboard shows it from then on. The expert here is a
stand-in registered for the test, and its rating a figure patched in for the test alone."""

from __future__ import annotations

import random

import pytest

from cardavia.bots import ratings
from cardavia.bots.ratings import bot_rating
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.profiles import bot_standings
from tests.support.clients import Client, client
from tests.support.experts import list_quick_expert


@pytest.fixture
def briscola_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Briscola with a quick expert and, until a test publishes one, no expert rating."""
    list_quick_expert(monkeypatch)
    table = {g: dict(levels) for g, levels in ratings._table().items()}
    table["briscola"].pop("expert", None)
    monkeypatch.setattr(ratings, "_table", lambda: table)


def publish(monkeypatch: pytest.MonkeyPatch, game: str, level: str, rating: int) -> None:
    table = {g: dict(levels) for g, levels in ratings._table().items()}
    table[game][level] = rating
    monkeypatch.setattr(ratings, "_table", lambda: table)


async def _with_profile(url: str) -> Client:
    player = await client(url, "Anna")
    await player.hello()
    await player.send(player.req.create_profile("Anna"))
    await player.expect(m.Profile)
    return player


@pytest.mark.usefixtures("briscola_expert")
def test_the_leaderboard_shows_a_level_once_it_has_a_published_rating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unrated = [s.player for s in bot_standings("briscola")]
    assert unrated == [f"bot:{level}" for level in ("random", "basic", "strong")]
    publish(monkeypatch, "briscola", "expert", 1700)
    rows = {s.player: s.rating for s in bot_standings("briscola")}
    assert rows["bot:expert"] == 1700


@pytest.mark.usefixtures("briscola_expert")
async def test_a_casual_room_seats_an_expert_a_rated_one_only_once_it_is_rated(url: str) -> None:
    anna = await _with_profile(url)
    await anna.send(anna.req.play_now("briscola", "expert", rated=True))
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "invalid_field"
    assert "expert" in error.message
    assert "rating" in error.message
    await anna.send(anna.req.play_now("briscola", "expert"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    while snapshot.room.seats[1]["kind"] != "bot":  # the bots take their seats as the match starts
        snapshot = await anna.expect(m.Snapshot)
    assert snapshot.room.seats[1]["bot"] == "expert"
    assert not snapshot.room.rated


@pytest.mark.usefixtures("briscola_expert")
async def test_a_rated_match_against_an_expert_is_rated_at_its_published_rating(
    server: CardaviaServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    publish(monkeypatch, "briscola", "expert", 1700)
    anna = await _with_profile(url)
    await anna.send(anna.req.play_now("briscola", "expert", rated=True))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert snapshot.room.rated
    result = await anna.play_until_over(random.Random(3))
    assert result.record is not None
    change: m.RatingChange = await anna.expect(m.RatingChange, timeout=10)
    assert change.before == 1500
    room = server.rooms[snapshot.room.room]
    end = server.room_keeper.match_end(
        room, result.record, await server.archiver.load_record(result.record) or {}
    )
    assert (end.seats[1].bot_level, end.seats[1].fixed) == ("expert", bot_rating("briscola", "expert"))
    assert round(bot_rating("briscola", "expert").rating) == 1700
