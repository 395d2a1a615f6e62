"""A connection's frames of one turn of the event loop go to its socket in one write, in order,
and none is written after the connection started to close."""

from __future__ import annotations

from typing import Any

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.connection import Connection
from tests.support.clients import client


async def _connection(server: CardaviaServer, url: str) -> tuple[Any, Connection]:
    anna = await client(url)
    await anna.hello()
    (conn,) = [c for c in server.connections if c.session == anna.session]
    return anna, conn


async def test_the_frames_of_one_turn_leave_in_one_write_in_order(server: CardaviaServer, url: str) -> None:
    anna, conn = await _connection(server, url)
    transport = conn.wire.transport
    assert transport is not None
    writes: list[bytes] = []
    write = transport.write

    def counted(data: Any) -> None:
        writes.append(bytes(data))
        write(data)

    transport.write = counted  # type: ignore[method-assign]
    try:
        for number in range(3):
            conn.send(m.ChatMessage(seat=None, name="Bo", text=f"line {number}"))
        assert writes == []  # framed now, written at the end of this turn
        received = [await anna.expect(m.ChatMessage) for _ in range(3)]
    finally:
        transport.write = write  # type: ignore[method-assign]
    assert len(writes) == 1
    assert [message.text for message in received] == ["line 0", "line 1", "line 2"]


async def test_a_frame_sent_before_a_close_arrives_before_it(server: CardaviaServer, url: str) -> None:
    anna, conn = await _connection(server, url)
    conn.send(m.Error(id=None, code="rate_limited", message="too many messages; slow down"))
    conn.close(1008, "too many bad messages")
    conn.send(m.ChatMessage(seat=None, name="Bo", text="after the close"))  # dropped: closing
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "rate_limited"
    while True:
        try:
            message = await anna.recv(timeout=5)
        except Exception:  # the close ends the stream
            break
        assert not isinstance(message, m.ChatMessage), "a frame was sent after the close began"
    assert anna.ws.close_code == 1008
