"""Ports for servers a test starts as processes of its own."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nothing listens on now (for servers a test starts as processes of their own)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def port_open(port: int) -> bool:
    """Whether something on 127.0.0.1 accepts a connection on ``port`` now (a server a test
    started as a process of its own is listening)."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
