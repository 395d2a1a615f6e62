"""Scopa: one test per rule of games.md §1, through the engine's public interface.

Positions are written in the ``to_text`` format and read with
``GAME.position``; dealt matches use ``RecordedChance`` so the shuffled order
is known. Card codes are those of cards.md (suit D = coins).
"""

from __future__ import annotations

from typing import Any

import pytest

from cardavia.games import scopa
from cardavia.games.cards import DECK_40, Card
from cardavia.games.chance import RecordedChance
from cardavia.games.errors import ActionFormatError, CardError, IllegalAction, OptionsError
from cardavia.games.scopa import Play, captures_for, primiera, score_deal
from tests.plain_data import strings_in

GAME = scopa.GAME


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


def position(**fields: str) -> Any:
    return GAME.position("\n".join(f"{key}: {value}" for key, value in fields.items()))


def refusal(state: Any, action: Play, seat: int | None) -> str:
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat=seat)
    return info.value.reason


def plays_of(state: Any, seat: int, code: str) -> set[Play]:
    return {a for a in state.legal_actions(seat) if a.card is card(code)}


def event_types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def play_until_deal(state: Any, deal: int) -> Any:
    """Play the first legal move of whoever is to move until deal number ``deal`` starts."""
    while state.to_move is not None and state.view(None)["deal"] < deal:
        seat = state.to_move
        state, _ = state.apply(state.legal_actions(seat)[0], seat=seat)
    return state


# A deal's last play: seat 1 (dealer) plays 2S, which takes nothing from KC;
# the leftovers KC 2S go to seat 1, the last capturer.
def last_play(pile0: str, pile1: str, totals: str, scopas: str = "0 0", target: str = "11") -> Any:
    return position(
        target=target,
        totals=totals,
        dealer="1",
        turn="1",
        hands="- / 2S",
        table="KC",
        stock="-",
        piles=f"{pile0} / {pile1}",
        scopas=scopas,
        last_capture="1",
    )


# Seat 0: settebello + coins (2 vs 1); seat 1: cards + primiera -> 2 points each.
TWO_ALL = ("7D 6D", "AD AC AH AS 2C")
# Seat 0: cards, coins, settebello, primiera = 4; seat 1: one scopa = 1.
FOUR_ONE = ("7D 6D AC AH AS 2C 3C 4C", "5D")


# ------------------------------------------------------- capture values
@pytest.mark.parametrize(
    ("played", "table", "taken"),
    [
        ("JD", "5C 3H", "5C 3H"),  # J = 8
        ("QD", "5C 4H", "5C 4H"),  # Q = 9
        ("KD", "6C 4H", "6C 4H"),  # K = 10
        ("KD", "JC 2H", "JC 2H"),  # a J is an 8 inside a sum
        ("KD", "QC AH", "QC AH"),  # a Q is a 9 inside a sum
        ("QD", "JC AH", "JC AH"),
    ],
)
def test_face_cards_take_part_in_sums(played: str, table: str, taken: str) -> None:
    state = position(dealer="0", turn="1", hands=f"7S / {played}", table=table)
    assert plays_of(state, 1, played) == {Play(card(played), cards(taken))}


def test_capture_values_ace_is_one_and_pips_their_face_value() -> None:
    assert captures_for(card("AD"), list(cards("AC 2C"))) == [(card("AC"),)]
    assert captures_for(card("3D"), list(cards("AC 2H"))) == [cards("AC 2H")]
    assert captures_for(card("7D"), list(cards("JC QC KC"))) == [()]


# ------------------------------------------------------------------ a turn
def test_single_match_is_taken_before_any_sum() -> None:
    state = position(dealer="0", turn="1", hands="AS / 7D", table="7S 3C 4H")
    assert plays_of(state, 1, "7D") == {Play(card("7D"), cards("7S"))}
    assert refusal(state, Play(card("7D"), cards("3C 4H")), 1) == "wrong_capture"


def test_choice_among_several_matching_cards_each_is_a_move() -> None:
    state = position(dealer="0", turn="1", hands="AS / 5D", table="5S 5C 2H 3H")
    assert plays_of(state, 1, "5D") == {
        Play(card("5D"), cards("5S")),
        Play(card("5D"), cards("5C")),
    }
    took_spade, _ = state.apply(Play(card("5D"), cards("5S")), seat=1)
    took_club, _ = state.apply(Play(card("5D"), cards("5C")), seat=1)
    assert sorted(took_spade.view(None)["table"]) == sorted(codes("5C 2H 3H"))
    assert sorted(took_club.view(None)["table"]) == sorted(codes("5S 2H 3H"))


def test_capture_is_mandatory_when_a_single_card_matches() -> None:
    state = position(dealer="0", turn="1", hands="AS / 7D", table="7S 2H")
    assert Play(card("7D")) not in state.legal_actions(1)
    assert refusal(state, Play(card("7D")), 1) == "capture_required"


def test_capture_is_mandatory_when_only_a_sum_matches() -> None:
    state = position(dealer="0", turn="1", hands="AS / 7D", table="3C 4H KS")
    assert Play(card("7D")) not in state.legal_actions(1)
    assert refusal(state, Play(card("7D")), 1) == "capture_required"


def test_sum_is_captured_when_no_single_card_matches_with_a_choice_of_sets() -> None:
    table = "AS 2S 3C 4H 5C 6H"
    state = position(dealer="0", turn="1", hands="KS / 7D", table=table)
    sets = ["AS 6H", "2S 5C", "3C 4H", "AS 2S 4H"]
    assert plays_of(state, 1, "7D") == {Play(card("7D"), cards(s)) for s in sets}
    for taken in sets:
        after, events = state.apply(Play(card("7D"), cards(taken)), seat=1)
        view = after.view(None)
        assert sorted(view["table"]) == sorted(set(codes(table)) - set(codes(taken)))
        assert sorted(view["captured"][1]) == sorted(["7D", *codes(taken)])
        assert view["last_capture"] == 1
        assert "capture" in event_types(events)


@pytest.mark.parametrize(
    ("hand", "table", "played", "taken"),
    [
        ("7D", "7S 3C 4H", "7D", "3C 4H"),  # a sum although a single matches
        ("7D", "7S 7C", "7D", "7S 7C"),  # two matching cards at once
        ("7D", "3C 2H 6S", "7D", "3C 2H"),  # does not sum to 7
        ("7D", "3C 4H 6S", "7D", "6S"),  # one non-matching card
        ("7D", "3C 4H", "7D", "3C 4S"),  # 4S is not on the table
        ("KD", "2H 3C", "KD", "2H"),  # the card can capture nothing
    ],
)
def test_wrong_capture_set_is_refused(hand: str, table: str, played: str, taken: str) -> None:
    state = position(dealer="0", turn="1", hands=f"AS / {hand}", table=table)
    assert refusal(state, Play(card(played), cards(taken)), 1) == "wrong_capture"


def test_card_that_captures_nothing_stays_on_the_table() -> None:
    state = position(
        dealer="0", turn="1", hands="AS / KD", table="2H 3C", piles="- / 4S 4C", last_capture="1"
    )
    assert plays_of(state, 1, "KD") == {Play(card("KD"))}
    after, events = state.apply(Play(card("KD")), seat=1)
    view = after.view(None)
    assert sorted(view["table"]) == sorted(codes("2H 3C KD"))
    assert view["captured"] == [[], codes("4S 4C")]
    assert view["last_capture"] == 1
    assert "capture" not in event_types(events)


def test_capture_moves_played_and_taken_cards_to_the_players_pile() -> None:
    state = position(dealer="0", turn="1", hands="AS 2S / 5D 6D", table="5C JH")
    after, _ = state.apply(Play(card("5D"), cards("5C")), seat=1)
    view = after.view(None)
    assert sorted(view["captured"][1]) == sorted(codes("5D 5C"))
    assert view["captured"][0] == []
    assert view["table"] == ["JH"]
    assert view["hand_counts"] == [2, 1]


def test_turns_alternate() -> None:
    state = position(dealer="0", turn="1", hands="AS 2S / KD 6D", table="JH")
    after, _ = state.apply(Play(card("KD")), seat=1)
    assert after.to_move == 0
    assert after.legal_actions(1) == []
    after, _ = after.apply(Play(card("AS")), seat=0)
    assert after.to_move == 1


# ------------------------------------------------------------------- setup
def test_deal_from_known_order_three_to_non_dealer_three_to_dealer_four_to_table() -> None:
    order = order_from("AC 2C 3C AD 2D 3D 4C 5C 6C 7C")
    state = GAME.new({}, RecordedChance(0, ((order,),)))
    assert state.view(1)["hand"] == codes("AC 2C 3C")  # non-dealer
    assert state.view(0)["hand"] == codes("AD 2D 3D")  # dealer
    assert state.view(None)["table"] == codes("4C 5C 6C 7C")
    assert state.view(None)["stock"] == 30
    log = state.deal_logs()[0]
    assert log["dealer"] == 0
    assert log["order"] == [c.code for c in order]
    assert log["redeals"] == []


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_plays_first(dealer: int) -> None:
    state = GAME.new({}, RecordedChance(dealer, ((order_from("AC 2C 3C AD 2D 3D 4C 5C 6C 7C"),),)))
    assert state.view(None)["dealer"] == dealer
    assert state.to_move == 1 - dealer
    assert state.legal_actions(dealer) == []
    assert state.legal_actions(1 - dealer)


@pytest.mark.parametrize(
    "table_kings",
    [
        "KC KD KH 4C",  # three kings
        "KC KD KH KS",  # four kings
        "4C KD KH KS",
    ],
)
def test_three_or_four_kings_on_opening_table_force_redeal_by_same_dealer(table_kings: str) -> None:
    bad = order_from(f"AC 2C 3C AD 2D 3D {table_kings}")
    good = order_from("AH 2H 3H AS 2S 3S 5C 6C 7C 5D")
    state = GAME.new({}, RecordedChance(1, ((bad, good),)))
    log = state.deal_logs()[0]
    assert log["redeals"] == [[c.code for c in bad]]
    assert log["order"] == [c.code for c in good]
    assert log["dealer"] == 1
    view = state.view(None)
    assert view["dealer"] == 1
    assert view["table"] == [c.code for c in good[6:10]]
    assert state.to_move == 0
    assert state.view(0)["hand"] == [c.code for c in good[0:3]]


def test_kings_redeal_repeats_as_needed() -> None:
    bad3 = order_from("AC 2C 3C AD 2D 3D KC KD KH 4C")
    bad4 = order_from("AC 2C 3C AD 2D 3D KC KD KH KS")
    good = order_from("AC 2C 3C AD 2D 3D KC KD 4C 5C")  # two kings are fine
    state = GAME.new({}, RecordedChance(0, ((bad3, bad4, good),)))
    log = state.deal_logs()[0]
    assert log["redeals"] == [[c.code for c in bad3], [c.code for c in bad4]]
    assert log["order"] == [c.code for c in good]
    assert log["dealer"] == 0


@pytest.mark.parametrize(
    "prefix",
    [
        "AC 2C 3C AD 2D 3D KC KD 4C 5C",  # two kings on the table
        "KC KD KH AD 2D 3D 4C 5C 6C 7C",  # three kings in a hand, not on the table
    ],
)
def test_fewer_than_three_kings_on_the_table_deal_stands(prefix: str) -> None:
    order = order_from(prefix)
    # A single recorded shuffle: a redeal would need a second one and fail.
    state = GAME.new({}, RecordedChance(0, ((order,),)))
    assert state.deal_logs()[0]["redeals"] == []
    assert state.view(None)["table"] == [c.code for c in order[6:10]]


def test_first_dealer_comes_from_the_match_seed() -> None:
    dealers = {GAME.new({}, f"seed-{n}").view(None)["dealer"] for n in range(40)}
    assert dealers == {0, 1}
    again = GAME.new({}, "seed-7")
    assert again.to_text() == GAME.new({}, "seed-7").to_text()
    assert again.deal_logs() == GAME.new({}, "seed-7").deal_logs()


def test_new_round_of_three_each_when_hands_are_empty_non_dealer_first() -> None:
    state = position(dealer="0", turn="1", hands="2C / 4H", table="KD", stock="AS 2S 3S 5S 6S 7S")
    state, _ = state.apply(Play(card("4H")), seat=1)
    state, events = state.apply(Play(card("2C")), seat=0)
    assert "deal_round" in event_types(events)
    assert state.view(1)["hand"] == codes("AS 2S 3S")  # non-dealer gets the first three
    assert state.view(0)["hand"] == codes("5S 6S 7S")
    assert sorted(state.view(None)["table"]) == sorted(codes("KD 4H 2C"))  # nothing added
    assert state.view(None)["stock"] == 0
    assert state.to_move == 1


def test_dealers_alternate_after_every_completed_deal() -> None:
    orders = (
        order_from("AC 2C 3C AD 2D 3D 4C 5C 6C 7C"),
        order_from("AH 2H 3H AS 2S 3S 4H 5H 6H 7H"),
        order_from("JC QC KC JD QD KD 4D 5D 6D 7D"),
    )
    state = GAME.new({"target": 100}, RecordedChance(0, tuple((o,) for o in orders)))
    state = play_until_deal(state, 1)
    assert state.result is None
    logs = state.deal_logs()
    assert [d["dealer"] for d in logs] == [0, 1]
    assert logs[0]["score"] is not None
    assert len(logs[0]["actions"]) == 36
    assert state.view(None)["dealer"] == 1
    assert state.to_move == 0
    assert state.view(0)["hand"] == codes("AH 2H 3H")
    state = play_until_deal(state, 2)
    assert [d["dealer"] for d in state.deal_logs()] == [0, 1, 0]
    assert state.to_move == 1


# ------------------------------------------------------------------- scopa
def test_scopa_on_sweeping_the_table() -> None:
    state = position(dealer="0", turn="1", hands="AS 2S / 7D 5C", table="3C 4H")
    after, events = state.apply(Play(card("7D"), cards("3C 4H")), seat=1)
    assert {"type": "scopa", "seat": 1} in events
    view = after.view(None)
    assert view["scopas"] == [0, 1]
    assert view["table"] == []
    assert sorted(view["captured"][1]) == sorted(codes("7D 3C 4H"))


def test_scopa_counts_on_the_last_play_of_a_round_while_stock_remains() -> None:
    state = position(dealer="0", turn="0", hands="7D / -", table="3C 4H", stock="AS 2S 3S 5S 6S 7S")
    after, events = state.apply(Play(card("7D"), cards("3C 4H")), seat=0)
    assert {"type": "scopa", "seat": 0} in events
    assert after.view(None)["scopas"] == [1, 0]


def test_no_scopa_on_the_last_play_of_the_deal() -> None:
    state = position(dealer="0", turn="0", hands="7D / -", table="3C 4H", stock="-")
    after, events = state.apply(Play(card("7D"), cards("3C 4H")), seat=0)
    assert "scopa" not in event_types(events)
    score = after.deal_logs()[0]["score"]
    assert score["detail"]["scopas"] == [0, 0]
    # cards 3-0, coins 1-0, settebello; no primiera for anyone; no scopa.
    assert score["points"] == [3, 0]


def test_table_leftovers_go_to_the_last_capturer_without_scopa() -> None:
    state = position(dealer="1", turn="1", hands="- / 2S", table="KC QH", piles="AD / -", last_capture="0")
    after, events = state.apply(Play(card("2S")), seat=1)
    leftover = next(e for e in events if e["type"] == "leftover")
    assert leftover["seat"] == 0
    assert sorted(leftover["cards"]) == sorted(codes("KC QH 2S"))
    assert "scopa" not in event_types(events)
    detail = after.deal_logs()[0]["score"]["detail"]
    assert detail["cards"] == [4, 0]
    assert detail["scopas"] == [0, 0]


def test_last_plays_capture_makes_its_player_the_last_capturer() -> None:
    state = position(dealer="1", turn="1", hands="- / 2S", table="2C KC", piles="AD / -", last_capture="0")
    after, events = state.apply(Play(card("2S"), cards("2C")), seat=1)
    leftover = next(e for e in events if e["type"] == "leftover")
    assert leftover["seat"] == 1
    assert leftover["cards"] == ["KC"]
    detail = after.deal_logs()[0]["score"]["detail"]
    assert detail["cards"] == [1, 3]
    assert detail["scopas"] == [0, 0]


def test_table_leftovers_go_to_nobody_when_nobody_captured() -> None:
    state = position(dealer="1", turn="1", hands="- / 2S", table="KC QH", last_capture="-")
    after, events = state.apply(Play(card("2S")), seat=1)
    leftover = next(e for e in events if e["type"] == "leftover")
    assert leftover["seat"] is None
    score = after.deal_logs()[0]["score"]
    assert score["detail"]["cards"] == [0, 0]
    assert score["points"] == [0, 0]


# ------------------------------------------------------------ deal scoring
def test_award_most_cards() -> None:
    score = score_deal((list(cards("AC 2C 3C")), list(cards("4C 5C"))), [0, 0])
    assert score["detail"]["cards"] == [3, 2]
    assert score["detail"]["awards"]["cards"] == 0
    score = score_deal((list(cards("AC")), list(cards("4C 5C"))), [0, 0])
    assert score["detail"]["awards"]["cards"] == 1


def test_award_most_coins() -> None:
    score = score_deal((list(cards("AD 2D 3C")), list(cards("4D 5C 6C 7C"))), [0, 0])
    assert score["detail"]["coins"] == [2, 1]
    assert score["detail"]["awards"]["coins"] == 0
    assert score["detail"]["awards"]["cards"] == 1
    assert score["points"] == [1, 1]


@pytest.mark.parametrize(
    ("piles", "winner", "points"),
    [
        (("7D", "2C"), 0, [2, 0]),  # settebello + coins (cards 1-1: nobody)
        (("2C", "7D 3C"), 1, [0, 3]),  # settebello + coins + cards
        (("2C 3C", "6D 4C"), None, [0, 1]),  # nobody took the 7D: coins only
    ],
)
def test_award_settebello(piles: tuple[str, str], winner: int | None, points: list[int]) -> None:
    score = score_deal((list(cards(piles[0])), list(cards(piles[1]))), [0, 0])
    assert score["detail"]["awards"]["settebello"] == winner
    assert score["points"] == points


@pytest.mark.parametrize(
    ("rank", "value"),
    [
        ("7", 21),
        ("6", 18),
        ("A", 16),
        ("5", 15),
        ("4", 14),
        ("3", 13),
        ("2", 12),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
    ],
)
def test_primiera_card_values(rank: str, value: int) -> None:
    assert primiera(list(cards(f"{rank}C {rank}D {rank}H {rank}S"))) == 4 * value


def test_primiera_sums_the_best_card_of_each_suit() -> None:
    assert primiera(list(cards("2D 7D AC 6C 3H 5S KS"))) == 21 + 18 + 13 + 15


def test_primiera_needs_every_suit() -> None:
    assert primiera(list(cards("7D 7C 7H 6D 6C 6H"))) is None
    assert primiera([]) is None


def test_primiera_award_higher_sum_wins() -> None:
    score = score_deal((list(cards("7C 6D AH 5S")), list(cards("2C 2D 2H 2S"))), [0, 0])
    assert score["detail"]["primiera"] == [70, 48]
    assert score["detail"]["awards"]["primiera"] == 0


@pytest.mark.parametrize(("missing_seat", "winner"), [(0, 1), (1, 0)])
def test_primiera_with_a_missing_suit_goes_to_the_player_who_has_one(missing_seat: int, winner: int) -> None:
    no_spade = list(cards("7C 7D 7H 6D 6C"))
    all_suits = list(cards("2C 2D 2H 2S"))
    piles = (no_spade, all_suits) if missing_seat == 0 else (all_suits, no_spade)
    score = score_deal(piles, [0, 0])
    assert score["detail"]["primiera"][missing_seat] is None
    assert score["detail"]["primiera"][winner] == 48
    assert score["detail"]["awards"]["primiera"] == winner


def test_primiera_nobody_when_neither_has_every_suit() -> None:
    score = score_deal((list(cards("7C 7H")), list(cards("2C 2D"))), [0, 0])
    assert score["detail"]["primiera"] == [None, None]
    assert score["detail"]["awards"]["primiera"] is None


def test_equal_majorities_give_nobody_the_point() -> None:
    score = score_deal((list(cards("7C 6D AH 5S")), list(cards("6C 7D 5H AS"))), [0, 0])
    detail = score["detail"]
    assert detail["cards"] == [4, 4]
    assert detail["coins"] == [1, 1]
    assert detail["primiera"] == [70, 70]
    assert detail["awards"] == {"cards": None, "coins": None, "settebello": 1, "primiera": None}
    assert score["points"] == [0, 1]


def test_deal_points_add_each_scopa() -> None:
    score = score_deal((list(cards("AC 2C 3C")), list(cards("4C 5C"))), [2, 3])
    assert score["detail"]["scopas"] == [2, 3]
    assert score["points"] == [3, 3]  # 2 scopas + cards; 3 scopas


# ------------------------------------------------------------------- match
@pytest.mark.parametrize(("totals", "after"), [("9 9", [11, 11]), ("10 10", [12, 12])])
def test_equal_totals_of_target_or_more_play_another_deal(totals: str, after: list[int]) -> None:
    state = last_play(*TWO_ALL, totals=totals)
    state, events = state.apply(Play(card("2S")), seat=1)
    assert state.deal_logs()[0]["score"]["points"] == [2, 2]
    assert state.result is None
    assert "game_over" not in event_types(events)
    view = state.view(None)
    assert view["totals"] == after
    assert view["deal"] == 1
    assert view["dealer"] == 0  # the dealer alternates
    assert state.to_move == 1
    assert state.legal_actions(1)


def test_player_wins_with_target_and_strictly_higher_total() -> None:
    state = last_play(*FOUR_ONE, totals="10 10", scopas="0 1")
    state, events = state.apply(Play(card("2S")), seat=1)
    assert state.deal_logs()[0]["score"]["points"] == [4, 1]
    assert state.result is not None
    assert state.result.winner == 0
    assert state.result.scores == (14, 11)
    assert state.result.reason == "target"
    assert state.to_move is None
    assert "game_over" in event_types(events)


def test_higher_total_wins_for_seat_one_too() -> None:
    state = last_play(*TWO_ALL, totals="9 10")
    state, _ = state.apply(Play(card("2S")), seat=1)
    assert state.result is not None
    assert state.result.winner == 1
    assert state.result.scores == (11, 12)


def test_no_winner_below_the_target() -> None:
    state = last_play(*FOUR_ONE, totals="0 0", scopas="0 1")
    state, _ = state.apply(Play(card("2S")), seat=1)
    assert state.result is None
    assert state.view(None)["totals"] == [4, 1]
    assert state.to_move is not None


@pytest.mark.parametrize(("target", "winner"), [("4", 0), ("5", None)])
def test_target_option_sets_the_winning_total(target: str, winner: int | None) -> None:
    state = last_play(*FOUR_ONE, totals="0 0", scopas="0 1", target=target)
    state, _ = state.apply(Play(card("2S")), seat=1)
    if winner is None:
        assert state.result is None
    else:
        assert state.result is not None
        assert state.result.winner == winner
        assert state.result.scores == (4, 1)


def test_reaching_target_mid_deal_ends_nothing() -> None:
    state = position(totals="10 0", dealer="1", turn="0", hands="7D 2C / KS QS", table="3C 4H", stock="-")
    state, events = state.apply(Play(card("7D"), cards("3C 4H")), seat=0)
    assert {"type": "scopa", "seat": 0} in events
    assert state.result is None
    assert state.view(None)["totals"] == [10, 0]  # deal points count only at the deal's end
    assert state.to_move == 1
    state, _ = state.apply(Play(card("KS")), seat=1)
    state, _ = state.apply(Play(card("2C")), seat=0)
    assert state.result is None
    state, _ = state.apply(Play(card("QS")), seat=1)
    # scopa + cards + coins + settebello + primiera, leftovers KS 2C QS to seat 0.
    assert state.result is not None
    assert state.result.winner == 0
    assert state.result.scores == (15, 0)


def test_default_target_is_eleven() -> None:
    state = GAME.new(None, "x")
    assert state.options == {"target": 11}
    assert state.view(None)["target"] == 11
    assert GAME.new({"target": 21}, "x").view(None)["target"] == 21


@pytest.mark.parametrize(
    "options",
    [
        {"target": 0},
        {"target": -11},
        {"target": 101},
        {"target": "11"},
        {"target": 11.5},
        {"target": True},
        {"target": None},
        {"goal": 11},
    ],
)
def test_target_option_is_validated(options: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        GAME.new(options, "x")


# ------------------------------------------------ refusals and visibility
KNOWN = order_from("AC 2C 3C AD 2D 3D 4C 5C 6C 7C")


def known_state() -> Any:
    """Dealer 0: seat 1 holds AC 2C 3C, seat 0 holds AD 2D 3D; table 4C 5C 6C 7C."""
    return GAME.new({}, RecordedChance(0, ((KNOWN,),)))


def test_out_of_turn_action_is_refused() -> None:
    state = known_state()
    assert refusal(state, Play(card("AD")), 0) == "not_your_turn"


@pytest.mark.parametrize("code", ["AD", "4C", "KS"])  # opponent's hand, table, stock
def test_card_not_in_hand_is_refused(code: str) -> None:
    state = known_state()
    assert refusal(state, Play(card(code)), 1) == "card_not_in_hand"


def test_actions_after_game_over_are_refused() -> None:
    state = last_play(*FOUR_ONE, totals="10 10", scopas="0 1")
    state, _ = state.apply(Play(card("2S")), seat=1)
    assert state.result is not None
    assert state.legal_actions(0) == []
    assert state.legal_actions(1) == []
    for seat in (0, 1, None):
        assert refusal(state, Play(card("AC")), seat) == "game_over"


def test_refused_action_leaves_the_state_unchanged() -> None:
    state = position(dealer="0", turn="1", hands="AS / 7D", table="7S 3C 4H")
    before = (state.to_text(), state.view(0), state.view(1), state.view(None), state.deal_logs())
    attempts = [
        (Play(card("7D")), 1),
        (Play(card("7D"), cards("3C 4H")), 1),
        (Play(card("AS")), 1),
        (Play(card("AS")), 0),
    ]
    for action, seat in attempts:
        with pytest.raises(IllegalAction):
            state.apply(action, seat=seat)
        after = (state.to_text(), state.view(0), state.view(1), state.view(None), state.deal_logs())
        assert after == before


@pytest.mark.parametrize("seat", [0, 1])
def test_view_never_shows_the_other_hand(seat: int) -> None:
    state = known_state()
    own = [c.code for c in (KNOWN[3:6] if seat == 0 else KNOWN[0:3])]
    other = {c.code for c in (KNOWN[0:3] if seat == 0 else KNOWN[3:6])}
    stock = {c.code for c in KNOWN[10:]}
    view = state.view(seat)
    assert view["hand"] == own
    assert view["hand_counts"] == [3, 3]
    assert not strings_in(view) & (other | stock)


def test_spectator_view_shows_no_hand() -> None:
    state = known_state()
    view = state.view(None)
    assert view["hand"] is None
    assert view["hand_counts"] == [3, 3]
    hidden = {c.code for c in KNOWN[0:6]} | {c.code for c in KNOWN[10:]}
    assert not strings_in(view) & hidden


def test_action_text_and_data_forms_round_trip() -> None:
    state = position(dealer="0", turn="1", hands="KS 2C / 7D 5H", table="AS 2S 3C 4H 5C 6H")
    actions = [*state.legal_actions(1), Play(card("KD")), Play(card("7D"), cards("4H 3C"))]
    assert any(len(a.capture) >= 2 for a in actions)
    for action in actions:
        assert GAME.parse_action(str(action)) == action
        assert GAME.action_from_data(action.to_data()) == action
        assert GAME.action_from_data({"seat": 1, **action.to_data()}) == action
    assert GAME.parse_action("7D:3C+4H") == Play(card("7D"), cards("3C 4H"))
    assert GAME.action_from_data({"play": "7D", "capture": ["4H", "3C"]}) == Play(card("7D"), cards("3C 4H"))
    assert GAME.action_from_data({"play": "KD"}) == Play(card("KD"))


@pytest.mark.parametrize("text", ["", "7D 3C", "play 7D", "7D 4H:3C"])
def test_bad_action_text_raises_action_format_error(text: str) -> None:
    with pytest.raises(ActionFormatError):
        GAME.parse_action(text)


@pytest.mark.parametrize("text", ["ZZ", "7X", "7D:3C+XX", "1D", "play"])
def test_bad_card_in_action_text_raises_card_error(text: str) -> None:
    with pytest.raises(CardError):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"capture": []},
        {"play": 7},
        {"play": "7D", "capture": "3C"},
        {"play": "7D", "capture": [3]},
        {"play": "7D", "take": []},
        "7D",
        ["7D"],
    ],
)
def test_bad_action_data_raises_action_format_error(data: Any) -> None:
    with pytest.raises(ActionFormatError):
        GAME.action_from_data(data)


@pytest.mark.parametrize("data", [{"play": "XX"}, {"play": "7D", "capture": ["3C", "ZZ"]}])
def test_bad_card_in_action_data_raises_card_error(data: Any) -> None:
    with pytest.raises(CardError):
        GAME.action_from_data(data)
