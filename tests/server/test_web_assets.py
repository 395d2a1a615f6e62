"""The browser page's files, served over HTTP on the WebSocket's port: types, caching, gzip,
security headers, nothing from outside the page's directory, and the game still on the same port."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import os
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.web_assets import (
    IMMUTABLE,
    REVALIDATE,
    WebAssets,
    accepts_gzip,
    asset_key,
    default_directory,
    is_hashed,
    make_asset,
    url_origin,
    valid_host,
    websocket_sources,
)
from tests.support.clients import client
from tests.support.servers import own_server
from tests.support.waiting import wait_until

INDEX_HTML = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Cardavia</title>\n'
    '<script type="module" src="/app.3f9a1c2e.js"></script></head>\n'
    + "<body><main id='app'></main></body></html>\n"
    * 20
)
APP_JS = "export function start() { return 'Scopa, Briscola, Schnapsen, Dou Dizhu'; }\n" * 50
MANIFEST = '{"app.js": "app.3f9a1c2e.js", "style.css": "style.ABCD2345.css"}\n'
STYLE = "body { font-family: system-ui, sans-serif; margin: 0; }\n" * 40
CARD_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 90">' + '<rect width="60" height="90"/>' * 30
)
CARD_SVG += "</svg>\n"
ICON_PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4

SECRET = "not part of the page\n"


def build_page(folder: Path, *, index: bool = True) -> Path:
    """A built page as the web client's build leaves it, and, next to it, a file that is not part of it."""
    folder.mkdir(parents=True, exist_ok=True)
    if index:
        (folder / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    (folder / "app.3f9a1c2e.js").write_text(APP_JS, encoding="utf-8")
    (folder / "style.ABCD2345.css").write_text(STYLE, encoding="utf-8")
    (folder / "manifest.json").write_text(MANIFEST, encoding="utf-8")
    (folder / "icon.png").write_bytes(ICON_PNG)
    (folder / "healthz").write_text("a file that must not hide the health check\n", encoding="utf-8")
    (folder / "cards").mkdir(exist_ok=True)
    (folder / "cards" / "italian.svg").write_text(CARD_SVG, encoding="utf-8")
    outside = folder.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (folder / "secret.txt").symlink_to(outside / "secret.txt")
    (folder / "elsewhere").symlink_to(outside, target_is_directory=True)
    (folder / ".env").write_text("HIDDEN=1\n", encoding="utf-8")
    return folder


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


def fetch(port: int, path: str, headers: dict[str, str] | None = None, method: str = "GET") -> Answer:
    """One request, sent as written (no Accept-Encoding unless given, the path not normalised)."""
    headers = dict(headers or {})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        if method == "POST":
            connection.putheader("Content-Length", "0")
        connection.endheaders()
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()


@dataclass
class Site:
    server: CardaviaServer
    folder: Path

    async def get(self, path: str, headers: dict[str, str] | None = None, method: str = "GET") -> Answer:
        return await asyncio.to_thread(fetch, self.server.port, path, headers, method)


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    folder = build_page(tmp_path / "dist")
    async with own_server(tmp_path, web_dir=str(folder)) as (server, _):
        yield Site(server, folder)


# ------------------------------------------------------------------ over HTTP
@pytest.mark.parametrize("path", ["/", "/index.html", "/?room=KX4P7MQ2", "/index.html?lang=pl"])
async def test_the_page_is_served_at_its_root(site: Site, path: str) -> None:
    answer = await site.get(path)
    assert answer.status == 200
    assert answer.header("Content-Type") == "text/html; charset=utf-8"
    assert answer.header("Cache-Control") == REVALIDATE
    assert answer.body == INDEX_HTML.encode()
    assert answer.header("Content-Length") == str(len(INDEX_HTML.encode()))


@pytest.mark.parametrize(
    ("path", "content_type", "cache", "body"),
    [
        ("/app.3f9a1c2e.js", "text/javascript; charset=utf-8", IMMUTABLE, APP_JS.encode()),
        ("/style.ABCD2345.css", "text/css; charset=utf-8", IMMUTABLE, STYLE.encode()),
        ("/manifest.json", "application/json", REVALIDATE, MANIFEST.encode()),
        ("/cards/italian.svg", "image/svg+xml", REVALIDATE, CARD_SVG.encode()),
        ("/icon.png", "image/png", REVALIDATE, ICON_PNG),
        ("/app.3f9a1c2e.js?v=2", "text/javascript; charset=utf-8", IMMUTABLE, APP_JS.encode()),
    ],
)
async def test_each_file_has_its_type_and_cache_policy(
    site: Site, path: str, content_type: str, cache: str, body: bytes
) -> None:
    answer = await site.get(path)
    assert answer.status == 200
    assert answer.header("Content-Type") == content_type
    assert answer.header("Cache-Control") == cache
    assert answer.body == body
    assert answer.header("Content-Encoding") is None


async def test_hashed_files_are_immutable_and_the_rest_revalidate(site: Site) -> None:
    hashed = await site.get("/app.3f9a1c2e.js")
    assert hashed.header("Cache-Control") == "public, max-age=31536000, immutable"
    for path in ("/", "/manifest.json", "/cards/italian.svg"):
        assert (await site.get(path)).header("Cache-Control") == "no-cache"


async def test_a_matching_etag_gets_304_without_a_body(site: Site) -> None:
    first = await site.get("/app.3f9a1c2e.js")
    etag = first.header("ETag")
    assert etag is not None
    assert etag.startswith('"')
    assert etag.endswith('"')  # strong: no W/
    again = await site.get("/app.3f9a1c2e.js", {"If-None-Match": etag})
    assert again.status == 304
    assert again.body == b""
    assert again.header("ETag") == etag
    assert again.header("Cache-Control") == IMMUTABLE
    several = await site.get("/app.3f9a1c2e.js", {"If-None-Match": f'"other", W/{etag}'})
    assert several.status == 304  # If-None-Match compares weakly
    other = await site.get("/app.3f9a1c2e.js", {"If-None-Match": '"0123"'})
    assert other.status == 200
    assert other.body == APP_JS.encode()
    index = await site.get("/")
    assert index.header("ETag") != etag
    assert (await site.get("/", {"If-None-Match": str(index.header("ETag"))})).status == 304


async def test_the_same_content_has_the_same_etag(site: Site) -> None:
    (site.folder.parent / "copy").mkdir()
    (site.folder.parent / "copy" / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    copy = WebAssets.load(site.folder.parent / "copy")
    assert copy.assets["index.html"].etag == (await site.get("/")).header("ETag")


@pytest.mark.parametrize("accept", ["gzip", "gzip, deflate, br, zstd", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*"])
async def test_gzip_is_sent_to_whoever_accepts_it(site: Site, accept: str) -> None:
    answer = await site.get("/app.3f9a1c2e.js", {"Accept-Encoding": accept})
    assert answer.status == 200
    assert answer.header("Content-Encoding") == "gzip"
    assert answer.header("Vary") == "Accept-Encoding"
    assert answer.header("Content-Length") == str(len(answer.body))
    assert len(answer.body) < len(APP_JS.encode())
    assert gzip.decompress(answer.body) == APP_JS.encode()
    plain = await site.get("/app.3f9a1c2e.js")
    assert answer.header("ETag") != plain.header("ETag")  # another representation, another strong ETag
    revalidated = await site.get(
        "/app.3f9a1c2e.js", {"Accept-Encoding": accept, "If-None-Match": str(answer.header("ETag"))}
    )
    assert revalidated.status == 304


@pytest.mark.parametrize("accept", [None, "gzip;q=0", "identity", "br, gzip;q=0, *", "*;q=0", "gzip;q=x"])
async def test_no_gzip_without_it_accepted(site: Site, accept: str | None) -> None:
    headers = {"Accept-Encoding": accept} if accept is not None else {}
    answer = await site.get("/app.3f9a1c2e.js", headers)
    assert answer.status == 200
    assert answer.header("Content-Encoding") is None
    assert answer.header("Vary") == "Accept-Encoding"
    assert answer.body == APP_JS.encode()


async def test_files_already_compressed_are_sent_as_they_are(site: Site) -> None:
    answer = await site.get("/icon.png", {"Accept-Encoding": "gzip"})
    assert answer.header("Content-Encoding") is None
    assert answer.header("Vary") is None
    assert answer.body == ICON_PNG


@pytest.mark.parametrize("path", ["/", "/app.3f9a1c2e.js", "/cards/italian.svg", "/nope.js"])
async def test_security_headers(site: Site, path: str) -> None:
    answer = await site.get(path)
    port = site.server.port
    assert answer.header("Content-Security-Policy") == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
        f"connect-src 'self' ws://127.0.0.1:{port} wss://127.0.0.1:{port}; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'; object-src 'none'"
    )
    assert answer.header("X-Content-Type-Options") == "nosniff"
    assert answer.header("Referrer-Policy") == "no-referrer"
    assert answer.header("X-Frame-Options") == "DENY"


@pytest.mark.parametrize(
    ("host", "sources"),
    [
        ("Play.Example.org:8443", "'self' ws://play.example.org:8443 wss://play.example.org:8443"),
        ("[::1]:8765", "'self' ws://[::1]:8765 wss://[::1]:8765"),
        ("evil.example; script-src *", "'self'"),
        ("evil.example 'unsafe-inline'", "'self'"),
        ("example.org/path", "'self'"),
    ],
)
async def test_the_websocket_origin_comes_from_a_valid_host_only(site: Site, host: str, sources: str) -> None:
    answer = await site.get("/", {"Host": host})
    policy = str(answer.header("Content-Security-Policy"))
    assert f"connect-src {sources};" in policy
    assert "unsafe" not in policy
    assert policy.count("script-src") == 1


async def test_two_host_headers_name_no_origin(site: Site) -> None:
    answer = await asyncio.to_thread(
        fetch_raw, site.server.port, b"GET / HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert b"connect-src 'self';" in answer


def fetch_raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
        return received


async def test_the_public_url_origin_may_be_connected_to(tmp_path: Path) -> None:
    folder = build_page(tmp_path / "dist")
    async with own_server(tmp_path, web_dir=str(folder), public_url="wss://play.example.org/") as (server, _):
        answer = await asyncio.to_thread(fetch, server.port, "/", {"Host": "localhost:1"})
    assert "connect-src 'self' ws://localhost:1 wss://localhost:1 wss://play.example.org;" in str(
        answer.header("Content-Security-Policy")
    )


async def test_the_clusters_other_nodes_may_be_connected_to(tmp_path: Path) -> None:
    """A redirect may send the page to another node: the heartbeat gives the page its peers."""
    folder = build_page(tmp_path / "dist")
    async with own_server(tmp_path, web_dir=str(folder), heartbeat_seconds=3600) as (server, _):
        # the first heartbeat is in (it found no other node)
        await wait_until(server.lobby.nodes, "the first heartbeat", timeout=2.0)
        assert server.web.peer_sources == []
        server.web.set_peers(
            ["ws://10.0.0.2:8765/", "wss://b.example.org/", "ws://bad host/", "http://c.example/"]
        )
        answer = await asyncio.to_thread(fetch, server.port, "/", {"Host": "localhost:1"})
        server.web.set_peers([])
        later = await asyncio.to_thread(fetch, server.port, "/", {"Host": "localhost:1"})
    assert (
        "connect-src 'self' ws://localhost:1 wss://localhost:1 ws://10.0.0.2:8765 wss://b.example.org;"
        in str(answer.header("Content-Security-Policy"))
    )
    policy = str(later.header("Content-Security-Policy"))
    assert "connect-src 'self' ws://localhost:1 wss://localhost:1;" in policy


@pytest.mark.parametrize(
    "path",
    [
        "/nope.js",
        "/app.js",
        "/cards",
        "/cards/",
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/%2E%2E/%2E%2E/pyproject.toml",
        "/cards/../../outside/secret.txt",
        "/..%2fpyproject.toml",
        "//etc/passwd",
        "/etc/passwd",
        "/secret.txt",  # a symlink in the page's folder, to a file outside it
        "/elsewhere/secret.txt",  # a symlinked folder
        "/.env",
        "/%ff",
        "/index.html/",
    ],
)
async def test_anything_else_is_not_found(site: Site, path: str) -> None:
    answer = await site.get(path)
    assert answer.status == 404
    assert SECRET.encode() not in answer.body
    assert answer.header("Content-Type") == "text/plain; charset=utf-8"
    assert answer.header("X-Content-Type-Options") == "nosniff"


async def test_head_has_the_headers_without_the_body(site: Site) -> None:
    answer = await site.get("/app.3f9a1c2e.js", method="HEAD")
    assert answer.status == 200
    assert answer.header("Content-Length") == str(len(APP_JS.encode()))
    assert answer.body == b""


async def test_other_methods_are_not_allowed(site: Site) -> None:
    answer = await site.get("/index.html", method="POST")
    assert answer.status == 405
    assert answer.header("Allow") == "GET, HEAD"


async def test_the_existing_routes_keep_priority(site: Site) -> None:
    health = await site.get("/healthz")
    assert (health.status, health.body) == (200, b"ok\n")  # not the file named healthz
    assert (await site.get("/metrics")).status == 200
    rules = await site.get("/rules/scopa?lang=it")
    assert rules.header("Content-Type") == "text/markdown; charset=utf-8"
    assert (await site.get("/i18n/sv.json")).header("Content-Language") == "sv"
    assert (await site.get("/i18n/xx.json")).status == 404


async def test_the_game_still_plays_on_the_same_port(site: Site) -> None:
    page = await site.get("/")
    assert page.status == 200
    anna = await client(f"ws://127.0.0.1:{site.server.port}/", "Anna")
    welcome = await anna.hello()
    assert isinstance(welcome, m.Welcome)
    await anna.ws.close()


@pytest.mark.parametrize("folder_exists", [False, True])
async def test_without_index_html_the_root_explains_how_to_build_the_page(
    tmp_path: Path, folder_exists: bool
) -> None:
    folder = build_page(tmp_path / "dist", index=False) if folder_exists else tmp_path / "missing"
    async with own_server(tmp_path, web_dir=str(folder)) as (server, url):
        for path in ("/", "/index.html"):
            answer = await asyncio.to_thread(fetch, server.port, path)
            assert answer.status == 503
            assert answer.header("Content-Type") == "text/plain; charset=utf-8"
            assert b"cd clients/web && npm ci && npm run build" in answer.body
        anna = await client(url)
        await anna.hello()  # the server runs regardless
        await anna.ws.close()
        if folder_exists:  # the files that are there are served
            assert (await asyncio.to_thread(fetch, server.port, "/app.3f9a1c2e.js")).status == 200


# ------------------------------------------------------------------ loading
def test_only_the_folders_regular_files_are_loaded(tmp_path: Path) -> None:
    folder = build_page(tmp_path / "dist")
    os.mkfifo(folder / "pipe")  # would block a read
    web = WebAssets.load(folder)
    assert sorted(web.assets) == [
        "app.3f9a1c2e.js",
        "cards/italian.svg",
        "healthz",
        "icon.png",
        "index.html",
        "manifest.json",
        "style.ABCD2345.css",
    ]
    assert web.has_page


def test_gzip_copies_are_made_once_deterministically_and_kept_only_when_smaller() -> None:
    asset = make_asset("app.3f9a1c2e.js", APP_JS.encode())
    assert asset.gzipped is not None
    assert asset.gzipped[4:8] == b"\0\0\0\0"  # no timestamp
    assert asset.gzipped == make_asset("other.js", APP_JS.encode()).gzipped
    assert make_asset("tiny.js", b"x").gzipped is None  # gzip would make it bigger
    assert make_asset("icon.png", ICON_PNG).gzipped is None  # not compressible
    assert make_asset("icon.png", ICON_PNG).compressible is False


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("a.html", "text/html; charset=utf-8"),
        ("a.js", "text/javascript; charset=utf-8"),
        ("a.css", "text/css; charset=utf-8"),
        ("a.svg", "image/svg+xml"),
        ("a.json", "application/json"),
        ("a.png", "image/png"),
        ("fonts/a.woff2", "font/woff2"),
        ("favicon.ico", "image/x-icon"),
        ("site.webmanifest", "application/manifest+json"),
        ("robots.txt", "text/plain; charset=utf-8"),
        ("A.PNG", "image/png"),
        ("LICENSE", "application/octet-stream"),
    ],
)
def test_content_types(name: str, content_type: str) -> None:
    assert make_asset(name, b"data").content_type == content_type


def test_the_default_folder_is_the_installed_page() -> None:
    folder = default_directory()
    assert folder.parts[-3:] == ("clients", "web", "dist")
    assert (folder.parent.parent / "__init__.py").is_file()  # the package's clients folder


def test_the_folder_is_a_setting() -> None:
    assert ServerConfig.from_env({}).web_dir == ""
    assert ServerConfig.from_env({"CARDAVIA_WEB_DIR": "/srv/page"}).web_dir == "/srv/page"


# ------------------------------------------------------------------ pure functions
@pytest.mark.parametrize(
    ("name", "hashed"),
    [
        ("app.3f9a1c2e.js", True),
        ("app.3F9A1C2E.js", True),
        ("chunk-ABCDEFGH.js", True),  # esbuild's [name]-[hash], base32
        ("chunk-7QWERTY2.js", True),
        ("app.YEPJNXTL.js", True),  # esbuild's base32 may hold no digit
        ("cards/italian.3f9a1c2e.svg", True),
        ("style.3f9a1c2e.min.css", True),
        ("app.3f9a1c2e.js.map", True),
        ("vendor.0123456789abcdef0123.js", True),
        ("index.html", False),
        ("app.js", False),
        ("manifest.json", False),
        ("app.settings.js", False),  # a word, not a hash
        ("app-polyfill.js", False),
        ("app.3f9a1c2.js", False),  # seven characters
        ("3f9a1c2e.js", False),  # nothing but a hash: no name
        ("cards/italian.svg", False),
        ("app.3f9a_1c2e.js", False),
    ],
)
def test_hash_detection(name: str, hashed: bool) -> None:
    assert is_hashed(name) is hashed


@pytest.mark.parametrize(
    ("values", "accepted"),
    [
        (["gzip"], True),
        (["GZIP"], True),
        (["x-gzip"], True),
        (["deflate, gzip, br"], True),
        (["deflate", "gzip;q=0.5"], True),  # two header lines
        (["gzip; q=0.001"], True),
        (["gzip;q=1.000"], True),
        (["*"], True),
        (["br, *;q=0.1"], True),
        ([], False),
        ([""], False),
        (["identity"], False),
        (["br, deflate"], False),
        (["gzip;q=0"], False),
        (["gzip;q=0.000"], False),
        (["gzip;Q=0"], False),
        (["gzip;q=0, *"], False),  # named refusal beats the wildcard
        (["*;q=0"], False),
        (["gzip;q=abc"], False),
        (["gzip;q=1.5"], False),
        (["gzip;q=-1"], False),
    ],
)
def test_accept_encoding(values: list[str], accepted: bool) -> None:
    assert accepts_gzip(values) is accepted


@pytest.mark.parametrize(
    ("host", "valid"),
    [
        ("example.org", True),
        ("example.org:8443", True),
        ("localhost", True),
        ("127.0.0.1:8765", True),
        ("[::1]:8765", True),
        ("[2001:db8::1]", True),
        ("", False),
        ("example.org:", False),
        ("example.org:99999", False),
        ("example.org:80:80", False),
        ("exa_mple.org", False),
        ("-example.org", False),
        ("example..org", False),
        ("[zz::1]", False),
        ("::1", False),
        ("a b", False),
        ("example.org;", False),
        ("example.org'", False),
        ("user@example.org", False),
        ("a" * 64 + ".org", False),
    ],
)
def test_host_validation(host: str, valid: bool) -> None:
    assert valid_host(host) is valid
    assert websocket_sources(host) == ([f"ws://{host}", f"wss://{host}"] if valid else [])


def test_websocket_sources_without_a_host() -> None:
    assert websocket_sources(None) == []


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("wss://Play.Example.org/", "wss://play.example.org"),
        ("ws://10.0.0.5:8765/", "ws://10.0.0.5:8765"),
        ("https://play.example.org/", None),
        ("wss://play.example.org;x/", None),
        ("", None),
    ],
)
def test_public_url_origin(url: str, origin: str | None) -> None:
    assert url_origin(url) == origin


@pytest.mark.parametrize(
    ("target", "key"),
    [
        ("/", "index.html"),
        ("/?room=AB", "index.html"),
        ("/index.html", "index.html"),
        ("/cards/italian.svg", "cards/italian.svg"),
        ("/app.js?v=1#top", "app.js"),
        ("/my%20card.svg", "my card.svg"),
        ("/%2e%2e/pyproject.toml", "../pyproject.toml"),  # a key no file has
        ("//etc/passwd", "/etc/passwd"),
        ("*", None),
        ("http://example.org/", None),
        ("/%ff", None),
    ],
)
def test_asset_key(target: str, key: str | None) -> None:
    assert asset_key(target) == key


def test_no_key_climbs_out_or_is_absolute(tmp_path: Path) -> None:
    web = WebAssets.load(build_page(tmp_path / "dist"))
    for key in web.assets:
        assert not key.startswith("/")
        assert ".." not in key.split("/")
        assert "" not in key.split("/")
