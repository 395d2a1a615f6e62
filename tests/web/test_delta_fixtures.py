"""The page's delta fixtures (clients/web/test/fixtures/) are current and sound."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardavia.protocol.delta import apply
from tests.web.generated import assert_generated
from tests.web.make_delta_fixtures import CASES, FIXTURE, render, render_cases


def test_the_committed_fixture_is_what_the_generator_writes() -> None:
    assert_generated(FIXTURE, render(), "tests.web.make_delta_fixtures")


def test_the_committed_apply_cases_are_what_the_generator_writes() -> None:
    assert_generated(CASES, render_cases(), "tests.web.make_delta_fixtures")


def test_the_fixtures_stay_small_enough_to_commit() -> None:
    assert FIXTURE.stat().st_size < 1_000_000
    assert CASES.stat().st_size < 300_000


def _streams() -> list[dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    streams: list[dict[str, Any]] = data["streams"]
    return streams


def test_every_game_is_recorded_for_every_seat_and_a_spectator() -> None:
    seen = {(s["game"], s["seed"], s["recipient"]) for s in _streams()}
    for game, seed, _ in seen:
        assert (game, seed, None) in seen
        assert (game, seed, 0) in seen
        assert (game, seed, 1) in seen
    assert {game for game, _, _ in seen} == {"scopa", "briscola", "schnapsen", "doudizhu"}


def test_the_fixture_uses_every_op_kind_the_server_sends() -> None:
    kinds = {ops[i] for s in _streams() for ops, _ in s["steps"] for i in range(0, len(ops), 3)}
    assert kinds >= {0, 2, 3, 4, 5}


@pytest.mark.parametrize("stream", _streams(), ids=lambda s: f"{s['game']}-{s['seed']}-{s['recipient']}")
def test_the_python_apply_rebuilds_every_recorded_view(stream: dict[str, Any]) -> None:
    view = stream["first"]
    for ops, after in stream["steps"]:
        view = apply(view, ops)
        assert view == after
