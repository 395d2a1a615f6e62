"""Dou Dizhu's strong bot: consistent determinizations, what the bidding suggests, its search."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.bots import doudizhu_bots as db
from cardavia.bots.determinize import DETERMINIZERS, determinize, sample_places
from cardavia.bots.doudizhu_heuristics import (
    DdzSeen,
    RankDeal,
    basic_bid,
    choose_move,
    hand_cost,
    minus,
    move_of,
)
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import Card, parse_cards
from cardavia.games.doudizhu import GAME, Bid, DouDizhuState, Pass
from cardavia.games.doudizhu_moves import Move
from tests.bots.positions import position_after


def without_log(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("history", "last_deal")}


# --------------------------------------------------------- determinization
@settings(max_examples=150)
@given(seed=st.text(max_size=5), plies=st.integers(0, 60), salt=st.integers(0, 2**32))
def test_determinizations_respect_everything_the_seat_saw(seed: str, plies: int, salt: int) -> None:
    state = position_after("doudizhu", seed, plies)
    assert isinstance(state, DouDizhuState)
    for seat in range(3):
        view = state.view(seat)
        world = db.DETERMINIZER.determinize(view, random.Random(salt))
        assert isinstance(world, DouDizhuState)
        assert without_log(world.view(seat)) == without_log(view)
        assert world.secret_cards(seat) == state.secret_cards(seat)
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.kitty) == len(state.kitty)
        seen = set(parse_cards(view["hand"])) | {c for p in view["played"] for c in parse_cards(p)}
        assert not seen & world.secret_cards(seat)
        landlord = state.landlord
        if landlord is not None and landlord != seat:
            kitty_left = set(state.kitty) - set(state.played[landlord])
            assert kitty_left <= set(world.hands[landlord])
        assert world.legal_actions(seat) == state.legal_actions(seat)


def test_the_generic_determinizer_serves_doudizhu_once_registered() -> None:
    db.BOTS.register()
    assert DETERMINIZERS["doudizhu"] is db.DETERMINIZER
    state = position_after("doudizhu", "generic", 12)
    assert isinstance(determinize(state.view(state.to_move), random.Random(1)), DouDizhuState)


# ------------------------------------------------------------------ search
def engine_rollout(world: DouDizhuState, action: Any, seat: int) -> tuple[int, int, int]:
    """``rollout`` the slow way: every move through the engine, the score read from its log."""
    deal, thrown = len(world.log), len(world.log[-1].redeals)
    state, plies = world.apply_unchecked(action)[0], 1
    while state.to_move is not None and len(state.log) == deal:
        if len(state.log[-1].redeals) > thrown:
            return 0, 1, plies
        plies += 1
        if state.landlord is None:
            state = state.apply_unchecked(
                Bid(basic_bid(DdzSeen.from_state(state, state.turn, unseen=False)))
            )[0]
            continue
        seen = DdzSeen.from_state(state, state.turn)
        move = choose_move(seen, None if state.table is None else state.legal_moves())
        state = state.apply_unchecked(Pass())[0] if move is None else state.play_move(move)[0]
    score = state.log[deal - 1].score
    assert score is not None
    landlord, bid = score["detail"]["landlord"], score["detail"]["bid"]
    return score["points"][seat], bid * (2 if seat == landlord else 1), plies


@pytest.mark.slow
@pytest.mark.parametrize("deals", [1, 3])
def test_the_rank_level_rollout_plays_and_scores_as_the_engine_does(deals: int) -> None:
    checked = ended = 0
    for number in range(8 if deals == 1 else 3):
        rng = random.Random(number)
        state = GAME.new({"deals": deals}, f"rollout/{number}")
        while (mover := state.to_move) is not None:
            legal = state.legal_actions(mover)
            for action in [legal[0], legal[-1], legal[rng.randrange(len(legal))]]:
                for seat in range(3):
                    assert db.rollout(state, action, seat) == engine_rollout(state, action, seat)
                after = state.apply_unchecked(action)[0]
                ended += len(after.log) > len(state.log) or after.result is not None
                checked += 1
            state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
    assert checked > 500
    assert ended > 3


def test_a_play_rolled_out_on_rank_counts_matches_the_rollout_on_the_built_world() -> None:
    """The play-phase search skips building each world's engine state: ``rank_deal`` and
    ``play_move_out`` must give what ``doudizhu_build`` and ``rollout`` give, and leave the deal as it was."""
    checked = 0
    rng = random.Random(5)
    for state in basic_positions("rank-deal", 6):
        if state.landlord is None:
            continue
        seat = state.turn
        view = state.view(seat)
        placed = sample_places(db.doudizhu_hidden(view), rng)
        world = db.doudizhu_build(view, placed)
        deal = db.rank_deal(view, placed)
        before = copy.deepcopy(deal)
        legal = state.legal_actions(seat)
        for action in [legal[0], legal[-1], legal[rng.randrange(len(legal))]]:
            for judge in range(3):
                expected = db.rollout(world, action, judge)
                assert db.play_move_out(deal, move_of(action), judge) == expected
        assert deal == before
        checked += 1
    assert checked > 100


def test_a_seats_own_decisions_can_be_made_by_another_policy_in_a_playout() -> None:
    """``play_out``'s ``decide`` makes the judged seat's moves (a nested search's hook). Handed basic's
    own choice, read through ``RankDeal.seen``, it changes nothing but the plies it reports; handed a
    policy that never follows, it changes some deals' outcomes."""
    checked = changed = asks = 0
    for state in basic_positions("decide", 6):
        if state.landlord is None:
            continue
        deal = RankDeal.of_state(state)
        before = copy.deepcopy(deal)
        for seat in range(3):
            assert deal.seen(seat) == DdzSeen.from_state(state, seat, unseen=state.table is None)
            asked: list[int] = []

            def same(
                position: RankDeal, judge: int = seat, asked: list[int] = asked
            ) -> tuple[Move | None, int]:
                asked.append(position.turn)
                seen = position.seen(judge)
                return choose_move(seen, dm.generate(seen.counts, seen.table) if seen.table else None), 1

            def never_follows(position: RankDeal, judge: int = seat) -> tuple[Move | None, int]:
                seen = position.seen(judge)
                return (None if seen.table else choose_move(seen, None)), 0

            points, stake, plies = db.play_out(deal, seat, decide=same)
            assert (points, stake, plies - len(asked)) == db.play_out(deal, seat)
            assert set(asked) <= {seat}
            asks += len(asked)
            changed += db.play_out(deal, seat, decide=never_follows) != db.play_out(deal, seat)
        assert deal == before
        checked += 1
    assert checked > 100
    assert asks > 1000
    assert changed > 20


def test_a_rollout_scores_nothing_for_a_deal_thrown_in() -> None:
    state = GAME.new(None, "thrown")
    for _ in range(2):
        state = state.apply_unchecked(Bid(0))[0]
    assert all(db.rollout(state, Bid(0), seat) == (0, 1, 1) for seat in range(3))


# ------------------------------------------------------- what play reveals
def basic_positions(seed: str, deals: int) -> Iterator[DouDizhuState]:
    """Every position of ``deals`` deals that three `basic` bots play."""
    bot = db.DouDizhuBasicBot()
    for number in range(deals):
        state = GAME.new(None, f"{seed}/{number}")
        while (seat := state.to_move) is not None:
            yield state
            state = state.apply(bot.choose(state.view(seat), state.legal_actions(seat)), seat=seat)[0]


def true_places(state: DouDizhuState, seat: int) -> dict[str, list[Card]]:
    return {f"hand{s}": list(state.hands[s]) for s in range(3) if s != seat}


def test_the_real_hands_fit_the_bids_and_plays_of_basic_players_exactly() -> None:
    read = 0
    for state in basic_positions("fit", 12):
        seat = state.turn
        reading = db.Reading(state.view(seat))
        assert reading.misfit(true_places(state, seat), limit=1000) == 0
        read += len(reading.moves)
    assert read > 500


def test_past_moves_give_each_seat_its_hand_at_the_time() -> None:
    for state in basic_positions("past", 6):
        if state.landlord is None:
            continue
        moves = db.past_moves(state.view(state.turn))
        for past in moves:
            then = [
                tuple(h + p for h, p in zip(state.counts[s], past.later[s], strict=True)) for s in range(3)
            ]
            assert [sum(c) for c in then] == list(past.sizes)
        assert len(moves) == len([e for e in state.view(0)["history"] if "bid" not in e])


def test_a_world_that_contradicts_the_play_fits_worse() -> None:
    worse = 0
    for state in basic_positions("worse", 8):
        seat = state.turn
        reading = db.Reading(state.view(seat))
        if len(reading.moves) < 6:
            continue
        hidden = db.doudizhu_hidden(state.view(seat))
        rng = random.Random(len(reading.moves))
        misfits = [reading.misfit(sample_places(hidden, rng), limit=1000) for _ in range(5)]
        worse += min(misfits) > 0
    assert worse > 50


@pytest.mark.slow
def test_the_walk_keeps_worlds_consistent_and_fits_the_play_better_than_chance() -> None:
    walked = uniform = compared = 0
    for state in basic_positions("walk", 4):
        seat = state.turn
        view = state.view(seat)
        reading, hidden = db.Reading(view), db.doudizhu_hidden(view)
        rng = random.Random(seat)
        for _ in range(3):
            placed = reading.sample(hidden, rng)
            world = db.doudizhu_build(view, placed)
            assert without_log(world.view(seat)) == without_log(view)
            assert world.secret_cards(seat) == state.secret_cards(seat)
            if len(reading.moves) >= 6:
                walked += reading.misfit(placed, limit=1000)
                uniform += reading.misfit(sample_places(hidden, rng), limit=1000)
                compared += 1
    assert compared > 30
    assert walked < uniform / 2


# ------------------------------------------------------------------ bidding
def test_a_bid_is_judged_by_its_points_on_the_same_worlds_as_plain_rollouts() -> None:
    """The bid search shares one playout per landlord among the options: the means must be those of
    playing every option out on its own (``rollout``), world by world."""
    compared = 0
    for state in basic_positions("bids", 10):
        if state.landlord is not None:
            continue
        seat = state.turn
        view, legal = state.view(seat), state.legal_actions(seat)
        values = db.bid_search(view, legal, random.Random(seat), iterations=1, seconds=None)
        reading, hidden, rng = db.Reading(view), db.doudizhu_hidden(view), random.Random(seat)
        worlds = [db.doudizhu_build(view, reading.sample(hidden, rng)) for _ in range(2)]
        for action, value in zip(legal, values, strict=True):
            assert isinstance(action, Bid)
            expected = sum(db.rollout(world, action, seat)[0] for world in worlds) / 2
            assert value == pytest.approx(expected)
        compared += 1
    assert compared >= 10


def test_the_auction_ends_with_a_landlord_or_a_throw_in() -> None:
    state = GAME.new(None, "auction")
    after = db.auction(state, Bid(3))
    assert after is not None
    assert (after.landlord, after.bid) == (state.turn, 3)
    passed = state.apply_unchecked(Bid(0))[0].apply_unchecked(Bid(0))[0]
    assert db.auction(passed, Bid(0)) is None  # three opening passes throw the deal in


# ---------------------------------------------------------------- peasants
def test_a_peasant_takes_its_partners_trick_only_to_go_out_or_next_to() -> None:
    """Once the landlord has passed on the partner's move, only moves that empty the hand or leave it
    one turn from going out are searched beside the pass."""
    checked = 0
    for state in basic_positions("partner", 40):
        if state.landlord is None or state.table is None:
            continue
        seat = state.turn
        seen = DdzSeen.from_state(state, seat)
        if not db.partner_holds(seen):
            continue
        assert state.table_seat not in (seat, state.landlord)
        assert (state.table_seat + 1) % 3 == state.landlord
        legal = state.legal_actions(seat)
        picked = db.candidates(state.view(seat), legal)
        assert Pass() in picked
        for action in picked:
            move = move_of(action)
            if move is not None:
                left = minus(seen.counts, move)
                assert sum(left) == 0 or hand_cost(left) <= 1.0
        checked += 1
    assert checked > 20
