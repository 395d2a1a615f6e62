from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from cardavia.games import briscola, scopa
from cardavia.games.engine import Game, State
from cardavia.games.records import FORMAT, Seat, dumps, make_record, read_lines, replay


def _finished(game: Game[Any, Any], seed: str) -> State[Any]:
    state: State[Any] = game.new(None, seed)
    rng = random.Random(seed)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, _ = state.apply(rng.choice(legal), seat=seat)
    return state


def _record(game: Game[Any, Any], seed: str) -> dict[str, Any]:
    state = _finished(game, seed)
    seats = [Seat("Anna", "human"), Seat("random-1", "bot", "random")]
    return json.loads(dumps(make_record(state, seats=seats, seed=seed)))


def _seed_with_kings_redeal() -> str:
    for number in range(5000):
        seed = f"kings/{number}"
        if scopa.GAME.new(None, seed).deal_logs()[0]["redeals"]:
            return seed
    raise AssertionError("no seed with a kings redeal")


def test_a_record_has_exactly_the_fields_of_records_md() -> None:
    record = _record(scopa.GAME, "fields")
    assert set(record) == {"format", "game", "deck", "seats", "seed", "options", "deals", "result"}
    assert record["format"] == FORMAT == "cardavia-record/1"
    assert record["game"] == "scopa"
    assert record["options"] == {"target": 11}
    assert record["seats"][0] == {"name": "Anna", "kind": "human", "bot": None}
    for deal in record["deals"]:
        assert set(deal) == {"dealer", "order", "redeals", "actions", "score"}
        assert len(deal["order"]) == 40
        assert all(
            "seat" in action and "play" in action and "capture" in action for action in deal["actions"]
        )
        assert set(deal["score"]) == {"points", "detail"}
    assert set(record["result"]) == {"scores", "winner", "reason"}
    assert "\n" not in dumps(record)


@pytest.mark.parametrize("game", [scopa.GAME, briscola.GAME], ids=lambda g: g.id)
def test_a_record_replays_to_its_result(game: Game[Any, Any]) -> None:
    record = _record(game, "replays")
    report = replay(record)
    assert report.ok, report.problems
    assert report.result == record["result"]


def test_a_kings_redeal_is_recorded_and_replayed() -> None:
    seed = _seed_with_kings_redeal()
    record = _record(scopa.GAME, seed)
    thrown = record["deals"][0]["redeals"]
    assert thrown
    assert all(sum(1 for code in order[6:10] if code[0] == "K") >= 3 for order in thrown)
    assert replay(record).ok
    dropped = copy.deepcopy(record)
    dropped["deals"][0]["order"] = thrown[0]
    dropped["deals"][0]["redeals"] = []
    report = replay(dropped)
    assert not report.ok
    assert any("redeal" in p for p in report.problems)


def test_briscola_dealer_is_the_seat_that_does_not_lead() -> None:
    record = _record(briscola.GAME, "lead")
    deal = record["deals"][0]
    assert deal["actions"][0]["seat"] == 1 - deal["dealer"]


def _problems(record: dict[str, Any]) -> list[str]:
    report = replay(record)
    assert not report.ok
    return report.problems


def test_tampered_records_are_reported_not_crashed() -> None:
    record = _record(scopa.GAME, "tamper")

    changed = copy.deepcopy(record)
    changed["result"]["scores"] = [99, 0]
    assert any("result" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][0]["score"]["points"] = [9, 9]
    assert any("deal 1: score" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][-1]["actions"].pop()
    assert any("end before the game does" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][0]["actions"][0]["seat"] = 1 - changed["deals"][0]["actions"][0]["seat"]
    assert any("turn" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][0]["order"] = changed["deals"][0]["order"][:39]
    assert any("40-card deck" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][0]["actions"][0]["play"] = "9D"
    assert _problems(changed)

    changed = copy.deepcopy(record)
    changed["format"] = "cardavia-record/99"
    assert any("format" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["game"] = "poker"
    assert any("unknown game" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    del changed["deals"]
    assert any("malformed" in p for p in _problems(changed))

    changed = copy.deepcopy(record)
    changed["deals"][-1]["actions"].append(dict(changed["deals"][-1]["actions"][-1]))
    assert any("already over" in p for p in _problems(changed))


def test_a_record_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="finished"):
        make_record(scopa.GAME.new(None, "x"), seats=[Seat("a"), Seat("b")], seed="x")


def test_read_lines_reports_bad_json_and_skips_blank_lines() -> None:
    lines = ['{"a": 1}\n', "\n", "{broken\n"]
    read = list(read_lines(lines))
    assert read[0] == (1, {"a": 1})
    assert read[1][0] == 3
    assert isinstance(read[1][1], str)
    assert read[1][1].startswith("not JSON")
