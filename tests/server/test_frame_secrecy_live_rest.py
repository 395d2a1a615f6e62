"""The live frame checks of test_frame_secrecy_live.py, for the games that file leaves to this
one (a game's run takes seconds: the two files run side by side in two test processes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.games.registry import GAMES
from tests.server.live_frames import (
    FIRST_GAMES,
    Wire,
    no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed,
)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(set(GAMES) - set(FIRST_GAMES)))
async def test_no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed(
    game_id: str, wire: Wire, tmp_path: Path
) -> None:
    await no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed(game_id, wire, tmp_path)
