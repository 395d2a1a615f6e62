"""Profiles on a live server: a key that signs in, a transfer code that moves it, a deletion that
ends it, what others may look up, and every hostile way in (garbage keys, reused or expired
codes, guessed codes, a database that is away), on each backend of the archive."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardavia.bots.ratings import bot_rating, bot_ratings
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import LobbyUnavailable
from cardavia.server.profiles import CODE_ALPHABET, KEY_FORM
from tests.server.store.helpers import bot, match_end, person
from tests.server.store.outage import FolderOutage, Relay, database_to_take_away
from tests.support.clients import Client, client
from tests.support.clock import FakeClock
from tests.support.metrics import metric_samples
from tests.support.nodes import follow, node_url, two_nodes
from tests.support.postgres import fresh_database
from tests.support.servers import own_server, server_config
from tests.support.waiting import wait_until

BACKENDS = ("sqlite", "postgres")
"""The archive's backends a server here runs on: the embedded SQLite file (the default), and a
fresh PostgreSQL database of its own."""


@pytest.fixture(params=BACKENDS)
async def config(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[ServerConfig]:
    """The test server's settings on each backend of the archive."""
    if request.param == "sqlite":
        yield server_config(tmp_path)  # database_url empty: records_dir/cardavia.db
        return
    async with fresh_database() as url:
        yield server_config(tmp_path, database_url=url)


# ------------------------------------------------------------------------------ helpers
async def ready(url: str, name: str = "Anna", *, key: str | None = None, resume: str | None = None) -> Client:
    c = await client(url, name)
    await c.send(c.req.hello(name, player=key, resume=resume))
    await c.expect(m.Welcome)
    return c


def welcome_of(c: Client) -> m.Welcome:
    return next(x for x in c.received if isinstance(x, m.Welcome))


async def signed_up(url: str, name: str = "Anna") -> tuple[Client, m.Profile]:
    """A new player who has just made a profile."""
    c = await ready(url, name)
    await c.send(c.req.create_profile(name))
    profile: m.Profile = await c.expect(m.Profile)
    return c, profile


async def refused(c: Client, request: m.Request) -> m.Error:
    await c.send(request)
    error: m.Error = await c.expect(m.Error)
    assert error.id == request.id
    return error


async def asked(c: Client, request: m.Request, kind: type[Any]) -> Any:
    await c.send(request)
    answer = await c.expect(kind)
    assert answer.id == request.id
    return answer


async def answered(c: Client, request: m.Request, kind: type[Any]) -> Any:
    """The answer of ``kind`` to a request answered without its id (a snapshot)."""
    await c.send(request)
    return await c.expect(kind)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# ------------------------------------------------------------------------ the player key
async def test_a_profile_is_made_once_and_its_key_signs_in_on_any_later_connection(
    server: CardaviaServer, url: str
) -> None:
    anna, profile = await signed_up(url)
    assert profile.key is not None
    assert KEY_FORM.fullmatch(profile.key)
    assert profile.player.name == "Anna"
    assert not profile.player.bot
    assert profile.player.id.startswith("p-")
    assert len(profile.player.id) == 18
    assert (await refused(anna, anna.req.create_profile("Anna again"))).code == "profile_exists"

    later = await ready(url, "Whoever", key=profile.key)
    welcome = welcome_of(later)
    assert (welcome.player, welcome.player_error) == (profile.player, None)
    assert welcome.session != welcome_of(anna).session  # a profile is not a session

    # the database holds the key's hash only: a copy of it signs in as nobody
    stored = b"".join(p.read_bytes() for p in Path(server.config.records_dir).glob("cardavia.db*"))
    if stored:  # the SQLite backend: its files are in the records folder
        assert profile.key.encode() not in stored
    assert await server.archive.player_by_key(digest(profile.key)) is not None
    samples = await metric_samples(server)
    assert samples[("cardavia_profile_events_total", (("event", "created"),))] == 1.0
    assert samples[("cardavia_profile_events_total", (("event", "signed_in"),))] == 1.0
    assert samples[("cardavia_storage_up", ())] == 1.0
    assert samples[("cardavia_table_size", (("table", "players"),))] == 1.0  # one profile connected


async def test_a_resumed_session_keeps_its_profile_without_the_key(url: str) -> None:
    anna, profile = await signed_up(url)
    await anna.ws.close()
    back = await ready(url, key=None, resume=anna.resume)
    assert welcome_of(back).player == profile.player
    answer: m.Profile = await asked(back, back.req.rename_profile("Anna B."), m.Profile)
    assert answer.player.name == "Anna B."
    assert answer.key is None


@pytest.mark.parametrize(
    "key",  # each a fresh anonymous start, and only the last is even looked up
    [
        "x" * 128,  # the longest the protocol lets through, and garbage
        secrets.token_urlsafe(32),  # a key of another form (43 characters)
        secrets.token_hex(16),  # of the form (32 URL-safe characters), but never given out
        "a" * 31 + "/",  # not URL-safe
        "",
        " " + secrets.token_urlsafe(24)[1:],
    ],
    ids=["garbage-128", "token-43", "hex-32", "slash", "empty", "space"],
)
async def test_a_key_not_of_the_servers_form_starts_an_anonymous_session(url: str, key: str) -> None:
    c = await ready(url, key=key)
    welcome = welcome_of(c)
    expected = "unknown_player" if KEY_FORM.fullmatch(key) else "malformed_player_key"
    assert (welcome.player, welcome.player_error) == (None, expected)
    await asked(c, c.req.get_catalogue(), m.Catalogue)  # the session works
    assert (await refused(c, c.req.rename_profile("Mallory"))).code == "profile_required"


async def test_an_unknown_key_changes_nothing_else_about_the_hello(url: str) -> None:
    """A seated player who comes back with a key the server does not know still gets their
    seat: the key's refusal is an anonymous start, never a refused hello."""
    anna = await ready(url)
    await anna.send(anna.req.play_now("scopa"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    await anna.ws.close()
    back = await ready(url, key=secrets.token_urlsafe(24), resume=anna.resume)
    welcome = welcome_of(back)
    assert (welcome.room, welcome.player, welcome.player_error) == (
        snapshot.room.room,
        None,
        "unknown_player",
    )
    assert (await back.expect(m.Snapshot)).room.room == snapshot.room.room


async def test_rename_changes_the_name_every_device_signs_in_with(url: str) -> None:
    anna, profile = await signed_up(url)
    renamed: m.Profile = await asked(anna, anna.req.rename_profile("  Anna B.  "), m.Profile)
    assert renamed.player == profile.player.model_copy(update={"name": "Anna B."})
    assert welcome_of(await ready(url, key=profile.key)).player == renamed.player
    bad = m.RenameProfile.model_construct(id=anna.req.next_id(), name="Anna\u202egnp.exe")
    assert (await refused(anna, bad)).code == "invalid_field"  # the protocol's name check
    assert welcome_of(await ready(url, key=profile.key)).player == renamed.player


async def test_a_lobby_away_never_loses_a_new_profiles_key(
    server: CardaviaServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The archive has made the profile: its key goes out even when the lobby cannot remember
    that the session holds it (the client sends the key in its next hello anyway)."""
    c = await ready(url)

    async def away(*args: object, **kwargs: object) -> None:
        raise LobbyUnavailable("the lobby store cannot be reached (test)")

    monkeypatch.setattr(server.lobby, "save_session", away)
    made: m.Profile = await asked(c, c.req.create_profile("Anna"), m.Profile)
    monkeypatch.undo()
    assert welcome_of(await ready(url, key=made.key)).player == made.player


async def test_profile_requests_need_a_profile(url: str) -> None:
    c = await ready(url)
    for request in (
        c.req.rename_profile("Bo"),
        c.req.new_transfer_code(),
        c.req.delete_profile(),
        c.req.get_history(),
    ):
        assert (await refused(c, request)).code == "profile_required"


# ------------------------------------------------------------------------- transfer codes
async def test_a_transfer_code_gives_another_device_a_key_of_its_own(url: str) -> None:
    anna, profile = await signed_up(url)
    code: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    assert len(code.code) == 10
    assert set(code.code) <= set(CODE_ALPHABET)
    assert code.expires_in == 600.0

    typed = f"{code.code[:5].lower()}- {code.code[5:]}"  # any case, spaces and dashes
    phone = await ready(url, "Phone")
    moved: m.Profile = await asked(phone, phone.req.redeem_transfer_code(typed), m.Profile)
    assert moved.player == profile.player
    assert moved.key is not None
    assert moved.key != profile.key
    for key in (profile.key, moved.key):  # the first device keeps its key
        assert welcome_of(await ready(url, key=key)).player == profile.player

    again = await ready(url, "Mallory")
    assert (await refused(again, again.req.redeem_transfer_code(code.code))).code == "unknown_code"
    assert (await refused(phone, phone.req.redeem_transfer_code(code.code))).code == "profile_exists"


async def test_a_new_code_replaces_the_earlier_one(url: str) -> None:
    anna, profile = await signed_up(url)
    first: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    second: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    other = await ready(url, "Other")
    assert (await refused(other, other.req.redeem_transfer_code(first.code))).code == "unknown_code"
    moved: m.Profile = await asked(other, other.req.redeem_transfer_code(second.code), m.Profile)
    assert moved.player == profile.player


async def test_a_code_works_until_it_expires_and_never_after(server: CardaviaServer, url: str) -> None:
    clock = FakeClock(1_800_000_000.0)
    server.profiles.clock = clock
    anna, profile = await signed_up(url)
    early: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    clock.advance(599.0)
    phone = await ready(url, "Phone")
    moved: m.Profile = await asked(phone, phone.req.redeem_transfer_code(early.code), m.Profile)
    assert moved.player == profile.player

    late: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    clock.advance(600.5)
    tablet = await ready(url, "Tablet")
    assert (await refused(tablet, tablet.req.redeem_transfer_code(late.code))).code == "unknown_code"


@pytest.mark.parametrize("wrong", ["23456789AB", "0000000000", "ABCD", "ZZZZZZZZZZZZZZZZ", "2345-6789-AB"])
async def test_a_wrong_code_is_unknown(url: str, wrong: str) -> None:
    c = await ready(url)
    assert (await refused(c, c.req.redeem_transfer_code(wrong))).code == "unknown_code"


async def test_guessing_codes_is_rate_limited_per_address(tmp_path: Path) -> None:
    async with own_server(tmp_path, transfer_codes_per_minute=5) as (server, url):
        anna, profile = await signed_up(url)
        code: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
        mallory = await ready(url, "Mallory")
        wrong = ["23456789AB", "0000000000", "BCDEFGHJKM", "NPQRSTUVWX", "YZ23456789"]
        for guess in wrong:
            assert (await refused(mallory, mallory.req.redeem_transfer_code(guess))).code == "unknown_code"
        # from the same address, another connection, and even the right code: refused untried
        fresh = await ready(url, "Mallory 2")
        limited = await refused(fresh, fresh.req.redeem_transfer_code(code.code))
        assert limited.code == "rate_limited"
        # the code was not spent by the refused attempt
        assert await server.archive.take_transfer_code(digest(code.code), time.time()) == profile.player.id
        samples = await metric_samples(server)
        assert samples[("cardavia_limited_total", (("limit", "codes"),))] == 1.0


# ------------------------------------------------------------------------------ deletion
async def test_deleting_a_profile_ends_every_key_and_every_device_goes_on_anonymous(
    server: CardaviaServer, url: str
) -> None:
    anna, profile = await signed_up(url)
    code: m.TransferCode = await asked(anna, anna.req.new_transfer_code(), m.TransferCode)
    phone = await ready(url, "Phone")
    moved: m.Profile = await asked(phone, phone.req.redeem_transfer_code(code.code), m.Profile)
    await server.archive.record_match(
        match_end("r-del-1", [person("Anna", profile.player.id), bot()], ended=time.time())
    )

    await asked(phone, phone.req.delete_profile(), m.ProfileDeleted)
    for key in (profile.key, moved.key):
        welcome = welcome_of(await ready(url, key=key))
        assert (welcome.player, welcome.player_error) == (None, "unknown_player")
    # the first device, still connected, plays on without the profile
    assert (await refused(anna, anna.req.rename_profile("Ghost"))).code == "profile_required"
    assert (await refused(anna, anna.req.get_history())).code == "profile_required"
    looker = await ready(url, "Looker")
    gone = await refused(looker, looker.req.get_history(profile.player.id))
    assert gone.code == "unknown_player"
    board: m.Leaderboard = await asked(looker, looker.req.get_leaderboard("scopa"), m.Leaderboard)
    assert all(s.player != profile.player.id for s in board.top)
    # the match stays for the others, with the seat's name blanked
    record = await server.archive.load_record("r-del-1")
    assert record is not None
    assert record["seats"][0]["name"] == ""

    # resumed sessions of either device come back anonymous
    for device in (anna, phone):
        await device.ws.close()
        back = await ready(url, resume=device.resume)
        assert welcome_of(back).player is None
        assert (await refused(back, back.req.new_transfer_code())).code == "profile_required"
    # and the session may make a new profile
    again = await ready(url)
    fresh: m.Profile = await asked(again, again.req.create_profile("Anna"), m.Profile)
    assert fresh.player.id != profile.player.id


# ------------------------------------------------------------------- history and leaderboard
async def test_history_is_public_by_id_and_shows_rating_moves(server: CardaviaServer, url: str) -> None:
    anna, profile = await signed_up(url)
    mine: m.History = await asked(anna, anna.req.get_history(), m.History)
    assert (mine.player, mine.ratings, mine.matches) == (profile.player, [], [])

    basic = bot_rating("scopa", "basic").rating
    now = time.time()
    for n in range(3):
        end = match_end(
            f"r-hist-{n}", [person("Anna", profile.player.id), bot("basic", basic)], ended=now + n
        )
        await server.archive.record_match(end)
    casual = match_end(
        "r-hist-casual", [person("Anna", profile.player.id), bot()], rated=False, ended=now + 9
    )
    await server.archive.record_match(casual)

    bo = await ready(url, "Bo")
    seen: m.History = await asked(bo, bo.req.get_history(profile.player.id, limit=3), m.History)
    assert [e.record for e in seen.matches] == ["r-hist-casual", "r-hist-2", "r-hist-1"]
    assert [r.game for r in seen.ratings] == ["scopa"]
    assert seen.ratings[0].games == 3
    newest_rated = seen.matches[1]
    assert newest_rated.rated
    assert newest_rated.seat == 0
    assert newest_rated.winner == 0
    assert newest_rated.rating_before is not None
    assert newest_rated.rating_after is not None
    assert newest_rated.rating_after > newest_rated.rating_before  # a win against basic
    assert seen.matches[0].rating_before is None  # casual
    assert seen.ratings[0].rating == newest_rated.rating_after
    assert newest_rated.players[0] == {"name": "Anna", "bot": False, "player": profile.player.id}
    page: m.History = await asked(bo, bo.req.get_history(profile.player.id, before="r-hist-1"), m.History)
    assert [e.record for e in page.matches] == ["r-hist-0"]
    for nowhere in ("r-no-such-match", "r-\x00", "r hist 1", "\u202er-hist-1"):  # none names a match
        empty: m.History = await asked(bo, bo.req.get_history(profile.player.id, before=nowhere), m.History)
        assert (empty.player, empty.matches) == (profile.player, [])


@pytest.mark.parametrize("who", ["p-0000000000000000", "p-xyz", "bot:basic", "Anna"])
async def test_history_of_no_such_player_is_unknown_player(url: str, who: str) -> None:
    c = await ready(url)
    assert (await refused(c, c.req.get_history(who))).code == "unknown_player"


async def test_the_leaderboard_ranks_profiles_among_the_bot_levels(server: CardaviaServer, url: str) -> None:
    anon = await ready(url, "Anon")
    empty: m.Leaderboard = await asked(anon, anon.req.get_leaderboard("briscola"), m.Leaderboard)
    levels = {level: bot_rating("briscola", level) for level in bot_ratings("briscola")}
    assert [s.player for s in empty.top] == [
        f"bot:{level}" for level in sorted(levels, key=lambda lv: -levels[lv].rating)
    ]
    assert [s.rank for s in empty.top] == list(range(1, len(levels) + 1))
    assert all(s.bot and s.level == s.player.removeprefix("bot:") and s.games == 0 for s in empty.top)
    assert [s.rating for s in empty.top] == sorted((round(r.rating) for r in levels.values()), reverse=True)
    assert empty.me is None

    anna, profile = await signed_up(url)
    _, other = await signed_up(url, "Bo")
    now = time.time()
    for n in range(4):  # Anna beats the strong bot four times; Bo loses to the random one
        await server.archive.record_match(
            match_end(
                f"r-lb-{n}",
                [person("Anna", profile.player.id), bot("strong", levels["strong"].rating)],
                game="briscola",
                ended=now + n,
            )
        )
        await server.archive.record_match(
            match_end(
                f"r-lb-bo-{n}",
                [person("Bo", other.player.id), bot("random", levels["random"].rating)],
                game="briscola",
                winner=1,
                ended=now + n,
            )
        )
    board: m.Leaderboard = await asked(anna, anna.req.get_leaderboard("briscola"), m.Leaderboard)
    ratings = [s.rating for s in board.top]
    assert ratings == sorted(ratings, reverse=True)
    assert [s.rank for s in board.top] == list(range(1, len(levels) + 3))
    assert board.top[0].player == profile.player.id
    assert board.top[0].level is None
    assert board.me == board.top[0]
    bo_row = next(s for s in board.top if s.player == other.player.id)
    assert bo_row.rating < levels["basic"].rating
    bo = await ready(url, "Bo", key=other.key)
    bo_board: m.Leaderboard = await asked(bo, bo.req.get_leaderboard("briscola", limit=2), m.Leaderboard)
    assert len(bo_board.top) == 2
    assert bo_board.me == bo_row  # ranked on the whole board, not only the top shown
    assert (await asked(anon, anon.req.get_leaderboard("briscola"), m.Leaderboard)).me is None


# ------------------------------------------------------------------- the database away
@pytest.fixture(params=BACKENDS)
async def outage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FolderOutage | Relay]:
    """A database of each backend that the test takes away and brings back (the SQLite file's
    folder moved away, or the relay to PostgreSQL cut)."""
    async with database_to_take_away(request.param, tmp_path) as database:
        yield database


def healthz(server: CardaviaServer) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=5) as response:
        return response.status, response.read().decode()


async def test_while_the_database_is_away_play_goes_on_and_profiles_wait(
    tmp_path: Path, outage: FolderOutage | Relay
) -> None:
    async with own_server(tmp_path, database_url=outage.url) as (server, url):
        anna, profile = await signed_up(url)
        assert await asyncio.to_thread(healthz, server) == (200, "ok\n")
        await outage.down()
        back = await ready(url, key=profile.key)
        welcome = welcome_of(back)
        assert (welcome.player, welcome.player_error) == (None, "storage_unavailable")
        assert server.shared.storage_reachable is False
        assert await asyncio.to_thread(healthz, server) == (200, "degraded: storage_unavailable\n")
        samples = await metric_samples(server)
        assert samples[("cardavia_storage_up", ())] == 0.0
        for c, request in (
            (anna, anna.req.rename_profile("Anna B.")),
            (anna, anna.req.new_transfer_code()),
            (back, back.req.create_profile("Anna")),
            (back, back.req.redeem_transfer_code("23456789AB")),
            (back, back.req.get_leaderboard("scopa")),
            (anna, anna.req.get_history()),
            (anna, anna.req.delete_profile()),
        ):
            error = await refused(c, request)
            assert (error.code, error.retry_after) == ("storage_unavailable", 5.0), request
        await back.send(back.req.play_now("scopa"))  # play needs no database
        await back.expect(m.YourTurn)
        rated: m.Snapshot = await answered(anna, anna.req.quick_match("scopa", rated=True), m.Snapshot)
        assert rated.room.rated  # paired at the default rating meanwhile
        assert server.rooms[rated.room.room].entry.rating == 1500.0
        await asyncio.to_thread(healthz, server)  # still answered: a liveness probe, not readiness

        await outage.up()
        await wait_until(
            lambda: server.shared.storage_reachable, "a ping found the database back", timeout=15
        )
        assert await asyncio.to_thread(healthz, server) == (200, "ok\n")
        assert (await metric_samples(server))[("cardavia_storage_up", ())] == 1.0
        assert welcome_of(await ready(url, key=profile.key)).player == profile.player
        renamed: m.Profile = await asked(anna, anna.req.rename_profile("Anna B."), m.Profile)
        assert renamed.player.name == "Anna B."


# ------------------------------------------------------------------------------ a cluster
async def test_any_node_of_a_cluster_knows_every_profile(tmp_path: Path) -> None:
    """Two nodes on one Redis lobby and one PostgreSQL: a key made on one signs in on the other,
    a session resumed there keeps its profile, a code made on one is redeemed on the other, any
    node answers history, and a rated quick match pairs across nodes (a redirect)."""
    async with (
        fresh_database() as database,
        two_nodes(server_config(tmp_path, database_url=database)) as (a, b),
    ):
        anna, profile = await signed_up(node_url(a))
        on_b = await ready(node_url(b), key=profile.key)
        assert welcome_of(on_b).player == profile.player
        await anna.ws.close()
        resumed = await ready(node_url(b), resume=anna.resume)
        assert welcome_of(resumed).player == profile.player

        code: m.TransferCode = await asked(on_b, on_b.req.new_transfer_code(), m.TransferCode)
        phone = await ready(node_url(a), "Phone")
        moved: m.Profile = await asked(phone, phone.req.redeem_transfer_code(code.code), m.Profile)
        assert moved.player == profile.player
        seen: m.History = await asked(phone, phone.req.get_history(profile.player.id), m.History)
        assert seen.player == profile.player

        await phone.send(phone.req.quick_match("briscola"))
        waiting: m.Snapshot = await phone.expect(m.Snapshot)
        assert waiting.room.rated
        cy, _ = await signed_up(node_url(b), "Cy")
        await cy.send(cy.req.quick_match("briscola"))
        redirect: m.Redirect = await cy.expect(m.Redirect)
        assert redirect.room == waiting.room.room
        there = await follow(cy, redirect)
        assert welcome_of(there).player is not None
        seated: m.Snapshot = await there.expect(m.Snapshot)
        assert seated.room.room == waiting.room.room
