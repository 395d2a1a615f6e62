"""The replay fixture (clients/web/test/fixtures/replays.json): current, and true to its records."""

from __future__ import annotations

import json
from typing import Any

from cardavia.games.records import replay
from tests.web.generated import assert_generated
from tests.web.make_replay_fixture import FIXTURE, render


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
    return cases


def test_the_committed_fixture_is_what_the_generator_writes() -> None:
    assert_generated(FIXTURE, render(), "tests.web.make_replay_fixture")


def test_each_record_replays_and_has_one_step_and_one_analysis_per_action() -> None:
    for case in _cases():
        message = case["replay"]
        record = message["record"]
        assert replay(record).ok, case["game"]
        actions = sum(len(deal["actions"]) for deal in record["deals"])
        assert len(message["steps"]) == len(message["analysis"]) == len(case["after"]) == actions


def test_the_analysis_has_moves_the_bot_agreed_with_moves_it_did_not_and_forced_ones() -> None:
    notes = [note for case in _cases() for note in case["replay"]["analysis"] if note]
    assert any(n["differs"] for n in notes)
    assert any(not n["differs"] and not n.get("forced") for n in notes)
    assert any(n.get("forced") for n in notes)
