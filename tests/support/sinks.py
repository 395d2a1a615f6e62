"""A person's connection for tests that drive a ``Room`` directly, without a server."""

from __future__ import annotations

from typing import Any

from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_server


class Person:
    """A stand-in connection that keeps what it is sent, decoded."""

    session = "s-person"

    def __init__(self) -> None:
        self.received: list[Any] = []

    def send(self, message: Any) -> None:
        self.received.append(decode_server(message) if isinstance(message, bytes) else message)

    def turns(self) -> list[m.YourTurn]:
        return [x for x in self.received if isinstance(x, m.YourTurn)]

    def seq(self) -> int:
        """The last seq a snapshot or delta brought."""
        return [x.seq for x in self.received if isinstance(x, (m.Snapshot, m.Delta))][-1]
