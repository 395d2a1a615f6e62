"""Positions for the renderer tests, built through each game's public ``position(text)``."""

from __future__ import annotations

from typing import Any

from cardavia.games.cards import DECK_40, DECK_SCHNAPSEN
from cardavia.games.engine import State
from cardavia.games.registry import get_game


def scopa(hands: tuple[str, str], table: str, *, turn: int = 0, stock: int | None = None) -> State[Any]:
    """A Scopa deal: seat ``turn`` to move; the rest of the pack is the stock (a multiple of 6
    cards, or ``stock`` of them) and the other seat's pile."""
    used = set(" ".join((*hands, table)).split())
    rest = [c.code for c in DECK_40 if c.code not in used]
    keep = stock if stock is not None else len(rest) - len(rest) % 6
    rest, taken = rest[:keep], rest[keep:]
    text = f"""game: scopa
target: 11
totals: 0 0
deal: 0
dealer: {1 - turn}
turn: {turn}
hands: {hands[0]} / {hands[1]}
table: {table or "-"}
stock: {" ".join(rest) or "-"}
piles: - / {" ".join(taken) or "-"}
scopas: 0 0
last_capture: {1 if taken else "-"}
"""
    return get_game("scopa").position(text)


def schnapsen(hands: tuple[str, str], trump: str, indicator: str, *, turn: int = 0) -> State[Any]:
    """A Schnapsen deal after dealing: seat ``turn`` leads; the talon ends with the turned-up card."""
    used = set(" ".join(hands).split()) | {indicator}
    talon = [c.code for c in DECK_SCHNAPSEN if c.code not in used] + [indicator]
    text = f"""game: schnapsen
target: 7
counts: 7 7
deal: 0
dealer: {1 - turn}
turn: {turn}
trump: {trump}
talon: {" ".join(talon)}
hands: {hands[0]} / {hands[1]}
trick: -
won: - / -
marriages: -
closed: -
shown: -
"""
    return get_game("schnapsen").position(text)
