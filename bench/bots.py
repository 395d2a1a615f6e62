"""How strong and how fast the bots are against their targets, measured with the arena; figures go to
BENCHMARKS.md.

Two parts:

* **Decision time on one core.** This process is pinned to one core and
  plays strong vs basic matches in-process; each level's time per decision
  (median, p95) around ``choose`` at its default budget, as wall clock and
  as the thread's CPU time (what is left of it when other work shares the
  core).
* **Strength.** Paired arena matches (``bots/arena.py``), in ``--jobs``
  worker processes, against the targets: basic beats random widely (Dou
  Dizhu: a positive mean in both roles); strong beats random in 93% of
  Briscola games, 90% of Schnapsen deals and 95% of Dou Dizhu deals as
  landlord; strong beats basic with the 95% interval above 50% (Scopa: +0.6
  deal points per deal and 60% of matches; Briscola: 56% of games;
  Schnapsen: 65% of matches) or, in Dou Dizhu, above 0 in each role.

    python -m bench.bots [--games 400] [--seed a] [--jobs 2] [--timing-games 20] [--games-only scopa]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from cardavia.bots.arena import (
    BotSpec,
    HeadToHead,
    head_to_head,
    mean_interval,
    percentile,
    run,
    schedule,
    wilson,
)
from cardavia.games.engine import State
from cardavia.games.registry import get_game


@dataclass(frozen=True)
class Target:
    game: str
    a: str
    b: str
    what: str
    rate: float | None = None
    margin: float | None = None
    deals: float | None = None
    """Share of deals ``a`` must win."""
    roles: bool = False
    """``a`` must score above 0 in every role against ``b`` alone, its 95% interval too."""
    landlord: float | None = None
    """Share of deals ``a`` must win as landlord against ``b`` alone."""


TARGETS = [
    Target("scopa", "basic", "random", "basic beats random widely"),
    Target("scopa", "strong", "basic", "matches >= 60%, CI > 50%; deal points/deal >= +0.6", 0.60, 0.6),
    Target("briscola", "basic", "random", "basic beats random widely"),
    Target("briscola", "strong", "random", "games >= 93%", 0.93),
    Target("briscola", "strong", "basic", "games >= 56%, CI > 50%", 0.56),
    Target("schnapsen", "basic", "random", "basic beats random widely"),
    Target("schnapsen", "strong", "random", "deals >= 90%", deals=0.90),
    Target("schnapsen", "strong", "basic", "matches >= 65%, CI > 50%", 0.65),
    Target("doudizhu", "basic", "random", "mean > 0 in each role, CI too", roles=True),
    Target("doudizhu", "strong", "random", "landlord wins >= 95% of deals", landlord=0.95),
    Target("doudizhu", "strong", "basic", "mean > 0 in each role, CI too", roles=True),
]


def against_b_alone(tally: HeadToHead) -> dict[str, list[float]]:
    """``a``'s deal points by role where every seat on the other side is ``b``."""
    return {
        role: points
        for (bot, role, other), points in tally.roles.items()
        if bot == tally.a and set(other.split("+")) == {tally.b}
    }


def timing(game: str, games: int, seed: str) -> dict[str, tuple[list[float], list[float]]]:
    """Each level's (wall-clock, CPU) seconds per decision in strong v basic matches.

    CPU time (``time.thread_time``) is what the decision itself costs; on a
    machine shared with other work the wall clock adds the waits for the core.
    """
    times: dict[str, tuple[list[float], list[float]]] = {"strong": ([], []), "basic": ([], [])}
    for spec in schedule(game, [BotSpec("strong"), BotSpec("basic")], games, f"{seed}/timing"):
        bots = [bot.make(game, f"{spec.seed}/seat{seat}") for seat, bot in enumerate(spec.seats)]
        state: State[Any] = get_game(game).new(dict(spec.options), spec.seed)
        while (seat := state.to_move) is not None:
            legal = state.legal_actions(seat)
            view = state.view(seat)
            wall, cpu = time.perf_counter(), time.thread_time()
            action = bots[seat].choose(view, legal)
            if len(legal) > 1:
                wall_times, cpu_times = times[str(spec.seats[seat])]
                wall_times.append(time.perf_counter() - wall)
                cpu_times.append(time.thread_time() - cpu)
            state, _ = state.apply(action, seat=seat)
    return times


def verdict(target: Target, tally: HeadToHead) -> str:
    low, _ = tally.interval
    ok = True
    if target.rate is not None:
        ok = ok and tally.win_rate >= target.rate and low > 0.5
    if target.margin is not None:
        ok = ok and mean_interval(tally.deal_margins)[0] >= target.margin
    if target.deals is not None:
        ok = ok and tally.deals_won >= target.deals * len(tally.deal_margins)
    roles = against_b_alone(tally)
    if target.roles:
        ok = (
            ok
            and len(roles) == 2
            and all(mean - half > 0 for mean, half in map(mean_interval, roles.values()))
        )
    if target.landlord is not None:
        won = [p > 0 for p in roles.get("landlord", [])]
        ok = ok and bool(won) and sum(won) >= target.landlord * len(won)
    plain = target.rate is None and target.margin is None and target.deals is None
    if plain and target.landlord is None and not target.roles:
        ok = tally.win_rate >= 0.75
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="matches per head-to-head")
    parser.add_argument("--seed", default="a")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timing-games", type=int, default=20, help="matches per game for the timing part")
    parser.add_argument(
        "--games-only", default="scopa,briscola,schnapsen,doudizhu", help="comma-separated game ids"
    )
    args = parser.parse_args()
    games = args.games_only.split(",")

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print("Decision time on one core, default budget (ms): wall clock, and the CPU time of the decision")
    print(f"{'game':<10} {'bot':<8} {'median':>8} {'p95':>8} {'cpu med':>8} {'cpu p95':>8} {'decisions':>10}")
    for game in games:
        for name, (wall, cpu) in timing(game, args.timing_games, args.seed).items():
            print(
                f"{game:<10} {name:<8} {1000 * statistics.median(wall):>8.2f} "
                f"{1000 * percentile(wall, 0.95):>8.2f} {1000 * statistics.median(cpu):>8.2f} "
                f"{1000 * percentile(cpu, 0.95):>8.2f} {len(wall):>10}",
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
        if len(tally.deal_margins) > tally.games:
            won_low, won_high = wilson(tally.deals_won, len(tally.deal_margins))
            print(
                f"{'':<9} deals won {100 * tally.deals_won / len(tally.deal_margins):.1f}% "
                f"({100 * won_low:.1f}-{100 * won_high:.1f}) of {len(tally.deal_margins)}"
            )
        for role, points in against_b_alone(tally).items():
            mean, spread = mean_interval(points)
            wins = sum(p > 0 for p in points)
            print(
                f"{'':<9} {target.a} as {role} against {target.b}: {mean:+.2f} ±{spread:.2f} per deal, "
                f"won {wins}/{len(points)} deals"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
