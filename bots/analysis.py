"""Move analysis of a finished match: the strong bot's choice at each move of chosen seats.

Why: a player looking back at a lost deal wants to know where they went wrong, the way
lichess marks inaccuracies. The strong bot is asked at each of the player's moves what it
would have played from exactly what the player could see then (the seat's view and legal
moves, rebuilt by replaying the record), and the played move is marked when it differs.
The bot sees only the view, never the hidden cards, so it judges the decision the player
faced, not the one hindsight shows.

Pure CPU and deterministic for a seed: the strong bot's randomness is a function of its seed
and the view (``bots.base.decision_rng``) and its budget is an iteration count, so the same
record analysed twice gives the same entries, wherever it runs. The server runs it in its
worker pool and keeps the result with the record.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from cardavia.bots.base import Budget
from cardavia.bots.registry import make_bot
from cardavia.games.engine import JSON
from cardavia.games.records import OPTIONAL_ACTION_FIELDS, replay_states

ANALYST = "strong"
"""The level whose choices are the reference."""


def analyse(
    record: Mapping[str, JSON], seats: Collection[int], *, budget: int | None = None, seed: int = 0
) -> list[dict[str, Any] | None]:
    """One entry per recorded action (the order of replay_views' steps): for an action of a seat in
    ``seats`` with more than one legal move, {"best": <action data of the strong bot's choice from
    that seat's view>, "differs": bool}; for a seat in ``seats`` with one legal move,
    {"best": <that move>, "differs": False, "forced": True}; None for other seats' actions.
    Deterministic for a given seed. Pure CPU: the server runs it in its worker pool.

    ``budget`` is the strong bot's iteration count (None: its default for the game). Raises
    ValueError for a record that does not replay, a seat the game does not have, or a budget
    below 1.
    """
    start, actions = replay_states(record)
    wanted = set(seats)
    for seat in wanted:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < start.seats:
            raise ValueError(f"seats must be seats from 0 to {start.seats - 1}, not {seat!r}")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 1):
        raise ValueError(f"budget must be a whole number of iterations from 1, not {budget!r}")
    game = start.game
    bot = make_bot(game.id, ANALYST, seed, iterations=budget)
    limit = Budget(iterations=budget) if budget is not None else None
    entries: list[dict[str, Any] | None] = []
    for step in actions:
        if step.seat not in wanted:
            entries.append(None)
            continue
        legal = step.before.legal_actions(step.seat)
        played = {k: v for k, v in step.action.items() if k not in OPTIONAL_ACTION_FIELDS}
        if len(legal) == 1:
            entries.append({"best": legal[0].to_data(), "differs": False, "forced": True})
            continue
        best = bot.choose(step.before.view(step.seat), legal, limit).to_data()
        entries.append({"best": best, "differs": best != played})
    return entries
