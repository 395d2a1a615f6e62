"""The games Cardavia plays, by id."""

from __future__ import annotations

from typing import Any

from cardavia.games import briscola, doudizhu, schnapsen, scopa
from cardavia.games.engine import Game
from cardavia.games.errors import UnknownGameError

GAMES: dict[str, Game[Any, Any]] = {
    g.id: g for g in (scopa.GAME, briscola.GAME, schnapsen.GAME, doudizhu.GAME)
}


def get_game(game_id: str) -> Game[Any, Any]:
    """The game with this id; ``UnknownGameError`` lists the ones there are."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(sorted(GAMES))})") from None
