"""The bot targets of issue 5, measured with the arena; figures go to BENCHMARKS.md.

Two parts:

* **Decision time on one core.** This process is pinned to one core and
  plays strong vs basic matches in-process; each level's time per decision
  (median, p95) is wall-clock around ``choose`` at its default budget.
* **Strength.** Paired arena matches (``bots/arena.py``), in ``--jobs``
  worker processes, against the targets: basic beats random widely; strong
  beats random in 93% of Briscola games; strong beats basic with the 95%
  interval above 50% (Scopa: +0.6 deal points per deal and 60% of matches;
  Briscola: 56% of games).

    python -m bench.bots [--games 400] [--seed a] [--jobs 2] [--timing-games 20] [--games-only scopa]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import dataclass

from cardavia.bots.arena import (
    BotSpec,
    HeadToHead,
    head_to_head,
    mean_interval,
    percentile,
    play_one,
    run,
    schedule,
)


@dataclass(frozen=True)
class Target:
    game: str
    a: str
    b: str
    what: str
    rate: float | None = None
    margin: float | None = None


TARGETS = [
    Target("scopa", "basic", "random", "basic beats random widely"),
    Target("scopa", "strong", "basic", "matches >= 60%, CI > 50%; deal points/deal >= +0.6", 0.60, 0.6),
    Target("briscola", "basic", "random", "basic beats random widely"),
    Target("briscola", "strong", "random", "games >= 93%", 0.93),
    Target("briscola", "strong", "basic", "games >= 56%, CI > 50%", 0.56),
]


def timing(game: str, games: int, seed: str) -> dict[str, list[float]]:
    specs = schedule(game, [BotSpec("strong"), BotSpec("basic")], games, f"{seed}/timing")
    times: dict[str, list[float]] = {"strong": [], "basic": []}
    for spec in specs:
        outcome = play_one(spec)
        for seat, name in enumerate(outcome.seats):
            times[name].extend(outcome.times[seat])
    return times


def verdict(target: Target, tally: HeadToHead) -> str:
    low, _ = tally.interval
    ok = True
    if target.rate is not None:
        ok = ok and tally.win_rate >= target.rate and low > 0.5
    if target.margin is not None:
        ok = ok and mean_interval(tally.deal_margins)[0] >= target.margin
    if target.rate is None and target.margin is None:
        ok = tally.win_rate >= 0.75
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="matches per head-to-head")
    parser.add_argument("--seed", default="a")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timing-games", type=int, default=20, help="matches per game for the timing part")
    parser.add_argument("--games-only", default="scopa,briscola", help="comma-separated game ids")
    args = parser.parse_args()
    games = args.games_only.split(",")

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print("Decision time on one core, default budget (ms)")
    print(f"{'game':<10} {'bot':<8} {'median':>8} {'p95':>8} {'decisions':>10}")
    for game in games:
        for name, times in timing(game, args.timing_games, args.seed).items():
            print(
                f"{game:<10} {name:<8} {1000 * statistics.median(times):>8.2f} "
                f"{1000 * percentile(times, 0.95):>8.2f} {len(times):>10}",
                flush=True,
            )
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))

    print()
    print("Strength: paired matches, seats swapped; win rate counts a draw as half")
    header = (
        f"{'game':<9} {'pairing':<16} {'games':>5} {'win rate (95% CI)':>22} {'deal pts/deal':>15}  target"
    )
    print(header)
    for target in TARGETS:
        if target.game not in games:
            continue
        a, b = BotSpec.parse(target.a), BotSpec.parse(target.b)
        outcomes = run(schedule(target.game, [a, b], args.games, args.seed), jobs=args.jobs)
        tally = head_to_head(outcomes, target.a, target.b)
        low, high = tally.interval
        margin, half = mean_interval(tally.deal_margins)
        rate = f"{100 * tally.win_rate:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
        print(
            f"{target.game:<9} {target.a + ' v ' + target.b:<16} {tally.games:>5} {rate:>22} "
            f"{margin:>+8.2f} ±{half:.2f}  {target.what}: {verdict(target, tally)}",
            flush=True,
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
