"""Every level returns a legal action, over thousands of random positions."""

from __future__ import annotations

import pytest

from cardavia.bots.registry import make_bot
from tests.bots.positions import BOT_GAMES, random_positions


@pytest.mark.parametrize("game", BOT_GAMES)
@pytest.mark.parametrize("level", ["random", "basic"])
def test_fast_levels_choose_legal_actions(game: str, level: str) -> None:
    bot = make_bot(game, level, f"legal-{level}")
    count = 0
    for state in random_positions(game, f"legal-{game}-{level}", 60 if game == "scopa" else 120):
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert bot.choose(state.view(seat), legal) in legal
        count += 1
    assert count >= 2000


@pytest.mark.parametrize("game", BOT_GAMES)
def test_strong_chooses_legal_actions(game: str) -> None:
    bot = make_bot(game, "strong", "legal-strong", iterations=4)
    count = 0
    for state in random_positions(game, f"legal-strong-{game}", 6 if game == "scopa" else 20, every=2):
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert bot.choose(state.view(seat), legal) in legal
        count += 1
    assert count >= 150
