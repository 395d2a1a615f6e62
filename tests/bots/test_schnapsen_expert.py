"""The `expert` Schnapsen bot: its reading of the opponent's play, and the bot contract."""

from __future__ import annotations

import random
from typing import Any

from cardavia.bots.basic_bot import BasicBot
from cardavia.bots.determinize import sample_places
from cardavia.bots.registry import levels_for, make_bot
from cardavia.bots.schnapsen_bots import schnapsen_hidden
from cardavia.bots.schnapsen_expert import SchnapsenExpertBot
from cardavia.bots.schnapsen_reading import Reading
from cardavia.games.schnapsen import GAME, SchnapsenState
from cardavia.games.schnapsen_rules import JACK


def basic_positions(seeds: range) -> list[SchnapsenState]:
    """Positions of basic-against-basic deals where seat 0 is to move after the opponent moved."""
    basic = make_bot("schnapsen", "basic", "b")
    assert isinstance(basic, BasicBot)
    positions = []
    for seed in seeds:
        state: Any = GAME.new({}, f"read{seed}")
        while (seat := state.to_move) is not None and len(state.log) == 1:
            if seat == 0 and any(e["seat"] == 1 for e in state.history()):
                positions.append(state)
            state, _ = state.apply(basic.choose(state.view(seat), state.legal_actions(seat)), seat=seat)
    return positions


def test_read_worlds_hold_more_of_a_basic_opponents_true_hand_than_uniform_ones() -> None:
    rng = random.Random(7)
    read_overlap = uniform_overlap = 0
    for state in basic_positions(range(8)):
        view = state.view(0)
        hidden = schnapsen_hidden(view)
        truth = set(state.hands[1])
        reading = Reading(view, 0.0)
        for _ in range(20):
            read_overlap += len(truth.intersection(reading.sample(hidden, rng)["hand"]))
            uniform_overlap += len(truth.intersection(sample_places(hidden, rng)["hand"]))
    assert read_overlap > 1.03 * uniform_overlap


def test_a_lead_without_exchanging_makes_worlds_with_the_trump_jack_rare() -> None:
    basic = make_bot("schnapsen", "basic", "b")
    for seed in range(200):
        state: Any = GAME.new({}, f"jack{seed}")
        if state.turn != 1:
            continue
        jack = JACK[state.trump]
        if jack in state.hands[0] or jack == state.talon[-1]:
            continue
        lead = basic.choose(state.view(1), state.legal_actions(1))
        state, _ = state.apply(lead, seat=1)
        break
    view = state.view(0)
    hidden = schnapsen_hidden(view)
    reading, rng = Reading(view, 0.0), random.Random(3)
    read = sum(jack in reading.sample(hidden, rng)["hand"] for _ in range(300))
    uniform = sum(jack in sample_places(hidden, rng)["hand"] for _ in range(300))
    assert read < 0.7 * uniform  # basic exchanges the jack before it leads


def test_a_reading_without_opponent_moves_samples_uniformly() -> None:
    state: Any = GAME.new({}, "quiet")
    seat = state.to_move
    view = state.view(seat)
    hidden = schnapsen_hidden(view)
    assert Reading(view, 0.0).sample(hidden, random.Random(5)) == sample_places(hidden, random.Random(5))


def play(seed: str, iterations: int) -> list[tuple[Any, list[Any], Any]]:
    """A deal of the expert (seat 0) against basic: each view the expert saw, its moves and its choice."""
    expert = SchnapsenExpertBot("e", iterations=iterations)
    basic = make_bot("schnapsen", "basic", "b")
    state: Any = GAME.new({}, seed)
    choices = []
    while (seat := state.to_move) is not None and len(state.log) == 1:
        legal = state.legal_actions(seat)
        if seat == 0:
            action = expert.choose(state.view(0), legal)
            assert action in legal
            choices.append((state.view(0), legal, action))
        else:
            action = basic.choose(state.view(1), legal)
        state, _ = state.apply(action, seat=seat)
    return choices


def test_the_expert_plays_only_legal_moves() -> None:
    for seed in ("legal1", "legal2", "legal3"):
        assert play(seed, 30)


def test_the_expert_is_deterministic_for_a_seed() -> None:
    twin = SchnapsenExpertBot("e", iterations=30)
    for view, legal, action in play("same", 30):
        assert twin.choose(view, legal) == action


def test_the_registry_makes_and_lists_the_expert() -> None:
    assert "expert" in levels_for("schnapsen")
    bot = make_bot("schnapsen", "expert", "s", iterations=10)
    assert isinstance(bot, SchnapsenExpertBot)
    assert bot.level == "expert"
