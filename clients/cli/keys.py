"""Player keys kept on this machine: the terminal client's settings file and the bot ladder's file.

A player key is the only secret a profile has: whoever holds it plays as that
profile. So it lives in a file only its owner may read (created 0600 in a
folder created 0700, rewritten atomically, tightened back to 0600 when found
looser), is sent only in ``hello`` (never on a command line or in a URL), and
is never printed: ``repr`` of a ``KeyStore`` names its file, not its keys.

Keys are kept per server (``server_id``: scheme, host and port of the URL the
client was started with): a key is good only on the server that made it, and
sending one server's key to another would hand the secret to a stranger.
Within one file each key has an owner name (``who``): ``"player"`` for the
person at ``cardavia play``, the bot's name for ``cardavia bot --ladder``.

The default place is the user's configuration folder: ``$XDG_CONFIG_HOME/cardavia``
(``~/.config/cardavia`` when unset), ``play.json`` and ``ladder.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

PLAY_FORMAT = "cardavia-play/1"
LADDER_FORMAT = "cardavia-ladder/1"
PLAYER = "player"
"""The owner name of the person's key in ``play.json``."""
OWNER_ONLY = 0o600


class KeyFileError(Exception):
    """The key file cannot be read or written; the message names the file and the problem."""


def config_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/cardavia``, else ``~/.config/cardavia``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or ""
    root = (
        Path(base) if base and Path(base).is_absolute() else Path(env.get("HOME") or Path.home()) / ".config"
    )
    return root / "cardavia"


def play_file(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``cardavia play`` keeps its settings (the player key among them)."""
    return config_dir(environ) / "play.json"


def ladder_file(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``cardavia bot --ladder`` keeps its bots' keys unless ``--ladder-file`` names another."""
    return config_dir(environ) / "ladder.json"


def server_id(url: str) -> str:
    """The server a key belongs to: ``ws://host:port`` of its URL (host in lower case, port explicit)."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"a server URL looks like ws://host:port/, not {url!r}")
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}:{port}"


class KeyStore:
    """Player keys by server and owner, in one JSON file that only its owner may read."""

    def __init__(self, path: Path, *, kind: str = PLAY_FORMAT) -> None:
        self.path = path
        self.kind = kind

    def __repr__(self) -> str:  # never the keys
        return f"KeyStore({str(self.path)!r})"

    # ------------------------------------------------------------- reading
    def key(self, server: str, who: str = PLAYER) -> str | None:
        """The key ``who`` holds on ``server`` (its URL), or None."""
        entry = self._entries(self._load()).get(server_id(server), {}).get(who)
        key = entry.get("key") if isinstance(entry, dict) else None
        return key if isinstance(key, str) and key else None

    def owners(self, server: str) -> list[str]:
        """Who holds a key on ``server``, in the order they were first kept."""
        return list(self._entries(self._load()).get(server_id(server), {}))

    # ------------------------------------------------------------- writing
    def remember(self, server: str, who: str, key: str, *, player: str = "", name: str = "") -> None:
        """Keep ``key`` as ``who``'s on ``server`` (replacing any earlier one); ``player`` and
        ``name`` are the profile's public id and name, kept to say whose key it is."""
        data = self._load()
        servers = self._entries(data)
        servers.setdefault(server_id(server), {})[who] = {"key": key, "player": player, "name": name}
        self._save(data)

    def forget(self, server: str, who: str = PLAYER) -> bool:
        """Drop ``who``'s key on ``server``; False when there was none."""
        data = self._load()
        owners = self._entries(data).get(server_id(server), {})
        if who not in owners:
            return False
        del owners[who]
        self._save(data)
        return True

    # ------------------------------------------------------------ the file
    def _entries(self, data: dict[str, Any]) -> dict[str, dict[str, Any]]:
        servers = data.setdefault("servers", {})
        if not isinstance(servers, dict) or not all(isinstance(v, dict) for v in servers.values()):
            raise KeyFileError(f"{self.path}: 'servers' is not a table of servers")
        return servers

    def _load(self) -> dict[str, Any]:
        try:
            with self.path.open("rb") as handle:
                mode = os.fstat(handle.fileno()).st_mode
                if mode & 0o077:  # readable by others: take that back before reading the secret
                    os.fchmod(handle.fileno(), OWNER_ONLY)
                raw = handle.read()
        except FileNotFoundError:
            return {"format": self.kind, "servers": {}}
        except OSError as exc:
            raise KeyFileError(f"{self.path}: cannot read it: {exc.strerror}") from None
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"{self.path}: not JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != self.kind:
            raise KeyFileError(f"{self.path}: not a {self.kind} file")
        return data

    def _save(self, data: dict[str, Any]) -> None:
        """Write the whole file anew: a temporary file made 0600, then renamed over the old one."""
        folder = self.path.parent
        try:
            if not folder.exists():
                folder.mkdir(mode=0o700, parents=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=folder)
        except OSError as exc:
            raise KeyFileError(f"{self.path}: cannot write it: {exc.strerror}") from None
        try:
            os.fchmod(fd, OWNER_ONLY)  # mkstemp already makes it 0600; say so for the reader
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.write("\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise KeyFileError(f"{self.path}: cannot write it: {exc.strerror}") from None


def owner_only(path: Path) -> bool:
    """True when nobody but the file's owner may read or write it."""
    return stat.S_IMODE(path.stat().st_mode) & 0o077 == 0
