"""The player-key file: owner-only, one key per server and owner, never shown, damaged files named."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from cardavia.clients.cli.keys import (
    LADDER_FORMAT,
    PLAYER,
    KeyFileError,
    KeyStore,
    config_dir,
    owner_only,
    play_file,
    server_id,
)

KEY = "q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_kept_key_is_in_a_file_and_folder_only_its_owner_may_read(tmp_path: Path) -> None:
    path = tmp_path / "config" / "cardavia" / "play.json"
    keys = KeyStore(path)
    assert keys.key("ws://127.0.0.1:8765/") is None  # no file yet: no key, nothing written
    assert not path.exists()
    keys.remember("ws://127.0.0.1:8765/", PLAYER, KEY, player="p-5c0a9e1f2b3d4c6e", name="Anna")
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    assert owner_only(path)
    assert keys.key("ws://127.0.0.1:8765/") == KEY
    assert KeyStore(path).key("ws://127.0.0.1:8765") == KEY  # read back by a new store, same server
    assert [p.name for p in path.parent.iterdir()] == ["play.json"]  # no temporary file left behind


def test_keys_are_kept_per_server_and_owner_and_never_sent_to_another_server(tmp_path: Path) -> None:
    keys = KeyStore(tmp_path / "ladder.json", kind=LADDER_FORMAT)
    keys.remember("ws://Cards.Example:80/", "bot-1", "key-one")
    keys.remember("ws://cards.example/", "bot-2", "key-two")
    keys.remember("wss://cards.example/", "bot-1", "key-three")
    assert keys.key("ws://cards.example:80/lobby", "bot-1") == "key-one"
    assert keys.key("ws://cards.example/", "bot-2") == "key-two"
    assert keys.key("wss://cards.example:443/", "bot-1") == "key-three"
    assert keys.key("ws://cards.example:8765/", "bot-1") is None  # another port is another server
    assert keys.owners("ws://cards.example/") == ["bot-1", "bot-2"]
    assert keys.forget("ws://cards.example/", "bot-1")
    assert not keys.forget("ws://cards.example/", "bot-1")
    assert keys.key("ws://cards.example/", "bot-1") is None
    assert keys.key("ws://cards.example/", "bot-2") == "key-two"


def test_the_store_never_shows_a_key(tmp_path: Path) -> None:
    keys = KeyStore(tmp_path / "play.json")
    keys.remember("ws://127.0.0.1:8765/", PLAYER, KEY)
    assert KEY not in repr(keys)
    assert KEY not in str(keys)


def test_a_file_others_may_read_is_made_owner_only_before_its_key_is_read(tmp_path: Path) -> None:
    path = tmp_path / "play.json"
    KeyStore(path).remember("ws://127.0.0.1:8765/", PLAYER, KEY)
    os.chmod(path, 0o644)
    assert KeyStore(path).key("ws://127.0.0.1:8765/") == KEY
    assert mode(path) == 0o600


def test_a_rewrite_keeps_the_file_owner_only_and_keeps_the_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "play.json"
    keys = KeyStore(path)
    keys.remember("ws://a.example/", PLAYER, "key-a")
    keys.remember("ws://b.example/", PLAYER, "key-b")
    keys.remember("ws://a.example/", PLAYER, "key-a2")
    assert mode(path) == 0o600
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "cardavia-play/1"
    assert sorted(data["servers"]) == ["ws://a.example:80", "ws://b.example:80"]
    assert keys.key("ws://a.example/") == "key-a2"
    assert keys.key("ws://b.example/") == "key-b"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{not json", "not JSON"),
        ('{"format": "something-else/1", "servers": {}}', "not a cardavia-play/1 file"),
        ('{"format": "cardavia-play/1", "servers": []}', "not a table of servers"),
    ],
)
def test_a_damaged_file_is_an_error_naming_it_and_is_left_as_it_was(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "play.json"
    path.write_text(text, encoding="utf-8")
    keys = KeyStore(path)
    with pytest.raises(KeyFileError, match=problem) as refused:
        keys.key("ws://127.0.0.1:8765/")
    assert str(path) in str(refused.value)
    with pytest.raises(KeyFileError):
        keys.remember("ws://127.0.0.1:8765/", PLAYER, KEY)
    assert path.read_text(encoding="utf-8") == text


def test_the_default_files_are_in_the_users_configuration_folder(tmp_path: Path) -> None:
    assert config_dir({"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/nowhere"}) == tmp_path / "cardavia"
    assert config_dir({"HOME": str(tmp_path)}) == tmp_path / ".config" / "cardavia"
    assert (
        config_dir({"XDG_CONFIG_HOME": "relative", "HOME": str(tmp_path)})
        == tmp_path / ".config" / "cardavia"
    )
    assert play_file({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "cardavia" / "play.json"


def test_a_server_is_named_by_scheme_host_and_port() -> None:
    assert server_id("ws://127.0.0.1:8765/") == "ws://127.0.0.1:8765"
    assert server_id("wss://Cards.Example/") == "wss://cards.example:443"
    assert server_id("ws://[::1]:9000/") == "ws://[::1]:9000"
    with pytest.raises(ValueError, match="ws://host:port/"):
        server_id("http://cards.example/")
