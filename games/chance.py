"""Where an engine's randomness comes from.

Engines never call a global random generator. Every random choice a game
makes (the first dealer, each shuffle) is asked of a ``Chance`` object, so a
match is a pure function of (options, chance, actions):

* ``SeededChance`` derives every draw from the match seed, the deal number and
  the attempt number (a Scopa kings redeal or a Dou Dizhu all-pass is a new
  attempt), so the same seed always gives the same match and one deal's
  shuffle never depends on how many draws an earlier deal made.
* ``RecordedChance`` plays back the shuffles and first dealer written in a game
  record, so a record replays without the server's seed derivation at all.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.games.cards import Card
from cardavia.games.errors import ReplayMismatch


class Chance:
    """The random choices of one match."""

    def first_dealer(self, seats: int) -> int:
        raise NotImplementedError

    def shuffle(self, deck: Sequence[Card], deal: int, attempt: int) -> tuple[Card, ...]:
        """The order of ``deck``, top card first, for one attempt at one deal."""
        raise NotImplementedError


def _rng(*parts: object) -> random.Random:
    material = "\x1f".join(str(p) for p in parts).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


@dataclass(frozen=True, slots=True)
class SeededChance(Chance):
    seed: str

    def first_dealer(self, seats: int) -> int:
        return _rng(self.seed, "first-dealer").randrange(seats)

    def shuffle(self, deck: Sequence[Card], deal: int, attempt: int) -> tuple[Card, ...]:
        order = list(deck)
        _rng(self.seed, "deal", deal, "attempt", attempt).shuffle(order)
        return tuple(order)


@dataclass(frozen=True, slots=True)
class RecordedChance(Chance):
    """Shuffles read from a record: ``shuffles[deal]`` = its redeals, then its order."""

    dealer: int
    shuffles: tuple[tuple[tuple[Card, ...], ...], ...]

    def first_dealer(self, seats: int) -> int:
        return self.dealer

    def shuffle(self, deck: Sequence[Card], deal: int, attempt: int) -> tuple[Card, ...]:
        if deal >= len(self.shuffles):
            raise ReplayMismatch(f"the game needs deal {deal + 1} but the record has {len(self.shuffles)}")
        attempts = self.shuffles[deal]
        if attempt >= len(attempts):
            raise ReplayMismatch(
                f"deal {deal + 1} needs a redeal (shuffle {attempt + 1}) the record does not have"
            )
        order = attempts[attempt]
        if sorted(order) != sorted(deck):
            raise ReplayMismatch(
                f"deal {deal + 1}, shuffle {attempt + 1} is not a full {len(deck)}-card deck"
            )
        return order
