"""Dou Dizhu positions from text: the fields of ``DouDizhu.position``, each checked.

Kept apart from the rules because it is long and only tests, tools and bots
that start from a described position need it.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from cardavia.games import doudizhu_moves as dm
from cardavia.games import engine
from cardavia.games.cards import Card, parse_cards
from cardavia.games.chance import SeededChance
from cardavia.games.doudizhu import GAME, DouDizhuState, Play, _auction, _replace
from cardavia.games.doudizhu_moves import sort_cards
from cardavia.games.engine import DealLog
from cardavia.games.errors import PositionError


def parse_position(text: str) -> DouDizhuState:
    """The state a position text describes (``DouDizhu.position``), checked field by field."""
    fields = engine.parse_fields(text)
    get = partial(engine.take_field, fields)
    if get("game", "doudizhu") != "doudizhu":
        raise PositionError("not a Dou Dizhu position")
    n = {key: _number(get(key, "0"), key) for key in ("redeals", "passes", "bombs", "rockets")}
    deals, deal = _number(get("deals", "1"), "deals"), _number(get("deal", "1"), "deal")
    dealer, phase = engine.seat_field(get("dealer", "0"), 3, "dealer"), get("phase", "play")
    bids = tuple(_number(b, "a bid") for b in get("bids", "-").replace("-", "").split())
    landlord, turn, table_seat = (_seat(get(key, "-"), key) for key in ("landlord", "turn", "table_seat"))
    state: dict[str, Any] = {
        "deals": deals,
        "deal": deal - 1,
        "attempt": n["redeals"],
        "dealer": dealer,
        "totals": engine.ints_field(get("totals", "0 0 0"), 3, "totals"),
        "bids": bids,
        "landlord": landlord,
        "kitty": sort_cards(parse_cards(get("kitty", "-"))),
        "hands": tuple(sort_cards(h) for h in _three(get("hands"), "hands")),
        "played": _three(get("played", "- / - / -"), "played"),
        "plays": engine.ints_field(get("plays", "0 0 0"), 3, "plays"),
        "table_seat": table_seat,
        "passes": n["passes"],
        "multiplier": _number(get("multiplier", str(2 ** (n["bombs"] + n["rockets"]))), "multiplier"),
        "bombs": n["bombs"],
        "rockets": n["rockets"],
        "chance": SeededChance(engine.text_field(get("seed", '""'), "seed")),
        "log": [DealLog(dealer, ())],
    }
    table_text = get("table", "-")
    engine.no_more_fields(fields)
    if not 1 <= deals <= 100 or not 1 <= deal <= deals:
        raise PositionError("deals must be 1 to 100 and deal one of them")
    if (phase, _auction(bids), landlord is None) not in {("bidding", "open", True), ("play", "over", False)}:
        raise PositionError("phase is 'bidding' (bids go on, no landlord) or 'play' (bidding over, landlord)")
    if landlord is not None and landlord != (dealer + bids.index(max(bids))) % 3:
        raise PositionError("the landlord is the highest bidder")
    state["table"], state["table_cards"] = None, ()
    if table_text != "-":
        play = GAME.parse_action(table_text)
        if not isinstance(play, Play) or landlord is None or table_seat is None:
            raise PositionError(
                "a table is a combination like 'pair: 3C 3D' with its table_seat, in the play"
            )
        state["table"] = next(
            (m for m in dm.classify(dm.card_counts(play.cards)) if m[0] == play.combo), None
        )
        if state["table"] is None:
            raise PositionError(f"the table cards are not a {play.combo}")
        state["table_cards"] = play.cards
        if not set(play.cards) <= set(state["played"][table_seat]):  # the table counts as played
            state["played"] = _replace(state["played"], table_seat, state["played"][table_seat] + play.cards)
    elif table_seat is not None or n["passes"]:
        raise PositionError("table_seat and passes need a table combination")
    hands, played, kitty = state["hands"], state["played"], state["kitty"]
    every = [c for cards in (*hands, *played, kitty if landlord is None else ()) for c in cards]
    if len(set(every)) != len(every) or len(kitty) > 3 or not all(0 < len(h) <= 20 for h in hands):
        raise PositionError("each card once, a kitty of 3 at most and hands of 1 to 20 cards")
    if landlord is not None and not set(kitty) <= set(hands[landlord]) | set(played[landlord]):
        raise PositionError("the revealed kitty lies in the landlord's hand or among its plays")
    if landlord is None:
        state["turn"] = (dealer + len(bids)) % 3
    elif table_seat is not None:
        state["turn"] = (table_seat + 1 + n["passes"]) % 3
    else:
        state["turn"] = landlord if turn is None else turn
    if turn not in (None, state["turn"]) or n["passes"] > 1:
        raise PositionError("turn must follow the dealer and bids, or the table seat and its passes (0 or 1)")
    return DouDizhuState(**state)


def _number(value: str, what: str) -> int:
    if not value.isdigit():
        raise PositionError(f"{what} must be a whole number, not {value!r}")
    return int(value)


def _seat(value: str, what: str) -> int | None:
    return None if value == "-" else engine.seat_field(value, 3, what)


def _three(text: str, what: str) -> tuple[tuple[Card, ...], ...]:
    parts = text.split("/")
    if len(parts) != 3:
        raise PositionError(f"{what} must be three card lists separated by '/', not {text!r}")
    return tuple(parse_cards(p) for p in parts)
