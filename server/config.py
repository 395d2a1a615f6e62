"""Server settings: command-line options over environment variables over defaults (12-factor)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

ENV_PREFIX = "CARDAVIA_"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    public_url: str = ""
    """The URL clients use to reach this node (redirects name it); defaults to ws://host:port/."""
    records_dir: str = "records"
    redis_url: str = ""
    """Empty: the embedded in-memory lobby. ``redis://`` or ``rediss://`` (TLS), password in the URL."""
    redis_prefix: str = "cardavia:"
    """Prefix of every Redis key, so that several deployments can share one Redis."""
    node_id: str = "node-1"
    max_frame: int = 4096
    """Largest frame a client may send, in bytes."""
    rate_per_second: float = 20.0
    rate_burst: int = 40
    abuse_limit: int = 20
    """Protocol errors a connection may cause before it is closed."""
    max_rooms_per_connection: int = 3
    max_connections_per_ip: int = 64
    """Connections one client address may hold open at once (0: no limit); more are closed with 1013."""
    sessions_per_minute: int = 60
    """New sessions (a ``hello`` without a working resume token) one address may start a minute,
    in bursts of as many; more are refused and closed with 1013. 0: no limit."""
    failed_lookups_per_minute: int = 20
    """Room codes or ids that name no room, per address a minute (in bursts of as many); past
    that, lookups by code are refused as ``rate_limited``, so guessing a private room's code is
    hopeless. Each failed lookup also counts toward the connection's ``abuse_limit``. 0: no limit."""
    trusted_proxies: str = ""
    """Addresses or networks of reverse proxies, comma-separated (``10.0.0.0/8,127.0.0.1``): for a
    connection from one of them the client's address is read from ``X-Forwarded-For`` (or
    ``Forwarded``). Empty: the peer's own address is the client's."""
    session_seconds: float = 300.0
    """How long a session that holds no seat outlives its last connection; then its resume token
    stops working (``bad_resume_token``) and the client starts a new session."""
    send_buffer: int = 262_144
    """Bytes a client may leave unread in the server's write buffer before it is closed as too slow."""
    idle_timeout: float = 300.0
    """Seconds a client outside any room may stay silent before it is disconnected.

    Players seated in a room or watching one are never idle: they may wait a long
    time for others to move, and keepalive pings (``ping_interval``) find dead peers."""
    ping_interval: float = 20.0
    grace_seconds: float = 60.0
    """How long a dropped player's seat waits before a bot takes it over."""
    result_seconds: float = 600.0
    """How long a finished room nobody is in waits for a player who dropped before the end (a
    stand-in may have played its seat to the end) to come back and see how it ended; the room
    waits at least ``grace_seconds`` in any case."""
    bot_delay: float = 0.6
    """Pause before a bot moves so that people can follow; 0 in tests."""
    bot_workers: int = 1
    """Worker processes for search bots; 0 runs them in a thread (tests)."""
    heartbeat_seconds: float = 1.0
    """How often a node tells the lobby it is alive; it counts as gone after ``node_ttl``."""
    node_ttl: float = 3.0
    reservation_seconds: float = 30.0
    """How long a seat is held for a client redirected to the node that runs the room."""
    default_turn_seconds: float = 0.0
    """Turn timer of public rooms when the creator sets none; 0 means off."""
    gc_freeze_seconds: float = 1.0
    """How often ``cardavia serve`` moves its heap out of the garbage collector's way (``gc_pacer.py``);
    0 leaves the collector as CPython runs it."""
    gc_full_seconds: float = 3600.0
    """Longest time between two full collections; they come sooner the more memory cyclic garbage holds."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: Any) -> ServerConfig:
        """Defaults, then ``CARDAVIA_*`` variables, then explicit overrides (None: not given)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is not None and raw != "":
                kind = type(getattr(cls(), f.name))
                try:
                    values[f.name] = kind(raw)
                except ValueError:
                    raise ValueError(
                        f"{ENV_PREFIX}{f.name.upper()} must be a {kind.__name__}, not {raw!r}"
                    ) from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def records_path(self) -> Path:
        return Path(self.records_dir)
