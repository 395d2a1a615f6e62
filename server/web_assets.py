"""The browser page's static files, served over HTTP on the WebSocket's own port.

The built page (``clients/web/dist/``: ``index.html``, a ``manifest.json`` and
content-hashed scripts and styles) is read once, when the server starts, into a
table in memory: each file with its content type, a strong ETag, a gzip copy
made once, and its cache policy. A request's path is only ever a key of that
table, never a filesystem path, so no request can reach a file outside the
directory, whatever dots, slashes or percent-escapes it holds.

The page is read by path as package data, not imported: the server and the
clients are sibling layers that do not import each other.
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import hashlib
import importlib.resources
import ipaddress
import logging
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

log = logging.getLogger("cardavia.server")

INDEX = "index.html"

BUILD_HINT = (
    "The browser page is not built.\n"
    "Build it with: cd clients/web && npm ci && npm run build\n"
    "or point CARDAVIA_WEB_DIR (--web-dir) at a built page.\n"
)

MAX_FILES = 5_000
MAX_BYTES = 128 * 1024 * 1024
"""Bounds on what is read into memory: a built page holds a few dozen files and a few megabytes,
so a directory past these is a misconfigured ``web_dir`` (``/``, a home folder), not a page."""

IMMUTABLE = "public, max-age=31536000, immutable"
"""For files whose names carry a hash of their content: a new build gives them new names."""
REVALIDATE = "no-cache"
"""For ``index.html`` and unhashed files: a cache may keep them but asks each time (a 304 is cheap)."""

TYPES: dict[str, tuple[str, bool]] = {
    # suffix: (Content-Type, whether gzip makes it smaller)
    ".html": ("text/html; charset=utf-8", True),
    ".htm": ("text/html; charset=utf-8", True),
    ".js": ("text/javascript; charset=utf-8", True),
    ".mjs": ("text/javascript; charset=utf-8", True),
    ".css": ("text/css; charset=utf-8", True),
    ".svg": ("image/svg+xml", True),
    ".json": ("application/json", True),
    ".map": ("application/json", True),
    ".webmanifest": ("application/manifest+json", True),
    ".txt": ("text/plain; charset=utf-8", True),
    ".md": ("text/markdown; charset=utf-8", True),
    ".xml": ("application/xml", True),
    ".wasm": ("application/wasm", True),
    ".ico": ("image/x-icon", True),  # icons are mostly uncompressed bitmaps
    ".ttf": ("font/ttf", True),
    ".otf": ("font/otf", True),
    ".png": ("image/png", False),  # already compressed formats from here on
    ".jpg": ("image/jpeg", False),
    ".jpeg": ("image/jpeg", False),
    ".gif": ("image/gif", False),
    ".webp": ("image/webp", False),
    ".avif": ("image/avif", False),
    ".woff2": ("font/woff2", False),
    ".woff": ("font/woff", False),
    ".mp3": ("audio/mpeg", False),
    ".ogg": ("audio/ogg", False),
    ".opus": ("audio/ogg", False),
    ".webm": ("audio/webm", False),
}
UNKNOWN_TYPE = ("application/octet-stream", False)

# The page loads nothing from other hosts and runs no inline script or style, so every source
# is the page's own origin. `connect-src` is completed per request with the WebSocket's origin
# (see `websocket_sources`).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src {connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"
)
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),  # a file is only ever what its Content-Type says
    ("Referrer-Policy", "no-referrer"),  # room codes in the page's address stay on the page
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
)


@dataclass(frozen=True, slots=True)
class Asset:
    """One file of the page, ready to send."""

    body: bytes
    content_type: str
    etag: str
    """Strong ETag of ``body``: a hash of the content, so every node serving the same build agrees."""
    cache_control: str
    compressible: bool
    gzipped: bytes | None = None
    """``body`` gzipped, kept only when smaller than ``body``."""

    @property
    def gzip_etag(self) -> str:
        """The gzip copy's ETag: a different representation needs a different strong ETag."""
        return self.etag[:-1] + '-gzip"'


# ------------------------------------------------------------------ pure functions
_HASH_TOKEN = re.compile(r"[A-Za-z0-9]{8,}")


def is_hashed(name: str) -> bool:
    """Whether a file's name carries a hash of its content (``app.3f9a1c2e.js``, ``chunk-3F9A1C2E.js``).

    A hash is a part of the name between its first part and its extension, separated by ``.``
    or ``-``, of eight or more letters and digits that holds a digit or is all upper case (hex
    digests, esbuild's base32). A lower-case word such as ``app.settings.js`` is not a hash:
    taking a name for hashed when it is not would have browsers keep a stale file for a year,
    while missing a real hash only costs a revalidation.
    """
    basename = name.rsplit("/", 1)[-1]
    if basename == INDEX:
        return False
    parts = re.split(r"[.-]", basename)
    return any(
        _HASH_TOKEN.fullmatch(part) and (any(c.isdigit() for c in part) or part.isupper())
        for part in parts[1:-1]
    )


_QVALUE = re.compile(r"0(?:\.\d{0,3})?|1(?:\.0{0,3})?")


def accepts_gzip(values: Iterable[str]) -> bool:
    """Whether ``Accept-Encoding`` header values (RFC 9110 §12.5.3) accept gzip.

    ``gzip`` (or ``x-gzip``) with a weight above 0 does; ``gzip;q=0`` refuses it whatever ``*``
    says; without gzip named, ``*`` with a weight above 0 does. A malformed weight counts as 0.
    """
    named: float | None = None
    star: float | None = None
    for value in values:
        for item in value.split(","):
            coding, *params = (part.strip() for part in item.split(";"))
            coding = coding.lower()
            if not coding:
                continue
            weight = 1.0
            for param in params:
                key, _, number = param.partition("=")
                if key.strip().lower() == "q":
                    number = number.strip()
                    weight = float(number) if _QVALUE.fullmatch(number) else 0.0
            if coding in ("gzip", "x-gzip"):
                named = weight if named is None else max(named, weight)
            elif coding == "*":
                star = weight if star is None else max(star, weight)
    if named is not None:
        return named > 0
    return star is not None and star > 0


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(
    rf"(?P<name>{_LABEL}(?:\.{_LABEL})*|\[(?P<ipv6>[0-9A-Fa-f:.]+)\])(?::(?P<port>\d{{1,5}}))?"
)


def valid_host(host: str) -> bool:
    """Whether ``host`` is a syntactically valid ``host[:port]``: a DNS name or IPv4 address, or
    an IPv6 address in brackets, and a port up to 65535."""
    match = _HOST.fullmatch(host)
    if match is None or len(host) > 261:
        return False
    if match["ipv6"] is not None:
        try:
            ipaddress.IPv6Address(match["ipv6"])
        except ValueError:
            return False
    return match["port"] is None or int(match["port"]) <= 65535


def websocket_sources(host: str | None) -> list[str]:
    """``ws://HOST`` and ``wss://HOST`` for the page's ``connect-src``, from the request's Host.

    The page opens its WebSocket on its own host and port. CSP Level 3 lets ``'self'`` match
    ws: and wss: on the page's own host, but browsers that follow Level 2 (Safari before 15.4
    among them) do not, and would refuse the game's connection; naming the origin works
    everywhere. The Host header is what the browser used to reach the page, so it names that
    origin. It is taken only when it is a plain host[:port]: anything else (spaces, quotes,
    semicolons, a path) could add sources or directives to the policy, so it is left out and
    ``'self'`` alone remains.
    """
    if host is None or not valid_host(host):
        return []
    host = host.lower()
    return [f"ws://{host}", f"wss://{host}"]


def url_origin(url: str) -> str | None:
    """The ``ws://`` or ``wss://`` origin of a URL (``public_url``), or None when it has none."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("ws", "wss") or not valid_host(parts.netloc):
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}"


def is_websocket_request(request: Request) -> bool:
    """Whether a request asks for the WebSocket handshake (``Upgrade: websocket``); the
    handshake itself checks the rest."""
    return any(
        token.strip().lower() == "websocket"
        for value in request.headers.get_all("Upgrade")
        for token in value.split(",")
    )


def asset_key(target: str) -> str | None:
    """The table key a request target names: its path, query dropped, percent-escapes decoded,
    without the leading ``/``; ``/`` names ``index.html``. None when it names nothing."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        return None
    try:
        key = unquote(path[1:], errors="strict")
    except UnicodeDecodeError:
        return None
    return key or INDEX


def default_directory() -> Path:
    """The page as installed with Cardavia: ``web/dist/`` inside ``cardavia.clients``, found from
    that package, as a checkout maps it to its own folder (``clients/``), not inside ``cardavia/``."""
    root = importlib.resources.files("cardavia.clients") / "web" / "dist"
    return root if isinstance(root, Path) else Path(str(root))


# ------------------------------------------------------------------ loading
@functools.lru_cache(maxsize=1024)
def _gzip(body: bytes) -> bytes:
    """Level 9 and no timestamp, so the same file always compresses to the same bytes. Cached:
    every server started in one process (tests start hundreds) reads the same build."""
    return gzip.compress(body, compresslevel=9, mtime=0)


def make_asset(name: str, body: bytes) -> Asset:
    content_type, compressible = TYPES.get(os.path.splitext(name)[1].lower(), UNKNOWN_TYPE)
    digest = hashlib.sha256(body).hexdigest()[:32]
    gzipped = None
    if compressible:
        packed = _gzip(body)
        gzipped = packed if len(packed) < len(body) else None
    return Asset(
        body=body,
        content_type=content_type,
        etag=f'"{digest}"',
        cache_control=IMMUTABLE if is_hashed(name) else REVALIDATE,
        compressible=compressible,
        gzipped=gzipped,
    )


def _no_follow(path: str, flags: int) -> int:
    """Open without following a symlink put in a file's place after the directory was listed."""
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    """The regular files under ``root`` by their ``/``-separated relative names, in order.

    Symbolic links are skipped, files and folders alike: a link could lead out of the
    directory. So are hidden names (``.DS_Store``, ``.gitignore``) and anything that is not a
    regular file (a FIFO would block the read)."""
    for folder, folders, names in os.walk(root, followlinks=False):
        folders[:] = sorted(
            f for f in folders if not f.startswith(".") and not os.path.islink(os.path.join(folder, f))
        )
        for name in sorted(names):
            path = Path(folder) / name
            if name.startswith(".") or not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            yield path.relative_to(root).as_posix(), path


def load_directory(root: Path) -> dict[str, Asset]:
    """Every file of the page under ``root``; empty when ``root`` is no directory or holds more
    than a page would (``MAX_FILES``, ``MAX_BYTES``)."""
    if not root.is_dir():
        return {}
    assets: dict[str, Asset] = {}
    total = 0
    for name, path in _files(root):
        try:
            with open(path, "rb", opener=_no_follow) as file:
                body = file.read(MAX_BYTES - total + 1)
        except OSError as exc:
            log.warning("event=web_file_skipped file=%s reason=%s", name, exc.strerror or exc)
            continue
        total += len(body)
        if len(assets) >= MAX_FILES or total > MAX_BYTES:
            log.error(
                "event=web_dir_too_large dir=%s limit_files=%d limit_bytes=%d: serving no page",
                root,
                MAX_FILES,
                MAX_BYTES,
            )
            return {}
        assets[name] = make_asset(name, body)
    return assets


# ------------------------------------------------------------------ serving
def _response(status: HTTPStatus, headers: Iterable[tuple[str, str]], body: bytes = b"") -> Response:
    # The connection closes after any answer that is not the WebSocket handshake.
    fields = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"), *headers])
    return Response(status.value, status.phrase, fields, body)


def _etag_matches(values: Iterable[str], etag: str) -> bool:
    """``If-None-Match`` against ``etag``, by the weak comparison RFC 9110 §13.1.2 asks for."""
    for value in values:
        if value.strip() == "*":
            return True
        for tag in re.findall(r'(?:W/)?("[^"]*")', value):
            if tag == etag:
                return True
    return False


class WebAssets:
    """The page's files by name, and the HTTP answers for them."""

    def __init__(
        self, assets: dict[str, Asset], directory: Path, connect_sources: Iterable[str] = ()
    ) -> None:
        self.assets = assets
        self.directory = directory
        self.connect_sources = list(connect_sources)
        """Origins the page may open connections to besides its own (the node's ``public_url``)."""
        self.peer_sources: list[str] = []
        """The origins of the cluster's other nodes, which the page follows redirects to."""

    @classmethod
    def load(cls, directory: str | Path | None = None, *, public_url: str = "") -> WebAssets:
        """Read the page from ``directory`` (None or empty: the installed one) into memory.

        A missing page is not an error: the server starts and ``/`` explains how to build it.
        """
        configured = bool(directory)
        root = Path(directory) if directory else default_directory()
        # The root itself may be reached through links (the package's folders are links in a
        # checkout); from it down, no link is followed.
        root = root.resolve()
        assets = load_directory(root)
        origin = url_origin(public_url) if public_url else None
        web = cls(assets, root, [origin] if origin else [])
        if web.has_page:
            size = sum(len(a.body) for a in assets.values())
            log.info("event=web_page dir=%s files=%d bytes=%d", root, len(assets), size)
        else:
            # A checkout before `npm run build` has no page; a directory given on purpose should have one.
            (log.warning if configured else log.info)("event=web_page_missing dir=%s", root)
        return web

    @property
    def has_page(self) -> bool:
        return INDEX in self.assets

    def set_peers(self, urls: Iterable[str]) -> None:
        """The public URLs of the cluster's live nodes (from the lobby, each heartbeat).

        A room may run on another node, which may be another origin; the server then sends
        the page a ``redirect`` there, and ``connect-src`` must allow that node or the browser
        refuses the connection. A node that joins later is allowed in pages loaded after it
        joined; URLs that are not plain ``ws://``/``wss://`` origins are left out.
        """
        origins = (url_origin(url) for url in urls)
        self.peer_sources = sorted({origin for origin in origins if origin is not None})

    def security_headers(self, request: Request) -> list[tuple[str, str]]:
        hosts = request.headers.get_all("Host")  # two Host headers name no host
        sources = [
            "'self'",
            *websocket_sources(hosts[0] if len(hosts) == 1 else None),
            *self.connect_sources,
            *self.peer_sources,
        ]
        connect = " ".join(dict.fromkeys(sources))
        return [("Content-Security-Policy", CSP.format(connect=connect)), *SECURITY_HEADERS]

    def respond(self, request: Request) -> Response:
        """The answer to a plain HTTP request for ``request.path``: the file, 304, 404, 405 or 503."""
        security = self.security_headers(request)
        key = asset_key(request.path)
        asset = self.assets.get(key) if key is not None else None
        if asset is None:
            if key == INDEX:
                return self._text(request, HTTPStatus.SERVICE_UNAVAILABLE, BUILD_HINT, security)
            return self._text(request, HTTPStatus.NOT_FOUND, "not found\n", security)
        return self.send(request, asset, security)

    def send(self, request: Request, asset: Asset, headers: Iterable[tuple[str, str]] = ()) -> Response:
        """``asset`` as the answer to ``request``: 304 when the client has it, gzipped when it
        accepts gzip, with ``headers`` (the page's security headers, a Content-Language…)."""
        security = list(headers)
        if request.method not in ("GET", "HEAD"):
            allow = [*security, ("Allow", "GET, HEAD")]
            return self._text(request, HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD\n", allow)
        zipped = asset.gzipped is not None and accepts_gzip(request.headers.get_all("Accept-Encoding"))
        etag = asset.gzip_etag if zipped else asset.etag
        headers = [("ETag", etag), ("Cache-Control", asset.cache_control)]
        if asset.compressible:
            headers.append(("Vary", "Accept-Encoding"))
        headers += security
        if _etag_matches(request.headers.get_all("If-None-Match"), etag):
            return _response(HTTPStatus.NOT_MODIFIED, headers)
        body = asset.gzipped if zipped and asset.gzipped is not None else asset.body
        headers += [("Content-Type", asset.content_type), ("Content-Length", str(len(body)))]
        if zipped:
            headers.append(("Content-Encoding", "gzip"))
        return _response(HTTPStatus.OK, headers, b"" if request.method == "HEAD" else body)

    @staticmethod
    def _text(request: Request, status: HTTPStatus, text: str, headers: list[tuple[str, str]]) -> Response:
        body = text.encode()
        return _response(
            status,
            [
                *headers,
                ("Cache-Control", "no-store"),  # a page built a minute later must not be missed
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
            ],
            b"" if request.method == "HEAD" else body,
        )
