"""Finished matches on both backends: written once with their rating changes, read back as
records, history, ratings and leaderboards; analyses kept; casual matches pruned."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace

import pytest

from cardavia.games.ratings import Rating, match_ratings
from cardavia.server.store import Archive, GameRating, Player, SeatEnd, open_archive
from tests.server.store.helpers import bot, match_end, new_hash, person


async def profiles(archive: Archive, *names: str, bots: bool = False) -> list[Player]:
    return [await archive.create_player(name, new_hash(), bot=bots) for name in names]


def sitting(player: Player) -> SeatEnd:
    """The seat of a profile (a person's or a profile bot's)."""
    return SeatEnd(name=player.name, player=player.id, bot_level=None, fixed=None)


async def test_a_rated_match_changes_each_profile_s_rating_once(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    end = match_end("room1-1", [sitting(ada), sitting(bea)], winner=0)
    changes = await archive.record_match(end)
    assert changes is not None
    expected = match_ratings("scopa", end.scores, 0, [Rating(), Rating()], [False, False])
    assert [(c.player, c.seat, c.game) for c in changes] == [(ada.id, 0, "scopa"), (bea.id, 1, "scopa")]
    for change, new in zip(changes, expected, strict=True):
        assert change.before == GameRating("scopa", 1500.0, 350.0, 0.06, 0)
        assert change.after == GameRating("scopa", new.rating, new.deviation, new.volatility, 1)
    assert changes[0].after.rating > 1500.0 > changes[1].after.rating
    assert await archive.ratings(ada.id) == [changes[0].after]
    assert await archive.ratings(bea.id) == [changes[1].after]
    assert await archive.load_record("room1-1") == end.record

    # the same match end again (a retry, or a second node): None, and nothing changes
    assert await archive.record_match(end) is None
    assert await archive.ratings(ada.id) == [changes[0].after]
    assert await archive.ratings(bea.id) == [changes[1].after]
    assert len(await archive.history(ada.id)) == 1


async def test_the_next_match_starts_from_the_ratings_the_last_one_left(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    seats = [sitting(ada), sitting(bea)]
    first = await archive.record_match(match_end("r-1", seats, winner=0))
    draw = match_end("r-2", seats, winner=None, scores=[9, 9], ended=1_001.0)
    second = await archive.record_match(draw)
    assert first is not None
    assert second is not None
    assert [c.before for c in second] == [c.after for c in first]
    expected = match_ratings("scopa", [9, 9], None, [c.after.as_rating() for c in first], [False, False])
    assert [c.after.rating for c in second] == [r.rating for r in expected]
    assert [c.after.games for c in second] == [2, 2]
    assert [g.games for g in await archive.ratings(ada.id)] == [2]


async def test_ratings_are_kept_per_game(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    await archive.record_match(match_end("s-1", [sitting(ada), sitting(bea)], game="scopa", winner=0))
    await archive.record_match(match_end("b-1", [sitting(ada), sitting(bea)], game="briscola", winner=1))
    ratings = await archive.ratings(ada.id)
    assert [g.game for g in ratings] == ["briscola", "scopa"]
    assert ratings[0].rating < 1500.0 < ratings[1].rating


async def test_a_casual_match_changes_no_rating_but_is_history(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    end = match_end("c-1", [sitting(ada), sitting(bea)], rated=False)
    assert await archive.record_match(end) == []
    assert await archive.ratings(ada.id) == []
    assert await archive.leaderboard("scopa") == []
    (entry,) = await archive.history(ada.id)
    assert (entry.record, entry.game, entry.ended, entry.rated, entry.seat) == (
        "c-1",
        "scopa",
        1_000.0,
        False,
        0,
    )
    assert (entry.scores, entry.winner, entry.rating_before, entry.rating_after) == ([11, 5], 0, None, None)
    assert await archive.record_match(end) is None
    assert len(await archive.history(ada.id)) == 1


async def test_built_in_bots_keep_their_fixed_ratings(archive: Archive) -> None:
    (ada,) = await profiles(archive, "Ada")
    strong = bot("strong", 1650.0)
    end = match_end("b-1", [strong, sitting(ada)], winner=0)
    changes = await archive.record_match(end)
    assert changes is not None
    (change,) = changes
    assert strong.fixed is not None
    expected = match_ratings("scopa", end.scores, 0, [strong.fixed, Rating()], [True, False])[1]
    assert (change.player, change.seat, change.after.rating) == (ada.id, 1, expected.rating)
    assert [s.player for s in await archive.leaderboard("scopa")] == [ada.id]  # profiles only
    (entry,) = await archive.history(ada.id)
    assert entry.players == [
        {"name": "bot strong", "bot": True, "player": None},
        {"name": "Ada", "bot": False, "player": ada.id},
    ]
    assert (entry.rating_before, entry.rating_after) == (1500.0, expected.rating)


async def test_an_anonymous_seat_is_casual_only_and_has_no_history(archive: Archive) -> None:
    (ada,) = await profiles(archive, "Ada")
    guest = person("guest", None)
    with pytest.raises(ValueError, match="neither a profile nor a fixed rating"):
        await archive.record_match(match_end("g-1", [guest, sitting(ada)], rated=True))
    assert await archive.load_record("g-1") is None
    assert await archive.record_match(match_end("g-1", [guest, sitting(ada)], rated=False)) == []
    (entry,) = await archive.history(ada.id)
    assert entry.players[0] == {"name": "guest", "bot": False, "player": None}


async def test_a_profile_bot_is_rated_and_marked(archive: Archive) -> None:
    (ada,) = await profiles(archive, "Ada")
    (ladder,) = await profiles(archive, "Ladder", bots=True)
    changes = await archive.record_match(match_end("l-1", [sitting(ladder), sitting(ada)], winner=0))
    assert changes is not None
    assert [c.player for c in changes] == [ladder.id, ada.id]
    board = await archive.leaderboard("scopa")
    assert [(s.rank, s.player, s.bot) for s in board] == [(1, ladder.id, True), (2, ada.id, False)]
    (entry,) = await archive.history(ada.id)
    assert entry.players[0] == {"name": "Ladder", "bot": True, "player": ladder.id}


async def test_dou_dizhu_rates_three_seats_by_their_totals(archive: Archive) -> None:
    lord, p1, p2 = await profiles(archive, "Lord", "Peasant 1", "Peasant 2")
    end = match_end(
        "d-1", [sitting(lord), sitting(p1), sitting(p2)], game="doudizhu", scores=[4, -2, -2], winner=0
    )
    changes = await archive.record_match(end)
    assert changes is not None
    expected = match_ratings("doudizhu", [4, -2, -2], 0, [Rating()] * 3, [False] * 3)
    assert [c.after.rating for c in changes] == [r.rating for r in expected]
    assert changes[0].after.rating > 1500.0
    assert changes[1].after.rating == changes[2].after.rating < 1500.0  # partners are not compared
    board = await archive.leaderboard("doudizhu")
    assert [s.player for s in board] == [lord.id, min(p1.id, p2.id), max(p1.id, p2.id)]


async def test_a_refused_match_end_writes_nothing(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    with pytest.raises(ValueError, match="two seats"):
        await archive.record_match(match_end("x-1", [sitting(ada), sitting(ada)]))
    with pytest.raises(ValueError, match="scores"):
        await archive.record_match(match_end("x-1", [sitting(ada), sitting(bea)], scores=[1]))
    good = match_end("x-1", [sitting(ada), sitting(bea)])
    for field, value, problem in (
        ("winner", 5, "winner"),
        ("winner", True, "winner"),
        ("scores", [1.5, 2], "whole numbers"),
        ("ended", float("nan"), "time"),
        ("rated", 1, "true or false"),
        ("record", ["not", "an", "object"], "JSON object"),
        ("record_id", "", "record id"),
        ("record_id", "r\x00", "not an id"),
        ("seats", [], "seats"),
    ):
        with pytest.raises(ValueError, match=problem):
            await archive.record_match(replace(good, **{field: value}))
    with pytest.raises(ValueError, match="seats"):
        # a game with three seats given two: refused by the rating rules, inside the transaction
        await archive.record_match(match_end("x-1", [sitting(ada), sitting(bea)], game="doudizhu"))
    assert await archive.load_record("x-1") is None
    assert await archive.ratings(ada.id) == []
    assert await archive.history(ada.id) == []


async def test_history_is_newest_first_and_pages_with_before(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    seats = [sitting(ada), sitting(bea)]
    # two matches end at the same second: the record id orders them
    for record_id, ended in (("m-1", 100.0), ("m-2", 300.0), ("m-3", 200.0), ("m-5", 400.0), ("m-4", 400.0)):
        await archive.record_match(match_end(record_id, seats, rated=record_id != "m-3", ended=ended))
    newest = ["m-5", "m-4", "m-2", "m-3", "m-1"]
    assert [e.record for e in await archive.history(ada.id)] == newest
    assert [e.record for e in await archive.history(bea.id, limit=2)] == newest[:2]
    assert [e.record for e in await archive.history(ada.id, limit=2, before="m-4")] == ["m-2", "m-3"]
    assert [e.record for e in await archive.history(ada.id, before="m-5")] == newest[1:]
    assert await archive.history(ada.id, before="m-1") == []
    assert await archive.history(ada.id, before="no-such-record") == []
    assert await archive.history("p-0000000000000000") == []
    for bad in (0, -1, 1001):
        with pytest.raises(ValueError, match="limit"):
            await archive.history(ada.id, limit=bad)
    entries = await archive.history(bea.id)
    assert [e.seat for e in entries] == [1] * 5
    by_record = {e.record: e for e in entries}
    # each rated match starts where the one written before it left off
    chain = [by_record[r] for r in ("m-1", "m-2", "m-5", "m-4")]
    assert chain[0].rating_before == 1500.0
    for earlier, later in itertools.pairwise(chain):
        assert later.rating_before == earlier.rating_after


async def test_the_leaderboard_orders_by_rating_then_games_then_id(archive: Archive) -> None:
    players = await profiles(archive, "A", "B", "C", "D")
    a, b, c, d = players
    # A beats B twice; C and D draw once: C and D tie at 1500 with one game each
    await archive.record_match(match_end("1", [sitting(a), sitting(b)], winner=0))
    await archive.record_match(match_end("2", [sitting(a), sitting(b)], winner=0, ended=1_001.0))
    await archive.record_match(match_end("3", [sitting(c), sitting(d)], winner=None, scores=[7, 7]))
    board = await archive.leaderboard("scopa")
    tied = sorted([c.id, d.id])
    assert [s.player for s in board] == [a.id, *tied, b.id]
    assert [s.rank for s in board] == [1, 2, 3, 4]
    assert board[0].rating > board[1].rating == board[2].rating > board[3].rating
    assert (board[0].name, board[0].games, board[1].games) == ("A", 2, 1)
    assert [s.player for s in await archive.leaderboard("scopa", limit=2)] == [a.id, tied[0]]
    assert await archive.leaderboard("briscola") == []
    for i, expected in enumerate(board):
        assert await archive.standing(expected.player, "scopa") == expected, i
    assert await archive.standing(a.id, "briscola") is None
    assert await archive.standing("p-0000000000000000", "scopa") is None
    # a tie in rating is broken by the number of games
    e, f = await profiles(archive, "E", "F")
    await archive.record_match(match_end("4", [sitting(e), sitting(f)], winner=None, scores=[7, 7]))
    await archive.record_match(
        match_end("5", [sitting(e), sitting(f)], winner=None, scores=[7, 7], ended=2e3)
    )
    standing = await archive.standing(e.id, "scopa")
    assert standing is not None
    assert standing.games == 2
    assert standing.rank == (3 if f.id < e.id else 2)  # behind A, ahead of C and D (one game each)
    for bad in (0, 1001):
        with pytest.raises(ValueError, match="limit"):
            await archive.leaderboard("scopa", limit=bad)


async def test_an_analysis_is_kept_with_its_match(archive: Archive) -> None:
    (ada,) = await profiles(archive, "Ada")
    await archive.record_match(match_end("a-1", [bot(), sitting(ada)]))
    assert await archive.load_analysis("a-1") is None
    notes = [
        None,
        {"best": {"play": "7D"}, "differs": True},
        {"best": {"play": "3S"}, "differs": False, "forced": True},
    ]
    await archive.save_analysis("a-1", notes)
    assert await archive.load_analysis("a-1") == notes
    await archive.save_analysis("a-1", notes[:1])
    assert await archive.load_analysis("a-1") == notes[:1]
    await archive.save_analysis("no-such-record", notes)  # keeps nothing
    assert await archive.load_analysis("no-such-record") is None
    assert await archive.load_record("no-such-record") is None
    with pytest.raises(ValueError, match="list"):
        await archive.save_analysis("a-1", {"best": 1})  # type: ignore[arg-type]


async def test_prune_deletes_old_casual_matches_only(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    seats = [sitting(ada), sitting(bea)]
    await archive.record_match(match_end("old-casual", seats, rated=False, ended=100.0))
    await archive.record_match(match_end("old-rated", seats, rated=True, ended=100.0))
    await archive.record_match(match_end("new-casual", seats, rated=False, ended=300.0))
    await archive.save_analysis("old-casual", [None])
    assert await archive.prune(200.0) == 1
    assert await archive.load_record("old-casual") is None
    assert await archive.load_analysis("old-casual") is None
    assert await archive.load_record("old-rated") is not None
    assert [e.record for e in await archive.history(ada.id)] == ["new-casual", "old-rated"]
    assert await archive.prune(200.0) == 0
    # a pruned record id may come back: it is a new match end
    assert await archive.record_match(match_end("old-casual", seats, rated=False, ended=100.0)) == []


async def test_two_archives_ending_matches_of_one_player_at_once_both_count(
    archive: Archive, archive_url: str
) -> None:
    """Two nodes on one database write two matches of the same player at the same moment: the
    second read of her rating waits for the first write, so both games count."""
    ada, bea, cid = await profiles(archive, "Ada", "Bea", "Cid")
    other = open_archive(archive_url)
    await other.open()
    try:
        for n in range(4):
            first = match_end(f"x-{n}", [sitting(ada), sitting(bea)], winner=0, ended=1_000.0 + n)
            second = match_end(f"y-{n}", [sitting(ada), sitting(cid)], winner=0, ended=1_000.0 + n)
            done = await asyncio.gather(archive.record_match(first), other.record_match(second))
            assert all(d is not None for d in done)
        (rating,) = await archive.ratings(ada.id)
        assert rating.games == 8
        # the chain of befores and afters has no gap: each write started from the last one's result
        entries = await archive.history(ada.id, limit=50)
        afters = {e.rating_after for e in entries}
        befores = [e.rating_before for e in entries]
        assert befores.count(1500.0) == 1
        assert all(b in afters for b in befores if b != 1500.0)
        assert rating.rating in afters
        assert rating.rating not in befores
    finally:
        await other.close()


async def test_the_same_match_end_from_two_archives_at_once_is_written_once(
    archive: Archive, archive_url: str
) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    other = open_archive(archive_url)
    await other.open()
    try:
        end = match_end("twice-1", [sitting(ada), sitting(bea)])
        done = await asyncio.gather(archive.record_match(end), other.record_match(end))
        assert sorted(d is None for d in done) == [False, True]
        (rating,) = await archive.ratings(ada.id)
        assert rating.games == 1
    finally:
        await other.close()


async def test_a_rated_match_of_built_in_bots_only_is_kept_and_rates_nobody(archive: Archive) -> None:
    end = match_end("bots-1", [bot("basic"), bot("strong", 1650.0)], winner=1)
    assert await archive.record_match(end) == []
    assert await archive.load_record("bots-1") == end.record
    assert await archive.leaderboard("scopa") == []


async def test_matches_sharing_players_in_a_ring_written_at_once_all_count(
    archive: Archive, archive_url: str
) -> None:
    """Four players, four matches each sharing both players with another (A-B, B-C, C-D, D-A),
    written at the same moment from three archives: no writer waits on another forever, and
    each player ends with two games counted."""
    players = await profiles(archive, "A", "B", "C", "D")
    others = [open_archive(archive_url) for _ in range(2)]
    for other in others:
        await other.open()
    writers = [archive, *others]
    try:
        for n in range(3):
            ends = [
                match_end(
                    f"ring-{n}-{i}", [sitting(players[i]), sitting(players[(i + 1) % 4])], ended=n * 10.0 + i
                )
                for i in range(4)
            ]
            done = await asyncio.gather(*(writers[i % 3].record_match(end) for i, end in enumerate(ends)))
            assert all(d is not None for d in done)
        for player in players:
            (rating,) = await archive.ratings(player.id)
            assert rating.games == 6
    finally:
        for other in others:
            await other.close()
