"""Schnapsen rules that need no position: values, moves, following and scoring (games.md §3).

``schnapsen.py`` holds the match state and applies these; they live apart so
the state module stays readable and so tools and bots can ask "what may follow
this lead?" or "what does this deal score?" without building a position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.games.cards import DECK_SCHNAPSEN, SUITS, Card
from cardavia.games.engine import JSON, Action, card_field, data_keys
from cardavia.games.errors import ActionFormatError, CardError, IllegalAction

TRICK_ORDER: Final = {"J": 0, "Q": 1, "K": 2, "T": 3, "A": 4}
"""Trick strength, low to high: J Q K 10 A."""

CARD_POINTS: Final = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
WIN: Final = 66
HALF: Final = 33
MARRIAGE: Final = 20
TRUMP_MARRIAGE: Final = 40
HAND: Final = 5

DECK_SET: Final = frozenset(DECK_SCHNAPSEN)
PARTNER: Final = {Card.parse(a + s): Card.parse(b + s) for s in SUITS for a, b in (("K", "Q"), ("Q", "K"))}
"""The other half of a marriage, for each king and queen."""
JACK: Final = {s: Card.parse("J" + s) for s in SUITS}


# The actions' methods are written out (see Action): compiled, a dataclass's generated methods
# stay pure Python.
@dataclass(frozen=True, slots=True, eq=False)
class Play(Action):
    """Play ``card``; ``marriage`` announces it with its partner (a lead only)."""

    card: Card
    marriage: bool = False

    def __init__(self, card: Card, marriage: bool = False) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "marriage", marriage)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.card is other.card and self.marriage == other.marriage

    def __hash__(self) -> int:
        return hash((self.card, self.marriage))

    def to_data(self) -> dict[str, JSON]:
        # Kings and queens always say whether they announce, so the choice reads plainly.
        if self.marriage or self.card.rank in "KQ":
            return {"play": self.card.code, "marriage": self.marriage}
        return {"play": self.card.code}

    def __str__(self) -> str:
        return self.card.code + ("+m" if self.marriage else "")


@dataclass(frozen=True, slots=True, eq=False)
class Exchange(Action):
    """Take the indicator for ``card``, the jack of trumps."""

    card: Card

    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Exchange:
            return NotImplemented
        return self.card is other.card

    def __hash__(self) -> int:
        return hash((self.card,))

    def to_data(self) -> dict[str, JSON]:
        return {"exchange": self.card.code}

    def __str__(self) -> str:
        return f"exchange {self.card.code}"


@dataclass(frozen=True, slots=True, eq=False)
class Close(Action):
    """Close the talon: no more draws, strict play at once."""

    def __init__(self) -> None:
        pass

    def __eq__(self, other: object) -> bool:
        if type(other) is not Close:
            return NotImplemented
        return True

    def __hash__(self) -> int:
        return hash(())

    def to_data(self) -> dict[str, JSON]:
        return {"close": True}

    def __str__(self) -> str:
        return "close"


SchnapsenAction = Play | Exchange | Close

# Moves are values; one shared object per move keeps listing them cheap.
PLAY: Final = {c: Play(c) for c in DECK_SCHNAPSEN}
ANNOUNCE: Final = {c: Play(c, True) for c in PARTNER}
EXCHANGE: Final = {s: Exchange(j) for s, j in JACK.items()}
CLOSE: Final = Close()


def marriage_value(suit: str, trump: str) -> int:
    return TRUMP_MARRIAGE if suit == trump else MARRIAGE


def may_follow(hand: list[Card], lead: Card, trump: str) -> list[Card]:
    """The strict rule: follow and head the trick, else follow, else trump, else anything."""
    same = [c for c in hand if c.suit == lead.suit]
    if same:
        strength = TRICK_ORDER[lead.rank]
        return [c for c in same if TRICK_ORDER[c.rank] > strength] or same
    return [c for c in hand if c.suit == trump] or hand


def why_not_follow(hand: list[Card], lead: Card, trump: str) -> IllegalAction:
    """Why a card in hand breaks the strict rule (it is not in ``may_follow``)."""
    if any(c.suit == lead.suit for c in hand):
        return IllegalAction("must_head_trick", f"strict play: beat {lead} with a higher card of its suit")
    return IllegalAction("must_trump", f"strict play: without {lead.suit}, play a trump ({trump})")


def game_points(opponent_points: int, opponent_trick: bool) -> int:
    """1 if the opponent has 33, 2 if it has a trick, else 3."""
    if opponent_points >= HALF:
        return 1
    return 2 if opponent_trick else 3


def deal_outcome(
    winner: int,
    reached: bool,
    closed: tuple[int, int, bool] | None,
    loser_points: int,
    loser_trick: bool,
) -> tuple[str, int]:
    """(reason, game points) for ``winner``, who ``reached`` 66 or else took the deal otherwise.

    ``closed`` is (closer, opponent's points, opponent had a trick) as recorded
    at closing. Without a close, ``winner`` either reached 66 or took the last
    trick; with one, a winner other than the closer means the closer failed.
    """
    if closed is None:
        return ("66", game_points(loser_points, loser_trick)) if reached else ("last_trick", 1)
    closer, at_points, at_trick = closed
    if closer == winner:
        return "closer_66", game_points(at_points, at_trick)
    return ("opponent_66" if reached else "closer_failed"), (2 if at_trick else 3)


def schnapsen_card(card: Card) -> Card:
    if card not in DECK_SET:
        raise CardError(f"{card} is not a Schnapsen card (the pack is A T K Q J of C D H S)")
    return card


def action_from_data(data: Mapping[str, JSON]) -> SchnapsenAction:
    """Read ``{"play": "KH", "marriage": true}``, ``{"exchange": "JH"}`` or ``{"close": true}``."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action is a map, not {type(data).__name__}")
    if "play" in data:
        data_keys(data, ["play"], ["marriage"])
        marriage = data.get("marriage", False)
        if not isinstance(marriage, bool):
            raise ActionFormatError(f"'marriage' must be true or false, not {marriage!r}")
        return Play(schnapsen_card(card_field(data, "play")), marriage)
    if "exchange" in data:
        data_keys(data, ["exchange"])
        return Exchange(schnapsen_card(card_field(data, "exchange")))
    if "close" in data:
        data_keys(data, ["close"])
        if data["close"] is not True:
            raise ActionFormatError(f"'close' must be true, not {data['close']!r}")
        return CLOSE
    raise ActionFormatError(f"a Schnapsen action has 'play', 'exchange' or 'close': {dict(data)!r}")


def parse_action(text: str) -> SchnapsenAction:
    """Read ``KH``, ``play KH``, ``KH+m``, ``exchange JH`` or ``close`` (any case)."""
    if not isinstance(text, str):
        raise ActionFormatError(f"an action text is a string, not {type(text).__name__}")
    words = text.split()
    head = words[0].lower() if words else ""
    if head == "close" and len(words) == 1:
        return CLOSE
    if head == "exchange" and len(words) == 2:
        return Exchange(schnapsen_card(Card.parse(words[1])))
    if head == "play":
        words = words[1:]
    if len(words) != 1 or head in ("close", "exchange"):
        raise ActionFormatError(
            f"a Schnapsen move is a card ('KH'), a marriage lead ('KH+m'), "
            f"'exchange JH' or 'close', not {text!r}"
        )
    code, plus, mark = words[0].partition("+")
    if plus and mark.lower() != "m":
        raise ActionFormatError(f"a marriage lead is written like 'KH+m', not {text!r}")
    return Play(schnapsen_card(Card.parse(code)), bool(plus))
