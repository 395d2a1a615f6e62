"""Scopa heuristics: the `basic` player, and an estimate of a deal's points before it ends.

The basic player uses one-move rules a casual player would recognise. It
takes what is worth most (the settebello, coins, sevens for the primiera,
many cards, a scopa) and weighs that against what the table it leaves offers
the opponent: the chance that an unseen card of some value is in the
opponent's hand, times the best capture (or sweep) that value would make. It
reads a ``ScopaSeen``: what the seat sees, built from its view or, inside
search playouts, straight from a determinized state (the same fields,
without building a whole view).

The deal estimate serves cut-off playouts. Playing every playout to the end
of the deal is slow, and most of the spread of its result comes from cards
not yet dealt, so the search can stop early and ask ``estimate_deal``:
sweeps so far are exact, the settebello counts once taken, and the three
majority awards (cards, coins, primiera) are worth the chance of winning
them, with the cards still to come split about evenly between the players
(a normal approximation).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from cardavia.games.cards import DECK_40, Card, parse_cards
from cardavia.games.engine import Action, State, View
from cardavia.games.scopa import COINS, PRIMIERA, SETTEBELLO, VALUE, Play, ScopaState

CARD_VALUE: Final = {c: VALUE[c.rank] for c in DECK_40}
"""Capture value of every card (A = 1 ... K = 10)."""

SCOPA_WORTH: Final = 1.0
"""A sweep is one deal point."""


def _worth(card: Card) -> float:
    """Roughly what owning ``card`` at the end of the deal is worth, in deal points."""
    worth = 0.06  # the cards point: one of 21+ cards
    if card.suit == COINS:
        worth += 0.12  # the coins point: one of 6+ coins
    if card is SETTEBELLO:
        worth += 1.0
    worth += {"7": 0.25, "6": 0.12, "A": 0.06, "5": 0.03}.get(card.rank, 0.0)  # primiera
    return worth


WORTH: Final = {c: _worth(c) for c in DECK_40}


@dataclass(frozen=True, slots=True)
class ScopaSeen:
    """What one seat sees of a Scopa deal: all the basic policy reads."""

    seat: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: int
    opponent_hand: int
    last_capture: int | None

    @classmethod
    def from_view(cls, view: View) -> ScopaSeen:
        seat = view["seat"]
        mine, theirs = view["captured"]
        return cls(
            seat,
            parse_cards(view["hand"]),
            parse_cards(view["table"]),
            (parse_cards(mine), parse_cards(theirs)),
            view["stock"],
            view["hand_counts"][1 - seat],
            view["last_capture"],
        )

    @classmethod
    def from_state(cls, state: State[Any], seat: int) -> ScopaSeen:
        """The same as ``from_view(state.view(seat))``, read without building the view."""
        assert isinstance(state, ScopaState)
        return cls(
            seat,
            tuple(state.hands[seat]),
            tuple(state.table),
            (tuple(state.piles[0]), tuple(state.piles[1])),
            len(state.stock),
            len(state.hands[1 - seat]),
            state.last_capture,
        )


@lru_cache(maxsize=8192)
def best_captures(table: frozenset[Card]) -> dict[int, float]:
    """For each capture value, the most a card of that value could take from ``table``.

    Follows the precedence rule: a single equal card if there is one, else the
    best set of two or more summing to the value. A capture that empties the
    table counts the sweep. Cached: tables recur across playouts.
    """
    singles: dict[int, float] = {}
    for card in table:
        value = CARD_VALUE[card]
        worth = WORTH[card] + (SCOPA_WORTH if len(table) == 1 else 0.0)
        if worth > singles.get(value, -1.0):
            singles[value] = worth
    best: dict[int, float] = {}
    # (sum, worth, size) of every subset whose sum is at most 10, built card by card.
    subsets: list[tuple[int, float, int]] = [(0, 0.0, 0)]
    for card in table:
        value, worth = CARD_VALUE[card], WORTH[card]
        subsets += [(s + value, w + worth, n + 1) for s, w, n in subsets if s + value <= 10]
    whole = len(table)
    for total, taken, size in subsets:
        if size < 2 or total in singles:
            continue
        worth = taken + (SCOPA_WORTH if size == whole else 0.0)
        if worth > best.get(total, -1.0):
            best[total] = worth
    best.update(singles)
    return best


@lru_cache(maxsize=4096)
def holding_chances(counts: tuple[int, ...], hand_size: int) -> tuple[float, ...]:
    """For each capture value 1-10 (index 0-9), the chance a random hand holds one.

    ``counts[v - 1]`` unseen cards have value ``v``; the hand is ``hand_size``
    of all the unseen cards.
    """
    total = sum(counts)
    chances = []
    for count in counts:
        miss = 1.0
        for i in range(min(hand_size, total)):
            miss *= max(total - count - i, 0) / (total - i)
        chances.append(1.0 - miss)
    return tuple(chances)


def score_moves(seen: ScopaSeen, legal: Sequence[Play]) -> list[float]:
    """A heuristic value of each move for the seat to move, in rough deal points."""
    table = seen.table
    counts = [4] * 10
    for group in (seen.hand, table, *seen.piles):
        for card in group:
            counts[CARD_VALUE[card] - 1] -= 1
    last_play = seen.stock == 0 and seen.opponent_hand == 0 and len(seen.hand) == 1
    threat_hand = seen.opponent_hand or (3 if seen.stock else 0)
    chances = holding_chances(tuple(counts), threat_hand) if threat_hand else None
    scores: list[float] = []
    for move in legal:
        if move.capture:
            gain = WORTH[move.card] + sum(WORTH[c] for c in move.capture)
            left = tuple(c for c in table if c not in move.capture)
            if not left and not last_play:
                gain += SCOPA_WORTH
        else:
            gain = 0.0
            left = (*table, move.card)
        if last_play:
            taker = seen.seat if move.capture else seen.last_capture
            if taker is not None:
                leftover = sum(WORTH[c] for c in left)
                gain += leftover if taker == seen.seat else -leftover
        elif left and chances is not None:
            threats = best_captures(frozenset(left))
            gain -= max(chances[v - 1] * worth for v, worth in threats.items()) if threats else 0.0
        scores.append(gain)
    return scores


def choose_scopa(seen: ScopaSeen, legal: Sequence[Action]) -> Action:
    """The best-scoring move; the first in ``legal`` order on a tie."""
    moves = [a for a in legal if isinstance(a, Play)]
    if len(moves) != len(legal):
        raise TypeError("a Scopa bot was given a move that is not a Scopa play")
    scores = score_moves(seen, moves)
    return moves[max(range(len(moves)), key=scores.__getitem__)]


# ------------------------------------------------------------ deal estimate
SPREAD: Final = 0.55
"""Standard deviation of a player's share of the cards still to come, per sqrt(card)."""

PRIMIERA_SPREAD: Final = 12.0
"""Spread of the primiera difference per missing suit or unsettled suit."""


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def majority_margin(mine: int, theirs: int, left: int, needed: int) -> float:
    """Expected (award to me) - (award to them) for a most-cards award.

    ``needed`` is the count that wins it outright (21 of 40 cards, 6 of 10
    coins); ``left`` cards are still to be taken.
    """
    if mine >= needed:
        return 1.0
    if theirs >= needed:
        return -1.0
    if left == 0:
        return float((mine > theirs) - (mine < theirs))
    spread = SPREAD * math.sqrt(left) * 2.0
    return 2.0 * _phi((mine - theirs) / spread) - 1.0


def _best_by_suit(pile: list[Card]) -> dict[str, int]:
    best: dict[str, int] = {}
    for card in pile:
        value = PRIMIERA[card.rank]
        if value > best.get(card.suit, 0):
            best[card.suit] = value
    return best


def primiera_margin(mine: list[Card], theirs: list[Card], left: int) -> float:
    """Expected (award to me) - (award to them) for the primiera."""
    a, b = _best_by_suit(mine), _best_by_suit(theirs)
    if left == 0:
        pa = sum(a.values()) if len(a) == 4 else None
        pb = sum(b.values()) if len(b) == 4 else None
        if pa == pb:
            return 0.0
        if pb is None or (pa is not None and pa > pb):
            return 1.0
        return -1.0
    unsettled = sum(1 for s in "CDHS" if a.get(s, 0) < 21 or b.get(s, 0) < 21)
    spread = PRIMIERA_SPREAD * math.sqrt(max(unsettled, 1)) * min(1.0, left / 12 + 0.3)
    return 2.0 * _phi((sum(a.values()) - sum(b.values())) / spread) - 1.0


def estimate_deal(state: State[Any], seat: int) -> float:
    """Expected deal points of ``seat`` minus the other seat's, from the piles so far."""
    assert isinstance(state, ScopaState)
    mine, theirs = state.piles[seat], state.piles[1 - seat]
    left = 40 - len(mine) - len(theirs)
    margin = float(state.scopas[seat] - state.scopas[1 - seat])
    if SETTEBELLO in mine:
        margin += 1.0
    elif SETTEBELLO in theirs:
        margin -= 1.0
    margin += majority_margin(len(mine), len(theirs), left, 21)
    coins_mine = sum(1 for c in mine if c.suit == COINS)
    coins_theirs = sum(1 for c in theirs if c.suit == COINS)
    margin += majority_margin(coins_mine, coins_theirs, 10 - coins_mine - coins_theirs, 6)
    margin += primiera_margin(mine, theirs, left)
    return margin
