"""The strong bot's choice at each move of a record (Briscola, small budgets: the tests stay fast)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cardavia.bots.analysis import analyse
from cardavia.bots.base import Bot
from cardavia.bots.registry import make_bot
from cardavia.games.engine import State
from cardavia.games.records import Seat, dumps, make_record, replay_states
from cardavia.games.registry import get_game

BUDGET = 24
SEED = 7


def _record(bots: list[Bot], seed: str) -> dict[str, Any]:
    state: State[Any] = get_game("briscola").new(None, seed)
    while (seat := state.to_move) is not None:
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat))
        state, _ = state.apply(action, seat=seat)
    seats = [Seat(f"bot-{n}", "bot", bot.level) for n, bot in enumerate(bots)]
    return json.loads(dumps(make_record(state, seats=seats, seed=seed)))


@pytest.fixture(scope="module")
def strong_v_random() -> dict[str, Any]:
    """Seat 0: the analyst itself (same seed and budget); seat 1: the random bot."""
    strong = make_bot("briscola", "strong", SEED, iterations=BUDGET)
    return _record([strong, make_bot("briscola", "random", "r")], "analysis")


def test_the_analysts_own_moves_never_differ(strong_v_random: dict[str, Any]) -> None:
    entries = analyse(strong_v_random, {0}, budget=BUDGET, seed=SEED)
    _, steps = replay_states(strong_v_random)
    assert len(entries) == len(steps)
    chosen = 0
    for entry, step in zip(entries, steps, strict=True):
        if step.seat != 0:
            assert entry is None
            continue
        assert entry is not None
        assert entry["differs"] is False
        assert entry["best"] == step.action
        chosen += not entry.get("forced", False)
    assert chosen > 10


def test_random_moves_differ_somewhere_and_best_is_always_legal(strong_v_random: dict[str, Any]) -> None:
    entries = analyse(strong_v_random, {1}, budget=BUDGET, seed=SEED)
    _, steps = replay_states(strong_v_random)
    for entry, step in zip(entries, steps, strict=True):
        if step.seat != 1:
            assert entry is None
            continue
        assert entry is not None
        legal = [a.to_data() for a in step.before.legal_actions(1)]
        assert entry["best"] in legal
        assert entry["differs"] == (entry["best"] != step.action)
        if len(legal) == 1:
            assert entry == {"best": legal[0], "differs": False, "forced": True}
        else:
            assert "forced" not in entry
    assert any(e is not None and e["differs"] for e in entries)
    # the last tricks leave one card in hand: those moves are forced
    assert any(e is not None and e.get("forced") for e in entries)


def test_the_analysis_is_deterministic_for_a_seed(strong_v_random: dict[str, Any]) -> None:
    both = analyse(strong_v_random, [0, 1], budget=BUDGET, seed=SEED)
    assert both == analyse(strong_v_random, (1, 0), budget=BUDGET, seed=SEED)
    assert all(e is not None for e in both)


def test_no_seats_no_analysis(strong_v_random: dict[str, Any]) -> None:
    assert set(map(type, analyse(strong_v_random, set(), budget=BUDGET))) == {type(None)}


@pytest.mark.parametrize(
    ("seats", "budget", "words"),
    [({2}, None, "seats"), ({-1}, None, "seats"), ({True}, None, "seats"), ({0}, 0, "budget")],
)
def test_bad_arguments_are_refused(
    strong_v_random: dict[str, Any], seats: set[int], budget: int | None, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        analyse(strong_v_random, seats, budget=budget)


def test_a_record_that_does_not_replay_is_refused(strong_v_random: dict[str, Any]) -> None:
    broken = copy.deepcopy(strong_v_random)
    broken["deals"][0]["actions"][0]["play"] = "XX"
    with pytest.raises(ValueError, match="does not replay"):
        analyse(broken, {0}, budget=BUDGET)


@pytest.mark.parametrize("game_id", ["scopa", "schnapsen", "doudizhu"])
def test_every_game_is_analysed_with_legal_choices(game_id: str) -> None:
    game = get_game(game_id)
    bots = [make_bot(game_id, "random", f"r{seat}") for seat in range(game.players)]
    state: State[Any] = game.new(None, "every game")
    while (seat := state.to_move) is not None:
        state, _ = state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat)), seat=seat)
    record = json.loads(dumps(make_record(state, seats=[Seat("r")] * game.players, seed="every game")))
    entries = analyse(record, {0}, budget=4, seed=SEED)
    _, steps = replay_states(record)
    assert len(entries) == len(steps)
    for entry, step in zip(entries, steps, strict=True):
        assert (entry is None) == (step.seat != 0)
        if entry is not None:
            legal = [a.to_data() for a in step.before.legal_actions(0)]
            assert entry["best"] in legal
            assert entry.get("forced", False) == (len(legal) == 1)
