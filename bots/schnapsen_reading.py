"""Reading the opponent's Schnapsen play: how likely each sampled world makes its moves.

Theory of operation
-------------------
`strong` samples the hidden cards uniformly among the placements the rules
allow. A player does better: a card not played when it would have won, a
marriage not announced, a trump jack not exchanged all say something about
the hand. ``Reading`` turns the opponent's past moves this deal into a weight
for each world: the probability that a player like `basic` (with a share of
deviations, mixed with the random share the strong bot already estimates)
makes exactly those moves holding that world's cards, the likelihood of the
inference step of Buro, Long, Furtak and Sturtevant (2009, "Improving state
evaluation, inference, and search in trick-based card games": worlds
weighted by how likely the others' moves are in them) and of Whitehouse,
Cowling and Powley's (2013) inference in ISMCTS.

Hands change with draws, so judging a past move needs the hand the opponent
held then. A world fixes the opponent's hand *now*; walking the public
history backwards, each card it played since goes back into the hand, a card
it took (a trump exchange, the last draw of the face-up trump) comes out, and
each unknown draw comes out as one of the cards the hand held just after it,
each as likely (the deal is exchangeable). Every such choice is one path of
hands; a world's likelihood is the mean over its paths of the product of the
moves' probabilities. The walk stops ``DRAWS_READ`` unknown draws back: the
paths multiply by about five with each, and older moves say less about the
hand now. Since the talon was closed or ran out no card is drawn, so strict
play is read in full.

The worlds the search plays are drawn by sampling importance resampling: a
pool of uniformly sampled placements, each weighted by its likelihood, is
drawn from in proportion to the weights (``Reading.sample``). Inside
``determinize.told`` the placements are given and nothing is read.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.bots.determinize import HiddenPlaces, is_told, sample_places, view_seat
from cardavia.bots.schnapsen_heuristics import POINTS, SchnapsenSeen, choose_schnapsen
from cardavia.games.cards import Card
from cardavia.games.engine import Action, View
from cardavia.games.schnapsen_rules import (
    ANNOUNCE,
    CLOSE,
    EXCHANGE,
    HAND,
    JACK,
    PARTNER,
    PLAY,
    TRICK_ORDER,
    marriage_value,
    may_follow,
)
from cardavia.games.tricks import trick_winner

DEVIATION: Final = 0.3
"""Share of the opponent's moves that are any legal move rather than `basic`'s. The `strong` bot agrees
with `basic` in about 45% of its choices, a casual player far more: against `strong` the reading is
nearly neutral (its worlds hold the true hand no more often than uniform ones), against `basic`-like
players it finds the hand."""
DRAWS_READ: Final = 1
"""Unknown draws the backward walk goes through before it stops reading older moves."""
POOL: Final = 320
"""Uniformly sampled placements weighed for one decision (the resampling pool)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One past move of the opponent, with everything `basic` reads but the hand."""

    action: Action
    lead: Card | None
    strict: bool
    open_talon: bool
    points: int
    pending: int
    has_trick: bool
    gone: frozenset[Card]
    marriages: tuple[tuple[int, str], ...]


Step = tuple[str, Any]
"""One backward step: ("decide", Decision), ("lose", card), ("gain", card) or ("draw", trumps only)."""


def opponent_steps(view: View) -> list[Step]:
    """The opponent's moves and hand changes this deal, oldest first, from the view's public history."""
    seat = view_seat(view)
    opponent, trump = 1 - seat, view["trump"]
    history: Sequence[Mapping[str, Any]] = view.get("history") or []
    won: tuple[list[Card], list[Card]] = ([], [])
    piles = [0, 0]
    marriages: tuple[tuple[int, str], ...] = ()
    trick: list[Card] = []
    talon = 2 * (10 - HAND)  # ten cards, the face-up trump last
    closed = False
    indicator_known = False
    steps: list[Step] = []

    def decision(action: Action, mover: int) -> Decision:
        married = sum(marriage_value(s, trump) for m, s in marriages if m == mover)
        has_trick = bool(won[mover])
        return Decision(
            action, trick[0] if trick else None, closed or talon == 0, talon > 0 and not closed,
            piles[mover] + married if has_trick else 0, 0 if has_trick else married, has_trick,
            frozenset((*won[0], *won[1], *trick)), marriages,
        )  # fmt: skip

    for entry in history:
        mover = entry["seat"]
        if "exchange" in entry:
            jack = Card.parse(entry["exchange"])
            if mover == opponent:
                steps += [("decide", decision(EXCHANGE[trump], mover)), ("lose", jack), ("draw", True)]
            indicator_known = True
        elif entry.get("close"):
            if mover == opponent:
                steps.append(("decide", decision(CLOSE, mover)))
            closed = True
        elif "play" in entry:
            card = Card.parse(entry["play"])
            if mover == opponent:
                action = ANNOUNCE[card] if entry.get("marriage") else PLAY[card]
                steps += [("decide", decision(action, mover)), ("lose", card)]
            if entry.get("marriage"):
                marriages = (*marriages, (mover, card.suit))
            trick.append(card)
            if len(trick) == 2:
                lead = trick[0]
                winner = mover if trick_winner(lead, card, trump, TRICK_ORDER) else 1 - mover
                won[winner].extend(trick)
                piles[winner] += POINTS[lead] + POINTS[card]
                trick = []
                if talon and not closed:
                    last = talon == 2  # the loser draws the face-up trump
                    if winner != opponent and last:
                        steps.append(("gain", JACK[trump]) if indicator_known else ("draw", True))
                    else:
                        steps.append(("draw", False))
                    talon -= 2
    return steps


def move_probability(decision: Decision, hand: list[Card], trump: str, seat: int, share: float) -> float:
    """How likely the opponent, holding ``hand``, made ``decision``'s move (0 if it was illegal)."""
    legal: list[Action]
    if decision.lead is not None:
        cards = hand if decision.open_talon else may_follow(hand, decision.lead, trump)
        legal = [PLAY[c] for c in cards]
    else:
        legal = []
        for card in hand:
            legal.append(PLAY[card])
            partner = PARTNER.get(card)
            if partner is not None and partner in hand and (seat, card.suit) not in decision.marriages:
                legal.append(ANNOUNCE[card])
        if decision.open_talon:
            if JACK[trump] in hand:
                legal.append(EXCHANGE[trump])
            if len(hand) == HAND:
                legal.append(CLOSE)
    if decision.action not in legal:
        return 0.0
    if len(legal) == 1:
        return 1.0
    seen = SchnapsenSeen(
        tuple(hand), trump, decision.lead, decision.strict, decision.points, decision.pending,
        decision.has_trick, decision.gone, decision.marriages, seat,
    )  # fmt: skip
    basic = 1.0 - DEVIATION if choose_schnapsen(seen, legal) == decision.action else 0.0
    return (1.0 - share) * (basic + DEVIATION / len(legal)) + share / len(legal)


class Reading:
    """The likelihood of the opponent's moves in each world, and worlds drawn by it."""

    def __init__(self, view: View, share: float) -> None:
        self.seat = view_seat(view)
        self.trump: str = view["trump"]
        self.share = share
        steps = opponent_steps(view)
        self.steps = steps[::-1]
        self.active = any(kind == "decide" for kind, _ in steps)
        self.pool: list[dict[str, list[Card]]] | None = None
        self.weights: list[float] = []

    def likelihood(self, hand: Sequence[Card]) -> float:
        """The probability of the opponent's read moves given that it holds ``hand`` now."""
        opponent = 1 - self.seat
        paths: list[tuple[list[Card], float]] = [(list(hand), 1.0)]
        draws = 0
        for kind, what in self.steps:
            if kind == "lose":
                paths = [([*h, what], w) for h, w in paths]
            elif kind == "gain":
                paths = [([c for c in h if c != what], w) for h, w in paths if what in h]
            elif kind == "draw":
                draws += 1
                if draws > DRAWS_READ:
                    break
                branched = []
                for h, w in paths:
                    drawn = [c for c in h if not what or c.suit == self.trump]
                    branched += [([c for c in h if c != d], w / len(drawn)) for d in drawn]
                paths = branched
            else:
                paths = [
                    (h, w * move_probability(what, h, self.trump, opponent, self.share)) for h, w in paths
                ]
                paths = [(h, w) for h, w in paths if w > 0.0]
            if not paths:
                return 0.0
        return sum(w for _, w in paths)

    def sample(self, hidden: HiddenPlaces, rng: random.Random) -> dict[str, list[Card]]:
        """A world drawn in proportion to its likelihood from a pool of uniform placements."""
        if not self.active or is_told():
            return sample_places(hidden, rng)
        if self.pool is None:
            self.pool = [sample_places(hidden, rng) for _ in range(POOL)]
            self.weights = [self.likelihood(p["hand"]) for p in self.pool]
            if not any(self.weights):  # nothing fits the model: read nothing
                self.weights = [1.0] * len(self.pool)
        placed = {p: list(cards) for p, cards in rng.choices(self.pool, weights=self.weights)[0].items()}
        for place in hidden.ordered:  # the talon's order says nothing the moves could: shuffle afresh
            rng.shuffle(placed[place])
        return placed
