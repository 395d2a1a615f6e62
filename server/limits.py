"""Rate limits: a connection's message budget, and what one network address may do.

One connection is limited by ``TokenBucket``s of its own (messages, chat).
That does not stop a client that opens many connections, so the node also
keeps ``AddressLimits``, per client address: how many connections it holds
open now (counted from the moment their socket is accepted, so sockets that
never finish their HTTP request count too), how many new sessions it made lately, how many room codes it
asked for in vain (guessing a private room's code), and how many profile
transfer codes it tried. Every table is bounded:
an address leaves the connection table with its last connection, and a
bucket that has refilled is worth nothing and is swept away.

Behind a reverse proxy every connection comes from the proxy, so the client's
address is read from ``X-Forwarded-For`` (or, without it, ``Forwarded``) —
but only when the peer itself is one of the configured trusted proxies, and
then from the right, skipping trusted hops: the first address that is not a
trusted proxy is the client. An address a client wrote into the header itself
stands to the left of every address the proxies added, so it is never
reached while a proxy in the chain is trusted.

IPv6 clients are counted by their /64 network: one subscriber usually holds
a whole /64 and could otherwise take a fresh address for every connection.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable, Mapping
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

UNKNOWN_ADDRESS: Final = "unknown"
"""The key of a connection whose peer address cannot be read (a Unix socket, a test transport)."""


class TokenBucket:
    """About ``rate`` events a second, with bursts of up to ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def ready(self) -> bool:
        """Whether ``take`` would succeed now (without taking)."""
        self._refill()
        return self.tokens >= 1

    def full(self) -> bool:
        """Refilled to its burst: the same as a bucket never used, so it can be forgotten."""
        self._refill()
        return self.tokens >= self.burst

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 127.0.0.1, ::1"`` → networks; raises ``ValueError`` naming a bad entry."""
    networks: list[Network] = []
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network") from None
    return tuple(networks)


def _address(text: str) -> IPAddress | None:
    text = text.strip().strip('"')
    if text.startswith("["):  # "[2001:db8::1]:4711" (Forwarded quotes IPv6 with brackets)
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # "192.0.2.60:4711"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _forwarded_for(value: str) -> list[str]:
    """The ``for=`` addresses of a ``Forwarded`` header (RFC 7239), in order."""
    found: list[str] = []
    for element in value.split(","):
        for pair in element.split(";"):
            name, _, text = pair.partition("=")
            if name.strip().lower() == "for":
                found.append(text)
    return found


def client_address(peer: str | None, headers: Mapping[str, str], trusted: Iterable[Network]) -> str:
    """The address to count a connection against: the peer's, or the client's behind trusted proxies.

    The result is a key, not for display: an IPv6 address is widened to its /64.
    """
    networks = tuple(trusted)
    address = _address(peer) if peer else None
    if address is not None and networks and _trusted(address, networks):
        hops = [h for line in _header_lines(headers, "x-forwarded-for") for h in line.split(",")]
        if not hops:
            hops = [h for line in _header_lines(headers, "forwarded") for h in _forwarded_for(line)]
        for hop in reversed(hops):
            forwarded = _address(hop)
            if forwarded is None:
                break  # an unreadable hop ends the chain we can trust: count the last trusted one
            address = forwarded
            if not _trusted(forwarded, networks):
                break
    if address is None:
        return UNKNOWN_ADDRESS
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _header_lines(headers: Mapping[str, str], name: str) -> list[str]:
    get_all = getattr(headers, "get_all", None)  # websockets' Headers keep repeated headers apart
    if get_all is not None:
        return list(get_all(name))
    value = headers.get(name)
    return [value] if value else []


def address_within(peer: str | None, networks: tuple[Network, ...]) -> bool:
    """Whether the connecting address ``peer`` is in one of ``networks`` (an unreadable one is not)."""
    address = _address(peer) if peer else None
    return address is not None and _trusted(address, networks)


def _trusted(address: IPAddress, networks: tuple[Network, ...]) -> bool:
    return any(address.version == n.version and address in n for n in networks)


REFUSALS_AT_ONCE: Final = 4
"""Sockets past an address's connection limit that are answered with the reason (a WebSocket
closed with 1013, a page with 503) at once; more are dropped the moment they are accepted."""


def _release(counts: dict[str, int], address: str) -> None:
    held = counts.get(address, 0) - 1
    if held > 0:
        counts[address] = held
    else:
        counts.pop(address, None)


class AddressLimits:
    """What each client address may do at once and per minute (0 turns a limit off)."""

    def __init__(
        self,
        *,
        max_connections: int,
        sessions_per_minute: int,
        lookups_per_minute: int,
        codes_per_minute: int = 0,
    ) -> None:
        self.max_connections = max_connections
        self.sessions_per_minute = sessions_per_minute
        self.lookups_per_minute = lookups_per_minute
        self.codes_per_minute = codes_per_minute
        self._open: dict[str, int] = {}
        self._refusing: dict[str, int] = {}
        self._sessions: dict[str, TokenBucket] = {}
        self._lookups: dict[str, TokenBucket] = {}
        self._codes: dict[str, TokenBucket] = {}

    def connect(self, address: str) -> bool:
        """Count a new connection from ``address``; False (and not counted) over the limit."""
        held = self._open.get(address, 0)
        if self.max_connections and held >= self.max_connections:
            return False
        self._open[address] = held + 1
        return True

    def disconnect(self, address: str) -> None:
        _release(self._open, address)

    def begin_refusal(self, address: str) -> bool:
        """A socket past the limit that is to be told so (its request answered with the reason)
        rather than dropped unanswered; False once ``REFUSALS_AT_ONCE`` such sockets from
        ``address`` are open, so telling costs the node a bounded number of sockets."""
        held = self._refusing.get(address, 0)
        if held >= REFUSALS_AT_ONCE:
            return False
        self._refusing[address] = held + 1
        return True

    def end_refusal(self, address: str) -> None:
        _release(self._refusing, address)

    def new_session(self, address: str) -> bool:
        """A ``hello`` that starts a new session (a resume is not one); False over the limit."""
        return self._take(self._sessions, address, self.sessions_per_minute)

    def failed_lookup(self, address: str) -> bool:
        """A room code or id that named no room; False once the address has guessed too often."""
        return self._take(self._lookups, address, self.lookups_per_minute)

    def lookups_left(self, address: str) -> bool:
        """Whether ``address`` may still look a room up by code (without spending anything)."""
        if not self.lookups_per_minute:
            return True
        bucket = self._lookups.get(address)
        return bucket is None or bucket.ready()

    def code_attempt(self, address: str) -> bool:
        """A transfer code tried (``redeem_transfer_code``), right or wrong; False once the address
        has tried too many: every try counts, so a right guess among many is no way around it."""
        return self._take(self._codes, address, self.codes_per_minute)

    @staticmethod
    def _take(buckets: dict[str, TokenBucket], address: str, per_minute: int) -> bool:
        if not per_minute:
            return True
        bucket = buckets.get(address)
        if bucket is None:
            bucket = buckets[address] = TokenBucket(per_minute / 60.0, per_minute)
        return bucket.take()

    def sweep(self) -> None:
        """Forget buckets that have refilled: they would allow exactly what a new one allows."""
        for buckets in (self._sessions, self._lookups, self._codes):
            for address in [a for a, b in buckets.items() if b.full()]:
                del buckets[address]

    def sizes(self) -> dict[str, int]:
        """Entries in each table, for ``/metrics`` (after a sweep: what is left is in use)."""
        self.sweep()
        return {
            "address_connections": len(self._open),
            "address_refusals": len(self._refusing),
            "address_session_buckets": len(self._sessions),
            "address_lookup_buckets": len(self._lookups),
            "address_code_buckets": len(self._codes),
        }
