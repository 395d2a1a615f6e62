"""The conformance suite every registered game must pass.

Like OpenSpiel's random-simulation tests: play many random games through the
public contract and check, at every step, the invariants any game must keep.
Seeded loops give thousands of games per game cheaply; Hypothesis drives a
smaller number of games with the expensive checks at every step.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.games.cards import ALL_CARDS, DECKS, Card
from cardavia.games.engine import Action, Game, State
from cardavia.games.errors import IllegalAction
from cardavia.games.records import Seat, make_record, replay
from cardavia.games.registry import GAMES
from tests.plain_data import strings_in

GAME_IDS = sorted(GAMES)
CODES = {c.code for c in ALL_CARDS}
SEEDED_GAMES = {"scopa": 1000, "briscola": 3000, "schnapsen": 1500, "doudizhu": 1000}


def _deck_of(game: Game[Any, Any]) -> Counter[Card]:
    return Counter(DECKS[str(game.deck_size)])


def _cards_in(data: Any) -> set[str]:
    """Every card code that appears anywhere in plain data."""
    return strings_in(data, plain=True) & CODES


def _points_invariant(state: State[Any]) -> None:
    """Game-specific sums that must hold at every step."""
    game = state.game.id
    if game == "briscola" and state.result is not None:
        assert sum(state.result.scores) == 120
    if game == "doudizhu":
        for deal in state.deal_logs():
            if deal["score"] is not None:
                assert sum(deal["score"]["points"]) == 0


def _random_match(game: Game[Any, Any], seed: str, rng: random.Random) -> Iterator[State[Any]]:
    state: State[Any] = game.new(None, seed)
    yield state
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, _ = state.apply(legal[rng.randrange(len(legal))], seat=seat)
        yield state


def _check_turns(state: State[Any]) -> None:
    """legal_actions is empty exactly when it is not that seat's turn or the game is over."""
    for seat in range(state.game.players):
        legal = state.legal_actions(seat)
        if state.is_over or seat != state.to_move:
            assert legal == []
        else:
            assert legal, f"seat {seat} to move has no legal action"
            assert len(set(legal)) == len(legal), "a legal action is listed twice"


def _check_conservation(state: State[Any]) -> None:
    places = state.places()
    seen = Counter(c for cards in places.values() for c in cards)
    assert seen == _deck_of(state.game), "cards are not conserved"


def _check_views(state: State[Any]) -> None:
    for seat in [*range(state.game.players), None]:
        view = state.view(seat)
        secret = {c.code for c in state.secret_cards(seat)}
        leaked = _cards_in(view) & secret
        assert not leaked, f"view of seat {seat} shows hidden cards {sorted(leaked)}"
        assert json.loads(json.dumps(view)) == view, "a view is not plain data"


def _check_record(state: State[Any], seed: str) -> None:
    seats = [Seat(f"p{s}") for s in range(state.game.players)]
    record = json.loads(json.dumps(make_record(state, seats=seats, seed=seed)))
    report = replay(record)
    assert report.ok, report.problems
    assert state.result is not None
    assert report.result == state.result.to_data()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seeded_random_games_keep_every_cheap_invariant(game_id: str) -> None:
    game = GAMES[game_id]
    for number in range(SEEDED_GAMES.get(game_id, 1000)):
        seed = f"conformance/{number}"
        state = None
        for state in _random_match(game, seed, random.Random(number)):
            _check_conservation(state)
            _points_invariant(state)
        assert state is not None
        assert state.result is not None
        assert state.legal_actions(0) == []
        if number % 10 == 0:
            _check_record(state, seed)


def _illegal_pool(game: Game[Any, Any]) -> list[Action]:
    """Well-formed actions from many positions: most are illegal in any one position."""
    pool: set[Action] = set()
    for number in range(5):
        rng = random.Random(number)
        for state in _random_match(game, f"pool/{number}", rng):
            if state.to_move is not None:
                pool.update(state.legal_actions(state.to_move))
    return sorted(pool, key=str)


_POOLS: dict[str, list[Action]] = {}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=25)
@given(seed=st.text(max_size=12), choices=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(game_id: str, seed: str, choices: random.Random) -> None:
    game = GAMES[game_id]
    pool = _POOLS.setdefault(game_id, _illegal_pool(game))
    state: State[Any] = game.new(None, seed)
    assert state.game is game
    step = 0
    while True:
        _check_turns(state)
        _check_conservation(state)
        _check_views(state)
        _points_invariant(state)
        if step % 7 == 0:
            _check_position_round_trip(game, state)
        if (seat := state.to_move) is None:
            break
        legal = state.legal_actions(seat)
        _check_every_legal_action_applies(state, legal)
        _check_illegal_actions_are_refused(state, legal, choices.sample(pool, min(len(pool), 6)))
        action = legal[choices.randrange(len(legal))]
        assert game.parse_action(str(action)) == action
        assert game.action_from_data(json.loads(json.dumps(action.to_data()))) == action
        before = state.to_text()
        new, events = state.apply(action, seat=seat)
        assert state.to_text() == before, "apply changed the state it was called on"
        unchecked, unchecked_events = state.apply_unchecked(action)
        assert unchecked.to_text() == new.to_text()
        assert unchecked_events == events
        leaked = _cards_in(_current_deal(events)) & {c.code for c in new.secret_cards(None)}
        assert not leaked, f"public events show hidden cards {sorted(leaked)}"
        state = new
        step += 1
    _check_record(state, seed)
    with pytest.raises(IllegalAction) as refused:
        state.apply(legal[0])
    assert refused.value.reason == "game_over"


def _current_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events of the deal now in play: earlier ones name cards since reshuffled."""
    starts = [i for i, e in enumerate(events) if e["type"] == "deal"]
    return events[starts[-1] :] if starts else events


def _check_every_legal_action_applies(state: State[Any], legal: list[Action]) -> None:
    for action in legal:
        new, events = state.apply(action, seat=state.to_move)
        assert isinstance(events, list)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        assert new is not state


def _check_illegal_actions_are_refused(
    state: State[Any], legal: list[Action], candidates: list[Action]
) -> None:
    seat = state.to_move
    assert seat is not None
    before = (state.to_text(), state.view(seat), state.view(None))
    attempts: list[tuple[Action, int]] = [(a, seat) for a in candidates if a not in legal]
    attempts += [(legal[0], other) for other in range(state.game.players) if other != seat]
    for action, actor in attempts:
        with pytest.raises(IllegalAction) as refused:
            state.apply(action, seat=actor)
        assert refused.value.message
        if actor != seat:
            assert refused.value.reason == "not_your_turn"
        assert (state.to_text(), state.view(seat), state.view(None)) == before


def _check_position_round_trip(game: Game[Any, Any], state: State[Any]) -> None:
    if state.is_over:
        return
    copy = game.position(state.to_text())
    assert copy.to_text() == state.to_text()
    for seat in range(game.players):
        assert copy.legal_actions(seat) == state.legal_actions(seat)
        assert _without_history(copy.view(seat)) == _without_history(state.view(seat))


def _without_history(view: dict[str, Any]) -> dict[str, Any]:
    """A view less what a position text does not carry (earlier deals' summaries)."""
    return {k: v for k, v in view.items() if k not in {"last_deal", "history"}}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_same_match(game_id: str) -> None:
    game = GAMES[game_id]
    runs: list[list[str]] = []
    for _ in range(2):
        states = list(_random_match(game, "same", random.Random(7)))
        runs.append([s.to_text() for s in states])
    assert runs[0] == runs[1]
    other = [s.to_text() for s in _random_match(game, "different", random.Random(7))]
    assert other[0] != runs[0][0]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_and_actions_are_plain_data(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.new(None, "plain")
    check: Callable[[Any], set[str]] = _cards_in
    for seat in [*range(game.players), None]:
        check(state.view(seat))
    for action in state.legal_actions(state.to_move):
        check(action.to_data())
