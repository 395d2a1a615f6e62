"""Attacks on a live server, each answered as SECURITY.md says: shuffles nobody can foresee, no
rematch forced by an outsider, sessions that end, per-address limits, room codes nobody can guess,
reservations nobody else can cancel, turn timers within bounds."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.handlers import match_seed
from cardavia.server.rooms import CODE_ALPHABET
from tests.plain_data import strings_in
from tests.support.clients import Client, client
from tests.support.metrics import metric_samples
from tests.support.nodes import follow, node_url, redirected
from tests.support.servers import own_server, server_config
from tests.support.waiting import wait_until


async def _closed_with(c: Client, timeout: float = 5.0) -> int | None:
    """Read until the server closes the connection; its close code."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await c.ws.recv()
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


# ------------------------------------------------------------------ 1. the shuffle
def test_a_match_seed_is_128_random_bits_and_nothing_else() -> None:
    seeds = [match_seed() for _ in range(2000)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in seeds)  # 32 hex digits: 128 bits
    assert len(set(seeds)) == len(seeds)
    # every bit position takes both values: no fixed part (a room id, a counter, a clock)
    bits = [int(s, 16) for s in seeds]
    assert all(0 < sum(b >> i & 1 for b in bits) < len(bits) for i in range(128))


async def test_two_rooms_made_in_the_same_instant_get_unrelated_secret_seeds(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, url):
        players = [await client(url, name) for name in ("Anna", "Bo")]
        for p in players:
            await p.hello()
        await asyncio.gather(*(p.send(m.PlayNow(id=1, game="briscola", bot_level="random")) for p in players))
        for p in players:
            await p.expect(m.Snapshot)
        rooms = list(server.rooms.values())
        seeds = [str(r.entry.extra["seed"]) for r in rooms]
        assert len(rooms) == 2
        assert seeds[0] != seeds[1]
        for room, seed in zip(rooms, seeds, strict=True):
            assert re.fullmatch(r"[0-9a-f]{32}", seed)
            assert room.id not in seed
            assert room.id.removeprefix("r-") not in seed
        # the seed is in no frame while the match is on, and in the record once it is over
        results = await asyncio.gather(*(p.play_until_over(random.Random(3)) for p in players))
        for p, result, seed in zip(players, results, seeds, strict=True):
            over = next(i for i, msg in enumerate(p.received) if isinstance(msg, m.MatchResult))
            for frame in p.frames[:over]:  # inside a longer string too, or anywhere in the bytes
                assert seed.encode() not in frame
                assert not any(seed in text for text in strings_in(msgpack.unpackb(frame)))
            await p.send(m.GetRecord(id=7, record=result.record or ""))
            record: m.RecordMessage = await p.expect(m.RecordMessage)
            assert record.record["seed"] in seeds


# ------------------------------------------------------------------ 2. rematches
async def _finished_two_player_room(url: str) -> tuple[Client, Client, m.Snapshot]:
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    for c in (anna, bo):
        await c.hello()
    await anna.send(anna.req.create_room("briscola", humans=2, bot_level="random", public=False))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.join(code=made.room.code))
    await bo.expect(m.Snapshot)
    await anna.send(anna.req.start())
    await asyncio.gather(anna.play_until_over(random.Random(1)), bo.play_until_over(random.Random(2)))
    return anna, bo, made


async def test_a_spectator_cannot_force_a_rematch(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, url):
        _anna, _bo, made = await _finished_two_player_room(url)
        eve = await client(url, "Eve")
        await eve.hello()
        await eve.send(m.Spectate(id=2, code=made.room.code))
        await eve.expect(m.Snapshot)
        await eve.send(m.Rematch(id=3))
        refused: m.Error = await eve.expect(m.Error)
        assert (refused.id, refused.code) == (3, "spectator")
        room = server.rooms[made.room.room]
        assert room.finished
        assert room.matches == 1
        assert room.rematch_asked == set()


async def test_a_rematch_starts_only_when_every_seated_player_has_asked(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, url):
        anna, bo, made = await _finished_two_player_room(url)
        room = server.rooms[made.room.room]
        await anna.send(m.Rematch(id=11))
        mine: m.RematchVotes = await anna.expect(m.RematchVotes)
        theirs: m.RematchVotes = await bo.expect(m.RematchVotes)
        assert (mine.id, mine.asked, mine.waiting) == (11, [0], [1])
        assert (theirs.id, theirs.asked, theirs.waiting) == (None, [0], [1])
        assert room.finished  # Bo has not agreed: nothing started
        await bo.send(m.Rematch(id=12))
        fresh_anna: m.Snapshot = await anna.expect(m.Snapshot)
        fresh_bo: m.Snapshot = await bo.expect(m.Snapshot)
        assert fresh_anna.room.state == fresh_bo.room.state == "playing"
        assert room.matches == 1
        assert not room.finished


async def test_when_the_only_player_left_to_ask_leaves_the_rematch_starts(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (_server, url):
        anna, bo, _made = await _finished_two_player_room(url)
        await anna.send(m.Rematch(id=11))
        await anna.expect(m.RematchVotes)
        await bo.send(m.Leave(id=12))
        await bo.expect(m.Left)
        fresh: m.Snapshot = await anna.expect(m.Snapshot)  # Bo's seat goes on with a stand-in
        assert fresh.room.state == "playing"


# ------------------------------------------------------------------ 3. sessions end
def _sessions_left(server: CardaviaServer) -> int:
    """Sessions the node and its lobby still hold, by any of the tables that keep them."""
    sizes = server.table_sizes()
    return max(sizes["lobby_sessions"], sizes["lobby_tokens"], sizes["sessions"])


async def test_a_session_without_a_seat_expires_and_its_token_stops_working(tmp_path: Path) -> None:
    async with own_server(tmp_path, session_seconds=0.2) as (server, url):
        for n in range(30):
            c = await client(url, f"P{n}")
            await c.hello()
            await c.ws.close()
        anna = await client(url)
        first = await anna.hello()
        await anna.ws.close()
        await wait_until(lambda: _sessions_left(server) == 0, "every session expired")
        back = await client(url)
        await back.send(back.req.hello("Anna", resume=first.resume))
        refused: m.Error = await back.expect(m.Error)
        fresh: m.Welcome = await back.expect(m.Welcome)
        assert refused.code == "bad_resume_token"
        assert fresh.session != first.session
        await back.ws.close()
        await wait_until(lambda: _sessions_left(server) == 0, "the fresh session expired too")
        sizes = server.table_sizes()
        assert sizes["lobby_sessions"] == sizes["lobby_tokens"] == sizes["sessions"] == 0


async def test_a_seated_session_outlives_session_seconds_while_its_room_is_on(tmp_path: Path) -> None:
    async with own_server(tmp_path, session_seconds=0.2, grace_seconds=5.0) as (_, url):
        anna = await client(url)
        first = await anna.hello()
        await anna.send(m.PlayNow(id=1, game="scopa", bot_level="random"))
        await anna.expect(m.Snapshot)
        await anna.ws.close()
        await asyncio.sleep(0.5)  # time passes on purpose: past session_seconds, the seat keeps the session
        back = await client(url)
        welcome = await back.hello(resume=first.resume)
        assert welcome.session == first.session
        assert welcome.room is not None


# ------------------------------------------------------------------ 4. tables back to idle
async def test_every_table_is_back_to_its_idle_size_after_games(tmp_path: Path) -> None:
    # a budget of new sessions that refills within the test (at the default it takes a minute)
    config = server_config(tmp_path, session_seconds=0.1, grace_seconds=0.1, sessions_per_minute=6000)
    server = CardaviaServer(config)
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        idle = server.table_sizes()
        for n, game in enumerate(("briscola", "schnapsen", "doudizhu", "briscola")):
            c = await client(url, f"P{n}")
            await c.hello()
            await c.send(m.PlayNow(id=1, game=game, bot_level="random"))
            await c.expect(m.Snapshot)
            await c.play_until_over(random.Random(n), timeout=30)
            await c.send(m.Leave(id=2))
            await c.expect(m.Left)
            await c.ws.close()
        await wait_until(
            lambda: server.table_sizes() == idle, "every table back to its idle size", timeout=10.0
        )
        samples = await metric_samples(server)
        scrape = {"address_connections": 1}  # the socket asking for /metrics counts while it asks
        for table, size in idle.items():  # and /metrics says so, table by table
            assert samples[("cardavia_table_size", (("table", table),))] == size + scrape.get(table, 0)
    finally:
        await server.shutdown()


# ------------------------------------------------------------------ 5. per-address limits
async def _connect(url: str, name: str, forwarded_for: str | None = None) -> Client:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    return Client(await connect(url, compression=None, additional_headers=headers), name)


async def test_an_address_may_hold_only_so_many_connections(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=3) as (server, url):
        held = [await _connect(url, f"P{n}") for n in range(3)]
        for c in held:
            await c.hello()
        extra = await _connect(url, "P3")
        assert await _closed_with(extra) == 1013
        await held[0].ws.close()
        await wait_until(lambda: server.table_sizes()["connections"] == 2, "the closed connection forgotten")
        again = await _connect(url, "P4")  # a connection closed frees its place
        await again.hello()


async def test_an_address_may_start_only_so_many_sessions_a_minute_and_resuming_is_not_one(
    tmp_path: Path,
) -> None:
    async with own_server(tmp_path, sessions_per_minute=3) as (_, url):
        welcomes = []
        for n in range(3):
            c = await _connect(url, f"P{n}")
            welcomes.append(await c.hello())
            await c.ws.close()
        refused = await _connect(url, "P3")
        await refused.send(refused.req.hello("P3"))
        error: m.Error = await refused.expect(m.Error)
        assert error.code == "rate_limited"
        assert await _closed_with(refused) == 1013
        back = await _connect(url, "P0")
        assert (await back.hello(resume=welcomes[0].resume)).session == welcomes[0].session


async def test_behind_a_trusted_proxy_each_forwarded_client_is_counted_on_its_own(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=1, trusted_proxies="127.0.0.1") as (_, url):
        first = await _connect(url, "A", forwarded_for="203.0.113.5")
        second = await _connect(url, "B", forwarded_for="203.0.113.6")
        for c in (first, second):
            await c.hello()
        same = await _connect(url, "C", forwarded_for="198.51.100.1, 203.0.113.5")  # a spoofed first hop
        assert await _closed_with(same) == 1013


async def test_a_forwarded_header_from_an_untrusted_peer_is_ignored(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=1) as (_, url):
        first = await _connect(url, "A", forwarded_for="203.0.113.5")
        await first.hello()
        other = await _connect(url, "B", forwarded_for="203.0.113.6")  # still 127.0.0.1 to the server
        assert await _closed_with(other) == 1013


# ------------------------------------------------------------------ 6. room codes
async def test_room_codes_are_long_and_read_aloud_easily_and_typed_loosely(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (_, url):
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.create_room("briscola", humans=2, public=False))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        code = made.room.code or ""
        assert len(code) >= 8
        assert set(code) <= set(CODE_ALPHABET)
        assert not set(code) & set("IO01")
        bo = await client(url, "Bo")
        await bo.hello()
        await bo.send(bo.req.join(code=f"{code[:4].lower()}-{code[4:]}"))
        seated: m.Snapshot = await bo.expect(m.Snapshot)
        assert seated.seat == 1


async def test_guessing_codes_is_cut_off_per_connection_and_per_address(tmp_path: Path) -> None:
    async with own_server(tmp_path, failed_lookups_per_minute=5, abuse_limit=1000) as (_, url):
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.create_room("scopa", humans=2, public=False))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        guesser = await client(url, "Eve")
        await guesser.hello()
        for n in range(5):
            await guesser.send(guesser.req.join(code=f"ZZZZZZZ{n + 2}"))
            assert (await guesser.expect(m.Error)).code == "unknown_room"
        await guesser.send(guesser.req.join(code=made.room.code or ""))  # even the right code now
        assert (await guesser.expect(m.Error)).code == "rate_limited"
        other = await client(url, "Eve2")  # another connection from the same address
        await other.hello()
        await other.send(m.Spectate(id=3, code=made.room.code or ""))
        assert (await other.expect(m.Error)).code == "rate_limited"
        assert (await anna.ws.ping()) is not None  # the room's owner is not affected


async def test_a_connection_that_keeps_naming_unknown_rooms_is_closed(tmp_path: Path) -> None:
    async with own_server(tmp_path, abuse_limit=3) as (_, url):
        guesser = await client(url, "Eve")
        await guesser.hello()
        for n in range(4):
            await guesser.send(m.Spectate(id=n + 1, code=f"ZZZZZZZ{n + 2}"))
        assert await _closed_with(guesser) == 1008


# ------------------------------------------------------------------ 8. reservations
async def test_a_stranger_cannot_cancel_someone_elses_seat_reservation(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, _ = nodes
    _, made, bo, redirect = await redirected(nodes)
    eve = await client(node_url(a), "Eve")
    await eve.hello()
    await eve.send(m.JoinRoom(id=4, room=redirect.room, reservation=redirect.reservation))
    assert (await eve.expect(m.Error)).code == "bad_reservation"
    moved = await follow(bo, redirect)
    seated: m.Snapshot = await moved.expect(m.Snapshot)
    assert (seated.room.room, seated.seat) == (made.room.room, 1)


# ------------------------------------------------------------------ 9. turn timers
@pytest.mark.parametrize("seconds", [1e-9, 0.5, 4.99, 600.5, 1e9])
async def test_a_turn_timer_out_of_bounds_is_refused(tmp_path: Path, seconds: float) -> None:
    async with own_server(tmp_path) as (server, url):
        anna = await client(url)
        await anna.hello()
        frame = msgpack.packb(
            {"type": "create_room", "id": 5, "game": "briscola", "turn_seconds": seconds}, use_bin_type=True
        )
        await anna.ws.send(frame)
        refused: m.Error = await anna.expect(m.Error)
        assert (refused.id, refused.code) == (5, "invalid_field")
        assert "turn_seconds" in refused.message
        assert not server.rooms


@pytest.mark.parametrize("seconds", [5, 600])
async def test_turn_timers_at_the_bounds_are_kept(tmp_path: Path, seconds: float) -> None:
    async with own_server(tmp_path) as (_, url):
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.create_room("briscola", turn_seconds=float(seconds)))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        assert made.room.turn_seconds == seconds
