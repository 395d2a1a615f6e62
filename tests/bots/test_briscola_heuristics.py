"""Briscola heuristics: the opponent model tells a basic opponent from a random one."""

from __future__ import annotations

import random
import statistics

import pytest

from cardavia.bots.basic_bot import BasicBot
from cardavia.bots.briscola_heuristics import briscola_random_share, posterior
from cardavia.bots.random_bot import RandomBot
from cardavia.games import briscola


def test_posterior_moves_with_the_evidence() -> None:
    assert posterior(0.3, []) == pytest.approx(0.3)
    assert posterior(0.3, [(1 / 3, 0.9)] * 5) < 0.01
    assert posterior(0.3, [(1 / 3, 0.05)] * 5) > 0.99


def _late_shares(opponent: BasicBot | RandomBot, games: int) -> list[float]:
    shares = []
    for number in range(games):
        state = briscola.GAME.new(None, f"model/{number}")
        me = BasicBot()
        while (seat := state.to_move) is not None:
            view = state.view(seat)
            bot = me if seat == 0 else opponent
            state = state.apply(bot.choose(view, state.legal_actions(seat)), seat=seat)[0]
            if seat == 0 and len(view["history"]) >= 24:
                shares.append(briscola_random_share(view, random.Random(number)))
                break
    return shares


def test_a_random_opponent_looks_random_and_a_basic_one_does_not() -> None:
    basic = _late_shares(BasicBot(), 30)
    random_play = _late_shares(RandomBot("r"), 30)
    assert statistics.mean(basic) < 0.3 < statistics.mean(random_play)
    assert all(0.0 <= s <= 1.0 for s in basic + random_play)


def test_no_history_gives_the_prior() -> None:
    view = briscola.GAME.new(None, "start").view(0)
    assert briscola_random_share({**view, "history": []}, random.Random(0)) == pytest.approx(0.3)
