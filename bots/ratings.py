"""The built-in bots' fixed, published ratings, per game and level.

Why fixed: a bot plays the same way in every match, so a rated game against it should move
only the person's rating, against a number everyone can look up. The figures come from
``cardavia arena --calibrate`` (a round robin of the levels, anchored at basic = 1500) and
live in ``data/ratings.json``, package data, so a recalibration changes one file and no
code; docs/ratings.md has the commands and the dates. A bot's deviation is small but not
zero (``BOT_DEVIATION``): the calibration is a measurement from finitely many matches, and
Glicko-2 weighs an opponent's result by how sure its rating is.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from cardavia.games.ratings import START_VOLATILITY, Rating

BOT_DEVIATION = 60.0
"""The deviation every built-in bot is rated with."""


@cache
def _table() -> dict[str, dict[str, int]]:
    text = (files("cardavia.bots") / "data" / "ratings.json").read_text(encoding="utf-8")
    table: dict[str, dict[str, int]] = json.loads(text)
    return table


def bot_ratings(game: str) -> dict[str, int]:
    """Every level's fixed rating in ``game``, weakest first (empty for a game with none)."""
    return dict(_table().get(game, {}))


def bot_rating(game: str, level: str) -> Rating:
    """The fixed rating of ``level`` in ``game``; ValueError when the pair has none."""
    try:
        rating = _table()[game][level]
    except KeyError:
        raise ValueError(f"no published rating for the {level!r} bot in {game!r}") from None
    return Rating(float(rating), BOT_DEVIATION, START_VOLATILITY)
