"""Search over the cards a seat cannot see: determinized flat Monte Carlo and ISMCTS.

Theory of operation
-------------------
The searching seat sees a view, not the state. Both searches work on
*determinizations*: full states consistent with the view (``determinize.py``:
the unseen cards dealt at random to the opponent's hand and the stock, built
through ``GAME.position``), and play them through the engine contract only
(``legal_actions``, ``apply_unchecked``, ``to_move``, ``result``, the log).

**Playouts.** From a position, every seat plays the game's basic policy
(``SearchModel.playout``) until the deal being searched is over: a match
game is searched deal by deal, the deal being over when the engine's log
grows or the match ends, and valued by its deal points
(``SearchModel.rewards``). A model may cut playouts at a ``horizon`` and
value the deal with an ``estimate`` instead (Scopa). In a share of
playouts the opponent plays at random instead of like basic: a mixture of
two opponent models, weighted by how the opponent has played so far
(``briscola_heuristics.py``), so the search neither trusts a weak opponent to
play well nor ignores that `basic` is predictable.

**Flat Monte Carlo** (``flat_rollouts``, the `strong` default for Scopa and
Briscola). Each iteration samples one determinization and plays it out once
after *every* root action, with the same playout randomness: the actions
are compared on the same deals (common random numbers), which removes most
of the luck of the deal from their differences. The decision is the action
with the best mean reward.

**ISMCTS** (``ismcts``, single-observer information-set MCTS). Each
iteration samples a determinization (or reuses the last one, when building
a world costs more than walking it twice: ``iterations_per_world``) and
walks down one tree shared by all of them. A node is the sequence of actions taken from the root; its
children are keyed by action, so a node gathers every determinization in
which that sequence was possible. Of the children legal in *this*
determinization it picks by UCB1, with the exploration term counting how
often a child was *available* rather than how often its parent was visited
(the subset-armed bandit of Cowling, Powley and Whitehouse, 2012); opponent
nodes are picked the same way with the opponent's reward, except in an
iteration whose opponent plays at random (the model's random share): then
its moves in the tree are random too, as in that playout. It expands one
untried action, plays out, and backs up each seat's reward along the path.
The decision is the most visited root action.

Every random choice comes from one generator the caller seeds, and an
iteration budget involves no clock, so a seeded search with an iteration
budget is deterministic; a seconds budget stops on ``time.perf_counter``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.bots.models import SearchModel
from cardavia.games.engine import Action, State, View


class Node:
    """Statistics of one action sequence: visits, summed reward of its chooser, availability."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


@dataclass(frozen=True, slots=True)
class RootStat:
    """What the search learned about one root action."""

    action: Action
    visits: int
    mean: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    action: Action
    iterations: int
    stats: tuple[RootStat, ...]


def ismcts(
    model: SearchModel,
    view: View,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None = None,
) -> SearchResult:
    """Search from ``view`` and return the most visited of ``legal`` (see the module notes)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if iterations is None and seconds is None:
        raise ValueError("a search needs an iteration or a time limit")
    deadline = None if seconds is None else time.perf_counter() + seconds
    determinizer = model.determinizer
    share = model.random_share(view, rng)
    root = Node()
    allowed = set(legal)
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        if done % model.iterations_per_world == 0:
            world = determinizer.determinize(view, rng)
        _iterate(model, root, world, allowed, rng, share=share)
        done += 1
    return _decide(root, legal, done)


def _iterate(
    model: SearchModel,
    root: Node,
    state: State[Any],
    allowed: set[Action],
    rng: random.Random,
    *,
    share: float,
) -> None:
    root_deals = len(state.log)
    searcher = state.to_move
    assert searcher is not None
    c = model.exploration
    node = root
    path: list[tuple[Node, int]] = []
    at_root = True
    randomly = random_seats(share, searcher, state.seats, rng)
    while not model.deal_over(state, root_deals):
        mover = state.to_move
        assert mover is not None
        legal = state.legal_actions(mover)
        if at_root:
            legal = [a for a in legal if a in allowed]
            at_root = False
        children = node.children
        if mover in randomly:
            # This iteration's opponent plays at random, in the tree as in the playout.
            action = legal[rng.randrange(len(legal))]
            for other in legal:
                if other in children:
                    children[other].avail += 1
            child = children.get(action)
            if child is None:
                child = children[action] = Node()
                child.avail = 1
                path.append((child, mover))
                state = state.apply_unchecked(action)[0]
                break
            path.append((child, mover))
            node = child
            state = state.apply_unchecked(action)[0]
            continue
        untried: list[Action] = []
        best: Node | None = None
        best_action: Action | None = None
        best_score = -math.inf
        for action in legal:
            child = children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.avail += 1
            score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best_score, best, best_action = score, child, action
        if untried:
            action = untried[rng.randrange(len(untried))]
            child = Node()
            child.avail = 1
            children[action] = child
            path.append((child, mover))
            state = state.apply_unchecked(action)[0]
            break
        assert best is not None
        assert best_action is not None
        path.append((best, mover))
        node = best
        state = state.apply_unchecked(best_action)[0]
    rewards = playout(model, state, root_deals, rng, randomly)
    for child, mover in path:
        child.visits += 1
        child.total += rewards[mover]


def random_seats(share: float, searcher: int, seats: int, rng: random.Random) -> frozenset[int]:
    """The seats that play at random in one playout: the others, ``share`` of the time."""
    if share and rng.random() < share:
        return frozenset(s for s in range(seats) if s != searcher)
    return frozenset()


def playout(
    model: SearchModel,
    state: State[Any],
    root_deals: int,
    rng: random.Random,
    randomly: frozenset[int] = frozenset(),
) -> list[float]:
    """Play on with the model's playout policy (``randomly``: seats that play at random instead).

    Returns each seat's reward at the deal's end, or the estimate at the horizon.
    """
    finished = model.finish_deal(state, root_deals, rng, randomly)
    if finished is not None:
        return finished
    horizon = model.horizon if model.estimate is not None else None
    plies = 0
    while not model.deal_over(state, root_deals):
        if horizon is not None and plies >= horizon:
            return model.estimated_rewards(state)
        mover = state.to_move
        assert mover is not None
        legal = state.legal_actions(mover)
        if mover in randomly and len(legal) > 1:
            action = legal[rng.randrange(len(legal))]
        else:
            action = model.playout(state, mover, legal, rng)
        state = state.apply_unchecked(action)[0]
        plies += 1
    return model.rewards(state, root_deals)


def _decide(root: Node, legal: Sequence[Action], done: int) -> SearchResult:
    stats = []
    for action in legal:
        child = root.children.get(action)
        if child is None or child.visits == 0:
            stats.append(RootStat(action, 0, 0.0))
        else:
            stats.append(RootStat(action, child.visits, child.total / child.visits))
    best = max(stats, key=lambda s: (s.visits, s.mean))
    return SearchResult(best.action, done, tuple(stats))


def flat_rollouts(
    model: SearchModel,
    view: View,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None = None,
    sample: Callable[[random.Random], State[Any]] | None = None,
    share: float | None = None,
) -> SearchResult:
    """Determinized flat Monte Carlo with common random numbers.

    Each sampled determinization is played out once after *every* root action,
    with the same playout randomness, so the actions are compared on the same
    deals; ``iterations`` counts playouts. ``sample`` draws the worlds (default:
    uniformly, the model's determinizer) and ``share`` is the opponent's random
    share (default: the model's reading of the view): an expert passes its own.
    """
    if iterations is None and seconds is None:
        raise ValueError("a search needs an iteration or a time limit")
    deadline = None if seconds is None else time.perf_counter() + seconds
    determinizer = model.determinizer
    if share is None:
        share = model.random_share(view, rng)
    totals = [0.0] * len(legal)
    worlds = 0
    done = 0
    seat = view["seat"]
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        world = determinizer.determinize(view, rng) if sample is None else sample(rng)
        root_deals = len(world.log)
        salt = rng.getrandbits(64)
        randomly = random_seats(share, seat, world.seats, rng)
        for i, action in enumerate(legal):
            state = world.apply_unchecked(action)[0]
            totals[i] += playout(model, state, root_deals, random.Random(salt), randomly)[seat]
        worlds += 1
        done += len(legal)
    stats = tuple(RootStat(a, worlds, totals[i] / max(worlds, 1)) for i, a in enumerate(legal))
    best = max(stats, key=lambda s: s.mean)
    return SearchResult(best.action, done, stats)
