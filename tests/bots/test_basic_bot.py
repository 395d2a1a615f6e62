"""The basic policies: recognisable choices, and the fast path agrees with the view."""

from __future__ import annotations

import pytest

from cardavia.bots.basic_bot import POLICIES, BasicBot
from cardavia.games import briscola, scopa
from tests.bots.positions import BOT_GAMES, random_positions


@pytest.mark.parametrize("game", BOT_GAMES)
def test_reading_the_state_equals_reading_the_view(game: str) -> None:
    policy = POLICIES[game]
    for state in random_positions(game, "seen", 40, every=2):
        for seat in (0, 1):
            assert policy.from_state(state, seat) == policy.from_view(state.view(seat))
        seat = state.to_move
        legal = state.legal_actions(seat)
        assert policy.on_state(state, seat, legal) == policy.on_view(state.view(seat), legal)


def _scopa_choice(text: str) -> str:
    state = scopa.GAME.position(text)
    seat = state.to_move
    assert seat is not None
    return str(BasicBot().choose(state.view(seat), state.legal_actions(seat)))


def test_scopa_takes_the_settebello() -> None:
    choice = _scopa_choice(
        "dealer: 1\nturn: 0\nhands: 7S 3C 4S / 2C 2D 2H\ntable: 7D 3D 4D KC\nstock: -\npiles: - / -"
    )
    assert choice == "7S:7D"


def test_scopa_takes_a_sweep() -> None:
    assert _scopa_choice("dealer: 1\nturn: 0\nhands: 5S KS / 2C 2D\ntable: 2H 3H\n") == "5S:2H+3H"


def test_scopa_does_not_leave_a_sum_the_opponent_can_sweep() -> None:
    # Dropping 4S would leave 2C + 4S = 6 (a sweep for any six); K + 2 make 12: no sweep.
    assert _scopa_choice("dealer: 1\nturn: 0\nhands: 4S KD / AC AD\ntable: 2C\n") == "KD"


def _briscola_choice(hand: str, trick: str, trump: str = "2H") -> str:
    text = f"""
        dealer: 0
        turn: 1
        trump: {trump}
        hands: {" ".join(["KD", "QD", "JD"][: 3 - len(trick.split())])} / {hand}
        stock: 5C 6C 7C 5D {trump}
        trick: {trick}
    """
    state = briscola.GAME.position(text)
    return str(BasicBot().choose(state.view(1), state.legal_actions(1)))


def test_briscola_wins_cheaply_with_the_suit_led() -> None:
    assert _briscola_choice("5S 3H AC", "4S") == "5S"


def test_briscola_trumps_an_ace() -> None:
    assert _briscola_choice("4H KC 4D", "AS") == "4H"


def test_briscola_keeps_its_trumps_for_a_worthless_lead() -> None:
    assert _briscola_choice("4H 7H 2C", "4S") == "2C"


def test_briscola_leads_a_worthless_card() -> None:
    text = """
        dealer: 0
        turn: 1
        trump: 2H
        hands: KD QD JD / AS 4H 2C
        stock: 5C 6C 7C 5D 2H
    """
    state = briscola.GAME.position(text)
    assert str(BasicBot().choose(state.view(1), state.legal_actions(1))) == "2C"


def test_the_basic_bot_needs_a_policy_for_the_game() -> None:
    state = next(random_positions("briscola", "x", 1))
    seat = state.to_move
    view = {**state.view(seat), "game": "no-such-game"}
    with pytest.raises(ValueError, match="no basic policy"):
        BasicBot().choose(view, state.legal_actions(seat))
