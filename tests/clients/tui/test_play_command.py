"""`cardavia play`: its options, its refusals, and the local server it starts when none answers."""

from __future__ import annotations

import pytest

from cardavia.cli import build_parser, main
from cardavia.clients.cli.play import DEFAULT_SERVER, answers, embedded_server, free_port
from cardavia.clients.cli.session import Session
from cardavia.protocol import messages as m


def test_the_command_is_registered_with_its_options() -> None:
    args = build_parser().parse_args(["play", "--name", "Anna", "--lang", "sv"])
    assert (args.server, args.name, args.lang) == (None, "Anna", "sv")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--lang", "de"])
    assert DEFAULT_SERVER == "ws://127.0.0.1:8765/"


def test_bad_input_is_refused_before_anything_starts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--name", " "]) == 2
    assert "cardavia play: --name must not be empty" in capsys.readouterr().err
    assert main(["play", "--name", "A" * 33]) == 2
    assert "at most 32 are allowed" in capsys.readouterr().err
    assert main(["play", "--name", "Anna", "--server", "http://example.org/"]) == 2
    assert "ws://host:port/" in capsys.readouterr().err
    silent = f"ws://127.0.0.1:{free_port()}/"
    assert main(["play", "--name", "Anna", "--server", silent]) == 1  # a server named but not there
    assert f"nothing answers at {silent}" in capsys.readouterr().err


async def test_the_embedded_server_serves_and_stops_with_the_client() -> None:
    with embedded_server() as url:
        assert answers(url)
        async with Session(url, "Anna") as session:
            catalogue = await session.request(m.GetCatalogue(id=session.requests.next_id()))
            assert isinstance(catalogue, m.Catalogue)
            assert {g["id"] for g in catalogue.games} == {"scopa", "briscola", "schnapsen", "doudizhu"}
    assert not answers(url)
