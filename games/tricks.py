"""Trick-taking helpers shared by Briscola and Schnapsen."""

from __future__ import annotations

from collections.abc import Mapping

from cardavia.games.cards import Card


def trick_winner(lead: Card, follow: Card, trump: str, order: Mapping[str, int]) -> bool:
    """True when ``follow`` beats ``lead``: a higher card of the led suit, or a trump on a non-trump.

    ``order`` maps a rank to its strength (higher wins). A card of another
    non-trump suit never beats the lead.
    """
    if follow.suit == lead.suit:
        return order[follow.rank] > order[lead.rank]
    return follow.suit == trump


def card_points(cards: list[Card] | tuple[Card, ...], points: Mapping[str, int]) -> int:
    return sum(points[c.rank] for c in cards)
