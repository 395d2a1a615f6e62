"""Replay answers made as the server makes them, from real engine matches, for the client tests."""

from __future__ import annotations

from typing import Any

from cardavia.games.records import Seat, make_record
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from cardavia.protocol.delta import diff


def played(game_id: str, seed: str) -> tuple[m.Replay, list[list[Any]]]:
    """A match of seat 0 (who plays its last legal move) against a bot (its first), as a replay answer;
    with every seat's view after each step."""
    game = get_game(game_id)
    state = game.new(dict(game.default_options), seed)
    seats = range(game.players)
    views = [state.view(s) for s in seats]
    steps: list[dict[str, Any]] = []
    analysis: list[dict[str, Any] | None] = []
    after: list[list[Any]] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions(seat)
        action = legal[-1] if seat == 0 else legal[0]
        before = [state.view(s) for s in seats]
        deal = len(state.log)  # numbered from 1, as the server's steps are
        state, _ = state.apply(action, seat=seat)
        now = [state.view(s) for s in seats]
        ops = [diff(old, new) for old, new in zip(before, now, strict=True)]
        steps.append({"deal": deal, "seat": seat, "action": action.to_data(), "ops": ops})
        if seat != 0:
            analysis.append(None)
        elif len(legal) == 1:
            analysis.append({"best": action.to_data(), "differs": False, "forced": True})
        else:
            analysis.append({"best": legal[0].to_data(), "differs": True})
        after.append(now)
    names = [Seat("Anna", "human"), *(Seat(f"Bot {s}", "bot", "basic") for s in seats if s)]
    record = make_record(state, seats=names, seed=seed)
    replay = m.Replay(id=1, record_id="r-test-1", record=record, views=views, steps=steps, analysis=analysis)
    return replay, after
