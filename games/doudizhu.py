"""Dou Dizhu: three players, landlord bidding, a match of ``deals`` deals (games.md §4).

Theory of operation
-------------------
One ``DouDizhuState`` is a whole match. A deal is one shuffle (records.md):
cards 0-16 of ``order`` to the first bidder (the deal log's ``dealer``),
17-33 to the next seat, 34-50 to the third, 51-53 the kitty. The first bidder
comes from the ``Chance`` and moves on one seat every deal.

Bidding: turns go round; ``Bid(0)`` passes, ``Bid(n)`` bids above the current
bid (a seat that passed may bid later). A 3, or two passes after a bid, ends
it: the highest bidder is the landlord, takes the kitty (shown to all) and
leads. Three opening passes throw the shuffle in: it moves to the deal log's
``redeals``, the passes leave its actions (records never list them) and the
same seat bids on the next ``attempt`` of the deal. Replaying a record
(``RecordedChance``) throws in at once every shuffle of a deal but the last,
which is what those unrecorded passes did.

Play: a move is ``Play(combo, cards)`` or ``Pass()``; ``doudizhu_moves``
decides legality at rank level (suits never matter). ``legal_actions`` gives
each rank-level move as one ``Play`` with canonical cards: ascending ranks,
the lowest suits (C D H S) of each rank. A ``Play`` equals any play of the
same combination and ranks whatever the suits (the same move), so ``check``
accepts any suit choice of cards in the mover's hand that form the named
combination and beat the table. Two passes in a row clear the table and the
last player leads; a leader cannot pass. ``legal_actions`` lists raises then
``Bid(0)``, or plays in the generator's order then ``Pass()``.

Scoring: bid x multiplier for each peasant, twice for the landlord; the
multiplier doubles per bomb and rocket and for a spring or reverse spring.
Deal scores add up to the match totals; the winner is the seat with the
strictly highest total (``None`` when two peasants share it).

Bots may work with ranks only: ``legal_moves`` lists rank-level moves and
``play_move`` plays one with canonical cards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardavia.games import doudizhu_moves as dm
from cardavia.games import engine
from cardavia.games.cards import COMPILED, DECK_54, Card, codes, format_cards, parse_cards
from cardavia.games.chance import Chance, RecordedChance, SeededChance
from cardavia.games.doudizhu_actions import (  # re-exported: the actions are this module's API too
    Bid as Bid,  # noqa: PLC0414
)
from cardavia.games.doudizhu_actions import (
    DdzAction as DdzAction,  # noqa: PLC0414
)
from cardavia.games.doudizhu_actions import (
    Pass as Pass,  # noqa: PLC0414
)
from cardavia.games.doudizhu_actions import (
    Play as Play,  # noqa: PLC0414
)
from cardavia.games.doudizhu_moves import Move, sort_cards
from cardavia.games.engine import JSON, Action, DealLog, Event, Game, Result, State, View
from cardavia.games.errors import ActionFormatError, IllegalAction, PositionError

HAND: Final = 17


_PLAY_MAKER: Final[tuple[Any, Any, Any, Any]] = (
    object.__new__,
    *(getattr(Play, name).__set__ for name in ("combo", "cards", "move")),
)
"""How ``plays_for`` makes many plays fast in the pure package: the slot setters of the frozen
dataclass (compiled, it calls ``Play``)."""


# -------------------------------------------------------------------- state
class DouDizhuState(State[DdzAction]):
    """A match position. ``deal`` counts from 0 (1 in texts and views); ``attempt`` is
    the number of shuffles thrown in this deal; ``counts`` are the hands' rank
    count vectors; ``table`` is the rank-level move to beat (``None``: a lead);
    ``plays`` counts each seat's plays this deal (spring) and ``played`` its cards."""

    seats = 3

    deals: int
    chance: Chance
    deal: int
    attempt: int
    dealer: int
    totals: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    counts: tuple[tuple[int, ...], ...]
    kitty: tuple[Card, ...]
    bids: tuple[int, ...]
    landlord: int | None
    turn: int
    table: Move | None
    table_cards: tuple[Card, ...]
    table_seat: int | None
    passes: int
    plays: tuple[int, ...]
    played: tuple[tuple[Card, ...], ...]
    multiplier: int
    bombs: int
    rockets: int
    _result: Result | None
    _cache: list[DdzAction] | None
    _slots: tuple[tuple[tuple[Card, ...], list[Card]] | None, ...]

    def __init__(self, **fields: Any) -> None:
        """A state of the given fields; with none, a blank state that the caller fills.

        Blank through ``__init__``: compiled (setup.py), ``DouDizhuState.__new__`` runs it, and
        a state has no ``__dict__`` to update."""
        if not fields:
            return
        for name, value in fields.items():
            setattr(self, name, value)
        self.counts = tuple(dm.card_counts(h) for h in self.hands)
        self._result = None
        self._cache = None
        self._slots = (None, None, None)

    # --------------------------------------------------------------- contract
    @property
    def options(self) -> Mapping[str, JSON]:
        return {"deals": self.deals}

    @property
    def phase(self) -> str:
        if self._result:
            return "over"
        return "bidding" if self.landlord is None else "play"

    @property
    def bid(self) -> int:
        """The current (highest) bid of this deal; 0 before any."""
        return max(self.bids, default=0)

    def _legal(self) -> list[DdzAction]:
        if self._cache is None:
            actions: list[DdzAction]
            if self.landlord is None:
                actions = [*(Bid(b) for b in range(self.bid + 1, 4)), Bid(0)]
            else:
                actions = self.plays_for(self.legal_moves())
                if self.table is not None:
                    actions.append(Pass())
            self._cache = actions
        return list(self._cache)

    # ---------------------------------------------------------- rank level
    def legal_moves(self) -> list[Move]:
        """Rank-level moves of the player to move (play phase; a pass is not listed)."""
        if self.landlord is None or self._result:
            return []
        return dm.generate(self.counts[self.turn], self.table)

    @property
    def can_pass(self) -> bool:
        """Whether the player to move may pass in the play (someone else leads)."""
        return self.landlord is not None and self.table is not None and not self._result

    def plays_for(self, moves: Sequence[Move], seat: int | None = None) -> list[DdzAction]:
        """Canonical plays (lowest suits first) of rank-level moves from ``seat``'s hand."""
        if not moves:
            return []
        who = self.turn if seat is None else seat
        hand, known = self.hands[who], self._slots[who]
        if known is None or known[0] is not hand:
            known = (hand, dm.slot_cards(hand))
            self._slots = _replace(self._slots, who, known)  # a cache: invisible to the rules
        get = known[1].__getitem__
        plays: list[DdzAction] = []
        if COMPILED:  # compiled (setup.py), Play's __init__ is native: faster than any way around it
            for m in moves:
                plays.append(Play(m[0], tuple(map(get, m[2])), m))
            return plays
        new, set_combo, set_cards, set_move = _PLAY_MAKER
        for m in moves:  # Play(m[0], cards, m) without the dataclass __init__: a third faster
            p = new(Play)
            set_combo(p, m[0])
            set_cards(p, tuple(map(get, m[2])))
            set_move(p, m)
            plays.append(p)
        return plays

    def play_move(self, move: Move) -> tuple[DouDizhuState, list[Event]]:
        """Play a move from ``legal_moves`` with canonical cards, unchecked."""
        play = self.plays_for([move])[0]
        return self.apply_unchecked(play)

    def typed(self, text: str) -> list[Play]:
        """Every legal reading of ranks the player to move typed (``33344456``).

        Raises ``IllegalAction`` (``not_a_combination``, ``card_not_in_hand``,
        ``does_not_beat``, ``wrong_action`` in the bidding) or
        ``ActionFormatError`` for text that is not ranks.
        """
        if self._result:
            raise IllegalAction("game_over", "the game is over")
        if self.landlord is None:
            raise IllegalAction("wrong_action", "the bidding is on: bid 1-3, or 'bid 0' to pass")
        moves = dm.parse_typed(text, self.counts[self.turn], self.table)
        return [p for p in self.plays_for(moves) if isinstance(p, Play)]

    # ---------------------------------------------------------------- checks
    def check(self, action: DdzAction, *, seat: int | None = None) -> None:
        """Accept any legal move, whichever suits a play uses (see the module doc)."""
        mover = self.to_move
        if mover is None:
            raise IllegalAction("game_over", "the game is over")
        if seat is not None and seat != mover:
            raise IllegalAction("not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s")
        if not isinstance(action, Action):
            raise ActionFormatError(f"not an action: {action!r}")
        problem = self._problem(action)
        if problem is not None:
            raise problem

    def _why_illegal(self, action: Action) -> IllegalAction:
        return self._problem(action) or IllegalAction("not_allowed_now", f"{action} is not allowed now")

    def _problem(self, action: Action) -> IllegalAction | None:
        if self.landlord is None:
            if not isinstance(action, Bid):
                return IllegalAction("wrong_action", "the bidding is on: bid 1-3, or 'bid 0' to pass")
            if not 0 <= action.bid <= 3:
                return IllegalAction("not_allowed_now", f"a bid is 1, 2 or 3 (0 passes), not {action.bid}")
            if 0 < action.bid <= self.bid:
                return IllegalAction("bid_too_low", f"a bid must exceed the current bid of {self.bid}")
            return None
        if isinstance(action, Pass):
            no = self.table is None
            return IllegalAction("must_lead", "the leader must play a combination, not pass") if no else None
        if not isinstance(action, Play):
            return IllegalAction("wrong_action", "the bidding is over: play a combination or pass")
        reading = self._reading(action)
        if isinstance(reading, IllegalAction):
            return reading
        if not dm.beats(reading, self.table):
            assert self.table is not None
            return IllegalAction(
                "does_not_beat",
                f"{action} does not beat the {self.table[0]} on the table "
                f"({format_cards(self.table_cards)}): play the same combination and size with a "
                "higher rank, a bomb or the rocket, or pass",
            )
        return None

    def _reading(self, play: Play) -> Move | IllegalAction:
        """The rank-level move of a play by the player to move, or why it is no move."""
        hand = self.hands[self.turn]
        if len(set(play.cards)) != len(play.cards):
            return IllegalAction("not_a_combination", f"{play} names a card twice")
        missing = [c for c in play.cards if c not in hand]
        if missing:
            return IllegalAction("card_not_in_hand", f"{missing[0]} is not in seat {self.turn}'s hand")
        if play.combo not in dm.COMBOS:
            return IllegalAction(
                "not_a_combination", f"{play.combo!r} is not a combination ({', '.join(dm.COMBOS)})"
            )
        readings = dm.classify(dm.card_counts(play.cards))
        for move in readings:
            if move[0] == play.combo:
                if play.move is not None and play.move != move:
                    return IllegalAction("not_a_combination", f"{play} does not match its rank-level move")
                return move
        if readings:
            kinds = " or ".join(m[0] for m in readings)
            return IllegalAction(
                "not_a_combination", f"{format_cards(play.cards)} is a {kinds}, not a {play.combo}"
            )
        return IllegalAction("not_a_combination", f"{format_cards(play.cards)} is not a combination")

    # ------------------------------------------------------------------- play
    def apply_unchecked(self, action: DdzAction) -> tuple[DouDizhuState, list[Event]]:
        """As ``State.apply_unchecked``, with the log forked and appended in one step."""
        new = self._shared_copy()
        mover = self.turn
        assert self._result is None, "the game is over"
        log, last = self.log, self.log[-1]
        actions = [*last.actions, (mover, action)]
        new.log = [
            *log[:-1],
            DealLog(last.dealer, last.order, last.redeals, actions, last.score, last.entries),
        ]
        return new, new._play(mover, action)

    def _shared_copy(self) -> DouDizhuState:
        """A copy that shares every field (each is immutable; the caller forks the log) and
        has no cached moves. Field by field, as a compiled state has no ``__dict__`` to copy."""
        new = DouDizhuState()
        new.deals, new.chance, new.deal, new.attempt = self.deals, self.chance, self.deal, self.attempt
        new.dealer, new.totals, new.hands, new.counts = self.dealer, self.totals, self.hands, self.counts
        new.kitty, new.bids, new.landlord, new.turn = self.kitty, self.bids, self.landlord, self.turn
        new.table, new.table_cards, new.table_seat = self.table, self.table_cards, self.table_seat
        new.passes, new.plays, new.played = self.passes, self.plays, self.played
        new.multiplier, new.bombs, new.rockets = self.multiplier, self.bombs, self.rockets
        new._result, new._cache, new._slots, new.log = self._result, None, self._slots, self.log
        return new

    def _play(self, seat: int, action: DdzAction) -> list[Event]:
        kind = type(action)
        if kind is Pass:
            return self._pass(seat)
        if kind is Bid:
            return self._bid(seat, action.bid)  # type: ignore[union-attr]
        assert isinstance(action, Play)
        move = action.move
        if move is None:
            reading = self._reading(action)
            assert not isinstance(reading, IllegalAction), reading.message
            move = reading
        return self._play_cards(seat, action, move)

    def _bid(self, seat: int, bid: int) -> list[Event]:
        self.bids = bids = (*self.bids, bid)
        events: list[Event] = [{"type": "bid", "seat": seat, "bid": bid}]
        auction = _auction(bids)
        if auction == "over":
            self.landlord = self.turn = landlord = (self.dealer + bids.index(self.bid)) % 3
            self.hands = _replace(self.hands, landlord, sort_cards(self.hands[landlord] + self.kitty))
            self.counts = _replace(self.counts, landlord, dm.card_counts(self.hands[landlord]))
            events.append({"type": "landlord", "seat": landlord, "bid": self.bid, "kitty": codes(self.kitty)})
        elif auction == "redeal":
            self.attempt += 1
            self._deal_out(thrown=self.log[-1].order)
            events.append({"type": "redeal", "deal": self.deal + 1, "dealer": self.dealer})
        else:
            self.turn = (seat + 1) % 3
        return events

    def _pass(self, seat: int) -> list[Event]:
        self.passes += 1
        self.turn = (seat + 1) % 3
        events: list[Event] = [{"type": "pass", "seat": seat}]
        if self.passes == 2:
            events.append({"type": "round_over", "leader": self.table_seat})
            self.table, self.table_cards, self.table_seat, self.passes = None, (), None, 0
        return events

    def _play_cards(self, seat: int, action: Play, move: Move) -> list[Event]:
        cards = action.cards if action.move is not None else sort_cards(action.cards)
        gone = set(cards)
        self.hands = _replace(self.hands, seat, tuple([c for c in self.hands[seat] if c not in gone]))
        counts = list(self.counts[seat])
        for s in move[2]:
            counts[s >> 2] -= 1
        self.counts = _replace(self.counts, seat, tuple(counts))
        self.played = _replace(self.played, seat, self.played[seat] + cards)
        self.plays = _replace(self.plays, seat, self.plays[seat] + 1)
        self.table, self.table_cards, self.table_seat, self.passes = move, cards, seat, 0
        combo = move[0]
        if combo in ("bomb", "rocket"):
            self.multiplier *= 2
            if combo == "bomb":
                self.bombs += 1
            else:
                self.rockets += 1
        events: list[Event] = [{"type": "play", "seat": seat, "combo": combo, "cards": codes(cards)}]
        if not self.hands[seat]:
            events.extend(self._end_deal(seat))
        else:
            self.turn = (seat + 1) % 3
        return events

    def _end_deal(self, out: int) -> list[Event]:
        landlord = self.landlord
        assert landlord is not None
        won = out == landlord
        spring = won and sum(self.plays) == self.plays[landlord]  # no peasant has played
        reverse = not won and self.plays[landlord] == 1  # only the opening lead
        if spring or reverse:
            self.multiplier *= 2
        unit = self.bid * self.multiplier * (1 if won else -1)
        points = [2 * unit if s == landlord else -unit for s in range(3)]
        detail = {"landlord": landlord, "bid": self.bid, "bombs": self.bombs, "rockets": self.rockets}
        detail |= {"spring": spring, "reverse_spring": reverse, "multiplier": self.multiplier}
        self.log[-1].score = score = {"points": points, "detail": detail}
        self.totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        winner_side = "landlord" if won else "peasants"
        events: list[Event] = [{"type": "deal_end", "deal": self.deal + 1, "out": out, "winner": winner_side}]
        events[0] |= {**score, "totals": list(self.totals)}
        if self.deal + 1 < self.deals:
            self.deal += 1
            self.dealer = (self.dealer + 1) % 3
            self.attempt = 0
            self._deal_out(None)
            events.append({"type": "deal", "deal": self.deal + 1, "dealer": self.dealer})
            return events
        top = max(self.totals)
        leaders = [s for s in range(3) if self.totals[s] == top]
        winner = leaders[0] if len(leaders) == 1 else None
        self._result = Result(tuple(self.totals), winner, "points" if winner is not None else "shared")
        events.append({"type": "game_over", **self._result.to_data()})
        return events

    def _deal_out(self, thrown: tuple[Card, ...] | None) -> None:
        """Shuffle and deal ``self.deal`` at ``self.attempt``; ``thrown`` is the
        shuffle three passes just threw in (it replaces the current deal log)."""
        redeals = [*self.log[-1].redeals, thrown] if thrown is not None else []
        order, chance = self.chance.shuffle(DECK_54, self.deal, self.attempt), self.chance
        # A record lists a deal's thrown-in shuffles before its last; each had
        # three opening passes, which records do not list.
        while isinstance(chance, RecordedChance) and self.attempt + 1 < len(chance.shuffles[self.deal]):
            redeals.append(order)
            self.attempt += 1
            order = chance.shuffle(DECK_54, self.deal, self.attempt)
        if thrown is not None:
            self.log.pop()
        self.log.append(DealLog(self.dealer, order, tuple(redeals)))
        d = self.dealer
        self.hands = tuple(sort_cards(order[HAND * ((s - d) % 3) :][:HAND]) for s in range(3))
        self.counts = tuple(dm.card_counts(h) for h in self.hands)
        self.kitty = sort_cards(order[3 * HAND :])
        self.bids, self.landlord, self.turn = (), None, d
        self.table, self.table_cards, self.table_seat, self.passes = None, (), None, 0
        self.plays, self.played = (0, 0, 0), ((), (), ())
        self.multiplier, self.bombs, self.rockets = 1, 0, 0

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> View:
        last = next((d.score for d in reversed(self.log) if d.score is not None), None)
        view: View = {"game": "doudizhu", "seat": seat, "phase": self.phase, "deal": self.deal + 1}
        view |= {key: getattr(self, key) for key in _VIEW_NUMBERS}
        return view | {
            "bids": self.view_bids(),
            "kitty": codes(self.kitty) if self.landlord is not None else None,
            "hand": codes(self.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "table": self.view_table(),
            "plays": list(self.plays),
            "played": [codes(p) for p in self.played],
            "history": self.history(),
            "totals": list(self.totals),
            "last_deal": last,
            "to_move": self.to_move,
            "result": self._result.to_data() if self._result else None,
        }

    def view_update(self, seat: int | None, events: list[Event]) -> View | None:
        first = events[0]
        kind = first["type"]
        if len(events) > 1 and events[1]["type"] != "round_over":  # an auction's or a deal's end
            return None
        fields: View = {"passes": self.passes} if kind != "bid" else {"bid": self.bid}
        if kind == "play":
            fields |= {"multiplier": self.multiplier, "bombs": self.bombs, "rockets": self.rockets}
        if kind == "bid":
            fields["bids"] = self.view_bids()
        if kind == "play" and seat == first["seat"]:
            fields["hand"] = codes(self.hands[first["seat"]])
        if kind == "play":
            fields["hand_counts"] = [len(h) for h in self.hands]
        if kind != "bid":
            fields["table"] = self.view_table()
        if kind == "play":
            fields["plays"] = list(self.plays)
            fields["played"] = [codes(p) for p in self.played]
        fields["history"] = self.history()
        fields["to_move"] = self.to_move
        return fields

    def view_bids(self) -> list[JSON]:
        """The auction's bids in order, each with its bidder, as views show them."""
        return [{"seat": (self.dealer + i) % 3, "bid": b} for i, b in enumerate(self.bids)]

    def view_table(self) -> JSON:
        """The combination to beat, as views show it (None when the lead is free)."""
        return self.table and {
            "seat": self.table_seat,
            "combo": self.table[0],
            "cards": codes(self.table_cards),
        }

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        hidden = {c for other in range(3) if other != seat for c in self.hands[other]}
        if self.landlord is None:
            return frozenset(hidden.union(self.kitty))
        return frozenset(hidden.difference(self.kitty))  # the kitty was shown

    def places(self) -> dict[str, list[Card]]:
        places = {f"hand{s}": list(self.hands[s]) for s in range(3)}
        places.update({f"played{s}": list(self.played[s]) for s in range(3)})
        places["kitty"] = list(self.kitty) if self.landlord is None else []
        return places

    def to_text(self) -> str:
        lines = [
            "game: doudizhu",
            f"deals: {self.deals}",
            f"deal: {self.deal + 1}",
            f"redeals: {self.attempt}",
            f"dealer: {self.dealer}",
            f"totals: {' '.join(map(str, self.totals))}",
            f"phase: {self.phase}",
            f"bids: {' '.join(map(str, self.bids)) or '-'}",
            f"landlord: {'-' if self.landlord is None else self.landlord}",
            f"kitty: {format_cards(self.kitty)}",
            f"hands: {' / '.join(format_cards(h) for h in self.hands)}",
            f"played: {' / '.join(format_cards(p) for p in self.played)}",
            f"plays: {' '.join(map(str, self.plays))}",
            f"turn: {self.turn}",
            f"table: {'-' if self.table is None else f'{self.table[0]}: {format_cards(self.table_cards)}'}",
            f"table_seat: {'-' if self.table_seat is None else self.table_seat}",
            f"passes: {self.passes}",
            f"multiplier: {self.multiplier}",
            f"bombs: {self.bombs}",
            f"rockets: {self.rockets}",
        ]
        if isinstance(self.chance, SeededChance) and self.chance.seed:
            lines.append(f"seed: {json.dumps(self.chance.seed)}")
        return "\n".join(lines)


_VIEW_NUMBERS: Final = ("deals", "dealer", "bid", "landlord", "passes", "multiplier", "bombs", "rockets")


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = list(items)
    changed[index] = value
    return tuple(changed)


# --------------------------------------------------------------------- game
class DouDizhu(Game[DouDizhuState, DdzAction]):
    id = "doudizhu"
    name = "Dou Dizhu"
    players = 3
    deck_size = 54
    default_options = {"deals": 1}

    def _check_options(self, options: dict[str, JSON]) -> None:
        engine.int_option(options, "deals", 1, 100)

    def _new(self, options: dict[str, JSON], chance: Chance) -> DouDizhuState:
        dealer = chance.first_dealer(3)
        state = DouDizhuState()
        state.deals, state.chance, state.deal, state.attempt = int(options["deals"]), chance, 0, 0
        state.dealer, state.totals, state.log = dealer, (0, 0, 0), []
        state._result, state._cache, state._slots = None, None, (None, None, None)
        state._deal_out(None)
        return state

    def action_from_data(self, data: Mapping[str, JSON]) -> DdzAction:
        if isinstance(data, Mapping) and "bid" in data:
            engine.data_keys(data, ["bid"])
            bid = data["bid"]
            if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= 3:
                raise ActionFormatError(f"'bid' must be 0 (pass), 1, 2 or 3, not {bid!r}")
            return Bid(bid)
        if isinstance(data, Mapping) and "pass" in data:
            engine.data_keys(data, ["pass"])
            if data["pass"] is not True:
                raise ActionFormatError(f"'pass' must be true, not {data['pass']!r}")
            return Pass()
        engine.data_keys(data, ["combo", "cards"])
        combo = data["combo"]
        if combo not in dm.COMBOS:
            raise ActionFormatError(f"'combo' must be one of {', '.join(dm.COMBOS)}, not {combo!r}")
        return Play(str(combo), sort_cards(engine.cards_field(data, "cards")))

    def parse_action(self, text: str) -> DdzAction:
        words = text.replace(":", " : ").split()
        head = words[0].lower() if words else ""
        if head == "pass" and len(words) == 1:
            return Pass()
        if head == "bid":
            if len(words) == 2 and words[1] in ("0", "1", "2", "3"):
                return Bid(int(words[1]))
            raise ActionFormatError(f"a bid is 'bid 1', 'bid 2', 'bid 3' or 'bid 0' (pass), not {text!r}")
        if head in dm.COMBOS:
            rest = words[2:] if len(words) > 1 and words[1] == ":" else words[1:]
            if rest:
                return Play(head, sort_cards(parse_cards(rest)))
        raise ActionFormatError(
            f"a Dou Dizhu move is 'bid N', 'pass' or a combination with its cards like "
            f"'triple1: 3C 3D 3H 5S', not {text!r}"
        )

    def position(self, text: str) -> DouDizhuState:
        """A position as ``to_text`` writes it; most lines may be left out::

            phase: play
            dealer: 0
            bids: 1 0 2 0 0
            landlord: 2
            hands: 3C 3D / 6C 6D 7C / 5H 9H TH 2S
            table: pair: 4C 4D
            table_seat: 2
            passes: 0
            plays: 2 1 1

        ``phase`` is ``bidding`` (no landlord, no table) or ``play``; bids go round
        from ``dealer`` (0 passes, ``-`` for none); the seat to move is the
        table seat + 1 + ``passes``, or ``turn`` when leading; ``plays`` counts
        plays per seat this deal (springs). Other lines: ``deals deal redeals
        totals kitty played turn multiplier bombs rockets seed``. The table's
        cards count among its seat's played cards.
        """
        from cardavia.games.doudizhu_position import parse_position  # it builds on this module

        return parse_position(text)


def _auction(bids: Sequence[int]) -> str:
    """Where a deal's bidding stands: ``open``, ``over`` (a 3, or two passes after
    a bid) or ``redeal`` (three opening passes); ``PositionError`` if it is no bidding."""
    high, state = 0, "open"
    for i, bid in enumerate(bids):
        if state != "open" or not 0 <= bid <= 3 or 0 < bid <= high:
            raise PositionError(f"bids {' '.join(map(str, bids))} are not a bidding: each is 0 or a raise")
        high = max(high, bid)
        if high == 3 or (high and i >= 2 and bid == bids[i - 1] == 0):
            state = "over"
        elif i == 2 and not high:
            state = "redeal"
    return state


GAME: Final = DouDizhu()
DouDizhuState.game = GAME
