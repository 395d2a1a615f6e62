"""Search: legal, repeatable with a seed and an iteration budget, picklable bots."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from cardavia.bots.base import Budget, decision_rng
from cardavia.bots.match import play_match
from cardavia.bots.models import MODELS
from cardavia.bots.registry import make_bot
from cardavia.bots.search import flat_rollouts, ismcts
from cardavia.bots.strong_bot import StrongBot
from cardavia.games.registry import get_game
from tests.bots.positions import BOT_GAMES, GENERIC_GAMES, position_after, random_positions


@pytest.mark.parametrize("game", GENERIC_GAMES)
def test_ismcts_is_legal_and_repeatable(game: str) -> None:
    model = dataclasses.replace(MODELS[game], algorithm="ismcts")
    for state in random_positions(game, "ismcts", 2, every=7):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        first = ismcts(model, view, legal, random.Random(1), iterations=30)
        again = ismcts(model, view, legal, random.Random(1), iterations=30)
        assert first == again
        assert first.action in legal
        assert first.iterations == 30
        assert sum(s.visits for s in first.stats) == 30
        assert {s.action for s in first.stats} == set(legal)


@pytest.mark.parametrize("game", GENERIC_GAMES)
def test_ismcts_with_an_opponent_at_random_is_legal_and_repeatable(game: str) -> None:
    """The opponent of a random-play iteration moves at random in the tree too, not by UCB."""
    model = dataclasses.replace(
        MODELS[game], algorithm="ismcts", random_opponent_share=1.0, opponent_model=None
    )
    for state in random_positions(game, "ismcts-random", 2, every=7):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        first = ismcts(model, view, legal, random.Random(3), iterations=40)
        assert first == ismcts(model, view, legal, random.Random(3), iterations=40)
        assert first.action in legal
        assert sum(s.visits for s in first.stats) == 40


@pytest.mark.parametrize("game", GENERIC_GAMES)
def test_flat_search_compares_every_action_on_the_same_deals(game: str) -> None:
    model = MODELS[game]
    state = position_after(game, "flat", 4)
    seat = state.to_move
    view, legal = state.view(seat), state.legal_actions(seat)
    result = flat_rollouts(model, view, legal, random.Random(2), iterations=10 * len(legal))
    assert result.action in legal
    assert {s.visits for s in result.stats} == {10}
    assert result == flat_rollouts(model, view, legal, random.Random(2), iterations=10 * len(legal))


def test_search_needs_a_limit() -> None:
    state = position_after("briscola", "limit", 2)
    seat = state.to_move
    with pytest.raises(ValueError, match="limit"):
        ismcts(
            MODELS["briscola"], state.view(seat), state.legal_actions(seat), random.Random(), iterations=None
        )


SHORT = {"scopa": {"target": 1}, "schnapsen": {"target": 2}}
"""Options for a short match of each game."""


@pytest.mark.parametrize("game", BOT_GAMES)
def test_a_time_budget_also_stops_the_search(game: str) -> None:
    state = next(s for s in random_positions(game, "time", 2) if len(s.legal_actions(s.to_move)) > 2)
    seat = state.to_move
    legal = state.legal_actions(seat)
    action = make_bot(game, "strong", "t").choose(state.view(seat), legal, Budget(seconds=0.01))
    assert action in legal


@pytest.mark.slow
@pytest.mark.parametrize("game", BOT_GAMES)
def test_a_seeded_bot_repeats_its_choices(game: str) -> None:
    def match(seed: str) -> list[str]:
        bots = [make_bot(game, "strong", f"{seed}/{s}", iterations=9) for s in range(get_game(game).players)]
        state = play_match(get_game(game), bots, "repeat", SHORT.get(game))
        return [str(a) for deal in state.log for _, a in deal.actions]

    first = match("a")
    assert match("a") == first
    assert match("b") != first


@pytest.mark.parametrize("game", BOT_GAMES)
def test_a_bot_pickles_and_decides_the_same_in_another_process(game: str) -> None:
    state = next(s for s in random_positions(game, "pickle", 2) if len(s.legal_actions(s.to_move)) > 2)
    seat = state.to_move
    view, legal = state.view(seat), state.legal_actions(seat)
    for level in ("random", "basic", "strong"):
        bot = make_bot(game, level, "p", iterations=12)
        copy = pickle.loads(pickle.dumps(bot))
        assert copy.choose(view, legal) == make_bot(game, level, "p", iterations=12).choose(view, legal)


def test_the_decision_generator_depends_on_seed_and_view() -> None:
    view = {"game": "briscola", "hand": ["AS"]}
    assert decision_rng("s", view).random() == decision_rng("s", dict(view)).random()
    assert decision_rng("s", view).random() != decision_rng("t", view).random()
    assert decision_rng("s", view).random() != decision_rng("s", {**view, "hand": []}).random()
    assert 0 <= decision_rng(None, view).random() < 1


def test_a_forced_move_needs_no_search() -> None:
    for state in random_positions("briscola", "forced", 3):
        seat = state.to_move
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            assert StrongBot("f", iterations=10**9).choose(state.view(seat), legal) == legal[0]
            return
    pytest.fail("no forced move found")
