"""Dou Dizhu: one test per rule of games.md §4, through the engine's public interface.

Positions are written in the ``to_text`` format and read with
``GAME.position``; dealt games use ``RecordedChance`` or a seed, and the deal
log tells the shuffled order (records.md: cards 0-16 to the first bidder,
17-33 to the next seat, 34-50 to the third, 51-53 the kitty).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardavia.games import doudizhu
from cardavia.games.cards import DECK_54, Card, parse_cards
from cardavia.games.chance import RecordedChance
from cardavia.games.doudizhu import Bid, DouDizhuState, Pass, Play
from cardavia.games.errors import ActionFormatError, IllegalAction, OptionsError, PositionError
from cardavia.games.records import Seat, make_record, replay

GAME = doudizhu.GAME


# ----------------------------------------------------------------- helpers
def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def play(combo: str, text: str) -> Play:
    return Play(combo, cards(text))


def position(**fields: Any) -> DouDizhuState:
    base = {"phase": "play", "dealer": 0, "bids": "1 0 0", "landlord": 0, "plays": "1 1 1"}
    base.update(fields)
    return GAME.position("\n".join(f"{key}: {value}" for key, value in base.items()))


def refusal(state: DouDizhuState, action: Any, seat: int | None = None) -> str:
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat=seat)
    assert info.value.message
    return info.value.reason


def run(state: DouDizhuState, *texts: str) -> tuple[DouDizhuState, list[dict[str, Any]]]:
    """Apply actions given in text form, checked; return the state and all events."""
    events: list[dict[str, Any]] = []
    for text in texts:
        state, new = state.apply(GAME.parse_action(text), seat=state.to_move)
        events += new
    return state, events


def combos(state: DouDizhuState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.turn)]


def order_of(text: str) -> tuple[Card, ...]:
    """A full 54-card order starting with ``text``, the rest in deck order."""
    head = cards(text)
    return head + tuple(c for c in DECK_54 if c not in head)


def new_game(dealer: int = 0, *orders: tuple[Card, ...], deals: int = 1) -> DouDizhuState:
    shuffles = orders or (tuple(DECK_54),)
    return GAME.new({"deals": deals}, RecordedChance(dealer, tuple((o,) for o in shuffles)))


# ------------------------------------------------------------------ dealing
def test_deal_follows_the_record_order() -> None:
    order = tuple(reversed(DECK_54))
    state = new_game(2, order)
    assert state.dealer == 2
    assert state.turn == 2  # the first bidder bids first
    assert set(state.hands[2]) == set(order[0:17])
    assert set(state.hands[0]) == set(order[17:34])
    assert set(state.hands[1]) == set(order[34:51])
    assert set(state.kitty) == set(order[51:54])
    assert state.log[-1].dealer == 2
    assert state.log[-1].order == order


def test_first_bidder_comes_from_the_seed() -> None:
    dealers = {GAME.new(None, f"seed{i}").dealer for i in range(30)}
    assert dealers == {0, 1, 2}


# ------------------------------------------------------------------ bidding
def test_bids_must_exceed_the_current_bid() -> None:
    state = new_game(0)
    assert combos(state) == ["bid 1", "bid 2", "bid 3", "bid 0"]
    state, events = run(state, "bid 2")
    assert events == [{"type": "bid", "seat": 0, "bid": 2}]
    assert combos(state) == ["bid 3", "bid 0"]
    assert refusal(state, Bid(1)) == "bid_too_low"
    assert refusal(state, Bid(2)) == "bid_too_low"
    assert refusal(state, Bid(4)) == "not_allowed_now"
    assert refusal(state, Pass()) == "wrong_action"
    assert refusal(state, play("single", "3C")) == "wrong_action"
    assert refusal(state, Bid(3), seat=0) == "not_your_turn"


def test_a_bid_of_three_ends_the_bidding_and_the_landlord_takes_the_kitty() -> None:
    state = new_game(1)
    kitty = state.kitty
    state, events = run(state, "bid 1", "bid 3")
    assert state.landlord == 2
    assert state.phase == "play"
    assert state.turn == 2  # the landlord leads
    assert len(state.hands[2]) == 20
    assert set(kitty) <= set(state.hands[2])
    assert events[-1] == {"type": "landlord", "seat": 2, "bid": 3, "kitty": [c.code for c in kitty]}
    assert state.view(0)["kitty"] == [c.code for c in kitty]  # shown to everyone


def test_two_passes_after_a_bid_end_the_bidding() -> None:
    state, _ = run(new_game(0), "bid 1", "bid 0")
    assert state.landlord is None
    state, _ = run(state, "bid 0")
    assert state.landlord == 0
    assert state.bid == 1


def test_a_player_who_passed_may_bid_later() -> None:
    state, _ = run(new_game(0), "bid 0", "bid 1", "bid 0")
    assert state.turn == 0
    assert "bid 2" in combos(state)
    state, _ = run(state, "bid 2", "bid 0", "bid 0")
    assert (state.landlord, state.bid) == (0, 2)
    assert [b["seat"] for b in state.view(None)["bids"]] == [0, 1, 2, 0, 1, 2]


def test_three_opening_passes_redeal_with_the_same_first_bidder() -> None:
    state = GAME.new(None, "redeal")
    first, thrown = state.dealer, state.log[-1].order
    state, events = run(state, "bid 0", "bid 0", "bid 0")
    assert events[-1] == {"type": "redeal", "deal": 1, "dealer": first}
    deal = state.log[-1]
    assert state.dealer == first
    assert state.turn == first
    assert deal.redeals == (thrown,)
    assert deal.order != thrown
    assert deal.actions == []  # records never list the three passes
    assert set(state.hands[first]) == set(deal.order[0:17])
    assert state.bids == ()
    state, _ = run(state, "bid 3")
    assert state.log[-1].actions == [(first, Bid(3))]


def test_a_redealt_game_replays_from_its_record() -> None:
    state = GAME.new(None, "redeal")
    state, _ = run(state, "bid 0", "bid 0", "bid 0", "bid 0", "bid 0", "bid 0", "bid 2")
    rng = random.Random(3)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, _ = state.apply(legal[rng.randrange(len(legal))], seat=seat)
    record = json.loads(
        json.dumps(make_record(state, seats=[Seat("a"), Seat("b"), Seat("c")], seed="redeal"))
    )
    deal = record["deals"][0]
    assert len(deal["redeals"]) == 2
    assert deal["actions"][0] == {"seat": state.dealer, "bid": 2}
    report = replay(record)
    assert report.ok, report.problems


# ------------------------------------------------------------- leading, passing
HANDS = "3C 3D 4C 5C 9H / 6C 6D 7C 8C / 6H 6S 7D 8D"


def test_the_leader_must_play_and_cannot_pass() -> None:
    state = position(hands=HANDS, turn=0)
    assert "pass" not in combos(state)
    assert refusal(state, Pass()) == "must_lead"
    assert refusal(state, Bid(1)) == "wrong_action"


def test_followers_beat_with_the_same_type_and_size_or_pass() -> None:
    state, _ = run(position(hands=HANDS, turn=0), "pair: 3C 3D")
    assert combos(state) == ["pair: 6C 6D", "pass"]
    assert refusal(state, play("single", "8C")) == "does_not_beat"
    assert refusal(state, play("pair", "6H 6S")) == "card_not_in_hand"


def test_two_passes_give_the_lead_back_to_the_last_player() -> None:
    state, events = run(position(hands=HANDS, turn=0), "single: 9H", "pass", "pass")
    assert events[-1] == {"type": "round_over", "leader": 0}
    assert state.turn == 0
    assert state.table is None
    assert "single: 3C" in combos(state)
    assert "pair: 3C 3D" in combos(state)


def test_a_pass_does_not_stop_a_player_from_playing_later_in_the_round() -> None:
    state, _ = run(position(hands=HANDS, turn=0), "single: 4C", "pass", "single: 6H", "pass")
    assert "single: 7C" in combos(state)  # seat 1 passed before, plays now
    state, _ = run(state, "single: 7C")
    assert state.table_seat == 1


def test_a_player_may_choose_the_suits() -> None:
    state = position(hands="3C 3D 3H 9S / 6C 6D 7C 8C / 6H 6S 7D 8D", turn=0)
    assert "pair: 3C 3D" in combos(state)
    chosen = play("pair", "3H 3D")
    assert chosen == Play("pair", cards("3C 3D"))  # same move: suits never matter
    state.check(chosen)
    after, events = state.apply(chosen, seat=0)
    assert events[0]["cards"] == ["3D", "3H"]
    assert [c.code for c in after.hands[0]] == ["3C", "9S"]
    assert refusal(state, play("pair", "3C 3S")) == "card_not_in_hand"


def test_a_play_with_a_wrong_rank_level_hint_is_refused() -> None:
    state = position(hands="3C 5C 9S / 6C / 6H", turn=0)
    liar = Play("single", cards("3C"), ("single", 2, (8,)))
    assert refusal(state, liar) == "not_a_combination"
    assert liar == Play("single", cards("5C"))  # equality follows the hint, like a generated play


def test_a_play_must_be_the_combination_it_names() -> None:
    state = position(hands="3C 3D 3H 9S 5D / 6C 6D 7C 8C / 6H 6S 7D 8D", turn=0)
    assert refusal(state, play("triple", "3C 3D 9S")) == "not_a_combination"
    assert refusal(state, play("pair", "3C 3D 3H")) == "not_a_combination"
    assert refusal(state, play("triple1", "3C 3D 3H 3C")) == "not_a_combination"
    assert refusal(state, Play("flush", cards("3C"))) == "not_a_combination"
    state.check(play("triple1", "3C 3D 3H 9S"))


# ------------------------------------------------------------ combinations
def test_every_basic_combination_type() -> None:
    state = position(hands="3C 3D 3H 4C 4D 5C 5D 5H 5S BJ RJ / 6C / 6H", turn=0)
    legal = combos(state)
    for move in [
        "single: 3C",
        "single: BJ",
        "pair: 4C 4D",
        "triple: 3C 3D 3H",
        "triple1: 3C 3D 3H 4C",
        "triple1: 3C 3D 3H RJ",
        "triple2: 3C 3D 3H 4C 4D",
        "bomb: 5C 5D 5H 5S",
        "rocket: BJ RJ",
        "four2: 4C 4D 5C 5D 5H 5S",
        "four2: 3C 5C 5D 5H 5S BJ",
        "four22: 3C 3D 4C 4D 5C 5D 5H 5S",
    ]:
        assert move in legal
    assert "four2: 5C 5D 5H 5S BJ RJ" not in legal  # never both jokers
    assert refusal(state, play("bomb", "5C 5D 5H 5S 3C 4C")) == "not_a_combination"


def test_sequences() -> None:
    straight = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    state = position(hands=f"{straight} 2C / 6D / 6H", turn=0)
    assert f"straight: {straight}" in combos(state)  # 12 cards, 3 to A
    assert refusal(state, play("straight", "TC JC QC KC AC 2C")) == "not_a_combination"
    assert refusal(state, play("straight", "JC QC KC AC 2C")) == "not_a_combination"
    state = position(hands="3C 3D 4C 4D 5C 5D 6C 6D 6H / 7D / 7H", turn=0)
    assert "pairs: 3C 3D 4C 4D 5C 5D" in combos(state)
    assert "pairs: 3C 3D 4C 4D 5C 5D 6C 6D" in combos(state)
    assert refusal(state, play("pairs", "3C 3D 4C 4D")) == "not_a_combination"
    state = position(hands="KC KD KH AC AD AH 2C 2D 2H / 7D / 7H", turn=0)
    assert "airplane: KC KD KH AC AD AH" in combos(state)
    assert refusal(state, play("airplane", "AC AD AH 2C 2D 2H")) == "not_a_combination"


@pytest.mark.parametrize(
    ("hand", "wings", "legal"),
    [
        ("3C 3D 3H 4C 4D 4H 5C 6C", "5C 6C", True),
        ("3C 3D 3H 4C 4D 4H 5C 5D", "5C 5D", True),  # two single wings may form a pair
        ("3C 3D 3H 4C 4D 4H BJ RJ", "BJ RJ", False),  # never both jokers
        ("3C 3D 3H 4C 4D 4H 5C BJ", "5C BJ", True),
        ("3C 3D 3H 3S 4C 4D 4H 5C", "3S 5C", False),  # no wing of a core rank
        ("3C 3D 3H 4C 4D 4H 9C 9D 9H 9S", "9C 9D", True),  # two of a four are two singles
    ],
)
def test_airplane_single_wings(hand: str, wings: str, legal: bool) -> None:
    state = position(hands=f"{hand} KS / 8S / 7S", turn=0)
    action = play("airplane1", f"3C 3D 3H 4C 4D 4H {wings}")
    assert (action in state.legal_actions(0)) is legal
    if not legal:
        assert refusal(state, action) == "not_a_combination"


def test_airplane_wings_never_hold_three_or_four_of_a_rank() -> None:
    hand = "3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 9C 9D 9H 9S"
    state = position(hands=f"{hand} / 8S / 7S", turn=0)
    assert refusal(state, play("airplane1", "3C 3D 3H 4C 4D 4H 5C 5D 5H 9C 9D 9H")) == "not_a_combination"
    assert refusal(state, play("airplane1", hand)) == "not_a_combination"
    assert play("airplane1", "3C 3D 3H 4C 4D 4H 5C 5D 5H 9C 9D 6C") in state.legal_actions(0)


@pytest.mark.parametrize(
    ("wings", "legal"),
    [
        ("5C 5D 6C 6D", True),
        ("5C 5D 5H 5S", False),  # pair wings of distinct ranks
        ("3S 3S", False),
    ],
)
def test_airplane_pair_wings(wings: str, legal: bool) -> None:
    state = position(hands="3C 3D 3H 3S 4C 4D 4H 5C 5D 5H 5S 6C 6D / 8S / 7S", turn=0)
    action = play("airplane2", f"3C 3D 3H 4C 4D 4H {wings}")
    assert (action in state.legal_actions(0)) is legal
    if not legal:
        assert refusal(state, action) == "not_a_combination"
    assert play("airplane2", "3C 3D 3H 4C 4D 4H 3S 5C 5D 5H") not in state.legal_actions(0)


def test_four_with_two_pairs_needs_distinct_pairs_and_is_no_bomb() -> None:
    state = position(hands="7C 7D 7H 7S 3C 3D 4C 4D 8C 8D 8H 8S / 6S / 6H", turn=0)
    assert "four22: 3C 3D 4C 4D 7C 7D 7H 7S" in combos(state)
    assert refusal(state, play("four22", "7C 7D 7H 7S 8C 8D 8H 8S")) == "not_a_combination"
    on_pair = position(
        hands="7C 7D 7H 7S 3C 4C / 6S / 6H 8H", turn=0, table="pair: 5C 5D", table_seat=2, passes=0
    )
    assert refusal(on_pair, play("four2", "7C 7D 7H 7S 3C 4C")) == "does_not_beat"
    assert "bomb: 7C 7D 7H 7S" in combos(on_pair)


# ---------------------------------------------------------------- beating
def test_higher_core_beats_and_attachments_never_count() -> None:
    state = position(
        hands="8C 8D 8H 3S 9C 9D 9H 2S / 6S / 6H 5H",
        turn=0,
        table="triple1: 7C 7D 7H AS",
        table_seat=2,
    )
    assert combos(state) == [
        "triple1: 3S 8C 8D 8H",
        "triple1: 8C 8D 8H 9C",
        "triple1: 8C 8D 8H 2S",
        "triple1: 3S 9C 9D 9H",
        "triple1: 8C 9C 9D 9H",
        "triple1: 9C 9D 9H 2S",
        "pass",
    ]


def test_bomb_beats_a_twenty_card_airplane() -> None:
    plane = "3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 9C TC JC QC"
    state = position(hands="KS / AC AD AH AS 2C / 2D", turn=1, table=f"airplane1: {plane}", table_seat=0)
    assert combos(state) == ["bomb: AC AD AH AS", "pass"]
    state, _ = run(state, "bomb: AC AD AH AS")
    assert (state.multiplier, state.bombs) == (2, 1)


def test_higher_bomb_and_rocket() -> None:
    state = position(hands="KS / 9C 9D 9H 9S 3C BJ RJ / 2D", turn=1, table="bomb: 8C 8D 8H 8S", table_seat=0)
    assert combos(state) == ["bomb: 9C 9D 9H 9S", "rocket: BJ RJ", "pass"]
    state = position(hands="KS / 9C 9D 9H 9S 3C / 2D", turn=1, table="bomb: TC TD TH TS", table_seat=0)
    assert combos(state) == ["pass"]
    state = position(hands="2S / 9C 9D 9H 9S 3C / 2D", turn=1, table="rocket: BJ RJ", table_seat=0)
    assert combos(state) == ["pass"]
    state = position(hands="KS / 9C BJ RJ 3C / 5D", turn=1, table="bomb: 2C 2D 2H 2S", table_seat=0)
    assert combos(state) == ["rocket: BJ RJ", "pass"]
    state, _ = run(state, "rocket: BJ RJ")
    assert (state.multiplier, state.rockets) == (2, 1)


# ----------------------------------------------------------------- scoring
def test_the_landlord_going_out_wins_twice_the_stake() -> None:
    state = position(hands="5C 5D / 6C / 7C", bids="2 0 0", turn=0, plays="3 2 1")
    state, events = run(state, "pair: 5C 5D")
    assert state.log[-1].score == {
        "points": [4, -2, -2],
        "detail": {
            "landlord": 0,
            "bid": 2,
            "bombs": 0,
            "rockets": 0,
            "spring": False,
            "reverse_spring": False,
            "multiplier": 1,
        },
    }
    assert state.result is not None
    assert (state.result.scores, state.result.winner) == ((4, -2, -2), 0)
    assert events[-1] == {"type": "game_over", "scores": [4, -2, -2], "winner": 0, "reason": "points"}
    assert state.legal_actions(0) == []
    assert refusal(state, Pass()) == "game_over"


def test_one_peasant_going_out_wins_for_both() -> None:
    state = position(hands="5C 5D / 6C / 7C", bids="3", turn=1, plays="2 2 1")
    state, _ = run(state, "single: 6C")
    assert state.result is not None
    assert state.result.scores == (-6, 3, 3)
    assert state.result.winner is None  # the two peasants share the top


def test_spring_doubles() -> None:
    state = position(hands="5C 5D / 6C / 7C", bids="1 0 0", turn=0, plays="4 0 0")
    state, _ = run(state, "pair: 5C 5D")
    assert state.log[-1].score is not None
    assert state.log[-1].score["detail"]["spring"] is True
    assert state.log[-1].score["points"] == [4, -2, -2]


def test_reverse_spring_doubles() -> None:
    state = position(
        hands="5C 5D / 6C / 7C", bids="2 0 0", turn=1, plays="1 0 0", table="single: 4C", table_seat=0
    )
    state, _ = run(state, "single: 6C")
    assert state.log[-1].score is not None
    assert state.log[-1].score["detail"]["reverse_spring"] is True
    assert state.log[-1].score["points"] == [-8, 4, 4]


def test_no_reverse_spring_once_the_landlord_played_twice() -> None:
    state = position(
        hands="5C 5D / 6C / 7C", bids="2 0 0", turn=1, plays="2 1 0", table="single: 4C", table_seat=0
    )
    state, _ = run(state, "single: 6C")
    assert state.log[-1].score is not None
    assert state.log[-1].score["points"] == [-4, 2, 2]


def test_three_bombs_double_three_times() -> None:
    state = position(
        hands="3C 3D 3H 3S 6C / 4C 4D 4H 4S 7C 8C / 5C 5D 5H 5S 9C",
        bids="1 0 0",
        turn=0,
        plays="2 2 2",
    )
    state, events = run(
        state, "bomb: 3C 3D 3H 3S", "bomb: 4C 4D 4H 4S", "bomb: 5C 5D 5H 5S", "pass", "pass", "single: 9C"
    )
    assert state.log[-1].score is not None
    assert state.log[-1].score["detail"]["bombs"] == 3
    assert state.log[-1].score["detail"]["multiplier"] == 8
    assert state.log[-1].score["points"] == [-16, 8, 8]
    assert [e["type"] for e in events if e["type"] != "pass"][-3:] == ["play", "deal_end", "game_over"]


def test_a_match_keeps_running_totals_and_moves_the_first_bidder() -> None:
    state = GAME.new({"deals": 3}, "match")
    first = state.dealer
    rng = random.Random(1)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, _ = state.apply(legal[rng.randrange(len(legal))], seat=seat)
    assert [d.dealer for d in state.log] == [first, (first + 1) % 3, (first + 2) % 3]
    totals = [sum(d.score["points"][s] for d in state.log if d.score) for s in range(3)]
    assert state.result is not None
    assert list(state.result.scores) == totals
    assert sum(totals) == 0
    top = max(totals)
    assert state.result.winner == (totals.index(top) if totals.count(top) == 1 else None)
    record = json.loads(json.dumps(make_record(state, seats=[Seat("a"), Seat("b"), Seat("c")], seed="match")))
    assert [d["dealer"] for d in record["deals"]] == [first, (first + 1) % 3, (first + 2) % 3]
    report = replay(record)
    assert report.ok, report.problems


def test_the_next_deal_starts_when_a_deal_ends() -> None:
    state = position(hands="5C 5D / 6C / 7C", bids="1 0 0", turn=0, plays="3 2 1", deals=2, seed='"next"')
    state, events = run(state, "pair: 5C 5D")
    assert [e["type"] for e in events] == ["play", "deal_end", "deal"]
    assert events[1]["points"] == [2, -1, -1]
    assert events[1]["totals"] == [2, -1, -1]
    assert events[2] == {"type": "deal", "deal": 2, "dealer": 1}
    assert (state.deal, state.dealer, state.turn, state.phase) == (1, 1, 1, "bidding")
    assert [len(h) for h in state.hands] == [17, 17, 17]
    assert state.view(0)["last_deal"]["points"] == [2, -1, -1]
    assert state.result is None


def test_deals_option() -> None:
    assert GAME.options(None) == {"deals": 1}
    for bad in (0, 101, True, "2"):
        with pytest.raises(OptionsError):
            GAME.new({"deals": bad}, "x")
    with pytest.raises(OptionsError):
        GAME.new({"target": 3}, "x")


# ---------------------------------------------------------- views, secrets
def test_views_show_own_hand_and_counts_only() -> None:
    state = GAME.new(None, "views")
    view = state.view(1)
    assert view["hand"] == [c.code for c in state.hands[1]]
    assert view["hand_counts"] == [17, 17, 17]
    assert view["kitty"] is None  # face down while bidding
    assert view["phase"] == "bidding"
    assert state.view(None)["hand"] is None
    assert state.secret_cards(1) == frozenset(state.hands[0] + state.hands[2] + state.kitty)
    state, _ = run(state, "bid 3")
    landlord = state.landlord
    assert landlord is not None
    assert not set(state.kitty) & state.secret_cards(None)  # the kitty is known to all
    view = state.view((landlord + 1) % 3)
    assert view["kitty"] == [c.code for c in state.kitty]
    assert view["landlord"] == landlord
    assert view["bid"] == 3
    assert view["to_move"] == landlord


def test_view_of_the_table_and_history() -> None:
    state, _ = run(position(hands=HANDS, turn=0), "pair: 3C 3D", "pass")
    view = state.view(2)
    assert view["table"] == {"seat": 0, "combo": "pair", "cards": ["3C", "3D"]}
    assert view["passes"] == 1
    assert view["played"] == [["3C", "3D"], [], []]
    assert view["history"] == [{"seat": 0, "combo": "pair", "cards": ["3C", "3D"]}, {"seat": 1, "pass": True}]
    assert view["multiplier"] == 1
    assert view["totals"] == [0, 0, 0]


def test_history_keeps_bids_and_the_suits_played() -> None:
    state, _ = run(new_game(0), "bid 3")
    low = next(c for c in state.hands[0] if c.rank == state.hands[0][0].rank and c != state.hands[0][0])
    first, _ = state.apply(Play("single", (state.hands[0][0],)), seat=0)
    other, _ = state.apply(Play("single", (low,)), seat=0)
    assert first.view(1)["history"][-1]["cards"] == [state.hands[0][0].code]
    assert other.view(1)["history"] == [
        {"seat": 0, "bid": 3},
        {"seat": 0, "combo": "single", "cards": [low.code]},
    ]


# ------------------------------------------------------------ text forms
def test_action_text_and_data_forms_round_trip() -> None:
    for action in [Bid(0), Bid(3), Pass(), play("airplane1", "3C 3D 3H 4C 4D 4H 5S 6S")]:
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_from_data(json.loads(json.dumps(action.to_data()))) == action
    assert str(play("airplane1", "3C 3D 3H 4C 4D 4H 5S 6S")) == "airplane1: 3C 3D 3H 4C 4D 4H 5S 6S"
    assert GAME.parse_action("pair 3d 3c").cards == cards("3C 3D")  # type: ignore[union-attr]
    for bad in ["bid 4", "bid", "flush: 3C", "pair:", "", "hello"]:
        with pytest.raises(ActionFormatError):
            GAME.parse_action(bad)
    bad_data: list[dict[str, Any]] = [
        {"bid": 5},
        {"bid": True},
        {"pass": False},
        {"combo": "flush", "cards": []},
        {"combo": "pair", "cards": "3C 3D"},
        {"x": 1},
    ]
    for data in bad_data:
        with pytest.raises(ActionFormatError):
            GAME.action_from_data(data)


def test_typed_moves_read_ranks() -> None:
    state = position(hands="3C 3D 3H 4C 4D 4H 5S 6S 9C / 8S / 7S", turn=0)
    assert [str(p) for p in state.typed("33344456")] == ["airplane1: 3C 3D 3H 4C 4D 4H 5S 6S"]
    with pytest.raises(IllegalAction) as info:
        state.typed("3345")
    assert info.value.reason == "not_a_combination"
    with pytest.raises(ActionFormatError):
        state.typed("33x")


def test_position_round_trips_and_refuses_nonsense() -> None:
    state, _ = run(position(hands=HANDS, turn=0, seed='"abc"'), "pair: 3C 3D")
    assert GAME.position(state.to_text()).to_text() == state.to_text()
    bidding = GAME.new({"deals": 2}, "text")
    assert GAME.position(bidding.to_text()).to_text() == bidding.to_text()
    for bad in [
        {"hands": "3C / 3C / 4C", "turn": 0},
        {"hands": HANDS, "turn": 0, "landlord": 1},
        {"hands": HANDS, "turn": 0, "bids": "1 0"},
        {"hands": HANDS, "turn": 0, "table": "pair: 5D 5H", "table_seat": 1},
        {"hands": HANDS, "turn": 1, "table": "pair: 5D 9H", "table_seat": 0},
        {"hands": "- / 6C / 7C", "turn": 0},
        {"hands": HANDS, "turn": 0, "phase": "bidding", "landlord": "-"},
        {"hands": HANDS, "turn": 0, "colour": "red"},
    ]:
        with pytest.raises(PositionError):
            position(**bad)


# ------------------------------------------------------------------ smoke
def test_seeded_random_play_conserves_cards_and_sums_to_zero() -> None:
    deals = 0
    for match in range(60):
        rng = random.Random(match)
        state = GAME.new({"deals": 5}, f"smoke/{match}")
        while (seat := state.to_move) is not None:
            places = Counter(c for cards in state.places().values() for c in cards)
            assert places == Counter(DECK_54)
            legal = state.legal_actions(seat)
            state, _ = state.apply_unchecked(legal[rng.randrange(len(legal))])
        assert state.result is not None
        for deal in state.log:
            assert deal.score is not None
            assert sum(deal.score["points"]) == 0
            deals += 1
        assert sum(state.result.scores) == 0
    assert deals == 300


def test_rank_level_bot_api_matches_legal_actions() -> None:
    rng = random.Random(5)
    state = GAME.new(None, "bot-api")
    while (seat := state.to_move) is not None:
        if state.phase == "play":
            moves = state.legal_moves()
            assert state.plays_for(moves) + ([Pass()] if state.can_pass else []) == state.legal_actions(seat)
            if moves and rng.random() < 0.8:
                state, _ = state.play_move(moves[rng.randrange(len(moves))])
                continue
        legal = state.legal_actions(seat)
        state, _ = state.apply(legal[-1] if state.phase == "play" else legal[0], seat=seat)
    assert state.result is not None
