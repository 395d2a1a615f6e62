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
from typing import TYPE_CHECKING, Any

from cardavia.games.registry import GAMES
from cardavia.protocol.names import LEVELS

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable, Sequence

    from cardavia.clients.cli.sdk import BotClient


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
    p.add_argument(
        "--wait-alone",
        type=float,
        default=WAIT_ALONE,
        metavar="SECONDS",
        help="with --quick: how long bots left waiting in a room nobody else of this command can"
        f" join wait for people before they leave (default {WAIT_ALONE:g})",
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


WAIT_ALONE = 30.0
"""Seconds a quick-match bot waits for people once no other bot of the command can join it."""

LONELY_POLL = 0.5
"""How often the command looks for bots that only people from elsewhere could join."""

LONELY_NOTICE = 2.0
"""Seconds bots wait together before the command says they wait for people (a room filling up
is seated a moment before it starts)."""

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
    runs = [asyncio.ensure_future(c.run()) for c in clients]
    watch = asyncio.ensure_future(_send_home_the_lonely(clients, runs, args.wait_alone, progress.print))
    try:
        outcomes = await asyncio.gather(*runs, return_exceptions=True)
    finally:
        watch.cancel()
    failed = 0
    for client, outcome in zip(clients, outcomes, strict=True):
        if isinstance(outcome, asyncio.CancelledError):
            failed += 1  # sent home by the watch, which said why
        elif isinstance(outcome, BaseException):
            failed += 1
            progress.print(f"{client.name}: failed: {outcome}")
    won = sum(r.outcome == "won" for r in finished)
    reconnects = sum(c.session.reconnects for c in clients if c.session is not None)
    progress.close(
        f"{len(finished)} of {total} games played by {args.count} {args.level} bot(s): "
        f"won {won}, reconnects {reconnects}, failed bots {failed}"
    )
    return 1 if failed else 0


async def _send_home_the_lonely(
    clients: Sequence[BotClient], runs: Sequence[asyncio.Future[Any]], wait: float, say: Callable[[str], None]
) -> None:
    """Say so when bots wait for people, and end those no bot of the command can join any more.

    A quick-match room starts once its seats for people are taken (two in every game, Dou Dizhu
    included: its third seat is the server's bot). Three bots of one command fill one room, and
    the third waits in a room of its own. Between matches the bots quick-match again, so they
    mix; but once the others are done, a bot still waiting can only be joined by people from
    elsewhere: after ``wait`` seconds without any it leaves, saying so. A command's only bot was
    started to meet people and waits for them as long as it takes.
    """
    import asyncio

    since: float | None = None
    told = False
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(LONELY_POLL)
        running = [(c, r) for c, r in zip(clients, runs, strict=True) if not r.done()]
        if not running:
            return
        if not all(c.quick and c.waiting for c, _ in running):
            since, told = None, False
            continue
        now = loop.time()
        since = now if since is None else since
        alone = len(running) < len(clients)  # the others are done: none of them comes back
        if not told and now - since >= min(LONELY_NOTICE, wait):
            told = True
            names = ", ".join(c.name for c, _ in running)
            why = f"the other bots are done; it leaves after {wait:g} s" if alone else "no other bot to meet"
            say(f"{names}: waiting in quick match for people to join ({why})")
        if alone and now - since >= wait:
            for client, run in running:
                say(
                    f"{client.name}: left after {len(client.results)} of {client.games} games:"
                    f" nobody came to its {client.game} quick-match room within {wait:g} s"
                )
                run.cancel()
            return
