"""Dou Dizhu's `expert` level: strong's reading of the table, a wider search of the moves.

Theory of operation
-------------------
A landlord told every hidden card gains little over `strong` (issue 32), so
what holds `strong` back is its search, not its guesses: a few candidate
moves, each judged by one ``basic`` playout per sampled world. The expert
keeps the worlds (``Reading``'s Metropolis walk, weighted by how far each
world makes the others' bids and plays differ from ``basic``'s) and the
playouts on rank counts, and changes what is searched and how the budget is
spent on it:

* ``candidates``: strong's list, plus, beside it, the best move of every
  other kind of combination the hand can play (by what the hand costs after
  it, ``hand_cost``), and the next cheapest moves up to ``EXTRA`` more. A
  lead offers hundreds of legal moves; strong looks at the plan's groups and
  two singles only. A peasant whose partner holds the trick keeps strong's
  short list (taking a partner's trick pays only to go out).
* ``halving_search``: successive halving (Karnin, Koren and Somekh 2013,
  "Almost optimal exploration in multi-armed bandits"), the budget split
  into equal rounds; each round plays every surviving move out on the same
  fresh worlds, then the better half (by mean over every world it played)
  goes on. Many moves are looked at cheaply, the close ones on many worlds:
  more worlds where the decision is made than a flat search of as many
  moves could afford. Determinized playouts as in Whitehouse, Powley and
  Cowling 2011 ("Determinization and information set Monte Carlo tree
  search for the card game Dou Di Zhu"), which found determinized flat
  search hard to beat in this game.
* bids: strong's ``bid_search`` with the expert's larger budget.

The budget is in plies as strong's is (``Worlds``), so a seeded decision is
deterministic; ``ITERATIONS`` sizes it for a median well under half a second.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from typing import Final

from cardavia.bots import doudizhu_bots as db
from cardavia.bots.base import Budget
from cardavia.bots.determinize import view_seat
from cardavia.bots.doudizhu_heuristics import ASSETS, DdzSeen, hand_cost, minus, move_of, play_move_out
from cardavia.bots.models import SearchModel
from cardavia.games.cards import Card
from cardavia.games.doudizhu_moves import Move
from cardavia.games.engine import Action, View

EXTRA: Final = 6
"""Moves beyond strong's list and the best of each kind, cheapest hand left first."""
ITERATIONS: Final = 1800
"""Rollouts of ``db.PLIES`` plies per decision (strong: 600)."""
MODEL: Final = dataclasses.replace(db.MODEL, iterations=ITERATIONS)


def candidates(view: View, legal: Sequence[Action]) -> list[Action]:
    """Strong's candidates (basic's choice first), then the best move of each other kind, then the
    cheapest moves left; a peasant whose partner holds the trick keeps strong's list."""
    picked = db.candidates(view, legal)
    seen = DdzSeen.from_view(view)
    if db.partner_holds(seen):
        return picked
    chosen = set(picked)
    costed: list[tuple[float, int, Action, Move]] = []
    for action in legal:
        move = move_of(action)
        if move is not None and action not in chosen and move[0] not in ASSETS:
            costed.append((hand_cost(minus(seen.counts, move)), move[1], action, move))
    costed.sort(key=lambda c: (c[0], c[1]))
    kinds = {m[0] for a in picked if (m := move_of(a)) is not None}
    extra: list[Action] = []
    for _, _, action, move in costed:
        if move[0] not in kinds:
            kinds.add(move[0])
            extra.append(action)
    extra.extend([a for _, _, a, _ in costed if a not in extra][:EXTRA])
    if seen.table is not None:
        extra.extend(a for a in legal if (m := move_of(a)) is not None and m[0] in ASSETS and a not in chosen)
    return picked + list(dict.fromkeys(extra))


def halving_search(
    view: View,
    actions: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None,
) -> tuple[Action, list[int]]:
    """Successive halving over ``actions`` in the play: the best action and each one's worlds played.

    Every round gets an equal share of the budget in plies (``Worlds``), or
    of the time, and at least one world; a surviving action's mean is over all the worlds it
    played, which are the same for all the survivors of a round, so they are
    compared on the same cards. Ties go to the earlier action (basic's choice
    comes first).
    """
    seat = view_seat(view)
    moves = [move_of(action) for action in actions]
    totals, trials = [0.0] * len(actions), [0] * len(actions)
    alive = list(range(len(actions)))
    worlds = db.Worlds(view, rng, iterations, seconds)
    budget, deadline = worlds.budget, worlds.deadline
    rounds = max(1, math.ceil(math.log2(len(actions))))

    def play(placed: Mapping[str, list[Card]]) -> None:
        deal = db.rank_deal(view, placed)
        for i in alive:
            points, stake, plies = play_move_out(deal, moves[i], seat)
            totals[i] += db.play_value(points, stake)
            trials[i] += 1
            worlds.played += plies

    for number in range(rounds):
        share = (number + 1) / rounds
        worlds.budget = None if budget is None else int(budget * share)
        worlds.deadline = None if deadline is None or seconds is None else deadline - seconds * (1 - share)
        start = worlds.count
        for placed in worlds.placements():
            play(placed)
        if worlds.count == start:  # the budget was spent before this round: still one world for it
            play(worlds.reading.sample(worlds.hidden, rng))
            worlds.count += 1
        alive.sort(key=lambda i: (-totals[i] / trials[i], i))
        if number < rounds - 1:
            alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
    return actions[alive[0]], trials


class DouDizhuExpertBot(db.DouDizhuStrongBot):
    """Strong's reading of the bids and plays, with more moves searched by successive halving."""

    id = "expert"
    level = "expert"
    description = (
        "Reads the cards from the bids and plays, weighs many more moves than the strong bot and "
        "spends its playouts on the close ones."
    )

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        iterations, seconds = budget.iterations, budget.seconds
        if view["landlord"] is None:
            values = db.bid_search(view, legal, rng, iterations=iterations, seconds=seconds)
            return legal[max(range(len(legal)), key=values.__getitem__)]
        options = candidates(view, legal)
        if len(options) == 1:
            return options[0]
        return halving_search(view, options, rng, iterations=iterations, seconds=seconds)[0]

    @staticmethod
    def _model(game_id: str) -> SearchModel:
        return MODEL
