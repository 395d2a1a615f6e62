"""The server's catalogue read for people: games, the deck traditions each can use, bot levels.

The server writes its names in the language of the session's hello; the
client names games and decks from the package's own tradition data instead,
in the language the player reads now (which can change in the lobby), and
falls back to the server's words for a game or deck this client does not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardavia.games.errors import UnknownGameError, UnknownTraditionError
from cardavia.games.traditions import game_name, get_tradition
from cardavia.protocol import messages as m


@dataclass(frozen=True)
class GameEntry:
    id: str
    name: str
    players: int
    options: dict[str, Any]


@dataclass(frozen=True)
class DeckEntry:
    id: str
    name: str
    place: str
    description: str
    cards: int
    games: tuple[str, ...]
    default_for: tuple[str, ...]


class Catalogue:
    """What the server offers, as the lobby and the create-room form list it."""

    def __init__(self, message: m.Catalogue) -> None:
        deck_games: dict[str, str] = {}
        self.decks = [self._deck(d, deck_games) for d in message.decks]
        self.games = [
            GameEntry(
                id=str(g["id"]),
                name=deck_games.get(str(g["id"]), str(g.get("name", g["id"]))),
                players=int(g.get("players", 2)),
                options=dict(g.get("options") or {}),
            )
            for g in message.games
        ]
        self.bots = [dict(b) for b in message.bots]

    @staticmethod
    def _deck(raw: Mapping[str, Any], game_names: dict[str, str]) -> DeckEntry:
        games: list[str] = []
        for g in raw.get("games") or []:  # {"id", "name"} with localized names, or bare ids
            if isinstance(g, Mapping):
                games.append(str(g["id"]))
                game_names.setdefault(str(g["id"]), str(g.get("name", g["id"])))
            else:
                games.append(str(g))
        return DeckEntry(
            id=str(raw["id"]),
            name=str(raw.get("name", raw["id"])),
            place=str(raw.get("place", "")),
            description=str(raw.get("description", "")),
            cards=int(raw.get("cards", 0)),
            games=tuple(games),
            default_for=tuple(str(g) for g in raw.get("default_for") or []),
        )

    def game_name(self, game_id: str, lang: str) -> str:
        """The game's name in ``lang``."""
        try:
            return game_name(game_id, lang)
        except UnknownGameError:
            return next((g.name for g in self.games if g.id == game_id), game_id)

    def deck_texts(self, deck_id: str, lang: str) -> tuple[str, str, str]:
        """The deck tradition's name, place and description in ``lang``."""
        try:
            tradition = get_tradition(deck_id)
        except UnknownTraditionError:
            deck = next((d for d in self.decks if d.id == deck_id), None)
            return (deck.name, deck.place, deck.description) if deck else (deck_id, "", "")
        return tradition.display_name(lang), tradition.place(lang), tradition.display_description(lang)

    def game(self, game_id: str) -> GameEntry:
        return next(g for g in self.games if g.id == game_id)

    def decks_for(self, game_id: str) -> list[DeckEntry]:
        """The game's traditions, its default first."""
        decks = [d for d in self.decks if game_id in d.games]
        return sorted(decks, key=lambda d: game_id not in d.default_for)

    def levels_for(self, game_id: str) -> list[str]:
        """Bot levels offered for the game, ``basic`` first where there is one."""
        levels = [str(b["level"]) for b in self.bots if b.get("game") == game_id and "level" in b]
        return sorted(levels, key=lambda level: level != "basic")

    def bot_description(self, game_id: str, level: str) -> str:
        return next(
            (
                str(b.get("description", ""))
                for b in self.bots
                if b.get("game") == game_id and b.get("level") == level
            ),
            "",
        )
