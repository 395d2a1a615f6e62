"""The `expert` bot level on the wire and in words: one list of levels, weakest first, that the
protocol, the bot registry and the page agree on, and a name and a description in every language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from cardavia.bots import registry
from cardavia.bots.strong_bot import StrongBot
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, encode
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import LEVELS, display_name

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "sv", "nb", "es", "pl", "it"]
EXPERT_GAMES = ["schnapsen", "briscola", "doudizhu"]


class StandInExpert(StrongBot):
    """A strong bot under the expert level's name: what a game's expert class registers as."""

    level = "expert"
    description = "Reads the opponent's play."


def test_the_levels_are_one_list_weakest_first_that_the_registry_and_the_wire_share() -> None:
    assert LEVELS == ("random", "basic", "strong", "expert")
    assert get_args(m.BotLevel) == LEVELS
    assert tuple(registry.LEVELS) == LEVELS


def test_the_page_mirrors_the_level_list() -> None:
    source = (ROOT / "clients" / "web" / "src" / "protocol" / "names.js").read_text(encoding="utf-8")
    found = re.search(r"export const LEVELS = .*?\[([^\]]*)\]", source)
    assert found is not None
    assert tuple(re.findall(r'"([a-z]+)"', found.group(1))) == LEVELS


@pytest.mark.parametrize("kind", [m.CreateRoom, m.PlayNow])
def test_a_request_for_expert_bots_passes_the_decoder(kind: type[m.CreateRoom | m.PlayNow]) -> None:
    message = kind(game="briscola", bot_level="expert")
    assert decode_client(encode(message)) == message


@pytest.mark.parametrize(
    ("lang", "seated", "unseated"),
    [
        ("en", "Bot 2 (expert)", "Bot (expert)"),
        ("sv", "Dator 2 (expert)", "Dator (expert)"),
        ("nb", "Bot 2 (ekspert)", "Bot (ekspert)"),
        ("es", "Bot 2 (experto)", "Bot (experto)"),
        ("pl", "Bot 2 (ekspert)", "Bot (ekspert)"),
        ("it", "Bot 2 (esperto)", "Bot (esperto)"),
    ],
)
def test_an_expert_bot_is_named_in_its_readers_language(lang: str, seated: str, unseated: str) -> None:
    texts = Texts(lang)
    assert display_name({"kind": "bot", "bot": "expert"}, texts, 1) == seated
    assert display_name({"bot": True, "level": "expert", "name": "Bot (expert)"}, texts) == unseated


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_describes_the_expert_of_each_game_that_will_have_one(lang: str) -> None:
    texts = Texts(lang)
    english = Texts("en")
    for game in EXPERT_GAMES:
        key = f"bots.about.{game}.expert"
        assert texts.has(key), f"{lang} lacks {key}"
        if lang != "en":
            assert texts(key) != english(key)
        assert texts(key) != texts(f"bots.about.{game}.strong")


def test_a_game_lists_expert_once_it_registers_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.EXPERTS, "briscola", StandInExpert)
    assert registry.levels_for("briscola") == ["random", "basic", "strong", "expert"]
    entry = registry.catalogue("briscola")[-1]
    assert (entry["level"], entry["description"]) == ("expert", StandInExpert.description)
    assert registry.make_bot("briscola", "expert", 1).level == "expert"
