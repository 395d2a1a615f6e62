"""The arena: paired schedules, statistics, Elo, and the `cardavia arena` command."""

from __future__ import annotations

import math

import pytest

from cardavia.bots.arena import (
    BotSpec,
    HeadToHead,
    MatchOutcome,
    arrangements,
    elo_ratings,
    elo_table,
    head_to_head,
    mean_interval,
    percentile,
    play_one,
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


def test_the_arena_command_prints_rates_intervals_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--game", "briscola", "--bots", "basic,random", "--games", "6", "--seed", "c"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "basic vs random: 6 games" in out
    assert "95% CI" in out
    assert "mean score per game" in out
    assert "median" in out
    assert "p95" in out
    assert "6/6 matches" in err


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
