"""The rules texts players read: one per game in English at least, each stating the decided rules."""

from __future__ import annotations

import pytest

from cardavia.cli import main
from cardavia.games.errors import UnknownGameError
from cardavia.games.registry import GAMES
from cardavia.games.rules import LANGUAGES, languages_of, rules_text

SECTIONS = ["Objective", "Cards and setup", "A turn", "Special moves", "Scoring", "End of the match",
            "Worked example"]  # fmt: skip
"""The English texts' sections, in order: every game's rules are read the same way."""

FACTS: dict[str, dict[str, list[str]]] = {
    "scopa": {
        "en": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "J, Q and K = 10",
            "settebello", "11", "target",
        ],
    },
    "briscola": {
        "en": ["A = 11", "3 = 10", "K = 4", "Q = 3", "J = 2", "120", "60"],
    },
    "schnapsen": {
        "en": ["A = 11", "10 = 10", "K = 4", "Q = 3", "J = 2", "120", "66", "33", "20", "40", "target"],
    },
    "doudizhu": {
        "en": ["17", "bomb", "rocket", "spring", "doubles", "deals", "landlord", "peasant"],
    },
}
"""What each text must say, in its language's words: the spec's numbers and the options' names."""


def test_every_game_has_its_rules_in_english() -> None:
    assert set(FACTS) == set(GAMES)
    for game in GAMES:
        assert languages_of(game)[0] == "en"


@pytest.mark.parametrize(("game", "lang"), [(g, lang) for g in sorted(GAMES) for lang in languages_of(g)])
def test_each_text_states_the_decided_rules(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    assert text.lang == lang
    assert lang in FACTS[game], f"{game}.{lang}.md has no facts to be checked against"
    missing = [fact for fact in FACTS[game][lang] if fact not in text.markdown]
    assert not missing, f"{game}.{lang}.md does not say {missing}"
    if lang == "en":
        assert text.sections() == SECTIONS


def test_a_language_without_a_text_gets_the_english_one() -> None:
    text = rules_text("briscola", "xx")
    assert text.lang == "en"
    assert text.title == "Briscola"
    assert rules_text("scopa", "en-GB").lang == "en"
    with pytest.raises(UnknownGameError):
        rules_text("poker")


def test_the_rules_command_prints_a_game_and_says_when_it_falls_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "schnapsen"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("# Schnapsen")
    assert "66" in out.out
    missing = next((lang for lang in LANGUAGES if lang not in languages_of("scopa")), None)
    if missing is not None:
        assert main(["rules", "scopa", "--lang", missing]) == 0
        assert "English follows" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:
        main(["rules", "poker"])
    assert refused.value.code == 2
