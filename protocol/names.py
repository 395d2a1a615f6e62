"""How a person is named to a reader: a bot by its seat and level, a guest by its number, anyone
else by the name they chose.

Names of bots and guests are structured on the wire: a bot seat is ``kind: "bot"`` with its
level in ``bot`` (a room's seats, a record's seats), or ``bot: true`` with ``level`` (history,
leaderboard rows); a guest (a person who chose no name) carries ``guest``, a number 100-999.
Each client renders them in its reader's language (``names.*`` in the catalogues); ``name``
stays in every message, filled by the server in English (``fallback_bot_name``,
``fallback_guest_name``) for clients that do not know these fields. The page's twin of
``display_name`` is ``clients/web/src/protocol/names.js``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, get_args

from cardavia.protocol.i18n import Texts
from cardavia.protocol.messages import BotLevel

GUEST_MIN: Final = 100
GUEST_MAX: Final = 999
"""A guest's number is one of 100-999: three digits, easy to read aloud at a table."""
LEVELS: Final[tuple[str, ...]] = get_args(BotLevel)
"""Every bot level, weakest first, as the wire spells them (``messages.BotLevel``)."""
_ENGLISH = Texts("en")


def guest_number(value: Any) -> int | None:
    """``value`` when it is a guest's number (an int in 100-999), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and GUEST_MIN <= value <= GUEST_MAX:
        return value
    return None


def bot_level(person: Mapping[str, Any]) -> str | None:
    """A bot's level, from either form a person comes in (``bot: "<level>"`` with ``kind: "bot"``,
    or ``bot: true`` with ``level``); None for people and for bots of no known level."""
    level = person.get("level")
    if level is None and person.get("kind") == "bot":
        level = person.get("bot")
    return level if isinstance(level, str) and level in LEVELS else None


def level_name(level: str, texts: Texts) -> str:
    """A bot level as it reads inside a bot's name: the bots catalogue's word, in lower case."""
    return texts.get(f"bots.level.{level}", level).lower()


def display_name(person: Mapping[str, Any], texts: Texts, seat: int | None = None) -> str:
    """``person`` (a seat, a history or record seat, a chat line, a leaderboard row) named in
    ``texts``' language: "Bot 2 (basic)" for a bot at ``seat`` (0-based), "Bot (basic)" for a
    bot level without a seat, "Player 563" for a guest, else the name as it came."""
    guest = guest_number(person.get("guest"))
    if guest is not None:
        return texts("names.guest", number=guest)
    level = bot_level(person)
    if level is not None:
        if seat is None:
            return texts("names.bot_level", level=level_name(level, texts))
        return texts("names.bot", number=seat + 1, level=level_name(level, texts))
    return str(person.get("name") or "")


def fallback_bot_name(seat: int, level: str) -> str:
    """The English name the server writes in ``name`` for the bot at ``seat``: "Bot 2 (basic)"."""
    return display_name({"kind": "bot", "bot": level}, _ENGLISH, seat)


def fallback_level_name(level: str) -> str:
    """The English name of a bot level on a leaderboard: "Bot (basic)"."""
    return display_name({"bot": True, "level": level}, _ENGLISH)


def fallback_guest_name(number: int) -> str:
    """The English name the server writes in ``name`` for a guest: "Player 563"."""
    return _ENGLISH("names.guest", number=number)
