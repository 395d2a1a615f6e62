"""``cardavia bot``: headless bot clients that play on a server over the network, like any player.

    cardavia bot --game scopa --level strong --games 5          # against the server's bots
    cardavia bot --game briscola --quick --count 2 --games 3    # two bots meet by quick match
    cardavia bot --game scopa --room KX4PQ                      # take a seat in a room by its code
    cardavia bot --game scopa --ladder --games 0                # rated, as a profile of its own, forever

Each bot is one connection (``--count N``: N of them) running a ``cardavia.bots``
bot through the SDK (``sdk.py``); it resumes its seat when the connection drops
and prints one results line per game. With ``--ladder`` each bot plays rated
matches as a profile of its own (``ladder.py``), kept in the ladder file, and
prints where it stands after each one. This module only declares the command;
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
    p.add_argument(
        "--games",
        type=int,
        default=1,
        help="matches each bot plays (default 1; with --ladder 0 plays on until stopped)",
    )
    p.add_argument(
        "--ladder",
        action="store_true",
        help="rated matches as a bot profile of its own (made on the first run), printing the bot's"
        " rating and rank after each match; with --quick against whoever waits,"
        " else against the server's bots",
    )
    p.add_argument(
        "--ladder-file",
        metavar="FILE",
        help="where the ladder bots' player keys are kept, readable by you alone"
        " (default $XDG_CONFIG_HOME/cardavia/ladder.json)",
    )
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
    if args.count < 1 or args.games < (0 if args.ladder else 1):
        least = (
            "--count must be at least 1 and --games at least 0"
            if args.ladder
            else "--count and --games must be at least 1"
        )
        print(f"cardavia bot: {least}", file=sys.stderr)
        return 2
    if args.ladder and args.room:
        print("cardavia bot: --ladder plays rated matches: not with --room", file=sys.stderr)
        return 2
    if args.ladder_file and not args.ladder:
        print("cardavia bot: --ladder-file goes with --ladder", file=sys.stderr)
        return 2
    if args.level not in levels_for(args.game):
        offered = ", ".join(levels_for(args.game))
        print(f"cardavia bot: {args.game} has {offered} bots, not {args.level}", file=sys.stderr)
        return 2
    import asyncio

    if args.ladder:
        try:
            return asyncio.run(_ladder(args))
        except KeyboardInterrupt:
            return 0
    return asyncio.run(_bots(args))


FOREVER = 2**31
"""``--games 0`` on the ladder: more matches than any run lasts."""


async def _ladder(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from cardavia.bots.registry import make_bot
    from cardavia.clients.cli.keys import LADDER_FORMAT, KeyFileError, KeyStore, ladder_file
    from cardavia.clients.cli.ladder import play_ladder

    keys = KeyStore(Path(args.ladder_file) if args.ladder_file else ladder_file(), kind=LADDER_FORMAT)
    names = [f"{args.name}-{n}" if args.count > 1 else args.name for n in range(1, args.count + 1)]

    def say(line: str) -> None:
        print(line, flush=True)

    def seed(n: int) -> str | None:
        return f"{args.seed}/{n}" if args.seed is not None else None

    runs = [
        play_ladder(
            args.server,
            make_bot(args.game, args.level, seed(n)),
            args.game,
            name=who,
            keys=keys,
            games=args.games or FOREVER,
            quick=args.quick,
            bot_level=args.opponents,
            say=say,
        )
        for n, who in enumerate(names, start=1)
    ]
    outcomes = await asyncio.gather(*runs, return_exceptions=True)
    failed = 0
    for who, outcome in zip(names, outcomes, strict=True):
        if isinstance(outcome, KeyFileError):
            print(f"cardavia bot: {outcome}", file=sys.stderr)
            return 2
        if isinstance(outcome, BaseException):
            failed += 1
            say(f"{who}: failed: {outcome}")
    return 1 if failed else 0


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
