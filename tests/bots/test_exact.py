"""Exact search agrees with brute-force minimax on small endgames."""

from __future__ import annotations

from typing import Any

import pytest

from cardavia.bots.determinize import all_placements
from cardavia.bots.exact import ExactSolver, best_exact_action
from cardavia.bots.models import MODELS, SearchModel
from cardavia.bots.strong_bot import StrongBot, solve_every_world
from cardavia.games import briscola, scopa
from cardavia.games.engine import State
from tests.bots.positions import random_positions


def brute_force(model: SearchModel, state: State[Any], seat: int, root_deals: int) -> float:
    """Plain minimax: no pruning, no table."""
    if model.deal_over(state, root_deals):
        return model.rewards(state, root_deals)[seat]
    mover = state.to_move
    assert mover is not None
    values = [
        brute_force(model, state.apply_unchecked(a)[0], seat, root_deals) for a in state.legal_actions(mover)
    ]
    return max(values) if mover == seat else min(values)


def endgames(game: str, seed: str, stock_at_most: int, count: int) -> list[State[Any]]:
    found = []
    for state in random_positions(game, seed, 200):
        if len(state.places()["stock"]) <= stock_at_most and len(state.legal_actions(state.to_move)) > 1:
            found.append(state)
            if len(found) == count:
                break
    return found


@pytest.mark.parametrize(
    ("game", "stock"),
    [("briscola", 0), ("briscola", 2), ("scopa", 0)],
)
def test_exact_values_equal_brute_force(game: str, stock: int) -> None:
    model = MODELS[game]
    states = endgames(game, f"exact-{stock}", stock, 25)
    assert len(states) == 25
    for state in states:
        seat = state.to_move
        solver = ExactSolver(model, state)
        values = solver.action_values(state)
        for action, value in values.items():
            child = state.apply_unchecked(action)[0]
            assert value == pytest.approx(brute_force(model, child, seat, len(state.log)))


def test_a_written_briscola_endgame() -> None:
    # Trump hearts. Seat 0 leads; seat 1 holds the ace and three of trumps.
    won = "2H AS 3S AC 3C AD 3D KC KD QC QD QS JC JD JS 7C 7D 7S 6C 6D 6S 5C 5S 4D 4S 2C 2D KH"
    text = f"""
        dealer: 1
        turn: 0
        trump: 2H
        hands: KS 4C 5D / AH 3H 2S
        stock: -
        won: {won} / QH JH 7H 6H 5H 4H
    """
    state = briscola.GAME.position(text)
    model = MODELS["briscola"]
    action, values = best_exact_action(model, state)
    for played, value in values.items():
        child = state.apply_unchecked(played)[0]
        assert value == pytest.approx(brute_force(model, child, 0, 1))
    assert values[action] == max(values.values())


def test_a_written_scopa_endgame_takes_the_settebello() -> None:
    mine = "AC AD AS 2C 2D 3D 3S 4C 4D 4S 5C 5D 5S 6C 6D 6S 2H 3H 4H 5H"
    piles = f"{mine} / JC JD JS QC QD QS KC KS AH 6H JH QH KH 7H"
    text = f"""
        dealer: 0
        turn: 1
        hands: 7C 2S / 7S KD
        table: 7D 3C
        stock: -
        piles: {piles}
        last_capture: 0
    """
    state = scopa.GAME.position(text)
    action, values = best_exact_action(MODELS["scopa"], state)
    assert str(action) == "7S:7D"
    for played, value in values.items():
        assert value == pytest.approx(brute_force(MODELS["scopa"], state.apply_unchecked(played)[0], 1, 1))


def test_the_strong_bot_plays_an_exact_move_once_nothing_is_hidden() -> None:
    model = MODELS["briscola"]
    for state in endgames("briscola", "strong-exact", 0, 10):
        seat = state.to_move
        legal = state.legal_actions(seat)
        chosen = StrongBot("s").choose(state.view(seat), legal)
        values = ExactSolver(model, state).action_values(state)
        assert values[chosen] == max(values.values())


def count_nodes(state: State[Any], root_deals: int) -> int:
    model = MODELS["briscola"]
    if model.deal_over(state, root_deals):
        return 1
    mover = state.to_move
    assert mover is not None
    return 1 + sum(count_nodes(state.apply_unchecked(a)[0], root_deals) for a in state.legal_actions(mover))


def test_pruning_and_the_table_save_work() -> None:
    state = endgames("briscola", "table", 2, 1)[0]
    solver = ExactSolver(MODELS["briscola"], state)
    first = solver.action_values(state)
    assert solver.table
    assert solver.nodes < count_nodes(state, len(state.log))
    assert ExactSolver(MODELS["briscola"], state).action_values(state) == first


def test_few_worlds_are_solved_each_and_weighed_by_the_given_weight() -> None:
    model = MODELS["briscola"]
    determinizer = model.determinizer
    differing = checked = 0
    for state in endgames("briscola", "weighted-worlds", 2, 40):
        seat = state.to_move
        view, legal = state.view(seat), state.legal_actions(seat)
        placements = list(all_placements(determinizer.hidden(view)))
        if len(placements) == 1:
            continue  # nothing hidden
        assert len(placements) <= model.exact_worlds
        checked += 1
        worlds = [determinizer.build(view, placed) for placed in placements]
        values = [ExactSolver(model, world).action_values(world) for world in worlds]
        summed = max(legal, key=lambda a: sum(v[a] for v in values))
        assert solve_every_world(model, view, legal) == summed
        assert solve_every_world(model, view, legal, lambda placed: 2.0) == summed
        for only, placed in enumerate(placements):
            chosen = solve_every_world(model, view, legal, lambda p, placed=placed: float(p == placed))
            assert values[only][chosen] == max(values[only].values())  # the one world that counts
            differing += values[only][chosen] > values[only][summed]
    assert checked >= 8
    assert differing  # some single world's best move is not the sum's
