"""How long each bot level takes per decision, per game: the figures a room's bot budget is held to.

    python -m bench.decision_times [--games briscola,scopa,schnapsen,doudizhu] [--levels strong,expert]
        [--deals 20] [--seed t] [--opponent strong] [--clock wall|cpu]

For each game and each level named in ``--levels`` (``level`` or ``level:iterations``, as the arena
names bots), ``--deals`` seeded deals are played bot against bot: the level against ``--opponent``
in every seating (``arena.arrangements``: two-player games with the seats swapped, Dou Dizhu with
each bot alone in each seat, so the level plays landlord and peasant), or, when the level is the
opponent, one seating with it in every seat. Each deal is the first deal of a match
(``game.new({}, seed)``), the same deals for every level. Bots come from the registry
(``make_bot``), so a game's ``expert`` is timed as soon as it is registered; a level the game
lacks is reported as such and skipped.

What is timed: ``bot.choose(view, legal)`` of the named level, with ``time.perf_counter`` around
the call alone, at every decision, i.e. every turn with two or more legal moves (a forced move is
no decision: the server plays it without asking the bot). The figures per game and level are the
decision count, the median, p90, p99 (nearest rank) and the maximum, in milliseconds.

These are wall-clock times by default: on a machine shared with other work they include the waits
for a core, so say how loaded the machine was beside them (the win rates of ``bench.hidden_cards`` do
not depend on load; these do). ``--clock cpu`` times the same calls by this process's CPU time
(``time.process_time``) instead: what a decision costs a core of its own, the time a bot worker
that has its core answers in, and nearly the same whatever else the machine runs (caches and
memory are still shared). Everything runs in this one process, one decision at a time.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardavia.bots.arena import BotSpec, arrangements
from cardavia.bots.registry import levels_for
from cardavia.games.engine import State
from cardavia.games.registry import GAMES, get_game

DEFAULT_GAMES = ("briscola", "scopa", "schnapsen", "doudizhu")
CLOCKS: dict[str, tuple[Callable[[], float], str]] = {
    "wall": (time.perf_counter, "wall clock"),
    "cpu": (time.process_time, "CPU time of this process"),
}
"""The clocks a decision is timed by, and how the header names each."""


def seatings(players: int, same: bool) -> list[tuple[int, ...]]:
    """Which bot sits where: 0 the timed level, 1 the opponent (all 0 when they are the same bot)."""
    return [(0,) * players] if same else arrangements(players)


def deal_times(
    game_id: str,
    level: BotSpec,
    opponent: BotSpec,
    seating: Sequence[int],
    seed: str,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Seconds of every decision the ``level`` seats made in one deal, in the order they came."""
    game = get_game(game_id)
    state: State[Any] = game.new({}, seed)
    specs = (level, opponent)
    bots = [specs[who].make(game_id, f"{seed}/seat{s}") for s, who in enumerate(seating)]
    times: list[float] = []
    deal = len(state.log)
    while (seat := state.to_move) is not None and len(state.log) == deal:
        view, legal = state.view(seat), state.legal_actions(seat)
        start = clock()
        action = bots[seat].choose(view, legal)
        elapsed = clock() - start
        if seating[seat] == 0 and len(legal) > 1:
            times.append(elapsed)
        state, _ = state.apply(action, seat=seat)
    return times


def level_times(
    game_id: str,
    level: BotSpec,
    opponent: BotSpec,
    deals: int,
    seed: str,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Every decision's seconds of ``level`` over ``deals`` deals in every seating, by ``clock``."""
    players = get_game(game_id).players
    times: list[float] = []
    for deal in range(deals):
        for seating in seatings(players, str(level) == str(opponent)):
            times += deal_times(game_id, level, opponent, seating, f"{seed}/{game_id}/{deal}", clock=clock)
    return times


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted ``ordered`` (``share`` in 0-1): a value that occurred."""
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def summary(times: Sequence[float]) -> dict[str, float]:
    """Count, median, p90, p99 and max of ``times`` (seconds), the durations in milliseconds."""
    ordered = sorted(times)
    if not ordered:
        return {"decisions": 0}
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {
        "decisions": len(ordered),
        "median": median * 1000,
        "p90": percentile(ordered, 0.90) * 1000,
        "p99": percentile(ordered, 0.99) * 1000,
        "max": ordered[-1] * 1000,
    }


def line(game_id: str, level: BotSpec, figures: dict[str, float]) -> str:
    head = f"{game_id:<10} {level!s:<12}"
    if not figures["decisions"]:
        return f"{head} {0:>9}  (no decisions)"
    cells = "".join(f" {figures[k]:>9.2f}" for k in ("median", "p90", "p99", "max"))
    return f"{head} {int(figures['decisions']):>9}{cells}"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.decision_times", description=__doc__.splitlines()[0])
    p.add_argument("--games", default=",".join(DEFAULT_GAMES), help="games, comma-separated (default all)")
    p.add_argument("--levels", default="strong", help="levels timed, like strong,expert (default strong)")
    p.add_argument("--deals", type=int, default=20, help="seeded deals per game and level (default 20)")
    p.add_argument("--seed", default="t", help="deal seed; the same seed deals the same cards")
    p.add_argument("--opponent", default="strong", help="the bot in the other seats (default strong)")
    p.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="what times a decision (default wall)"
    )
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown or args.deals < 1:
        print(f"decision_times: unknown games {unknown} or --deals below 1", file=sys.stderr)
        return 2
    levels = [BotSpec.parse(name) for name in args.levels.split(",") if name.strip()]
    opponent = BotSpec.parse(args.opponent)
    clock, clock_name = CLOCKS[args.clock]
    print(
        f"time per decision (ms, {clock_name}), {args.deals} deals per game and level, seed {args.seed!r},"
        f" against {opponent}"
    )
    print(f"{'game':<10} {'level':<12} {'decisions':>9} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9}")
    for game_id in games:
        offered = levels_for(game_id)
        if opponent.level not in offered:
            print(f"{game_id:<10} no {opponent.level} opponent (it has {', '.join(offered)} bots)")
            continue
        for level in levels:
            if level.level not in offered:
                print(f"{game_id:<10} {level!s:<12} no such bot (it has {', '.join(offered)} bots)")
                continue
            figures = summary(level_times(game_id, level, opponent, args.deals, args.seed, clock=clock))
            print(line(game_id, level, figures), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
