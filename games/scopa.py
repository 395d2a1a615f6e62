"""Scopa: two players, a match to 11 (games.md §1).

Theory of operation
-------------------
One ``ScopaState`` is a whole match. A deal is set up from one shuffle of the
40-card deck (records.md): 3 cards to the non-dealer, 3 to the dealer, 4 face
up to the table, the rest is the stock. Three or four kings on the opening
table throw the shuffle in (kept in the deal log's ``redeals``) and the same
dealer deals a new one. The non-dealer plays first; when both hands are empty
the stock deals 3 + 3 more. When stock and hands are empty the deal is scored,
totals are checked, and unless someone has won, the next deal starts at once
with the other dealer.

A move is ``Play(card, capture)``. Legal captures follow the precedence of the
rules: a single table card of equal value if any exists (one move per such
card), else every set of two or more table cards summing to the value, else
no capture. Capture sets are kept sorted so one set has one move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.games.cards import COMPILED, DECK_40, Card, codes, format_cards, parse_cards
from cardavia.games.chance import Chance, SeededChance
from cardavia.games.engine import (
    JSON,
    Action,
    DealLog,
    Event,
    Game,
    Result,
    State,
    View,
    card_field,
    cards_field,
    data_keys,
    fork_log,
    int_option,
    ints_field,
    no_more_fields,
    pair_field,
    parse_fields,
    seat_field,
    take_field,
    text_field,
)
from cardavia.games.errors import ActionFormatError, IllegalAction, PositionError

VALUE: Final = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
PRIMIERA: Final = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}
COINS: Final = "D"
SETTEBELLO: Final = Card.parse("7D")
AWARDS: Final = ("cards", "coins", "settebello", "primiera")


@dataclass(frozen=True, slots=True, eq=False)
class Play(Action):
    """Play ``card``, taking ``capture`` from the table (empty: nothing taken)."""

    card: Card
    capture: tuple[Card, ...] = ()

    # Written out (see Action): compiled, a dataclass's generated methods stay pure Python.
    def __init__(self, card: Card, capture: tuple[Card, ...] = ()) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "capture", tuple(sorted(capture)))

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.card is other.card and self.capture == other.capture

    def __hash__(self) -> int:
        return hash((self.card, self.capture))

    def to_data(self) -> dict[str, JSON]:
        return {"play": self.card.code, "capture": codes(self.capture)}

    def __str__(self) -> str:
        if not self.capture:
            return self.card.code
        return f"{self.card.code}:{'+'.join(c.code for c in self.capture)}"


def sums_to(cards: list[Card], target: int) -> list[tuple[Card, ...]]:
    """Every set of two or more ``cards`` whose capture values sum to ``target``."""
    found: list[tuple[Card, ...]] = []
    _sums(sorted(cards), 0, target, [], found)
    return found


def _sums(
    ordered: list[Card], start: int, left: int, taken: list[Card], found: list[tuple[Card, ...]]
) -> None:
    # A module-level function, not a closure: a closure that calls itself is a reference cycle,
    # and one left by every legal_actions call was most of a server's garbage.
    for i in range(start, len(ordered)):
        value = VALUE[ordered[i].rank]
        if value > left:
            continue
        taken.append(ordered[i])
        if value == left:
            if len(taken) >= 2:
                found.append(tuple(taken))
        else:
            _sums(ordered, i + 1, left - value, taken, found)
        taken.pop()


def captures_for(card: Card, table: list[Card]) -> list[tuple[Card, ...]]:
    """The captures the rules allow for ``card``: ``[()]`` when it takes nothing."""
    value = VALUE[card.rank]
    singles: list[tuple[Card, ...]] = [(t,) for t in sorted(table) if VALUE[t.rank] == value]
    if singles:
        return singles
    return sums_to(table, value) or [()]


def primiera(pile: list[Card]) -> int | None:
    """The primiera sum, or None without a card of every suit."""
    best: dict[str, int] = {}
    for card in pile:
        value = PRIMIERA[card.rank]
        if value > best.get(card.suit, 0):
            best[card.suit] = value
    return sum(best.values()) if len(best) == 4 else None


def _more(a: int | None, b: int | None) -> int | None:
    """The seat with the strictly larger count; None on a tie or when neither has one."""
    if a == b:
        return None
    if b is None or (a is not None and a > b):
        return 0
    return 1


def score_deal(piles: tuple[list[Card], list[Card]], scopas: list[int]) -> dict[str, JSON]:
    """Deal points with their breakdown, in the record's ``score`` form."""
    counts = [len(p) for p in piles]
    coins = [sum(1 for c in p if c.suit == COINS) for p in piles]
    prim = [primiera(p) for p in piles]
    settebello = next((s for s in (0, 1) if SETTEBELLO in piles[s]), None)
    awards = {
        "cards": _more(*counts),
        "coins": _more(*coins),
        "settebello": settebello,
        "primiera": _more(*prim),
    }
    points = list(scopas)
    for winner in awards.values():
        if winner is not None:
            points[winner] += 1
    return {
        "points": points,
        "detail": {
            "cards": counts,
            "coins": coins,
            "primiera": prim,
            "scopas": list(scopas),
            "awards": awards,
        },
    }


class ScopaState(State[Play]):
    seats = 2

    def __init__(
        self,
        *,
        target: int,
        chance: Chance,
        deal: int,
        totals: list[int],
        dealer: int,
        turn: int,
        hands: tuple[list[Card], list[Card]],
        table: list[Card],
        stock: list[Card],
        piles: tuple[list[Card], list[Card]],
        scopas: list[int],
        last_capture: int | None,
        log: list[DealLog],
    ) -> None:
        self.target = target
        self.chance = chance
        self.deal = deal
        self.totals = totals
        self.dealer = dealer
        self.turn = turn
        self.hands = hands
        self.table = table
        self.stock = stock
        self.piles = piles
        self.scopas = scopas
        self.last_capture = last_capture
        self.log = log
        self._result: Result | None = None

    # --------------------------------------------------------------- contract
    @property
    def options(self) -> Mapping[str, JSON]:
        return {"target": self.target}

    def _legal(self) -> list[Play]:
        return [
            Play(card, capture)
            for card in self.hands[self.turn]
            for capture in captures_for(card, self.table)
        ]

    def _why_illegal(self, action: Action) -> IllegalAction:
        if not isinstance(action, Play):
            return IllegalAction("wrong_action", "a Scopa move is playing a card")
        card, capture = action.card, action.capture
        if card not in self.hands[self.turn]:
            return IllegalAction("card_not_in_hand", f"{card} is not in seat {self.turn}'s hand")
        missing = [c for c in capture if c not in self.table]
        if missing:
            return IllegalAction("wrong_capture", f"{missing[0]} is not on the table")
        allowed = captures_for(card, self.table)
        value = VALUE[card.rank]
        if not capture:
            return IllegalAction(
                "capture_required",
                f"{card} can capture ({_describe(allowed)}): a possible capture is mandatory",
            )
        if len(allowed[0]) == 1:
            return IllegalAction(
                "wrong_capture",
                f"a table card matches {card}: take exactly one of {_describe(allowed)}",
            )
        total = sum(VALUE[c.rank] for c in capture)
        if len(capture) == 1 or total != value:
            return IllegalAction(
                "wrong_capture", f"the cards taken must sum to {value}; {_describe([capture])} make {total}"
            )
        return IllegalAction("wrong_capture", f"{card} cannot take {_describe([capture])}")

    def _copy(self) -> ScopaState:
        if not COMPILED:  # the fastest copy in pure Python: blank, then filled
            new = object.__new__(ScopaState)
            new.target, new.chance, new.deal = self.target, self.chance, self.deal
            new.dealer, new.turn, new.last_capture = self.dealer, self.turn, self.last_capture
            new.totals = list(self.totals)
            new.hands = (list(self.hands[0]), list(self.hands[1]))
            new.table = list(self.table)
            new.stock = list(self.stock)
            new.piles = (list(self.piles[0]), list(self.piles[1]))
            new.scopas = list(self.scopas)
            new.log = fork_log(self.log)
            new._result = None
            return new
        # compiled (setup.py), a state is made only through its constructor, a native call
        return ScopaState(
            target=self.target,
            chance=self.chance,
            deal=self.deal,
            totals=list(self.totals),
            dealer=self.dealer,
            turn=self.turn,
            hands=(list(self.hands[0]), list(self.hands[1])),
            table=list(self.table),
            stock=list(self.stock),
            piles=(list(self.piles[0]), list(self.piles[1])),
            scopas=list(self.scopas),
            last_capture=self.last_capture,
            log=fork_log(self.log),
        )

    def _play(self, seat: int, action: Play) -> list[Event]:
        card = action.card
        self.hands[seat].remove(card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": card.code}]
        last_play = not self.stock and not self.hands[0] and not self.hands[1]
        if action.capture:
            for taken in action.capture:
                self.table.remove(taken)
            self.piles[seat].append(card)
            self.piles[seat].extend(action.capture)
            self.last_capture = seat
            capture = {"type": "capture", "seat": seat, "card": card.code, "cards": codes(action.capture)}
            events.append(capture)
            if not self.table and not last_play:
                self.scopas[seat] += 1
                events.append({"type": "scopa", "seat": seat})
        else:
            self.table.append(card)
        self.turn = 1 - seat
        if self.hands[0] or self.hands[1]:
            return events
        if self.stock:
            self._deal_round()
            events.append({"type": "deal_round", "stock": len(self.stock)})
            return events
        events.extend(self._end_deal())
        return events

    def _deal_round(self) -> None:
        first = 1 - self.dealer
        self.hands[first].extend(self.stock[0:3])
        self.hands[self.dealer].extend(self.stock[3:6])
        del self.stock[0:6]
        self.turn = first

    def _end_deal(self) -> list[Event]:
        events: list[Event] = []
        if self.table:
            taker = self.last_capture
            events.append({"type": "leftover", "seat": taker, "cards": codes(self.table)})
            if taker is not None:
                self.piles[taker].extend(self.table)
            self.table = []
        score = score_deal(self.piles, self.scopas)
        self.log[-1].score = score
        points = score["points"]
        self.totals = [self.totals[0] + points[0], self.totals[1] + points[1]]
        events.append({"type": "deal_end", **score, "totals": list(self.totals)})
        leader = _more(*self.totals)
        if leader is not None and self.totals[leader] >= self.target:
            self._result = Result(tuple(self.totals), leader, "target")
            events.append({"type": "game_over", **self._result.to_data()})
            return events
        self.dealer = 1 - self.dealer
        self.deal += 1
        events.append(self._start_deal())
        return events

    def _start_deal(self) -> Event:
        """Shuffle and deal, throwing in shuffles that put 3+ kings on the table."""
        redeals: list[tuple[Card, ...]] = []
        while True:
            order = self.chance.shuffle(DECK_40, self.deal, len(redeals))
            if sum(1 for c in order[6:10] if c.rank == "K") < 3:
                break
            redeals.append(order)
        first = 1 - self.dealer
        self.hands = (
            (list(order[0:3]), list(order[3:6]))
            if first == 0
            else (
                list(order[3:6]),
                list(order[0:3]),
            )
        )
        self.table = list(order[6:10])
        self.stock = list(order[10:])
        self.piles = ([], [])
        self.scopas = [0, 0]
        self.last_capture = None
        self.turn = first
        self.log.append(DealLog(self.dealer, order, tuple(redeals)))
        return {
            "type": "deal",
            "deal": self.deal,
            "dealer": self.dealer,
            "table": codes(self.table),
            "redeals": len(redeals),
        }

    def view(self, seat: int | None) -> View:
        last_score = next((d.score for d in reversed(self.log) if d.score is not None), None)
        return {
            "game": "scopa",
            "seat": seat,
            "target": self.target,
            "deal": self.deal,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hand": codes(self.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "table": codes(self.table),
            "stock": len(self.stock),
            "captured": [codes(p) for p in self.piles],
            "scopas": list(self.scopas),
            "last_capture": self.last_capture,
            "totals": list(self.totals),
            "last_deal": last_score,
            "history": self.history(),
            "result": self._result.to_data() if self._result else None,
        }

    def view_update(self, seat: int | None, events: list[Event]) -> View | None:
        kinds = [e["type"] for e in events]
        if kinds[-1] not in ("play", "capture", "scopa", "deal_round"):  # a deal's end: most fields change
            return None
        dealt = kinds[-1] == "deal_round"
        fields: View = {"to_move": self.to_move}
        if seat is not None and (dealt or seat == events[0]["seat"]):  # the mover's hand, or new hands
            fields["hand"] = codes(self.hands[seat])
        fields["hand_counts"] = [len(h) for h in self.hands]
        fields["table"] = codes(self.table)
        if dealt:
            fields["stock"] = len(self.stock)
        if "capture" in kinds:
            fields["captured"] = [codes(p) for p in self.piles]
            fields["scopas"] = list(self.scopas)
            fields["last_capture"] = self.last_capture
        fields["history"] = self.history()
        return fields

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        hidden = set(self.stock)
        for other in (0, 1):
            if other != seat:
                hidden.update(self.hands[other])
        return frozenset(hidden)

    def places(self) -> dict[str, list[Card]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "table": list(self.table),
            "stock": list(self.stock),
            "pile0": list(self.piles[0]),
            "pile1": list(self.piles[1]),
        }

    def to_text(self) -> str:
        seed = self.chance.seed if isinstance(self.chance, SeededChance) else ""
        lines = [
            "game: scopa",
            f"target: {self.target}",
            f"totals: {self.totals[0]} {self.totals[1]}",
            f"deal: {self.deal}",
            f"dealer: {self.dealer}",
            f"turn: {self.turn}",
            f"hands: {format_cards(self.hands[0])} / {format_cards(self.hands[1])}",
            f"table: {format_cards(self.table)}",
            f"stock: {format_cards(self.stock)}",
            f"piles: {format_cards(self.piles[0])} / {format_cards(self.piles[1])}",
            f"scopas: {self.scopas[0]} {self.scopas[1]}",
            f"last_capture: {'-' if self.last_capture is None else self.last_capture}",
        ]
        if seed:
            lines.append(f"seed: {json.dumps(seed)}")
        return "\n".join(lines)


def _describe(captures: list[tuple[Card, ...]]) -> str:
    return " or ".join("+".join(c.code for c in cap) for cap in captures)


class Scopa(Game[ScopaState, Play]):
    id = "scopa"
    name = "Scopa"
    players = 2
    deck_size = 40
    default_options = {"target": 11}

    def _check_options(self, options: dict[str, JSON]) -> None:
        int_option(options, "target", 1, 100)

    def _new(self, options: dict[str, JSON], chance: Chance) -> ScopaState:
        state = ScopaState(
            target=int(options["target"]),
            chance=chance,
            deal=0,
            totals=[0, 0],
            dealer=chance.first_dealer(2),
            turn=0,
            hands=([], []),
            table=[],
            stock=[],
            piles=([], []),
            scopas=[0, 0],
            last_capture=None,
            log=[],
        )
        state._start_deal()
        return state

    def action_from_data(self, data: Mapping[str, JSON]) -> Play:
        data_keys(data, ["play"], ["capture"])
        capture = cards_field(data, "capture") if "capture" in data else ()
        return Play(card_field(data, "play"), capture)

    def parse_action(self, text: str) -> Play:
        played, sep, taken = text.strip().partition(":")
        words = played.split()
        if len(words) != 1:
            raise ActionFormatError(
                f"a Scopa move is a card, then ':' and the cards taken joined by '+' "
                f"(like '7D' or '7D:3S+4C'), not {text!r}"
            )
        capture = parse_cards(taken.replace("+", " ")) if sep else ()
        return Play(Card.parse(words[0]), capture)

    def position(self, text: str) -> ScopaState:
        fields = parse_fields(text)
        if take_field(fields, "game", "scopa") != "scopa":
            raise PositionError("not a Scopa position")
        target = int(take_field(fields, "target", "11"))
        totals = list(ints_field(take_field(fields, "totals", "0 0"), 2, "totals"))
        deal = int(take_field(fields, "deal", "0"))
        dealer = seat_field(take_field(fields, "dealer"), 2, "dealer")
        turn = seat_field(take_field(fields, "turn"), 2, "turn")
        hands = pair_field(take_field(fields, "hands"), "hands")
        table = list(parse_cards(take_field(fields, "table", "-")))
        stock = list(parse_cards(take_field(fields, "stock", "-")))
        piles = pair_field(take_field(fields, "piles", "- / -"), "piles")
        scopas = list(ints_field(take_field(fields, "scopas", "0 0"), 2, "scopas"))
        last = take_field(fields, "last_capture", "-")
        last_capture = None if last == "-" else seat_field(last, 2, "last_capture")
        seed = text_field(take_field(fields, "seed", '""'), "seed")
        no_more_fields(fields)
        self._check_options({"target": target})
        every = [*hands[0], *hands[1], *table, *stock, *piles[0], *piles[1]]
        if len(set(every)) != len(every):
            raise PositionError("a card appears twice in the position")
        if any(c not in DECK_40 for c in every):
            raise PositionError("Scopa uses the 40-card deck (A 2-7 J Q K)")
        first = 1 - dealer
        expected = first if len(hands[0]) == len(hands[1]) else dealer
        if abs(len(hands[0]) - len(hands[1])) > 1 or len(hands[first]) > len(hands[dealer]):
            raise PositionError("the non-dealer plays first, so its hand is never the larger one")
        if turn != expected:
            raise PositionError(f"with these hands it is seat {expected}'s turn, not {turn}'s")
        if not hands[0] and not hands[1]:
            raise PositionError("a position in play has at least one card in hand")
        if len(stock) % 6:
            raise PositionError("the stock deals 3 + 3, so it holds a multiple of 6 cards")
        return ScopaState(
            target=target,
            chance=SeededChance(seed),
            deal=deal,
            totals=totals,
            dealer=dealer,
            turn=turn,
            hands=hands,
            table=table,
            stock=stock,
            piles=piles,
            scopas=scopas,
            last_capture=last_capture,
            log=[DealLog(dealer, ())],
        )


GAME: Final = Scopa()
ScopaState.game = GAME
