"""Briscola: one test per rule of games.md §2, through the engine's public interface.

Positions are written in the ``to_text`` format and read with
``GAME.position``; dealt games use ``RecordedChance`` so the shuffled order is
known (records.md: ``dealer`` is the seat that does not lead; 3 cards to the
leader, 3 to the dealer, then the trump, which is drawn last).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from cardavia.games import briscola
from cardavia.games.briscola import Play
from cardavia.games.cards import DECK_40, Card
from cardavia.games.chance import RecordedChance
from cardavia.games.errors import ActionFormatError, CardError, IllegalAction
from tests.plain_data import strings_in

GAME = briscola.GAME

RANKS_HIGH_TO_LOW = ["A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0, "2": 0}


# ----------------------------------------------------------------- helpers
def card(code: str) -> Card:
    return Card.parse(code)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def codes(text: str) -> list[str]:
    return text.split()


def order_from(prefix: str) -> tuple[Card, ...]:
    """A full 40-card order starting with ``prefix``, the rest in deck order."""
    head = cards(prefix)
    return head + tuple(c for c in DECK_40 if c not in head)


def suit_cards(suits: str, but: str = "") -> str:
    skip = set(but.split())
    return " ".join(c.code for c in DECK_40 if c.suit in suits and c.code not in skip)


def position(**fields: str) -> Any:
    return GAME.position("\n".join(f"{key}: {value}" for key, value in fields.items()))


def refusal(state: Any, action: Play, seat: int | None) -> str:
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat=seat)
    return info.value.reason


def one_trick(lead: str, follow: str, trump_suit: str) -> dict[str, Any]:
    """Seat 0 leads ``lead``, seat 1 follows with ``follow``; the trick event."""
    used = {lead, follow}
    trump = next(c.code for c in DECK_40 if c.suit == trump_suit and c.code not in used)
    filler = next(c.code for c in DECK_40 if c.code not in {*used, trump})
    state = position(
        dealer="1", turn="0", trump=trump, hands=f"{lead} / {follow}", won=f"{trump} {filler} / -"
    )
    state, _ = state.apply(Play(card(lead)), seat=0)
    _, events = state.apply(Play(card(follow)), seat=1)
    return next(e for e in events if e["type"] == "trick")


def play_first_legal(state: Any) -> tuple[Any, list[dict[str, Any]]]:
    seat = state.to_move
    return state.apply(state.legal_actions(seat)[0], seat=seat)


KNOWN = order_from("AC 2C 3C AD 2D 3D 4H")


def known_state(dealer: int = 1) -> Any:
    """Leader 1 - dealer holds AC 2C 3C, the dealer AD 2D 3D; trump 4H."""
    return GAME.new({}, RecordedChance(dealer, ((KNOWN,),)))


# ------------------------------------------------------ rank and points
@pytest.mark.parametrize(("led_suit", "trump_suit"), [("H", "C"), ("C", "C")])
def test_trick_rank_a_3_k_q_j_7_6_5_4_2(led_suit: str, trump_suit: str) -> None:
    for high, low in combinations(RANKS_HIGH_TO_LOW, 2):
        higher, lower = high + led_suit, low + led_suit
        assert one_trick(higher, lower, trump_suit)["winner"] == 0, f"{higher} led, {lower} followed"
        assert one_trick(lower, higher, trump_suit)["winner"] == 1, f"{lower} led, {higher} followed"


@pytest.mark.parametrize("rank", RANKS_HIGH_TO_LOW)
def test_card_points_a11_3_10_k4_q3_j2_others_0(rank: str) -> None:
    state = position(dealer="1", turn="0", trump="4C", hands="4C / 5C", won=f"{rank}S {rank}H / -")
    assert state.view(None)["points"] == [2 * POINTS[rank], 0]


def test_card_points_total_120() -> None:
    state = position(dealer="1", turn="0", trump="4C", hands="- / -", won=f"{suit_cards('CDHS')} / -")
    assert state.result is not None
    assert state.result.scores == (120, 0)
    assert state.view(None)["points"] == [120, 0]


def test_trick_event_carries_the_tricks_card_points() -> None:
    assert one_trick("AH", "3H", "C")["points"] == 21
    assert one_trick("7H", "2H", "C")["points"] == 0


# ------------------------------------------------------------------ a trick
def test_any_card_may_be_played_no_duty_to_follow_suit_or_trump() -> None:
    state = position(dealer="1", turn="1", trump="7C", hands="AD 5C / 3H 4S 6C", stock="2D 7C", trick="2H")
    assert set(state.legal_actions(1)) == {Play(c) for c in cards("3H 4S 6C")}
    for played, winner in [("4S", 0), ("6C", 1), ("3H", 1)]:
        after, events = state.apply(Play(card(played)), seat=1)
        assert next(e for e in events if e["type"] == "trick")["winner"] == winner, played
        assert after.to_move == winner


def test_leader_may_lead_any_card() -> None:
    state = position(dealer="1", turn="0", trump="7C", hands="AD 5C 3H / 4S 6C 2H", stock="2D 7C")
    assert set(state.legal_actions(0)) == {Play(c) for c in cards("AD 5C 3H")}


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [
        ("AH", "2C", 1),  # the lowest trump beats the highest non-trump
        ("2C", "AH", 0),  # a non-trump never beats a trump lead
        ("2C", "4C", 1),  # the higher trump wins
        ("AC", "3C", 0),
        ("3C", "AC", 1),
    ],
)
def test_highest_trump_wins(lead: str, follow: str, winner: int) -> None:
    assert one_trick(lead, follow, "C")["winner"] == winner


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [("KH", "3H", 1), ("3H", "KH", 0), ("2H", "4H", 1), ("JH", "7H", 0)],
)
def test_highest_card_of_the_led_suit_wins_without_trump(lead: str, follow: str, winner: int) -> None:
    assert one_trick(lead, follow, "C")["winner"] == winner


@pytest.mark.parametrize(("lead", "follow"), [("2H", "AS"), ("2H", "3D"), ("4S", "AD")])
def test_card_of_another_non_trump_suit_never_beats_the_lead(lead: str, follow: str) -> None:
    assert one_trick(lead, follow, "C")["winner"] == 0


def test_trick_goes_to_the_winners_pile() -> None:
    state = position(dealer="1", turn="0", trump="7C", hands="2H / AH", stock="5S 7C")
    state, _ = state.apply(Play(card("2H")), seat=0)
    state, _ = state.apply(Play(card("AH")), seat=1)
    view = state.view(None)
    assert sorted(view["won"][1]) == sorted(codes("2H AH"))
    assert view["won"][0] == []
    assert view["points"] == [0, 11]
    assert view["tricks"] == [0, 1]


# ------------------------------------------------------------------ drawing
@pytest.mark.parametrize(("hands", "winner"), [("AH / 2H", 0), ("2H / AH", 1)])
def test_winner_draws_first_and_leads_next(hands: str, winner: int) -> None:
    state = position(dealer="1", turn="0", trump="7C", hands=hands, stock="5S 6S 4D 7C")
    lead, follow = hands.split(" / ")
    state, _ = state.apply(Play(card(lead)), seat=0)
    state, events = state.apply(Play(card(follow)), seat=1)
    draws = [e["seat"] for e in events if e["type"] == "draw"]
    assert draws == [winner, 1 - winner]
    assert state.view(winner)["hand"] == ["5S"]
    assert state.view(1 - winner)["hand"] == ["6S"]
    assert state.to_move == winner
    assert state.view(None)["leader"] == winner
    assert state.legal_actions(1 - winner) == []


@pytest.mark.parametrize(("hands", "winner"), [("AH / 2H", 0), ("2H / AH", 1)])
def test_trump_card_is_drawn_last_by_the_loser_of_the_last_draw(hands: str, winner: int) -> None:
    state = position(dealer="1", turn="0", trump="7C", hands=hands, stock="5S 7C")
    assert state.view(None)["trump_in_stock"] is True
    lead, follow = hands.split(" / ")
    state, _ = state.apply(Play(card(lead)), seat=0)
    state, events = state.apply(Play(card(follow)), seat=1)
    draws = [e for e in events if e["type"] == "draw"]
    assert draws[-1] == {"type": "draw", "seat": 1 - winner, "card": "7C"}
    assert state.view(1 - winner)["hand"] == ["7C"]
    assert state.view(winner)["hand"] == ["5S"]
    view = state.view(None)
    assert view["stock"] == 0
    assert view["trump_in_stock"] is False
    assert view["trump"] == "7C"


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_from_known_order_leader_dealer_then_trump_under_the_stock(dealer: int) -> None:
    leader = 1 - dealer
    state = known_state(dealer)
    assert state.view(leader)["hand"] == codes("AC 2C 3C")
    assert state.view(dealer)["hand"] == codes("AD 2D 3D")
    view = state.view(None)
    assert view["trump"] == "4H"
    assert view["stock"] == 34  # 33 face down + the trump underneath
    assert view["dealer"] == dealer
    assert view["leader"] == leader
    assert state.to_move == leader
    assert state.legal_actions(dealer) == []
    log = state.deal_logs()[0]
    assert log["dealer"] == dealer
    assert log["order"] == [c.code for c in KNOWN]


def test_draws_take_the_order_after_the_trump_and_the_trump_last() -> None:
    state = known_state(1)
    first_winner = None
    drawn: list[tuple[int, str]] = []
    while state.view(None)["stock"]:
        before = {s: set(state.view(s)["hand"]) for s in (0, 1)}
        state, events = play_first_legal(state)
        trick = [e for e in events if e["type"] == "trick"]
        if trick and first_winner is None:
            first_winner = trick[0]["winner"]
        for seat in (0, 1):
            new = set(state.view(seat)["hand"]) - before[seat]
            drawn.extend((seat, code) for code in new)
    assert first_winner is not None
    assert drawn[0] == (first_winner, KNOWN[7].code)
    assert drawn[1] == (1 - first_winner, KNOWN[8].code)
    assert sorted(code for _, code in drawn) == sorted(c.code for c in (*KNOWN[7:], KNOWN[6]))
    # order[7:] in sequence, two per trick, then the trump card last.
    per_trick = [{drawn[i][1], drawn[i + 1][1]} for i in range(0, len(drawn), 2)]
    expected = [*(c.code for c in KNOWN[7:]), KNOWN[6].code]
    assert per_trick == [{expected[i], expected[i + 1]} for i in range(0, len(expected), 2)]


def test_first_leader_comes_from_the_seed() -> None:
    dealers = {GAME.new({}, f"seed-{n}").view(None)["dealer"] for n in range(40)}
    assert dealers == {0, 1}
    assert GAME.new({}, "seed-3").to_text() == GAME.new({}, "seed-3").to_text()
    state = GAME.new({}, "seed-3")
    assert state.to_move == 1 - state.view(None)["dealer"]


def test_hands_are_played_out_after_the_stock_is_empty() -> None:
    state = known_state(0)
    tricks = 0
    while state.view(None)["stock"]:
        state, events = play_first_legal(state)
        tricks += sum(1 for e in events if e["type"] == "trick")
    assert tricks == 17
    assert state.view(None)["hand_counts"] == [3, 3]
    assert state.result is None
    while state.to_move is not None:
        state, events = play_first_legal(state)
        assert not [e for e in events if e["type"] == "draw"]
        tricks += sum(1 for e in events if e["type"] == "trick")
    assert tricks == 20
    assert state.view(None)["hand_counts"] == [0, 0]
    assert state.result is not None
    assert sum(state.result.scores) == 120
    assert sum(state.view(None)["tricks"]) == 20


# ------------------------------------------------------------------ the end
D_C = suit_cards("DC")  # 60 points
H_S = suit_cards("HS", but="AS 2S")  # 49 points; holds 2H, the trump card


@pytest.mark.parametrize(
    ("won", "hands", "scores", "winner", "reason"),
    [
        ((D_C, H_S), "2S / AS", (60, 60), None, "draw"),
        ((H_S, D_C), "AS / 2S", (60, 60), None, "draw"),
        ((D_C, H_S), "AS / 2S", (71, 49), 0, "points"),
        ((H_S, D_C), "2S / AS", (49, 71), 1, "points"),
    ],
)
def test_higher_points_win_and_60_60_is_a_draw(
    won: tuple[str, str], hands: str, scores: tuple[int, int], winner: int | None, reason: str
) -> None:
    state = position(dealer="1", turn="0", trump="2H", hands=hands, won=f"{won[0]} / {won[1]}")
    lead, follow = hands.split(" / ")
    state, _ = state.apply(Play(card(lead)), seat=0)
    assert state.result is None
    state, events = state.apply(Play(card(follow)), seat=1)
    assert state.result is not None
    assert state.result.scores == scores
    assert state.result.winner == winner
    assert state.result.reason == reason
    assert state.to_move is None
    assert state.view(None)["result"] == {"scores": list(scores), "winner": winner, "reason": reason}
    assert any(e["type"] == "game_over" for e in events)


# ------------------------------------------------ refusals and visibility
def test_out_of_turn_action_is_refused() -> None:
    state = known_state(1)  # seat 0 leads
    assert refusal(state, Play(card("AD")), 1) == "not_your_turn"
    state, _ = state.apply(Play(card("AC")), seat=0)
    assert refusal(state, Play(card("2C")), 0) == "not_your_turn"


@pytest.mark.parametrize("code", ["AD", "4H", "5H", "KS"])  # opponent's hand, trump, stock
def test_card_not_in_hand_is_refused(code: str) -> None:
    state = known_state(1)
    assert refusal(state, Play(card(code)), 0) == "card_not_in_hand"


def test_card_already_played_is_refused() -> None:
    state, _ = known_state(1).apply(Play(card("AC")), seat=0)
    assert refusal(state, Play(card("AC")), 1) == "card_not_in_hand"


def test_actions_after_game_over_are_refused() -> None:
    state = position(dealer="1", turn="0", trump="2H", hands="AS / 2S", won=f"{D_C} / {H_S}")
    state, _ = state.apply(Play(card("AS")), seat=0)
    state, _ = state.apply(Play(card("2S")), seat=1)
    assert state.result is not None
    assert state.legal_actions(0) == []
    assert state.legal_actions(1) == []
    for seat in (0, 1, None):
        assert refusal(state, Play(card("2S")), seat) == "game_over"


def test_refused_action_leaves_the_state_unchanged() -> None:
    state, _ = known_state(1).apply(Play(card("AC")), seat=0)
    before = (state.to_text(), state.view(0), state.view(1), state.view(None), state.deal_logs())
    for action, seat in [
        (Play(card("2C")), 0),
        (Play(card("2C")), 1),
        (Play(card("AC")), 1),
        (Play(card("4H")), 1),
    ]:
        with pytest.raises(IllegalAction):
            state.apply(action, seat=seat)
        after = (state.to_text(), state.view(0), state.view(1), state.view(None), state.deal_logs())
        assert after == before


@pytest.mark.parametrize("seat", [0, 1])
def test_view_never_shows_the_other_hand(seat: int) -> None:
    state = known_state(1)  # seat 0: AC 2C 3C, seat 1: AD 2D 3D
    own = codes("AC 2C 3C") if seat == 0 else codes("AD 2D 3D")
    other = set(codes("AD 2D 3D") if seat == 0 else codes("AC 2C 3C"))
    stock = {c.code for c in KNOWN[7:]}
    view = state.view(seat)
    assert view["hand"] == own
    assert view["hand_counts"] == [3, 3]
    assert not strings_in(view) & (other | stock)


def test_spectator_view_shows_no_hand() -> None:
    state = known_state(1)
    view = state.view(None)
    assert view["hand"] is None
    assert view["hand_counts"] == [3, 3]
    hidden = {c.code for c in KNOWN[0:6]} | {c.code for c in KNOWN[7:]}
    assert not strings_in(view) & hidden


def test_action_text_and_data_forms_round_trip() -> None:
    state = known_state(1)
    actions = [*state.legal_actions(0), Play(card("KS"))]
    for action in actions:
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_from_data(action.to_data()) == action
        assert GAME.action_from_data({"seat": 0, **action.to_data()}) == action
    assert GAME.parse_action("AS") == Play(card("AS"))
    assert GAME.parse_action("play AS") == Play(card("AS"))
    assert Play(card("AS")).to_data() == {"play": "AS"}


@pytest.mark.parametrize("text", ["", "AS KS", "play AS KS", "   "])
def test_bad_action_text_raises_action_format_error(text: str) -> None:
    with pytest.raises(ActionFormatError):
        GAME.parse_action(text)


@pytest.mark.parametrize("text", ["ZZ", "AX", "play", "play XX"])
def test_bad_card_in_action_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    "data", [{}, {"play": 1}, {"play": ["AS"]}, {"play": "AS", "capture": []}, "AS", ["AS"]]
)
def test_bad_action_data_raises_action_format_error(data: Any) -> None:
    with pytest.raises(ActionFormatError):
        GAME.action_from_data(data)


def test_bad_card_in_action_data_raises_card_error() -> None:
    with pytest.raises(CardError):
        GAME.action_from_data({"play": "XX"})
