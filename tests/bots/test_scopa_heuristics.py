"""Scopa heuristics: the deal estimate is exact once every card is taken, sensible before."""

from __future__ import annotations

import random

from cardavia.bots.scopa_heuristics import majority_margin, primiera_margin
from cardavia.games.cards import DECK_40
from cardavia.games.scopa import score_deal


def test_with_every_card_taken_the_estimate_is_the_real_score() -> None:
    rng = random.Random(0)
    for _ in range(500):
        cards = list(DECK_40)
        rng.shuffle(cards)
        cut = rng.randrange(41)
        piles = (cards[:cut], cards[cut:])
        detail = score_deal(piles, [0, 0])["detail"]
        real = {
            award: 0 if winner is None else (1 if winner == 0 else -1)
            for award, winner in detail["awards"].items()
        }

        counts, coins = detail["cards"], detail["coins"]
        assert majority_margin(counts[0], counts[1], 0, 21) == real["cards"]
        assert majority_margin(coins[0], coins[1], 0, 6) == real["coins"]
        assert primiera_margin(piles[0], piles[1], 0) == real["primiera"]


def test_a_lead_is_worth_more_the_fewer_cards_are_left() -> None:
    assert 0 < majority_margin(8, 6, 26, 21) < majority_margin(14, 12, 14, 21) < 1
    assert majority_margin(21, 3, 16, 21) == 1
    assert majority_margin(2, 6, 2, 6) == -1
    assert majority_margin(5, 5, 10, 21) == 0
