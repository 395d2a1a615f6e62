"""Briscola's `expert` level: the strong search, over worlds weighted by the opponent's plays.

Theory of operation
-------------------
`strong` (``strong_bot.py``) samples the opponent's hidden hand uniformly
among the unseen cards. But the opponent's plays so far say something about
what it held: a player who throws a bare two on a ten it could have taken
with a higher card of the suit probably had no such card. The expert keeps
strong's search (flat Monte Carlo with common random numbers, the same
playouts and opponent mixture, exact solving once the stock is nearly gone)
and changes only *which* worlds it searches: each is weighted by how likely
the opponent's observed plays are in it, after Buro, Long, Furtak and
Sturtevant (2009, weighted worlds in Skat) and Whitehouse, Cowling and Powley
(2013, inference over determinizations in ISMCTS).

**Reconstructing past hands.** A world fixes the opponent's hand *now*; a
Briscola hand changes with every draw, so the hand it held at an earlier play
must be rebuilt. Walking back from now, each earlier play returns its card to
the hand and each draw between tricks takes one card out of it (possibly the
card played next: a card may be drawn and played at once). Which card
was drawn is unknown, and every choice corresponds to one order of the deck,
all equally likely a priori: so each draw taken back is one of the hand's
cards chosen uniformly (the face-up trump only at the last draw, where it
must be). The likelihood of a world is the mean, over ``HISTORIES`` such
walks, of the product of the probabilities of the opponent's plays.

**Opponent model.** A play's probability from a hand mixes the two models of
``briscola_heuristics``: a random player (one over the hand size) with the
posterior share the search already uses, and otherwise a softened `basic`:
a softmax of basic's move scores at ``TEMPERATURE`` card points, so that a
cheap deviation from basic's choice is likely and an expensive one is not
(a strong opponent rarely plays exactly like basic, but rarely throws
points away for nothing either).

**Search.** ``POOL`` hands are sampled uniformly and weighted once per
decision; each search iteration draws one of them in proportion to its
weight, deals the rest of the unseen cards to the stock at random and plays
every root action out on it (``search.flat_rollouts``' scheme). When few
worlds remain (``exact_worlds``) each is solved exactly, and their values are
summed with the same weights. With the hidden cards given (``determinize.told``)
every world holds the true hand and the weights change nothing.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.bots.base import Budget
from cardavia.bots.briscola_heuristics import BRISCOLA_STOCK, BriscolaSeen, score_moves
from cardavia.bots.determinize import is_told, sample_places, view_seat
from cardavia.bots.models import SearchModel
from cardavia.bots.search import SearchResult, flat_rollouts
from cardavia.bots.strong_bot import StrongBot, solve_exactly
from cardavia.games.briscola import Play
from cardavia.games.cards import Card
from cardavia.games.engine import Action, State, View

TEMPERATURE: Final = 8.0
"""Softmax temperature over basic's move scores, in card points (fitted to `strong`'s own plays)."""
FLOOR: Final = 0.05
"""The least share of a uniformly random choice in the opponent model (more if it plays at random)."""
HISTORIES: Final = 6
"""Draw histories sampled per world to average a world's likelihood over (the latest draw taken
back goes through the hand's cards in turn, the earlier ones at random)."""
POOL: Final = 160
"""Opponent hands sampled and weighted per decision."""
LAST_DRAW: Final = BRISCOLA_STOCK // 2 - 1
"""The trick after which the last cards of the stock (the face-up trump among them) are drawn."""
ITERATIONS: Final = 300
"""Default playout budget, as `strong`'s (weighting costs a few ms more per decision)."""


@dataclass(frozen=True, slots=True)
class PastPlay:
    """One of the opponent's plays: the trick, what it saw then, the card, and whether a draw followed."""

    trick: int
    seen: BriscolaSeen
    card: Card
    drew_after: bool


class Reading:
    """The opponent's plays of this deal, and the likelihood of each hand it may hold now."""

    def __init__(self, view: View, random_share: float) -> None:
        seat = view_seat(view)
        self.trump = Card.parse(view["trump"])
        self.share = max(FLOOR, random_share)
        history = view.get("history") or []
        complete = len(history) // 2
        plays: list[PastPlay] = []
        for index, entry in enumerate(history):
            if entry["seat"] == seat:
                continue
            trick = index // 2
            lead = Card.parse(history[index - 1]["play"]) if index % 2 else None
            seen = BriscolaSeen(self.trump.suit, lead, max(0, BRISCOLA_STOCK - 2 * trick))
            drew = trick < complete and trick <= LAST_DRAW
            plays.append(PastPlay(trick, seen, Card.parse(entry["play"]), drew))
        self.plays = tuple(reversed(plays))
        self._cache: dict[tuple[int, frozenset[Card]], float] = {}

    @property
    def active(self) -> bool:
        """True when the opponent has played (else every world weighs the same)."""
        return bool(self.plays)

    def play_chance(self, play: PastPlay, hand: frozenset[Card]) -> float:
        """The probability that the opponent plays ``play.card`` from ``hand``, in the mixed model."""
        key = (play.trick, hand)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        cards = sorted(hand)
        n = len(cards)
        if n <= 1:
            chance = 1.0
        else:
            scores = score_moves(play.seen, [Play(c) for c in cards])
            top = max(scores)
            exps = [math.exp((s - top) / TEMPERATURE) for s in scores]
            basic = exps[cards.index(play.card)] / sum(exps)
            chance = self.share / n + (1.0 - self.share) * basic
        self._cache[key] = chance
        return chance

    def likelihood(self, hand: Sequence[Card], rng: random.Random) -> float:
        """The mean, over sampled draw histories, of the chance of every past play from ``hand`` now."""
        if not self.plays:
            return 1.0
        total = 0.0
        for history in range(HISTORIES):
            held = set(hand)
            product = 1.0
            first = True
            for play in self.plays:
                if play.drew_after:
                    if self.trump in held:
                        if play.trick != LAST_DRAW:
                            product = 0.0
                            break
                        held.discard(self.trump)
                    else:
                        drawn = sorted(held)
                        pick = history % len(drawn) if first else rng.randrange(len(drawn))
                        held.discard(drawn[pick])
                        first = False
                held.add(play.card)
                product *= self.play_chance(play, frozenset(held))
            total += product
        return total / HISTORIES


class BriscolaExpertBot(StrongBot):
    """Briscola's strong search over worlds weighted by how well they explain the opponent's plays."""

    id = "expert"
    level = "expert"
    description = "Reads the opponent's plays to guess its hand, then searches like the strong bot."

    default_iterations = ITERATIONS

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        # made on first need: a fully known position reads nothing
        read = functools.cache(lambda: Reading(view, model.random_share(view, rng)))
        solved = solve_exactly(model, view, legal, rng, lambda placed: read().likelihood(placed["hand"], rng))
        if solved is not None:
            return solved
        reading = read()
        return weighted_rollouts(
            model, view, legal, rng, reading=reading, iterations=budget.iterations, seconds=budget.seconds
        ).action


def weighted_rollouts(
    model: SearchModel,
    view: View,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    reading: Reading,
    iterations: int | None,
    seconds: float | None = None,
) -> SearchResult:
    """Flat Monte Carlo with common random numbers over worlds drawn by weight (``iterations``: playouts)."""
    determinizer = model.determinizer
    hidden = determinizer.hidden(view)
    pool = [sample_places(hidden, rng) for _ in range(POOL if reading.active else 1)]
    weights = [reading.likelihood(placed["hand"], rng) for placed in pool]
    if not any(weights):
        weights = [1.0] * len(pool)

    def draw(rng: random.Random) -> State[Any]:
        placed = rng.choices(pool, weights)[0]
        if len(pool) > 1 and not is_told():
            placed = {**placed, "stock": rng.sample(placed["stock"], len(placed["stock"]))}
        else:
            placed = sample_places(hidden, rng)
        return determinizer.build(view, placed)

    return flat_rollouts(
        model, view, legal, rng, iterations=iterations, seconds=seconds, sample=draw, share=reading.share
    )
