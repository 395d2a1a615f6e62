"""The rules texts players read: one per game in English at least, each stating the decided rules."""

from __future__ import annotations

import re

import pytest

from cardavia.cli import main
from cardavia.games.errors import UnknownGameError
from cardavia.games.registry import GAMES
from cardavia.games.rules import LANGUAGES, languages_of, rules_text

SECTIONS = ["Objective", "Cards and setup", "A turn", "Special moves", "Scoring", "End of the match",
            "Worked example"]  # fmt: skip
"""The English texts' sections, in order: every game's rules are read the same way."""

# One language's facts a line or two, a table to read across:
# fmt: off
FACTS: dict[str, dict[str, list[str]]] = {
    "scopa": {
        "en": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "J, Q and K = 10",
            "settebello", "11", "target",
        ],
        "it": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "J, Q e K = 10",
            "settebello", "11", "target",
        ],
        "sv": [
            "7 = 21", "6 = 18", "E = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "Kn, R och K = 10",
            "settebello", "minst 11 poäng", "`target`",
        ],
        "nb": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "og J, Q og K = 10",
            "settebello", "11 poeng", "target",
        ],
        "es": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "settebello",
            "11 puntos", "target", "escoba", "primiera",
        ],
        "pl": [
            "7 = 21", "6 = 18", "as = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12",
            "walet, rycerz i król = 10", "settebello", "co najmniej 11 punktów", "**Punkty do wygranej**",
            "walet (fante)",
        ],
    },
    "briscola": {
        "en": [
            "A = 11", "3 = 10", "K = 4", "Q = 3", "J = 2", "120", "60",
        ],
        "it": [
            "A = 11", "3 = 10", "K = 4", "Q = 3", "J = 2", "120", "60", "briscola",
        ],
        "sv": [
            "E = 11", "3 = 10", "K = 4", "R = 3", "Kn = 2", "(7, 6, 5, 4 och 2) = 0", "120 poäng",
            "Har båda spelarna 60 blir det oavgjort", "E > 3 > K > R > Kn > 7 > 6 > 5 > 4 > 2",
        ],
        "nb": [
            "A = 11", "3 = 10", "K = 4", "Q = 3", "J = 2", "120 poeng", "60",
            "A > 3 > K > Q > J > 7 > 6 > 5 > 4 > 2",
        ],
        "es": [
            "Brisca", "A = 11", "3 = 10", "R = 4", "C = 3", "S = 2", "120 puntos", "más de 60", "triunfo",
            "baza",
        ],
        "pl": [
            "as = 11", "3 = 10", "król = 4", "rycerz = 3", "walet = 2", "120 punktów", "więcej niż 60",
            "obaj mają po 60", "as > 3 > król > rycerz > walet > 7 > 6 > 5 > 4 > 2",
        ],
    },
    "schnapsen": {
        "en": [
            "A = 11", "10 = 10", "K = 4", "Q = 3", "J = 2", "120", "66", "33", "20", "40", "target",
        ],
        "it": [
            "A = 11", "10 = 10", "K = 4", "Q = 3", "J = 2", "120", "66", "33", "20", "40", "target",
            "matrimonio",
        ],
        "sv": [
            "E = 11", "10 = 10", "K = 4", "D = 3", "Kn = 2", "**66** poäng", "minst **33** poäng",
            "**20** poäng", "**40** i trumf", "`target`", "mariage",
        ],
        "nb": [
            "A = 11", "10 = 10", "K = 4", "Q = 3", "J = 2", "120 poeng", "**66**", "**33**",
            "**20** poeng, eller **40** i trumf", "`target`",
        ],
        "es": [
            "A = 11", "10 = 10", "K = 4", "Q = 3", "J = 2", "**66**", "**33**", "**20**", "**40**",
            "`target`", "cerrar",
        ],
        "pl": [
            "| as | 11 |", "| dziesiątka | 10 |", "| król | 4 |", "| dama | 3 |", "| walet | 2 |",
            "**66** punktów", "co najmniej **33** punkty", "**20** punktów", "**40** w atutach",
            "**Punkty gry do wygranej**", "120 punktów", "kto pierwszy zdobędzie **7** punktów gry",
        ],
    },
    "doudizhu": {
        "en": [
            "17", "bomb", "rocket", "spring", "doubles", "deals", "landlord", "peasant",
        ],
        "it": [
            "17", "bomba", "razzo", "primavera", "raddoppia", "deals", "padrone", "contadini",
        ],
        "sv": [
            "Varje spelare får **17** kort", "**3** kort läggs med baksidan upp", "**Bomb**", "**Raket**",
            "**vår**", "**omvänd vår**", "**fördubblas**", "`deals`", "**godsägare**", "**bönderna**",
            "Varje bonde",
        ],
        "nb": [
            "**17**", "bombe", "rakett", "vår", "dobles", "`deals`", "godseier", "bonde",
        ],
        "es": [
            "**17**", "**3**", "**bomba**", "**cohete**", "**primavera**", "**se dobla**", "`deals`",
            "**terrateniente**", "**campesinos**", "+ 2 × puja × multiplicador",  # noqa: RUF001 (the sign the text uses)
        ],
        "pl": [
            "**17** kart", "**3** karty zostają zakryte jako **musik**", "**Bomba**", "**Rakieta**",
            "**wiosnę**", "**podwaja się**", "**Liczba rozdań**", "obszarnik", "chłop", "odwróconą wiosnę",
        ],
    },
}
# fmt: on
"""What each text must say, in its language's words: the spec's numbers and the options' names."""

NUMBERS: dict[str, list[str]] = {
    "scopa": ["21", "18", "16", "15", "14", "13", "12", "11"],
    "briscola": ["11", "10", "4", "3", "2", "120", "60"],
    "schnapsen": ["11", "10", "4", "3", "2", "120", "66", "33", "20", "40"],
    "doudizhu": ["17"],
}
"""What every language's text must hold as it is: numbers, and the options' names as the software
spells them."""


def test_every_game_has_its_rules_in_every_language() -> None:
    assert set(FACTS) == set(GAMES)
    for game in GAMES:
        assert languages_of(game) == list(LANGUAGES)


@pytest.mark.parametrize(("game", "lang"), [(g, lang) for g in sorted(GAMES) for lang in languages_of(g)])
def test_each_text_states_the_decided_rules(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    assert text.lang == lang
    assert lang in FACTS[game], f"{game}.{lang}.md has no facts to be checked against"
    missing = [fact for fact in FACTS[game][lang] + NUMBERS[game] if fact not in text.markdown]
    assert not missing, f"{game}.{lang}.md does not say {missing}"
    if lang == "en":
        assert text.sections() == SECTIONS
    else:  # the same sections in the same order, in its own words
        assert len(text.sections()) == len(SECTIONS)
        assert not set(text.sections()) & set(SECTIONS) - {"Dou Dizhu"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_text_copies_an_english_sentence(game: str) -> None:
    english = rules_text(game).markdown
    # sentences of at least five words (numbers and sums alone are the same in every language)
    sentences = {
        s.strip() for s in re.split(r"(?<=[.!?:])\s+", english) if len(re.findall(r"[A-Za-z]{2,}", s)) >= 5
    }
    for lang in languages_of(game)[1:]:
        copied = [s for s in sentences if s in rules_text(game, lang).markdown]
        assert not copied, f"{game}.{lang}.md keeps English sentences: {copied[:3]}"


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
    assert main(["rules", "scopa", "--lang", "pl"]) == 0
    assert capsys.readouterr().out.startswith("# Scopa\n\n## Cel gry")
    assert main(["rules", "scopa", "--lang", "de"]) == 0  # not one of Cardavia's languages
    fallback = capsys.readouterr()
    assert "English follows" in fallback.err
    assert "## Objective" in fallback.out
    with pytest.raises(SystemExit) as refused:
        main(["rules", "poker"])
    assert refused.value.code == 2
