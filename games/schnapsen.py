"""Schnapsen: two players, a match of 7 game points (games.md §3).

Theory of operation
-------------------
One ``SchnapsenState`` is a whole match. Each seat starts at ``target`` (7)
and counts down; ``scores`` holds the game points won so far, so a seat's
count is ``target - scores[seat]`` and the first count at 0 or below wins.

A deal is one shuffle of the 20-card pack (records.md): 3 cards to the
non-dealer, 3 to the dealer, the indicator, 2 + 2 more; the other 9 cards lie
on the indicator, so the talon (``talon``, top first) ends with it and
``talon[-1]`` is the face-up indicator while the talon is not empty. The
non-dealer leads. When a deal ends inside ``_play`` it is scored into the log
and, unless the match is over, the next deal starts at once with the other
dealer.

Play is "open" while the talon has cards and nobody closed it: any card may
follow, and after a trick the winner then the loser draw. Otherwise play is
"strict" (follow suit and head the trick, else trump, else anything).

Points are derived from the piles and the announcements: a seat's points are
the card points of its won pile (tallied in ``pile_points``) plus its
marriages, but marriages count only once the seat has won a trick. So a
marriage is "pending" exactly while its seat has no trick, and crediting it at
the first trick needs no bookkeeping. The deal ends the moment
a seat reaches 66, which can happen when a marriage is announced by a seat
that already has a trick: a marriage is announced by leading one of its
cards, so that card leaves the hand for the trick as any lead does, and the
deal ends there, before anyone follows (a match that ends so shows the lead
on the table; every card is still in exactly one place).

The rules that need no position (values, moves, the strict following rule,
deal scoring, reading actions) are in ``schnapsen_rules.py``.

A lead with a king or queen whose partner is in hand is two moves:
``Play(card)`` and ``Play(card, marriage=True)``. ``shown`` lists cards the
table has seen go into a hand (the partner of an announced marriage, an
indicator taken by the exchange or the last draw); they are not secret.

Position text, one ``key: value`` per line (``GAME.position`` reads it back)::

    game: schnapsen
    target: 7
    counts: 7 5
    deal: 2
    dealer: 0
    turn: 1
    trump: H
    talon: QS TD KC JS AH
    hands: AC TC ... / ...
    trick: -
    won: KD QD / -
    marriages: 1:C
    closed: 0 12 yes
    shown: QC
    seed: "x"

``counts`` are the seats' counts (7 down to 0); ``deal`` counts the deals
before this one; ``talon`` is top first with the indicator last (``-`` when
empty); ``trick`` is the led card of a trick in progress; ``marriages`` are
seat:suit in the order announced; ``closed`` is ``-`` or the closer, the
opponent's points and whether it had a trick at closing; ``seed`` (a JSON
string, only for a seeded match) gives the later deals' shuffles. Optional
fields default to an empty or fresh value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from cardavia.games.cards import COMPILED, DECK_SCHNAPSEN, Card, codes, format_cards
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
    fork_log,
    int_option,
)
from cardavia.games.errors import IllegalAction
from cardavia.games.schnapsen_rules import (
    ANNOUNCE,
    CARD_POINTS,
    CLOSE,
    EXCHANGE,
    HAND,
    JACK,
    PARTNER,
    PLAY,
    TRICK_ORDER,
    WIN,
    Close,
    Exchange,
    Play,
    SchnapsenAction,
    action_from_data,
    deal_outcome,
    marriage_value,
    may_follow,
    parse_action,
    why_not_follow,
)
from cardavia.games.tricks import card_points, trick_winner

__all__ = ["GAME", "Close", "Exchange", "Play", "Schnapsen", "SchnapsenAction", "SchnapsenState"]


class SchnapsenState(State[SchnapsenAction]):
    seats = 2

    def __init__(
        self,
        *,
        target: int,
        chance: Chance,
        deal: int,
        scores: list[int],
        dealer: int,
        turn: int,
        trump: str,
        hands: tuple[list[Card], list[Card]],
        talon: list[Card],
        trick: list[Card],
        won: tuple[list[Card], list[Card]],
        marriages: tuple[tuple[int, str], ...],
        closed: tuple[int, int, bool] | None,
        shown: frozenset[Card],
        log: list[DealLog],
        pile_points: list[int] | None = None,
    ) -> None:
        """``pile_points`` (the card points of ``won``) is given by a copy, which has them."""
        self.target = target
        self.chance = chance
        self.deal = deal
        self.scores = scores
        self.dealer = dealer
        self.turn = turn
        self.trump = trump
        self.hands = hands
        self.talon = talon
        self.trick = trick
        self.won = won
        if pile_points is None:
            pile_points = [card_points(won[0], CARD_POINTS), card_points(won[1], CARD_POINTS)]
        self.pile_points = pile_points
        """Card points of each won pile, kept as tricks are won so 66 is cheap to check."""
        self.marriages = marriages
        self.closed = closed
        """(closer, opponent's points, opponent had a trick) at closing; None while not closed."""
        self.shown = shown
        self.log = log
        self._result: Result | None = None

    # --------------------------------------------------------------- contract
    @property
    def options(self) -> Mapping[str, JSON]:
        return {"target": self.target}

    @property
    def counts(self) -> list[int]:
        return [self.target - self.scores[0], self.target - self.scores[1]]

    @property
    def leader(self) -> int:
        return self.turn if not self.trick else 1 - self.turn

    @property
    def strict(self) -> bool:
        """Strict play: the talon is exhausted or closed."""
        return not self.talon or self.closed is not None

    def marriage_points(self, seat: int) -> int:
        """Announced marriage points of ``seat``, credited or not."""
        if not self.marriages:
            return 0
        return sum(marriage_value(suit, self.trump) for s, suit in self.marriages if s == seat)

    def points(self, seat: int) -> int:
        """Card points won plus marriages, which count only once the seat has a trick."""
        won = self.won[seat]
        if not won:
            return 0
        return self.pile_points[seat] + self.marriage_points(seat)

    def pending(self, seat: int) -> int:
        return 0 if self.won[seat] else self.marriage_points(seat)

    def _legal(self) -> list[SchnapsenAction]:
        seat = self.turn
        hand = self.hands[seat]
        open_talon = bool(self.talon) and self.closed is None
        if self.trick:
            return [PLAY[c] for c in (hand if open_talon else may_follow(hand, self.trick[0], self.trump))]
        moves: list[SchnapsenAction] = []
        for card in hand:
            moves.append(PLAY[card])
            partner = PARTNER.get(card)
            if partner is not None and partner in hand and (seat, card.suit) not in self.marriages:
                moves.append(ANNOUNCE[card])
        if open_talon:
            if JACK[self.trump] in hand:
                moves.append(EXCHANGE[self.trump])
            if len(hand) == HAND:
                moves.append(CLOSE)
        return moves

    def _why_illegal(self, action: Action) -> IllegalAction:
        seat, hand = self.turn, self.hands[self.turn]
        on_lead = not self.trick
        if isinstance(action, Play):
            return self._why_not_play(action, seat, hand, on_lead)
        if isinstance(action, Exchange):
            jack = JACK[self.trump]
            if action.card is not jack:
                return IllegalAction("wrong_action", f"only the jack of trumps ({jack}) can be exchanged")
            if not on_lead:
                return IllegalAction(
                    "not_allowed_now", "only the player on lead may exchange, before leading"
                )
            if self.closed is not None:
                return IllegalAction("not_allowed_now", "the talon is closed: no exchange")
            if not self.talon:
                return IllegalAction("not_allowed_now", "the talon is exhausted: no exchange")
            return IllegalAction("card_not_in_hand", f"{jack} is not in seat {seat}'s hand")
        if isinstance(action, Close):
            if not on_lead:
                return IllegalAction("not_allowed_now", "only the player on lead may close, before leading")
            if self.closed is not None:
                return IllegalAction("not_allowed_now", f"seat {self.closed[0]} has already closed the talon")
            if len(hand) != HAND:
                return IllegalAction(
                    "not_allowed_now", f"closing needs {HAND} cards in hand, not {len(hand)}"
                )
            return IllegalAction("not_allowed_now", "the talon is exhausted: nothing to close")
        return IllegalAction("wrong_action", "a Schnapsen move is a play, an exchange or a close")

    def _why_not_play(self, action: Play, seat: int, hand: list[Card], on_lead: bool) -> IllegalAction:
        card = action.card
        if card not in hand:
            return IllegalAction("card_not_in_hand", f"{card} is not in seat {seat}'s hand")
        if action.marriage:
            if card not in PARTNER:
                return IllegalAction("wrong_action", f"only a king or queen announces a marriage, not {card}")
            if not on_lead:
                return IllegalAction("not_allowed_now", "a marriage is announced only when leading")
            if (seat, card.suit) in self.marriages:
                return IllegalAction(
                    "not_allowed_now", f"seat {seat} has already announced the {card.suit} marriage"
                )
            return IllegalAction("not_allowed_now", f"{PARTNER[card]} is not in hand to marry {card}")
        lead = self.trick[0]
        if card.suit != lead.suit and any(c.suit == lead.suit for c in hand):
            return IllegalAction("must_follow_suit", f"strict play: follow {lead}'s suit")
        return why_not_follow(hand, lead, self.trump)

    def _copy(self) -> SchnapsenState:
        if not COMPILED:  # the fastest copy in pure Python: blank, then filled
            new = object.__new__(SchnapsenState)
            new.target, new.chance, new.deal = self.target, self.chance, self.deal
            new.dealer, new.turn, new.trump = self.dealer, self.turn, self.trump
            new.marriages, new.closed, new.shown = self.marriages, self.closed, self.shown  # immutable
            new.scores = list(self.scores)
            new.hands = (list(self.hands[0]), list(self.hands[1]))
            new.talon = list(self.talon)
            new.trick = list(self.trick)
            new.won = (list(self.won[0]), list(self.won[1]))
            new.pile_points = list(self.pile_points)
            new.log = fork_log(self.log)
            new._result = None
            return new
        # compiled (setup.py), a state is made only through its constructor, a native call
        return SchnapsenState(
            target=self.target,
            chance=self.chance,
            deal=self.deal,
            scores=list(self.scores),
            dealer=self.dealer,
            turn=self.turn,
            trump=self.trump,
            hands=(list(self.hands[0]), list(self.hands[1])),
            talon=list(self.talon),
            trick=list(self.trick),
            won=(list(self.won[0]), list(self.won[1])),
            marriages=self.marriages,  # the tuples and the frozenset are immutable: shared
            closed=self.closed,
            shown=self.shown,
            log=fork_log(self.log),
            pile_points=list(self.pile_points),
        )

    # ------------------------------------------------------------------ play
    def _play(self, seat: int, action: SchnapsenAction) -> list[Event]:
        # Exact types: cheaper than isinstance, on the hot path.
        if type(action) is Exchange:
            return self._exchange(seat, action.card)
        if type(action) is Close:
            opponent = 1 - seat
            self.closed = (seat, self.points(opponent), bool(self.won[opponent]))
            return [{"type": "close", "seat": seat}]
        assert type(action) is Play
        card = action.card
        events: list[Event] = []
        if action.marriage:
            suit = card.suit
            self.marriages = (*self.marriages, (seat, suit))
            self.shown = self.shown | {PARTNER[card]}
            value = marriage_value(suit, self.trump)
            events.append({"type": "marriage", "seat": seat, "suit": suit, "points": value})
        hand = self.hands[seat]
        hand.remove(card)
        events.append({"type": "play", "seat": seat, "card": card.code})
        trick = self.trick
        trick.append(card)
        if len(trick) == 1:
            self.turn = 1 - seat
            if action.marriage and self.won[seat] and self.points(seat) >= WIN:
                # 66 at the announcement: the card is led as it is announced, and the deal ends
                # before anyone follows (it lies on the table, never back in the hand).
                self._end_deal(seat, events)
            return events
        lead = trick[0]
        winner = seat if trick_winner(lead, card, self.trump, TRICK_ORDER) else 1 - seat
        self.won[winner].extend(trick)
        points = CARD_POINTS[lead.rank] + CARD_POINTS[card.rank]
        self.pile_points[winner] += points
        events.append({"type": "trick", "winner": winner, "cards": [lead.code, card.code], "points": points})
        self.trick = []
        self.turn = winner
        if self.points(winner) >= WIN:
            self._end_deal(winner, events)
        elif self.talon and self.closed is None:
            self._draw(winner, events)
        elif not self.hands[0] and not self.hands[1]:
            self._end_deal(1 - self.closed[0] if self.closed is not None else winner, events)
        return events

    def _exchange(self, seat: int, jack: Card) -> list[Event]:
        taken = self.talon[-1]
        hand = self.hands[seat]
        hand[hand.index(jack)] = taken
        self.talon[-1] = jack
        self.shown = self.shown | {taken}
        return [{"type": "exchange", "seat": seat, "card": jack.code, "indicator": taken.code}]

    def _draw(self, winner: int, events: list[Event]) -> None:
        """Winner first, then the loser, who takes the indicator on the last draw."""
        for drawer in (winner, 1 - winner):
            card = self.talon.pop(0)
            self.hands[drawer].append(card)
            draw: Event = {"type": "draw", "seat": drawer}
            if not self.talon:
                draw["card"] = card.code  # the face-up indicator: everyone sees who takes it
                self.shown = self.shown | {card}
            events.append(draw)

    def _end_deal(self, winner: int, events: list[Event]) -> None:
        """Score the deal for ``winner``, then end the match or deal the next one."""
        loser = 1 - winner
        reached = self.points(winner) >= WIN
        reason, game_points = deal_outcome(
            winner, reached, self.closed, self.points(loser), bool(self.won[loser])
        )
        gained = [0, 0]
        gained[winner] = game_points
        self.scores[winner] += game_points
        detail: dict[str, JSON] = {
            "winner": winner,
            "reason": reason,
            "game_points": game_points,
            "card_points": list(self.pile_points),
            "marriage_points": [self.marriage_points(s) - self.pending(s) for s in (0, 1)],
            "uncredited": [self.pending(0), self.pending(1)],
            "totals": [self.points(0), self.points(1)],
            "tricks": self.tricks,
            "closed_by": self.closed[0] if self.closed else None,
            "closed_opponent_points": self.closed[1] if self.closed else None,
            "closed_opponent_trick": self.closed[2] if self.closed else None,
        }
        self.log[-1].score = {"points": gained, "detail": detail}
        events.append(  # shaped as in the other games: the deal's score, then the match's totals
            {
                "type": "deal_end",
                "deal": self.deal,
                "points": gained,
                "detail": detail,
                "totals": list(self.scores),
                "counts": self.counts,
            }
        )
        if self.scores[winner] >= self.target:
            self._result = Result((self.scores[0], self.scores[1]), winner, "target")
            events.append({"type": "game_over", **self._result.to_data()})
            return
        self.dealer = 1 - self.dealer
        self.deal += 1
        self._start_deal()
        events.append(
            {"type": "deal", "deal": self.deal, "dealer": self.dealer, "indicator": self.talon[-1].code}
        )

    def _start_deal(self) -> None:
        """Deal 3 + 3, the indicator, 2 + 2; the rest lies on the indicator."""
        order = self.chance.shuffle(DECK_SCHNAPSEN, self.deal, 0)
        first = 1 - self.dealer
        hands: tuple[list[Card], list[Card]] = ([], [])
        hands[first].extend((*order[0:3], *order[7:9]))
        hands[self.dealer].extend((*order[3:6], *order[9:11]))
        indicator = order[6]
        self.hands = hands
        self.talon = [*order[11:], indicator]
        self.trump = indicator.suit
        self.trick = []
        self.won = ([], [])
        self.pile_points = [0, 0]
        self.marriages = ()
        self.closed = None
        self.shown = frozenset()
        self.turn = first
        self.log.append(DealLog(self.dealer, order))

    # ------------------------------------------------------------ information
    def view(self, seat: int | None) -> View:
        last_score = next((d.score for d in reversed(self.log) if d.score is not None), None)
        closed = self.closed
        return {
            "game": "schnapsen",
            "seat": seat,
            "target": self.target,
            "counts": self.counts,
            "deal": self.deal,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "leader": self.leader,
            "hand": codes(self.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "shown": self.view_shown(),
            "trump": self.trump,
            "indicator": self.talon[-1].code if self.talon else None,
            "talon": len(self.talon),
            "closed": closed is not None,
            "closed_by": closed[0] if closed else None,
            "closed_opponent_points": closed[1] if closed else None,
            "closed_opponent_trick": closed[2] if closed else None,
            "strict": self.strict,
            "trick": codes(self.trick),
            "tricks": self.tricks,
            "won": [codes(w) for w in self.won],
            "marriages": self.view_marriages(),
            "card_points": list(self.pile_points),
            "points": [self.points(0), self.points(1)],
            "pending": self.pending(seat) if seat is not None else None,
            "last_deal": last_score,
            "history": self.history(),
            "result": self._result.to_data() if self._result else None,
        }

    def view_update(self, seat: int | None, events: list[Event]) -> View | None:
        kinds = [e["type"] for e in events]
        if "deal_end" in kinds or kinds[-1] in ("close", "exchange"):  # rarer moves: the whole view
            return None
        taken = "trick" in kinds  # else a card led, perhaps with a marriage
        fields: View = {"to_move": self.to_move}
        if taken:
            fields["leader"] = self.leader
        if seat is not None and (taken or seat == events[-1]["seat"]):  # the mover's hand, or draws
            fields["hand"] = codes(self.hands[seat])
        fields["hand_counts"] = [len(h) for h in self.hands]
        fields["shown"] = self.view_shown()
        if "draw" in kinds:
            fields["indicator"] = self.talon[-1].code if self.talon else None
            fields["talon"] = len(self.talon)
            fields["strict"] = self.strict
        fields["trick"] = codes(self.trick)
        if taken:
            fields["tricks"] = self.tricks
            fields["won"] = [codes(w) for w in self.won]
            fields["card_points"] = list(self.pile_points)
        if taken or kinds[0] == "marriage":
            if not taken:
                fields["marriages"] = self.view_marriages()
            fields["points"] = [self.points(0), self.points(1)]
            fields["pending"] = self.pending(seat) if seat is not None else None
        fields["history"] = self.history()
        return fields

    @property
    def tricks(self) -> list[int]:
        """Tricks won by each seat, as views and deal scores give them."""
        return [len(self.won[0]) // 2, len(self.won[1]) // 2]

    def view_shown(self) -> list[JSON]:
        """Each hand's cards its opponent has seen (a marriage's partner), as views show them."""
        return [[c.code for c in h if c in self.shown] for h in self.hands]

    def view_marriages(self) -> list[JSON]:
        """The marriages announced in this deal, as views show them."""
        return [
            {"seat": s, "suit": suit, "points": marriage_value(suit, self.trump)}
            for s, suit in self.marriages
        ]

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        hidden = set(self.talon[:-1])
        for other in (0, 1):
            if other != seat:
                hidden.update(c for c in self.hands[other] if c not in self.shown)
        return frozenset(hidden)

    def places(self) -> dict[str, list[Card]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "talon": list(self.talon),
            "trick": list(self.trick),
            "won0": list(self.won[0]),
            "won1": list(self.won[1]),
        }

    def to_text(self) -> str:
        closed = (
            "-"
            if self.closed is None
            else "{} {} {}".format(self.closed[0], self.closed[1], "yes" if self.closed[2] else "no")
        )
        shown = [c for c in DECK_SCHNAPSEN if c in self.shown and (c in self.hands[0] or c in self.hands[1])]
        lines = [
            "game: schnapsen",
            f"target: {self.target}",
            "counts: {} {}".format(*self.counts),
            f"deal: {self.deal}",
            f"dealer: {self.dealer}",
            f"turn: {self.turn}",
            f"trump: {self.trump}",
            f"talon: {format_cards(self.talon)}",
            f"hands: {format_cards(self.hands[0])} / {format_cards(self.hands[1])}",
            f"trick: {format_cards(self.trick)}",
            f"won: {format_cards(self.won[0])} / {format_cards(self.won[1])}",
            f"marriages: {' '.join(f'{s}:{suit}' for s, suit in self.marriages) or '-'}",
            f"closed: {closed}",
            f"shown: {format_cards(shown)}",
        ]
        if isinstance(self.chance, SeededChance) and self.chance.seed:
            lines.append(f"seed: {json.dumps(self.chance.seed)}")
        return "\n".join(lines)


class Schnapsen(Game[SchnapsenState, SchnapsenAction]):
    id = "schnapsen"
    name = "Schnapsen"
    players = 2
    deck_size = 20
    default_options = {"target": 7}

    def _check_options(self, options: dict[str, JSON]) -> None:
        int_option(options, "target", 1, 100)

    def _new(self, options: dict[str, JSON], chance: Chance) -> SchnapsenState:
        state = SchnapsenState(
            target=int(options["target"]),
            chance=chance,
            deal=0,
            scores=[0, 0],
            dealer=chance.first_dealer(2),
            turn=0,
            trump="C",
            hands=([], []),
            talon=[],
            trick=[],
            won=([], []),
            marriages=(),
            closed=None,
            shown=frozenset(),
            log=[],
        )
        state._start_deal()
        return state

    def action_from_data(self, data: Mapping[str, JSON]) -> SchnapsenAction:
        return action_from_data(data)

    def parse_action(self, text: str) -> SchnapsenAction:
        return parse_action(text)

    def position(self, text: str) -> SchnapsenState:
        from cardavia.games.schnapsen_position import parse_position  # it builds on this module

        return parse_position(text)


GAME: Final = Schnapsen()
SchnapsenState.game = GAME
