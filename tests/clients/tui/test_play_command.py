"""`cardavia play`: its options, its refusals, and the local server it starts when none answers."""

from __future__ import annotations

import pytest

from cardavia.cli import build_parser, main
from cardavia.clients.cli.play import DEFAULT_SERVER, answers, embedded_server, free_port, language
from cardavia.clients.cli.session import Session
from cardavia.protocol import messages as m

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the command prints is in the system locale's language: these tests read English."""
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def test_the_command_is_registered_with_its_options() -> None:
    args = build_parser().parse_args(["play", "--name", "Anna", "--lang", "sv"])
    assert (args.server, args.name, args.lang) == (None, "Anna", "sv")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--lang", "de"])
    assert DEFAULT_SERVER == "ws://127.0.0.1:8765/"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # a language Cardavia does not speak
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "sv_SE.UTF-8", "LC_MESSAGES": "nb_NO.UTF-8"}, "nb"),  # LC_MESSAGES before LANG
        ({"LANG": "it_IT.UTF-8", "LC_MESSAGES": "pl_PL", "LC_ALL": "es_ES.UTF-8"}, "es"),
        ({}, "en"),
    ],
)
def test_the_language_is_the_system_locales_unless_lang_names_one(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], expected: str
) -> None:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(["play", "--name", "Anna"])
    assert args.lang is None
    assert language(args) == expected
    chosen = build_parser().parse_args(["play", "--name", "Anna", "--lang", "it"])
    assert language(chosen) == "it"  # --lang wins over the locale


def test_the_help_says_where_the_default_language_comes_from(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "LC_ALL, LC_MESSAGES or LANG" in help_text
    assert "else en" in help_text


def test_what_the_command_prints_is_in_the_locales_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    silent = f"ws://127.0.0.1:{free_port()}/"
    assert main(["play", "--name", "Anna", "--server", silent]) == 1
    assert f"cardavia play: brak odpowiedzi pod adresem {silent}" in capsys.readouterr().err
    assert main(["play", "--name", "Anna", "--lang", "it", "--server", "http://example.org/"]) == 2
    assert "ws://host:port/, non «http://example.org/»" in capsys.readouterr().err


def test_bad_input_is_refused_before_anything_starts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--name", " "]) == 2
    assert "cardavia play: --name must not be empty" in capsys.readouterr().err
    assert main(["play", "--name", "A" * 33]) == 2
    assert "--name is too long: 33 characters, at most 32" in capsys.readouterr().err
    assert main(["play", "--name", "Anna", "--server", "http://example.org/"]) == 2
    assert "ws://host:port/" in capsys.readouterr().err
    silent = f"ws://127.0.0.1:{free_port()}/"
    assert main(["play", "--name", "Anna", "--server", silent]) == 1  # a server named but not there
    assert f"no server is answering at {silent}" in capsys.readouterr().err


async def test_the_embedded_server_serves_and_stops_with_the_client() -> None:
    with embedded_server() as url:
        assert answers(url)
        async with Session(url, "Anna") as session:
            catalogue = await session.request(m.GetCatalogue(id=session.requests.next_id()))
            assert isinstance(catalogue, m.Catalogue)
            assert {g["id"] for g in catalogue.games} == {"scopa", "briscola", "schnapsen", "doudizhu"}
    assert not answers(url)
