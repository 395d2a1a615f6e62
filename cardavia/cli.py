"""The `cardavia` command: one entry point, one subcommand per job.

Subcommands import their layers lazily, so `cardavia replay` never loads the
server and a broken optional dependency only breaks the command that needs it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from cardavia import __version__


def _selfplay(args: argparse.Namespace) -> int:
    from cardavia.bots.match import play_match
    from cardavia.bots.random_bot import RandomBot
    from cardavia.clients.cli.progress import Progress
    from cardavia.games.records import Seat, dumps, make_record
    from cardavia.games.registry import get_game

    game = get_game(args.game)
    out = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    wins = [0] * game.players
    draws = 0
    totals = [0] * game.players
    progress = Progress()  # the live line goes to stderr; results stay on stdout
    try:
        for number in range(args.games):
            seed = f"{args.seed}/{number}"
            bots = [RandomBot(f"{seed}/seat{s}") for s in range(game.players)]
            state = play_match(game, bots, seed)
            result = state.result
            assert result is not None
            if result.winner is None:
                draws += 1
            else:
                wins[result.winner] += 1
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            scores = " ".join(str(s) for s in result.scores)
            winner = "no single winner" if result.winner is None else f"seat {result.winner} wins"
            progress.print(
                f"game {number + 1}: scores {scores}, {winner} ({result.reason}, {len(state.log)} deals)",
                file=sys.stdout,
            )
            progress.count(number + 1, args.games, "games")
            if out:
                seats = [Seat(f"random-{s}", "bot", "random") for s in range(game.players)]
                out.write(dumps(make_record(state, seats=seats, seed=seed)) + "\n")
    finally:
        progress.close()
        if out:
            out.close()
    n = max(args.games, 1)
    print(
        f"{game.name}: {args.games} games, wins by seat {wins}, no single winner {draws}, "
        f"mean score {[round(t / n, 2) for t in totals]}"
    )
    return 0


def _replay(args: argparse.Namespace) -> int:
    if args.server is not None:  # a finished match from a server, step by step (the terminal client's)
        from cardavia.clients.cli.replay import run

        return run(args)
    from cardavia.games.records import read_lines, replay

    path = Path(args.file)
    bad = checked = 0
    try:
        handle = path.open(encoding="utf-8") if args.file != "-" else sys.stdin
    except OSError as exc:
        print(f"cardavia replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    with handle:
        for number, record in read_lines(handle):
            checked += 1
            if isinstance(record, str):
                report_problems = [record]
                summary = ""
            else:
                report = replay(record)
                report_problems = report.problems
                result = report.result or {}
                summary = f"{report.game} {result.get('scores')} winner {result.get('winner')}"
            if report_problems:
                bad += 1
                for problem in report_problems:
                    print(f"line {number}: MISMATCH {problem}")
            elif not args.quiet:
                print(f"line {number}: ok {summary}")
    print(f"{checked} records, {checked - bad} replay exactly, {bad} with mismatches")
    return 1 if bad or not checked else 0


def _decks(args: argparse.Namespace) -> int:
    from cardavia.games.traditions import catalogue
    from cardavia.protocol.i18n import Texts

    texts = Texts(args.lang)
    items = catalogue(args.lang)
    counts = [texts("cli.decks.cards", count=item["cards"]) for item in items]
    width = max(map(len, counts), default=0)
    for item, count in zip(items, counts, strict=True):
        print(f"{item['id']:<14} {count:>{width}}  {item['name']} — {item['description']}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    from cardavia.games.rules import rules_text

    text = rules_text(args.game, args.lang)
    if text.lang != args.lang.split("-")[0]:
        print(f"(the rules of {args.game} are not in {args.lang} yet: English follows)", file=sys.stderr)
    print(text.markdown.rstrip())
    return 0


def _schema(args: argparse.Namespace) -> int:
    from cardavia.protocol.schema import render

    out = Path(args.out)
    stale = []
    for name, text in render().items():
        path = out / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not args.check:
            out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if args.check and stale:
        print(f"out of date in {out}: {', '.join(stale)} (run `cardavia schema`)", file=sys.stderr)
        return 1
    return 0


def _arena(args: argparse.Namespace) -> int:
    from cardavia.bots import arena
    from cardavia.bots.registry import levels_for
    from cardavia.games.registry import get_game

    game = get_game(args.game)
    round_robin = args.round_robin or args.calibrate
    try:
        if round_robin:
            names = args.bots.split(",") if args.bots else levels_for(game.id)
        else:
            names = (args.bots or "strong,basic").split(",")
        bots = [arena.BotSpec.parse(name) for name in names]
        if len({str(b) for b in bots}) != len(bots) or len(bots) < 2:
            raise ValueError("--bots needs two or more different bots, like strong,basic")
        if not round_robin and len(bots) != 2:
            raise ValueError("--bots names two bots for a head-to-head; use --round-robin for more")
        if args.calibrate and any(b.iterations is not None for b in bots):
            raise ValueError("--calibrate rates the levels as the server plays them: no :iterations")
        if args.calibrate and "basic" not in names:
            raise ValueError("--calibrate anchors basic at 1500: --bots must include basic")
        pairs = list(arena.pairings(bots))
        specs = [s for a, b in pairs for s in arena.schedule(game.id, [a, b], args.games, args.seed)]
        for bot in bots:
            bot.make(game.id, "check")
    except ValueError as exc:
        print(f"cardavia arena: {exc}", file=sys.stderr)
        return 2

    from cardavia.clients.cli.progress import Progress

    with Progress() as status:
        outcomes = arena.run(specs, jobs=args.jobs, progress=lambda d, t: status.count(d, t, "matches"))
    print(
        f"{game.name} arena, seed {args.seed!r}, {args.games} games per pairing (paired deals, seats swapped)"
    )
    tallies = [arena.head_to_head(outcomes, str(a), str(b)) for a, b in pairs]
    for tally in tallies:
        print("\n".join(arena.describe(tally)))
    if args.round_robin:
        print()
        print("\n".join(arena.elo_table(tallies, anchor=str(bots[0]))))
    if args.calibrate:
        import json

        fitted = arena.calibrate(outcomes, game.id)
        print()
        for tally in arena.pairwise_tallies(outcomes, game.id):
            print(
                f"pairwise {tally.a} vs {tally.b}: {tally.wins} wins, {tally.draws} draws, "
                f"{tally.losses} losses over {tally.games} comparisons"
            )
        print("fixed ratings (basic = 1500), for bots/data/ratings.json:")
        print(json.dumps({game.id: {str(b): fitted[str(b)] for b in bots}}))
    return 0


_LOG_NOISE = frozenset(
    {"connection open", "connection closed", "connection rejected (%d %s)", "HTTP response sent (%d %s)"}
)
"""websockets' line per connection and per HTTP answer (health probes, /metrics scrapes): DEBUG
detail, since the server logs its own events for the connections that matter."""


def _logfmt_value(value: str) -> str:
    if value and not any(c in value for c in ' "=\\\n\t'):
        return value
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


class _Quoted:
    """A log argument as a logfmt value: quoted when it holds a space, a quote or an equals sign."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __str__(self) -> str:
        return _logfmt_value(str(self.value))

    def __repr__(self) -> str:
        return _logfmt_value(repr(self.value))


class LogfmtFormatter(logging.Formatter):
    """One ``key=value`` line per record: ``ts=… level=… logger=…`` and then the event.

    The server's own messages are ``event=… key=%s`` templates, whose values are quoted here as
    logfmt needs (an error's text has spaces); any other message (a library's) becomes
    ``msg="…"``, and a traceback ``exc="…"``, so that every line parses as logfmt.
    """

    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        message = self._message(record)
        if not message.startswith("event="):
            message = "msg=" + _logfmt_value(message)
        line = (
            f"ts={ts}.{int(record.msecs):03d}Z level={record.levelname.lower()} "
            f"logger={_logfmt_value(record.name)} {message}"
        )
        if record.exc_info:
            line += " exc=" + _logfmt_value(self.formatException(record.exc_info))
        return line

    @staticmethod
    def _message(record: logging.LogRecord) -> str:
        template, args = record.msg, record.args
        if isinstance(template, str) and template.startswith("event=") and isinstance(args, tuple) and args:
            quoted = tuple(a if isinstance(a, int | float) else _Quoted(a) for a in args)
            try:
                return template % quoted
            except (TypeError, ValueError):  # a template of another shape: as logging would render it
                pass
        return record.getMessage()


class _QuietConnections(logging.Filter):
    """Demote websockets' per-connection lines to DEBUG (and so drop them at INFO)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and record.msg in _LOG_NOISE:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger().isEnabledFor(logging.DEBUG)
        return True


def configure_logging(level: str, stream: TextIO | None = None) -> None:
    """Log lines in logfmt to standard error (or ``stream``), from ``level`` up."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(LogfmtFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):  # configured twice in one process (tests): one line per record
        if isinstance(old.formatter, LogfmtFormatter):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    websockets_server = logging.getLogger("websockets.server")
    if not any(isinstance(f, _QuietConnections) for f in websockets_server.filters):
        websockets_server.addFilter(_QuietConnections())


def _option(field: str) -> str:
    return "--" + field.replace("_", "-")


def _add_setting_options(parser: argparse.ArgumentParser) -> None:
    """One option per server setting, from its definition in ``server/config.py``."""
    from cardavia.server.config import settings, variable

    metavars: dict[object, str] = {int: "N", float: "NUMBER"}
    for name, info in settings().items():
        names = [_option(name)]
        if name == "redis_url":
            names.append("--redis")  # the option's name before every setting had one
        default = info.default if info.default != "" else "(empty)"
        parser.add_argument(
            *names,
            dest=name,
            metavar=metavars.get(info.annotation, name.split("_")[-1].upper()),
            help=f"{info.description} [{variable(name)}, default {default}]".replace("%", "%%"),
        )


def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import errno

    from cardavia.server.app import CardaviaServer
    from cardavia.server.config import CLUSTER_SCHEMES, ServerConfig, SettingError, settings
    from cardavia.server.store.base import SchemaTooNew, StorageUnavailable

    try:
        config = ServerConfig.from_env(**{name: getattr(args, name) for name in settings()})
    except SettingError as exc:
        print(f"cardavia serve: {exc.variable or _option(exc.field)}: {exc.reason}", file=sys.stderr)
        return 2
    if config.redis_url.partition("://")[0] in CLUSTER_SCHEMES:
        from cardavia.server.lobby_redis import cluster_answers

        if (why := asyncio.run(cluster_answers(config.redis_url))) is not None:
            given = _option("redis_url") if args.redis_url is not None else "CARDAVIA_REDIS_URL"
            print(
                f"cardavia serve: {given}: the Redis Cluster cannot serve the lobby: {why}", file=sys.stderr
            )
            return 2
    configure_logging(config.log_level)
    try:
        asyncio.run(CardaviaServer(config).serve_forever())
    except (StorageUnavailable, SchemaTooNew) as exc:  # the database cannot be reached, or is too new
        given = _option("database_url") if args.database_url is not None else "CARDAVIA_DATABASE_URL"
        why = (str(exc).splitlines() or [type(exc).__name__])[0]
        print(f"cardavia serve: {given}: the database cannot be opened: {why}", file=sys.stderr)
        return 2
    except OSError as exc:
        if exc.errno not in {errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES}:
            raise
        where = f"{config.host}:{config.port}"
        print(f"cardavia serve: cannot listen on {where}: {os.strerror(exc.errno).lower()}", file=sys.stderr)
        return 2
    return 0


_COMMAND_MODULES: tuple[str, ...] = (
    "cardavia.launcher",
    "cardavia.clients.cli.play",
    "cardavia.clients.cli.bot",
    "cardavia.clients.cli.swarm",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardavia", description="Cardavia card-game server and tools.")
    parser.add_argument("--version", action="version", version=f"cardavia {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    from cardavia.games.registry import GAMES

    games = sorted(GAMES)
    p = sub.add_parser("selfplay", help="play games between random players and print the results")
    p.add_argument("--game", required=True, choices=games)
    p.add_argument("--games", type=int, default=10, help="how many matches (default 10)")
    p.add_argument("--seed", default="0", help="match seed; the same seed gives the same output")
    p.add_argument("--record", metavar="FILE", help="write one record per match (JSON Lines)")
    p.set_defaults(run=_selfplay)

    p = sub.add_parser(
        "replay",
        help="replay game records and report any mismatch, or step through a finished match from a server",
    )
    p.add_argument(
        "file",
        metavar="FILE|RECORD",
        help="a JSON Lines file of records, or - for standard input; with --server a match's record id",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only mismatches and the summary")
    p.add_argument(
        "--server",
        metavar="URL",
        help="open the finished match RECORD from this server (ws://host:port/): every move, every hand"
        " and the strong bot's choice where a player's move differed",
    )
    p.add_argument("--lang", help="with --server: the language of the words (en it sv nb es pl)")
    p.add_argument("--step", action="store_true", help="with --server: wait for enter after each move")
    p.set_defaults(run=_replay)

    p = sub.add_parser(
        "serve",
        help="run the game server (options also from CARDAVIA_* variables)",
        description="Run the game server. Each option may also be given as the CARDAVIA_* variable "
        "named in its help; an option wins over its variable.",
    )
    _add_setting_options(p)
    p.set_defaults(run=_serve)

    p = sub.add_parser("schema", help="write the protocol's JSON Schema and AsyncAPI documents")
    p.add_argument("--out", default="protocol/schema", help="folder (default protocol/schema)")
    p.add_argument("--check", action="store_true", help="only check the files are current")
    p.set_defaults(run=_schema)

    p = sub.add_parser("rules", help="print a game's rules (Markdown)")
    p.add_argument("game", choices=games)
    p.add_argument("--lang", default="en", help="language of the text (en it sv nb es pl; default en)")
    p.set_defaults(run=_rules)

    p = sub.add_parser("decks", help="list the deck traditions")
    p.add_argument("--lang", default="en", help="language of names (en it sv nb es pl)")
    p.set_defaults(run=_decks)
    p = sub.add_parser("arena", help="play bots against each other and print win rates and timings")
    p.add_argument("--game", required=True, choices=games)
    p.add_argument(
        "--bots", help="two bots, like strong,basic (level or level:iterations); default strong,basic"
    )
    p.add_argument("--round-robin", action="store_true", help="every pair of --bots (default all levels)")
    p.add_argument(
        "--calibrate",
        action="store_true",
        help="a round robin that fits the bots' fixed ratings (basic = 1500) and prints them as JSON",
    )
    p.add_argument("--games", type=int, default=100, help="matches per pairing (default 100)")
    p.add_argument("--seed", default="0", help="arena seed; the same seed plays the same deals")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.set_defaults(run=_arena)

    # Commands of the upper layers: each module adds its own parser and imports
    # its heavy parts only when run.
    from importlib import import_module

    for module in _COMMAND_MODULES:
        import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from cardavia.games.errors import ClientError

    try:
        code: int = args.run(args)
    except ClientError as exc:
        print(f"cardavia {args.command}: {exc.message}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
