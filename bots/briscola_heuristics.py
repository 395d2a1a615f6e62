"""Briscola heuristics: the `basic` player, and a model of whether the opponent plays like it.

The basic player uses one-trick rules a casual player would recognise.
Leading, it plays its cheapest card (a worthless non-trump, then a low
figure, spending trumps and aces last). Following, it takes a trick when
that is cheap (a higher card of the led suit) or when the points on it are
worth a trump; otherwise it throws its least valuable card. It reads a
``BriscolaSeen`` (what the seat sees), built from its view or, inside search
playouts, straight from a determinized state.

The opponent model serves the search, which plays the future out with the
opponent following the basic policy. Against a player who does, that is
accurate and the search exploits it; against a much weaker one it misjudges
what the opponent will throw away. So the search mixes two opponent models,
`basic` and uniformly random, in proportion to how well each explains the
opponent's moves in this deal (the view's public ``history``). Under the
random model a move has probability one over the hand size; under the basic
model, the share of sampled hands (the card played plus cards the seat could
not account for at the time) in which basic would have played it. A prior
keeps the posterior away from certainty early in the deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.games.briscola import CARD_POINTS, TRICK_ORDER, BriscolaState, Play
from cardavia.games.cards import DECK_40, Card
from cardavia.games.engine import Action, State, View

POINTS: Final = {c: CARD_POINTS[c.rank] for c in DECK_40}
STRENGTH: Final = {c: TRICK_ORDER[c.rank] for c in DECK_40}

TRUMP_COST: Final = 5.0
"""What spending a trump costs, in card points: a casual player keeps them."""


@dataclass(frozen=True, slots=True)
class BriscolaSeen:
    """What one seat sees of a Briscola deal: all the basic policy reads."""

    trump: str
    """The trump suit."""
    lead: Card | None
    """The card led to the current trick, None when this seat leads."""
    stock: int

    @classmethod
    def from_view(cls, view: View) -> BriscolaSeen:
        trick = view["trick"]
        return cls(view["trump"][1], Card.parse(trick[0]) if trick else None, view["stock"])

    @classmethod
    def from_state(cls, state: State[Any], seat: int) -> BriscolaSeen:
        """The same as ``from_view(state.view(seat))``, read without building the view."""
        assert isinstance(state, BriscolaState)
        return cls(state.trump.suit, state.trick[0] if state.trick else None, len(state.stock))


def beats(lead: Card, follow: Card, trump: str) -> bool:
    """True when ``follow`` wins the trick against ``lead``."""
    if follow.suit == lead.suit:
        return STRENGTH[follow] > STRENGTH[lead]
    return follow.suit == trump


def _spend(card: Card, trump: str) -> float:
    """The cost of giving up ``card`` from the hand.

    A trump is kept for later: it costs a fixed price, more the stronger it
    is, plus its own points (a high trump banks them later anyway).
    """
    if card.suit == trump:
        return TRUMP_COST + STRENGTH[card] * 0.5 + POINTS[card]
    return STRENGTH[card] * 0.05


def score_moves(seen: BriscolaSeen, legal: Sequence[Play]) -> list[float]:
    """A heuristic value of each move for the seat to move, in rough card points."""
    trump, lead = seen.trump, seen.lead
    endgame = seen.stock == 0
    scores: list[float] = []
    for move in legal:
        card = move.card
        spend = 0.0 if endgame and card.suit != trump else _spend(card, trump)
        if lead is None:
            # Leading: the opponent may take what we lead; lead cheap cards.
            scores.append(-POINTS[card] - spend)
            continue
        at_stake = POINTS[lead] + POINTS[card]
        scores.append((at_stake if beats(lead, card, trump) else -at_stake) - spend)
    return scores


def choose_briscola(seen: BriscolaSeen, legal: Sequence[Action]) -> Action:
    """The best-scoring move; the first in ``legal`` order on a tie."""
    moves = [a for a in legal if isinstance(a, Play)]
    if len(moves) != len(legal):
        raise TypeError("a Briscola bot was given a move that is not a Briscola play")
    scores = score_moves(seen, moves)
    return moves[max(range(len(moves)), key=scores.__getitem__)]


# ------------------------------------------------------------ opponent model
PRIOR_RANDOM: Final = 0.3
SAMPLES: Final = 8
BRISCOLA_STOCK: Final = 34
"""Cards in the Briscola stock before the first trick (the face-up trump included)."""


def posterior(prior: float, likelihoods: list[tuple[float, float]]) -> float:
    """P(random | moves) from (P(move | random), P(move | basic)) pairs."""
    logit = math.log(prior / (1.0 - prior))
    for random_chance, basic_chance in likelihoods:
        logit += math.log(random_chance / basic_chance)
    logit = max(-30.0, min(30.0, logit))
    return 1.0 / (1.0 + math.exp(-logit))


def _basic_share(seen: BriscolaSeen, hand: list[Card]) -> float:
    """How likely basic plays ``hand[0]`` from ``hand``: ties share (basic breaks them by hand order)."""
    scores = score_moves(seen, [Play(c) for c in hand])
    best = max(scores)
    if scores[0] != best:
        return 0.0
    return 1.0 / sum(1 for s in scores if s == best)


def briscola_random_share(view: View, rng: random.Random) -> float:
    """The probability that the Briscola opponent plays at random rather than like `basic`."""
    seat = view["seat"]
    history = view.get("history") or []
    trump = Card.parse(view["trump"])
    mine_then = {Card.parse(c) for c in view["hand"]}
    for entry in history:
        if entry["seat"] == seat:
            mine_then.add(Card.parse(entry["play"]))
    played: set[Card] = set()
    likelihoods: list[tuple[float, float]] = []
    for index, entry in enumerate(history):
        card = Card.parse(entry["play"])
        trick = index // 2
        if entry["seat"] != seat:
            hand_size = 3 if trick <= 17 else 20 - trick
            if hand_size > 1:
                lead = Card.parse(history[index - 1]["play"]) if index % 2 else None
                stock = max(0, BRISCOLA_STOCK - 2 * trick)
                pool = [c for c in DECK_40 if c not in played and c not in mine_then and c is not card]
                if stock:
                    pool = [c for c in pool if c is not trump]
                seen = BriscolaSeen(trump.suit, lead, stock)
                hits = 0.0
                for _ in range(SAMPLES):
                    hand = [card, *rng.sample(pool, min(hand_size - 1, len(pool)))]
                    hits += _basic_share(seen, hand)
                likelihoods.append((1.0 / hand_size, (hits + 0.5) / (SAMPLES + 1)))
        played.add(card)
    return posterior(PRIOR_RANDOM, likelihoods)
