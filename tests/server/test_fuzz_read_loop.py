"""The read loop under fuzzing: every malformed frame gets a documented error, and nothing else changes.

A seeded corpus (``tests/fuzz_frames.py``) goes to a live server on four
connections at once: one that never said hello, one in the lobby, one seated
in a game under way and one watching that game. Each frame must be answered by
exactly one ``error`` whose code is documented and is the client's fault (never
``internal_error``) and, for a frame the decoder refuses, is the decoder's own
code with the request id it read. The abuse and rate limits are set out of
reach for that part, so no connection may be closed; separate tests check that
the real limits close a connection with 1008, and that hostile handshakes get
a welcome, an error, or the documented close. Meanwhile another client is
served as usual, and afterwards the seated game is exactly where it was and
still takes a legal move.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, decode_server, encode
from cardavia.protocol.errors import ERROR_CODES
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from tests.fuzz_frames import FAMILIES, NO_LIMITS, SERVER_ACCEPTS, Fuzzed, corpus, refusal, refused_corpus
from tests.support.clients import Client, client
from tests.support.servers import server_config

SEED = 20261201
FRAMES = 1200
"""Frames sent on each of the four connections, per game."""
CHUNK = 100
"""Frames sent before their answers are read: enough to keep the server busy, few enough that the
answers never fill the server's send buffer (a client that reads too slowly is closed)."""
MAX_FRAME = 4096


def fuzz_config(tmp_path: Path, **changes: Any) -> ServerConfig:
    """A test server on which a fuzzing connection trips no limit (those of ``NO_LIMITS`` this
    server has), with ``changes`` on top."""
    known = {f.name for f in dataclasses.fields(ServerConfig)}
    settings = {"max_frame": MAX_FRAME, **NO_LIMITS, **changes}
    return server_config(tmp_path, **{k: v for k, v in settings.items() if k in known})


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    return fuzz_config(tmp_path)


@pytest.fixture
def errors_logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The server's error log: a request that failed, or a room task that did."""
    caplog.set_level(logging.ERROR)
    return caplog.records


def decoder_code(frame: bytes | str) -> tuple[str, int | None] | None:
    """The decoder's code and request id for a frame it refuses; None for a valid request."""
    return refusal(frame, MAX_FRAME)


def malformed(count: int, game: str = "scopa", seed: int | str = SEED) -> list[Fuzzed]:
    """``count`` frames the server must refuse on any connection (``refused_corpus``)."""
    return list(itertools.islice(refused_corpus(seed, 2**31, max_frame=MAX_FRAME, game=game), count))


def describe(item: Fuzzed) -> str:
    """The frame in hex, to reproduce a failure with ``decode_client(bytes.fromhex(...))``."""
    frame = item.frame.encode("utf-8", "surrogatepass") if isinstance(item.frame, str) else item.frame
    kind = "text" if isinstance(item.frame, str) else "binary"
    return f"{item.family} {kind} frame {frame.hex()}"


def check_error(answer: m.Reply, item: Fuzzed) -> m.Error:
    """An ``error`` with a documented code, and the client's fault: never the server's."""
    assert isinstance(answer, m.Error), f"{answer!r} answered {describe(item)}"
    assert answer.code in ERROR_CODES, f"undocumented {answer.code!r} for {describe(item)}"
    assert ERROR_CODES[answer.code].fault == "client", f"{answer!r} for {describe(item)}"
    assert answer.message
    return answer


async def fuzz(player: Client, frames: list[Fuzzed], *, said_hello: bool) -> Counter[str]:
    """Send ``frames``, check that each gets exactly its error, and count the answers by code."""
    codes: Counter[str] = Counter()
    for start in range(0, len(frames), CHUNK):
        chunk = frames[start : start + CHUNK]
        for item in chunk:
            await player.ws.send(item.frame)
        for item in chunk:
            answer = check_error(await player.recv(), item)
            refused = decoder_code(item.frame)
            if refused is not None:
                assert (answer.code, answer.id) == refused, f"{answer!r} for {describe(item)}"
            elif not said_hello:
                assert answer.code == "handshake_required", f"{answer!r} for {describe(item)}"
            codes[answer.code] += 1
    return codes


async def keep_asking(url: str, done: asyncio.Event) -> int:
    """A bystander asks for the catalogue again and again while the fuzzing goes on."""
    bystander = await client(url, "Bo")
    await bystander.hello()
    rounds = 0
    while not done.is_set() or rounds == 0:
        await bystander.send(bystander.req.get_catalogue())
        catalogue: m.Catalogue = await bystander.expect(m.Catalogue)
        assert catalogue.games
        rounds += 1
        await asyncio.sleep(0.01)  # paced: a question every few milliseconds, not a wait for anything
    await bystander.ws.close()
    return rounds


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_malformed_frames_get_documented_errors_and_change_nothing(
    server: CardaviaServer, url: str, game: str, errors_logged: list[logging.LogRecord]
) -> None:
    frames = malformed(FRAMES, game)
    assert {f.family for f in frames} == set(FAMILIES) - SERVER_ACCEPTS

    anna = await client(url, "Anna")  # seated in a game under way
    await anna.hello()
    await anna.send(anna.req.play_now(game, "random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    turn: m.YourTurn = await anna.expect(m.YourTurn)
    watcher = await client(url, "Cleo")
    await watcher.hello()
    await watcher.send(watcher.req.spectate(code=snapshot.room.code))
    await watcher.expect(m.Snapshot)
    lobby = await client(url, "Dan")
    await lobby.hello()
    stranger = await client(url, "Eve")  # never says hello

    room = server.rooms[snapshot.room.room]
    assert room.state is not None
    position, accepted = room.state.to_text(), room.accepted
    view = json.dumps(anna.store.view, sort_keys=True)

    done = asyncio.Event()
    bystander = asyncio.create_task(keep_asking(url, done))
    counts = await asyncio.gather(
        fuzz(anna, frames, said_hello=True),
        fuzz(watcher, frames, said_hello=True),
        fuzz(lobby, frames, said_hello=True),
        fuzz(stranger, frames, said_hello=False),
    )
    done.set()
    assert await bystander > 0  # served all along

    every = sum(counts, Counter[str]())
    assert sum(every.values()) == 4 * len(frames)
    assert counts[0]["illegal_action"] + counts[0]["bad_card"] + counts[0]["bad_action"] > 0
    assert counts[1]["spectator"] > 0
    assert counts[2]["not_in_room"] > 0
    assert counts[2]["unknown_room"] > 0
    assert counts[3]["handshake_required"] > 0
    for player in (anna, watcher, lobby, stranger):
        assert player.ws.close_code is None, "a connection was closed with the limits out of reach"
    assert not any(conn.closing for conn in server.connections)
    assert not errors_logged, errors_logged[0].getMessage()

    # the seated game is exactly where it was...
    assert room.state.to_text() == position
    assert room.accepted == accepted
    await anna.send(anna.req.resync())
    again: m.Snapshot = await anna.expect(m.Snapshot)
    assert json.dumps(again.view, sort_keys=True) == view
    again_turn: m.YourTurn = await anna.expect(m.YourTurn)
    assert again_turn.legal == turn.legal

    # ...and still takes a legal move, which everyone in the room sees
    await anna.send(anna.req.act(turn.legal[0]))
    delta: m.Delta = await anna.expect(m.Delta)
    seen: m.Delta = await watcher.expect(m.Delta)
    assert delta.events
    assert seen.events == delta.events
    assert room.accepted > accepted  # (and the bot may have answered already)
    for player in (anna, watcher, lobby, stranger):
        await player.ws.close()


async def _recv(ws: ClientConnection) -> m.Reply:
    frame = await asyncio.wait_for(ws.recv(), 10.0)
    assert isinstance(frame, bytes)
    return decode_server(frame)


async def test_the_whole_corpus_never_gets_an_internal_error(
    server: CardaviaServer, url: str, errors_logged: list[logging.LogRecord]
) -> None:
    """Every family, valid mutations too (which make rooms, join, play...) on one connection:
    whatever the frames do, no answer is ``internal_error`` and nothing fails on the server.
    Only handshakes in a version the server does not speak are left out: they close the
    connection, as documented (``test_hostile_handshakes_...``)."""
    frames = []
    for item in corpus(SEED + 1, 2500, max_frame=MAX_FRAME):
        if decoder_code(item.frame) is not None:
            frames.append(item)
            continue
        message = decode_client(item.frame, MAX_FRAME)
        if not isinstance(message, m.Hello) or message.version in m.SUPPORTED_VERSIONS:
            frames.append(item)
    fay = await client(url, "Fay")
    await fay.hello()
    kinds: Counter[str] = Counter()
    for number, start in enumerate(range(0, len(frames), CHUNK)):
        for item in frames[start : start + CHUNK]:
            await fay.ws.send(item.frame)
        marker = 2**31 - 1 - number  # answered after every frame before it: the loop reads in order
        await fay.send(m.GetCatalogue(id=marker))
        while True:
            answer = await _recv(fay.ws)
            kinds[type(answer).__name__] += 1
            if isinstance(answer, m.Error):
                assert answer.code in ERROR_CODES, answer
                assert answer.code != "internal_error", answer
            if isinstance(answer, m.Catalogue) and answer.id == marker:
                break
    assert kinds["Error"] > len(frames) // 2
    assert kinds["Snapshot"] > 0  # valid requests among the mutations made or joined rooms
    assert fay.ws.close_code is None
    assert not errors_logged, errors_logged[0].getMessage()
    await fay.ws.close()


async def test_hostile_handshakes_get_a_welcome_an_error_or_the_documented_close(url: str) -> None:
    """Each on a connection of its own: a refused frame gets its error and the connection stays;
    an unsupported version gets ``unsupported_version`` and a close with 1008; any other
    handshake gets its welcome (after ``bad_resume_token`` for a token the server never gave)."""
    outcomes: Counter[str] = Counter()
    for item in corpus(SEED, 80, max_frame=MAX_FRAME, families=("hostile_hello",)):
        player = await client(url, "Gus")
        await player.ws.send(item.frame)
        refused = decoder_code(item.frame)
        answer = await _recv(player.ws)
        if refused is not None:
            assert isinstance(answer, m.Error), describe(item)
            assert (answer.code, answer.id) == refused, describe(item)
            outcomes["refused"] += 1
        else:
            hello = decode_client(item.frame, MAX_FRAME)
            assert isinstance(hello, m.Hello)
            if hello.version not in m.SUPPORTED_VERSIONS:
                assert isinstance(answer, m.Error), describe(item)
                assert answer.code == "unsupported_version", describe(item)
                with pytest.raises(ConnectionClosed):
                    await _recv(player.ws)
                assert player.ws.close_code == 1008
                outcomes["closed"] += 1
            else:
                if hello.resume:
                    assert isinstance(answer, m.Error), describe(item)
                    assert answer.code == "bad_resume_token", describe(item)
                    answer = await _recv(player.ws)
                assert isinstance(answer, m.Welcome), describe(item)
                assert answer.id == hello.id, describe(item)
                outcomes["welcome"] += 1
        await player.ws.close()
    assert set(outcomes) == {"refused", "closed", "welcome"}


@pytest.fixture
async def strict_server(tmp_path: Path) -> AsyncIterator[CardaviaServer]:
    """A server with a low abuse limit (5) and a low message rate (a burst of 3, then one a day)."""
    srv = CardaviaServer(fuzz_config(tmp_path, abuse_limit=5, rate_burst=3, rate_per_second=1 / 86400))
    await srv.start()
    yield srv
    await srv.shutdown()


@pytest.mark.parametrize("said_hello", [False, True])
async def test_the_abuse_limit_closes_the_connection_with_1008(
    strict_server: CardaviaServer, said_hello: bool
) -> None:
    url = f"ws://127.0.0.1:{strict_server.port}/"
    mallory = await client(url, "Mallory")
    if said_hello:
        await mallory.hello()  # spends one message of the burst
    frames = [f for f in malformed(40) if decoder_code(f.frame) is not None][:6]
    for item in frames:  # the sixth error is one too many
        await mallory.ws.send(item.frame)
    for item in frames:  # each error comes before the close it explains
        answer = check_error(await mallory.recv(), item)
        assert (answer.code, answer.id) == decoder_code(item.frame)
    with pytest.raises(ConnectionClosed):
        await mallory.recv()
    assert mallory.ws.close_code == 1008

    bo = await client(url, "Bo")  # and the server serves others as before
    await bo.hello()
    await bo.send(bo.req.get_catalogue())
    await bo.expect(m.Catalogue)
    await bo.ws.close()


async def test_messages_over_the_rate_limit_count_toward_the_abuse_limit(
    strict_server: CardaviaServer,
) -> None:
    url = f"ws://127.0.0.1:{strict_server.port}/"
    mallory = await client(url, "Mallory")
    await mallory.hello()
    for _ in range(2):  # the rest of the burst
        await mallory.send(mallory.req.get_catalogue())
        await mallory.expect(m.Catalogue)
    requests = [mallory.req.get_catalogue() for _ in range(6)]
    for request in requests:
        await mallory.send(request)
    for request in requests:
        answer = await mallory.recv()
        assert isinstance(answer, m.Error)
        assert (answer.code, answer.id) == ("rate_limited", request.id)
    with pytest.raises(ConnectionClosed):
        await mallory.recv()
    assert mallory.ws.close_code == 1008


async def test_a_record_id_too_long_for_a_file_name_is_an_unknown_record(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.ws.send(encode(m.GetRecord(id=5, record="\U0001d7d8" * 64)))
    error: m.Error = await anna.expect(m.Error)
    assert (error.code, error.id) == ("unknown_record", 5)
    await anna.ws.close()
