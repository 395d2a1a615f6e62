"""Dou Dizhu's expert bot: a wider candidate list searched by successive halving, within a ply budget."""

from __future__ import annotations

import random
from collections.abc import Iterator

from cardavia.bots import doudizhu_bots as db
from cardavia.bots import doudizhu_expert as dx
from cardavia.bots.doudizhu_heuristics import DdzSeen
from cardavia.bots.registry import levels_for, make_bot
from cardavia.games.doudizhu import GAME, DouDizhuState

BUDGET = 150
"""A small budget keeps the searches quick; the search's shape does not depend on its size."""


def basic_positions(seed: str, deals: int) -> Iterator[DouDizhuState]:
    """Every position of ``deals`` deals that three `basic` bots play."""
    bot = db.DouDizhuBasicBot()
    for number in range(deals):
        state = GAME.new(None, f"{seed}/{number}")
        while (seat := state.to_move) is not None:
            yield state
            state = state.apply(bot.choose(state.view(seat), state.legal_actions(seat)), seat=seat)[0]


def choices(positions: list[DouDizhuState]) -> list[tuple[DouDizhuState, int, object]]:
    return [
        (
            s,
            s.turn,
            dx.DouDizhuExpertBot("t", iterations=BUDGET).choose(s.view(s.turn), s.legal_actions(s.turn)),
        )
        for s in positions
    ]


def test_the_expert_is_listed_and_made_by_the_registry() -> None:
    assert "expert" in levels_for("doudizhu")
    bot = make_bot("doudizhu", "expert", "seed", iterations=BUDGET)
    assert isinstance(bot, dx.DouDizhuExpertBot)
    assert bot.level == bot.id == "expert"


def test_the_expert_plays_legal_actions_the_same_way_for_a_seed() -> None:
    positions = [s for i, s in enumerate(basic_positions("legal", 3)) if i % 4 == 0]
    first, again = choices(positions), choices(positions)
    assert [a for _, _, a in first] == [a for _, _, a in again]
    for state, seat, action in first:
        assert action in state.legal_actions(seat)
    assert any(s.landlord is None for s, _, _ in first)
    assert any(s.landlord is not None for s, _, _ in first)


def test_the_candidates_include_strongs_and_more() -> None:
    """Every move the strong bot would search is searched, and on leads and open follows there are more."""
    wider = 0
    for i, state in enumerate(basic_positions("wide", 4)):
        if state.landlord is None or i % 2:
            continue
        view, legal = state.view(state.turn), state.legal_actions(state.turn)
        strong, expert = db.candidates(view, legal), dx.candidates(view, legal)
        assert set(strong) <= set(expert) <= set(legal)
        assert len(expert) == len(set(expert))
        wider += len(expert) > len(strong)
    assert wider > 10


def test_the_expert_sometimes_plays_a_move_strong_would_not_consider() -> None:
    """The extra candidates matter: some of the expert's choices are outside strong's list."""
    outside = 0
    for state in [s for i, s in enumerate(basic_positions("outside", 6)) if i % 2 == 0]:
        if state.landlord is None:
            continue
        seat = state.turn
        view, legal = state.view(seat), state.legal_actions(seat)
        strong = db.candidates(view, legal)
        if len(strong) == 1:
            continue
        action = dx.DouDizhuExpertBot("o", iterations=BUDGET).choose(view, legal)
        outside += action not in strong
    assert outside > 0


def test_halving_keeps_the_candidates_that_score_best_and_plays_survivors_on_more_worlds() -> None:
    state = next(
        s
        for s in basic_positions("halve", 2)
        if s.landlord is not None
        and s.table is None
        and len(dx.candidates(s.view(s.turn), s.legal_actions(s.turn))) >= 6
    )
    seat = state.turn
    view, legal = state.view(seat), state.legal_actions(seat)
    options = dx.candidates(view, legal)
    for iterations, seconds in ((400, None), (None, 0.05)):  # a budget in plies, or in time
        action, trials = dx.halving_search(
            view, options, random.Random(1), iterations=iterations, seconds=seconds
        )
        assert action in options
        assert trials[options.index(action)] == max(trials)  # the winner survived every round
        assert min(trials) < max(trials)  # the others were dropped on the way
    assert DdzSeen.from_view(view).table is None
