"""Schnapsen bots: consistent determinizations, legal choices, exact endgames, repeatable search."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.bots import schnapsen_bots as sb
from cardavia.bots.determinize import DETERMINIZERS, determinize
from cardavia.bots.exact import ExactSolver
from cardavia.bots.random_bot import RandomBot
from cardavia.games.cards import Card
from cardavia.games.engine import Action
from cardavia.games.schnapsen import GAME, Play, SchnapsenState
from cardavia.games.schnapsen_rules import may_follow
from tests.bots.positions import random_positions

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
        check_world(
            state, steps, seat, sb.DETERMINIZER.determinize(with_history(state, seat), random.Random(salt))
        )


@settings(max_examples=60)
@given(seed=st.text(max_size=5), plies=st.integers(5, 70), salt=st.integers(0, 2**32))
def test_without_history_the_piles_give_sound_inferences(seed: str, plies: int, salt: int) -> None:
    state, _ = walk(seed, plies)
    for seat in (0, 1):
        plain = {k: v for k, v in state.view(seat).items() if k != "history"}
        lacks = sb.opponent_lacks(plain)
        assert lacks <= sb.opponent_lacks(with_history(state, seat))
        assert not lacks & set(state.hands[1 - seat])
        world = sb.DETERMINIZER.determinize(plain, random.Random(salt))
        assert without_log(world.view(seat)) == without_log(state.view(seat))
        assert not lacks & set(world.hands[1 - seat])


def test_strict_play_inferences_happen_and_are_true() -> None:
    found = 0
    for state in random_positions("schnapsen", "lacks", 40):
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
    sb.BOTS.register()
    assert DETERMINIZERS["schnapsen"] is sb.DETERMINIZER
    state, _ = walk("generic", 9)
    world = determinize(state.view(state.turn), random.Random(1))
    assert isinstance(world, SchnapsenState)


def test_fully_known_once_the_talon_is_exhausted() -> None:
    seen = set()
    for state in random_positions("schnapsen", "known", 12, every=2):
        view = state.view(state.turn)
        known = sb.DETERMINIZER.fully_known(view)
        seen.add(known)
        if not state.talon:
            assert known
            world = sb.DETERMINIZER.determinize(view, random.Random(2))
            assert sorted(world.hands[1 - state.turn]) == sorted(state.hands[1 - state.turn])
        elif state.closed is None and len(state.talon) > 2:
            assert not known
    assert seen == {True, False}


# ----------------------------------------------------------- exact search
def brute_force(state: SchnapsenState, seat: int) -> float:
    if sb.MODEL.deal_over(state, 1):
        return sb.MODEL.rewards(state, 1)[seat]
    mover = state.turn
    values = [brute_force(state.apply_unchecked(a)[0], seat) for a in state.legal_actions(mover)]
    return max(values) if mover == seat else min(values)


def endgames(count: int, cards: int) -> list[SchnapsenState]:
    found = []
    for state in random_positions("schnapsen", "endgame", 300):
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
    for state in random_positions("schnapsen", "closed", 40):
        if state.closed is not None and state.talon and len(state.legal_actions(state.turn)) > 1:
            view, legal = state.view(state.turn), state.legal_actions(state.turn)
            assert not sb.DETERMINIZER.fully_known(view)
            first = sb.SchnapsenStrongBot("c", iterations=20).choose(view, legal)
            assert first in legal
            assert sb.SchnapsenStrongBot("c", iterations=20).choose(view, legal) == first
            return
    pytest.fail("no closed talon found")


@pytest.mark.slow
def test_with_a_closed_talon_every_move_of_the_best_solved_value_is_kept_for_the_tie_break() -> None:
    """Moves that tie exactly are all handed to the opponent-model search, and no worse move is."""
    tied = 0
    for state in random_positions("schnapsen", "ties", 40):
        if state.closed is None or not state.talon or len(state.legal_actions(state.turn)) < 2:
            continue
        view, legal = state.view(state.turn), state.legal_actions(state.turn)
        hidden = sb.schnapsen_hidden(view)
        best = sb.solve_worlds(view, legal, hidden, random.Random(3), nodes=1, seconds=None)
        world = sb.schnapsen_build(view, sb.sample_places(hidden, random.Random(3)))
        values = ExactSolver(sb.MODEL, world).action_values(world)
        assert best == [a for a in legal if values[a] == max(values.values())]
        tied += len(best) > 1
    assert tied > 3


def test_match_equity_is_a_probability_that_favours_the_lower_count() -> None:
    assert sb.equity(7, 7, True) + sb.equity(7, 7, False) == pytest.approx(1.0)
    assert sb.equity(1, 7, True) > sb.equity(3, 7, True) > sb.equity(7, 7, True) > sb.equity(7, 3, True)
    assert sb.equity(0, 5, False) == 1.0
    assert sb.equity(5, 0, False) == 0.0


# ---------------------------------------------------------- opponent model
def test_implausible_moves_are_what_basic_seldom_does() -> None:
    c = Card.parse
    assert sb.implausible(None, c("AC"), "H")  # leading an ace
    assert sb.implausible(None, c("JH"), "H")  # leading a trump
    assert not sb.implausible(None, c("JC"), "H")
    assert sb.implausible(c("KC"), c("JH"), "H")  # trumping a king
    assert not sb.implausible(c("TC"), c("JH"), "H")  # trumping a ten is worth it
    assert sb.implausible(c("TC"), c("AD"), "H")  # throwing an ace away
    assert not sb.implausible(c("TC"), c("JD"), "H")


def test_the_opponent_model_tells_random_play_from_basic() -> None:
    def mean_share(opponent: Any) -> float:
        shares = []
        for number in range(20):
            state = GAME.new({"target": 1}, f"model/{number}")
            players = [sb.SchnapsenBasicBot(), opponent]
            while (seat := state.to_move) is not None:
                view = state.view(seat)
                if seat == 0:
                    shares.append(sb.schnapsen_random_share(view, random.Random(0)))
                state = state.apply(players[seat].choose(view, state.legal_actions(seat)), seat=seat)[0]
        return sum(shares) / len(shares)

    assert mean_share(RandomBot("r")) > 0.5
    assert mean_share(sb.SchnapsenBasicBot()) < 0.25


# ------------------------------------------------------------------ playouts
def engine_playout(
    model: sb.SchnapsenModel, state: SchnapsenState, rng: random.Random, randomly: frozenset[int]
) -> list[float]:
    """The generic playout, move by move through the engine."""
    while not model.deal_over(state, len(state.log)):
        mover = state.turn
        legal = state.legal_actions(mover)
        if mover in randomly and len(legal) > 1:
            action = legal[rng.randrange(len(legal))]
        else:
            action = model.playout(state, mover, legal, rng)
        before = len(state.log)
        state = state.apply_unchecked(action)[0]
        if len(state.log) > before or state.result is not None:
            return sb.MODEL.rewards(state, before)
    return sb.MODEL.rewards(state, len(state.log))


def test_the_list_playout_plays_and_scores_as_the_engine_does() -> None:
    checked = 0
    for state in random_positions("schnapsen", "playout", 25, every=2):
        assert isinstance(state, SchnapsenState)
        for salt, randomly in enumerate([frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1})]):
            for epsilon in (0.0, 0.3):
                model = dataclasses.replace(sb.MODEL, playout_epsilon=epsilon)
                expected = engine_playout(model, state, random.Random(salt), randomly)
                assert sb.play_deal(state, random.Random(salt), randomly, epsilon) == expected
                checked += 1
    assert checked > 1000
