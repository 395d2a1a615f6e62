"""Glicko-2 ratings, and how a finished match becomes the games they are computed from.

Why Glicko-2 and why here: a rating must say how sure it is (a newcomer's 1500 means
little, a regular's means a lot) and must move fast for a player whose strength changes,
which is what Glicko-2's deviation and volatility add to Elo. The computation is pure
arithmetic on a match's result, so it lives in the games layer: the archive (both of its
database backends), the tests and any tool compute the same numbers from the same inputs,
with no clock and no I/O.

The algorithm is Mark Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/
glicko2.pdf), steps 1 to 8, with the volatility found by the paper's Illinois algorithm
to a convergence of 1e-6. Each match is one rating period: a player's rating moves once
per match, against every opponent it is compared with, all rated as they stood *before*
the match (``match_ratings``).

Which seats are compared, and with which score, is ``pairwise``: in a two-seat game the
one pair, by the match's winner (no winner: a draw, 0.5 each). In Dou Dizhu (three seats)
seats are compared by their final totals and seats with equal totals are not compared at
all: the two peasants of a deal score alike, and partners are not rivals, so a one-deal
landlord win counts as two wins for the landlord and one loss for each peasant.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.games.registry import get_game

SCALE = 173.7178
"""Glicko-2's conversion between the Glicko scale (1500-centred) and its own (0-centred)."""

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MAX_DEVIATION = START_DEVIATION
"""A deviation never grows past an unrated player's: absence makes a rating less certain,
never less certain than knowing nothing."""

PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is provisional: shown with a mark (``1500?``), since it is
still more guess than measure. A newcomer leaves it after about ten rated matches against
opponents near their strength (lichess draws the line at the same place)."""

CONVERGENCE = 1e-6
"""The paper's epsilon for the volatility iteration."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's standing in one game, on the Glicko scale."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION  # RD
    volatility: float = START_VOLATILITY


def provisional(rating: Rating) -> bool:
    """Whether ``rating`` is still provisional (its deviation above ``PROVISIONAL_DEVIATION``)."""
    return rating.deviation > PROVISIONAL_DEVIATION


LIMITS = {"rating": (0.0, 5000.0), "deviation": (1.0, 1000.0), "volatility": (1e-4, 1.0)}
"""What a rating's numbers may be: far wider than play ever takes them, narrow enough that the
arithmetic cannot overflow or divide by zero (a database row is input like any other). A
result is held inside them too, so whatever ``rate`` returns it also accepts."""


def _held(rating: float, deviation: float, volatility: float) -> Rating:
    values = {"rating": rating, "deviation": deviation, "volatility": volatility}
    held = {k: min(max(v, LIMITS[k][0]), LIMITS[k][1]) for k, v in values.items()}
    return Rating(held["rating"], held["deviation"], held["volatility"])


def _check_rating(r: Rating, what: str) -> None:
    if not isinstance(r, Rating):
        raise ValueError(f"{what} must be a Rating, not {type(r).__name__}")
    for name, (low, high) in LIMITS.items():
        value = getattr(r, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ValueError(f"{what}: {name} must be a number from {low:g} to {high:g}, not {value!r}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the volatility, by the Illinois algorithm (regula falsi, halving a stale side)."""
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi * phi, delta * delta, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], *, tau: float = 0.5) -> Rating:
    """One Glicko-2 rating period: the player's games against opponents (score 1, 0.5 or 0, or a
    weight-scaled fraction). No games: only the deviation grows (Glickman's step 6).

    ``tau`` limits how fast the volatility may change (the paper suggests 0.3 to 1.2).
    Raises ValueError for a score outside 0..1, a non-positive deviation, volatility or tau,
    or any number that is not finite.
    """
    _check_rating(player, "player")
    if not (isinstance(tau, (int, float)) and math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be a positive number, not {tau!r}")
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Rating(player.rating, min(grown, max(MAX_DEVIATION, player.deviation)), sigma)
    inverse_v = 0.0
    improvement = 0.0
    for n, (opponent, score) in enumerate(games):
        _check_rating(opponent, f"opponent {n}")
        if not (isinstance(score, (int, float)) and 0.0 <= score <= 1.0):
            raise ValueError(f"score against opponent {n} must be from 0 to 1, not {score!r}")
        mu_j = (opponent.rating - START_RATING) / SCALE
        g_j = _g(opponent.deviation / SCALE)
        e = _expected(mu, mu_j, g_j)
        inverse_v += g_j * g_j * e * (1.0 - e)
        improvement += g_j * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return _held(mu_new * SCALE + START_RATING, phi_new * SCALE, sigma_new)


def _check_result(game: str, scores: Sequence[int], winner: int | None) -> int:
    seats = get_game(game).players
    if len(scores) != seats:
        raise ValueError(f"{game} has {seats} seats, not {len(scores)} scores")
    for s in scores:
        if isinstance(s, bool) or not isinstance(s, int):
            raise ValueError(f"scores must be whole numbers, not {s!r}")
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < seats
    ):
        raise ValueError(f"winner must be a seat from 0 to {seats - 1} or None, not {winner!r}")
    return seats


def pairwise(game: str, scores: Sequence[int], winner: int | None) -> list[tuple[int, int, float]]:
    """(seat i, seat j, score of i against j) for every compared pair, i != j, both directions.

    Two seats: one comparison, by ``winner`` (None: a draw). More seats (Dou Dizhu): by final
    totals, and seats with equal totals are not compared (partners are not rivals).
    Raises ``UnknownGameError`` for a game that does not exist and ValueError for scores or a
    winner that do not fit it.
    """
    seats = _check_result(game, scores, winner)
    pairs: list[tuple[int, int, float]] = []
    if seats == 2:
        first = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        return [(0, 1, first), (1, 0, 1.0 - first)]
    for i in range(seats):
        for j in range(seats):
            if i != j and scores[i] != scores[j]:
                pairs.append((i, j, 1.0 if scores[i] > scores[j] else 0.0))
    return pairs


def match_ratings(
    game: str,
    scores: Sequence[int],
    winner: int | None,
    before: Sequence[Rating],
    fixed: Sequence[bool],
    *,
    tau: float = 0.5,
) -> list[Rating]:
    """Every seat's rating after one match (one rating period per match): seats with fixed=True
    (built-in bots) come back unchanged; others are rated against every compared opponent's
    rating *before* the match. A seat compared with no one (Dou Dizhu, all totals equal)
    comes back unchanged too: the match told nothing about it, and a match is not a stretch
    of time in which its deviation should grow.
    """
    comparisons = pairwise(game, scores, winner)
    if len(before) != len(scores) or len(fixed) != len(scores):
        raise ValueError(
            f"{len(scores)} seats need as many ratings and fixed flags, not {len(before)} and {len(fixed)}"
        )
    for n, r in enumerate(before):
        _check_rating(r, f"seat {n}")
    after: list[Rating] = []
    for seat, rating in enumerate(before):
        if fixed[seat]:
            after.append(rating)
            continue
        games = [(before[j], s) for i, j, s in comparisons if i == seat]
        after.append(rate(rating, games, tau=tau) if games else rating)
    return after
