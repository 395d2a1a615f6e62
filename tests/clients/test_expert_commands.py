"""The commands accept the `expert` level where the game has one (`cardavia bot`, `cardavia swarm`,
`cardavia arena`, its calibration) and name the game's own levels where it has none; the terminal
client offers it as it offers the others. The expert here is a stand-in registered for the test."""

from __future__ import annotations

import dataclasses
import json

import pytest

from cardavia.bots import registry
from cardavia.cli import main
from cardavia.clients.cli.tui.catalogue import Catalogue
from cardavia.protocol import messages as m
from tests.support.experts import QuickExpert, list_quick_expert


@pytest.fixture
def briscola_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    list_quick_expert(monkeypatch)


def test_a_bot_client_of_a_level_its_game_lacks_is_refused_with_the_games_levels(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bot", "--game", "scopa", "--level", "expert"]) == 2
    _, err = capsys.readouterr()
    assert f"scopa has {', '.join(registry.levels_for('scopa'))} bots, not expert" in err


def test_the_swarm_takes_every_level_the_protocol_has(capsys: pytest.CaptureFixture[str]) -> None:
    # a bad --duration stops the command after its arguments are read, before it connects
    assert main(["swarm", "--bot-level", "expert", "--duration", "0"]) == 2
    assert main(["bot", "--game", "briscola", "--level", "expert", "--count", "0"]) == 2
    _, err = capsys.readouterr()
    assert "invalid choice" not in err


def test_the_arena_names_the_games_levels_when_it_lacks_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--game", "scopa", "--bots", "expert,basic"]) == 2
    _, err = capsys.readouterr()
    assert f"scopa has {', '.join(registry.levels_for('scopa'))} bots, not expert" in err


@pytest.mark.usefixtures("briscola_expert")
def test_the_arena_plays_a_games_expert(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "--game", "briscola", "--bots", "expert,random", "--games", "2", "--jobs", "1"]) == 0
    )
    out, _ = capsys.readouterr()
    assert "expert vs random" in out
    assert "time per decision, expert" in out


@pytest.mark.usefixtures("briscola_expert")
def test_calibration_rates_every_level_the_game_lists_expert_included(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    strong = registry.LEVELS["strong"]  # left out here only to keep the round robin quick
    monkeypatch.setitem(registry.LEVELS, "strong", dataclasses.replace(strong, games=lambda: []))
    assert main(["arena", "--game", "briscola", "--calibrate", "--games", "2", "--seed", "e"]) == 0
    out, _ = capsys.readouterr()
    fitted = json.loads(out.strip().splitlines()[-1])
    assert list(fitted["briscola"]) == ["random", "basic", "expert"]
    assert fitted["briscola"]["basic"] == 1500


@pytest.mark.usefixtures("briscola_expert")
def test_the_terminal_client_offers_expert_where_the_server_lists_it() -> None:
    message = m.Catalogue(games=[], decks=[], bots=registry.catalogue())
    catalogue = Catalogue(message)
    assert catalogue.levels_for("briscola") == ["basic", "random", "strong", "expert"]
    assert "expert" not in catalogue.levels_for("scopa")
    assert catalogue.bot_description("briscola", "expert") == QuickExpert.description
