"""replay_views: every seat's view through a recorded match, on the same replay as replay()."""

from __future__ import annotations

import copy
import json
import random
from itertools import pairwise
from typing import Any

import pytest

from cardavia.games.engine import Game, State
from cardavia.games.records import Seat, dumps, make_record, replay_states, replay_views
from cardavia.games.registry import GAMES


def _record(game: Game[Any, Any], seed: str) -> dict[str, Any]:
    state: State[Any] = game.new(None, seed)
    rng = random.Random(seed)
    while (seat := state.to_move) is not None:
        state, _ = state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    seats = [Seat(f"seat-{n}", "bot", "random") for n in range(game.players)]
    return json.loads(dumps(make_record(state, seats=seats, seed=seed)))


def _recorded_actions(record: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(number, a) for number, deal in enumerate(record["deals"], 1) for a in deal["actions"]]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_one_step_per_recorded_action_ending_in_the_result(game_id: str) -> None:
    game = GAMES[game_id]
    record = _record(game, f"views/{game_id}")
    views, steps = replay_views(record)
    recorded = _recorded_actions(record)
    assert len(steps) == len(recorded)
    for step, (deal, data) in zip(steps, recorded, strict=True):
        assert step.deal == deal
        assert step.seat == data["seat"]
        assert step.action == {k: v for k, v in data.items() if k != "seat"}
        assert len(step.views) == game.players
    for seat in range(game.players):
        assert views[seat] == game.new(None, f"views/{game_id}").view(seat)
        last = steps[-1].views[seat]
        assert isinstance(last, dict)
        assert last["result"] == record["result"]
        assert last["seat"] == seat


def test_each_seat_sees_its_own_hand_and_no_one_elses() -> None:
    game = GAMES["briscola"]
    record = _record(game, "hands")
    views, steps = replay_views(record)
    first = steps[0]
    # the first card played leaves its player's hand in that player's view only
    played = first.action["play"]
    assert played in views[first.seat]["hand"]
    assert played not in first.views[first.seat]["hand"]
    other = 1 - first.seat
    assert views[other]["hand"] == first.views[other]["hand"]
    assert not set(views[first.seat]["hand"]) & set(views[other]["hand"])


def test_the_states_around_each_step_are_the_engines() -> None:
    game = GAMES["scopa"]
    record = _record(game, "states")
    start, actions = replay_states(record)
    assert start.to_move == actions[0].seat
    for previous, current in pairwise(actions):
        assert previous.after is current.before
    assert actions[-1].after.result is not None
    assert actions[-1].after.result.to_data() == record["result"]


def test_an_annotated_move_keeps_its_annotation() -> None:
    record = _record(GAMES["briscola"], "auto")
    record["deals"][0]["actions"][2]["auto"] = True
    _, steps = replay_views(record)
    assert steps[2].action["auto"] is True
    assert "auto" not in steps[1].action


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r["deals"][-1]["actions"].pop(),
        lambda r: r["result"].update(scores=[1, 2]),
        lambda r: r["deals"][0]["actions"][0].update(seat=1 - r["deals"][0]["actions"][0]["seat"]),
        lambda r: r.pop("deals"),
        lambda r: r.update(format="cardavia-record/0"),
    ],
    ids=["cut short", "wrong result", "out of turn", "no deals", "other format"],
)
def test_a_record_that_does_not_replay_is_refused(tamper: Any) -> None:
    record = copy.deepcopy(_record(GAMES["briscola"], "tamper"))
    tamper(record)
    with pytest.raises(ValueError, match="does not replay"):
        replay_views(record)
