"""A finished match leaves no cyclic garbage on the server, however its client goes.

``cardavia serve`` freezes its heap every second and runs a full collection
only every 15 s to an hour (``gc_pacer.py``), so a reference cycle a match
leaves behind is memory the node keeps until then, and a pause the node takes
to free it: over thousands of matches, megabytes.
What a match made must therefore be freed by reference counting alone, the
moment the server forgets it. These tests play one whole match through a real
server with the collector off, let the client go (by dropping its socket right
after ``match_result``, or by leaving first and closing), wait until the server
holds no connection and no room, and then check two things:

* the server side of that player's connection (its ``Connection``, the
  websockets protocol of its socket, the socket's transport) is gone without
  any collection having run (weak references to them die). The room is not
  held to this: what lets go of a closed room (the archive's callback once its
  record is written, its last timers) may run seconds late on a loaded
  machine, which is no cycle; the next check covers it;
* a full collection then frees no object of a Cardavia type (``cardavia.*``,
  which includes the node's websockets protocol class), nor a function, frame,
  generator or coroutine whose code is Cardavia's. The test's own client, a
  websockets client in this process, leaves cycles of its own (websockets' and
  asyncio's types), which this check does not count: they are not the server's;
  the server's transport, of the same type as the client's, is covered by the
  first check.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import gc
import random
import types
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

import cardavia
import cardavia.bots
import cardavia.games
import cardavia.protocol
import cardavia.server
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from tests.support.clients import Client, client
from tests.support.servers import own_server
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow

CARDAVIA_FOLDERS = tuple(
    Path(package.__file__).resolve().parent
    for package in (cardavia, cardavia.bots, cardavia.games, cardavia.protocol, cardavia.server)
    if package.__file__ is not None
)
"""Where Cardavia's packages live (an editable install maps each to a folder of its own)."""


@functools.cache
def _is_cardavia_code(filename: str) -> bool:
    path = Path(filename).resolve()
    return any(path.is_relative_to(folder) for folder in CARDAVIA_FOLDERS)


def cardavia_kind(thing: object) -> str | None:
    """What ``thing`` is, when it is Cardavia's: an instance of a ``cardavia.*`` type, or a
    function, frame, generator or coroutine running Cardavia's code; None otherwise."""
    cls = type(thing)  # not isinstance: a proxy whose object is gone raises on its __class__
    module = cls.__dict__.get("__module__")  # a type's own: some metaclasses' is a descriptor
    if isinstance(module, str) and module.startswith("cardavia."):
        return f"{module}.{cls.__qualname__}"
    code: types.CodeType | None = None
    if cls is types.FunctionType:
        code = thing.__code__  # type: ignore[attr-defined]
    elif cls is types.FrameType:
        code = thing.f_code  # type: ignore[attr-defined]
    elif cls in (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType):
        code = getattr(thing, "gi_code", None) or getattr(thing, "cr_code", None) or thing.ag_code  # type: ignore[attr-defined]
    if code is not None and _is_cardavia_code(code.co_filename):
        return f"{cls.__name__} {code.co_qualname} ({code.co_filename}:{code.co_firstlineno})"
    return None


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """The cycle collector does not run inside (what it would free stays to be found), as
    on a paced node between its full collections."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def cardavia_garbage() -> collections.Counter[str]:
    """Collect once: the objects of Cardavia's kinds that only this collection freed, by kind.

    Counted as what the collector tracked before the collection and not after it, rather than
    what it saves with ``gc.DEBUG_SAVEALL``: an object held by nothing but a suspended generator's
    frame in a cycle is freed by reference counting while the collector closes that generator,
    and so never appears among the saved garbage, though only the collector freed it."""

    def census() -> collections.Counter[str]:
        return collections.Counter(k for k in map(cardavia_kind, gc.get_objects()) if k is not None)

    before = census()
    gc.collect()
    return before - census()


async def play_to_the_end(url: str, server: CardaviaServer) -> tuple[Client, list[weakref.ref[object]]]:
    """A new player plays a whole match against the server's bots; the player, and weak references
    to the server's side of it: its connection, the connection's websockets protocol and
    transport."""
    player = await client(url, "Anna")
    await player.hello()
    await player.send(m.PlayNow(id=1, game="briscola", bot_level="random"))
    snapshot: m.Snapshot = await player.expect(m.Snapshot)
    await player.play_until_over(random.Random(7))
    assert snapshot.room.room in server.rooms
    (conn,) = server.connections
    held = [conn, conn.wire.protocol, conn.wire.transport]
    return player, [weakref.ref(thing) for thing in held if thing is not None]


async def gone(server: CardaviaServer, refs: list[weakref.ref[object]]) -> None:
    """Until the server holds no connection and no room, and then until ``refs`` are dead or
    the wait gives up: an AssertionError naming what is still alive and the garbage found."""
    await wait_until(lambda: not server.connections and not server.rooms, "no connection and no room")
    # The archiver holds a finished room until its record is written (the room keeps the match's
    # end for its journal until then), for as long as the disk takes on a busy machine: the
    # garbage counted after is the match's, all of it.
    assert await server.archiver.drain(timeout=60), "the match's record written"
    try:
        # Patient: on a machine loaded by the rest of the suite the socket's end may be handled
        # seconds late; a leak holds them for ever.
        await wait_until(lambda: all(ref() is None for ref in refs), "the match's objects freed", timeout=30)
    except AssertionError as exc:
        alive = [thing for thing in (ref() for ref in refs) if thing is not None]
        holders = sorted({type(holder).__qualname__ for thing in alive for holder in gc.get_referrers(thing)})
        names = [type(thing).__qualname__ for thing in alive]
        garbage = dict(cardavia_garbage())
        found = f"still alive {names}, held by {holders}; Cardavia's garbage {garbage}"
        raise AssertionError(f"{exc}: {found}") from None
    await asyncio.sleep(0)


async def test_a_client_that_drops_after_match_result_leaves_no_cycle(tmp_path: Path) -> None:
    async with own_server(tmp_path, grace_seconds=0.1) as (server, url):
        with collector_off():
            player, refs = await play_to_the_end(url, server)
            player.ws.transport.abort()  # the network drops: no leave, no close frame
            await gone(server, refs)
            assert cardavia_garbage() == {}


async def test_a_client_that_leaves_after_match_result_leaves_no_cycle(tmp_path: Path) -> None:
    async with own_server(tmp_path, grace_seconds=0.1) as (server, url):
        with collector_off():
            player, refs = await play_to_the_end(url, server)
            await player.send(m.Leave(id=2))
            await player.expect(m.Left)
            await player.ws.close()
            await gone(server, refs)
            assert cardavia_garbage() == {}


async def test_a_socket_refused_for_its_address_leaves_no_cycle(tmp_path: Path) -> None:
    # A socket refused with 1013 never becomes a connection, so nothing of a match frees its
    # objects: a client that opens them by the thousand must not leave a cycle each.
    async with own_server(tmp_path, max_connections_per_ip=1) as (server, url):
        with collector_off():
            first = await client(url, "Anna")
            await first.hello()
            refused = await client(url, "Bo")
            with pytest.raises(ConnectionClosed) as closed:
                await refused.recv()
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1013
            listener = server.listener
            assert listener is not None
            await wait_until(lambda: len(listener.wires) == 1, "the refused socket closed")
            assert cardavia_garbage() == {}


async def test_plain_http_requests_leave_no_cycle(tmp_path: Path) -> None:
    # Health checks and /metrics scrapes come every few seconds for as long as the node runs.
    async with own_server(tmp_path) as (server, _):
        listener = server.listener
        assert listener is not None
        with collector_off():
            for path in ("/healthz", "/metrics", "/rules/scopa"):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                answer = await reader.read()
                assert answer.startswith(b"HTTP/1.1 200 ")
                writer.close()
                await writer.wait_closed()
            await wait_until(lambda: not listener.wires, "the sockets closed")
            assert cardavia_garbage() == {}
