"""Every word a person reads, in six languages: the message catalogues all clients share.

Theory of operation
-------------------
The catalogues are data files shipped with the package, one per area of the
interface and language: ``protocol/catalogues/<area>.<lang>.json``, each a
flat map from a key to an ICU MessageFormat string (``"{count, plural, one {#
point} other {# points}}"``). A message's full key is ``<area>.<key>``. English
is complete and is the fallback: a key missing from another language reads in
English, never as the raw key. ``tests/protocol/test_catalogues.py`` holds the
catalogues to that (no missing key, no dead key, the same placeholders in every
language, no English sentence left untranslated).

ICU MessageFormat is the format the browser formats natively with
``intl-messageformat``; here ``pyicumessageformat`` parses a message and Babel
supplies CLDR's plural rules (Polish has ``one``/``few``/``many``: 1 punkt,
2 punkty, 5 punktów) and number formatting, so no plural rule is written by
hand. Formatting only walks the parsed tree: plain text, ``{name}``,
``{n, plural, ...}`` with ``#`` and ``=N`` cases, and ``{x, select, ...}``.

The server serves a language's catalogue, English filled in where it has a gap,
as ``GET /i18n/<lang>.json`` (:func:`served_catalogue`): the page and the
terminal client read the very same strings. Adding a seventh language is adding
its ``<area>.<lang>.json`` files, its rules texts and its name in
``games.rules.LANGUAGES``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.resources import files
from typing import Any, Final

from babel import Locale
from babel.numbers import format_decimal
from pyicumessageformat import Parser  # type: ignore[import-untyped]

from cardavia.games.registry import GAMES
from cardavia.games.traditions import (
    LANGUAGES,
    TRADITIONS,
    deck_names,
    game_name,
    language_data,
    normalize_language,
    rank_name,
)
from cardavia.protocol.text import TextRefused

FALLBACK: Final = "en"
_DATA = files("cardavia.protocol") / "catalogues"
_PARSER = Parser({"allow_tags": False, "require_other": True})

Arg = str | int
"""A placeholder's value: a name or other text, or a whole number."""


class MessageError(ValueError):
    """A catalogue message that does not parse, or a placeholder its caller did not give."""


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The system locale's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if Cardavia speaks it.

    Follows POSIX precedence: the first of those set to a non-empty value wins;
    ``C``/``POSIX`` and languages Cardavia does not speak give English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return normalize_language(value)
    return FALLBACK


def areas() -> list[str]:
    """The catalogue's areas (``lobby``, ``table``…), from the English files."""
    suffix = f".{FALLBACK}.json"
    return sorted(p.name[: -len(suffix)] for p in _DATA.iterdir() if p.name.endswith(suffix))


@cache
def _area_file(area: str, lang: str) -> Mapping[str, Any]:
    """One catalogue file as written (empty where the language has none)."""
    path = _DATA / f"{area}.{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@cache
def own_messages(lang: str) -> Mapping[str, str]:
    """The messages written in ``lang`` itself, by full key (no fallback): what the tests check."""
    return {
        f"{area}.{key}": text
        for area in areas()
        for key, text in _area_file(area, lang).items()
        if not key.startswith("_")  # "_about", "_same_as_english": notes, not messages
    }


def same_as_english(lang: str) -> set[str]:
    """Keys whose text a language writes exactly as English does, on purpose (names, "OK")."""
    return {f"{area}.{key}" for area in areas() for key in _area_file(area, lang).get("_same_as_english", [])}


LETTERED: Final = ("A", "J", "Q", "K")
"""The ranks a pack marks with a letter (the ace and the courts), which the page's legend names."""


def served_catalogue(lang: str) -> dict[str, Any]:
    """``GET /i18n/<lang>.json``: every key, in ``lang`` where it has the text, else in English;
    with the names of the games, the deck traditions and every card of each, as the terminal
    client names them (ranks in the player's own words), so a page needs no other source."""
    lang = normalize_language(lang)
    messages = dict(own_messages(FALLBACK))
    messages.update(own_messages(lang))
    return {
        "lang": lang,
        "fallback": FALLBACK,
        "languages": list(LANGUAGES),
        "language_names": {code: language_data(code)["language_name"] for code in LANGUAGES},
        "messages": messages,
        "games": {game: game_name(game, lang) for game in GAMES},
        "decks": {
            tradition.id: {
                "name": tradition.display_name(lang),
                "place": tradition.place(lang),
                "description": tradition.display_description(lang),
                "suit_system": tradition.suit_system,
                "rank_scheme": tradition.rank_scheme,
                "cards": deck_names(tradition.id, lang, regional=False),
                # what the page's legend of the card letters reads: the pack's own names of its
                # ace and courts, the language's words for them, and the language's corner letters
                "ranks": {r: rank_name(r, tradition.id, lang) for r in LETTERED},
                "rank_words": {r: rank_name(r, tradition.id, lang, regional=False) for r in LETTERED},
                "indices": dict(language_data(lang).get("rank_indices", {}).get(tradition.rank_scheme, {})),
            }
            for tradition in TRADITIONS.values()
        },
    }


@cache
def _parsed(lang: str, key: str) -> list[Any]:
    text = own_messages(lang).get(key)
    if text is None:
        text = own_messages(FALLBACK).get(key)
        lang = FALLBACK
    if text is None:
        raise KeyError(key)
    return parse(text, f"{lang}:{key}")


def parse(text: str, where: str = "message") -> list[Any]:
    """The ICU message's tree, or :class:`MessageError` saying where it is broken."""
    try:
        return list(_PARSER.parse(text))
    except (SyntaxError, TypeError) as exc:
        raise MessageError(f"{where}: {exc}") from None


def placeholders(tree: list[Any]) -> dict[str, str]:
    """Every placeholder a message's tree names, with its kind (``text``, ``plural``, ``select``)."""
    found: dict[str, str] = {}
    for node in _walk(tree):
        kind = node.get("type", "text")
        if kind == "number" and node.get("hash"):
            continue
        found.setdefault(node["name"], kind)
    return found


def plural_cases(tree: list[Any]) -> Iterator[set[str]]:
    """The case names of each plural in the tree (``one``, ``few``, ``=0``…)."""
    for node in _walk(tree):
        if node.get("type") == "plural":
            yield set(node["options"])


def _walk(tree: list[Any]) -> Iterator[dict[str, Any]]:
    for node in tree:
        if isinstance(node, dict):
            yield node
            for branch in (node.get("options") or {}).values():
                yield from _walk(branch)


class Texts:
    """The interface's words in one language: ``texts("table.your_turn")``, ``texts(key, n=3)``."""

    def __init__(self, lang: str | None = FALLBACK) -> None:
        self.lang = normalize_language(lang)
        self.locale = Locale.parse(self.lang)

    def __call__(self, key: str, /, **args: Arg) -> str:
        try:
            tree = _parsed(self.lang, key)
        except KeyError:
            raise KeyError(f"no message {key!r} in any catalogue") from None
        return self._render(tree, args, key, None)

    def has(self, key: str) -> bool:
        return key in own_messages(self.lang) or key in own_messages(FALLBACK)

    def get(self, key: str, default: str, /, **args: Arg) -> str:
        """``key``'s text if the catalogue has it, else ``default`` (for keys built from server data)."""
        return self(key, **args) if self.has(key) else default

    def error(self, code: str, message: str = "") -> str:
        """What an error code means to a player, in their language; the server's own message for a
        code this client's catalogue does not know (a newer server), else a general sentence."""
        if self.has(f"errors.{code}"):
            return self(f"errors.{code}")
        return message or self("errors.unknown")

    def refusal(self, refused: TextRefused) -> str:
        """Why a name or chat line was refused, in the player's language (the rule's own words
        for a rule this catalogue does not know)."""
        shown = ("character", "sort", "position", "length", "max_length", "marks", "max_marks")
        args = {k: v for k, v in refused.context.items() if k in shown}
        return self.get(f"text.{refused.kind}", refused.reason, **args)

    def number(self, value: int | float) -> str:
        return str(format_decimal(value, locale=self.locale))

    def _render(self, tree: list[Any], args: Mapping[str, Arg], key: str, hash_value: Arg | None) -> str:
        parts: list[str] = []
        for node in tree:
            if isinstance(node, str):
                parts.append(node)
                continue
            name, kind = node["name"], node.get("type")
            if kind == "number" and node.get("hash"):
                parts.append(self._shown(hash_value))
                continue
            if name not in args:
                raise MessageError(f"{self.lang}:{key} needs {{{name}}}")
            value = args[name]
            if kind == "plural":
                parts.append(self._render(self._plural_branch(node, value, key), args, key, value))
            elif kind == "select":
                options = node["options"]
                branch = options.get(str(value), options["other"])
                parts.append(self._render(branch, args, key, hash_value))
            else:
                parts.append(self._shown(value))
        return "".join(parts)

    def _plural_branch(self, node: Mapping[str, Any], value: Arg, key: str) -> list[Any]:
        if not isinstance(value, int):
            raise MessageError(f"{self.lang}:{key}: {{{node['name']}}} counts, so it takes a number")
        options = node["options"]
        exact = options.get(f"={value}")
        if exact is not None:
            return list(exact)
        category = self.locale.plural_form(value - int(node.get("offset") or 0))
        return list(options.get(category, options["other"]))

    def _shown(self, value: Arg | None) -> str:
        if isinstance(value, bool) or value is None:
            return str(value)
        if isinstance(value, int):
            return self.number(value)
        return value
