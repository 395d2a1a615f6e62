"""Which pages may open the game's WebSocket: the ``Origin`` check of the upgrade.

A browser lets any page open a WebSocket to any host, and says which page did in the
``Origin`` header (RFC 6454), which the page's script cannot change. Without a check, a page
a player visits could open sockets from the player's address and spend that address's
budgets (``max_connections_per_ip``: the player's own connection closed with 1013). So a
browser's upgrade is accepted only from the node's own pages and those of the cluster
(redirects send a page loaded on one node to another) and from the origins a setting names;
a client that is no browser (the terminal client, bots) sends no ``Origin`` and is accepted.

Origins are compared in one form: ``scheme://host[:port]``, lower case, the port left out
when it is the scheme's default (``http://x:80`` is ``http://x``), so that two spellings of
one origin are equal as strings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from cardavia.server.web_assets import url_origin, valid_host

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")  # RFC 3986 §3.1, lower-cased

ANY = "*"
"""The ``allowed_origins`` entry that accepts every origin: the check off (unsafe)."""

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
PAGE_SCHEMES = ("http", "https")
"""A page's origin is ``http://`` or ``https://``; a node's public URL is ``ws://`` or ``wss://``."""


def parse_origin(text: str) -> str | None:
    """``text`` as an origin in the compared form, or None when it is none.

    An origin is a scheme, ``://`` and a valid ``host[:port]``, and nothing else: no user,
    no path, no query. ``null`` (an opaque origin: a sandboxed frame, a ``file:`` page, a
    redirect across origins) is none, so it is never taken for a known one.
    """
    scheme, sep, authority = text.partition("://")
    scheme = scheme.lower()
    if not sep or not _SCHEME.fullmatch(scheme) or not valid_host(authority):
        return None
    host, port = _split_port(authority.lower())
    if port is not None and int(port) == DEFAULT_PORTS.get(scheme):
        port = None
    return f"{scheme}://{host}" if port is None else f"{scheme}://{host}:{int(port)}"


def _split_port(authority: str) -> tuple[str, str | None]:
    """A valid ``host[:port]`` as its host and its port, if it has one."""
    if authority.startswith("["):  # an IPv6 address: its colons are inside the brackets
        end = authority.index("]") + 1
        return authority[:end], authority[end + 1 :] or None
    host, _, port = authority.partition(":")
    return host, port or None


def same_origin(origin: str, host: str | None) -> bool:
    """Whether ``origin`` (compared form) is a page of the host the request names in ``Host``.

    A page served by this node opens its WebSocket on its own host and port, so its origin's
    ``host[:port]`` is the request's ``Host``; a ``Host`` without a port names the default
    port of the origin's scheme, as the origin itself does.
    """
    if host is None:
        return False
    scheme = origin.partition("://")[0]
    return parse_origin(f"{scheme}://{host}") == origin


def page_origins(url: str) -> Iterator[str]:
    """The origins of the pages that reach a node at ``url`` (its ``public_url``): ``http://`` and
    ``https://`` of its host and port, whether the URL is ``ws://`` or ``wss://``.

    Both, because behind a proxy that terminates TLS the node's own public URL may say ``ws://``
    while players load its page over ``https://``. A URL with no valid host gives none."""
    websocket = url_origin(url)
    if websocket is None:
        return
    authority = websocket.partition("://")[2]
    for scheme in PAGE_SCHEMES:
        origin = parse_origin(f"{scheme}://{authority}")
        if origin is not None:
            yield origin


@functools.lru_cache(maxsize=16)
def _pages_of(urls: tuple[str, ...]) -> frozenset[str]:
    """The page origins of these nodes' URLs, made once per list of nodes (which changes only
    when a node joins or leaves), not once per upgrade: a flood of foreign pages asks every time."""
    return frozenset(origin for url in urls for origin in page_origins(url))


@dataclass(frozen=True, slots=True)
class AllowedOrigins:
    """The ``allowed_origins`` setting, read: the origins it names, or every origin."""

    origins: frozenset[str] = frozenset()
    any: bool = False

    def __contains__(self, origin: object) -> bool:
        return self.any or origin in self.origins


def parse_allowed_origins(setting: str) -> AllowedOrigins:
    """``allowed_origins`` (``https://cards.example.com,http://localhost:3000``, or ``*``) read.

    Each entry is an ``http://`` or ``https://`` origin, a trailing ``/`` forgiven; raises
    ``ValueError`` naming the first entry that is not one, so that a typo stops the start
    rather than refuse every player of that page later.
    """
    origins: set[str] = set()
    any_origin = False
    for entry in (part.strip() for part in setting.split(",")):
        if entry == ANY:
            any_origin = True
        elif entry:
            origin = parse_origin(entry.removesuffix("/"))
            if origin is None or origin.partition("://")[0] not in PAGE_SCHEMES:
                raise ValueError(
                    f"{entry!r} is not an origin: http:// or https://, a host and an optional port, "
                    "nothing after (https://cards.example.com), or * for any"
                )
            origins.add(origin)
    return AllowedOrigins(frozenset(origins), any=any_origin)


def origin_refusal(
    values: list[str], host: str | None, allowed: AllowedOrigins, node_urls: Iterable[str]
) -> str | None:
    """Why an upgrade with these ``Origin`` header values is refused, or None when it is accepted.

    Accepted: no ``Origin`` (a client that is no browser); the page's own origin (``Host``);
    an origin of ``node_urls`` (the node's and its peers' public URLs, in ``page_origins``);
    one that ``allowed`` names. Refused: several ``Origin`` headers (no browser sends two, and
    which one to believe cannot be told), ``null`` and anything that is not an origin, and
    every other origin.
    """
    if not values:
        return None
    if len(values) > 1:
        return "several Origin headers"
    if allowed.any:
        return None
    origin = parse_origin(values[0].strip())
    if origin is None:
        return "an opaque or malformed Origin"
    if same_origin(origin, host) or origin in allowed:
        return None
    if origin in _pages_of(tuple(node_urls)):
        return None
    return "a foreign Origin"
