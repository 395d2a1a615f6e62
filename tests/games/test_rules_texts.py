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
            "7 = 21", "6 = 18", "Ace = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12",
            "Jack, Knight and King = 10", "settebello", "at least 11 points", "**Points to win**",
        ],
        "it": [
            "7 = 21", "6 = 18", "A = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "F, C e R = 10",
            "settebello", "almeno 11 punti", "**Punti per vincere**", "F (fante), C (cavallo) e R (re)",
        ],
        "sv": [
            "7 = 21", "6 = 18", "ess = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12",
            "knekt, riddare och kung = 10", "settebello", "minst 11 poäng", "**Poäng för vinst**",
            "A för asso (ess), F för fante (knekt), C för cavallo (riddare) och R för re (kung)",
        ],
        "nb": [
            "7 = 21", "6 = 18", "ess = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12",
            "knekt, ridder og konge = 10", "settebello", "minst 11 poeng", "**Poeng til seier**",
        ],
        "es": [
            "7 = 21", "6 = 18", "as = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12", "sota, caballo y rey = 10",
            "*settebello*", "*primiera*", "al menos 11 puntos", "**Puntos para ganar**", "escoba",
        ],
        "pl": [
            "7 = 21", "6 = 18", "as = 16", "5 = 15", "4 = 14", "3 = 13", "2 = 12",
            "walet, rycerz i król = 10", "settebello", "co najmniej 11 punktów", "**Punkty do wygranej**",
            "walet (fante)",
        ],
    },
    "briscola": {
        "en": [
            "Ace = 11", "3 = 10", "King = 4", "Knight = 3", "Jack = 2", "120", "more than 60",
            "Ace > 3 > King > Knight > Jack > 7 > 6 > 5 > 4 > 2",
        ],
        "it": [
            "A = 11", "3 = 10", "R = 4", "C = 3", "F = 2", "120 punti", "60", "briscola scoperta",
            "A > 3 > R > C > F > 7 > 6 > 5 > 4 > 2", "carichi", "lisci",
        ],
        "sv": [
            "ess = 11", "3 = 10", "kung = 4", "riddare = 3", "knekt = 2", "(7, 6, 5, 4 och 2) = 0",
            "120 poäng", "Har båda 60 blir det oavgjort", "Inget färgtvång",
            "ess > 3 > kung > riddare > knekt > 7 > 6 > 5 > 4 > 2",
        ],
        "nb": [
            "ess = 11", "3 = 10", "konge = 4", "ridder = 3", "knekt = 2", "120 poeng", "mer enn 60",
            "ess > 3 > konge > ridder > knekt > 7 > 6 > 5 > 4 > 2", "Du trenger aldri å bekjenne farge",
        ],
        "es": [
            "brisca", "as = 11", "3 = 10", "rey = 4", "caballo = 3", "sota = 2", "120 tantos", "más de 60",
            "triunfo", "baza", "as > 3 > rey > caballo > sota > 7 > 6 > 5 > 4 > 2",
        ],
        "pl": [
            "as = 11", "3 = 10", "król = 4", "rycerz = 3", "walet = 2", "120 punktów", "więcej niż 60",
            "obaj mają po 60", "as > 3 > król > rycerz > walet > 7 > 6 > 5 > 4 > 2",
        ],
    },
    "schnapsen": {
        "en": [
            "| Ace | 11 |", "| Ten | 10 |", "| King | 4 |", "| Queen | 3 |", "| Jack | 2 |", "120", "**66**",
            "at least **33**", "**20**", "**40** in trumps",
            "first player to win 7 game points wins the match", "**Game points to win**",
        ],
        "it": [
            "| Asso | 11 |", "| Dieci | 10 |", "| Re | 4 |", "| Donna | 3 |", "| Fante | 2 |", "120",
            "**66**", "**33**", "**20**", "**40**", "accusare un matrimonio", "**Punti partita per vincere**",
            "partono da 0 punti partita", "cugino austriaco del Sessantasei",
        ],
        "sv": [
            "| Ess | 11 |", "| Tia | 10 |", "| Kung | 4 |", "| Dam | 3 |", "| Knekt | 2 |", "**66** poäng",
            "minst **33** poäng", "**20** poäng", "**40** i trumf", "**Spelpoäng för vinst**", "mariage",
            "den som först når 7 spelpoäng vinner partiet",
        ],
        "nb": [
            "| Ess | 11 |", "| Tier | 10 |", "| Konge | 4 |", "| Dame | 3 |", "| Knekt | 2 |", "120 poeng",
            "**66**", "minst **33**", "**20** poeng, eller **40** i trumf",
            "første som har vunnet 7 spillpoeng, vinner partiet", "**Spillpoeng til seier**",
        ],
        "es": [
            "| As | A | 11 |", "| Diez | 10 | 10 |", "| Rey | K | 4 |", "| Reina | D | 3 |",
            "| Jota | B | 2 |", "**66** tantos", "al menos **33** tantos",
            "**20**", "**40**", "el primero que llega a 7", "**Puntos de partida para ganar**", "cerrar",
        ],
        "pl": [
            "| as | 11 |", "| dziesiątka | 10 |", "| król | 4 |", "| dama | 3 |", "| walet | 2 |",
            "**66** punktów", "co najmniej **33** punkty", "**20** punktów", "**40** w atutach",
            "**Punkty gry do wygranej**", "120 punktów", "kto pierwszy zdobędzie **7** punktów gry",
        ],
    },
    "doudizhu": {
        "en": [
            "**17**", "**bomb**", "**rocket**", "**spring**", "**doubles**", "**Deals**", "**landlord**",
            "**peasants**",
        ],
        "it": [
            "**17**", "**bomba**", "**razzo**", "**primavera**", "**raddoppia**", "**Smazzate**",
            "**padrone**", "**contadini**", "**carte coperte**",
        ],
        "sv": [
            "Varje spelare får **17** kort", "**3** kort läggs åt sidan", "**Bomb**", "**Raket**",
            "en **vår**", "en **omvänd vår**", "**fördubblas**", "**Antal givar**", "**godsägare**",
            "**bönderna**", "Varje bonde", "E för ess, K för kung, D för dam och Kn för knekt",
        ],
        "nb": [
            "**17**", "**bombe**", "**raketten**", "**vår**", "**dobles**", "**Utdelinger**", "**godseier**",
            "**bøndene**", "**bunnkort**",
        ],
        "es": [
            "**17**", "**3**", "**bomba**", "**cohete**", "**primavera**", "**se dobla**", "**Manos**",
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
"""What every language's text must hold as it is: the numbers. (The pages name the table options by
the labels players see, not by their ids: tests/games/test_rules_options.py.)"""


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
