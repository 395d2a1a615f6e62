"""``cardavia bot``: headless bot clients that play on a server over the network, like any player.

    cardavia bot --game scopa --level strong --games 5          # against the server's bots
    cardavia bot --game briscola --quick --count 2 --games 3    # two bots meet by quick match
    cardavia bot --game scopa --room KX4PQ                      # take a seat in a room by its code

Each bot is one connection (``--count N``: N of them) running a ``cardavia.bots``
bot through the SDK (``sdk.py``); it resumes its seat when the connection drops
and prints one results line per game. This module only declares the command;
the clients are imported when it runs.
"""

from __future__ import annotations

import argparse
import sys

from cardavia.games.registry import GAMES

LEVELS = ("random", "basic", "strong")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help="run headless bot clients against a server (they reconnect by themselves)")
    p.add_argument(
        "--server", default="ws://127.0.0.1:8765/", help="server URL (default ws://127.0.0.1:8765/)"
    )
    p.add_argument("--game", required=True, choices=sorted(GAMES))
    p.add_argument("--level", default="basic", choices=LEVELS, help="the bots' level (default basic)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--room", metavar="CODE", help="join the room with this code")
    where.add_argument(
        "--quick", action="store_true", help="quick match (bots and people meet in open rooms)"
    )
    p.add_argument("--count", type=int, default=1, help="how many bots, one connection each (default 1)")
    p.add_argument("--games", type=int, default=1, help="matches each bot plays (default 1)")
    p.add_argument(
        "--opponents",
        choices=LEVELS,
        help="level of the server's bots when playing against them (default: its own)",
    )
    p.add_argument("--name", default="bot", help="name prefix shown to other players (default bot)")
    p.add_argument("--seed", help="seed of the bots' decisions")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from cardavia.bots.registry import levels_for
    from cardavia.protocol.text import TextRefused, check

    try:  # the longest name a bot gets ("NAME-COUNT") must pass the server's rule for names
        check(f"{args.name}-{args.count}" if args.count > 1 else args.name, max_length=32, strip=True)
    except TextRefused as exc:
        print(f"cardavia bot: --name {exc}", file=sys.stderr)
        return 2
    if args.count < 1 or args.games < 1:
        print("cardavia bot: --count and --games must be at least 1", file=sys.stderr)
        return 2
    if args.level not in levels_for(args.game):
        offered = ", ".join(levels_for(args.game))
        print(f"cardavia bot: {args.game} has {offered} bots, not {args.level}", file=sys.stderr)
        return 2
    import asyncio

    return asyncio.run(_bots(args))


async def _bots(args: argparse.Namespace) -> int:
    import asyncio
    from collections.abc import Callable

    from cardavia.bots.registry import make_bot
    from cardavia.clients.cli.progress import Progress
    from cardavia.clients.cli.sdk import BotClient, GameResult

    progress = Progress(sys.stdout, every=30.0)
    total = args.count * args.games
    finished: list[GameResult] = []

    def report(who: str) -> Callable[[GameResult], None]:
        def on_result(result: GameResult) -> None:
            finished.append(result)
            progress.print(result.line(who))
            progress.count(len(finished), total, "games")

        return on_result

    clients = []
    for number in range(1, args.count + 1):
        who = f"{args.name}-{number}" if args.count > 1 else args.name
        seed = f"{args.seed}/{number}" if args.seed is not None else None
        clients.append(
            BotClient(
                args.server,
                make_bot(args.game, args.level, seed),
                args.game,
                name=who,
                code=args.room,
                quick=args.quick,
                bot_level=args.opponents,
                games=args.games,
                on_result=report(who),
            )
        )
    progress.update(f"{args.count} {args.level} bot(s) connecting to {args.server}", force=True)
    outcomes = await asyncio.gather(*(c.run() for c in clients), return_exceptions=True)
    failed = 0
    for client, outcome in zip(clients, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            failed += 1
            progress.print(f"{client.name}: failed: {outcome}")
    won = sum(r.outcome == "won" for r in finished)
    reconnects = sum(c.session.reconnects for c in clients if c.session is not None)
    progress.close(
        f"{len(finished)} of {total} games played by {args.count} {args.level} bot(s): "
        f"won {won}, reconnects {reconnects}, failed bots {failed}"
    )
    return 1 if failed else 0
