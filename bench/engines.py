"""Random full games per second, per game, on one core.

Each run plays random legal moves (uniform over ``legal_actions``) from fresh
seeded matches for a fixed time; the figure is the median over several runs.
Two paths are timed: ``apply`` (checked, what the server uses) and
``apply_unchecked`` (what bot search uses).

    python -m bench.engines [--seconds 2] [--runs 5] [--games scopa,briscola] [--peers]

``--peers`` adds Dou Dizhu against RLCard's pure-Python game and OpenSpiel's
C++ ``dou_dizhu`` in the same run (``pip install '.[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from cardavia.games.engine import Game, State
from cardavia.games.registry import GAMES


def games_per_second(game: Game[Any, Any], seconds: float, checked: bool, salt: str) -> float:
    played = 0
    rng = random.Random(salt)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state: State[Any] = game.new(None, f"{salt}/{played}")
        while (seat := state.to_move) is not None:
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            state = state.apply(action, seat=seat)[0] if checked else state.apply_unchecked(action)[0]
        played += 1
    return played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument(
        "--peers",
        action="store_true",
        help="also run Dou Dizhu against RLCard and OpenSpiel (pip install '.[bench]')",
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"{'game':<10} {'path':<10} {'games/s (median)':>17} {'min':>9} {'max':>9}")
    for game_id in args.games.split(","):
        game = GAMES[game_id]
        for checked in (True, False):
            runs = [games_per_second(game, args.seconds, checked, f"bench/{run}") for run in range(args.runs)]
            path = "apply" if checked else "unchecked"
            print(
                f"{game_id:<10} {path:<10} {statistics.median(runs):>17.1f} "
                f"{min(runs):>9.1f} {max(runs):>9.1f}",
                flush=True,
            )
    if args.peers:
        from bench.doudizhu_peers import report

        print()
        report(args.seconds, args.runs)


if __name__ == "__main__":
    main()
