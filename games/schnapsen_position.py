"""Schnapsen positions from text: the fields of ``Schnapsen.position``, each checked.

Kept apart from the rules because it is long and only tests, tools and bots
that start from a described position need it; ``_check_position`` refuses any
position no deal could reach, so the engine never meets one.
"""

from __future__ import annotations

from cardavia.games.cards import SUITS, Card, parse_cards
from cardavia.games.chance import SeededChance
from cardavia.games.engine import (
    DealLog,
    ints_field,
    no_more_fields,
    pair_field,
    parse_fields,
    seat_field,
    take_field,
    text_field,
)
from cardavia.games.errors import PositionError
from cardavia.games.schnapsen import GAME, SchnapsenState
from cardavia.games.schnapsen_rules import DECK_SET, HAND, PARTNER, WIN


def parse_position(text: str) -> SchnapsenState:
    """The state a position text describes (``Schnapsen.position``), checked field by field."""
    fields = parse_fields(text)
    if take_field(fields, "game", "schnapsen") != "schnapsen":
        raise PositionError("not a Schnapsen position")
    try:
        target = int(take_field(fields, "target", "7"))
        deal = int(take_field(fields, "deal", "0"))
    except ValueError:
        raise PositionError("target and deal must be whole numbers") from None
    GAME._check_options({"target": target})
    counts = ints_field(take_field(fields, "counts", f"{target} {target}"), 2, "counts")
    dealer = seat_field(take_field(fields, "dealer"), 2, "dealer")
    turn = seat_field(take_field(fields, "turn"), 2, "turn")
    trump = take_field(fields, "trump").upper()
    talon = list(parse_cards(take_field(fields, "talon", "-")))
    hands = pair_field(take_field(fields, "hands"), "hands")
    trick = list(parse_cards(take_field(fields, "trick", "-")))
    won = pair_field(take_field(fields, "won", "- / -"), "won")
    marriages = _marriages(take_field(fields, "marriages", "-"))
    closed = _closed(take_field(fields, "closed", "-"))
    shown = frozenset(parse_cards(take_field(fields, "shown", "-")))
    seed = text_field(take_field(fields, "seed", '""'), "seed")
    no_more_fields(fields)
    if trump not in SUITS or len(trump) != 1:
        raise PositionError(f"trump must be a suit letter ({' '.join(SUITS)}), not {trump!r}")
    if deal < 0 or not all(1 <= c <= target for c in counts):
        raise PositionError(f"a match in play has deal >= 0 and counts from 1 to {target}")
    state = SchnapsenState(
        target=target,
        chance=SeededChance(seed),
        deal=deal,
        scores=[target - counts[0], target - counts[1]],
        dealer=dealer,
        turn=turn,
        trump=trump,
        hands=hands,
        talon=talon,
        trick=trick,
        won=won,
        marriages=marriages,
        closed=closed,
        shown=shown,
        log=[DealLog(dealer, ())],
    )
    _check_position(state)
    return state


def _marriages(text: str) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    for item in text.split() if text != "-" else []:
        seat, colon, suit = item.partition(":")
        if not colon or suit.upper() not in SUITS or len(suit) != 1:
            raise PositionError(f"a marriage is written seat:suit like '0:H', not {item!r}")
        found.append((seat_field(seat, 2, "a marriage's seat"), suit.upper()))
    if len(set(found)) != len(found):
        raise PositionError("a marriage is listed twice")
    return tuple(found)


def _closed(text: str) -> tuple[int, int, bool] | None:
    if text == "-":
        return None
    parts = text.split()
    if len(parts) != 3 or parts[2] not in ("yes", "no") or not parts[1].isdigit():
        raise PositionError(
            f"closed is '-' or '<closer> <opponent's points> <yes|no: opponent had a trick>', not {text!r}"
        )
    return seat_field(parts[0], 2, "closer"), int(parts[1]), parts[2] == "yes"


def _check_position(s: SchnapsenState) -> None:
    """Refuse a position no deal could reach, so the engine never meets one."""
    every = [*s.hands[0], *s.hands[1], *s.talon, *s.trick, *s.won[0], *s.won[1]]
    if len(set(every)) != len(every):
        raise PositionError("a card appears twice in the position")
    if set(every) != DECK_SET:
        raise PositionError("a Schnapsen position places all 20 cards (A T K Q J of C D H S) once")
    if s.talon and s.talon[-1].suit != s.trump:
        raise PositionError(f"the indicator {s.talon[-1]} at the bottom of the talon is not a trump")
    if len(s.talon) % 2:
        raise PositionError("the talon starts with 10 cards and loses 2 a trick: its size is even")
    if len(s.trick) > 1:
        raise PositionError("a trick in progress has at most one card")
    leader = s.leader
    if len(s.hands[leader]) + len(s.trick) != len(s.hands[1 - leader]):
        raise PositionError("hands do not fit the trick in progress")
    if len(s.hands[1 - leader]) > HAND or not s.hands[1 - leader]:
        raise PositionError(f"a deal in play has 1 to {HAND} cards in a hand")
    if s.talon and s.closed is None and len(s.hands[1 - leader]) != HAND:
        raise PositionError(f"while the talon is open both hands hold {HAND} cards before each trick")
    if len(s.won[0]) % 2 or len(s.won[1]) % 2:
        raise PositionError("won piles hold whole tricks (an even number of cards)")
    if s.closed is not None:
        closer, at_points, at_trick = s.closed
        if not s.talon:
            raise PositionError("a closed talon still holds its cards")
        if at_points >= WIN or (at_points and not at_trick) or (at_trick and not s.won[1 - closer]):
            raise PositionError("the points and trick recorded at closing do not fit the piles")
    for seat, suit in s.marriages:
        if PARTNER[Card.parse("K" + suit)] in s.hands[seat] and Card.parse("K" + suit) in s.hands[seat]:
            raise PositionError(f"seat {seat} announced the {suit} marriage but holds both its cards")
    if any(c not in s.hands[0] and c not in s.hands[1] for c in s.shown):
        raise PositionError("a shown card is one seen going into a hand, so it is in a hand")
    if s.points(0) >= WIN or s.points(1) >= WIN:
        raise PositionError("a seat with 66 points has already ended the deal")
