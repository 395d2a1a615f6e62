"""Bad input and limits: every violation gets its error code, abuse closes the connection."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import encode
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.wire import CLOSE_TIMEOUT, SWEEP_SECONDS
from tests.support.clients import Client, client
from tests.support.ports import free_port, port_open
from tests.support.servers import own_server
from tests.support.waiting import wait_until


async def _error_for(url: str, frame: bytes | str) -> m.Error:
    anna = await client(url)
    await anna.hello()
    await anna.ws.send(frame)
    error: m.Error = await anna.expect(m.Error)
    await anna.ws.close()
    return error


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\xc1\xc1", "bad_frame"),
        (msgpack.packb({"type": "act", "action": {"play": "7D"}})[:-3], "bad_frame"),
        (msgpack.packb({"type": "warp"}), "unknown_type"),
        (msgpack.packb({"type": "chat", "text": "x" * 300}), "invalid_field"),
        (msgpack.packb({"type": "chat", "text": "x" * 5000}), "too_large"),
        (b"\x81\xa4type" + b"\x91" * 20 + b"\xc0", "too_deep"),
        ("a text frame", "bad_frame"),
        (msgpack.packb({"type": "act", "id": 4, "action": {"play": "7D"}}), "not_in_room"),
    ],
)
async def test_malformed_frames_get_their_error_code(url: str, frame: bytes | str, code: str) -> None:
    error = await _error_for(url, frame)
    assert error.code == code
    assert error.message


async def test_the_request_id_comes_back_on_errors(url: str) -> None:
    error = await _error_for(url, msgpack.packb({"type": "act", "id": 77, "action": {"play": "7D"}}))
    assert error.id == 77


@pytest.mark.parametrize("version", [1, 99])  # 1: retired with the old delta ops
async def test_wrong_protocol_version_is_refused_and_closed(url: str, version: int) -> None:
    anna = await client(url)
    await anna.send(m.Hello(id=1, version=version, name="Anna"))
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "unsupported_version"
    assert f"speaks {m.PROTOCOL_VERSION}" in error.message
    with pytest.raises(ConnectionClosed):
        await anna.recv()
    assert anna.ws.close_code == 1008


def _chat_frame(size: int) -> bytes:
    """A chat request of exactly ``size`` bytes: well formed, so only its size can be refused."""
    for length in range(size - 30, size):
        frame: bytes = msgpack.packb({"type": "chat", "text": "x" * length})
        if len(frame) == size:
            return frame
    raise AssertionError(f"no chat frame of {size} bytes")


async def _answer_to_big_frame(url: str, size: int) -> m.Error | int:
    """The ``too_large`` error a frame of ``size`` bytes gets, or the code the connection is
    closed with instead."""
    anna = await client(url)
    await anna.hello()
    await anna.ws.send(_chat_frame(size))
    try:
        error: m.Error = await anna.expect(m.Error)
    except ConnectionClosed:
        assert anna.ws.close_code is not None
        return anna.ws.close_code
    await anna.ws.close()
    return error


@pytest.mark.parametrize(
    ("max_frame", "read_limit"),
    [
        (4096, 64 * 1024),  # the default CARDAVIA_MAX_FRAME: the 64 KiB floor
        (32 * 1024, 4 * 32 * 1024),  # a larger CARDAVIA_MAX_FRAME: four times it
    ],
)
async def test_a_frame_over_the_read_limit_closes_the_connection_with_1009(
    tmp_path: Path, max_frame: int, read_limit: int
) -> None:
    """protocol/README.md ("Close codes"): a frame larger than the server reads at all (64 KiB,
    or four times CARDAVIA_MAX_FRAME if that is more) closes the connection with 1009, while one
    up to that limit only gets `too_large` and the connection stays usable. A server reading
    frames of any size would let one client make it buffer megabytes per connection."""
    async with own_server(tmp_path, max_frame=max_frame) as (_, url):
        at_limit = await _answer_to_big_frame(url, read_limit)
        assert isinstance(at_limit, m.Error)
        assert at_limit.code == "too_large"
        assert await _answer_to_big_frame(url, read_limit + 1) == 1009
        # the server goes on serving everyone else
        bo = await client(url, "Bo")
        assert (await bo.hello()).session
        await bo.ws.close()


async def test_requests_before_hello_are_refused(url: str) -> None:
    anna = await client(url)
    await anna.send(m.GetCatalogue(id=3))
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "handshake_required"


async def test_out_of_turn_and_illegal_moves_change_nothing(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(m.CreateRoom(id=2, game="scopa", humans=2, bot_level="random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    bo = await client(url, "Bo")
    await bo.hello()
    await bo.send(bo.req.join(room=snapshot.room.room))
    await bo.expect(m.Snapshot)
    arrived: m.Snapshot = await anna.expect(m.Snapshot)  # Bo sat down
    assert arrived.view == {}
    await anna.send(anna.req.start())
    anna_view: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.expect(m.Snapshot)
    mover, waiter = (anna, bo) if anna_view.view["to_move"] == 0 else (bo, anna)
    turn: m.YourTurn = await mover.expect(m.YourTurn)
    await waiter.send(waiter.req.act(turn.legal[0]))
    error: m.Error = await waiter.expect(m.Error)
    assert error.code == "not_your_turn"
    await mover.send(mover.req.act({"play": "1D", "capture": []}))
    error = await mover.expect(m.Error)
    assert error.code == "bad_card"
    hand = mover.store.view["hand"] if mover.store.view else []
    foreign = next(c for c in ("7D", "7C", "7H", "7S", "KD", "KC") if c not in hand)
    await mover.send(mover.req.act({"play": foreign, "capture": []}))
    error = await mover.expect(m.Error)
    assert (error.code, error.reason) == ("illegal_action", "card_not_in_hand")
    await mover.send(mover.req.act({"chicken": "7D"}))
    error = await mover.expect(m.Error)
    assert error.code == "bad_action"
    await mover.send(mover.req.act(turn.legal[0]))  # still its turn: nothing changed
    delta: m.Delta = await mover.expect(m.Delta)
    assert delta.events[0]["type"] == "play"


async def test_spectators_cannot_act(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    eve = await client(url, "Eve")
    await eve.hello()
    await eve.send(m.Spectate(id=2, room=snapshot.room.room))
    await eve.send(eve.req.act({"play": "AS"}))
    error: m.Error = await eve.expect(m.Error)
    assert error.code in {"spectator", "unknown_room"}


async def test_a_silent_client_outside_rooms_is_closed_but_a_seated_one_waits(config: ServerConfig) -> None:
    srv = CardaviaServer(dataclasses.replace(config, idle_timeout=0.4))
    await srv.start()
    try:
        url = f"ws://127.0.0.1:{srv.port}/"
        idle, seated = await client(url), await client(url)
        await idle.hello()
        await seated.hello()
        await seated.send(seated.req.create_room("scopa", humans=2))  # waits for a second player
        await seated.expect(m.Snapshot)
        with pytest.raises(ConnectionClosed):
            await idle.recv(timeout=3)  # nothing comes but the close
        assert idle.ws.close_code == 1008
        assert "idle" in (idle.ws.close_reason or "")
        await asyncio.sleep(0.6)  # well past the timeout: a seated player may wait for others
        await seated.send(seated.req.resync())
        assert isinstance(await seated.expect(m.Snapshot), m.Snapshot)
    finally:
        await srv.shutdown()


async def test_a_client_that_stops_reading_is_closed_and_the_others_are_served(config: ServerConfig) -> None:
    srv = CardaviaServer(dataclasses.replace(config, send_buffer=16_384))
    await srv.start()
    try:
        url = f"ws://127.0.0.1:{srv.port}/"
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window fills fast
        sock.connect(("127.0.0.1", srv.port))
        sock.setblocking(False)
        req = Requests()
        async with connect(url, sock=sock, compression=None, max_queue=1) as stalled:
            await stalled.send(encode(req.hello("Slow")))
            for _ in range(200):  # ask for catalogues and never read them
                for _ in range(20):
                    await stalled.send(encode(req.get_catalogue()))
                await asyncio.sleep(0.01)  # the server reads and answers a batch, filling the window
                if any(c.close_reason == "too slow to read" for c in srv.connections):
                    break
            else:
                raise AssertionError("a client that never reads was never closed")
            other = await client(url)  # the server goes on serving everybody else
            await other.hello()
            await other.send(other.req.get_catalogue())
            assert isinstance(await other.expect(m.Catalogue), m.Catalogue)
            with contextlib.suppress(ConnectionClosed):  # the slow one reads what was sent, then the close
                while True:
                    await asyncio.wait_for(stalled.recv(), timeout=5)
            assert stalled.close_code == 1008
            assert stalled.close_reason == "too slow to read"
    finally:
        await srv.shutdown()


@pytest.fixture
def strict_config(config: ServerConfig) -> ServerConfig:
    return dataclasses.replace(config, rate_per_second=5.0, rate_burst=5, abuse_limit=8)


async def test_rate_limit_then_abuse_closes_the_connection(strict_config: ServerConfig) -> None:
    srv = CardaviaServer(strict_config)
    await srv.start()
    try:
        url = f"ws://127.0.0.1:{srv.port}/"
        anna = await client(url)
        await anna.hello()
        codes: list[str] = []
        limited_ids: list[int | None] = []
        try:
            for number in range(40):
                await anna.send(m.GetCatalogue(id=100 + number))
            while True:
                message = await anna.recv(timeout=5)
                if isinstance(message, m.Error):
                    codes.append(message.code)
                    if message.code == "rate_limited":
                        limited_ids.append(message.id)
        except ConnectionClosed:
            pass
        assert "rate_limited" in codes
        # each refusal names the request it refused, as every reply does
        assert limited_ids
        assert all(i is not None and 100 <= i < 140 for i in limited_ids)
        assert len(set(limited_ids)) == len(limited_ids)
        assert anna.ws.close_code == 1008
        assert "too many" in (anna.ws.close_reason or "")
    finally:
        await srv.shutdown()


async def test_an_abusive_client_does_not_stop_a_game_in_another_room(
    server: CardaviaServer, url: str
) -> None:
    async def abuse() -> None:
        rng = random.Random(0)
        async with connect(url, compression=None) as ws:
            try:
                while True:
                    await ws.send(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))))
                    await asyncio.sleep(0)  # a turn for the server between two bad messages
            except ConnectionClosed:
                return

    abuser = asyncio.create_task(abuse())
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    result = await anna.play_until_over(random.Random(3))
    assert result.record
    # the server closed the abuser: it reads nothing, so it never sees the close frame, and its
    # socket is dropped once the close has waited CLOSE_TIMEOUT (the sweep is run with the clock
    # moved on, not waited for)
    (abusive,) = [c for c in server.connections if c.close_reason == "too many bad messages"]
    assert server.listener is not None
    server.listener.sweep(time.monotonic() + CLOSE_TIMEOUT + SWEEP_SECONDS)
    await asyncio.wait_for(abuser, timeout=5)
    await wait_until(lambda: abusive not in server.connections, "the abuser forgotten", timeout=1.0)
    assert abusive not in server.connections


async def _read_until_closed(reader: Client) -> None:
    while True:
        await reader.recv(timeout=10)


async def test_sigterm_closes_clients_with_1012_and_exits_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "CARDAVIA_BOT_DELAY": "0", "CARDAVIA_BOT_WORKERS": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardavia", "serve", "--port", str(port), "--records-dir", str(tmp_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        url = f"ws://127.0.0.1:{port}/"
        await wait_until(lambda: port_open(port), "the server listening", timeout=10.0)
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.play_now("scopa", "random"))
        await anna.expect(m.YourTurn)
        proc.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed):
            await _read_until_closed(anna)
        assert anna.ws.close_code == 1012
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
