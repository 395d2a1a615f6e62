"""The log-sentence fixture (clients/web/test/fixtures/log_sentences.json): current, with every sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardavia.games.registry import GAMES
from cardavia.protocol.i18n import Texts
from tests.web.generated import assert_generated
from tests.web.make_log_fixture import FIXTURE, cases, render

CATALOGUES = Path(__file__).resolve().parents[2] / "protocol" / "catalogues"
COVERED = ("log.", "combo.", "summary.schnapsen.why.", "summary.schnapsen.worth.")
"""The message keys a log line is made of, each of which some case must use."""


def test_the_committed_fixture_is_what_the_generator_writes() -> None:
    assert_generated(FIXTURE, render(), "tests.web.make_log_fixture")


def test_the_fixture_stays_small_enough_to_commit() -> None:
    assert FIXTURE.stat().st_size < 300_000


def test_the_cases_use_every_log_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    used: set[str] = set()
    words = Texts.__call__

    def recording(self: Texts, key: str, **args: Any) -> str:
        used.add(key)
        return words(self, key, **args)

    monkeypatch.setattr(Texts, "__call__", recording)
    for game_id in GAMES:
        assert cases(game_id), game_id
    english = {
        f"{path.name.removesuffix('.en.json')}.{key}"
        for path in CATALOGUES.glob("*.en.json")
        for key in json.loads(path.read_text(encoding="utf-8"))
        if not key.startswith("_")
    }
    wanted = {key for key in english if key.startswith(COVERED)}
    assert len(wanted) > 40
    assert wanted - used == set()


def test_every_case_has_lines_in_every_language_and_the_match_is_read_from_every_seat() -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert {case["game"] for case in data["cases"]} == set(GAMES)
    for case in data["cases"]:
        assert set(case["lines"]) == {"en", "it", "sv", "nb", "es", "pl"}
    over = [c for c in data["cases"] if any(e["type"] == "game_over" for e in c["events"])]
    for game_id, seats in data["seats"].items():
        assert {c["seat"] for c in over if c["game"] == game_id} == {*range(seats), None}
