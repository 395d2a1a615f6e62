"""Messages that frame a game's or a deck's name read well with every name they can hold.

``table.opening`` says which game and pack a table plays ("{game}, talia {deck}"), and a handful of
other messages put a game's name in a sentence. A frame that repeats a word the name already starts
with reads as a stutter once filled: Polish "talia {deck}" gave "talia Talia francuska z jokerami".
Every such message is rendered here in every language, with every game and every pack of that game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

import pytest

from cardavia.games.registry import GAMES
from cardavia.games.rules import LANGUAGES
from cardavia.games.traditions import game_name, traditions_for_game
from cardavia.protocol.i18n import Arg, Texts, own_messages, parse, placeholders

NAMES = ("game", "deck")
"""The placeholders that hold a game's or a pack's name."""


def framing_keys(lang: str) -> list[str]:
    """The keys of ``lang``'s messages (English where it has none) that hold a game or deck name."""
    messages = {**own_messages("en"), **own_messages(lang)}
    return sorted(key for key, text in messages.items() if set(NAMES) & set(placeholders(parse(text, key))))


def renderings(lang: str, key: str) -> Iterator[str]:
    """``key`` filled with every game and every pack of that game (other placeholders neutral)."""
    texts = Texts(lang)
    kinds = placeholders(parse({**own_messages("en"), **own_messages(lang)}[key], key))
    others: dict[str, Arg] = {
        name: 3 if kind == "plural" else "other" if kind == "select" else f"{name.upper()}7"
        for name, kind in kinds.items()
        if name not in NAMES
    }
    for game in sorted(GAMES):
        for pack in traditions_for_game(game):
            yield texts(key, **others, game=game_name(game, lang), deck=pack.display_name(lang))


def doubled_words(text: str) -> list[str]:
    words = re.findall(r"\w+", text.casefold())
    return [a for a, b in pairwise(words) if a == b and not a.isdigit()]


def test_a_doubled_word_is_found_whatever_its_case() -> None:
    assert doubled_words("Dou Dizhu, talia Talia francuska z jokerami: stół KX4P") == ["talia"]
    assert doubled_words("Scopa, mazzo Napoletane: tavolo KX4P") == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_table_opening_frames_every_game_and_pack(lang: str) -> None:
    assert "table.opening" in framing_keys(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_frame_doubles_a_word_of_the_name_it_holds(lang: str) -> None:
    stutters = sorted(
        {
            f"{key}: {text!r}"
            for key in framing_keys(lang)
            for text in renderings(lang, key)
            if doubled_words(text)
        }
    )
    assert not stutters, f"{lang}: a word is doubled once the name is filled in:\n" + "\n".join(stutters)
