"""The node's front door, what its sockets (``wire.py``) ask of it: the answers to plain HTTP
(``/healthz``, ``/metrics``, the rules, the catalogues and the browser page), and the WebSocket
upgrade, which becomes a connection unless a browser made it for a page of another site
(``origins.py``) or its address has too many already.

One port serves both the game's WebSocket and these pages, so that a browser,
a load balancer's health check and Prometheus need no second address. The
wire reads the request and asks here for the answer before any connection
exists; what is answered is read from memory (the page, the catalogues and the
rules are encoded and compressed once per process), so an HTTP request never
waits on the disk or the lobby. An accepted WebSocket's frames go to the read
loop (``requests.py``); when its socket is gone, the session table and the
room keeper each forget what they held of it.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.http11 import Request, Response

from cardavia.games.errors import UnknownGameError
from cardavia.games.rules import LANGUAGES, rules_text
from cardavia.protocol.i18n import served_catalogue
from cardavia.server.connection import CLOSE_TRY_LATER, Connection
from cardavia.server.limits import address_within, client_address, parse_networks
from cardavia.server.origins import origin_refusal, parse_allowed_origins
from cardavia.server.rooms import RoomKeeper
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper
from cardavia.server.web_assets import Asset, WebAssets, is_websocket_request, make_asset
from cardavia.server.wire import Wire

log = logging.getLogger("cardavia.server")

TOO_MANY_CONNECTIONS = "too many connections from your address"


@functools.cache
def _catalogue_asset(lang: str) -> Asset:
    """A language's served catalogue as an asset: encoded and compressed once per process."""
    body = json.dumps(served_catalogue(lang), ensure_ascii=False, separators=(",", ":")).encode()
    return make_asset(f"{lang}.json", body)


def _respond(wire: Wire, status: HTTPStatus, body: str, content_type: str) -> Response:
    """An HTTP answer with ``content_type`` as its only Content-Type (``respond`` sets text/plain)."""
    response = wire.respond(status, body)
    del response.headers["Content-Type"]
    response.headers["Content-Type"] = content_type
    return response


class FrontDoor:
    """The handler of the node's sockets (``wire.Handler``): every HTTP request answered, every
    WebSocket opened as a connection."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        web: WebAssets,
        sessions: SessionKeeper,
        rooms: RoomKeeper,
        receive: Callable[[Connection, bytes | str], Awaitable[None]],
        refresh_gauges: Callable[[], None],
    ) -> None:
        self._shared = shared
        self._trusted_proxies = parse_networks(shared.config.trusted_proxies)
        self._metrics_allow = parse_networks(shared.config.metrics_allow)
        self._allowed_origins = parse_allowed_origins(shared.config.allowed_origins)
        self._web = web
        self._sessions = sessions
        self._rooms = rooms
        self._receive = receive
        """The read loop's handling of one frame (``RequestLoop.receive``)."""
        self._refresh_gauges = refresh_gauges
        """Sets the gauges that are read from the node's tables, before ``/metrics`` renders them."""

    def admit(self, wire: Wire) -> bool:
        """A socket, before its first byte: counted against its address, or refused.

        Counting from here, not from the WebSocket's opening, is what keeps sockets that never
        finish a request (or dawdle over it) within the address's limit. A socket past the limit
        is let in to be told so when its request comes (``refused``: a WebSocket is closed with
        1013, a page answered 503), a few at a time; past those it is dropped unanswered.
        A trusted proxy's sockets are many clients': each is counted when it opens as a
        WebSocket, by the client address the proxy forwards."""
        host = wire.peer_host
        if self._trusted_proxies and address_within(host, self._trusted_proxies):
            return True
        address = client_address(host, {}, ())
        limits = self._shared.limits
        if limits.connect(address):
            wire.address = address
            return True
        self._shared.metrics.limited.labels("connections").inc()
        if limits.begin_refusal(address):
            wire.refused = True
            wire.address = address
            return True
        return False

    def released(self, wire: Wire) -> None:
        """A socket is gone: its address's count (or its refusal) is given back."""
        address, wire.address = wire.address, None
        if address is None:
            return
        if wire.refused:
            self._shared.limits.end_refusal(address)
        else:
            self._shared.limits.disconnect(address)

    def opened(self, wire: Wire, request: Request) -> None:
        """A WebSocket is open: a connection, unless its address has too many already."""
        if wire.refused:
            self._refuse(wire, wire.address)
            return
        address = wire.address  # counted when its socket was accepted (``admit``)
        if address is None:  # through a trusted proxy: counted now, by the client it forwards
            address = client_address(wire.peer_host, request.headers, self._trusted_proxies)
            if not self._shared.limits.connect(address):
                self._shared.metrics.limited.labels("connections").inc()
                self._refuse(wire, address)
                return
            wire.address = address
        conn = Connection(wire, self._shared.config, address, self._receive)
        self._sessions.add(conn)
        wire.on_message = conn.received
        wire.on_lost = lambda: conn.lost(lambda: self._gone(conn))

    @staticmethod
    def _refuse(wire: Wire, address: str | None) -> None:
        log.info("event=refused reason=connections_per_ip address=%s", address)
        wire.close(CLOSE_TRY_LATER, TOO_MANY_CONNECTIONS)

    def _gone(self, conn: Connection) -> None:
        """A connection's socket is closed and its last message handled: forget it."""
        self._sessions.remove(conn)
        self._rooms.left(conn)

    def http(self, wire: Wire, request: Request) -> Response | None:
        """Every HTTP request: ``/healthz``, ``/readyz``, ``/metrics``, the rules, the catalogues, the page;
        None accepts a WebSocket handshake (on any path)."""
        if wire.refused and not is_websocket_request(request):
            return wire.respond(HTTPStatus.SERVICE_UNAVAILABLE, TOO_MANY_CONNECTIONS + "\n")
        path = request.path.split("?", 1)[0]
        if path == "/healthz":  # liveness: 200 while the node plays on, saying what it is without
            if self._shared.storage_reachable:
                return wire.respond(HTTPStatus.OK, "ok\n")
            return wire.respond(HTTPStatus.OK, "degraded: storage_unavailable\n")
        if path == "/readyz":  # not /healthz, a liveness probe: games go on in memory meanwhile
            if self._shared.lobby_reachable:
                return wire.respond(HTTPStatus.OK, "ready\n")
            return wire.respond(HTTPStatus.SERVICE_UNAVAILABLE, "not ready: lobby_unavailable\n")
        if path == "/metrics":
            if self._metrics_allow and not address_within(wire.peer_host, self._metrics_allow):
                return wire.respond(HTTPStatus.FORBIDDEN, "forbidden: /metrics is not open to your address\n")
            self._refresh_gauges()
            body = self._shared.metrics.render().decode()
            return _respond(wire, HTTPStatus.OK, body, "text/plain; version=0.0.4; charset=utf-8")
        if path.startswith("/rules/"):
            return self._rules_page(wire, path.removeprefix("/rules/"), request.path)
        if path.startswith("/i18n/") and path.endswith(".json"):
            lang = path.removeprefix("/i18n/").removesuffix(".json")
            return self._catalogue_page(wire, request, lang)
        if is_websocket_request(request):
            return self._foreign_page(wire, request)  # None: the game's WebSocket, on any path
        return self._web.respond(request)  # the browser page: its files, or 404

    def _foreign_page(self, wire: Wire, request: Request) -> Response | None:
        """403 for an upgrade a browser makes for a page this node and its cluster did not serve and
        ``allowed_origins`` does not name; None for any other.

        Answered before a connection exists, so a page that opens sockets from its visitor's
        address spends none of that address's budgets (``opened`` is never called)."""
        origins = request.headers.get_all("Origin")
        hosts = request.headers.get_all("Host")  # two Host headers name no host
        nodes = (*self._web.connect_sources, *self._web.peer_sources)
        reason = origin_refusal(origins, hosts[0] if len(hosts) == 1 else None, self._allowed_origins, nodes)
        if reason is None:
            return None
        address = client_address(wire.peer_host, request.headers, self._trusted_proxies)
        self._shared.metrics.origin_refused.inc()
        shown = ", ".join(origins)[:200]  # written by the client: bounded, quoted by the log format
        log.info("event=refused reason=origin origin=%s address=%s", shown, address)
        return wire.respond(
            HTTPStatus.FORBIDDEN,
            f"forbidden: {reason}; only pages of this server, its cluster and "
            "CARDAVIA_ALLOWED_ORIGINS may open its WebSocket\n",
        )

    def _catalogue_page(self, wire: Wire, request: Request, lang: str) -> Response:
        """``GET /i18n/<lang>.json``: every word of the clients in ``lang``, English filling any gap;
        gzipped, with an ETag, so a page that has it already gets a 304.

        Only the six languages' own tags are served (``pl``, not ``pl-PL``): a client picks
        one of ``languages``, and a tag it made up is told so rather than given English."""
        if lang not in LANGUAGES:
            return wire.respond(
                HTTPStatus.NOT_FOUND, f"no catalogue {lang!r}; languages: {', '.join(LANGUAGES)}\n"
            )
        return self._web.send(request, _catalogue_asset(lang), [("Content-Language", lang)])

    @staticmethod
    def _rules_page(wire: Wire, game: str, target: str) -> Response:
        """``GET /rules/<game>?lang=xx``: the game's rules as Markdown, for pages and other clients."""
        query = parse_qs(urlsplit(target).query)
        lang = (query.get("lang") or ["en"])[0]
        try:
            text = rules_text(game, lang)
        except UnknownGameError:
            return wire.respond(HTTPStatus.NOT_FOUND, f"no game {game!r}\n")
        response = _respond(wire, HTTPStatus.OK, text.markdown, "text/markdown; charset=utf-8")
        response.headers["Content-Language"] = text.lang
        return response
