"""Cards and decks.

A card is a small immutable value whose text form is its canonical code from
``cards.md`` (``7D``, ``TS``, ``BJ``). Cards are interned: ``Card.parse("7D")``
always returns the same object, so identity, equality and hashing are cheap and
a card pickles back to the same object (bots run in worker processes).
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import ClassVar, Final

from cardavia.games.errors import CardError

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
JOKER_CODES: Final = ("BJ", "RJ")

SUIT_WORDS: Final = {"C": "clubs/batons", "D": "diamonds/coins", "H": "hearts/cups", "S": "spades/swords"}


_MAKING: Final = object()
"""The key that lets ``Card._make`` (and nothing else) build a card."""


class Card:
    """One card. Create with ``Card.parse(code)``; never construct directly.

    Built in ``__new__`` with ``object.__setattr__`` past the ``__setattr__`` that refuses every
    change: the one form that both CPython and mypyc (the compiled build, setup.py) keep, as a
    compiled class refuses ``object.__new__`` anywhere but in its own ``__new__``."""

    __slots__ = ("code", "index", "rank", "suit")
    _by_code: ClassVar[dict[str, Card]] = {}

    code: str
    rank: str
    suit: str
    index: int

    def __new__(cls, code: str = "", index: int = -1, key: object = None) -> Card:
        if key is not _MAKING:
            raise TypeError("use Card.parse(code)")
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "rank", code[0])
        object.__setattr__(card, "suit", code[1])
        object.__setattr__(card, "index", index)
        return card

    @classmethod
    def _make(cls, code: str, index: int) -> Card:
        card = cls(code, index, _MAKING)
        cls._by_code[code] = card
        return card

    @classmethod
    def parse(cls, code: object) -> Card:
        """The card for ``code`` (case-insensitive, ``10`` accepted for ``T``).

        ``code`` is any object, so that a compiled build (setup.py), which checks a ``str``
        argument on the call, still answers a code that is no string with ``CardError``."""
        if not isinstance(code, str):
            raise CardError(f"a card code is a string like '7D', not {type(code).__name__}")
        card = cls._by_code.get(code)
        if card is not None:
            return card
        text = code.strip().upper()
        if text.startswith("10") and len(text) == 3:
            text = "T" + text[2:]
        card = cls._by_code.get(text)
        if card is None:
            raise CardError(_explain_bad_code(code))
        return card

    @property
    def is_joker(self) -> bool:
        return self.suit == "J"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _explain_bad_code(code: str) -> str:
    """What is wrong with a code that names no card."""
    text = code.strip().upper()
    if len(text) != 2:
        return f"bad card code {code!r}: a code is a rank and a suit, like '7D', 'TS' or 'BJ'"
    rank, suit = text[0], text[1]
    if rank not in RANKS:
        return f"bad card code {code!r}: rank {rank!r} is not one of {' '.join(RANKS)}"
    return f"bad card code {code!r}: suit {suit!r} is not one of {' '.join(SUITS)}"


COMPILED: Final = not isinstance(_explain_bad_code, types.FunctionType)
"""Whether mypyc compiled this module (the optional build, setup.py): a compiled function is
no Python function."""

if COMPILED:
    # mypyc gives a class that defines ``__lt__`` a comparison slot and, unlike CPython, no hash:
    # the identity hash, as a pure card has (cards are interned).
    Card.__hash__ = object.__hash__  # type: ignore[method-assign]

for _i, (_s, _r) in enumerate((s, r) for s in SUITS for r in RANKS):
    Card._make(_r + _s, _i)
for _j, _code in enumerate(JOKER_CODES):
    Card._make(_code, len(RANKS) * len(SUITS) + _j)

ALL_CARDS: Final = tuple(sorted(Card._by_code.values()))


def parse_cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from a space-separated string or an iterable of codes.

    ``-`` alone stands for no cards, so that an empty hand has a text form.
    """
    if isinstance(codes, str):
        text = codes.strip()
        items: Iterable[str] = [] if text in ("", "-") else text.replace(",", " ").split()
    else:
        items = codes
    return tuple(Card.parse(c) for c in items)


def format_cards(cards: Iterable[Card]) -> str:
    """The space-separated text form; ``-`` for no cards (inverse of parse_cards)."""
    text = " ".join(c.code for c in cards)
    return text or "-"


def codes(cards: Iterable[Card]) -> list[str]:
    """Card codes as a list, the plain-data form used in views and records."""
    return [c.code for c in cards]


def _deck(ranks: str, suits: str = SUITS) -> tuple[Card, ...]:
    return tuple(Card.parse(r + s) for s in suits for r in ranks)


DECK_40: Final = _deck("A234567JQK")
"""Italian and Spanish 40-card packs, and French-suited Italian packs."""

DECK_SCHNAPSEN: Final = _deck("AKQJT")
"""The 20-card Schnapsen pack: A 10 K Q J in four suits."""

DECK_54: Final = (*_deck("A23456789TJQK"), Card.parse("BJ"), Card.parse("RJ"))
"""The French 52 with both jokers, for Dou Dizhu."""

DECKS: Final = {"40": DECK_40, "20": DECK_SCHNAPSEN, "54": DECK_54}
