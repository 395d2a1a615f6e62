"""``cardavia swarm``: load-test a server with many clients playing random legal moves (see ``load.py``).

    cardavia swarm --clients 100 --rooms 50 --game scopa --duration 10

This module only declares the command; the load generator is imported when it runs.
"""

from __future__ import annotations

import argparse
import sys

from cardavia.games.registry import GAMES
from cardavia.protocol.names import LEVELS

DEFAULT_RATE = 15.0
"""Messages a second per client: under the server's default limit (``CARDAVIA_RATE_PER_SECOND``,
20), so that a swarm against a server as it comes measures it instead of its refusals."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "swarm", help="load-test a server: many clients in many rooms playing random legal moves"
    )
    p.add_argument(
        "--server", default="ws://127.0.0.1:8765/", help="server URL (default ws://127.0.0.1:8765/)"
    )
    p.add_argument("--clients", type=int, default=10, help="connections (default 10)")
    p.add_argument("--rooms", type=int, help="rooms they share (default: as few as hold them all)")
    p.add_argument("--game", default="scopa", choices=sorted(GAMES))
    p.add_argument("--duration", type=float, default=10.0, help="seconds to measure (default 10)")
    p.add_argument("--warmup", type=float, default=0.0, help="seconds played before measuring (default 0)")
    p.add_argument("--think", type=float, default=0.0, help="mean seconds before each action (default 0)")
    p.add_argument(
        "--rate", type=float, default=DEFAULT_RATE,
        help=f"most messages each client sends a second (default {DEFAULT_RATE:g}, within the server's "
        "default limit of 20; 0: no cap)",
    )  # fmt: skip
    p.add_argument(
        "--bot-level", default="random", choices=LEVELS,
        help="level of the server's bots in the seats left over (default random)",
    )  # fmt: skip
    p.add_argument("--seed", help="seed of the random moves")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if args.duration <= 0 or args.warmup < 0 or args.think < 0 or args.rate < 0:
        print(
            "cardavia swarm: --duration must be positive, --warmup, --think and --rate not negative",
            file=sys.stderr,
        )
        return 2
    import asyncio

    from cardavia.clients.cli.load import run_swarm
    from cardavia.clients.cli.progress import Progress

    progress = Progress(every=5.0)
    try:
        report = asyncio.run(
            run_swarm(
                args.server,
                clients=args.clients,
                rooms=args.rooms,
                game=args.game,
                duration=args.duration,
                think=args.think,
                warmup=args.warmup,
                bot_level=args.bot_level,
                seed=args.seed,
                rate=args.rate or None,
                progress=progress,
            )
        )
    except ValueError as exc:  # a plan that does not fit the game, refused before connecting
        print(f"cardavia swarm: {exc}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    print(report.summary())
    return 0 if report.ok else 1
