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


def schnapsen_won_at_66() -> dict[str, Any]:
    """A Schnapsen deal's end as the engine sends it: seat 0 reached 66 (20 of them a marriage)
    against 25, for 2 game points (the loser had fewer than 33); the match is 2 to 0 of 7."""
    detail = {"winner": 0, "reason": "66", "game_points": 2, "card_points": [66, 25],
              "marriage_points": [20, 0], "uncredited": [0, 0], "totals": [86, 25], "tricks": [5, 2],
              "closed_by": None}  # fmt: skip
    return {"type": "deal_end", "deal": 0, "points": [2, 0], "detail": detail,
            "totals": [2, 0], "counts": [5, 7]}  # fmt: skip
