"""Dou Dizhu actions: a bid, a pass, or a play of a named combination.

A ``Play`` is the same move as any play of the same combination and ranks,
whatever the suits, so equality and hashing go by rank-level slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import Card, codes, format_cards
from cardavia.games.doudizhu_moves import Move
from cardavia.games.engine import JSON, Action


# The actions' methods are written out (see Action): compiled, a dataclass's generated methods
# stay pure Python.
@dataclass(frozen=True, slots=True, eq=False)
class Bid(Action):
    """A bid in the auction; ``Bid(0)`` is a pass."""

    bid: int

    def __init__(self, bid: int) -> None:
        object.__setattr__(self, "bid", bid)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Bid:
            return NotImplemented
        return self.bid == other.bid

    def __hash__(self) -> int:
        return hash((self.bid,))

    def to_data(self) -> dict[str, JSON]:
        return {"bid": self.bid}

    def __str__(self) -> str:
        return f"bid {self.bid}"


@dataclass(frozen=True, slots=True, eq=False)
class Pass(Action):
    """Pass in the play (not in the bidding: that is ``Bid(0)``)."""

    def __init__(self) -> None:
        pass

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pass:
            return NotImplemented
        return True

    def __hash__(self) -> int:
        return hash(())

    def to_data(self) -> dict[str, JSON]:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, eq=False)
class Play(Action):
    """Play ``cards`` as combination ``combo``.

    Equal to any play of the same combination and ranks (suits never matter).
    ``move`` is the rank-level move when the engine made the play; ``None``
    for a play read from text or data (the engine classifies it).
    """

    combo: str
    cards: tuple[Card, ...]
    move: Move | None = field(default=None, repr=False)

    def __init__(self, combo: str, cards: tuple[Card, ...], move: Move | None = None) -> None:
        object.__setattr__(self, "combo", combo)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "move", move)

    def to_data(self) -> dict[str, JSON]:
        return {"combo": self.combo, "cards": codes(self.cards)}

    def __str__(self) -> str:
        return f"{self.combo}: {format_cards(self.cards)}"

    def ranks(self) -> tuple[int, ...]:
        """The rank-level slots of the cards (the move's identity with ``combo``)."""
        return self.move[2] if self.move is not None else dm.slots_of(dm.card_counts(self.cards))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        same_shape = self.combo == other.combo and len(self.cards) == len(other.cards)
        return same_shape and self.ranks() == other.ranks()

    def __hash__(self) -> int:
        return hash((self.combo, self.ranks()))


DdzAction = Bid | Pass | Play
