"""A whole deal of every game in Polish shows no English word (a file per language, so that
the two languages' matches, the slowest of the terminal client's tests, run side by side)."""

from __future__ import annotations

import pytest

from tests.clients.tui.whole_deal import a_whole_deal_shows_no_english_word


@pytest.mark.slow
@pytest.mark.parametrize("game", ["scopa", "briscola", "schnapsen", "doudizhu"])
async def test_a_whole_deal_shows_no_english_word(game: str) -> None:
    await a_whole_deal_shows_no_english_word(game, "pl")
