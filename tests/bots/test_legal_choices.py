"""Every level returns a legal action, over thousands of random positions."""

from __future__ import annotations

import pytest

from cardavia.bots.registry import make_bot
from tests.bots.positions import BOT_GAMES, random_positions

FAST_MATCHES = {"scopa": 60, "briscola": 120, "schnapsen": 120, "doudizhu": 40}
STRONG_MATCHES = {"scopa": 6, "briscola": 20, "schnapsen": 10, "doudizhu": 8}
"""Random matches to draw positions from: a few thousand for the fast levels, hundreds for `strong`."""


@pytest.mark.parametrize("game", BOT_GAMES)
@pytest.mark.parametrize("level", ["random", "basic"])
def test_fast_levels_choose_legal_actions(game: str, level: str) -> None:
    bot = make_bot(game, level, f"legal-{level}")
    count = 0
    for state in random_positions(game, f"legal-{game}-{level}", FAST_MATCHES[game]):
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert bot.choose(state.view(seat), legal) in legal
        count += 1
    assert count >= 2000


@pytest.mark.slow
@pytest.mark.parametrize("game", BOT_GAMES)
def test_strong_chooses_legal_actions(game: str) -> None:
    bot = make_bot(game, "strong", "legal-strong", iterations=4)
    count = 0
    for state in random_positions(game, f"legal-strong-{game}", STRONG_MATCHES[game], every=2):
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert bot.choose(state.view(seat), legal) in legal
        count += 1
    assert count >= 150
