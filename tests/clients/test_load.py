"""The load generator's plan and figures, and a swarm run against a live server."""

from __future__ import annotations

import math

import pytest

from cardavia.clients.cli.load import groups, percentile, run_swarm
from cardavia.clients.cli.sdk import Pacer


def test_clients_are_spread_evenly_and_never_beyond_a_rooms_seats() -> None:
    assert groups(5, 2, 3) == [[0, 2, 4], [1, 3]]
    assert groups(4, 4, 2) == [[0], [1], [2], [3]]
    with pytest.raises(ValueError, match="use at least 3 rooms"):
        groups(5, 2, 2)
    with pytest.raises(ValueError, match="one to create each"):
        groups(2, 3, 2)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 1.0)) == (50.0, 95.0, 100.0)
    assert percentile([3.0], 0.99) == 3.0
    assert math.isnan(percentile([], 0.5))


def test_the_pacer_lets_a_burst_through_then_keeps_to_the_rate() -> None:
    now = [0.0]
    pacer = Pacer(10.0, 3, clock=lambda: now[0])
    assert [pacer.delay() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert pacer.delay() == pytest.approx(0.1)
    assert pacer.delay() == pytest.approx(0.2)
    now[0] = 1.0  # a second later the bucket is full again
    assert pacer.delay() == 0.0
    assert Pacer(None, 1).delay() == 0.0


async def test_a_swarm_of_people_sharing_rooms_plays_without_errors(url: str) -> None:
    ticks: list[str] = []
    counting: list[bool] = []
    report = await run_swarm(
        url, clients=5, rooms=2, game="doudizhu", duration=2.0, seed="s", on_tick=ticks.append,
        on_counting=lambda: counting.append(True),
    )  # fmt: skip
    assert counting == [True]  # once, when the warm-up ends
    assert report.ok, report.summary()
    assert (report.clients, report.rooms) == (5, 2)
    assert report.actions > 0
    assert len(report.latencies) == report.actions
    assert 0 < report.latency_ms(0.5) <= report.latency_ms(0.99) <= report.latency_ms(1.0)
    assert ticks
    assert "actions/s" in ticks[-1]
    assert f"actions {report.actions}" in report.summary()


async def test_a_swarm_without_a_server_reports_its_connection_failures() -> None:
    from tests.support.ports import free_port

    report = await run_swarm(f"ws://127.0.0.1:{free_port()}/", clients=2, rooms=1, duration=0.1)
    assert report.errors == {"connect_failed": 2}
    assert not report.ok
