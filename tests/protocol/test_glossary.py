"""The glossaries: one term per concept in each language, and no text using a variant they rule out.

Each language's ``docs/glossary/<lang>.json`` (format: its ``about`` and the English file) lists
concepts, each with its term and the variants (``avoid`` regular expressions) its texts must not use
outside the locations its ``except`` names with a reason. The texts read are every rules page
(``rules/<game>.<lang>.md``, line by line), every catalogue message (``catalogue:<area>.<key>``, the
words of its ICU branches, not its placeholders) and the card and deck names
(``cards:<json path>`` in games/data/i18n/<lang>.json).

Every test but two takes the language as its parameter: ``pytest tests/protocol/test_glossary.py
-k "[sv]"`` checks Swedish alone (``-k sv`` does too; ``-k es`` and ``-k it`` need the brackets, as
"es" is in every test's name). ``test_all_six_languages_have_a_glossary`` asks for the six files and
``test_the_side_by_side_table_is_current`` for docs/glossary.md as ``scripts/glossary`` writes it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from cardavia.games.registry import GAMES
from cardavia.protocol.i18n import own_messages, parse

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "docs" / "glossary"
RULES = ROOT / "games" / "data" / "rules"
CARDS = ROOT / "games" / "data" / "i18n"
LANGUAGES = ["en", "sv", "nb", "it", "es", "pl"]

REQUIRED = [
    "room", "table", "lobby", "player", "bot", "seat", "spectator", "profile", "rating", "leaderboard",
    "history", "replay", "rematch",
    "match", "deal", "round", "trick", "hand", "lead", "follow_suit", "trump", "face_up_trump", "stock",
    "close", "trump_exchange", "marriage", "card_points", "game_points", "capture", "sweep", "settebello",
    "primiera", "kitty", "bid", "pass", "landlord", "peasant", "go_out", "combination",
    *(f"combo.{name}" for name in ["single", "pair", "triple", "triple1", "triple2", "straight", "pairs",
                                   "airplane", "airplane1", "airplane2", "four2", "four22", "bomb",
                                   "rocket"]),
]  # fmt: skip
"""The concepts every glossary has (more may be added; then every language adds them)."""

CARD_SYSTEMS = {"italian": "DHSC", "spanish": "DHSC", "french": "DHSC", "german": "DHSC"}
"""The suits every glossary names (``suit.<system>.<code>``), as the card names know them."""


def glossary(lang: str) -> dict[str, Any]:
    path = GLOSSARIES / f"{lang}.json"
    if not path.is_file():
        pytest.skip(f"docs/glossary/{lang}.json is not written yet")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def icu_words(tree: list[Any]) -> Iterator[str]:
    """The words of an ICU message: its text and the text of every branch, without placeholders."""
    for node in tree:
        if isinstance(node, str):
            yield node
        else:
            for branch in (node.get("options") or {}).values():
                yield " ".join(icu_words(branch))


def card_texts(data: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, Mapping):
        for key, value in data.items():
            if not str(key).startswith("_"):  # "_about": a note for translators, not a player's text
                yield from card_texts(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from card_texts(value, f"{path}.{i}")


def texts(lang: str) -> Iterator[tuple[str, str]]:
    """(location, text unit) for every player text in ``lang``."""
    for game in sorted(GAMES):
        page = RULES / f"{game}.{lang}.md"
        if page.is_file():
            for line in page.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    yield f"rules/{page.name}", line
    for key, message in sorted(own_messages(lang).items()):
        yield f"catalogue:{key}", " ".join(icu_words(parse(message, key)))
    cards = CARDS / f"{lang}.json"
    if cards.is_file():
        for path, text in card_texts(json.loads(cards.read_text(encoding="utf-8")), ""):
            yield f"cards:{path}", text


def avoid_rules(lang: str) -> Iterator[tuple[str, re.Pattern[str], Mapping[str, str]]]:
    for key, concept in glossary(lang)["concepts"].items():
        for rule in concept.get("avoid", []):
            yield key, re.compile(rule["pattern"], re.IGNORECASE), rule.get("except", {})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_glossary_names_every_concept_once(lang: str) -> None:
    data = glossary(lang)
    assert data["language"] == lang
    concepts = data["concepts"]
    if lang == "en":
        missing = [key for key in REQUIRED if key not in concepts]
        missing += [
            f"suit.{s}.{c}"
            for s, codes in CARD_SYSTEMS.items()
            for c in codes
            if f"suit.{s}.{c}" not in concepts
        ]
        assert not missing, f"the English glossary lacks the concepts {missing}"
    else:
        english = set(glossary("en")["concepts"])
        assert not english - set(concepts), f"{lang} lacks the concepts {sorted(english - set(concepts))}"
        assert not set(concepts) - english, (
            f"{lang} has concepts English does not: {sorted(set(concepts) - english)}"
        )
    empty = [key for key, concept in concepts.items() if not str(concept.get("term", "")).strip()]
    assert not empty, f"{lang}: concepts without a term: {empty}"
    vague = [key for key, concept in concepts.items() if not str(concept.get("means", "")).strip()]
    assert not vague, f"{lang}: concepts without 'means': {vague}"
    for key, concept in concepts.items():
        for rule in concept.get("avoid", []):
            try:
                re.compile(rule["pattern"])
            except re.error as exc:
                pytest.fail(f"{lang}: {key}'s pattern {rule['pattern']!r} does not compile: {exc}")
            assert rule.get("why"), f"{lang}: {key}'s pattern {rule['pattern']!r} says no 'why'"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_uses_a_variant_its_glossary_rules_out(lang: str) -> None:
    rules = list(avoid_rules(lang))
    found = [
        f"{where}: {match.group(0)!r} ({key}: {text.strip()[:90]!r})"
        for where, text in texts(lang)
        for key, pattern, allowed in rules
        if where not in allowed and (match := pattern.search(text))
    ]
    assert not found, f"{lang} texts use variants the glossary rules out:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_exception_is_still_needed(lang: str) -> None:
    units = list(texts(lang))
    locations = {where for where, _ in units}
    stale = [
        f"{key} {pattern.pattern!r} except {where}"
        for key, pattern, allowed in avoid_rules(lang)
        for where in allowed
        if where not in locations or not any(w == where and pattern.search(text) for w, text in units)
    ]
    assert not stale, f"{lang}: exceptions that no longer match anything:\n" + "\n".join(stale)


def test_all_six_languages_have_a_glossary() -> None:
    missing = [lang for lang in LANGUAGES if not (GLOSSARIES / f"{lang}.json").is_file()]
    assert not missing, f"no glossary yet for {missing} (docs/glossary/<lang>.json)"


def test_the_side_by_side_table_is_current() -> None:
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "glossary"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr
