"""Dou Dizhu bots: hand plans, consistent determinizations, legal choices, repeatable search."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.bots import doudizhu_bots as db
from cardavia.bots.base import Budget
from cardavia.bots.determinize import DETERMINIZERS, determinize
from cardavia.bots.match import play_match
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import DECK_54, parse_cards
from cardavia.games.doudizhu import GAME, Bid, DouDizhuState, Pass, Play


def positions(seed: str, deals: int, every: int = 1) -> Iterator[DouDizhuState]:
    """Every ``every``-th position of ``deals`` random deals (random bids and plays)."""
    rng = random.Random(seed)
    for number in range(deals):
        state = GAME.new(None, f"{seed}/{number}")
        ply = 0
        while (seat := state.to_move) is not None:
            if ply % every == 0:
                yield state
            legal = state.legal_actions(seat)
            state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
            ply += 1


def position_after(seed: str, plies: int) -> DouDizhuState:
    rng = random.Random(seed)
    state = GAME.new(None, seed)
    for _ in range(plies):
        legal = state.legal_actions(state.turn)
        nxt = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
        if nxt.to_move is None:
            break
        state = nxt
    return state


def without_log(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("history", "last_deal")}


# ------------------------------------------------------------------ plans
@settings(max_examples=300)
@given(hand=st.lists(st.sampled_from(DECK_54), min_size=1, max_size=20, unique=True))
def test_a_plan_splits_the_hand_into_real_combinations(hand: list[Any]) -> None:
    counts = dm.card_counts(hand)
    groups = db.plan(counts)
    total = [0] * dm.NRANKS
    for move in groups:
        assert move in dm.classify(dm.move_counts(move))  # a combination, named as the engine names it
        for slot in move[2]:
            total[slot >> 2] += 1
    assert tuple(total) == counts
    assert db.hand_cost(counts) <= len(groups)


def test_a_plan_keeps_chains_bombs_and_triples_with_wings() -> None:
    counts = dm.parse_ranks("34567 999 QQQQ 2 BR")
    names = sorted(m[0] for m in db.plan(counts))
    assert names == ["bomb", "rocket", "single", "straight", "triple"]
    counts = dm.parse_ranks("3 555 666 9 KK")
    assert [m[0] for m in db.plan(counts)] == ["airplane1", "pair"]


# --------------------------------------------------------- determinization
@settings(max_examples=150)
@given(seed=st.text(max_size=5), plies=st.integers(0, 60), salt=st.integers(0, 2**32))
def test_determinizations_respect_everything_the_seat_saw(seed: str, plies: int, salt: int) -> None:
    state = position_after(seed, plies)
    for seat in range(3):
        view = state.view(seat)
        world = db.determinize(view, random.Random(salt))
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
    db.register()
    assert DETERMINIZERS["doudizhu"] is db.DETERMINIZER
    state = position_after("generic", 12)
    assert isinstance(determinize(state.view(state.turn), random.Random(1)), DouDizhuState)


# ------------------------------------------------------------------ choices
def test_basic_reads_the_state_as_it_reads_the_view() -> None:
    for state in positions("seen", 12, every=3):
        for seat in range(3):
            assert db.DdzSeen.from_state(state, seat) == db.DdzSeen.from_view(state.view(seat))


def test_basic_chooses_legal_actions_and_the_move_it_meant() -> None:
    bot = db.DouDizhuBasicBot()
    count = 0
    for state in positions("legal", 40):
        seat = state.turn
        view, legal = state.view(seat), state.legal_actions(seat)
        action = bot.choose(view, legal)
        assert action in legal
        if state.landlord is not None and len(legal) > 1:
            seen = db.DdzSeen.from_view(view)
            meant = db.choose_move(seen, state.legal_moves() if state.table is not None else None)
            assert (
                (action == Pass()) if meant is None else (isinstance(action, Play) and action.move == meant)
            )
        count += 1
    assert count >= 2000


def test_strong_chooses_legal_actions() -> None:
    bot = db.DouDizhuStrongBot("legal", iterations=1)
    count = 0
    for state in positions("legal-strong", 18):
        legal = state.legal_actions(state.turn)
        assert bot.choose(state.view(state.turn), legal) in legal
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
    return str(db.DouDizhuBasicBot().choose(state.view(seat), state.legal_actions(seat)))


def test_basic_bids_by_hand_strength() -> None:
    strong = "3C 4C 5C 6C 8C 9C TC JC QC KC AC AD 2C 2D 2H BJ RJ"
    weak = "3D 3H 4D 5D 6D 7D 8D 9D TD JD JH QD KD 4H 6H 8H TH"
    others = [c.code for c in DECK_54 if c.code not in f"{strong} {weak}".split()]
    hands = f"{strong} / {weak} / {' '.join(others[:17])}"
    text = f"phase: bidding\ndealer: 0\nkitty: {' '.join(others[17:])}\nhands: {hands}"
    assert choice(text) == "bid 3"
    state = GAME.position(text.replace("dealer: 0", "dealer: 1"))
    assert db.DouDizhuBasicBot().choose(state.view(1), state.legal_actions(1)) == Bid(0)


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


# ------------------------------------------------ hidden state, seeds, pickles
@pytest.fixture
def guarded() -> Iterator[list[DouDizhuState]]:
    """States listed here raise on any use while the fixture is active."""
    watched: list[DouDizhuState] = []
    names = ("legal_actions", "legal_moves", "apply", "apply_unchecked", "view", "secret_cards", "to_text")
    originals = {name: getattr(DouDizhuState, name) for name in names}
    for name, original in originals.items():

        def guard(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            if any(self is w for w in watched):
                raise AssertionError("a bot touched the engine state")
            return _original(self, *args, **kwargs)

        setattr(DouDizhuState, name, guard)
    yield watched
    for name, original in originals.items():
        setattr(DouDizhuState, name, original)


def bots() -> list[Any]:
    return [db.DouDizhuBasicBot(), db.DouDizhuStrongBot("hidden", iterations=2)]


def test_bots_never_touch_the_engine_state(guarded: list[DouDizhuState]) -> None:
    for state in positions("guard", 2, every=6):
        view, legal = state.view(state.turn), state.legal_actions(state.turn)
        guarded.append(state)
        for bot in bots():
            assert bot.choose(view, legal) in legal
        guarded.clear()


def test_look_alike_states_and_plain_copies_get_the_same_choice() -> None:
    for state in positions("twins", 2, every=9):
        seat = state.turn
        real = GAME.position(state.to_text())
        twin = db.determinize(state.view(seat), random.Random(7))
        view, legal = real.view(seat), real.legal_actions(seat)
        assert twin.view(seat) == view
        copy = json.loads(json.dumps(view))
        for bot in bots():
            first = bot.choose(view, legal)
            assert bot.choose(copy, legal) == first
            assert bot.choose(twin.view(seat), legal) == first
            assert pickle.loads(pickle.dumps(bot)).choose(view, legal) == first


def test_a_seeded_strong_bot_repeats_its_deal() -> None:
    def deal(seed: str) -> list[str]:
        players = [db.DouDizhuStrongBot(f"{seed}/{s}", iterations=2) for s in range(3)]
        state = play_match(GAME, players, "repeat")
        return [str(a) for d in state.log for _, a in d.actions]

    first = deal("a")
    assert deal("a") == first
    assert deal("b") != first


def test_a_time_budget_also_stops_the_search() -> None:
    for state in positions("time", 1):
        if state.landlord is not None and len(state.legal_actions(state.turn)) > 2:
            legal = state.legal_actions(state.turn)
            assert (
                db.DouDizhuStrongBot("t").choose(state.view(state.turn), legal, Budget(seconds=0.01)) in legal
            )
            return
