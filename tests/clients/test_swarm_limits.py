"""`cardavia swarm` stays within a server's default limits, and names the setting of any it hits."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cardavia.clients.cli.load import LIMIT_HINTS, SwarmReport, run_swarm
from cardavia.clients.cli.swarm import DEFAULT_RATE
from cardavia.server.config import ServerConfig
from tests.support.servers import own_server

DEFAULTS = ServerConfig()


def test_the_default_pace_is_within_the_server_default_message_rate() -> None:
    assert DEFAULTS.rate_per_second > DEFAULT_RATE


async def test_a_paced_swarm_plays_without_hitting_the_default_message_rate(tmp_path: Path) -> None:
    limits = {"rate_per_second": DEFAULTS.rate_per_second, "rate_burst": DEFAULTS.rate_burst}
    async with own_server(tmp_path, **limits) as (_, url):
        report = await run_swarm(url, clients=4, game="scopa", duration=1.0, seed="s", rate=DEFAULT_RATE)
    assert report.ok, report.summary()
    assert report.actions > 0
    assert "limit hit" not in report.summary()


async def test_a_swarm_past_the_message_rate_is_told_which_setting_to_raise(tmp_path: Path) -> None:
    async with own_server(tmp_path, rate_per_second=2.0, rate_burst=2) as (_, url):
        report = await run_swarm(url, clients=2, game="scopa", duration=1.0, seed="s", rate=None)
    assert report.errors["rate_limited"] > 0
    assert "limit hit: the server's message rate per connection (CARDAVIA_RATE_PER_SECOND" in report.summary()


async def test_connections_past_the_per_address_limit_are_told_which_setting_to_raise(
    tmp_path: Path,
) -> None:
    async with own_server(tmp_path, max_connections_per_ip=2) as (_, url):
        report = await run_swarm(url, clients=4, rooms=2, game="scopa", duration=0.2, seed="s")
    assert report.errors["setup_try_later"] > 0, report.summary()
    assert "CARDAVIA_MAX_CONNECTIONS_PER_IP" in report.summary()


def test_new_sessions_past_the_per_address_limit_name_their_setting() -> None:
    report = SwarmReport("scopa", 50, 25, seconds=1.0, errors=Counter({"setup_rate_limited": 10}))
    assert report.limits_hit() == [LIMIT_HINTS["setup_rate_limited"]]
    assert "CARDAVIA_SESSIONS_PER_MINUTE" in report.summary()
