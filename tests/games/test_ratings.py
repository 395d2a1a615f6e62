from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardavia.games.errors import UnknownGameError
from cardavia.games.ratings import LIMITS, MAX_DEVIATION, Rating, match_ratings, pairwise, provisional, rate

# Glickman, "Example of the Glicko-2 system", the worked example.
PLAYER = Rating(1500.0, 200.0, 0.06)
EXAMPLE = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)]


def test_the_worked_example_of_glickmans_paper() -> None:
    after = rate(PLAYER, EXAMPLE, tau=0.5)
    # The paper rounds mu' to four decimals (-0.2069) before it converts back to 1464.06;
    # unrounded the rating is 1464.0507. Both steps to the paper's precision:
    mu = (after.rating - 1500.0) / 173.7178
    assert round(mu, 4) == -0.2069
    assert round(173.7178 * round(mu, 4) + 1500.0, 2) == 1464.06
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation / 173.7178, 4) == 0.8722
    assert round(after.deviation, 2) == 151.52
    # The paper prints the volatility cut to five decimals: 0.05999 (0.0599960 unrounded).
    assert math.floor(after.volatility * 1e5) / 1e5 == 0.05999
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_without_games_only_the_deviation_grows() -> None:
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating
    assert after.volatility == PLAYER.volatility
    # step 6: phi* = sqrt(phi^2 + sigma^2), on the Glicko scale
    expected = math.sqrt((200.0 / 173.7178) ** 2 + 0.06**2) * 173.7178
    assert after.deviation == pytest.approx(expected)


def test_the_deviation_never_grows_past_an_unrated_players() -> None:
    assert rate(Rating(1700.0, 349.9, 0.06), []).deviation == MAX_DEVIATION


def test_a_large_surprise_takes_the_papers_other_bracket() -> None:
    # delta^2 > phi^2 + v: a low-deviation player beating a much stronger, certain one.
    after = rate(Rating(1500.0, 50.0, 0.06), [(Rating(2300.0, 30.0), 1.0)] * 10)
    assert after.volatility > 0.06
    assert after.rating > 1500.0


@pytest.mark.parametrize(
    ("player", "games", "tau", "words"),
    [
        (Rating(1500.0, 0.0), EXAMPLE, 0.5, "deviation"),
        (Rating(math.nan), EXAMPLE, 0.5, "rating"),
        (Rating(volatility=-0.1), EXAMPLE, 0.5, "volatility"),
        (PLAYER, [(Rating(1400.0), 1.5)], 0.5, "score"),
        (PLAYER, [(Rating(1400.0, math.inf), 1.0)], 0.5, "deviation"),
        (PLAYER, EXAMPLE, 0.0, "tau"),
        (Rating(1e300), EXAMPLE, 0.5, "rating"),
        (PLAYER, [(Rating(-1e9), 1.0)], 0.5, "rating"),
        (Rating(volatility=5.0), EXAMPLE, 0.5, "volatility"),
    ],
)
def test_bad_input_is_refused_with_a_reason(
    player: Rating, games: list[tuple[Rating, float]], tau: float, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        rate(player, games, tau=tau)


def test_a_newcomer_is_provisional_for_about_ten_games_near_their_strength() -> None:
    rating, games = Rating(), 0
    while provisional(rating):
        opponent = Rating(rating.rating, 80.0)
        rating = rate(rating, [(opponent, float(games % 2))])
        games += 1
    assert 8 <= games <= 16
    assert not provisional(Rating(1500.0, 110.0))


def test_two_seat_games_compare_once_by_the_winner() -> None:
    assert pairwise("briscola", [70, 50], 0) == [(0, 1, 1.0), (1, 0, 0.0)]
    assert pairwise("scopa", [9, 11], 1) == [(0, 1, 0.0), (1, 0, 1.0)]
    assert pairwise("briscola", [60, 60], None) == [(0, 1, 0.5), (1, 0, 0.5)]


def test_dou_dizhu_compares_only_seats_with_different_totals() -> None:
    # A one-deal landlord win: the landlord beats both peasants; the peasants tie.
    pairs = pairwise("doudizhu", [4, -2, -2], 0)
    assert sorted(pairs) == [(0, 1, 1.0), (0, 2, 1.0), (1, 0, 0.0), (2, 0, 0.0)]
    # Over several deals all three totals may differ: every pair compared.
    assert len(pairwise("doudizhu", [3, -4, 1], 0)) == 6
    assert pairwise("doudizhu", [0, 0, 0], None) == []


@pytest.mark.parametrize(
    ("game", "scores", "winner", "error"),
    [
        ("whist", [1, 0], 0, UnknownGameError),
        ("briscola", [1, 0, 0], 0, ValueError),
        ("doudizhu", [1, 0], 0, ValueError),
        ("briscola", [70, 50], 2, ValueError),
        ("briscola", [70, 50], True, ValueError),
        ("briscola", [70.5, 50], 0, ValueError),
    ],
)
def test_a_result_that_does_not_fit_the_game_is_refused(
    game: str, scores: list[int], winner: int | None, error: type[Exception]
) -> None:
    with pytest.raises(error):
        pairwise(game, scores, winner)


def test_a_one_deal_landlord_win_is_two_wins_and_a_loss_for_each_peasant() -> None:
    before = [Rating(), Rating(), Rating()]
    after = match_ratings("doudizhu", [4, -2, -2], 0, before, [False, False, False])
    assert after[0] == rate(before[0], [(before[1], 1.0), (before[2], 1.0)])
    assert after[1] == rate(before[1], [(before[0], 0.0)])
    assert after[2] == rate(before[2], [(before[0], 0.0)])
    assert after[0].rating > 1500.0 > after[1].rating


def test_fixed_seats_and_uncompared_seats_come_back_unchanged() -> None:
    bot = Rating(1650.0, 60.0, 0.06)
    after = match_ratings("briscola", [40, 80], 1, [Rating(), bot], [False, True])
    assert after[1] is bot
    assert after[0] == rate(Rating(), [(bot, 0.0)])
    shared = [Rating(1400.0), Rating(1500.0), Rating(1600.0)]
    assert match_ratings("doudizhu", [0, 0, 0], None, shared, [False] * 3) == shared


def test_match_ratings_refuses_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="seats"):
        match_ratings("briscola", [1, 0], 0, [Rating()], [False, False])
    with pytest.raises(ValueError, match="seats"):
        match_ratings("briscola", [1, 0], 0, [Rating(), Rating()], [False])


ratings = st.builds(
    Rating,
    st.floats(800.0, 2600.0),
    st.floats(30.0, 350.0),
    st.floats(0.03, 0.1),
)
opponents = st.lists(ratings, min_size=1, max_size=6)
results = st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=6, max_size=6)


@given(ratings, opponents, results)
def test_a_better_result_never_rates_lower(player: Rating, others: list[Rating], scores: list[float]) -> None:
    games = list(zip(others, scores, strict=False))
    after = rate(player, games)
    assert rate(player, [(o, 1.0) for o in others]).rating >= after.rating - 1e-9
    assert rate(player, [(o, 0.0) for o in others]).rating <= after.rating + 1e-9


@given(ratings, opponents)
def test_a_winner_never_loses_rating(player: Rating, others: list[Rating]) -> None:
    assert rate(player, [(o, 1.0) for o in others]).rating >= player.rating
    assert rate(player, [(o, 0.0) for o in others]).rating <= player.rating


@given(ratings, st.sampled_from(["briscola", "scopa", "schnapsen"]))
def test_two_equal_players_move_symmetrically(player: Rating, game: str) -> None:
    won, lost = match_ratings(game, [1, 0], 0, [player, player], [False, False])
    assert won.rating - player.rating == pytest.approx(player.rating - lost.rating, abs=1e-6)
    assert won.deviation == pytest.approx(lost.deviation)
    drew = match_ratings(game, [0, 0], None, [player, player], [False, False])
    assert drew[0] == drew[1]
    assert drew[0].rating == pytest.approx(player.rating, abs=1e-6)


@given(ratings, opponents, results)
def test_games_always_shrink_the_deviation_of_the_period(
    player: Rating, others: list[Rating], scores: list[float]
) -> None:
    # Every game tells something: the deviation ends below the pre-period deviation grown by
    # the new volatility (phi* of step 6). It may still end above where it began, for a
    # well-known player whose volatility outweighs a game against a far-off opponent.
    after = rate(player, list(zip(others, scores, strict=False)))
    grown = math.hypot(player.deviation, after.volatility * 173.7178)
    assert after.deviation < grown


@given(st.lists(st.floats(1100.0, 1900.0), min_size=1, max_size=6), results)
def test_a_newcomers_deviation_shrinks_after_games(others: list[float], scores: list[float]) -> None:
    after = rate(Rating(), [(Rating(r), s) for r, s in zip(others, scores, strict=False)])
    assert after.deviation < Rating().deviation


@given(ratings, ratings, st.booleans(), st.sampled_from([0, 1, None]))
def test_fixed_seats_are_unchanged(a: Rating, b: Rating, first_fixed: bool, winner: int | None) -> None:
    after = match_ratings("briscola", [1, 0], winner, [a, b], [first_fixed, not first_fixed])
    fixed_seat = 0 if first_fixed else 1
    assert after[fixed_seat] == (a, b)[fixed_seat]
    rated = 1 - fixed_seat
    score = 0.5 if winner is None else float(winner == rated)
    assert after[rated] == rate((a, b)[rated], [((a, b)[fixed_seat], score)])


extremes = st.builds(
    Rating,
    st.floats(*LIMITS["rating"]),
    st.floats(*LIMITS["deviation"]),
    st.floats(*LIMITS["volatility"]),
)


@given(extremes, st.lists(st.tuples(extremes, st.sampled_from([0.0, 0.5, 1.0])), max_size=4))
def test_any_rating_within_the_limits_rates_to_one_within_them(
    player: Rating, games: list[tuple[Rating, float]]
) -> None:
    after = rate(player, games)
    for name, (low, high) in LIMITS.items():
        assert low <= getattr(after, name) <= high
