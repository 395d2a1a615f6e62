"""The decision-time bench: one line per game and level with the count and the percentiles of its
decisions; a level a game lacks is named, not timed. Speed itself is not tested."""

from __future__ import annotations

import pytest

import bench.decision_times
from bench.decision_times import main, seatings, summary
from cardavia.bots import registry
from tests.support.experts import list_quick_expert


def test_one_line_per_game_and_level_with_count_and_ordered_percentiles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    list_quick_expert(monkeypatch)  # the real one searches for longer
    monkeypatch.delitem(registry.EXPERTS, "scopa", raising=False)
    argv = [
        "--games",
        "briscola,scopa",
        "--levels",
        "strong:4,expert",
        "--deals",
        "1",
        "--opponent",
        "basic",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["game", "level", "decisions", "median", "p90", "p99", "max"]
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in out[2:]}
    assert list(rows) == [("briscola", "strong:4"), ("briscola", "expert"), ("scopa", "strong:4"),
                          ("scopa", "expert")]  # fmt: skip
    for key in [("briscola", "strong:4"), ("briscola", "expert"), ("scopa", "strong:4")]:
        count, *ms = rows[key]
        assert int(count) > 0
        median, p90, p99, most = map(float, ms)
        assert 0 <= median <= p90 <= p99 <= most
    assert " ".join(rows[("scopa", "expert")]).startswith("no such bot (it has random, basic, strong")


def test_the_cpu_clock_times_the_decisions_by_this_process_cpu_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(bench.decision_times.time, "process_time", lambda: next(ticks) / 1000)
    monkeypatch.setitem(bench.decision_times.CLOCKS, "cpu", (bench.decision_times.time.process_time, "CPU"))
    assert (
        main(
            [
                "--games",
                "briscola",
                "--levels",
                "basic",
                "--deals",
                "1",
                "--opponent",
                "basic",
                "--clock",
                "cpu",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("time per decision (ms, CPU)")
    count, median, *_, most = out[2].split()[2:]
    assert int(count) > 0
    assert float(median) == float(most) == 1.0  # one tick of the stand-in clock per decision


def test_the_level_sits_in_every_seat_against_the_opponent_or_fills_the_table_alone() -> None:
    assert seatings(2, same=False) == [(0, 1), (1, 0)]
    three = seatings(3, same=False)
    assert {s.index(0) for s in three if s.count(0) == 1} == {0, 1, 2}
    assert seatings(3, same=True) == [(0, 0, 0)]


def test_the_figures_are_nearest_rank_percentiles_in_milliseconds() -> None:
    figures = summary([i / 1000 for i in range(100, 0, -1)])  # 1 ms to 100 ms, in any order
    assert figures == pytest.approx({"decisions": 100, "median": 50.5, "p90": 90, "p99": 99, "max": 100})
    assert summary([]) == {"decisions": 0}
