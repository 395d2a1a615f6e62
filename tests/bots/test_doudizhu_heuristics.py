"""Dou Dizhu's basic policy: hand plans, reading the state as the view, bids and plays."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.bots import doudizhu_heuristics as dh
from cardavia.bots.doudizhu_bots import DouDizhuBasicBot
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import DECK_54
from cardavia.games.doudizhu import GAME, Bid, Pass, Play
from tests.bots.positions import random_positions


# ------------------------------------------------------------------ plans
@settings(max_examples=300)
@given(hand=st.lists(st.sampled_from(DECK_54), min_size=1, max_size=20, unique=True))
def test_a_plan_splits_the_hand_into_real_combinations(hand: list[Any]) -> None:
    counts = dm.card_counts(hand)
    groups = dh.plan(counts)
    total = [0] * dm.NRANKS
    for move in groups:
        assert move in dm.classify(dm.move_counts(move))  # a combination, named as the engine names it
        for slot in move[2]:
            total[slot >> 2] += 1
    assert tuple(total) == counts
    assert dh.hand_cost(counts) <= len(groups)


def test_a_plan_keeps_chains_bombs_and_triples_with_wings() -> None:
    counts = dm.parse_ranks("34567 999 QQQQ 2 BR")
    names = sorted(m[0] for m in dh.plan(counts))
    assert names == ["bomb", "rocket", "single", "straight", "triple"]
    counts = dm.parse_ranks("3 555 666 9 KK")
    assert [m[0] for m in dh.plan(counts)] == ["airplane1", "pair"]


# ------------------------------------------------------------------ choices
def test_basic_reads_the_state_as_it_reads_the_view() -> None:
    for state in random_positions("doudizhu", "seen", 12, every=3):
        for seat in range(3):
            assert dh.DdzSeen.from_state(state, seat) == dh.DdzSeen.from_view(state.view(seat))


def test_basic_plays_the_move_its_rank_level_policy_meant() -> None:
    bot = DouDizhuBasicBot()
    count = 0
    for state in random_positions("doudizhu", "legal", 40):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        action = bot.choose(view, legal)
        assert action in legal
        if state.landlord is not None and len(legal) > 1:
            seen = dh.DdzSeen.from_view(view)
            meant = dh.choose_move(seen, state.legal_moves() if state.table is not None else None)
            assert (
                (action == Pass()) if meant is None else (isinstance(action, Play) and action.move == meant)
            )
            count += 1
    assert count >= 1000


def play_text(hands: str, table: str = "-", table_seat: str = "-", turn: int = 0) -> str:
    return (
        f"dealer: 0\nbids: 1 0 0\nlandlord: 0\nkitty: -\nhands: {hands}\n"
        f"table: {table}\ntable_seat: {table_seat}\nturn: {turn}\nplays: 1 1 1"
    )


def choice(text: str) -> str:
    state = GAME.position(text)
    seat = state.turn
    return str(DouDizhuBasicBot().choose(state.view(seat), state.legal_actions(seat)))


def test_basic_bids_by_hand_strength() -> None:
    strong = "3C 4C 5C 6C 8C 9C TC JC QC KC AC AD 2C 2D 2H BJ RJ"
    weak = "3D 3H 4D 5D 6D 7D 8D 9D TD JD JH QD KD 4H 6H 8H TH"
    others = [c.code for c in DECK_54 if c.code not in f"{strong} {weak}".split()]
    hands = f"{strong} / {weak} / {' '.join(others[:17])}"
    text = f"phase: bidding\ndealer: 0\nkitty: {' '.join(others[17:])}\nhands: {hands}"
    assert choice(text) == "bid 3"
    state = GAME.position(text.replace("dealer: 0", "dealer: 1"))
    assert DouDizhuBasicBot().choose(state.view(1), state.legal_actions(1)) == Bid(0)


def test_basic_leads_its_lowest_group_and_goes_out_when_it_can() -> None:
    assert choice(play_text("3C 3D 8C 9C TC JC QC 2S / 5C 6C 4D / 7C 7D 4S")) == "pair: 3C 3D"
    assert choice(play_text("8C 9C TC JC QC / 5C 6C / 7C 7D")) == "straight: 8C 9C TC JC QC"


def test_basic_does_not_beat_its_partner_but_beats_the_landlord_cheaply() -> None:
    # Seat 1 (peasant) played a single 5; seat 2 (its partner) passes.
    text = play_text("AC AD AH / 4C 7C / 9C KC QD", table="single: 5C", table_seat="1", turn=2)
    assert choice(text) == "pass"
    # The landlord (seat 0) played a single 5; seat 1 takes it with its lone seven.
    text = play_text("AC AD AH KH / 4C 4D 7C / 9C KC QD", table="single: 5C", table_seat="0", turn=1)
    assert choice(text) == "single: 7C"


def test_basic_bombs_an_enemy_about_to_go_out() -> None:
    text = play_text("KC KD / 4C 4D 4H 4S 9C 9D / 3C", table="pair: QC QD", table_seat="0", turn=1)
    assert choice(text) == "bomb: 4C 4D 4H 4S"
