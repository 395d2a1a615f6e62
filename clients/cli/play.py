"""`cardavia play`: the interactive terminal client (lobby, tables, summaries) on one session.

With no ``--server`` it connects to the local default server and, when nothing
answers there, starts one of its own as a child process (``cardavia serve`` on
a free port, records in a temporary folder), so a newcomer can play at once;
that server stops when the client does. A client never imports the server: the
child process is the only way it runs one. That server is a private one: it
keeps its lobby in memory whatever ``CARDAVIA_*`` variables say, so that a shell
set up for a cluster does not make it join the cluster's lobby as a node.

The player key of a profile made or brought here with ``cardavia play`` is
kept in the settings file (``keys.play_file()``: ``$XDG_CONFIG_HOME/cardavia/play.json``,
readable by the user alone), one key per server, and sent in each hello to
that server only. The embedded server's profiles end with it, so no key of
its is kept.

The client speaks the language ``--lang`` names, by default the system
locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) when Cardavia speaks it, else
English; what this command prints before and after the client runs is in that
language too.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_SERVER = "ws://127.0.0.1:8765/"
LANGUAGES = ("en", "it", "sv", "nb", "es", "pl")
START_TIMEOUT = 20.0
PRIVATE_SETTINGS = ("REDIS_URL", "REDIS_PREFIX", "NODE_ID", "PUBLIC_URL", "HOST", "PORT", "RECORDS_DIR")
"""``CARDAVIA_*`` settings the embedded server never takes from the environment: where it listens,
what it is called and which lobby it is in are its own."""


class ServerDidNotStart(RuntimeError):
    """The embedded server stopped or did not answer in time; ``log`` is the end of its log."""

    def __init__(self, log: str) -> None:
        super().__init__(f"the local server did not start:\n{log}")
        self.log = log


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "play",
        help="play in the terminal against bots and people (starts a local server if none runs)",
        description="Play in the terminal against bots and people. A profile made or brought here keeps"
        " its player key in $XDG_CONFIG_HOME/cardavia/play.json (~/.config/cardavia/play.json),"
        " readable by you alone, one key per server.",
    )
    p.add_argument(
        "--server",
        help=f"server URL (default {DEFAULT_SERVER}; when nothing answers there, a local server is started)",
    )
    p.add_argument(
        "--name", default=None, help="your name at the table, 1-32 characters (default: your login)"
    )
    p.add_argument(
        "--lang",
        default=None,
        choices=LANGUAGES,
        help="the client's language: every word, card and deck name (default: the system locale's language,"
        " from LC_ALL, LC_MESSAGES or LANG, when it is one of these; else en)",
    )
    p.set_defaults(run=run)


def language(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> str:
    """The client's language: ``--lang``, else the system locale's when Cardavia speaks it, else en."""
    from cardavia.protocol.i18n import language_from_environment

    return str(args.lang) if args.lang else language_from_environment(environ)


def run(args: argparse.Namespace) -> int:
    from cardavia.protocol.i18n import Texts
    from cardavia.protocol.text import TextRefused, check

    lang = language(args)
    texts = Texts(lang)

    def say(key: str, **values: str) -> None:
        print(f"cardavia play: {texts(key, **values)}", file=sys.stderr)

    try:  # the server's own rule for names, so a refused name is said here and not as a traceback
        name = check(args.name if args.name is not None else _login(), max_length=32, strip=True)
    except TextRefused as exc:
        say("app.play.bad_name", problem=texts.refusal(exc))
        return 2
    try:  # an extra (cardavia[tui]): say how to get it rather than fail with a traceback
        import textual  # noqa: F401
    except ImportError:
        say("app.play.no_textual", command="pip install 'cardavia[tui]'")
        return 2
    url = args.server or DEFAULT_SERVER
    try:
        _address(url)
    except ValueError:
        say("app.play.bad_url", url=url, example="ws://host:port/")
        return 2
    from cardavia.clients.cli.keys import KeyFileError, KeyStore, play_file

    keys: KeyStore | None = KeyStore(play_file())
    with contextlib.ExitStack() as stack:
        if not answers(url):
            if args.server is not None:
                say("app.play.nothing_answers", url=url)
                return 1
            print(texts("app.play.starting_local"), file=sys.stderr)
            try:
                url = stack.enter_context(embedded_server())
            except ServerDidNotStart as exc:
                say("app.play.local_failed", log=exc.log)
                return 1
            keys = None  # a server of our own, gone when we are: its profiles go with it
        try:
            key = keys.key(url) if keys is not None else None
        except KeyFileError as exc:
            say("profile.cli.settings_unreadable", problem=str(exc))
            return 2
        from cardavia.clients.cli.session import Session
        from cardavia.clients.cli.tui.app import CardaviaApp

        app = CardaviaApp(Session(url, name, lang=lang, player=key), name=name, lang=lang, keys=keys)
        app.run()
        if app.failed:
            print(f"cardavia play: {app.failed}", file=sys.stderr)
            return 1
    return 0


def _login() -> str:
    try:
        return getpass.getuser()[:32] or "player"
    except (OSError, KeyError):
        return "player"


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"a server URL looks like ws://host:port/, not {url!r}")
    return parts.hostname, parts.port or (443 if parts.scheme == "wss" else 80)


def answers(url: str, timeout: float = 1.0) -> bool:
    """Whether something accepts connections at the URL's host and port."""
    try:
        with socket.create_connection(_address(url), timeout=timeout):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def server_environment(environ: Mapping[str, str], redis_url: str = "") -> dict[str, str]:
    """The embedded server's environment: ``environ`` without the settings that are its own, and
    with ``redis_url`` as its lobby (empty: the in-memory one)."""
    own = {"CARDAVIA_" + name for name in PRIVATE_SETTINGS}
    env = {key: value for key, value in environ.items() if key not in own}
    if redis_url:
        env["CARDAVIA_REDIS_URL"] = redis_url
    return env


@contextlib.contextmanager
def embedded_server(timeout: float = START_TIMEOUT, *, redis_url: str = "") -> Iterator[str]:
    """Run `cardavia serve` on a free local port for as long as the block lasts; yields its URL.

    Its lobby is in memory unless ``redis_url`` names one."""
    folder = Path(tempfile.mkdtemp(prefix="cardavia-play-"))
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    command = [sys.executable, "-m", "cardavia", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--records-dir", str(folder)]
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=server_environment(os.environ, redis_url),
        )
        try:
            deadline = time.monotonic() + timeout
            while not answers(url, timeout=0.2):
                if process.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(encoding="utf-8", errors="replace")[-800:]
                    raise ServerDidNotStart(tail)
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            shutil.rmtree(folder, ignore_errors=True)
