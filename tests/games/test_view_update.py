"""``State.view_update`` against the whole view, the reference it must match.

A server narrows a move's delta to the fields ``view_update`` names (see
``protocol.delta.diff_fields``). Over seeded random matches of every game, for
every move and every audience (each seat and a spectator), the previous view
with those fields set must be the new view, and the narrowed ops must be the
same bytes as the whole view's diff: players cannot tell which way their delta
was made.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.games.engine import Game, State
from cardavia.games.registry import GAMES
from cardavia.protocol.delta import diff, diff_fields

GAME_IDS = sorted(GAMES)
SEEDED_MATCHES = {"briscola": 300, "scopa": 60, "schnapsen": 120, "doudizhu": 100}
"""About the same number of moves per game (Scopa's matches are long)."""
OPTIONS: dict[str, dict[str, Any]] = {
    "scopa": {"target": 3},
    "schnapsen": {"target": 3},
    "doudizhu": {"deals": 2},
}
"""Shorter matches that still cross deals, so every kind of move comes often."""


def _check_match(game: Game[Any, Any], seed: str, rng: random.Random, narrowed: Counter[str]) -> None:
    state: State[Any] = game.new(OPTIONS.get(game.id), seed)
    audience: list[int | None] = [*range(state.seats), None]
    views = {who: state.view(who) for who in audience}
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        state, events = state.apply_unchecked(action)
        kind = "+".join(str(e["type"]) for e in events)
        for who in audience:
            before, after = views[who], state.view(who)
            fields = state.view_update(who, events)
            if fields is not None:
                where = f"{game.id} {seed} move {len(state.log[-1].actions)} ({kind}) seen by {who}"
                assert list(fields) == [k for k in after if k in fields], f"{where}: fields out of view order"
                assert before | fields == after, f"{where}: {_changed_elsewhere(before, after, fields)}"
                assert _bytes(diff_fields(before, fields)) == _bytes(diff(before, after)), where
                narrowed[kind] += 1
            narrowed["moves"] += who is None
            views[who] = after


def _changed_elsewhere(before: dict[str, Any], after: dict[str, Any], fields: dict[str, Any]) -> str:
    missing = [k for k in after if k not in fields and before.get(k) != after[k]]
    return f"fields changed but not named: {missing}" if missing else "named fields differ from the view's"


def _bytes(ops: list[Any]) -> bytes:
    return msgpack.packb(ops, use_bin_type=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_narrowed_deltas_match_the_whole_view_over_seeded_matches(game_id: str) -> None:
    game = GAMES[game_id]
    narrowed: Counter[str] = Counter()
    for number in range(SEEDED_MATCHES[game_id]):
        _check_match(game, f"view-update-{number}", random.Random(number), narrowed)
    # the hot moves are narrowed: at least half of all moves seen by every audience
    seen = narrowed.pop("moves") * (game.players + 1)
    assert sum(narrowed.values()) * 2 >= seen, (game_id, narrowed, seen)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.text(max_size=12), moves=st.randoms(use_true_random=False))
def test_narrowed_deltas_match_the_whole_view_for_any_seed(
    game_id: str, seed: str, moves: random.Random
) -> None:
    _check_match(GAMES[game_id], seed, moves, Counter())


def test_a_game_that_does_not_narrow_answers_none() -> None:
    """The contract's default: no narrowing, so the whole view is built."""
    state = GAMES["briscola"].new(None, "default")
    assert State.view_update(state, 0, [{"type": "play", "seat": 0, "card": "Ac"}]) is None
