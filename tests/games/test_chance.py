from __future__ import annotations

import pytest

from cardavia.games.cards import DECK_40, parse_cards
from cardavia.games.chance import RecordedChance, SeededChance
from cardavia.games.errors import ReplayMismatch


def test_seeded_shuffles_are_reproducible_and_independent_per_deal() -> None:
    chance = SeededChance("abc")
    first = chance.shuffle(DECK_40, 0, 0)
    assert first == SeededChance("abc").shuffle(DECK_40, 0, 0)
    assert sorted(first) == sorted(DECK_40)
    assert first != chance.shuffle(DECK_40, 1, 0)
    assert first != chance.shuffle(DECK_40, 0, 1)
    assert first != SeededChance("abd").shuffle(DECK_40, 0, 0)


def test_seeded_first_dealer_covers_every_seat() -> None:
    dealers = {SeededChance(str(i)).first_dealer(3) for i in range(60)}
    assert dealers == {0, 1, 2}


def test_recorded_chance_plays_back_and_refuses_what_it_lacks() -> None:
    order = tuple(reversed(DECK_40))
    chance = RecordedChance(1, ((order,),))
    assert chance.first_dealer(2) == 1
    assert chance.shuffle(DECK_40, 0, 0) == order
    with pytest.raises(ReplayMismatch, match="redeal"):
        chance.shuffle(DECK_40, 0, 1)
    with pytest.raises(ReplayMismatch, match="deal 2"):
        chance.shuffle(DECK_40, 1, 0)
    short = RecordedChance(0, ((parse_cards("AC 2C"),),))
    with pytest.raises(ReplayMismatch, match="not a full 40-card deck"):
        short.shuffle(DECK_40, 0, 0)
