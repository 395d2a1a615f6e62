"""Schnapsen's basic policy: reading the state as the view, and the moves a casual player makes."""

from __future__ import annotations

from cardavia.bots import schnapsen_heuristics as sh
from cardavia.bots.schnapsen_bots import SchnapsenBasicBot
from cardavia.games.schnapsen import GAME
from tests.bots.positions import random_positions


def test_basic_reads_the_state_as_it_reads_the_view() -> None:
    for state in random_positions("schnapsen", "seen", 30, every=2):
        for seat in (0, 1):
            assert sh.SchnapsenSeen.from_state(state, seat) == sh.SchnapsenSeen.from_view(state.view(seat))


def choice(text: str) -> str:
    state = GAME.position(text)
    return str(SchnapsenBasicBot().choose(state.view(state.turn), state.legal_actions(state.turn)))


OPEN = "dealer: 1\nturn: 0\ntrump: H\ntalon: {talon}\n"


def test_basic_exchanges_the_trump_jack_first() -> None:
    text = OPEN.format(talon="AC TC KC QC JC AD TD KD QD AH") + "hands: JH KS QS JS AS / TH KH QH JD TS"
    assert choice(text) == "exchange JH"


def test_basic_announces_the_forty_with_the_queen() -> None:
    text = OPEN.format(talon="AC TC KC QC JC AD TD KD QD AH") + "hands: KH QH KS QS JD / TH JH JS AS TS"
    assert choice(text) == "QH+m"


def test_basic_takes_a_ten_with_the_ace_of_its_suit() -> None:
    text = (
        "dealer: 0\nturn: 1\ntrump: H\ntalon: AC TC KC QC JC AD TD KD QD AH\n"
        "hands: KH QH KS QS / TH JH JS AS JD\ntrick: TS"
    )
    assert choice(text) == "AS"


def test_basic_throws_a_cheap_card_on_a_worthless_lead() -> None:
    text = (
        "dealer: 0\nturn: 1\ntrump: H\ntalon: AC TC KC QC JC AD TD KD QD AH\n"
        "hands: KH QH KS QS / TH JH AS TS JD\ntrick: JS"
    )
    assert choice(text) in ("JD", "AS", "TS")  # jack of diamonds, or win with the suit for free
    text = (
        "dealer: 0\nturn: 1\ntrump: H\ntalon: AC TC KC QC AD KD QD AS TS AH\n"
        "hands: KH QH KS QS / TH JH JC TD JD\ntrick: JS"
    )
    assert choice(text) in ("JC", "JD")
