"""The bot catalogue: every level, for every game it can play.

``make_bot(game_id, level, seed)`` is the one way the server, clients and
the arena build a bot; ``catalogue()`` is plain data a client can show
(names, levels, short descriptions) without importing any bot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardavia.bots.base import Bot
from cardavia.bots.basic_bot import POLICIES, BasicBot
from cardavia.bots.models import MODELS
from cardavia.bots.random_bot import RandomBot
from cardavia.bots.ratings import bot_ratings
from cardavia.bots.strong_bot import StrongBot
from cardavia.games.registry import GAMES


@dataclass(frozen=True, slots=True)
class Level:
    """One bot level: how to build it and which games it plays."""

    level: str
    name: str
    make: Callable[[str | int | None, int | None], Bot]
    games: Callable[[], list[str]]
    description: Callable[[str], str]


def _random(seed: str | int | None, iterations: int | None) -> Bot:
    return RandomBot(seed)


def _basic(seed: str | int | None, iterations: int | None) -> Bot:
    return BasicBot(seed)


def _strong(seed: str | int | None, iterations: int | None) -> Bot:
    return StrongBot(seed, iterations=iterations)


def _no_generic_expert(seed: str | int | None, iterations: int | None) -> Bot:
    raise ValueError("the expert level is a game's own bot: make it through make_bot")


EXPERTS: dict[str, type[StrongBot]] = {}
"""Games with an `expert` bot, and its class (``register_expert``): the level lists exactly these."""


def register_expert(game_id: str, bot: type[StrongBot]) -> None:
    """List ``bot`` as ``game_id``'s `expert` level (built as ``bot(seed, iterations=...)``)."""
    EXPERTS[game_id] = bot


LEVELS: dict[str, Level] = {
    "random": Level(
        "random",
        "Random",
        _random,
        lambda: sorted(GAMES),
        lambda game: RandomBot.description,
    ),
    "basic": Level(
        "basic",
        "Basic",
        _basic,
        lambda: sorted(g for g in POLICIES if g in GAMES),
        lambda game: POLICIES[game].description,
    ),
    "strong": Level(
        "strong",
        "Strong",
        _strong,
        lambda: sorted(g for g in MODELS if g in GAMES),
        lambda game: (
            "Deals out the cards it cannot see many times over and plays every move on "
            "each deal; plays the last cards perfectly."
        ),
    ),
    "expert": Level(
        "expert",
        "Expert",
        _no_generic_expert,
        lambda: sorted(g for g in EXPERTS if g in GAMES),
        lambda game: EXPERTS[game].description,
    ),
}
"""Every level, weakest first."""


GameBotFactory = Callable[[str, str | int | None, int | None], Bot]
"""(level, seed, iterations) -> a bot: a game whose bots are its own classes."""

GAME_FACTORIES: dict[str, GameBotFactory] = {}
"""Games whose `basic`/`strong` bots are their own classes (a game module's ``make_bot``)."""


def register_game_bots(game_id: str, factory: GameBotFactory) -> None:
    """Route ``make_bot`` for ``game_id`` through ``factory`` (``random`` stays the common one).

    The game's policy, determinizer and search model still go in ``POLICIES``,
    ``DETERMINIZERS`` and ``MODELS``: that is what makes its levels listed.
    """
    GAME_FACTORIES[game_id] = factory


def levels_for(game_id: str) -> list[str]:
    """The levels that can play ``game_id``, weakest first."""
    return [name for name, level in LEVELS.items() if game_id in level.games()]


def make_bot(
    game_id: str, level: str, seed: str | int | None = None, *, iterations: int | None = None
) -> Bot:
    """A bot of ``level`` for ``game_id``; ``iterations`` overrides the default search budget."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    if game_id not in LEVELS[level].games():
        raise ValueError(f"no {level} bot for {game_id!r} (it plays: {', '.join(LEVELS[level].games())})")
    if level == "expert":
        return EXPERTS[game_id](seed, iterations=iterations)
    factory = GAME_FACTORIES.get(game_id)
    if factory is not None and level != "random":
        return factory(level, seed, iterations)
    return LEVELS[level].make(seed, iterations)


def catalogue(game_id: str | None = None) -> list[dict[str, Any]]:
    """Plain data for clients: one entry per (game, level), games in id order, levels weakest first.

    ``ratings`` is the level's fixed rating in that entry's game (``{game: rating}``; empty when
    the level has none published), so a player sees what a rated game against it is worth.
    """
    games = [game_id] if game_id is not None else sorted(GAMES)
    entries: list[dict[str, Any]] = []
    for game in games:
        for name in levels_for(game):
            level = LEVELS[name]
            entries.append(
                {
                    "id": f"{game}-{name}",
                    "game": game,
                    "level": name,
                    "name": f"{level.name} ({GAMES[game].name})",
                    "description": level.description(game),
                    "ratings": {game: r} if (r := bot_ratings(game).get(name)) is not None else {},
                }
            )
    return entries


def _register_own_bots() -> None:
    """Schnapsen and Dou Dizhu bring their own basic and strong bot classes (the generic search
    does not fit them: closed-talon solving, hundreds of leads); their modules fill the framework's
    tables so that their levels are listed and routed here. Each game's expert builds on its
    strong bot's module, which cannot import it back: the experts are listed here."""
    from cardavia.bots import (
        briscola_expert,
        doudizhu_bots,
        doudizhu_expert,
        schnapsen_bots,
        schnapsen_expert,
    )

    for bots in (schnapsen_bots.BOTS, doudizhu_bots.BOTS):
        bots.register()
        register_game_bots(bots.game_id, bots.make)
    register_expert(schnapsen_bots.GAME_ID, schnapsen_expert.SchnapsenExpertBot)
    register_expert(doudizhu_bots.GAME_ID, doudizhu_expert.DouDizhuExpertBot)
    register_expert("briscola", briscola_expert.BriscolaExpertBot)


_register_own_bots()
