"""Schnapsen bots: consistent determinizations, legal choices, exact endgames, repeatable search."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.bots import schnapsen_bots as sb
from cardavia.bots.base import Budget
from cardavia.bots.determinize import DETERMINIZERS, determinize
from cardavia.bots.exact import ExactSolver
from cardavia.bots.match import play_match
from cardavia.games.cards import Card
from cardavia.games.engine import Action
from cardavia.games.schnapsen import GAME, Play, SchnapsenState
from cardavia.games.schnapsen_rules import may_follow

Step = tuple[SchnapsenState, Action]


def walk(seed: str, plies: int) -> tuple[SchnapsenState, list[Step]]:
    """A random match after ``plies`` moves, with the (state, action) steps of its current deal."""
    rng = random.Random(seed)
    state = GAME.new(None, seed)
    steps: list[Step] = []
    for _ in range(plies):
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        nxt = state.apply_unchecked(action)[0]
        if nxt.to_move is None:
            break
        steps = [] if len(nxt.log) != len(state.log) else [*steps, (state, action)]
        state = nxt
    return state, steps


def positions(seed: str, matches: int, every: int = 1) -> Iterator[SchnapsenState]:
    rng = random.Random(seed)
    for number in range(matches):
        state = GAME.new(None, f"{seed}/{number}")
        ply = 0
        while (seat := state.to_move) is not None:
            if ply % every == 0:
                yield state
            legal = state.legal_actions(seat)
            state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
            ply += 1


def with_history(state: SchnapsenState, seat: int) -> dict[str, Any]:
    """The seat's view carrying the deal's public history (as the other engines' views do)."""
    view = state.view(seat)
    view.setdefault("history", state.history())
    return view


def without_log(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("history", "last_deal")}


def check_world(state: SchnapsenState, steps: list[Step], seat: int, world: SchnapsenState) -> None:
    opp = 1 - seat
    view = state.view(seat)
    assert without_log(world.view(seat)) == without_log(view)
    assert world.secret_cards(seat) == state.secret_cards(seat)
    assert len(world.hands[opp]) == len(state.hands[opp])
    assert len(world.talon) == len(state.talon)
    assert set(world.shown) & set(world.hands[opp]) >= set(state.shown) & set(state.hands[opp])
    # Every strict-play follow the opponent made stays legal with the hand the world gives it:
    # strict play draws nothing, so its hand then was its hand now plus what it played since.
    for index, (before, action) in enumerate(steps):
        if before.turn != opp or not before.trick or not before.strict:
            continue
        assert isinstance(action, Play)
        later = [a.card for s, a in steps[index:] if s.turn == opp and isinstance(a, Play)]
        assert action.card in may_follow([*world.hands[opp], *later], before.trick[0], world.trump)


@settings(max_examples=150)
@given(seed=st.text(max_size=5), plies=st.integers(0, 70), salt=st.integers(0, 2**32))
def test_determinizations_respect_everything_the_seat_saw(seed: str, plies: int, salt: int) -> None:
    state, steps = walk(seed, plies)
    for seat in (0, 1):
        check_world(state, steps, seat, sb.determinize(with_history(state, seat), random.Random(salt)))


@settings(max_examples=60)
@given(seed=st.text(max_size=5), plies=st.integers(5, 70), salt=st.integers(0, 2**32))
def test_without_history_the_piles_give_sound_inferences(seed: str, plies: int, salt: int) -> None:
    state, _ = walk(seed, plies)
    for seat in (0, 1):
        plain = {k: v for k, v in state.view(seat).items() if k != "history"}
        lacks = sb.opponent_lacks(plain)
        assert lacks <= sb.opponent_lacks(with_history(state, seat))
        assert not lacks & set(state.hands[1 - seat])
        world = sb.determinize(plain, random.Random(salt))
        assert without_log(world.view(seat)) == without_log(state.view(seat))
        assert not lacks & set(world.hands[1 - seat])


def test_strict_play_inferences_happen_and_are_true() -> None:
    found = 0
    for state in positions("lacks", 40):
        seat = state.turn
        lacks = sb.opponent_lacks(with_history(state, seat))
        assert not lacks & set(state.hands[1 - seat])
        found += bool(lacks)
    assert found > 20


def test_the_pile_reading_keeps_what_every_order_of_tricks_agrees_on() -> None:
    trump = "H"
    # Seat 1 led QS, seat 0 took it with AS and led TC; seat 1 threw JD: void in clubs and trumps.
    piles = (tuple(Card.parse(c) for c in ("QS", "AS", "TC", "JD")), ())
    lacks = sb.pile_exclusions(piles, trump, first_leader=1, leader=0, strict_done=1, seat=1)
    assert lacks == sb.SUIT_CARDS["C"] | sb.SUIT_CARDS["H"]
    assert not sb.pile_exclusions(piles, trump, first_leader=1, leader=0, strict_done=0, seat=1)


def test_the_generic_determinizer_serves_schnapsen_once_registered() -> None:
    sb.register()
    assert DETERMINIZERS["schnapsen"] is sb.DETERMINIZER
    state, _ = walk("generic", 9)
    world = determinize(state.view(state.turn), random.Random(1))
    assert isinstance(world, SchnapsenState)


def test_fully_known_once_the_talon_is_exhausted() -> None:
    seen = set()
    for state in positions("known", 12, every=2):
        view = state.view(state.turn)
        known = sb.DETERMINIZER.fully_known(view)
        seen.add(known)
        if not state.talon:
            assert known
            world = sb.determinize(view, random.Random(2))
            assert sorted(world.hands[1 - state.turn]) == sorted(state.hands[1 - state.turn])
        elif state.closed is None and len(state.talon) > 2:
            assert not known
    assert seen == {True, False}


# ------------------------------------------------------------------ choices
def test_basic_reads_the_state_as_it_reads_the_view() -> None:
    for state in positions("seen", 30, every=2):
        for seat in (0, 1):
            assert sb.SchnapsenSeen.from_state(state, seat) == sb.SchnapsenSeen.from_view(state.view(seat))


def test_basic_chooses_legal_actions_in_thousands_of_positions() -> None:
    bot = sb.SchnapsenBasicBot()
    count = 0
    for state in positions("legal", 150):
        legal = state.legal_actions(state.turn)
        assert bot.choose(state.view(state.turn), legal) in legal
        count += 1
    assert count >= 2000


def test_strong_chooses_legal_actions() -> None:
    bot = sb.SchnapsenStrongBot("legal", iterations=3)
    count = 0
    for state in positions("legal-strong", 70):
        legal = state.legal_actions(state.turn)
        assert bot.choose(state.view(state.turn), legal) in legal
        count += 1
    assert count >= 1000


def choice(text: str) -> str:
    state = GAME.position(text)
    return str(sb.SchnapsenBasicBot().choose(state.view(state.turn), state.legal_actions(state.turn)))


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


# ----------------------------------------------------------- exact search
def brute_force(state: SchnapsenState, seat: int) -> float:
    if sb.MODEL.deal_over(state, 1):
        return sb.MODEL.rewards(state, 1)[seat]
    mover = state.turn
    values = [brute_force(state.apply_unchecked(a)[0], seat) for a in state.legal_actions(mover)]
    return max(values) if mover == seat else min(values)


def endgames(count: int, cards: int) -> list[SchnapsenState]:
    found = []
    for state in positions("endgame", 300):
        if (
            not state.talon
            and len(state.hands[state.turn]) <= cards
            and len(state.legal_actions(state.turn)) > 1
        ):
            found.append(GAME.position(state.to_text()))
            if len(found) == count:
                break
    return found


def test_exact_search_agrees_with_brute_force() -> None:
    states = endgames(30, 4)
    assert len(states) == 30
    for state in states:
        values = ExactSolver(sb.MODEL, state).action_values(state)
        for action, value in values.items():
            assert value == pytest.approx(brute_force(state.apply_unchecked(action)[0], state.turn))


def test_strong_plays_an_exact_best_move_once_nothing_is_hidden() -> None:
    for state in endgames(12, 5):
        seat = state.turn
        chosen = sb.SchnapsenStrongBot("e").choose(state.view(seat), state.legal_actions(seat))
        values = ExactSolver(sb.MODEL, state).action_values(state)
        assert values[chosen] == max(values.values())


def test_a_closed_talon_is_searched_by_solving_worlds() -> None:
    for state in positions("closed", 40):
        if state.closed is not None and state.talon and len(state.legal_actions(state.turn)) > 1:
            view, legal = state.view(state.turn), state.legal_actions(state.turn)
            assert not sb.DETERMINIZER.fully_known(view)
            first = sb.SchnapsenStrongBot("c", iterations=20).choose(view, legal)
            assert first in legal
            assert sb.SchnapsenStrongBot("c", iterations=20).choose(view, legal) == first
            return
    pytest.fail("no closed talon found")


def test_match_equity_is_a_probability_that_favours_the_lower_count() -> None:
    assert sb.equity(7, 7, True) + sb.equity(7, 7, False) == pytest.approx(1.0)
    assert sb.equity(1, 7, True) > sb.equity(3, 7, True) > sb.equity(7, 7, True) > sb.equity(7, 3, True)
    assert sb.equity(0, 5, False) == 1.0
    assert sb.equity(5, 0, False) == 0.0


# ------------------------------------------------ hidden state, seeds, pickles
@pytest.fixture
def guarded() -> Iterator[list[SchnapsenState]]:
    """States listed here raise on any use while the fixture is active."""
    watched: list[SchnapsenState] = []
    names = ("legal_actions", "apply", "apply_unchecked", "view", "secret_cards", "places", "to_text")
    originals = {name: getattr(SchnapsenState, name) for name in names}
    for name, original in originals.items():

        def guard(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            if any(self is w for w in watched):
                raise AssertionError("a bot touched the engine state")
            return _original(self, *args, **kwargs)

        setattr(SchnapsenState, name, guard)
    yield watched
    for name, original in originals.items():
        setattr(SchnapsenState, name, original)


def bots() -> list[Any]:
    return [sb.SchnapsenBasicBot(), sb.SchnapsenStrongBot("hidden", iterations=6)]


def test_bots_never_touch_the_engine_state(guarded: list[SchnapsenState]) -> None:
    for state in positions("guard", 3, every=3):
        view, legal = state.view(state.turn), state.legal_actions(state.turn)
        guarded.append(state)
        for bot in bots():
            assert bot.choose(view, legal) in legal
        guarded.clear()


def test_look_alike_states_and_plain_copies_get_the_same_choice() -> None:
    for state in positions("twins", 3, every=5):
        seat = state.turn
        real = GAME.position(state.to_text())
        twin = sb.determinize(state.view(seat), random.Random(7))
        view, legal = real.view(seat), real.legal_actions(seat)
        assert twin.view(seat) == view
        assert twin.legal_actions(seat) == legal
        copy = json.loads(json.dumps(view))
        for bot in bots():
            first = bot.choose(view, legal)
            assert bot.choose(copy, legal) == first
            assert bot.choose(twin.view(seat), legal) == first
            assert pickle.loads(pickle.dumps(bot)).choose(view, legal) == first


def test_a_seeded_strong_bot_repeats_its_match() -> None:
    def match(seed: str) -> list[str]:
        players = [sb.SchnapsenStrongBot(f"{seed}/{s}", iterations=8) for s in (0, 1)]
        state = play_match(GAME, players, "repeat", {"target": 2})
        return [str(a) for deal in state.log for _, a in deal.actions]

    first = match("a")
    assert match("a") == first
    assert match("b") != first


def test_a_time_budget_also_stops_the_search() -> None:
    state, _ = walk("time", 3)
    legal = state.legal_actions(state.turn)
    assert sb.SchnapsenStrongBot("t").choose(state.view(state.turn), legal, Budget(seconds=0.01)) in legal
