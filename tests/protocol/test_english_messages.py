"""English messages filled with every name they can be given read as English: no "a airplane".

A message built around a name (``{combo}``, ``{game}``, ``{deck}``, ``{suit}``) reads well only if
its words suit every value: an article before the placeholder would give "plays a airplane".
Each such message is rendered here with every combination, game, deck and suit name, and with its
counts and choices at every branch.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardavia.games.registry import GAMES
from cardavia.games.traditions import TRADITIONS, game_name, language_data
from cardavia.protocol.i18n import Texts, own_messages, parse, placeholders

ENGLISH = own_messages("en")
TEXTS = Texts("en")
NAMES: dict[str, list[str]] = {
    "combo": [text for key, text in ENGLISH.items() if key.startswith("combo.")],
    "game": [game_name(game, "en") for game in GAMES],
    "deck": [tradition.name for tradition in TRADITIONS.values()],
    "suit": sorted({name for suits in language_data("en")["suits"].values() for name in suits.values()}),
}
"""Every value a name placeholder takes in English."""

SLIPS = [
    (re.compile(r"\ba [aeiou]", re.I), "'a' before a vowel"),
    (re.compile(r"\ban [b-df-hj-np-tv-z]", re.I), "'an' before a consonant"),
    (re.compile(r"\b(\w+) \1\b", re.I), "a word twice"),
]


def branches(tree: list[Any], kinds: dict[str, str]) -> Iterator[dict[str, Any]]:
    """Arguments reaching every branch: each select key, counts 0, 1, 2, 5 and 22."""
    choices: dict[str, list[Any]] = {}
    for name, kind in kinds.items():
        if kind == "plural":
            choices[name] = [0, 1, 2, 5, 22]
        elif kind == "select":
            choices[name] = sorted(_select_keys(tree, name))
        else:
            choices[name] = NAMES.get(name, ["Anna"])
    for values in itertools.product(*choices.values()):
        yield dict(zip(choices, values, strict=True))


def _select_keys(tree: list[Any], name: str) -> set[str]:
    keys: set[str] = set()
    for node in tree:
        if isinstance(node, dict):
            if node.get("name") == name and node.get("type") == "select":
                keys |= set(node["options"])
            for branch in (node.get("options") or {}).values():
                keys |= _select_keys(branch, name)
    return keys


NAMED = sorted(key for key, text in ENGLISH.items() if set(placeholders(parse(text))) & set(NAMES))


@pytest.mark.parametrize("key", NAMED)
def test_a_message_reads_well_with_every_name(key: str) -> None:
    tree = parse(ENGLISH[key], key)
    slips = {
        f"{why}: {text!r}"
        for args in branches(tree, placeholders(tree))
        for text in [TEXTS(key, **args)]
        for pattern, why in SLIPS
        if pattern.search(text)
    }
    assert not slips, f"en:{key} reads badly:\n" + "\n".join(sorted(slips))


def test_the_names_messages_are_checked() -> None:
    assert {"log.doudizhu.play", "webtable.round_play", "table.opening", "log.schnapsen.marriage"} <= set(
        NAMED
    )
    assert "airplane with pairs" in NAMES["combo"]
