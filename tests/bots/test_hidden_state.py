"""A bot decides from the view alone: it never receives or touches the engine state."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardavia.bots.base import Bot
from cardavia.bots.determinize import determinize
from cardavia.bots.registry import levels_for, make_bot
from cardavia.games.engine import State
from cardavia.games.registry import get_game
from tests.bots.positions import BOT_GAMES, random_positions

ENGINE_METHODS = (
    "legal_actions",
    "legal_moves",
    "apply",
    "apply_unchecked",
    "view",
    "secret_cards",
    "places",
    "to_text",
)
"""Everything a bot could read a state through (``legal_moves``: Dou Dizhu's rank-level moves)."""


def bot(game: str, level: str) -> Bot:
    return make_bot(game, level, "hidden", iterations=6)


@pytest.fixture
def guarded() -> Iterator[list[State[Any]]]:
    """States listed here raise on any use while the fixture is active."""
    watched: list[State[Any]] = []
    patched: list[tuple[type, str, Any]] = []
    for game in BOT_GAMES:
        cls = type(get_game(game).new(None, "x"))
        for name in ENGINE_METHODS:
            original = getattr(cls, name, None)
            if original is None:
                continue

            def guard(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
                if any(self is w for w in watched):
                    raise AssertionError("a bot touched the engine state")
                return _original(self, *args, **kwargs)

            patched.append((cls, name, original))
            setattr(cls, name, guard)
    yield watched
    for cls, name, original in patched:
        setattr(cls, name, original)


@pytest.mark.parametrize(("game", "level"), [(g, level) for g in BOT_GAMES for level in levels_for(g)])
def test_a_bot_never_touches_the_engine_state(game: str, level: str, guarded: list[State[Any]]) -> None:
    for state in random_positions(game, f"guard-{level}", 2, every=4):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        guarded.append(state)
        action = bot(game, level).choose(view, legal)
        guarded.clear()
        assert action in legal


@pytest.mark.parametrize("game", BOT_GAMES)
def test_a_bot_decides_the_same_from_a_plain_copy_of_the_view(game: str) -> None:
    for state in random_positions(game, "plain", 2, every=5):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        copy = json.loads(json.dumps(view))
        assert copy == view  # plain data: nothing in it leads back to the state
        for level in levels_for(game):
            assert bot(game, level).choose(copy, legal) == bot(game, level).choose(view, legal)


@pytest.mark.parametrize("game", BOT_GAMES)
def test_two_states_that_look_alike_get_the_same_choice(game: str) -> None:
    """States that differ only in cards the seat cannot see give every bot the same view."""
    g = get_game(game)
    for state in random_positions(game, "twins", 3, every=6):
        seat = state.to_move
        real = g.position(state.to_text())
        twin = determinize(state.view(seat), random.Random(7))
        assert real.view(seat) == twin.view(seat)
        legal = real.legal_actions(seat)
        assert legal == twin.legal_actions(seat)
        for level in levels_for(game):
            assert bot(game, level).choose(real.view(seat), legal) == bot(game, level).choose(
                twin.view(seat), legal
            )
