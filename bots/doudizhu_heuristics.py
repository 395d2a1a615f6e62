"""Dou Dizhu's `basic` policy: hand plans, what a seat sees, bids and plays a casual player makes.

Theory of operation
-------------------
Suits never matter, so all of this works on rank counts and the engine's
rank-level moves (``doudizhu_moves``). ``plan`` splits a hand the way a
player would play it out (rocket and bombs whole, airplanes, the straight
that saves most turns, pair sequences, triples carrying the lowest singles
or pairs) and ``hand_cost`` counts the turns it needs, high groups less.

``basic`` bids by hand strength, leads the lowest group of its plan (not a
single into an enemy holding one card), follows an enemy only when that
costs its plan nothing (or the enemy is near the end), bombs only to stop an
enemy or to finish, and never beats its partner. The `strong` search
(``doudizhu_bots.py``) plays its rollouts with these rank-level functions
(``play_out``, on a ``RankDeal``: the engine's rules and scoring, no cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from cardavia.bots.basic_bot import BasicPolicy
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import parse_cards
from cardavia.games.doudizhu import Bid, DouDizhuState, Pass, Play
from cardavia.games.doudizhu_moves import ACE, BLACK, NRANKS, RED, TWO, Counts, Move
from cardavia.games.engine import Action, State, View

FULL: Final = tuple(4 if r < BLACK else 1 for r in range(NRANKS))
"""Cards of each rank in the deck."""
ASSETS: Final = frozenset({"bomb", "rocket"})


# ---------------------------------------------------------------- hand plans
def _runs(c: Sequence[int], need: int, exact: bool) -> list[tuple[int, int]]:
    """Maximal runs (low, high) of ranks 3..A with ``need`` cards (exactly, or at least)."""
    runs: list[tuple[int, int]] = []
    start = -1
    for r in range(ACE + 2):
        ok = r <= ACE and (c[r] == need if exact else c[r] >= need)
        if ok and start < 0:
            start = r
        elif not ok and start >= 0:
            runs.append((start, r - 1))
            start = -1
    return runs


def _best_straight(c: Sequence[int]) -> tuple[int, int] | None:
    """The straight that saves most turns: singles it uses up, less the pairs and triples it breaks."""
    best, best_score = None, 0.0
    for low, high in _runs(c, 1, exact=False):
        for a in range(low, high - 3):
            score = -1.0
            for b in range(a, high + 1):
                n = c[b]
                score += 1.0 if n == 1 else (-0.3 if n == 2 else -0.6)
                if b - a >= 4 and score > best_score:
                    best, best_score = (a, b), score
    return best


def _with_wings(combo: str, core: Move, wings: Sequence[int], per: int) -> Move:
    slots = tuple(sorted(core[2] + tuple(s for r in wings for s in dm.SL[r][per])))
    return (combo, core[1], slots)


def _carry(core: list[int], singles: list[int], pairs: list[int]) -> tuple[Move, list[int], list[int]]:
    """A triple or an airplane core with the lowest singles or pairs (not twos or jokers) as wings."""
    k, top = len(core), core[-1]
    cheap_singles = [r for r in singles if r < TWO]
    cheap_pairs = [r for r in pairs if r < TWO]
    if len(cheap_singles) >= k and (len(cheap_pairs) < k or cheap_singles[k - 1] <= cheap_pairs[k - 1]):
        wings = cheap_singles[:k]
        rest = [r for r in singles if r not in wings]
        if k == 1:
            return dm.TRIPLE1[top][wings[0]], rest, pairs
        return _with_wings("airplane1", dm.CHAINS["airplane"][top, k], wings, 1), rest, pairs
    if len(cheap_pairs) >= k and k <= 4:
        wings = cheap_pairs[:k]
        rest = [r for r in pairs if r not in wings]
        if k == 1:
            return dm.TRIPLE2[top][wings[0]], singles, rest
        return _with_wings("airplane2", dm.CHAINS["airplane"][top, k], wings, 2), singles, rest
    return (dm.TRIPLE[top] if k == 1 else dm.CHAINS["airplane"][top, k]), singles, pairs


@lru_cache(maxsize=1 << 12)
def plan(counts: Counts) -> tuple[Move, ...]:
    """The combinations to play a hand out with (see the module notes), lowest key first."""
    c = list(counts)
    groups: list[Move] = []
    if c[BLACK] and c[RED]:
        groups.append(dm.ROCKET)
        c[BLACK] = c[RED] = 0
    if 4 in c:
        for r in range(BLACK):
            if c[r] == 4:
                groups.append(dm.BOMB[r])
                c[r] = 0
    carriers: list[list[int]] = []
    if c.count(3) >= 2:
        for low, end in _runs(c, 3, exact=True):
            if end > low:
                high = min(end, low + 4)
                carriers.append(list(range(low, high + 1)))
                for r in range(low, high + 1):
                    c[r] = 0
    for _ in range(3):
        straight = _best_straight(c) if ACE + 1 - c[: ACE + 1].count(0) >= 5 else None
        if straight is None:
            break
        low, high = straight
        groups.append(dm.CHAINS["straight"][high, high - low + 1])
        for r in range(low, high + 1):
            c[r] -= 1
    if c.count(2) >= 3:
        for low, end in _runs(c, 2, exact=True):
            if end - low >= 2:
                high = min(end, low + 9)
                groups.append(dm.CHAINS["pairs"][high, high - low + 1])
                for r in range(low, high + 1):
                    c[r] = 0
    carriers.extend([r] for r in range(BLACK) if c[r] == 3)
    for core in carriers:
        for r in core:
            c[r] = 0
    singles = [r for r in range(NRANKS) if c[r] == 1]
    pairs = [r for r in range(BLACK) if c[r] == 2]
    for core in sorted(carriers):
        group, singles, pairs = _carry(core, singles, pairs)
        groups.append(group)
    groups.extend(dm.PAIR[r] for r in pairs)
    groups.extend(dm.SINGLE[r] for r in singles)
    groups.sort(key=lambda m: (m[1], -len(m[2])))
    return tuple(groups)


GROUP_COST: Final = tuple(1.0 if r <= 9 else (0.8, 0.6, 0.4, 0.25, 0.2)[r - 10] for r in range(NRANKS))
"""Cost of one group by its key: a queen-high group is a full turn, a two or a joker nearly wins itself."""


@lru_cache(maxsize=1 << 12)
def hand_cost(counts: Counts) -> float:
    """Roughly the turns a hand needs to be played out (lower is better)."""
    return sum(-0.5 if m[0] in ASSETS else GROUP_COST[m[1]] for m in plan(counts))


def minus(counts: Counts, move: Move) -> Counts:
    """The counts left after playing ``move``."""
    c = list(counts)
    for s in move[2]:
        c[s >> 2] -= 1
    return tuple(c)


# -------------------------------------------------------------- what is seen
@dataclass(frozen=True, slots=True)
class DdzSeen:
    """What one seat sees: all the basic policy reads."""

    seat: int
    landlord: int | None
    bid: int
    counts: Counts
    sizes: tuple[int, int, int]
    table: Move | None
    table_seat: int | None
    unseen: Counts
    """Rank counts of the cards in the other two hands (and the kitty while bidding)."""

    @classmethod
    def from_view(cls, view: View) -> DdzSeen:
        counts = dm.card_counts(parse_cards(view["hand"]))
        played = dm.card_counts(parse_cards([c for p in view["played"] for c in p]))
        table, sizes = view["table"], view["hand_counts"]
        move = None
        if table:
            ranks = dm.card_counts(parse_cards(table["cards"]))
            move = next(m for m in dm.classify(ranks) if m[0] == table["combo"])
        unseen = tuple(f - m - p for f, m, p in zip(FULL, counts, played, strict=True))
        table_seat = table["seat"] if table else None
        hand_sizes = (sizes[0], sizes[1], sizes[2])
        return cls(view["seat"], view["landlord"], view["bid"], counts, hand_sizes, move, table_seat, unseen)

    @classmethod
    def from_state(cls, state: State[Any], seat: int, *, unseen: bool = True) -> DdzSeen:
        """The same as ``from_view(state.view(seat))``, read without building the view.

        ``unseen=False`` leaves ``unseen`` empty (only a lead reads it): playouts save the sum.
        """
        assert isinstance(state, DouDizhuState)
        counts = state.counts
        others: Counts = ()
        if unseen:
            a, b = counts[(seat + 1) % 3], counts[(seat + 2) % 3]
            total = [x + y for x, y in zip(a, b, strict=True)]
            if state.landlord is None:
                for card in state.kitty:
                    total[dm.RANK_OF[card]] += 1
            others = tuple(total)
        sizes = (len(state.hands[0]), len(state.hands[1]), len(state.hands[2]))
        return cls(
            seat, state.landlord, state.bid, counts[seat], sizes, state.table, state.table_seat, others
        )

    def enemies(self) -> list[int]:
        if self.landlord is None:
            return []
        return [s for s in range(3) if s != self.seat] if self.seat == self.landlord else [self.landlord]


# -------------------------------------------------------------- basic policy
def strength(counts: Counts) -> float:
    """Bidding strength: jokers, twos, aces and bombs, less a turn-heavy hand."""
    score = 4.0 * counts[RED] + 3.0 * counts[BLACK] + 2.0 * counts[TWO] + 0.5 * counts[ACE]
    score += sum(5.0 for r in range(BLACK) if counts[r] == 4)
    return score - 0.5 * max(hand_cost(counts) - 6.0, 0.0)


BID_AT: Final = (8.5, 7.0, 6.0)
"""Strength needed to bid 3, 2 and 1."""


def wanted_bid(counts: Counts) -> int:
    """The highest bid a casual player would make with these 17 cards (0: none)."""
    score = strength(counts)
    return next((3 - i for i, need in enumerate(BID_AT) if score >= need), 0)


def basic_bid(seen: DdzSeen) -> int:
    """The bid a casual player makes (0 passes): what it wants, if that is a raise."""
    want = wanted_bid(seen.counts)
    return want if want > seen.bid else 0


def basic_lead(seen: DdzSeen) -> Move:
    """Lead: go out if one move can, else the lowest group of the plan, minding enemies near the end."""
    whole = dm.classify(seen.counts)
    if whole:
        return max(whole, key=lambda m: m[0] in ASSETS)
    groups = plan(seen.counts)
    if len(groups) == 2:
        sure = [g for g in groups if not dm.generate(seen.unseen, g)]  # nothing unseen beats it
        if sure:
            return sure[0]
    enemy_min = min((seen.sizes[e] for e in seen.enemies()), default=20)
    partner = (seen.seat + 1) % 3
    if seen.landlord not in (None, seen.seat, partner) and seen.sizes[partner] == 1:
        return dm.SINGLE[next(r for r in range(NRANKS) if seen.counts[r])]

    def score(m: Move) -> float:
        value = m[1] - 0.3 * (len(m[2]) - 1)
        if m[0] in ASSETS:
            value += 100
        elif len(m[2]) == enemy_min and m[0] in ("single", "pair"):
            value = 50 - m[1] if m[0] == "single" else value + 30
        return value

    return min(groups, key=score)


def basic_follow(seen: DdzSeen, moves: Sequence[Move]) -> Move | None:
    """Follow: finish if possible; beat an enemy when it costs the plan nothing; else pass."""
    if not moves:
        return None
    total = sum(seen.counts)
    finishing = [m for m in moves if len(m[2]) == total]
    if finishing:
        return max(finishing, key=lambda m: m[0] in ASSETS)
    enemies = seen.enemies()
    if seen.table_seat not in enemies:
        return None  # never beat the partner
    base = hand_cost(seen.counts)
    enemy_min = min(seen.sizes[e] for e in enemies)
    danger = seen.sizes[seen.table_seat] <= 4 or enemy_min <= 2
    plain = [m for m in moves if m[0] not in ASSETS]
    if plain:
        # The plan's own groups that beat the table, and the three lowest moves (they come by key).
        groups = plan(seen.counts)
        pool = [m for m in plain if m in groups][:2] + plain[:3]
        costs = [(hand_cost(minus(seen.counts, m)) - base, m[1], i) for i, m in enumerate(pool)]
        delta, _, index = min(costs)
        if delta <= 0.05 or (danger and delta <= 1.5):
            return pool[index]
    assets = [m for m in moves if m[0] in ASSETS]
    if assets:
        bomb = min(assets, key=lambda m: (m[0] == "rocket", m[1]))
        if danger or hand_cost(minus(seen.counts, bomb)) <= 1.0:
            return bomb
    return None


# ------------------------------------------------------ playouts on ranks
@dataclass(slots=True)
class RankDeal:
    """A play-phase position on rank counts: all a playout reads."""

    landlord: int
    bid: int
    counts: list[Counts]
    sizes: list[int]
    plays: list[int]
    multiplier: int
    table: Move | None
    table_seat: int | None
    passes: int
    turn: int

    @classmethod
    def of_state(cls, state: DouDizhuState) -> RankDeal:
        assert state.landlord is not None
        counts, sizes = list(state.counts), [len(hand) for hand in state.hands]
        return cls(
            state.landlord, state.bid, counts, sizes, list(state.plays), state.multiplier,
            state.table, state.table_seat, state.passes, state.turn,
        )  # fmt: skip

    def seen(self, seat: int) -> DdzSeen:
        """What ``seat`` sees here, as the basic policy reads it (``unseen`` only on a lead)."""
        others: Counts = ()
        if self.table is None:
            a, b = self.counts[(seat + 1) % 3], self.counts[(seat + 2) % 3]
            others = tuple(x + y for x, y in zip(a, b, strict=True))
        sizes = (self.sizes[0], self.sizes[1], self.sizes[2])
        counts, table = self.counts[seat], self.table
        return DdzSeen(seat, self.landlord, self.bid, counts, sizes, table, self.table_seat, others)

    def points(self, seat: int) -> tuple[int, int]:
        """``seat``'s points and stake (the bid, doubled for the landlord) once the mover has gone out."""
        landlord, bid, multiplier, plays = self.landlord, self.bid, self.multiplier, self.plays
        won = self.turn == landlord
        if (won and sum(plays) == plays[landlord]) or (not won and plays[landlord] == 1):
            multiplier *= 2  # a spring, or a reverse spring
        unit = bid * multiplier * (1 if won else -1)
        return (2 * unit, 2 * bid) if seat == landlord else (-unit, bid)


def play_out(
    state: DouDizhuState | RankDeal,
    seat: int,
    plies: int = 0,
    *,
    first: Move | None = None,
    forced: bool = False,
    decide: Callable[[RankDeal], tuple[Move | None, int]] | None = None,
) -> tuple[int, int, int]:
    """The deal played out with ``basic`` all round from the play phase: ``seat``'s points, its stake
    and ``plies`` plus the plies played. ``forced``: the mover plays ``first`` (None: passes) instead
    of basic's choice. ``decide``, if given, makes ``seat``'s decisions instead of ``basic`` (its move
    and the plies it spent deciding; it must leave the position as it was). The position is copied
    into locals (it is the hot path) and left as it was."""
    deal = RankDeal.of_state(state) if isinstance(state, DouDizhuState) else state
    landlord, bid = deal.landlord, deal.bid
    counts, sizes, plays, multiplier = list(deal.counts), list(deal.sizes), list(deal.plays), deal.multiplier
    table, table_seat, passes, turn = deal.table, deal.table_seat, deal.passes, deal.turn
    while True:
        plies += 1
        own = counts[turn]
        if forced:
            move: Move | None = first
            forced = False
        elif decide is not None and turn == seat:
            here = RankDeal(landlord, bid, counts, sizes, plays, multiplier, table, table_seat, passes, turn)
            move, spent = decide(here)
            plies += spent
        elif table is None:
            others = tuple(a + b for a, b in zip(counts[(turn + 1) % 3], counts[(turn + 2) % 3], strict=True))
            lead = DdzSeen(turn, landlord, bid, own, (sizes[0], sizes[1], sizes[2]), None, None, others)
            move = basic_lead(lead)
        else:
            seen = DdzSeen(turn, landlord, bid, own, (sizes[0], sizes[1], sizes[2]), table, table_seat, ())
            move = basic_follow(seen, dm.generate(own, table))
        if move is None:
            passes += 1
            if passes == 2:
                table, table_seat, passes = None, None, 0
            turn = (turn + 1) % 3
            continue
        counts[turn] = minus(own, move)
        sizes[turn] -= len(move[2])
        plays[turn] += 1
        table, table_seat, passes = move, turn, 0
        if move[0] in ASSETS:
            multiplier *= 2
        if not sizes[turn]:
            end = RankDeal(landlord, bid, counts, sizes, plays, multiplier, table, table_seat, passes, turn)
            return (*end.points(seat), plies)
        turn = (turn + 1) % 3


def play_move_out(deal: RankDeal, move: Move | None, seat: int) -> tuple[int, int, int]:
    """``play_out`` after the mover plays ``move`` (None: a pass), ``deal`` left as it was."""
    return play_out(deal, seat, first=move, forced=True)


def choose_move(seen: DdzSeen, moves: Sequence[Move] | None) -> Move | None:
    """The basic rank-level decision in the play: a move, or None to pass (``moves``: legal follows)."""
    if seen.table is None:
        return basic_lead(seen)
    return basic_follow(seen, moves or [])


def move_of(action: Action) -> Move | None:
    if not isinstance(action, Play):
        return None
    if action.move is not None:
        return action.move
    return next(m for m in dm.classify(dm.card_counts(action.cards)) if m[0] == action.combo)


def choose_doudizhu(seen: DdzSeen, legal: Sequence[Action]) -> Action:
    """The basic choice among the engine's legal actions."""
    if seen.landlord is None:
        wanted = Bid(basic_bid(seen))
        return wanted if wanted in legal else legal[-1]
    by_move = {m: a for a in legal if (m := move_of(a)) is not None}
    choice = choose_move(seen, list(by_move) if seen.table is not None else None)
    if choice is None:
        return next((a for a in legal if isinstance(a, Pass)), legal[0])
    key = (choice[0], choice[2])
    return next((a for m, a in by_move.items() if (m[0], m[2]) == key), legal[0])


DESCRIPTION: Final = "Bids by hand strength, plays its small combinations first and never beats its partner."
POLICY: Final = BasicPolicy(DdzSeen.from_view, DdzSeen.from_state, choose_doudizhu, DESCRIPTION)
