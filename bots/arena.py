"""The arena: bots play paired matches and the results become statistics.

Matches come in groups that share one seed, so one shuffle (one sequence of
shuffles, in a match of several deals) is played with the bots in every seat
arrangement: each bot plays every seat equally and the luck of the deal
cancels out of the comparison. Each match runs in-process or in a worker
process (``jobs``); a match is a pure function of its ``MatchSpec``, so the
figures do not depend on how many workers ran them, only the timings do.

Decision times are wall-clock (``time.perf_counter``) around each ``choose``
with two or more legal actions; a forced move is not a decision.

In a game whose deals give seats roles (the Dou Dizhu landlord and its two
peasants) the arena also reports each bot's deal points by role and by who
sat on the other side, read from the deal's score (``deal_roles``): a bot's
figure as a peasant against the other bot's landlord is then never mixed
with deals it played against itself.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardavia.bots.base import Bot
from cardavia.bots.registry import LEVELS, levels_for, make_bot
from cardavia.games.engine import State
from cardavia.games.ratings import pairwise
from cardavia.games.registry import get_game

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot as the arena names it: ``level`` or ``level:iterations`` (``strong:800``)."""

    level: str
    iterations: int | None = None

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        level, _, count = text.strip().partition(":")
        if count and not count.isdigit():
            raise ValueError(f"bot {text!r}: the iterations after ':' must be a whole number")
        return cls(level, int(count) if count else None)

    def __str__(self) -> str:
        return self.level if self.iterations is None else f"{self.level}:{self.iterations}"

    def make(self, game_id: str, seed: str) -> Bot:
        """The bot for ``game_id``; a known level the game lacks (``expert`` in most games) is
        refused with the levels it has, which is what the arena's user can choose from."""
        if self.level in LEVELS and self.level not in levels_for(game_id):
            offered = ", ".join(levels_for(game_id))
            raise ValueError(f"{game_id} has {offered} bots, not {self.level}")
        return make_bot(game_id, self.level, seed, iterations=self.iterations)


@dataclass(frozen=True, slots=True)
class MatchSpec:
    game_id: str
    seats: tuple[BotSpec, ...]
    seed: str
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class MatchOutcome:
    """One finished match, seat by seat."""

    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winner: int | None
    deal_points: list[list[int]]
    times: list[list[float]]
    deal_roles: list[tuple[str, ...]] = field(default_factory=list)
    """Each deal's role of every seat, in games whose deals give seats roles (else empty)."""


def deal_roles(score: Mapping[str, Any], players: int) -> tuple[str, ...] | None:
    """Every seat's role in a deal whose score names a landlord (Dou Dizhu); None in other games."""
    detail = score.get("detail")
    landlord = detail.get("landlord") if isinstance(detail, Mapping) else None
    if not isinstance(landlord, int):
        return None
    return tuple("landlord" if seat == landlord else "peasant" for seat in range(players))


def play_one(spec: MatchSpec) -> MatchOutcome:
    """Play one match; module-level so a worker process can run it."""
    game = get_game(spec.game_id)
    bots = [bot.make(spec.game_id, f"{spec.seed}/seat{seat}") for seat, bot in enumerate(spec.seats)]
    times: list[list[float]] = [[] for _ in bots]
    state: State[Any] = game.new(dict(spec.options), spec.seed)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        view = state.view(seat)
        start = time.perf_counter()
        action = bots[seat].choose(view, legal)
        if len(legal) > 1:
            times[seat].append(time.perf_counter() - start)
        state, _ = state.apply(action, seat=seat)
    result = state.result
    assert result is not None
    scores = [d.score for d in state.log if d.score is not None]
    deals = [list(score["points"]) for score in scores]
    roles = [r for score in scores if (r := deal_roles(score, game.players)) is not None]
    return MatchOutcome(tuple(str(b) for b in spec.seats), result.scores, result.winner, deals, times, roles)


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Seatings of two bots (0 and 1) in which each plays every seat equally often.

    For two players: (0, 1) and (1, 0). For more: bot 0 alone in each seat, then bot 1 alone.
    """
    if players == 2:
        return [(0, 1), (1, 0)]
    return [
        tuple(int(s != alone) ^ lone for s in range(players)) for lone in (0, 1) for alone in range(players)
    ]


def schedule(
    game_id: str, bots: Sequence[BotSpec], games: int, seed: str, options: dict[str, Any] | None = None
) -> list[MatchSpec]:
    """``games`` matches of two bots, in groups sharing a seed (paired deals), seats swapped."""
    if len(bots) != 2:
        raise ValueError("a head-to-head needs exactly two bots")
    players = get_game(game_id).players
    seatings = arrangements(players)
    frozen = tuple(sorted((options or {}).items()))
    specs: list[MatchSpec] = []
    group = 0
    while len(specs) < games:
        for seating in seatings:
            if len(specs) == games:
                break
            seats = tuple(bots[i] for i in seating)
            specs.append(MatchSpec(game_id, seats, f"{seed}/{group}", frozen))
        group += 1
    return specs


def run(
    specs: Sequence[MatchSpec],
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[MatchOutcome]:
    """Play every match (in ``jobs`` worker processes when more than one), results in spec order."""
    outcomes: list[MatchOutcome] = []
    if jobs <= 1:
        for spec in specs:
            outcomes.append(play_one(spec))
            if progress:
                progress(len(outcomes), len(specs))
        return outcomes
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for outcome in pool.map(play_one, specs):
            outcomes.append(outcome)
            if progress:
                progress(len(outcomes), len(specs))
    return outcomes


# ------------------------------------------------------------------ statistics
def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may count a draw as a half)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% interval."""
    if not values:
        return (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, math.inf)
    return (mean, z * statistics.stdev(values) / math.sqrt(len(values)))


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` 0.95 for p95); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass(slots=True)
class HeadToHead:
    """Two bots' results against each other, from bot ``a``'s side."""

    a: str
    b: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: dict[str, list[float]] = field(default_factory=dict)
    deal_margins: list[float] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    roles: dict[RoleKey, list[float]] = field(default_factory=dict)
    """Deal points by (bot, role, the bots on the other side): one figure per deal (``role_samples``)."""

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.points, self.games)

    @property
    def deals_won(self) -> float:
        """Deals in which ``a`` gained more than ``b``, plus half the even ones."""
        return sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in self.deal_margins)


RoleKey = tuple[str, str, str]
"""(bot, role, the bots on the other side joined by '+', sorted)."""


def role_samples(
    seats: Sequence[str], roles: Sequence[str], points: Sequence[int]
) -> Iterator[tuple[RoleKey, float]]:
    """One deal's figures by role: for each bot and role it held, its points (mean over its seats).

    Seats of one bot in one role score alike (two peasants share a score), so
    a deal gives one figure per bot and role, keyed by who sat on the other
    side: a peasant's other side is the landlord, a landlord's the peasants.
    """
    for bot in dict.fromkeys(seats):
        for role in dict.fromkeys(roles):
            mine = [s for s in range(len(seats)) if seats[s] == bot and roles[s] == role]
            if mine:
                other = "+".join(sorted(seats[s] for s in range(len(seats)) if roles[s] != role))
                yield (bot, role, other), statistics.fmean(points[s] for s in mine)


def _sides(outcome: MatchOutcome, a: str) -> tuple[list[int], list[int]]:
    mine = [s for s, name in enumerate(outcome.seats) if name == a]
    theirs = [s for s, name in enumerate(outcome.seats) if name != a]
    return mine, theirs


def head_to_head(outcomes: Sequence[MatchOutcome], a: str, b: str) -> HeadToHead:
    """Tally the matches between ``a`` and ``b`` (bot names as ``str(BotSpec)``)."""
    if a == b:
        raise ValueError("a head-to-head needs two different bots")
    tally = HeadToHead(a, b, scores={a: [], b: []}, times={a: [], b: []})
    for outcome in outcomes:
        if set(outcome.seats) != {a, b}:
            continue
        mine, theirs = _sides(outcome, a)
        own = statistics.fmean(outcome.scores[s] for s in mine)
        other = statistics.fmean(outcome.scores[s] for s in theirs)
        tally.games += 1
        if outcome.winner is not None:
            won = outcome.winner in mine
        elif own != other:
            won = own > other
        else:
            tally.draws += 1
            won = None
        if won is True:
            tally.wins += 1
        elif won is False:
            tally.losses += 1
        tally.scores[a].append(own)
        tally.scores[b].append(other)
        for points in outcome.deal_points:
            tally.deal_margins.append(
                statistics.fmean(points[s] for s in mine) - statistics.fmean(points[s] for s in theirs)
            )
        for points, roles in zip(outcome.deal_points, outcome.deal_roles, strict=False):
            for key, value in role_samples(outcome.seats, roles, points):
                tally.roles.setdefault(key, []).append(value)
        for seat, times in enumerate(outcome.times):
            tally.times[outcome.seats[seat]].extend(times)
    return tally


def describe(tally: HeadToHead) -> list[str]:
    """Printable lines for one head-to-head."""
    a, b = tally.a, tally.b
    low, high = tally.interval
    margin, half = mean_interval(tally.deal_margins)
    lines = [
        f"{a} vs {b}: {tally.games} games, {a} wins {tally.wins}, draws {tally.draws}, losses {tally.losses}",
        f"  {a} win rate {100 * tally.win_rate:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%; a draw counts half)",
        f"  mean score per game: {a} {statistics.fmean(tally.scores[a] or [0]):.2f}, "
        f"{b} {statistics.fmean(tally.scores[b] or [0]):.2f}",
        f"  deal points per deal ({a} - {b}): {margin:+.2f} +/- {half:.2f} "
        f"over {len(tally.deal_margins)} deals",
    ]
    if len(tally.deal_margins) > tally.games:
        deals = len(tally.deal_margins)
        low, high = wilson(tally.deals_won, deals)
        lines.append(
            f"  deals won by {a}: {100 * tally.deals_won / deals:.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%) of {deals}"
        )
    if tally.roles:
        lines.append("  deal points by role, one figure per deal (95% CI):")

        def order(key: RoleKey) -> tuple[bool, str, int]:
            bot, role, other = key
            return (bot != a, role, other.split("+").count(bot))

        for key in sorted(tally.roles, key=order):
            bot, role, other = key
            mean, spread = mean_interval(tally.roles[key])
            lines.append(
                f"    {bot} as {role} against {other}: {mean:+.2f} +/- {spread:.2f} "
                f"over {len(tally.roles[key])} deals"
            )
    for name in (a, b):
        times = tally.times[name]
        lines.append(
            f"  time per decision, {name}: median {1000 * statistics.median(times or [0]):.2f} ms, "
            f"p95 {1000 * percentile(times, 0.95):.2f} ms over {len(times)} decisions"
        )
    return lines


# ------------------------------------------------------------------ round robin
def pairings(bots: Sequence[BotSpec]) -> Iterator[tuple[BotSpec, BotSpec]]:
    for i, first in enumerate(bots):
        for second in bots[i + 1 :]:
            yield first, second


def elo_ratings(tallies: Sequence[HeadToHead], anchor: str | None = None) -> dict[str, float]:
    """Elo-style ratings fitted to every head-to-head (Bradley-Terry by minorisation-maximisation).

    Each pair also gets one virtual draw, so a bot that won every game has a
    finite rating. ``anchor`` (default: the first bot seen) is rated 0.
    """
    names: list[str] = []
    for tally in tallies:
        for name in (tally.a, tally.b):
            if name not in names:
                names.append(name)
    if not names:
        return {}
    scored = dict.fromkeys(names, 0.0)
    played: dict[tuple[str, str], float] = {}
    for tally in tallies:
        scored[tally.a] += tally.points + 0.5
        scored[tally.b] += tally.games - tally.points + 0.5
        for key in ((tally.a, tally.b), (tally.b, tally.a)):
            played[key] = played.get(key, 0.0) + tally.games + 1
    strength = dict.fromkeys(names, 1.0)
    for _ in range(1000):
        new = {}
        for name in names:
            denominator = sum(
                n / (strength[name] + strength[other])
                for (first, other), n in played.items()
                if first == name
            )
            new[name] = scored[name] / denominator if denominator else strength[name]
        norm = math.exp(statistics.fmean(math.log(v) for v in new.values()))
        new = {k: v / norm for k, v in new.items()}
        converged = max(abs(new[k] - strength[k]) for k in names) < 1e-10
        strength = new
        if converged:
            break
    base = anchor if anchor in strength else names[0]
    return {name: 400 * math.log10(strength[name] / strength[base]) for name in names}


def elo_table(tallies: Sequence[HeadToHead], anchor: str | None = None) -> list[str]:
    """A printable Elo-style table, strongest first."""
    ratings = elo_ratings(tallies, anchor)
    record: dict[str, list[float]] = {name: [0.0, 0.0] for name in ratings}
    for tally in tallies:
        record[tally.a][0] += tally.points
        record[tally.a][1] += tally.games
        record[tally.b][0] += tally.games - tally.points
        record[tally.b][1] += tally.games
    lines = [f"{'bot':<16} {'Elo':>7} {'score':>8} {'games':>6}"]
    for name in sorted(ratings, key=lambda n: -ratings[n]):
        points, games = record[name]
        share = 100 * points / games if games else 0.0
        lines.append(f"{name:<16} {ratings[name]:>+7.0f} {share:>7.1f}% {int(games):>6}")
    return lines


# ------------------------------------------------------------------ calibration
CALIBRATION_ANCHOR = "basic"
CALIBRATION_RATING = 1500.0


def pairwise_tallies(outcomes: Sequence[MatchOutcome], game_id: str) -> list[HeadToHead]:
    """Every pair of different bots' results as the ratings compare them (``games.ratings.pairwise``).

    A two-seat match is one game between its bots; in Dou Dizhu every two seats of different
    bots with different totals are one game, and seats with equal totals (partners) none, so
    the bots' fixed ratings are measured the way a person's rating against them moves.
    """
    tallies: dict[tuple[str, str], HeadToHead] = {}
    for outcome in outcomes:
        for i, j, first in pairwise(game_id, list(outcome.scores), outcome.winner):
            a, b, score = outcome.seats[i], outcome.seats[j], first
            if i > j or a == b:
                continue
            if (b, a) in tallies:
                a, b, score = b, a, 1.0 - score
            tally = tallies.setdefault((a, b), HeadToHead(a, b))
            tally.games += 1
            if score == 1.0:
                tally.wins += 1
            elif score == 0.0:
                tally.losses += 1
            else:
                tally.draws += 1
    return list(tallies.values())


def calibrate(
    outcomes: Sequence[MatchOutcome], game_id: str, anchor: str = CALIBRATION_ANCHOR
) -> dict[str, int]:
    """Fixed ratings for the bots of a round robin: the maximum-likelihood fit of their pairwise
    results on the Elo/Glicko logistic scale (``elo_ratings``: one virtual draw per pair), shifted
    so that ``anchor`` is 1500, rounded to whole points."""
    tallies = pairwise_tallies(outcomes, game_id)
    ratings = elo_ratings(tallies, anchor)
    if anchor not in ratings:
        raise ValueError(f"the calibration needs the {anchor} bot in the round robin")
    return {name: round(CALIBRATION_RATING + value) for name, value in ratings.items()}
