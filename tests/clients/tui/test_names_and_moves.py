"""Card names per language and pack, and the arrangement of legal moves for people to pick."""

from __future__ import annotations

import pytest

from cardavia.clients.cli.tui.moves import MoveMenu
from cardavia.clients.cli.tui.names import CardNames
from cardavia.games.registry import get_game
from tests.clients.tui.positions import schnapsen, scopa


@pytest.mark.parametrize(
    ("lang", "seven_of_coins", "king_of_swords"),
    [
        ("en", "Coins · 7", "Swords · King"),
        ("it", "Denari · 7", "Spade · Re"),
        ("sv", "mynt · 7", "svärd · kung"),
        ("nb", "Mynt · 7", "Sverd · Konge"),
        ("es", "Oros · 7", "Espadas · Rey"),
        ("pl", "Monety · 7", "Miecze · Król"),
    ],
)
def test_card_names_follow_the_language_and_the_pack(
    lang: str, seven_of_coins: str, king_of_swords: str
) -> None:
    names = CardNames("napoletane", lang)
    assert names.card("7D") == seven_of_coins
    assert names.card("KS") == king_of_swords
    assert names.cards(["7D", "KS"], " + ") == f"{seven_of_coins} + {king_of_swords}"


def test_names_fall_back_to_english_the_game_pack_and_the_code() -> None:
    assert CardNames("napoletane", "xx").card("7D") == "Coins · 7"
    french = CardNames("no-such-deck", "it", game="doudizhu")  # an unknown deck: the game's own
    assert french.deck == "french54"
    assert french.card("BJ") == "Jolly nero"
    assert french.card("QQ") == "QQ"  # a code no pack has stays a code
    assert CardNames(None, "sv").card("7D") == "7D"
    assert CardNames("schnapsen", "pl").suit("H") == "Kier"


def test_scopa_groups_the_captures_of_each_card_into_one_choice() -> None:
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    legal = [a.to_data() for a in state.legal_actions(0)]
    menu = MoveMenu("scopa", legal, state.view(0), CardNames("napoletane", "en"))
    sevens = menu.options("7D")
    assert [o.action for o in sevens] == [a for a in legal if a["play"] == "7D"]
    assert len(sevens) == 4
    assert sevens[0].label == "take Batons · 3 + Batons · 4 with Coins · 7"
    assert [o.action for o in menu.options("3S")] == [{"play": "3S", "capture": ["3C"]}]
    assert menu.extras == []


def test_only_legal_cards_are_playable() -> None:
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    legal = [a for a in (a.to_data() for a in state.legal_actions(0)) if a["play"] != "KC"]
    menu = MoveMenu("scopa", legal, state.view(0), CardNames("napoletane", "en"))
    assert not menu.playable("KC")
    assert menu.options("KC") == []
    assert menu.playable("7D")
    idle = MoveMenu("scopa", [], state.view(0), CardNames("napoletane", "en"))
    assert not idle.active
    assert not any(idle.playable(c) for c in ("7D", "3S", "KC"))


def test_schnapsen_offers_the_marriage_the_exchange_and_the_close() -> None:
    state = schnapsen(("KH QH JD AC TS", "AS QS KS AH KC"), "D", "AD")
    menu = MoveMenu(
        "schnapsen", [a.to_data() for a in state.legal_actions(0)], state.view(0), CardNames("schnapsen")
    )
    labels = [o.label for o in menu.options("QH")]
    assert labels == ["play Hearts · Queen", "lead Hearts · Queen and announce a marriage in hearts (20)"]
    assert [o.action for o in menu.options("QH")] == [
        {"play": "QH", "marriage": False},
        {"play": "QH", "marriage": True},
    ]
    exchange, close = menu.extra("x"), menu.extra("c")
    assert exchange is not None
    assert exchange.action == {"exchange": "JD"}
    assert exchange.label == "exchange Diamonds · Jack for Diamonds · Ace"
    assert close is not None
    assert close.action == {"close": True}
    assert len(menu.options("JD")) == 1
    # each lead that announces the marriage has a key of its own too (the digits are the cards')
    king, queen = menu.extra("m"), menu.extra("M")
    assert king is not None
    assert king.action == {"play": "KH", "marriage": True}
    assert king.label == "lead Hearts · King and announce a marriage in hearts (20)"
    assert queen is not None
    assert queen.action == {"play": "QH", "marriage": True}


def test_dou_dizhu_bids_have_keys_and_no_card_is_playable() -> None:
    state = get_game("doudizhu").new({}, "x1")
    seat = state.to_move
    assert seat is not None
    menu = MoveMenu(
        "doudizhu", [a.to_data() for a in state.legal_actions(seat)], state.view(seat), CardNames("french54")
    )
    assert not menu.multi
    assert {e.key: e.action for e in menu.extras} == {
        "1": {"bid": 1},
        "2": {"bid": 2},
        "3": {"bid": 3},
        "0": {"bid": 0},
    }
    assert not any(menu.playable(c) for c in state.view(seat)["hand"])


def _ddz_following_a_pair() -> tuple[list[dict[str, object]], dict[str, object]]:
    view = {
        "game": "doudizhu",
        "phase": "play",
        "hand": ["3C", "3D", "5H", "5S", "9C", "9D", "9H", "KS"],
        "table": {"seat": 1, "combo": "pair", "cards": ["4C", "4D"]},
    }
    legal: list[dict[str, object]] = [
        {"combo": "pair", "cards": ["5H", "5S"]},
        {"combo": "pair", "cards": ["9C", "9D"]},
        {"pass": True},
    ]
    return legal, view


def test_dou_dizhu_selected_cards_are_read_against_the_legal_combinations() -> None:
    legal, view = _ddz_following_a_pair()
    menu = MoveMenu("doudizhu", legal, view, CardNames("french54"))
    assert menu.multi
    assert menu.extra("p") is not None
    # suits never matter: the 9s the player picked are played, not the canonical ones
    readings = menu.readings(["9D", "9H"])
    assert [o.action for o in readings] == [{"combo": "pair", "cards": ["9D", "9H"]}]
    assert readings[0].label == "pair: Diamonds · 9, Hearts · 9"
    assert menu.readings(["9C"]) == []
    assert menu.why_not(["3C", "3D"]) == (
        "Clubs · 3, Diamonds · 3 (pair) cannot beat the pair (Clubs · 4, Diamonds · 4) on the table"
    )
    assert menu.why_not(["3C", "KS"]) == "Clubs · 3, Spades · King do not make a Dou Dizhu combination"
    assert menu.suggestions() == [["5H", "5S"], ["9C", "9D"]]
    assert menu.playable("9H")
    assert not menu.playable("KS")


def test_a_selection_that_reads_two_ways_offers_both_readings() -> None:
    view = {
        "game": "doudizhu",
        "phase": "play",
        "hand": ["3C", "3D", "3H", "4C", "4D", "4H", "5C", "6C"],
        "table": None,
    }
    legal: list[dict[str, object]] = [
        {"combo": "airplane1", "cards": ["3C", "3D", "3H", "4C", "4D", "4H", "5C", "6C"]},
        {"combo": "four22", "cards": ["3C", "3D", "3H", "4C", "4D", "4H", "5C", "6C"]},
        {"combo": "single", "cards": ["5C"]},
    ]
    menu = MoveMenu("doudizhu", legal, view, CardNames("french54"))
    chosen = ["3D", "3H", "3C", "4C", "4D", "4H", "5C", "6C"]
    readings = menu.readings(chosen)
    assert [o.action["combo"] for o in readings] == ["airplane1", "four22"]
    assert readings[0].label.startswith("airplane with singles: ")
    assert all(o.action["cards"] == chosen for o in readings)
