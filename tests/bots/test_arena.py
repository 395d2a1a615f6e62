"""The arena: paired schedules, statistics, Elo, and the `cardavia arena` command."""

from __future__ import annotations

import math

import pytest

from cardavia.bots.arena import (
    BotSpec,
    HeadToHead,
    MatchOutcome,
    arrangements,
    describe,
    elo_ratings,
    elo_table,
    head_to_head,
    mean_interval,
    percentile,
    play_one,
    role_samples,
    run,
    schedule,
    wilson,
)
from cardavia.cli import main


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile_and_mean_interval() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([], 0.95) == 0.0
    mean, half = mean_interval([1.0, 3.0])
    assert mean == 2.0
    assert half == pytest.approx(1.959964 * math.sqrt(2) / math.sqrt(2))


def test_bot_specs_read_an_optional_iteration_count() -> None:
    assert BotSpec.parse("strong:800") == BotSpec("strong", 800)
    assert str(BotSpec.parse("basic")) == "basic"
    with pytest.raises(ValueError, match="whole number"):
        BotSpec.parse("strong:lots")


def test_every_bot_plays_every_seat_equally() -> None:
    assert arrangements(2) == [(0, 1), (1, 0)]
    three = arrangements(3)
    for bot in (0, 1):
        counts = [sum(1 for seating in three if seating[seat] == bot) for seat in range(3)]
        assert len(set(counts)) == 1


def test_schedule_pairs_each_shuffle_with_the_seats_exchanged() -> None:
    a, b = BotSpec("basic"), BotSpec("random")
    specs = schedule("briscola", [a, b], 5, "s")
    assert [s.seats for s in specs] == [(a, b), (b, a), (a, b), (b, a), (a, b)]
    assert [s.seed for s in specs] == ["s/0", "s/0", "s/1", "s/1", "s/2"]


def test_a_paired_deal_gives_each_bot_the_others_cards() -> None:
    a, b = BotSpec("basic"), BotSpec("random")
    first, second = (play_one(s) for s in schedule("briscola", [a, b], 2, "pair"))
    assert first.seats == ("basic", "random")
    assert second.seats == ("random", "basic")
    assert sum(first.scores) == sum(second.scores) == 120


def test_head_to_head_counts_from_the_first_bots_side() -> None:
    outcomes = [
        MatchOutcome(("x", "y"), (70, 50), 0, [[70, 50]], [[0.1], [0.2]]),
        MatchOutcome(("y", "x"), (80, 40), 0, [[80, 40]], [[0.2], [0.1]]),
        MatchOutcome(("x", "y"), (60, 60), None, [[60, 60]], [[0.1], [0.2]]),
    ]
    tally = head_to_head(outcomes, "x", "y")
    assert (tally.games, tally.wins, tally.draws, tally.losses) == (3, 1, 1, 1)
    assert tally.win_rate == pytest.approx(0.5)
    assert tally.deal_margins == [20, -40, 0]
    assert tally.scores["x"] == [70, 40, 60]
    assert tally.times["y"] == [0.2, 0.2, 0.2]


def test_matches_of_several_deals_also_report_the_deals_won() -> None:
    outcomes = [
        MatchOutcome(("x", "y"), (7, 3), 0, [[2, 0], [0, 3], [3, 0], [2, 0]], [[0.1], [0.2]]),
        MatchOutcome(("y", "x"), (7, 1), 0, [[0, 1], [3, 0], [3, 0], [1, 0]], [[0.2], [0.1]]),
    ]
    tally = head_to_head(outcomes, "x", "y")
    assert tally.deals_won == 4
    assert "  deals won by x: 50.0% (95% CI 21.5-78.5%) of 8" in describe(tally)
    single = head_to_head(outcomes[:1], "x", "y")
    single.deal_margins = single.deal_margins[:1]
    assert not any("deals won" in line for line in describe(single))


def test_role_figures_are_keyed_by_bot_role_and_the_other_side() -> None:
    roles = ("peasant", "landlord", "peasant")
    # x is a peasant with y against y's landlord; y holds both roles.
    samples = dict(role_samples(("x", "y", "y"), roles, (-2, 4, -2)))
    assert samples == {
        ("x", "peasant", "y"): -2,
        ("y", "peasant", "y"): -2,
        ("y", "landlord", "x+y"): 4,
    }
    # Two x peasants share one figure for the deal.
    assert dict(role_samples(("x", "y", "x"), roles, (3, -6, 3))) == {
        ("x", "peasant", "y"): 3,
        ("y", "landlord", "x+x"): -6,
    }


def test_head_to_head_reports_doudizhu_deals_by_role() -> None:
    outcomes = [
        MatchOutcome(
            ("x", "y", "y"), (4, -2, -2), 0, [[4, -2, -2]], [[], [], []], [("landlord",) + ("peasant",) * 2]
        ),
        MatchOutcome(
            ("y", "x", "y"), (2, -1, -1), 0, [[2, -1, -1]], [[], [], []], [("landlord",) + ("peasant",) * 2]
        ),
        MatchOutcome(
            ("y", "y", "x"), (-6, 3, 3), 1, [[-6, 3, 3]], [[], [], []], [("landlord",) + ("peasant",) * 2]
        ),
    ]
    tally = head_to_head(outcomes, "x", "y")
    assert tally.roles == {
        ("x", "landlord", "y+y"): [4],
        ("y", "peasant", "x"): [-2],
        ("y", "landlord", "x+y"): [2, -6],
        ("x", "peasant", "y"): [-1, 3],
        ("y", "peasant", "y"): [-1, 3],
    }
    lines = describe(tally)
    assert "    x as landlord against y+y: +4.00 +/- inf over 1 deals" in lines
    assert "    x as peasant against y: +1.00 +/- 3.92 over 2 deals" in lines
    assert [line.split(":")[0] for line in lines if " as " in line] == [
        "    x as landlord against y+y",
        "    x as peasant against y",
        "    y as landlord against x+y",
        "    y as peasant against x",
        "    y as peasant against y",
    ]


def test_a_played_doudizhu_match_knows_each_seats_role() -> None:
    for spec in schedule("doudizhu", [BotSpec("basic"), BotSpec("random")], 6, "roles"):
        outcome = play_one(spec)
        assert len(outcome.deal_roles) == len(outcome.deal_points) == 1
        roles, points = outcome.deal_roles[0], outcome.deal_points[0]
        landlord = roles.index("landlord")
        assert sorted(roles) == ["landlord", "peasant", "peasant"]
        assert points[landlord] == -2 * points[(landlord + 1) % 3]
    assert (
        play_one(schedule("briscola", [BotSpec("basic"), BotSpec("random")], 1, "roles")[0]).deal_roles == []
    )


def test_elo_orders_bots_by_results() -> None:
    tallies = [
        HeadToHead("a", "b", games=100, wins=75, losses=25),
        HeadToHead("b", "c", games=100, wins=75, losses=25),
        HeadToHead("a", "c", games=100, wins=90, losses=10),
    ]
    ratings = elo_ratings(tallies, anchor="c")
    assert ratings["c"] == 0
    assert ratings["a"] > ratings["b"] > 0
    one = elo_ratings([HeadToHead("a", "b", games=1000, wins=750, losses=250)], anchor="b")
    assert one["a"] == pytest.approx(400 * math.log10(3), abs=2)
    assert elo_table(tallies)[1].startswith("a ")


def test_running_in_workers_gives_the_same_results() -> None:
    specs = schedule("briscola", [BotSpec("basic"), BotSpec("random")], 4, "jobs")
    one, two = run(specs, jobs=1), run(specs, jobs=2)
    assert [(o.scores, o.winner) for o in one] == [(o.scores, o.winner) for o in two]


@pytest.mark.parametrize(
    ("game", "games", "seed", "expected"),
    [
        ("briscola", 6, "c", ["basic vs random: 6 games", "95% CI", "mean score per game", "median", "p95"]),
        (
            "doudizhu",
            12,
            "r",
            [
                "deal points by role",
                "basic as landlord against random+random:",
                "basic as peasant against random:",
                "random as landlord against basic+basic:",
            ],
        ),
    ],
)
def test_the_arena_command_prints_rates_intervals_times_and_roles(
    game: str, games: int, seed: str, expected: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["arena", "--game", game, "--bots", "basic,random", "--games", str(games), "--seed", seed])
    out, err = capsys.readouterr()
    assert code == 0
    for text in expected:
        assert text in out
    assert ("deal points by role" in out) == (game == "doudizhu")
    assert f"{games}/{games} matches" in err


def test_a_round_robin_prints_an_elo_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--game", "scopa", "--round-robin", "--bots", "random,basic,strong:3", "--games", "2"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert "Elo" in out
    assert out.count(" vs ") == 3


def test_the_arena_command_refuses_bad_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--game", "briscola", "--bots", "basic,basic"]) == 2
    assert main(["arena", "--game", "briscola", "--bots", "basic,genius"]) == 2
    _, err = capsys.readouterr()
    assert "unknown bot level" in err
