"""Schnapsen's `basic` policy: what a seat sees, and the moves a casual player makes.

``basic`` plays the rules of thumb of a casual player: exchange the trump
jack, announce marriages (the forty first), close when the top trumps bring
66 home, win a trick cheaply with the suit led, trump only aces and tens, and
throw the cheapest card otherwise, keeping possible marriages together. The
`strong` search (``schnapsen_bots.py``) plays its playouts with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardavia.bots.basic_bot import BasicPolicy
from cardavia.games.cards import DECK_SCHNAPSEN, Card, parse_cards
from cardavia.games.engine import Action, State, View
from cardavia.games.schnapsen import SchnapsenState
from cardavia.games.schnapsen_rules import (
    CARD_POINTS,
    PARTNER,
    TRICK_ORDER,
    WIN,
    Close,
    Exchange,
    Play,
    marriage_value,
)
from cardavia.games.tricks import trick_winner

POINTS: Final = {c: CARD_POINTS[c.rank] for c in DECK_SCHNAPSEN}
STRENGTH: Final = {c: TRICK_ORDER[c.rank] for c in DECK_SCHNAPSEN}
SUIT_CARDS: Final = {s: frozenset(c for c in DECK_SCHNAPSEN if c.suit == s) for s in "CDHS"}
STRONGEST_FIRST: Final = {
    s: sorted(cards, key=STRENGTH.__getitem__, reverse=True) for s, cards in SUIT_CARDS.items()
}


# ------------------------------------------------------------ what a seat sees
@dataclass(frozen=True, slots=True)
class SchnapsenSeen:
    """What one seat sees of a deal: all the basic policy reads."""

    hand: tuple[Card, ...]
    trump: str
    lead: Card | None
    strict: bool
    points: int
    """Own credited points."""
    pending: int
    """Own announced marriage points waiting for a first trick."""
    has_trick: bool
    gone: frozenset[Card]
    """Cards out of play: both won piles and the trick."""
    marriages: tuple[tuple[int, str], ...]
    seat: int

    @classmethod
    def from_view(cls, view: View) -> SchnapsenSeen:
        seat = view["seat"]
        gone = frozenset(parse_cards([*view["won"][0], *view["won"][1], *view["trick"]]))
        trick = view["trick"]
        return cls(
            parse_cards(view["hand"]),
            view["trump"],
            Card.parse(trick[0]) if trick else None,
            view["strict"],
            view["points"][seat],
            view["pending"],
            view["tricks"][seat] > 0,
            gone,
            tuple((m["seat"], m["suit"]) for m in view["marriages"]),
            seat,
        )

    @classmethod
    def from_state(cls, state: State[Any], seat: int) -> SchnapsenSeen:
        """The same as ``from_view(state.view(seat))``, read without building the view."""
        assert isinstance(state, SchnapsenState)
        return cls(
            tuple(state.hands[seat]),
            state.trump,
            state.trick[0] if state.trick else None,
            state.strict,
            state.points(seat),
            state.pending(seat),
            bool(state.won[seat]),
            frozenset((*state.won[0], *state.won[1], *state.trick)),
            state.marriages,
            seat,
        )


# --------------------------------------------------------------- basic policy
def _may_marry(seen: SchnapsenSeen, card: Card) -> bool:
    """A king or queen whose marriage can still be announced by this seat."""
    partner = PARTNER.get(card)
    return partner is not None and partner not in seen.gone and (seen.seat, card.suit) not in seen.marriages


def _keep_value(seen: SchnapsenSeen, card: Card) -> float:
    """What giving ``card`` away costs: its points, more for trumps and marriage halves."""
    cost = float(POINTS[card])
    if card.suit == seen.trump:
        cost += 8 + STRENGTH[card]
    if _may_marry(seen, card):
        cost += 6 if card.suit != seen.trump else 10
    return cost


def _masters(seen: SchnapsenSeen, suit: str) -> list[Card]:
    """Own cards of ``suit`` that win any trick of that suit: every stronger one is out or ours."""
    masters: list[Card] = []
    for card in STRONGEST_FIRST[suit]:
        if card in seen.gone:
            continue
        if card not in seen.hand:
            break
        masters.append(card)
    return masters


def _should_close(seen: SchnapsenSeen) -> bool:
    """Close when cashing the top trumps surely brings 66 (each wins its points and at least a jack)."""
    if not seen.has_trick:
        return False
    sure = sum(POINTS[c] + 2 for c in _masters(seen, seen.trump))
    return seen.points + sure >= WIN


def _lead(seen: SchnapsenSeen, legal: Sequence[Action]) -> Action:
    announce: list[Play] = []
    for action in legal:
        if isinstance(action, Exchange):
            return action
        if isinstance(action, Play) and action.marriage:
            announce.append(action)
    if announce:
        # The forty first; lead the queen (the king is worth more in a pile).
        return max(announce, key=lambda a: (marriage_value(a.card.suit, seen.trump), a.card.rank == "Q"))
    if any(isinstance(a, Close) for a in legal) and _should_close(seen):
        return next(a for a in legal if isinstance(a, Close))
    plays = [a for a in legal if isinstance(a, Play)]
    if seen.strict:
        trump_masters = _masters(seen, seen.trump)
        trumps_out = any(c not in seen.gone and c not in seen.hand for c in SUIT_CARDS[seen.trump])
        if trump_masters and trumps_out:
            return next(a for a in plays if a.card is trump_masters[0])
        masters = [m for s in "CDHS" if s != seen.trump for m in _masters(seen, s)[:1]]
        if masters:
            best_master = max(masters, key=POINTS.__getitem__)
            return next(a for a in plays if a.card is best_master)
    return min(plays, key=lambda a: (_keep_value(seen, a.card), STRENGTH[a.card]))


def _follow(seen: SchnapsenSeen, plays: Sequence[Play]) -> Action:
    lead = seen.lead
    assert lead is not None
    trump = seen.trump
    winners = [p for p in plays if trick_winner(lead, p.card, trump, TRICK_ORDER)]
    credited = seen.points + (0 if seen.has_trick else seen.pending)
    finishing = [p for p in winners if credited + POINTS[lead] + POINTS[p.card] >= WIN]
    if finishing:
        return min(finishing, key=lambda p: _keep_value(seen, p.card))
    if seen.strict:
        if winners:
            return min(winners, key=lambda p: (p.card.suit == trump, STRENGTH[p.card]))
        return min(plays, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))
    same_suit = [p for p in winners if p.card.suit == lead.suit]
    if same_suit and lead.suit != trump:
        # Taking with the suit led costs nothing: the card lands in our own pile.
        return max(same_suit, key=lambda p: POINTS[p.card] - (8 if _may_marry(seen, p.card) else 0))
    if winners and POINTS[lead] >= 10:
        return min(winners, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))
    return min(plays, key=lambda p: (_keep_value(seen, p.card), STRENGTH[p.card]))


def choose_schnapsen(seen: SchnapsenSeen, legal: Sequence[Action]) -> Action:
    """The basic move; ties go to the first in ``legal`` order."""
    if not all(isinstance(a, Play | Exchange | Close) for a in legal):
        raise TypeError("a Schnapsen bot was given a move that is not a Schnapsen move")
    if seen.lead is None:
        return _lead(seen, legal)
    return _follow(seen, [a for a in legal if isinstance(a, Play)])


DESCRIPTION: Final = (
    "Exchanges the trump jack, announces marriages, takes tricks cheaply and trumps only aces and tens."
)
POLICY: Final = BasicPolicy(SchnapsenSeen.from_view, SchnapsenSeen.from_state, choose_schnapsen, DESCRIPTION)
