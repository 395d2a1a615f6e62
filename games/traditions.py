"""Deck traditions and localized card names (cards.md), loaded from data files.

``data/traditions.json`` holds every tradition (regional pack) with its English
texts; ``data/i18n/<lang>.json`` holds, per language, the suit names of each
suit system, the rank names of each rank scheme (``ranks``: the pack's own
regional court names, "Cavallo", "Ober"; ``rank_words``: the language's own
words for them, "Riddare", "Wyżnik"), the corner indices of French-suited
cards (``rank_indices``), the card-name format, game names, and translated
tradition names, descriptions and place names.

Names never raise for a language: an unknown language, or a key a language
file lacks, falls back to English. They do raise for a tradition that does not
exist (``UnknownTraditionError``) and for a card the tradition's pack does not
contain (``CardError``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from types import MappingProxyType
from typing import Any, Final

from cardavia.games.cards import DECKS, JOKER_CODES, RANKS, Card
from cardavia.games.errors import CardError, UnknownGameError, UnknownTraditionError

LANGUAGES: tuple[str, ...] = ("en", "it", "sv", "nb", "es", "pl")
DEFAULT_LANGUAGE: Final = "en"
SUIT_SYSTEMS: tuple[str, ...] = ("italian", "spanish", "french", "german")
_LANGUAGE_ALIASES: Final = {"no": "nb", "nn": "nb", "se": "sv"}
_DATA = files("cardavia.games") / "data"


def _read(path: str) -> dict[str, Any]:
    data = json.loads((_DATA / path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return data


def normalize_language(lang: str | None) -> str:
    """A supported language code for a tag or a POSIX locale ("sv-SE", "nb_NO.UTF-8",
    "pl_PL@euro" -> "sv", "nb", "pl"); English if unknown or empty."""
    code = str(lang or "").strip().lower().split(".")[0].split("@")[0].replace("_", "-").split("-")[0]
    code = _LANGUAGE_ALIASES.get(code, code)
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


@dataclass(frozen=True)
class Tradition:
    """One regional pack. Text fields are English; see the ``display_*`` methods."""

    id: str
    name: str
    city: str
    region: str
    country: str
    cards: int
    suit_system: str
    description: str
    link: str
    games: tuple[str, ...]
    rank_scheme: str

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards of this pack, in the canonical order of ``cards.DECKS``."""
        return DECKS[str(self.cards)]

    def contains(self, card: Card) -> bool:
        return card in _deck_set(self.cards)

    def display_name(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return _tradition_text(self, "name", lang)

    def display_description(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return _tradition_text(self, "description", lang)

    def place(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The non-empty place parts, localized: "Bologna · Emilia-Romagna · Italien"."""
        parts = (self.city, self.region, self.country)
        return " · ".join(_place(p, lang) for p in parts if p)


def _as_tradition(raw: Mapping[str, Any]) -> Tradition:
    strings = ("id", "name", "city", "region", "country", "suit_system", "description", "link")
    for key in (*strings, "rank_scheme"):
        if not isinstance(raw.get(key), str):
            raise ValueError(f"traditions.json: {raw.get('id')!r} needs a string {key!r}")
    cards, games = raw.get("cards"), raw.get("games")
    if not isinstance(cards, int) or str(cards) not in DECKS:
        raise ValueError(f"traditions.json: {raw['id']!r} has no known card count ({cards!r})")
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise ValueError(f"traditions.json: {raw['id']!r} needs a list of game ids")
    if raw["suit_system"] not in SUIT_SYSTEMS:
        raise ValueError(f"traditions.json: {raw['id']!r} has suit system {raw['suit_system']!r}")
    return Tradition(
        **{key: raw[key] for key in strings},
        cards=cards,
        games=tuple(games),
        rank_scheme=raw["rank_scheme"],
    )


_CATALOGUE: Final = _read("traditions.json")
TRADITIONS: Mapping[str, Tradition] = MappingProxyType(
    {t.id: t for t in (_as_tradition(raw) for raw in _CATALOGUE["traditions"])}
)
_DEFAULTS: Final[Mapping[str, str]] = MappingProxyType(dict(_CATALOGUE["defaults"]))
GAME_IDS: tuple[str, ...] = tuple(dict.fromkeys(g for t in TRADITIONS.values() for g in t.games))
for _game, _default in _DEFAULTS.items():
    if _default not in TRADITIONS or _game not in TRADITIONS[_default].games:
        raise ValueError(f"traditions.json: bad default {_default!r} for {_game!r}")


@cache
def _deck_set(cards: int) -> frozenset[Card]:
    return frozenset(DECKS[str(cards)])


def language_data(lang: str) -> Mapping[str, Any]:
    """The raw i18n file of a supported language (``lang`` is normalized first)."""
    return _language_file(normalize_language(lang))


@cache
def _language_file(code: str) -> Mapping[str, Any]:  # only ever called with LANGUAGES
    return MappingProxyType(_read(f"i18n/{code}.json"))


def _lookup(lang: str, *keys: str) -> str | None:
    """The string at ``keys`` in the language file, else in English, else None."""
    for code in dict.fromkeys((normalize_language(lang), DEFAULT_LANGUAGE)):
        node: Any = language_data(code)
        for key in keys:
            node = node.get(key) if isinstance(node, Mapping) else None
        if isinstance(node, str):
            return node
    return None


def _tradition_text(tradition: Tradition, field: str, lang: str) -> str:
    text = _lookup(lang, "traditions", tradition.id, field)
    return text if text is not None else str(getattr(tradition, field))


def _place(name: str, lang: str) -> str:
    return _lookup(lang, "places", name) or name


def get_tradition(tradition_id: str) -> Tradition:
    """The tradition with this id; ``UnknownTraditionError`` lists the ids there are."""
    try:
        return TRADITIONS[tradition_id]
    except (KeyError, TypeError):
        raise UnknownTraditionError(
            f"unknown deck tradition {tradition_id!r} (traditions: {', '.join(TRADITIONS)})"
        ) from None


def _check_game(game_id: str) -> str:
    if game_id not in GAME_IDS:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(GAME_IDS)})")
    return game_id


def traditions_for_game(game_id: str) -> list[Tradition]:
    """Every tradition that can be used for the game, in catalogue order."""
    _check_game(game_id)
    return [t for t in TRADITIONS.values() if game_id in t.games]


def default_tradition(game_id: str) -> Tradition:
    """The pack a table of this game uses when none is chosen."""
    return TRADITIONS[_DEFAULTS[_check_game(game_id)]]


def game_name(game_id: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return _lookup(lang, "games", _check_game(game_id)) or game_id


def _ranks_of(tradition: Tradition) -> str:
    present = {c.rank for c in tradition.deck}
    ranks = [r for r in RANKS if r in present]
    ranks += [code for code in JOKER_CODES if code[0] in present]
    return " ".join("10" if r == "T" else r for r in ranks)


def _not_in_pack(what: str, tradition: Tradition) -> CardError:
    return CardError(
        f"{what} is not in the {tradition.name} pack ({tradition.id}, {tradition.cards} cards:"
        f" {_ranks_of(tradition)})"
    )


def suit_name(suit: str, tradition: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of a suit letter (C D H S, or J for jokers) in this pack and language."""
    pack = get_tradition(tradition)
    if not isinstance(suit, str) or suit.upper() not in {c.suit for c in pack.deck}:
        raise _not_in_pack(f"suit {suit!r}", pack)
    name = _lookup(lang, "suits", pack.suit_system, suit.upper())
    if name is None:
        raise CardError(f"no name for suit {suit!r} of the {pack.suit_system} suit system")
    return name


def rank_name(rank: str, tradition: str, lang: str = DEFAULT_LANGUAGE, *, regional: bool = True) -> str:
    """The name of a rank letter (A 2-9 T J Q K, or B / R for the jokers) in this pack.

    ``regional`` keeps the pack's own court names in every language (a Swedish page says
    "Cavallo" for a Bolognese card); otherwise the ranks are named in the language's words
    ("Riddare"), so a reader who knows no Italian or German still reads every card.
    """
    pack = get_tradition(tradition)
    key = "T" if rank == "10" else rank.upper() if isinstance(rank, str) else ""
    if key not in {c.rank for c in pack.deck}:
        raise _not_in_pack(f"rank {rank!r}", pack)
    own = None if regional else _own_word(lang, pack.rank_scheme, key)
    name = own or _lookup(lang, "ranks", pack.rank_scheme, key)
    if name is None:
        raise CardError(f"no name for rank {rank!r} of the {pack.rank_scheme} rank names")
    return name


def _own_word(lang: str, scheme: str, rank: str) -> str | None:
    """The language's own word for a rank of the scheme (never the English one for another language)."""
    node = language_data(lang).get("rank_words")
    words = node.get(scheme) if isinstance(node, Mapping) else None
    word = words.get(rank) if isinstance(words, Mapping) else None
    return word if isinstance(word, str) else None


def card_name(card: Card, tradition: str, lang: str = DEFAULT_LANGUAGE, *, regional: bool = True) -> str:
    """The card as players of this pack call it in ``lang``, e.g. "Mynt · 7" (``regional``: see
    ``rank_name``)."""
    pack = get_tradition(tradition)
    if not pack.contains(card):
        raise _not_in_pack(f"card {card.code}", pack)
    rank = rank_name(card.rank, tradition, lang, regional=regional)
    if card.is_joker:
        return (_lookup(lang, "joker_format") or "{rank}").format(rank=rank)
    suit = suit_name(card.suit, tradition, lang)
    return (_lookup(lang, "card_format") or "{suit} · {rank}").format(suit=suit, rank=rank)


def deck_names(tradition: str, lang: str = DEFAULT_LANGUAGE, *, regional: bool = True) -> dict[str, str]:
    """Card code -> localized name for every card of the pack (``regional``: see ``rank_name``)."""
    return {c.code: card_name(c, tradition, lang, regional=regional) for c in get_tradition(tradition).deck}


def catalogue(lang: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """Every tradition as plain data (str/int/list/dict), localized, for clients."""
    code = normalize_language(lang)
    out: list[dict[str, Any]] = []
    for t in TRADITIONS.values():
        suits = sorted({c.suit for c in t.deck}, key="DHSCJ".index)
        ranks = [r for r in (*RANKS, "B", "R") if r in {c.rank for c in t.deck}]
        out.append(
            {
                "id": t.id,
                "name": t.display_name(code),
                "city": _place(t.city, code) if t.city else "",
                "region": _place(t.region, code) if t.region else "",
                "country": _place(t.country, code),
                "place": t.place(code),
                "cards": t.cards,
                "suit_system": t.suit_system,
                "description": t.display_description(code),
                "link": t.link,
                "games": [{"id": g, "name": game_name(g, code)} for g in t.games],
                "default_for": [g for g, d in _DEFAULTS.items() if d == t.id],
                "suits": {s: suit_name(s, t.id, code) for s in suits},
                "ranks": {r: rank_name(r, t.id, code) for r in ranks},
                "language": code,
            }
        )
    return out
