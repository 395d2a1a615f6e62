"""Schnapsen (games.md §3): one test per rule, built from position texts, plus a random smoke test."""

from __future__ import annotations

import itertools
import json
import random
import textwrap
from typing import Any

import pytest

from cardavia.games.briscola import Play as BriscolaPlay
from cardavia.games.cards import DECK_SCHNAPSEN, Card, codes, parse_cards
from cardavia.games.chance import RecordedChance, SeededChance
from cardavia.games.engine import Event
from cardavia.games.errors import ActionFormatError, CardError, IllegalAction, OptionsError, PositionError
from cardavia.games.records import Seat, make_record, replay
from cardavia.games.registry import GAMES
from cardavia.games.schnapsen import GAME, Close, Exchange, Play, SchnapsenAction, SchnapsenState

C = Card.parse


def pos(text: str) -> SchnapsenState:
    return GAME.position(textwrap.dedent(text))


def act(state: SchnapsenState, *moves: str) -> tuple[SchnapsenState, list[Event]]:
    """Play moves in text form, each by the seat to move; all events in order."""
    events: list[Event] = []
    for move in moves:
        assert state.to_move is not None
        state, new = state.apply(GAME.parse_action(move), seat=state.to_move)
        events.extend(new)
    return state, events


def legal(state: SchnapsenState) -> list[str]:
    assert state.to_move is not None
    return [str(a) for a in state.legal_actions(state.to_move)]


def refused(state: SchnapsenState, move: str | SchnapsenAction) -> IllegalAction:
    action = GAME.parse_action(move) if isinstance(move, str) else move
    before = (state.to_text(), state.view(0), state.view(1), state.view(None))
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat=state.to_move)
    assert (state.to_text(), state.view(0), state.view(1), state.view(None)) == before
    assert info.value.message
    return info.value


def deal_end(events: list[Event]) -> Event:
    """The deal's score detail (``totals`` there are card points), with the event's other fields."""
    (end,) = [e for e in events if e["type"] == "deal_end"]
    assert isinstance(end["detail"], dict)
    return {**end, **end["detail"]}


# Talon open, seat 0 on lead with the trump jack and the diamond marriage;
# seat 1 holds the trump marriage. Seat 0 has 12 points, seat 1 has 15.
OPEN = """
    dealer: 1
    turn: 0
    trump: H
    talon: QC JC TS KS QS AH
    hands: JH KD QD AC TC / TH KH QH AD JD
    won: TD JS / AS KC
"""

# The first lead of a deal: nobody has a trick.
START = """
    dealer: 1
    turn: 0
    trump: H
    talon: QC JC TS KS QS AS KC TD JS AH
    hands: JH KD QD AC TC / TH KH QH AD JD
"""

# The talon just ran out: five cards each, strict play from now on.
EXHAUSTED = """
    dealer: 1
    turn: 0
    trump: H
    talon: -
    hands: JH KD QD AC TC / TH KH QH AD JD
    won: TD JS QC JC / AS KC TS KS QS AH
"""


# ---------------------------------------------------------------- setup
def test_dealing_three_then_indicator_then_two_from_a_known_order() -> None:
    order = parse_cards("AC TC KC QC JC AD TD KD QD JD AH TH KH QH JH AS TS KS QS JS")
    state = GAME.new(None, RecordedChance(0, ((order,),)))
    assert state.hands[1] == list(parse_cards("AC TC KC KD QD"))  # non-dealer: 3, then 2
    assert state.hands[0] == list(parse_cards("QC JC AD JD AH"))  # dealer: 3, then 2
    assert state.talon == list(parse_cards("TH KH QH JH AS TS KS QS JS TD"))
    assert state.trump == "D"
    view = state.view(0)
    assert (view["indicator"], view["talon"], view["trump"]) == ("TD", 10, "D")
    assert state.log[0].dealer == 0
    assert state.log[0].order == order


def test_talon_is_ten_cards_with_the_indicator_at_the_bottom() -> None:
    state = GAME.new(None, "talon")
    order = state.log[0].order
    assert len(state.talon) == 10
    assert state.talon[-1] is order[6]
    assert state.talon[:-1] == list(order[11:])


def test_non_dealer_leads_the_first_trick() -> None:
    for seed in ("a", "b", "c", "d"):
        state = GAME.new(None, seed)
        assert state.to_move == 1 - state.dealer


def test_first_dealer_is_chosen_by_chance() -> None:
    for seed in ("a", "b", "c", "d", "e"):
        assert GAME.new(None, seed).dealer == SeededChance(seed).first_dealer(2)
    order = tuple(DECK_SCHNAPSEN)
    assert GAME.new(None, RecordedChance(1, ((order,),))).dealer == 1


def test_match_starts_every_count_at_seven() -> None:
    assert GAME.new(None, "x").view(None)["counts"] == [7, 7]
    assert GAME.new({"target": 3}, "x").view(None)["counts"] == [3, 3]
    with pytest.raises(OptionsError):
        GAME.new({"target": 0}, "x")
    with pytest.raises(OptionsError):
        GAME.new({"points": 7}, "x")


def test_dealers_alternate_and_the_next_deal_starts_at_once() -> None:
    state = pos(
        """
        deal: 2
        dealer: 1
        turn: 0
        trump: H
        talon: -
        hands: AC KC / JD QD
        won: AD TD AH TH KH KS JS JC / TC QC KD QH JH AS TS QS
        seed: "next"
        """
    )
    state, events = act(state, "AC", "JD")
    assert deal_end(events)["points"] == [1, 0]
    # the event is shaped as in the other games: the score, then the match's totals
    (event,) = [e for e in events if e["type"] == "deal_end"]
    assert set(event) == {"type", "deal", "points", "detail", "totals", "counts"}
    assert event["totals"] == [7 - c for c in event["counts"]]
    assert (state.deal, state.dealer, state.to_move) == (3, 0, 1)
    order = SeededChance("next").shuffle(DECK_SCHNAPSEN, 3, 0)
    assert state.log[-1].dealer == 0
    assert state.log[-1].order == order
    assert state.hands[1] == [*order[0:3], *order[7:9]]
    assert events[-1] == {"type": "deal", "deal": 3, "dealer": 0, "indicator": order[6].code}
    assert state.log[0].score is not None
    assert state.log[0].score["points"] == [1, 0]
    assert state.view(None)["counts"] == [6, 7]
    assert state.view(None)["won"] == [[], []]
    assert state.view(None)["marriages"] == []


# ------------------------------------------------------- open-talon play
def test_open_talon_no_duty_to_follow_suit_or_trump() -> None:
    state, _ = act(pos(OPEN), "AC")
    assert legal(state) == ["TH", "KH", "QH", "AD", "JD"]


def test_open_talon_higher_card_of_the_led_suit_wins() -> None:
    _, events = act(pos(OPEN), "KD", "AD")
    assert events[2] == {"type": "trick", "winner": 1, "cards": ["KD", "AD"], "points": 15}


def test_open_talon_trump_beats_a_non_trump() -> None:
    _, events = act(pos(OPEN), "AC", "TH")
    assert events[2]["winner"] == 1


def test_open_talon_card_of_another_suit_loses_to_the_leader() -> None:
    _, events = act(pos(OPEN), "TC", "AD")
    assert events[2]["winner"] == 0


def test_winner_draws_first_loser_second_and_winner_leads() -> None:
    state, events = act(pos(OPEN), "AC", "JD")
    assert events[3:] == [{"type": "draw", "seat": 0}, {"type": "draw", "seat": 1}]
    assert state.hands[0][-1] is C("QC")
    assert state.hands[1][-1] is C("JC")
    assert state.to_move == 0
    assert state.view(0)["talon"] == 4


def test_loser_takes_the_indicator_on_the_last_draw() -> None:
    state = pos(
        """
        dealer: 1
        turn: 0
        trump: H
        talon: QS AH
        hands: JH KD QD AC TC / TH KH QH AD JD
        won: TD JS QC JC / AS KC TS KS
        """
    )
    state, events = act(state, "AC", "JD")
    assert events[3:] == [{"type": "draw", "seat": 0}, {"type": "draw", "seat": 1, "card": "AH"}]
    assert C("AH") in state.hands[1]
    assert C("QS") in state.hands[0]
    view = state.view(0)
    assert (view["indicator"], view["talon"], view["strict"]) == (None, 0, True)
    assert view["shown"] == [[], ["AH"]]
    assert C("AH") not in state.secret_cards(0)
    assert C("AH") not in state.secret_cards(None)


def test_the_view_shows_the_indicator_while_it_lies_in_the_talon() -> None:
    view = pos(OPEN).view(1)
    assert (view["indicator"], view["trump"], view["talon"], view["closed"]) == ("AH", "H", 6, False)
    assert pos(EXHAUSTED).view(1)["indicator"] is None
    assert pos(EXHAUSTED).view(1)["trump"] == "H"


# ----------------------------------------------------------- strict play
def _follow(hand: str, lead: str, leader_hand: str, won: str) -> SchnapsenState:
    return pos(
        f"""
        dealer: 0
        turn: 0
        trump: H
        talon: -
        hands: {hand} / {leader_hand}
        trick: {lead}
        won: {won}
        """
    )


def test_strict_follower_must_head_the_trick() -> None:
    state = _follow("AS QS TC AH", "KS", "JS JD JC", "AC KC QC AD TD KD / QD TH KH QH JH TS")
    assert legal(state) == ["AS"]
    assert refused(state, "QS").reason == "must_head_trick"


def test_strict_follower_must_follow_suit() -> None:
    state = _follow("AS QS TC AH", "KS", "JS JD JC", "AC KC QC AD TD KD / QD TH KH QH JH TS")
    assert refused(state, "TC").reason == "must_follow_suit"
    assert refused(state, "AH").reason == "must_follow_suit"  # a trump is no excuse while holding the suit


def test_strict_follower_that_can_follow_but_not_beat_plays_any_card_of_the_suit() -> None:
    state = _follow("QS TS TC AH", "AS", "JS JD JC", "AC KC QC AD TD KD / QD TH KH QH JH KS")
    assert legal(state) == ["QS", "TS"]
    assert refused(state, "TC").reason == "must_follow_suit"


def test_strict_follower_must_head_a_trump_lead_too() -> None:
    state = _follow("KH JH AC TD", "QH", "JS JD JC", "AS QS TC KC QC AD / KD QD TH AH KS TS")
    assert legal(state) == ["KH"]
    assert refused(state, "JH").reason == "must_head_trick"


def test_strict_follower_without_the_suit_must_trump() -> None:
    state = _follow("AC TD QH JH", "KS", "JS JD JC", "AS QS TC KC QC AD / KD QD TH KH AH TS")
    assert legal(state) == ["QH", "JH"]
    assert refused(state, "AC").reason == "must_trump"


def test_strict_follower_without_suit_or_trump_plays_any_card() -> None:
    state = _follow("AC TD KC QD", "KS", "JS JD JC", "AS QS TC QC AD KD / QH TH KH AH TS JH")
    assert legal(state) == ["AC", "TD", "KC", "QD"]


def test_strict_rules_apply_once_the_talon_is_exhausted() -> None:
    state, _ = act(pos(EXHAUSTED), "AC")
    assert legal(state) == ["TH", "KH", "QH"]


def test_strict_rules_apply_at_once_after_closing() -> None:
    state, _ = act(pos(OPEN), "close", "AC")
    assert legal(state) == ["TH", "KH", "QH"]


# -------------------------------------------------------------- exchange
def test_exchange_the_trump_jack_for_the_indicator() -> None:
    state, events = act(pos(OPEN), "exchange JH")
    assert events == [{"type": "exchange", "seat": 0, "card": "JH", "indicator": "AH"}]
    assert state.hands[0] == list(parse_cards("AH KD QD AC TC"))
    assert state.talon[-1] is C("JH")
    assert state.view(1)["indicator"] == "JH"
    assert state.to_move == 0
    assert state.view(1)["shown"] == [["AH"], []]
    assert C("AH") not in state.secret_cards(1)
    assert "exchange JH" not in legal(state)


def test_exchange_before_closing_in_the_same_turn() -> None:
    state, events = act(pos(OPEN), "exchange JH", "close")
    assert [e["type"] for e in events] == ["exchange", "close"]
    assert state.closed == (0, 15, True)
    assert state.to_move == 0
    assert legal(state) == ["AH", "KD", "KD+m", "QD", "QD+m", "AC", "TC"]


def test_exchange_refused_to_the_follower() -> None:
    state = pos(
        """
        dealer: 0
        turn: 0
        trump: H
        talon: QC JC TS KS QS AH
        hands: JH KD QD AC TC / TH KH QH AD
        trick: JD
        won: TD JS / AS KC
        """
    )
    assert refused(state, "exchange JH").reason == "not_allowed_now"
    assert refused(state, "close").reason == "not_allowed_now"


def test_exchange_refused_after_closing_or_exhaustion() -> None:
    closed, _ = act(pos(OPEN), "close")
    assert "closed" in refused(closed, "exchange JH").message
    assert refused(closed, "exchange JH").reason == "not_allowed_now"
    assert "exhausted" in refused(pos(EXHAUSTED), "exchange JH").message


def test_exchange_needs_the_jack_of_trumps() -> None:
    assert refused(pos(OPEN), "exchange JD").reason == "wrong_action"
    exchanged, _ = act(pos(OPEN), "exchange JH")
    assert refused(exchanged, "exchange JH").reason == "card_not_in_hand"


# ------------------------------------------------------------- marriages
def test_marriage_is_a_choice_on_the_lead() -> None:
    assert legal(pos(OPEN)) == [
        "JH", "KD", "KD+m", "QD", "QD+m", "AC", "TC", "exchange JH", "close",
    ]  # fmt: skip


def test_marriage_scores_20() -> None:
    state, events = act(pos(OPEN), "KD+m")
    assert events == [
        {"type": "marriage", "seat": 0, "suit": "D", "points": 20},
        {"type": "play", "seat": 0, "card": "KD"},
    ]
    assert state.view(1)["points"] == [32, 15]
    assert state.view(1)["marriages"] == [{"seat": 0, "suit": "D", "points": 20}]


def test_marriage_in_trumps_scores_40() -> None:
    state = pos(OPEN.replace("turn: 0", "turn: 1"))
    assert "KH+m" in legal(state)
    assert "QH+m" in legal(state)
    state, events = act(state, "QH+m")
    assert events[0] == {"type": "marriage", "seat": 1, "suit": "H", "points": 40}
    assert state.view(0)["points"] == [12, 55]


def test_marriage_partner_is_known_to_the_opponent() -> None:
    state, _ = act(pos(OPEN), "KD+m")
    assert state.view(1)["shown"] == [["QD"], []]
    assert C("QD") not in state.secret_cards(1)
    assert C("QD") not in state.secret_cards(None)
    assert C("AC") in state.secret_cards(1)


def test_marriage_only_on_the_lead() -> None:
    state, _ = act(pos(OPEN), "AC")
    assert refused(state, "KH+m").reason == "not_allowed_now"


def test_marriage_needs_a_king_or_queen_with_its_partner() -> None:
    assert refused(pos(OPEN), "AC+m").reason == "wrong_action"
    state, _ = act(pos(OPEN), "KD", "JD")  # seat 0 wins and leads, QD alone
    assert "QD+m" not in legal(state)
    assert refused(state, "QD+m").reason == "not_allowed_now"


def test_marriage_once_per_suit_and_player() -> None:
    state, _ = act(pos(OPEN), "KD+m", "JD")
    assert state.to_move == 0
    assert "QD" in legal(state)
    error = refused(state, "QD+m")
    assert error.reason == "not_allowed_now"
    assert "already announced" in error.message


def test_marriage_before_any_trick_waits_and_is_credited_at_the_first_trick() -> None:
    state, _ = act(pos(START), "KD+m")
    assert state.view(0)["pending"] == 20
    assert state.view(0)["points"] == [0, 0]
    assert state.view(1)["pending"] == 0
    assert state.view(None)["pending"] is None
    state, _ = act(state, "AD")  # seat 1 takes the trick; seat 0 still has none
    assert state.view(0)["pending"] == 20
    assert state.view(0)["points"] == [0, 15]
    state, events = act(state, "JD", "QD")  # seat 0's first trick
    assert events[2] == {"type": "trick", "winner": 0, "cards": ["JD", "QD"], "points": 5}
    assert state.view(0)["pending"] == 0
    assert state.view(0)["points"] == [25, 15]


def test_marriage_never_credited_without_a_trick() -> None:
    state = pos(
        """
        dealer: 1
        turn: 1
        trump: H
        talon: JC QC JS JH
        hands: QD JD KC QS KS / TD AH TH KH QH
        won: - / KD AD TC AC TS AS
        marriages: 0:D
        shown: QD
        """
    )
    assert state.view(0)["pending"] == 20
    assert state.view(0)["points"] == [0, 57]
    state, events = act(state, "TD", "JD")
    end = deal_end(events)
    assert (end["winner"], end["reason"], end["game_points"]) == (1, "66", 3)
    assert end["totals"] == [0, 69]
    assert end["uncredited"] == [20, 0]
    assert end["marriage_points"] == [0, 0]


MARRIAGE_FOR_66 = """
    dealer: 1
    turn: 0
    trump: H
    talon: QC KC QS JH
    hands: KD QD AD KS TD / JD AH TH KH QH
    won: AC TC AS TS JC JS / -
"""
"""Seat 0 has 46 card points and announces the diamond marriage (20): 66 at the announcement."""


def test_marriage_reaching_66_ends_the_deal_at_the_announcement() -> None:
    state = pos(MARRIAGE_FOR_66)
    state, events = act(state, "KD+m")
    assert [e["type"] for e in events] == ["marriage", "play", "deal_end", "deal"]  # nobody follows
    assert events[1] == {"type": "play", "seat": 0, "card": "KD"}
    end = deal_end(events)
    assert (end["winner"], end["reason"], end["game_points"]) == (0, "66", 3)
    assert end["card_points"] == [46, 0]
    assert end["totals"] == [66, 0]
    assert state.log[0].actions[-1] == (0, Play(C("KD"), marriage=True))
    assert state.deal == 1
    assert state.view(None)["counts"] == [4, 7]


def test_marriage_reaching_66_to_end_the_match_leaves_the_announced_card_on_the_table() -> None:
    state = pos("counts: 3 7\n" + MARRIAGE_FOR_66)
    state, events = act(state, "KD+m")
    assert [e["type"] for e in events] == ["marriage", "play", "deal_end", "game_over"]
    assert state.result is not None
    assert state.result.winner == 0
    # The king was led as it was announced: out of the hand, on the table; the queen stays, shown.
    assert state.hands[0] == [C("QD"), C("AD"), C("KS"), C("TD")]
    assert state.trick == [C("KD")]
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view["trick"] == ["KD"]
        assert view["hand_counts"] == [4, 5]
        assert view["shown"] == [["QD"], []]
        assert view["leader"] == 0
    assert state.view(0)["hand"] == ["QD", "AD", "KS", "TD"]
    places = state.places()
    assert sorted(c for cards in places.values() for c in cards) == sorted(DECK_SCHNAPSEN)
    assert state.log[-1].actions[-1] == (0, Play(C("KD"), marriage=True))


def test_marriage_allowed_after_closing_and_after_exhaustion() -> None:
    closed, _ = act(pos(OPEN), "close")
    assert "KD+m" in legal(closed)
    assert "KD+m" in legal(pos(EXHAUSTED))
    state, events = act(closed, "QD+m")
    assert events[0]["type"] == "marriage"
    assert state.view(0)["points"] == [32, 15]


# --------------------------------------------------------------- closing
def test_closing_by_the_leader_with_five_cards() -> None:
    state, events = act(pos(OPEN), "close")
    assert events == [{"type": "close", "seat": 0}]
    view = state.view(1)
    assert (view["closed"], view["closed_by"], view["strict"], view["talon"]) == (True, 0, True, 6)
    assert view["indicator"] == "AH"
    state, events = act(state, "AC", "TH")
    assert not [e for e in events if e["type"] == "draw"]
    assert [len(h) for h in state.hands] == [4, 4]
    assert len(state.talon) == 6


def test_closing_records_the_opponents_points_and_trick_at_that_moment() -> None:
    state, _ = act(pos(OPEN), "close")
    assert state.closed == (0, 15, True)
    assert state.view(1)["closed_opponent_points"] == 15
    assert state.view(1)["closed_opponent_trick"] is True
    first, _ = act(pos(START), "close")
    assert first.closed == (0, 0, False)


def test_closing_refused_with_four_cards() -> None:
    state = pos(
        """
        dealer: 1
        turn: 0
        trump: H
        talon: -
        hands: JH KD QD AC / KH QH AD JD
        won: TD JS QC JC TC TH / AS KC TS KS QS AH
        """
    )
    error = refused(state, "close")
    assert error.reason == "not_allowed_now"
    assert "5 cards" in error.message
    assert "close" not in legal(state)


def test_closing_refused_with_a_closed_talon() -> None:
    state, _ = act(pos(OPEN), "close")
    error = refused(state, "close")
    assert error.reason == "not_allowed_now"
    assert "already closed" in error.message


def test_closing_refused_with_an_exhausted_talon() -> None:
    error = refused(pos(EXHAUSTED), "close")
    assert error.reason == "not_allowed_now"
    assert "exhausted" in error.message


def test_closing_refused_to_the_follower() -> None:
    state, _ = act(pos(OPEN), "AC")
    assert refused(state, "close").reason == "not_allowed_now"


# ---------------------------------------------------- end of a deal: 66
# Seat 0 leads AC and wins 13 points with it.
def _before_66(seat0_won: str, seat1_won: str, talon: str, hands: str, counts: str = "7 7") -> SchnapsenState:
    return pos(
        f"""
        counts: {counts}
        dealer: 1
        turn: 0
        trump: H
        talon: {talon}
        hands: {hands}
        won: {seat0_won} / {seat1_won}
        """
    )


def test_66_wins_one_game_point_when_the_opponent_has_33() -> None:
    state = _before_66("AD TD AH TH KH KS JS JC", "TC QC KD QH JH AS TS QS", "-", "AC KC / JD QD")
    _, events = act(state, "AC", "JD")
    end = deal_end(events)
    assert (end["winner"], end["reason"], end["game_points"], end["totals"]) == (0, "66", 1, [67, 46])


def test_66_wins_two_game_points_when_the_opponent_has_a_trick_but_under_33() -> None:
    state = _before_66("AS TS AH TH AD TD", "JS QS", "KS JH", "AC TC KD QD KH / KC QC JC JD QH")
    state, events = act(state, "AC", "JC")
    end = deal_end(events)
    assert (end["winner"], end["game_points"], end["totals"]) == (0, 2, [76, 5])
    assert not [e for e in events if e["type"] == "draw"]  # over at once: nobody draws


def test_66_wins_three_game_points_when_the_opponent_has_no_trick() -> None:
    state = _before_66("AS TS KS QS JS AH TD JD", "-", "JH TH", "AC TC KD QD KH / KC QC JC AD QH")
    _, events = act(state, "AC", "JC")
    end = deal_end(events)
    assert (end["winner"], end["game_points"], end["totals"]) == (0, 3, [66, 0])


def test_match_reaches_zero_from_one_with_a_three_point_deal() -> None:
    state = _before_66("AS TS KS QS JS AH TD JD", "-", "JH TH", "AC TC KD QD KH / KC QC JC AD QH", "1 7")
    state, events = act(state, "AC", "JC")
    assert state.result is not None
    assert state.result.to_data() == {"scores": [9, 0], "winner": 0, "reason": "target"}
    assert events[-1] == {"type": "game_over", "scores": [9, 0], "winner": 0, "reason": "target"}
    assert state.view(None)["counts"] == [-2, 7]
    assert state.to_move is None
    assert state.legal_actions(0) == state.legal_actions(1) == []
    assert refused_game_over(state)


def refused_game_over(state: SchnapsenState) -> bool:
    with pytest.raises(IllegalAction) as info:
        state.apply(Play(C("KD")), seat=0)
    return info.value.reason == "game_over"


# ----------------------------------------------------- closer and opponent
def _closed(closed: str, seat0_won: str, seat1_won: str, talon: str, hands: str) -> SchnapsenState:
    return pos(
        f"""
        dealer: 1
        turn: 0
        trump: H
        talon: {talon}
        hands: {hands}
        won: {seat0_won} / {seat1_won}
        closed: {closed}
        """
    )


CLOSER_WINS = ("AC TC AH TH KD QD KC JS", "TD KH QH AS TS KS", "QC JC QS JH", "AD / JD")  # 55 / 42
OPPONENT_FIRST = ("AC TC TD KD", "AS TS AH TH KC JD QD QH", "JS QS KS KH", "AD QC / JH JC")  # 35 / 54
CLOSER_SHORT = ("AC TC AH KD QD JS", "TD KC TH KH QH AS TS KS", "QC JC QS JH", "AD / JD")  # 41 / 56


def test_closer_reaching_66_is_scored_on_the_points_at_closing() -> None:
    _, events = act(_closed("0 20 yes", *CLOSER_WINS), "AD", "JD")
    end = deal_end(events)
    # The opponent has 42 now (1 game point), but had 20 with a trick at closing.
    assert (end["winner"], end["reason"], end["game_points"]) == (0, "closer_66", 2)
    assert end["totals"] == [68, 42]
    assert end["closed_by"] == 0
    assert end["closed_opponent_points"] == 20


def test_closer_reaching_66_scores_three_when_the_opponent_had_no_trick_at_closing() -> None:
    _, events = act(_closed("0 0 no", *CLOSER_WINS), "AD", "JD")
    assert deal_end(events)["game_points"] == 3


def test_closer_reaching_66_scores_one_when_the_opponent_had_33_at_closing() -> None:
    _, events = act(_closed("0 33 yes", *CLOSER_WINS), "AD", "JD")
    assert deal_end(events)["game_points"] == 1


def test_closer_fails_opponent_wins_two_game_points() -> None:
    _, events = act(_closed("0 20 yes", *CLOSER_SHORT), "AD", "JD")
    end = deal_end(events)
    # Seat 0 took the last trick but stays at 54: the closer failed.
    assert (end["winner"], end["reason"], end["game_points"]) == (1, "closer_failed", 2)
    assert end["totals"] == [54, 56]


def test_closer_fails_opponent_wins_three_when_it_had_no_trick_at_closing() -> None:
    _, events = act(_closed("0 0 no", *CLOSER_SHORT), "AD", "JD")
    end = deal_end(events)
    assert (end["winner"], end["reason"], end["game_points"]) == (1, "closer_failed", 3)


def test_opponent_reaches_66_first_after_a_close() -> None:
    state = _closed("0 20 yes", *OPPONENT_FIRST)
    assert legal(act(state, "AD")[0]) == ["JH"]  # void in diamonds: must trump
    _, events = act(state, "AD", "JH")
    end = deal_end(events)
    # The non-closer reached 66 with a card still in each hand; it had a trick at closing.
    assert (end["winner"], end["reason"], end["game_points"]) == (1, "opponent_66", 2)
    assert end["totals"] == [35, 67]
    _, events = act(_closed("0 0 no", *OPPONENT_FIRST), "AD", "JH")
    assert deal_end(events)["game_points"] == 3


# --------------------------------------------------------- last trick
def test_last_trick_wins_one_game_point_when_nobody_reached_66_and_talon_not_closed() -> None:
    state = _before_66("AC TC AH TH JC JS JH QC", "KC TD KD QD KH QH AS TS KS QS", "-", "AD / JD")
    _, events = act(state, "AD", "JD")
    end = deal_end(events)
    assert (end["winner"], end["reason"], end["game_points"]) == (0, "last_trick", 1)
    assert end["totals"] == [64, 56]  # 120 in all: no ten-point last-trick bonus
    assert end["points"] == [1, 0]


# ------------------------------------------------------ illegal actions
def test_illegal_action_reasons() -> None:
    state = pos(OPEN)
    assert refused(state, "AD").reason == "card_not_in_hand"
    with pytest.raises(IllegalAction) as info:
        state.apply(Play(C("AC")), seat=1)
    assert info.value.reason == "not_your_turn"
    assert refused(state, BriscolaPlay(C("AC"))).reason == "wrong_action"  # type: ignore[arg-type]


def test_illegal_action_leaves_the_state_unchanged() -> None:
    state = pos(OPEN)
    text = state.to_text()
    for move in ("AD", "KH+m", "exchange JD", "AC+m"):
        refused(state, move)
    assert state.to_text() == text
    assert len(state.log[-1].actions) == 0


# -------------------------------------------------- action text and data
@pytest.mark.parametrize(
    ("action", "text", "data"),
    [
        (Play(C("AS")), "AS", {"play": "AS"}),
        (Play(C("KH")), "KH", {"play": "KH", "marriage": False}),
        (Play(C("KH"), marriage=True), "KH+m", {"play": "KH", "marriage": True}),
        (Play(C("QD"), marriage=True), "QD+m", {"play": "QD", "marriage": True}),
        (Exchange(C("JH")), "exchange JH", {"exchange": "JH"}),
        (Close(), "close", {"close": True}),
    ],
)
def test_action_text_and_data_round_trip(action: SchnapsenAction, text: str, data: dict[str, Any]) -> None:
    assert str(action) == text
    assert GAME.parse_action(text) == action
    assert action.to_data() == data
    assert GAME.action_from_data(json.loads(json.dumps(data))) == action
    assert GAME.action_from_data({"seat": 1, **data}) == action


def test_action_text_is_lenient_about_case_and_the_play_word() -> None:
    assert GAME.parse_action("play kh+M") == Play(C("KH"), marriage=True)
    assert GAME.parse_action(" 10h ") == Play(C("TH"))
    assert GAME.parse_action("Exchange jd") == Exchange(C("JD"))
    assert GAME.action_from_data({"play": "AS", "marriage": False}) == Play(C("AS"))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", ActionFormatError),
        ("KH+x", ActionFormatError),
        ("KH QH", ActionFormatError),
        ("exchange", ActionFormatError),
        ("close now", ActionFormatError),
        ("play", ActionFormatError),
        ("ZZ", CardError),
        ("7D", CardError),
        ("exchange 9H", CardError),
    ],
)
def test_bad_action_text_is_refused(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    ("data", "error", "words"),
    [
        ({"play": 5}, ActionFormatError, "card code"),
        ({"play": "KH", "marriage": "yes"}, ActionFormatError, "true or false"),
        ({"close": False}, ActionFormatError, "must be true"),
        ({"foo": 1}, ActionFormatError, "'play', 'exchange' or 'close'"),
        ({"play": "KH", "exchange": "JH"}, ActionFormatError, "unknown field"),
        ({"play": "2C"}, CardError, "not a Schnapsen card"),
        ({"exchange": "XX"}, CardError, "bad card code"),
        (["play", "KH"], ActionFormatError, "a map"),
    ],
)
def test_bad_action_data_is_refused(data: Any, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        GAME.action_from_data(data)


# --------------------------------------------------- views and secrets
def test_views_show_only_what_a_seat_may_know() -> None:
    state = pos(OPEN)
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    assert v0["hand"] == ["JH", "KD", "QD", "AC", "TC"]
    assert v1["hand"] == ["TH", "KH", "QH", "AD", "JD"]
    assert spectator["hand"] is None
    assert spectator["pending"] is None
    assert v0["hand_counts"] == [5, 5]
    assert v0["tricks"] == [1, 1]
    assert v0["won"] == [["TD", "JS"], ["AS", "KC"]]
    assert v0["card_points"] == [12, 15]
    assert (v0["dealer"], v0["to_move"], v0["leader"], v0["counts"]) == (1, 0, 0, [7, 7])
    assert json.loads(json.dumps(v0)) == v0


def test_secret_cards_are_the_opponents_hand_and_the_covered_talon() -> None:
    state = pos(OPEN)
    assert state.secret_cards(0) == frozenset(parse_cards("TH KH QH AD JD QC JC TS KS QS"))
    assert state.secret_cards(None) == frozenset(parse_cards("JH KD QD AC TC TH KH QH AD JD QC JC TS KS QS"))


# ------------------------------------------------------------ positions
@pytest.mark.parametrize("text", [OPEN, START, EXHAUSTED])
def test_position_text_round_trips(text: str) -> None:
    state = pos(text)
    again = GAME.position(state.to_text())
    assert again.to_text() == state.to_text()
    for seat in (0, 1, None):
        assert again.view(seat) == state.view(seat)


def test_position_text_keeps_any_seed() -> None:
    for seed in ("plain", "a # b", "line\nbreak", " spaced ", "ünï\u2028x"):
        state = GAME.new(None, seed)
        again = GAME.position(state.to_text())
        assert again.to_text() == state.to_text()
        assert isinstance(again.chance, SeededChance)
        assert again.chance.seed == seed


def test_position_text_of_a_played_match_round_trips() -> None:
    state = GAME.new(None, "played")
    for _ in range(8):
        assert state.to_move is not None
        state, _ = state.apply(state.legal_actions(state.to_move)[-1])
        assert GAME.position(state.to_text()).to_text() == state.to_text()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("won: TD JS / AS KC", "won: TD JS / AS"), "all 20 cards"),
        (("won: TD JS / AS KC", "won: TD JS / AS KC KC"), "twice"),
        (("talon: QC JC TS KS QS AH", "talon: QC JC TS KS AH QS"), "not a trump"),
        (("trump: H", "trump: X"), "suit letter"),
        (("TC / TH KH QH AD JD\nwon: TD JS", "TC TD / TH KH QH AD JD\nwon: JS"), "hands do not fit"),
        (("turn: 0", "turn: 2"), "seat"),
        (("dealer: 1", "dealer: 1\nclosed: 1 50 no"), "closing"),
        (("dealer: 1", "dealer: 1\nclosed: one"), "closed is"),
        (("dealer: 1", "dealer: 1\nshown: QC"), "shown"),
        (("dealer: 1", "dealer: 1\nmarriages: 0:X"), "seat:suit"),
        (("dealer: 1", "dealer: 1\nmarriages: 0:D"), "holds both"),
        (("dealer: 1", "dealer: 1\ncounts: 0 7"), "counts"),
        (("dealer: 1", "dealer: 1\nseed: abc"), "quoted string"),
        (("dealer: 1", "dealer: 1\ncolour: red"), "unknown position field"),
        (("game: x", "game: briscola"), "not a Schnapsen position"),
    ],
)
def test_bad_positions_are_refused(change: tuple[str, str], words: str) -> None:
    text = "game: x\n" + textwrap.dedent(OPEN)
    text = text.replace(*change).replace("game: x\n", "")
    with pytest.raises(PositionError, match=words):
        GAME.position(text)


def test_position_with_66_points_is_refused() -> None:
    with pytest.raises(PositionError, match="66"):
        _before_66("AS TS AH TH AD TD KS QS", "-", "JS JH", "AC TC KD QD KH / KC QC JC JD QH")


def test_position_with_an_odd_talon_or_short_open_hands_is_refused() -> None:
    with pytest.raises(PositionError, match="even"):
        pos(OPEN.replace("talon: QC JC TS KS QS AH", "talon: JC TS KS QS AH").replace("TD JS", "TD JS QC"))
    with pytest.raises(PositionError, match="both hands hold 5"):
        pos(
            OPEN.replace("JH KD QD AC TC / TH KH QH AD JD", "JH KD QD AC / TH KH QH AD").replace(
                "won: TD JS / AS KC", "won: TD JS TC JD / AS KC"
            )
        )


# ------------------------------------------------------------- registry
def test_schnapsen_is_registered() -> None:
    assert GAMES["schnapsen"] is GAME
    assert GAME.players == 2
    assert GAME.deck_size == 20


# ---------------------------------------------------------- smoke test
def test_random_matches_keep_cards_and_end_with_a_count_at_zero() -> None:
    deck = frozenset(DECK_SCHNAPSEN)
    for number in range(300):
        rng = random.Random(number)
        state = GAME.new(None, f"smoke/{number}")
        steps = 0
        while (seat := state.to_move) is not None:
            places = state.places()
            cards = [c for cs in places.values() for c in cs]
            assert len(cards) == 20
            assert frozenset(cards) == deck
            moves = state.legal_actions(seat)
            state, events = state.apply(moves[rng.randrange(len(moves))], seat=seat)
            starts = [i for i, e in enumerate(events) if e["type"] == "deal"]
            current = events[starts[-1] :] if starts else events
            shown = {c for e in current for c in _codes_in(e)}
            assert not shown & {c.code for c in state.secret_cards(None)}
            steps += 1
            assert steps < 2000
        result = state.result
        assert result is not None
        assert result.winner is not None
        assert state.counts[result.winner] <= 0 < state.counts[1 - result.winner]
        dealers = [d.dealer for d in state.log]
        assert all(a != b for a, b in itertools.pairwise(dealers))
        gained = [0, 0]
        for deal in state.log:
            assert deal.score is not None
            assert sum(deal.score["points"]) in (1, 2, 3)
            gained = [gained[s] + deal.score["points"][s] for s in (0, 1)]
        assert tuple(gained) == result.scores


def _codes_in(event: Event) -> list[str]:
    found: list[str] = []
    for value in event.values():
        if isinstance(value, str) and len(value) == 2:
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, str))
    return found


def test_records_replay_the_match() -> None:
    state = GAME.new(None, "record")
    rng = random.Random(3)
    while (seat := state.to_move) is not None:
        moves = state.legal_actions(seat)
        state, _ = state.apply(moves[rng.randrange(len(moves))], seat=seat)
    record = json.loads(json.dumps(make_record(state, seats=[Seat("a"), Seat("b")], seed="record")))
    assert record["options"] == {"target": 7}
    report = replay(record)
    assert report.ok, report.problems
    assert codes(state.log[0].order) == record["deals"][0]["order"]
