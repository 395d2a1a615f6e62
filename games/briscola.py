"""Briscola: two players, one deal of 40 cards (games.md §2).

Dealing (records.md): the first three cards of ``order`` go to the leader, the
next three to the dealer, the seventh is the trump card, which goes face up
under the stock and is drawn last. ``dealer`` is the seat that does not lead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from cardavia.games.cards import COMPILED, DECK_40, Card, codes, format_cards, parse_cards
from cardavia.games.chance import Chance
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
    data_keys,
    fork_log,
    no_more_fields,
    pair_field,
    parse_fields,
    seat_field,
    take_field,
)
from cardavia.games.errors import ActionFormatError, IllegalAction, PositionError
from cardavia.games.tricks import card_points, trick_winner

TRICK_ORDER: Final = {r: i for i, r in enumerate("24567JQK3A")}
"""Trick strength, low to high: 2 4 5 6 7 J Q K 3 A."""

CARD_POINTS: Final = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}


@dataclass(frozen=True, slots=True, eq=False)
class Play(Action):
    card: Card

    # Written out (see Action): compiled, a dataclass's generated methods stay pure Python.
    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.card is other.card

    def __hash__(self) -> int:
        return hash((self.card,))

    def to_data(self) -> dict[str, JSON]:
        return {"play": self.card.code}

    def __str__(self) -> str:
        return self.card.code


class BriscolaState(State[Play]):
    seats = 2

    def __init__(
        self,
        *,
        dealer: int,
        trump: Card,
        hands: tuple[list[Card], list[Card]],
        stock: list[Card],
        trick: list[Card],
        turn: int,
        won: tuple[list[Card], list[Card]],
        log: list[DealLog],
    ) -> None:
        self.dealer = dealer
        self.trump = trump
        self.hands = hands
        self.stock = stock
        self.trick = trick
        self.turn = turn
        self.won = won
        self.log = log
        self._result: Result | None = None
        self._finish_if_over()

    # --------------------------------------------------------------- contract
    @property
    def points(self) -> tuple[int, int]:
        return card_points(self.won[0], CARD_POINTS), card_points(self.won[1], CARD_POINTS)

    @property
    def leader(self) -> int:
        return self.turn if not self.trick else 1 - self.turn

    def _legal(self) -> list[Play]:
        return [Play(c) for c in self.hands[self.turn]]

    def _why_illegal(self, action: Action) -> IllegalAction:
        if not isinstance(action, Play):
            return IllegalAction("wrong_action", "Briscola has only one kind of move: play a card")
        return IllegalAction("card_not_in_hand", f"{action.card} is not in seat {self.turn}'s hand")

    def _copy(self) -> BriscolaState:
        if not COMPILED:  # the fastest copy in pure Python: blank, then filled
            new = object.__new__(BriscolaState)
            new.dealer, new.trump, new.turn, new._result = self.dealer, self.trump, self.turn, None
            new.hands = (list(self.hands[0]), list(self.hands[1]))
            new.stock = list(self.stock)
            new.trick = list(self.trick)
            new.won = (list(self.won[0]), list(self.won[1]))
            new.log = fork_log(self.log)
            return new
        # compiled (setup.py), a state is made only through its constructor, a native call
        return BriscolaState(
            dealer=self.dealer,
            trump=self.trump,
            hands=(list(self.hands[0]), list(self.hands[1])),
            stock=list(self.stock),
            trick=list(self.trick),
            turn=self.turn,
            won=(list(self.won[0]), list(self.won[1])),
            log=fork_log(self.log),
        )

    def _play(self, seat: int, action: Play) -> list[Event]:
        self.hands[seat].remove(action.card)
        self.trick.append(action.card)
        events: list[Event] = [{"type": "play", "seat": seat, "card": action.card.code}]
        if len(self.trick) == 1:
            self.turn = 1 - seat
            return events
        leader = 1 - seat
        lead, follow = self.trick
        winner = seat if trick_winner(lead, follow, self.trump.suit, TRICK_ORDER) else leader
        self.won[winner].extend(self.trick)
        events.append(
            {
                "type": "trick",
                "winner": winner,
                "cards": codes(self.trick),
                "points": card_points(self.trick, CARD_POINTS),
            }
        )
        self.trick = []
        self.turn = winner
        if self.stock:
            for drawer in (winner, 1 - winner):
                card = self.stock.pop(0)
                self.hands[drawer].append(card)
                draw: Event = {"type": "draw", "seat": drawer}
                if card is self.trump:
                    draw["card"] = card.code  # the face-up trump: everyone sees who takes it
                events.append(draw)
        self._finish_if_over()
        if self._result:
            self.log[-1].score = {"points": list(self._result.scores), "detail": {"tricks": self.tricks}}
            events.append({"type": "game_over", **self._result.to_data()})
        return events

    @property
    def tricks(self) -> list[int]:
        return [len(self.won[0]) // 2, len(self.won[1]) // 2]

    def _finish_if_over(self) -> None:
        if self.hands[0] or self.hands[1] or self.stock or self.trick:
            return
        scores = self.points
        if scores[0] == scores[1]:
            self._result = Result(scores, None, "draw")
        else:
            self._result = Result(scores, 0 if scores[0] > scores[1] else 1, "points")

    def view(self, seat: int | None) -> View:
        return {
            "game": "briscola",
            "seat": seat,
            "hand": codes(self.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "trump": self.trump.code,
            "trump_in_stock": bool(self.stock),
            "stock": len(self.stock),
            "dealer": self.dealer,
            "leader": self.leader,
            "trick": codes(self.trick),
            "to_move": self.to_move,
            "points": list(self.points),
            "tricks": self.tricks,
            "won": [codes(w) for w in self.won],
            "history": self.history(),
            "result": self._result.to_data() if self._result else None,
        }

    def view_update(self, seat: int | None, events: list[Event]) -> View | None:
        if events[-1]["type"] == "game_over":  # the result, and nothing left to narrow
            return None
        taken = len(events) > 1  # the trick's second card: the trick is taken and both draw
        fields: View = {}
        if seat is not None and (taken or seat == events[0]["seat"]):  # the mover's hand, or draws
            fields["hand"] = codes(self.hands[seat])
        fields["hand_counts"] = [len(h) for h in self.hands]
        if taken:
            fields |= {"trump_in_stock": bool(self.stock), "stock": len(self.stock), "leader": self.leader}
        fields["trick"] = codes(self.trick)
        fields["to_move"] = self.to_move
        if taken:
            fields |= {
                "points": list(self.points),
                "tricks": self.tricks,
                "won": [codes(w) for w in self.won],
            }
        fields["history"] = self.history()
        return fields

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        hidden = {c for c in self.stock if c is not self.trump}
        for other in (0, 1):
            if other != seat:
                hidden.update(c for c in self.hands[other] if c is not self.trump)
        return frozenset(hidden)

    def places(self) -> dict[str, list[Card]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "stock": list(self.stock),
            "trick": list(self.trick),
            "won0": list(self.won[0]),
            "won1": list(self.won[1]),
        }

    def to_text(self) -> str:
        return "\n".join(
            [
                "game: briscola",
                f"dealer: {self.dealer}",
                f"turn: {self.turn}",
                f"trump: {self.trump}",
                f"hands: {format_cards(self.hands[0])} / {format_cards(self.hands[1])}",
                f"stock: {format_cards(self.stock)}",
                f"trick: {format_cards(self.trick)}",
                f"won: {format_cards(self.won[0])} / {format_cards(self.won[1])}",
            ]
        )


class Briscola(Game[BriscolaState, Play]):
    id = "briscola"
    name = "Briscola"
    players = 2
    deck_size = 40

    def _new(self, options: dict[str, JSON], chance: Chance) -> BriscolaState:
        dealer = chance.first_dealer(2)
        order = chance.shuffle(DECK_40, 0, 0)
        leader = 1 - dealer
        hands: tuple[list[Card], list[Card]] = ([], [])
        hands[leader].extend(order[0:3])
        hands[dealer].extend(order[3:6])
        trump = order[6]
        return BriscolaState(
            dealer=dealer,
            trump=trump,
            hands=hands,
            stock=[*order[7:], trump],
            trick=[],
            turn=leader,
            won=([], []),
            log=[DealLog(dealer, order)],
        )

    def action_from_data(self, data: Mapping[str, JSON]) -> Play:
        data_keys(data, ["play"])
        return Play(card_field(data, "play"))

    def parse_action(self, text: str) -> Play:
        words = text.split()
        if len(words) == 2 and words[0].lower() == "play":
            words = words[1:]
        if len(words) != 1:
            raise ActionFormatError(f"a Briscola move is one card code like 'AS', not {text!r}")
        return Play(Card.parse(words[0]))

    def position(self, text: str) -> BriscolaState:
        fields = parse_fields(text)
        if take_field(fields, "game", "briscola") != "briscola":
            raise PositionError("not a Briscola position")
        dealer = seat_field(take_field(fields, "dealer"), 2, "dealer")
        turn = seat_field(take_field(fields, "turn"), 2, "turn")
        trumps = parse_cards(take_field(fields, "trump"))
        if len(trumps) != 1:
            raise PositionError("trump must be one card")
        trump = trumps[0]
        hands = pair_field(take_field(fields, "hands"), "hands")
        stock = list(parse_cards(take_field(fields, "stock", "-")))
        trick = list(parse_cards(take_field(fields, "trick", "-")))
        won = pair_field(take_field(fields, "won", "- / -"), "won")
        no_more_fields(fields)
        every = [*hands[0], *hands[1], *stock, *trick, *won[0], *won[1]]
        if len(set(every)) != len(every):
            raise PositionError("a card appears twice in the position")
        if any(c not in DECK_40 for c in every) or trump not in DECK_40:
            raise PositionError("Briscola uses the 40-card deck (A 2-7 J Q K)")
        if stock and stock[-1] is not trump:
            raise PositionError("the trump card lies at the bottom of a non-empty stock")
        if not stock and trump not in every:
            raise PositionError("once the stock is empty the trump card is in a hand or a pile")
        if len(trick) > 1:
            raise PositionError("a trick in progress has at most one card")
        leader = turn if not trick else 1 - turn
        if len(hands[leader]) + len(trick) != len(hands[1 - leader]):
            raise PositionError("hands do not fit the trick in progress")
        if len(won[0]) % 2 or len(won[1]) % 2:
            raise PositionError("won piles hold whole tricks (an even number of cards)")
        return BriscolaState(
            dealer=dealer,
            trump=trump,
            hands=hands,
            stock=stock,
            trick=trick,
            turn=turn,
            won=won,
            log=[DealLog(dealer, ())],
        )


GAME: Final = Briscola()
BriscolaState.game = GAME
