"""Dou Dizhu bots: determinization, what the bids and plays reveal, and the `strong` search.

Theory of operation
-------------------
The `basic` policy and the hand plans it reads are in
``doudizhu_heuristics.py``; suits never matter, so everything here works on
rank counts and the engine's rank-level moves too.

``strong`` samples the unseen cards (the deck minus its hand and all plays)
into the other hands in their sizes, and the kitty while bidding; the
revealed kitty's unplayed cards are pinned in the landlord's hand. Passing
is always allowed, so play reveals no void, and bids force nothing; but a
player who bids and plays like ``basic`` shows its cards by doing so, so the
worlds come from a walk that favours those in which the others' bids and
plays are what ``basic`` would have made with them (``Reading``).

It compares a few candidate moves by flat Monte Carlo, every candidate played
out with ``basic`` all round on the same worlds. The framework's
``flat_rollouts`` would try every legal move (hundreds on a lead) and build
a ``Play`` per move at every playout step, so the rollouts here run on rank
counts (``play_out``), checked against the engine by the tests; in the play
a sampled world is not even built as an engine state (``rank_deal``: the same
choices, a play decision about a tenth quicker). It bids by
comparing, in points on the same worlds, the pass and every legal bid with
the auction finished by ``basic`` (``bid_search``), so it takes a deal when
holding it beats defending against whoever would take it instead. A
peasant whose partner holds the trick (the landlord passed on it) searches
only the pass and the moves that put it out or next to it: overtaking a
partner otherwise hands the lead from one peasant to the other at a cost.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.bots.base import Budget
from cardavia.bots.basic_bot import BasicBot
from cardavia.bots.determinize import (
    Determinizer,
    HiddenPlaces,
    is_told,
    sample_places,
    view_seat,
)
from cardavia.bots.doudizhu_heuristics import (
    ASSETS,
    DESCRIPTION,
    POLICY,
    DdzSeen,
    RankDeal,
    basic_bid,
    basic_follow,
    basic_lead,
    choose_move,
    hand_cost,
    minus,
    move_of,
    plan,
    play_move_out,
    play_out,
    wanted_bid,
)
from cardavia.bots.models import SearchModel
from cardavia.bots.strong_bot import GameBots, StrongBot
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import DECK_54, Card, format_cards, parse_cards
from cardavia.games.doudizhu import GAME, Bid, DouDizhuState, Pass, Play
from cardavia.games.doudizhu_moves import NRANKS, Counts, Move
from cardavia.games.engine import Action, View

GAME_ID: Final = "doudizhu"


# ----------------------------------------------------------- determinization
def doudizhu_hidden(view: View) -> HiddenPlaces:
    """Unseen: the deck minus own hand and all plays; to the other hands (and the kitty while bidding)."""
    seat = view_seat(view)
    seen = set(parse_cards(view["hand"]))
    played = [parse_cards(p) for p in view["played"]]
    for cards in played:
        seen.update(cards)
    unseen = tuple(c for c in DECK_54 if c not in seen)
    sizes = {f"hand{s}": view["hand_counts"][s] for s in range(3) if s != seat}
    known: dict[str, frozenset[Card]] = {}
    landlord = view["landlord"]
    if landlord is None:
        sizes["kitty"] = 3
    elif landlord != seat:
        known[f"hand{landlord}"] = frozenset(parse_cards(view["kitty"])) - set(played[landlord])
    return HiddenPlaces(unseen, sizes, known=known)


def doudizhu_build(view: View, placed: Mapping[str, list[Card]]) -> DouDizhuState:
    """The position text of the view with the placed cards, read back by ``GAME.position``."""
    seat = view_seat(view)
    hands = [placed[f"hand{s}"] if s != seat else parse_cards(view["hand"]) for s in range(3)]
    landlord = view["landlord"]
    kitty = placed["kitty"] if landlord is None else parse_cards(view["kitty"])
    table = view["table"]
    text = "\n".join(
        [
            "game: doudizhu",
            *(f"{key}: {view[key]}" for key in ("deals", "deal", "dealer", "passes", "multiplier", "bombs")),
            f"rockets: {view['rockets']}",
            f"totals: {' '.join(map(str, view['totals']))}",
            f"phase: {'bidding' if landlord is None else 'play'}",
            f"bids: {' '.join(str(b['bid']) for b in view['bids']) or '-'}",
            f"landlord: {'-' if landlord is None else landlord}",
            f"kitty: {format_cards(kitty)}",
            f"hands: {' / '.join(format_cards(h) for h in hands)}",
            f"played: {' / '.join(format_cards(parse_cards(p)) for p in view['played'])}",
            f"plays: {' '.join(map(str, view['plays']))}",
            f"turn: {view['to_move']}",
            f"table: {table['combo'] + ': ' + format_cards(parse_cards(table['cards'])) if table else '-'}",
            f"table_seat: {table['seat'] if table else '-'}",
        ]
    )
    return GAME.position(text)


DETERMINIZER: Final = Determinizer(doudizhu_hidden, doudizhu_build)


# ------------------------------------------- what the bids and plays suggest
@dataclass(frozen=True, slots=True)
class PastMove:
    """One play-phase decision another seat made this deal, as ``basic`` would have seen it.

    Its hand then was its hand now plus ``later[seat]``: every card it played
    from that decision on (likewise for the others, which a lead reads).
    """

    seat: int
    table: Move | None
    table_seat: int | None
    sizes: tuple[int, int, int]
    later: tuple[Counts, Counts, Counts]
    move: Move | None
    """What it did: a move, or None for a pass."""


def past_moves(view: View) -> list[PastMove]:
    """The play-phase decisions of the deal so far (every seat's), oldest first."""
    landlord = view["landlord"]
    if landlord is None:
        return []
    entries = [e for e in view["history"] if "bid" not in e]
    sizes = [17, 17, 17]
    sizes[landlord] = 20
    table: Move | None = None
    table_seat: int | None = None
    passes = 0
    steps: list[tuple[int, Move | None, int | None, tuple[int, int, int], Move | None]] = []
    for entry in entries:
        seat = entry["seat"]
        move = None if entry.get("pass") else read_move(entry["combo"], entry["cards"])
        steps.append((seat, table, table_seat, (sizes[0], sizes[1], sizes[2]), move))
        if move is None:
            passes += 1
            if passes == 2:
                table, table_seat, passes = None, None, 0
        else:
            table, table_seat, passes = move, seat, 0
            sizes[seat] -= len(move[2])
    later = [[0] * NRANKS for _ in range(3)]
    moves: list[PastMove] = []
    for seat, table, table_seat, before, move in reversed(steps):
        if move is not None:
            for slot in move[2]:
                later[seat][slot >> 2] += 1
        frozen = (tuple(later[0]), tuple(later[1]), tuple(later[2]))
        moves.append(PastMove(seat, table, table_seat, before, frozen, move))
    moves.reverse()
    return moves


def read_move(combo: str, codes: Sequence[str]) -> Move:
    """The rank-level move of a play given as its combination and card codes."""
    ranks = dm.card_counts(parse_cards(codes))
    return next(m for m in dm.classify(ranks) if m[0] == combo)


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


class Reading:
    """Weighs worlds by the others' bids and plays: would ``basic`` have done the same with these cards?

    Nothing a player does is a hard constraint (anyone may bid or play
    anything legal), so no world is refused: worlds come from a Metropolis
    walk over the placements of the unseen cards (swap two cards between two
    places) whose weight falls by ``exp(-LAMBDA)`` for each difference from
    what ``basic`` would have done (``misfit``): ``BURN`` steps before the
    first world, ``STEPS`` between worlds. Against players who bid by hand
    strength and play out their plans this puts the cards where they are; a
    seat that plays otherwise fits every world about as badly, so it moves
    the walk little. A peasant reads the landlord's plays (its partner's
    hand is then what is left); the landlord reads both peasants'.
    """

    def __init__(self, view: View) -> None:
        self.seat = view_seat(view)
        self.bids = [(b["seat"], b["bid"]) for b in view["bids"]]
        landlord = view["landlord"]
        self.landlord, self.bid = landlord, view["bid"]
        self.played = [dm.card_counts(parse_cards(p)) for p in view["played"]]
        if landlord is not None:
            kitty = dm.card_counts(parse_cards(view["kitty"]))
            self.played[landlord] = tuple(p - k for p, k in zip(self.played[landlord], kitty, strict=True))
        self.own = dm.card_counts(parse_cards(view["hand"]))
        enemies = {landlord} if landlord not in (None, self.seat) else set(range(3)) - {self.seat}
        self.moves = [m for m in past_moves(view) if m.seat in enemies]
        self.active = bool(self.moves) or any(s != self.seat for s, _ in self.bids)
        self.state: dict[str, list[Card]] | None = None
        self.fit = 0
        self.checked = 0
        """Hands judged so far (a bid or a past move replayed): the reading's share of a search budget."""

    def misfit(self, placed: Mapping[str, list[Card]], limit: int) -> int:
        """How far the others' bids and plays are from ``basic``'s with the cards ``placed`` gives them
        (counting stops at ``limit``)."""
        hands = [self.own, self.own, self.own]
        for seat in range(3):
            if seat != self.seat:
                hands[seat] = dm.card_counts(placed[f"hand{seat}"])
        wants: dict[int, int] = {}
        current = misfit = 0
        for seat, bid in self.bids:
            if seat != self.seat:
                if seat not in wants:
                    self.checked += 1
                    wants[seat] = wanted_bid(_plus(hands[seat], self.played[seat]))
                misfit += abs((wants[seat] if wants[seat] > current else 0) - bid)
            current = max(current, bid)
        for past in self.moves:
            if misfit >= limit:
                break
            self.checked += 1
            seat = past.seat
            own = _plus(hands[seat], past.later[seat])
            if past.table is None:
                a, b = (seat + 1) % 3, (seat + 2) % 3
                others = _plus(_plus(hands[a], past.later[a]), _plus(hands[b], past.later[b]))
                seen = DdzSeen(seat, self.landlord, self.bid, own, past.sizes, None, None, others)
                choice: Move | None = basic_lead(seen)
            else:
                seen = DdzSeen(
                    seat, self.landlord, self.bid, own, past.sizes, past.table, past.table_seat, ()
                )
                choice = basic_follow(seen, dm.generate(own, past.table))
            if choice != past.move:
                misfit += 1
        return misfit

    def sample(self, hidden: HiddenPlaces, rng: random.Random) -> dict[str, list[Card]]:
        """The next world of the walk (a plain random placement when nobody has bid or played, or when
        the placement is given: ``determinize.told``)."""
        if not self.active or is_told():
            return sample_places(hidden, rng)
        steps = STEPS
        if self.state is None:
            self.state = sample_places(hidden, rng)
            self.fit = self.misfit(self.state, 1 << 30)
            steps = BURN
        state = self.state
        pinned = {c for cards in hidden.known.values() for c in cards}
        places = [p for p in state if any(c not in pinned for c in state[p])]
        for _ in range(steps if len(places) > 1 else 0):
            a, b = rng.sample(places, 2)
            i, j = rng.randrange(len(state[a])), rng.randrange(len(state[b]))
            x, y = state[a][i], state[b][j]
            if x in pinned or y in pinned or x.rank == y.rank:
                continue  # no move, or one no player could tell from the original
            new = dict(state)
            new[a] = [*state[a][:i], y, *state[a][i + 1 :]]
            new[b] = [*state[b][:j], x, *state[b][j + 1 :]]
            misfit = self.misfit(new, self.fit + 4)
            if misfit <= self.fit or rng.random() < math.exp(-LAMBDA * (misfit - self.fit)):
                state, self.fit = new, misfit
        self.state = state
        return {p: list(cards) for p, cards in state.items()}


LAMBDA: Final = 3.0
"""How much a difference from ``basic`` weighs: a world with one more is exp(3) = 20 times less likely."""
BURN: Final = 100
STEPS: Final = 10
"""Walk steps before the first world and between two worlds."""


# -------------------------------------------------------------------- search
def rollout(world: DouDizhuState, action: Bid | Pass | Play, seat: int) -> tuple[int, int, int]:
    """Play ``action`` in ``world``, then the deal out with ``basic`` all round: ``seat``'s points, its
    stake (the bid, doubled for the landlord; 1 for a deal thrown in, which scores nothing) and the
    plies played.

    The bidding goes through the engine (the kitty, a throw-in); the play runs
    on rank counts alone (``play_out``), which is what the basic policy reads.
    """
    deal, thrown = len(world.log), len(world.log[-1].redeals)
    state = world.apply_unchecked(action)[0]
    plies = 1
    if len(state.log) > deal or state.result is not None:
        return _scored(state.log[deal - 1].score, seat, plies)  # the action ended the deal
    while state.landlord is None:
        if len(state.log[-1].redeals) > thrown:
            return 0, 1, plies
        plies += 1
        mover = state.turn
        state = state.apply_unchecked(Bid(basic_bid(DdzSeen.from_state(state, mover, unseen=False))))[0]
    return play_out(state, seat, plies)


def _scored(score: Mapping[str, Any] | None, seat: int, plies: int) -> tuple[int, int, int]:
    assert score is not None
    landlord, bid = score["detail"]["landlord"], score["detail"]["bid"]
    return score["points"][seat], bid * (2 if seat == landlord else 1), plies


def rank_deal(view: View, placed: Mapping[str, list[Card]]) -> RankDeal:
    """The play-phase world ``doudizhu_build`` would give, on rank counts: a playout reads no more."""
    seat, table = view_seat(view), view["table"]
    hands = [parse_cards(view["hand"]) if s == seat else placed[f"hand{s}"] for s in range(3)]
    return RankDeal(
        view["landlord"], view["bid"], [dm.card_counts(h) for h in hands], list(view["hand_counts"]),
        list(view["plays"]), view["multiplier"], read_move(table["combo"], table["cards"]) if table else None,
        table["seat"] if table else None, view["passes"], view["to_move"],
    )  # fmt: skip


def play_value(points: int, stake: int) -> float:
    """A rollout's value: part winning at all, part the score in units of the stake."""
    return WIN_WEIGHT * ((points > 0) - (points < 0)) + (1.0 - WIN_WEIGHT) * points / stake


def candidates(view: View, legal: Sequence[Action]) -> list[Action]:
    """The legal actions of ``candidate_moves``, in its order."""
    seen = DdzSeen.from_view(view)
    plays = [(m, a) for a in legal if (m := move_of(a)) is not None]
    by_key = {(m[0], m[2]): a for m, a in plays}
    passing = next((a for a in legal if isinstance(a, Pass)), None)
    follows = [m for m, _ in plays] if seen.table is not None else None
    picked = (passing if m is None else by_key.get((m[0], m[2])) for m in candidate_moves(seen, follows))
    return [a for a in picked if a is not None]  # candidate_moves names each move once


def candidate_moves(seen: DdzSeen, moves: Sequence[Move] | None) -> list[Move | None]:
    """Moves worth searching (None: the pass), basic's choice first: the plan's groups and the extreme
    singles on a lead; the cheapest follows, the highest, a pass and the lowest bomb on a follow; when
    the partner holds the trick, the pass and only the moves that put this hand out or next to it.
    ``moves``: the legal follows (None on a lead)."""
    picked: list[Move | None] = [choose_move(seen, moves)]
    if seen.table is None:
        options = list(plan(seen.counts))
        held = [r for r in range(NRANKS) if seen.counts[r]]
        options.extend((dm.SINGLE[held[0]], dm.SINGLE[held[-1]]))
    elif partner_holds(seen):
        # The partner wins this trick if I pass: taking it over only pays if it puts me out or next to.
        total = sum(seen.counts)
        options = [
            m
            for m in moves or ()
            if len(m[2]) == total or (m[0] not in ASSETS and hand_cost(minus(seen.counts, m)) <= 1.0)
        ]
        picked.append(None)
    else:
        plain = [m for m in moves or () if m[0] not in ASSETS]
        options = sorted(plain, key=lambda m: (hand_cost(minus(seen.counts, m)), m[1]))[:4]
        options.extend(plain[-1:])
        options.extend(sorted((m for m in moves or () if m[0] in ASSETS), key=lambda m: m[1])[:1])
        picked.append(None)
    picked.extend(options)
    return list(dict.fromkeys(picked))


def partner_holds(seen: DdzSeen) -> bool:
    """A peasant's partner played the table's move and the landlord has passed on it."""
    landlord, holder = seen.landlord, seen.table_seat
    if landlord is None or holder is None or landlord in (seen.seat, holder):
        return False
    return (holder + 1) % 3 == landlord


class Worlds:
    """The sampled worlds of one decision, until its budget in plies (or its time) is spent.

    Callers add the plies their rollouts played to ``played``; at least two
    worlds are always given. A ply costs more the more cards are in play (the
    basic policy plans whole hands), and a rollout from the bidding judges
    every hand's strength first.
    """

    def __init__(self, view: View, rng: random.Random, iterations: int | None, seconds: float | None) -> None:
        self.view, self.rng = view, rng
        self.hidden, self.reading = doudizhu_hidden(view), Reading(view)
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.budget = None if iterations is None else iterations * PLIES
        self.weight = (sum(view["hand_counts"]) + 10) / 34 * (1.0 if view["landlord"] is not None else 1.6)
        self.played = self.count = 0

    def spent(self) -> float:
        return self.played * self.weight + self.count * WORLD_PLIES + self.reading.checked * CHECK_PLIES

    def __iter__(self) -> Iterator[DouDizhuState]:
        for placed in self.placements():
            yield doudizhu_build(self.view, placed)

    def placements(self) -> Iterator[dict[str, list[Card]]]:
        """The worlds as placements of the unseen cards: a play-phase search needs no engine state."""
        while self.count < 2 or (
            (self.budget is None or self.spent() < self.budget)
            and (self.deadline is None or time.perf_counter() < self.deadline)
        ):
            yield self.reading.sample(self.hidden, self.rng)
            self.count += 1


def flat_search(
    view: View,
    actions: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None,
) -> tuple[Action, list[float]]:
    """Determinized flat Monte Carlo: every action played out on the same sampled worlds.

    ``iterations`` counts rollouts of ``PLIES`` plies: the budget is in plies
    played (a ply with 51 cards in play counting twice one with 24), worlds
    built and hands judged by the ``Reading``, so a seeded search is
    deterministic and a long deal ahead buys fewer worlds instead of more
    time. At least two worlds are always played.
    """
    seat = view_seat(view)
    totals = [0.0] * len(actions)
    worlds = Worlds(view, rng, iterations, seconds)
    if view["landlord"] is None:
        for world in worlds:
            for i, action in enumerate(actions):
                assert isinstance(action, Bid | Pass | Play)
                points, stake, plies = rollout(world, action, seat)
                totals[i] += play_value(points, stake)
                worlds.played += plies
    else:  # the same rollouts on rank counts, without building each world's engine state
        moves = [move_of(action) for action in actions]
        for placed in worlds.placements():
            deal = rank_deal(view, placed)
            for i, move in enumerate(moves):
                points, stake, plies = play_move_out(deal, move, seat)
                totals[i] += play_value(points, stake)
                worlds.played += plies
    means = [t / worlds.count for t in totals]
    best = max(range(len(actions)), key=means.__getitem__)
    return actions[best], means


def bid_search(
    view: View,
    actions: Sequence[Action],
    rng: random.Random,
    *,
    iterations: int | None,
    seconds: float | None,
) -> list[float]:
    """Each bid's (or the pass's) mean points on the same sampled deals, the auction finished by ``basic``.

    Unlike a play, a bid is judged by points, not ``play_value``: what it
    decides is who holds the deal and at what stake, and the stake is the
    score's own unit. The play after the auction depends only on who won it
    (``basic`` never reads the bid), so a world plays out at most once per
    landlord and the options share those playouts: comparing a pass with
    each bid costs little more than judging one.
    """
    seat = view_seat(view)
    totals = [0.0] * len(actions)
    worlds = Worlds(view, rng, iterations, seconds)
    for world in worlds:
        worlds.played += len(actions)  # the auctions
        per_unit: dict[int, float] = {}
        for i, action in enumerate(actions):
            assert isinstance(action, Bid)
            state = auction(world, action)
            if state is None:
                continue  # thrown in: no score
            landlord = state.landlord
            assert landlord is not None
            if landlord not in per_unit:
                points, _, plies = play_out(state, seat)
                per_unit[landlord] = points / state.bid
                worlds.played += plies
            totals[i] += per_unit[landlord] * state.bid
    return [t / worlds.count for t in totals]


def auction(world: DouDizhuState, action: Bid) -> DouDizhuState | None:
    """The position after ``action`` once ``basic`` has finished the auction (None: thrown in)."""
    thrown = len(world.log[-1].redeals)
    state = world.apply_unchecked(action)[0]
    while state.landlord is None:
        if len(state.log[-1].redeals) > thrown:
            return None
        state = state.apply_unchecked(Bid(basic_bid(DdzSeen.from_state(state, state.turn, unseen=False))))[0]
    return state


PLIES: Final = 20
"""Plies one rollout counts for in the budget (a deal from its first lead is about 25)."""
WORLD_PLIES: Final = 15
"""What sampling and building one world costs, in plies."""
CHECK_PLIES: Final = 6
"""What replaying one past move with ``basic`` costs, in plies (it plans a whole hand afresh)."""
WIN_WEIGHT: Final = 0.5
"""Share of a rollout's value that is winning at all, against its score (bombs make scores noisy)."""
MODEL: Final = SearchModel(GAME_ID, scale=4.0, win_weight=0.5, iterations=600, algorithm="flat")
"""``iterations``: rollouts of ``PLIES`` plies per decision. The generic ``StrongBot`` does not fit
(it would search every legal move): ``DouDizhuStrongBot`` is the `strong` level."""


# ---------------------------------------------------------------------- bots
class DouDizhuBasicBot(BasicBot):
    """The `basic` Dou Dizhu player: the generic basic bot with this game's policy."""

    description = DESCRIPTION
    policy = POLICY


class DouDizhuStrongBot(StrongBot):
    """Flat Monte Carlo over candidate moves on sampled deals; bids by what taking the deal is worth."""

    description = "Bids and plays by playing out sampled deals of the cards it cannot see."

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        iterations, seconds = budget.iterations, budget.seconds
        if view["landlord"] is None:
            # Bid by what each bid, and the pass, is worth in points on sampled deals.
            values = bid_search(view, legal, rng, iterations=iterations, seconds=seconds)
            return legal[max(range(len(legal)), key=values.__getitem__)]
        options = candidates(view, legal)
        if len(options) == 1:
            return options[0]
        return flat_search(view, options, rng, iterations=iterations, seconds=seconds)[0]

    @staticmethod
    def _model(game_id: str) -> SearchModel:
        return MODEL


BOTS: Final = GameBots(DouDizhuBasicBot, DouDizhuStrongBot, DETERMINIZER, MODEL)
"""This game's own bot classes, for the bot registry."""
