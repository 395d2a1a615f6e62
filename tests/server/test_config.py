"""Settings: one definition each; a bad variable or option is one line naming it, and exit code 2."""

from __future__ import annotations

import dataclasses
import socket
from pathlib import Path

import pytest

from cardavia import cli
from cardavia.protocol.messages import MIN_TURN_SECONDS
from cardavia.server.config import ServerConfig, SettingError, settings, variable
from tests.support.ports import free_port


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"CARDAVIA_PORT": "abc"}, "CARDAVIA_PORT: must be an integer from 0 to 65535, not 'abc'"),
        ({"CARDAVIA_PORT": "99999"}, "CARDAVIA_PORT: must be an integer from 0 to 65535, not '99999'"),
        ({"CARDAVIA_RATE_PER_SECOND": "-1"}, "CARDAVIA_RATE_PER_SECOND: must be a number above 0, not '-1'"),
        ({"CARDAVIA_BOT_DELAY": "-0.5"}, "CARDAVIA_BOT_DELAY: must be a number from 0 to 60, not '-0.5'"),
        (
            {"CARDAVIA_RECORDS_KEEP_DAYS": "-1"},
            "CARDAVIA_RECORDS_KEEP_DAYS: must be an integer of at least 0",
        ),
        ({"CARDAVIA_TRUSTED_PROXIES": "10.0.0.0/8,proxy"}, "CARDAVIA_TRUSTED_PROXIES: 'proxy' is not an IP"),
        (
            {"CARDAVIA_ALLOWED_ORIGINS": "https://cards.example.com,cards.example.com"},
            "CARDAVIA_ALLOWED_ORIGINS: 'cards.example.com' is not an origin: http:// or https://",
        ),
        ({"CARDAVIA_ALLOWED_ORIGINS": "null"}, "CARDAVIA_ALLOWED_ORIGINS: 'null' is not an origin"),
        ({"CARDAVIA_REDIS_URL": "localhost:6379"}, "CARDAVIA_REDIS_URL: must be empty or a redis://"),
        ({"CARDAVIA_LOG_LEVEL": "loud"}, "CARDAVIA_LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR"),
        (
            {"CARDAVIA_DEFAULT_TURN_SECONDS": "0.2"},
            "CARDAVIA_DEFAULT_TURN_SECONDS: must be 0 (off) or a number from 5 to 600, not '0.2'",
        ),
        (
            {"CARDAVIA_DEFAULT_TURN_SECONDS": "601"},
            "CARDAVIA_DEFAULT_TURN_SECONDS: must be 0 (off) or a number from 5 to 600, not '601'",
        ),
        (
            {"CARDAVIA_DEFAULT_TURN_SECONDS": "nan"},
            "CARDAVIA_DEFAULT_TURN_SECONDS: must be 0 (off) or a number from 5 to 600, not 'nan'",
        ),
    ],
)
def test_a_bad_variable_is_refused_naming_it(environ: dict[str, str], message: str) -> None:
    with pytest.raises(SettingError) as caught:
        ServerConfig.from_env(environ)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_defaults_variables_and_overrides_in_that_order() -> None:
    assert ServerConfig.from_env({}) == ServerConfig()
    config = ServerConfig.from_env({"CARDAVIA_PORT": "9000", "CARDAVIA_LOG_LEVEL": "debug"}, port=9001)
    assert config.port == 9001
    assert config.log_level == "DEBUG"
    assert ServerConfig.from_env({"CARDAVIA_PORT": ""}).port == 8765  # empty: not given
    assert ServerConfig().records_keep_days == 30


def test_allowed_origins_take_origins_and_a_star() -> None:
    """The pages of other sites that may open the WebSocket: origins as a browser sends them (a
    trailing ``/`` forgiven), or ``*`` for any; the default is none."""
    assert ServerConfig().allowed_origins == ""
    given = "https://cards.example.com/, http://localhost:3000"
    assert ServerConfig.from_env({"CARDAVIA_ALLOWED_ORIGINS": given}).allowed_origins == given
    assert ServerConfig.from_env({}, allowed_origins="*").allowed_origins == "*"
    with pytest.raises(SettingError, match=r"^allowed_origins: 'ws://cards.example.com' is not an origin"):
        ServerConfig.from_env({}, allowed_origins="ws://cards.example.com")


def test_settings_built_in_code_are_checked_too() -> None:
    config = ServerConfig(port=0, bot_delay=0, records_dir="r")
    assert config.bot_delay == 0.0
    assert dataclasses.replace(config, port=1).port == 1
    with pytest.raises(ValueError, match="rate_burst"):
        dataclasses.replace(config, rate_burst=-1)
    with pytest.raises(ValueError, match="no_such"):
        ServerConfig(no_such=1)  # type: ignore[call-arg]


@pytest.mark.parametrize(("given", "seconds"), [("0", 0.0), ("5", 5.0), ("600", 600.0), ("", 0.0)])
def test_the_default_turn_timer_is_off_or_within_the_bounds_a_room_creator_has(
    given: str, seconds: float
) -> None:
    """0 (no timer, the default) and the bounds of ``create_room``'s ``turn_seconds`` are kept."""
    assert ServerConfig.from_env({"CARDAVIA_DEFAULT_TURN_SECONDS": given}).default_turn_seconds == seconds
    with pytest.raises(SettingError, match=r"^default_turn_seconds: must be 0 "):  # an override too
        ServerConfig.from_env({}, default_turn_seconds=MIN_TURN_SECONDS / 2)


def test_every_setting_has_help_and_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, info in settings().items():
        assert info.description, name
        assert "--" + name.replace("_", "-") in text
        assert variable(name) in text


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--port", "99999"], "cardavia serve: --port: must be an integer from 0 to 65535, not '99999'"),
        (["--bot-delay", "-1"], "cardavia serve: --bot-delay: must be a number from 0 to 60, not '-1'"),
        (
            ["--allowed-origins", "https://cards.example.com/play"],
            "cardavia serve: --allowed-origins: 'https://cards.example.com/play' is not an origin",
        ),
        (
            ["--log-level", "chatty"],
            "cardavia serve: --log-level: must be one of DEBUG, INFO, WARNING, ERROR",
        ),
        (
            ["--redis-url", "redis://127.0.0.1:port/0"],
            "cardavia serve: --redis-url: not a Redis URL (Port could not be cast to integer value",
        ),
        (
            ["--redis-url", "redis+cluster://127.0.0.1:port"],
            "cardavia serve: --redis-url: not a Redis URL (Port could not be cast to integer value",
        ),
        (
            ["--redis-url", "redis+cluster://127.0.0.1:7000/2"],
            "cardavia serve: --redis-url: a Redis Cluster is named by HOST:PORT of one node",
        ),
        (
            ["--redis-url", "rediss+cluster:///"],
            "cardavia serve: --redis-url: a Redis Cluster is named by HOST:PORT of one node",
        ),
        (
            ["--database-url", "mysql://db.example/cardavia"],
            "cardavia serve: --database-url: must be empty or a sqlite: or postgresql:// URL, not 'mysql:",
        ),
        (
            ["--database-url", "sqlite://host/cardavia.db"],
            "cardavia serve: --database-url: the SQLite URL 'sqlite://host/cardavia.db' names a host",
        ),
        (
            ["--database-url", "postgresql://anna:secret@db.example:port/cardavia"],
            "cardavia serve: --database-url: the PostgreSQL URL is malformed",
        ),
        (
            ["--database-url", "postgresql:cardavia"],
            "cardavia serve: --database-url: a PostgreSQL URL is postgresql://user@host:port/db, not "
            "'postgresql:cardavia'",
        ),
    ],
)
def test_a_bad_option_is_one_line_and_exit_code_2(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(line)
    assert err.count("\n") == 1


def test_a_redis_cluster_that_does_not_answer_at_start_is_one_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A node on a cluster learns the slot map from it before it can place a key: a cluster that
    answers nothing at start (most often a wrong address) stops ``serve`` before it listens."""
    assert cli.main(["serve", "--redis-url", f"redis+cluster://127.0.0.1:{free_port()}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardavia serve: --redis-url: the Redis Cluster cannot serve the lobby: ")
    assert "connecting to 127.0.0.1" in err
    assert err.count("\n") == 1


def test_a_database_url_error_never_shows_its_password(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--database-url", "mysql://anna:secret@db.example/cardavia"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "cardavia serve: --database-url: must be empty or a sqlite: or postgresql:// URL, "
        "not 'mysql://anna:***@db.example/cardavia'\n"
    )


def test_a_database_that_cannot_be_opened_at_start_is_one_line_and_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A node without its database would lose every profile request and match end: ``serve``
    stops before it listens, as it does for a lobby it cannot reach."""
    monkeypatch.setattr(cli, "configure_logging", lambda level: None)
    monkeypatch.setenv("CARDAVIA_BOT_WORKERS", "0")
    missing = tmp_path / "no such folder" / "cardavia.db"
    argv = ["serve", "--port", "0", "--records-dir", str(tmp_path), "--database-url", f"sqlite://{missing}"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardavia serve: --database-url: the database cannot be opened: ")
    assert err.count("\n") == 1
    monkeypatch.setenv("CARDAVIA_DATABASE_URL", f"sqlite://{missing}")
    assert cli.main(["serve", "--port", "0", "--records-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("cardavia serve: CARDAVIA_DATABASE_URL: the database cannot")


def test_the_embedded_database_is_a_file_in_the_records_folder(tmp_path: Path) -> None:
    config = ServerConfig(records_dir=str(tmp_path / "data"))
    assert config.archive_url() == f"sqlite://{(tmp_path / 'data' / 'cardavia.db').resolve()}"
    assert ServerConfig(database_url="sqlite:other.db").archive_url() == "sqlite:other.db"


def test_a_prefix_with_a_hash_tag_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--redis-prefix", "game{1}:"]) == 2
    assert capsys.readouterr().err == (
        "cardavia serve: --redis-prefix: must hold no braces (the keys' hash tags follow it), "
        "not 'game{1}:'\n"
    )


def test_a_bad_variable_stops_serve_the_same_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CARDAVIA_PORT", "abc")
    assert cli.main(["serve"]) == 2
    assert capsys.readouterr().err == (
        "cardavia serve: CARDAVIA_PORT: must be an integer from 0 to 65535, not 'abc'\n"
    )


def test_a_port_in_use_is_one_line_and_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "configure_logging", lambda level: None)
    monkeypatch.setenv("CARDAVIA_BOT_WORKERS", "0")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = cli.main(["serve", "--port", str(port), "--records-dir", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert err == f"cardavia serve: cannot listen on 127.0.0.1:{port}: address already in use\n"
