from __future__ import annotations

import copy
import pickle

import pytest

from cardavia.games.cards import (
    ALL_CARDS,
    DECK_40,
    DECK_54,
    DECK_SCHNAPSEN,
    Card,
    format_cards,
    parse_cards,
)
from cardavia.games.errors import CardError, ClientError


def test_every_code_of_cards_md_parses_to_itself() -> None:
    for rank in "A23456789TJQK":
        for suit in "CDHS":
            card = Card.parse(rank + suit)
            assert (card.code, card.rank, card.suit, str(card)) == (rank + suit, rank, suit, rank + suit)
    assert Card.parse("BJ").is_joker
    assert Card.parse("RJ").is_joker
    assert not Card.parse("7D").is_joker
    assert len(ALL_CARDS) == 54


def test_cards_are_interned_and_immutable() -> None:
    seven = Card.parse("7D")
    assert Card.parse("7D") is seven
    assert pickle.loads(pickle.dumps(seven)) is seven
    assert copy.deepcopy(seven) is seven
    with pytest.raises(AttributeError):
        seven.code = "8D"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Card()


def test_lenient_spellings_for_people() -> None:
    assert Card.parse("7d") is Card.parse("7D")
    assert Card.parse("10h") is Card.parse("TH")
    assert Card.parse(" qs ") is Card.parse("QS")


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("1D", "rank '1'"),
        ("7X", "suit 'X'"),
        ("7", "a rank and a suit"),
        ("", "a rank and a suit"),
        ("7DD", "a rank and a suit"),
        ("XJ", "rank 'X'"),
    ],
)
def test_a_bad_code_gets_a_specific_error(code: str, says: str) -> None:
    with pytest.raises(CardError) as error:
        Card.parse(code)
    assert says in str(error.value)
    assert error.value.code == "bad_card"
    assert isinstance(error.value, ClientError)


def test_a_non_string_is_refused() -> None:
    with pytest.raises(CardError):
        Card.parse(7)  # type: ignore[arg-type]


def test_decks() -> None:
    assert len(DECK_40) == len(set(DECK_40)) == 40
    assert {c.rank for c in DECK_40} == set("A234567JQK")
    assert len(DECK_SCHNAPSEN) == len(set(DECK_SCHNAPSEN)) == 20
    assert {c.rank for c in DECK_SCHNAPSEN} == set("AKQJT")
    assert len(DECK_54) == len(set(DECK_54)) == 54
    assert Card.parse("BJ") in DECK_54
    assert Card.parse("RJ") in DECK_54


def test_card_lists_round_trip_through_text() -> None:
    cards = parse_cards("7D TS qh")
    assert [c.code for c in cards] == ["7D", "TS", "QH"]
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards("-") == ()
    assert format_cards([]) == "-"
    assert parse_cards(["AC", "2C"]) == (Card.parse("AC"), Card.parse("2C"))
    with pytest.raises(CardError):
        parse_cards("7D ZZ")


def test_cards_sort_in_deck_order() -> None:
    assert sorted(parse_cards("KS AC 2C")) == list(parse_cards("AC 2C KS"))
