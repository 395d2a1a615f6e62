"""What a rules page must say about the table and the cards as players see them, in every language.

A page names each table option by the label the create form shows (options.<lang>.json), in bold,
never by the id the server knows it by; and its "Cards and setup" section (the second) explains the
letters the table draws on that game's court cards: each pack's own (clients/web/src/cards/cards.js
``RANK_SCHEMES``, and the Spanish pack's initials in ``COURT_INITIALS``), or for the international pack
the language's own (``rank_indices`` in games/data/i18n/<lang>.json, e.g. Swedish E, Kn, D, K).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from cardavia.games.registry import GAMES
from cardavia.games.rules import LANGUAGES, rules_text
from cardavia.games.traditions import language_data, traditions_for_game
from cardavia.protocol.i18n import Texts

ROOT = Path(__file__).resolve().parents[2]
CARDS_JS = ROOT / "clients" / "web" / "src" / "cards" / "cards.js"
CASES = [(game, lang) for game in sorted(GAMES) for lang in LANGUAGES]


@cache
def drawn_letters() -> dict[str, dict[str, dict[str, str]]]:
    """cards.js's tables by name: ``{"RANK_SCHEMES": {"italian": {"J": "F", ...}, ...}, ...}``."""
    source = CARDS_JS.read_text(encoding="utf-8")
    tables: dict[str, dict[str, dict[str, str]]] = {}
    for name in ("RANK_SCHEMES", "COURT_INITIALS"):
        body = re.search(rf"{name}\b[^=]*=[^{{]*\{{(.*?)\n\}}", source, re.S)
        assert body, f"cards.js has no {name}"
        tables[name] = {
            scheme: dict(re.findall(r"(\w+): '([^']*)'", row))
            for scheme, row in re.findall(r"^\s*(\w+): \{([^}]*)\}", body.group(1), re.M)
        }
    return tables


def court_letters(game: str, lang: str) -> dict[str, set[str]]:
    """The letters the table draws on ``game``'s Aces and court cards, by pack (tradition id)."""
    schemes = drawn_letters()["RANK_SCHEMES"]
    initials = drawn_letters()["COURT_INITIALS"]
    own = language_data(lang).get("rank_indices", {})
    letters: dict[str, set[str]] = {}
    for tradition in traditions_for_game(game):
        scheme = tradition.rank_scheme
        drawn = {**schemes[scheme], **own.get(scheme, {})}
        courts = {drawn[rank] for rank in "JQK"} | set(initials.get(scheme, {}).values())
        ace = {drawn["A"]} - {"1"}  # the Spanish Ace's 1 needs no explaining
        letters[tradition.id] = courts | ace
    return letters


def section(markdown: str, number: int) -> str:
    """The text of the ``number``-th level-2 section (0 is the first)."""
    parts = re.split(r"^## .*$", markdown, flags=re.M)
    return parts[number + 1]


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_a_page_names_each_option_by_its_label(game: str, lang: str) -> None:
    page = rules_text(game, lang)
    if page.lang != lang:
        pytest.skip(f"no {lang} rules for {game}")
    texts = Texts(lang)
    for option in GAMES[game].default_options:
        label = texts(f"options.{game}.{option}")
        assert f"**{label}**" in page.markdown, f"{game}.{lang}.md does not name the option **{label}**"
        for quoted in (
            f"`{option}`",
            f'"{option}"',
            f"“{option}”",
            f"«{option}»",
            f"”{option}”",
            f"„{option}“",
        ):
            assert quoted not in page.markdown, f"{game}.{lang}.md names an option by its id {quoted}"


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_cards_and_setup_explains_the_letters_on_the_cards(game: str, lang: str) -> None:
    page = rules_text(game, lang)
    if page.lang != lang:
        pytest.skip(f"no {lang} rules for {game}")
    setup = section(page.markdown, 1)
    unexplained = {
        pack: sorted(x for x in letters if not re.search(rf"(?<!\w){re.escape(x)}(?!\w)", setup))
        for pack, letters in court_letters(game, lang).items()
    }
    unexplained = {pack: letters for pack, letters in unexplained.items() if letters}
    assert not unexplained, f"{game}.{lang}.md's second section does not explain these letters: {unexplained}"


def test_the_letters_are_read_from_the_cards_as_drawn() -> None:
    assert court_letters("scopa", "en")["bolognese"] == {"A", "F", "C", "R"}
    assert court_letters("scopa", "en")["spanish"] == {"10", "11", "12", "S", "C", "R"}
    assert court_letters("schnapsen", "en") == {
        "schnapsen": {"A", "B", "D", "K"},
        "doubledeutsch": {"A", "U", "O", "K"},
    }
    assert court_letters("doudizhu", "sv")["french54"] == {"E", "Kn", "D", "K"}
