"""Saturation throughput of this checkout's server against another checkout's, in one run.

    python -m bench.compare_servers --against /path/to/other/checkout [--repeat 5]
    python -m bench.compare_servers --against build/compiled/site --against /path/to/old/checkout
    python -m bench.compare_servers --nodes 2          # two node processes on one Redis lobby
    python -m bench.compare_servers --against /path/to/old/checkout --games briscola,doudizhu

Each repetition runs, back to back on the same machine: this checkout's server,
the other checkout's (each started with its folder first on ``PYTHONPATH``, so
its own ``cardavia`` is the one imported), and a bare ``websockets`` echo server that
answers each request with three frames (what an action sends its player: its
delta, the bot's delta, ``your_turn``) with no work at all. The load is
``bench/server_load.py``'s: ``--clients`` lean clients, each in a room of its own
with random bots in every other seat (``play_now``, bot delay 0: one bot in
Briscola, Scopa and Schnapsen, two in Dou Dizhu's three seats), acting the
moment their turn comes. ``--games`` names the games (all four by default);
each repetition runs every game on every server in turn, a game's servers back
to back, and one echo. Figures are medians over the repetitions, one row per
game and server: actions per second, the server's CPU (all its processes) and
its microseconds per action, actions per second of server CPU (a core's
worth), that rate against the first ``--against`` server's in the same game,
and the actions per second against the echo's round trips per second (the
three-frame echo for every game, one yardstick; a Dou Dizhu action sends its
player four frames, the two bots' deltas among them). The two ratios are
taken within each repetition (its servers back to back, its own echo) before
the median: the machine's speed can move twofold between repetitions, and a
ratio of two medians from different moments would carry that. Then every two
servers are compared game by game, with each repetition's ratio.

A server that cannot give the load a game's room (an older checkout without the
game, the random bot or a field the load sends) says so to one client that asks
for a room before each run: its refusal is printed and the game is skipped for
that server from then on, as is a game whose run counts no action at all. A
server that does not start is skipped for every game.

``--against`` may be given more than once: every server runs in turn in each
repetition. An installed copy's folder works too: ``build/compiled/site``, where
``scripts/test-compiled`` installs the compiled build, runs that build.

``--other-env`` sets a variable for the other servers alone: with ``--against``
this same checkout, it compares two settings.

With ``--nodes N`` each server is N ``cardavia serve`` processes sharing a Redis
lobby (a key prefix of their own, deleted afterwards), each client connecting
to one of them in turn: rooms stay on the node that made them. ``--redis`` puts
a single node on the Redis lobby too, so that one and two processes compare
with the same journaling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, get_args

import msgpack
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.server_load import (
    SERVER_ENV,
    cpu_seconds,
    echo_client,
    free_port,
    play_now_frame,
    player,
    run_clients,
    start,
)
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import encode

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("CARDAVIA_BENCH_REDIS", "redis://127.0.0.1:6379/0")
GAMES = ("briscola", "scopa", "schnapsen", "doudizhu")
"""The default ``--games``: Briscola first, the game of every earlier figure."""
PROBE_SECONDS = 10.0
"""How long the probe waits for its first turn before it calls the game unplayable there."""


class Unplayable(Exception):
    """A server cannot run a game's load; the message says why, for the printed skip."""


class Dead(Unplayable):
    """A server did not start: none of its games can run."""


@dataclass
class Run:
    rate: float
    cpu: float
    """Server CPU, in cores (1.0: one core busy the whole time)."""
    p50: float
    p99: float
    errors: int
    """Error frames the clients got in the whole run (warm-up included)."""

    @property
    def per_core(self) -> float:
        return self.rate / self.cpu if self.cpu else 0.0


def servers(
    checkout: Path, nodes: int, extra: dict[str, str], redis: bool = False
) -> tuple[list[subprocess.Popen[bytes]], list[str], str]:
    """Start ``nodes`` server processes of ``checkout``; (processes, their URLs, the lobby prefix)."""
    env = SERVER_ENV | extra | {"PYTHONPATH": str(checkout)}  # its own ``cardavia`` (run from it, too)
    prefix = f"cardavia-bench:{uuid.uuid4().hex}:"
    if redis:
        env |= {"CARDAVIA_REDIS_URL": REDIS, "CARDAVIA_REDIS_PREFIX": prefix}
    procs: list[subprocess.Popen[bytes]] = []
    urls = []
    for index in range(nodes):
        port = free_port()
        node_env = env | ({"CARDAVIA_NODE_ID": f"bench-{index}"} if redis else {})
        command = [sys.executable, "-m", "cardavia", "serve", "--port", str(port)]
        try:
            procs.append(start(command, port, node_env, cwd=str(checkout)))
        except RuntimeError as failed:
            stop(procs, prefix, redis)
            raise Dead(f"`python -m cardavia serve` from {checkout} did not open its port") from failed
        urls.append(f"ws://127.0.0.1:{port}/")
    return procs, urls, prefix


def stop(procs: list[subprocess.Popen[bytes]], prefix: str, redis: bool) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            print(f"  (a server took over 20 s to stop after SIGTERM: killed; pid {proc.pid})", flush=True)
            proc.kill()
            proc.wait()
    if redis:
        from redis import Redis

        client = Redis.from_url(REDIS)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


async def refusal(url: str, game: str) -> str | None:
    """Why the server at ``url`` cannot give the load a room of ``game``; None when it can.

    One client opens as the load's clients do and waits for its first turn. A server
    that answers with an error (an unknown game, bot level or field) would answer
    every client of the load so, and the run would count nothing; the error's code
    and text say what is missing. The client leaves at once: a bot finishes its
    match, before the counted seconds start.
    """
    requests = Requests()
    try:
        async with connect(url, compression=None, max_size=2**20) as ws:
            await ws.send(encode(requests.hello("probe")))
            await ws.send(play_now_frame(requests.next_id(), game, "random"))
            async with asyncio.timeout(PROBE_SECONDS):
                while True:
                    frame = await ws.recv()
                    if not isinstance(frame, bytes):
                        return "it sent a text frame (the protocol's frames are binary msgpack)"
                    message = msgpack.unpackb(frame)
                    if message.get("type") == "error":
                        return f"it answered play_now with {message.get('code')}: {message.get('message')}"
                    if message.get("type") == "your_turn":
                        await ws.send(encode(requests.leave()))
                        return None
    except TimeoutError:
        return f"no turn came within {PROBE_SECONDS:.0f} s of play_now"
    except (ConnectionClosed, OSError) as closed:
        return f"the connection failed ({closed})"
    except ValueError as unreadable:  # msgpack's errors
        return f"it sent a frame that is not msgpack ({unreadable})"


def measure(checkout: Path, args: argparse.Namespace, extra: dict[str, str], game: str) -> Run:
    """One run of ``game``'s load on a fresh server of ``checkout``; ``Unplayable`` when it cannot run."""
    on_redis = args.nodes > 1 or args.redis
    procs, urls, prefix = servers(checkout, args.nodes, extra, on_redis)
    try:
        reason = asyncio.run(refusal(urls[0], game))
        if reason is not None:
            raise Unplayable(reason)
        time.sleep(0.5)
        marks: list[float] = []

        async def load() -> tuple[float, float, list[float], int]:
            stats, elapsed = await run_clients(
                lambda i, until, st: player(urls[i % len(urls)], game, until, 0.0, st, i),
                args.clients,
                args.seconds,
                args.warmup,
                0,
            )
            return stats.actions / elapsed, elapsed, stats.latencies, stats.errors

        async def timed() -> tuple[float, float, list[float], int]:
            async def mark() -> None:
                await asyncio.sleep(args.warmup)
                marks.append(sum(cpu_seconds(p.pid) for p in procs))

            result, _ = await asyncio.gather(load(), mark())
            return result

        rate, elapsed, latencies, errors = asyncio.run(timed())
        cpu = (sum(cpu_seconds(p.pid) for p in procs) - marks[0]) / elapsed
    finally:
        stop(procs, prefix, on_redis)
    if not latencies:
        raise Unplayable(f"the run counted no action ({errors} error frames)")
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return Run(rate, cpu, ordered[len(ordered) // 2], p99, errors)


def echo(args: argparse.Namespace) -> float:
    port = free_port()
    proc = start([sys.executable, "-m", "bench.echo_server", str(port), "3"], port)
    try:
        stats, elapsed = asyncio.run(
            run_clients(
                lambda i, until, st: echo_client(f"ws://127.0.0.1:{port}/", 45, until, st, 0.0, i, 3),
                args.clients,
                args.seconds,
            )
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return stats.actions / elapsed


def game_list(text: str) -> list[str]:
    """``--games``: comma-separated names of this checkout's games, each once."""
    known = get_args(m.GameId)
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown game {unknown[0]!r}; the games: {', '.join(GAMES)}")
    if not names:
        raise argparse.ArgumentTypeError("no game named")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError("a game is named twice")
    return names


_N = TypeVar("_N", int, float)


def _parsed(text: str, parse: Callable[[str], _N], what: str) -> _N:
    try:
        return parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None


def at_least_one(text: str) -> int:
    """``--repeat``, ``--clients``, ``--nodes``: a whole number of one or more (none leaves no median)."""
    value = _parsed(text, int, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: at least 1")
    return value


def seconds(text: str) -> float:
    """``--seconds``: more than none (the rates divide by it)."""
    value = _parsed(text, float, "a number")
    if not value > 0:  # NaN too
        raise argparse.ArgumentTypeError(f"{value}: more than 0")
    return value


def checkout_folder(text: str) -> Path:
    """``--against``: a folder holding a ``cardavia`` package (a checkout, or an installed copy's folder).

    Anything else would put nothing on the server's ``PYTHONPATH``, and ``python -m cardavia``
    would quietly run this checkout's installed server, compared against itself.
    """
    path = Path(text).resolve()
    if not (path / "cardavia").is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no cardavia folder there (a checkout or a site folder)")
    return path


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--against",
        type=checkout_folder,
        action="append",
        default=[],
        help="another checkout of Cardavia (or an installed copy's folder) to run alongside; repeatable",
    )
    parser.add_argument(
        "--games",
        type=game_list,
        default=list(GAMES),
        help=f"comma-separated games to load (default {','.join(GAMES)})",
    )
    parser.add_argument("--repeat", type=at_least_one, default=5, help="repetitions (default 5)")
    parser.add_argument("--clients", type=at_least_one, default=100, help="clients (default 100)")
    parser.add_argument("--seconds", type=seconds, default=10.0, help="counted seconds per run (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before counting (default 3)")
    parser.add_argument(
        "--nodes", type=at_least_one, default=1, help="server processes per server (default 1)"
    )
    parser.add_argument(
        "--redis", action="store_true", help="the Redis lobby with one node too (more than one always has it)"
    )
    parser.add_argument(
        "--other-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the other checkouts' servers only (e.g. CARDAVIA_EVENT_LOOP=asyncio)",
    )
    return parser.parse_args()


def report(
    games: list[str],
    runs: dict[tuple[str, str], list[Run]],
    skipped: dict[tuple[str, str], str],
    names: list[str],
    echoes: list[float],
) -> None:
    """The table of medians, a row per game and server, then every two servers paired.

    The machine's own speed moves between repetitions (the echo's rate by up to twofold within
    one run), so the figures that compare are taken within a repetition first: a server's share
    of the echo is its rate over that repetition's echo, two servers' ratio is that of their runs
    back to back in one repetition; the medians are of those. A server's list of runs holds its
    first repetitions in order (a skip ends it), so it pairs with the echoes and the other lists
    index by index.
    """
    base = names[1] if len(names) > 1 else None
    against = f"per core against {base}" if base else "per core against the first --against"
    print(
        f"| game | server | actions/s | server CPU (cores) | CPU µs per action | actions/s per core "
        f"| {against} | p50 ms | p99 ms | of the three-frame echo |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    median = statistics.median
    for game in games:
        for name in names:
            group = runs[name, game]
            if (name, game) in skipped or not group:
                print(f"| {game} | {name} | skipped: {skipped.get((name, game), 'no run')} | | | | | | | |")
                continue
            rate, per_core = median(r.rate for r in group), median(r.per_core for r in group)
            paired = _paired(group, runs[base, game]) if base and name != base else []
            ratio = f"{median(paired):.2f}" if paired else ("1.00" if name == base else "")
            share = median(r.rate / echo for r, echo in zip(group, echoes, strict=False))
            print(
                f"| {game} | {name} | {rate:,.0f} | {median(r.cpu for r in group):.2f} "
                f"| {1e6 / per_core:,.0f} | {per_core:,.0f} | {ratio} "
                f"| {median(r.p50 for r in group) * 1e3:.1f} | {median(r.p99 for r in group) * 1e3:.1f} "
                f"| {share:.0%} |"
            )
    print(
        f"| | three-frame echo | {median(echoes):,.0f} round trips/s "
        f"(from {min(echoes):,.0f} to {max(echoes):,.0f}) | | | | | | | |"
    )
    for game in games:
        for number, name in enumerate(names):
            for other in names[number + 1 :]:
                paired = _paired(runs[name, game], runs[other, game])
                if not paired:
                    continue  # a game skipped on either side from the start: nothing to pair
                each = ", ".join(f"{ratio:.2f}" for ratio in paired)
                print(f"\n{game}, actions/s per core, {name} against {other}: {median(paired):.2f} times")
                print(f"  (each repetition: {each})")


def _paired(mine: list[Run], theirs: list[Run]) -> list[float]:
    """Each repetition's ratio of actions per core, over the repetitions both servers ran."""
    return [a.per_core / b.per_core for a, b in zip(mine, theirs, strict=False)]


def main() -> None:
    args = parse()
    codes = {"this checkout": ROOT}
    for path in args.against:
        codes["other checkout" if len(args.against) == 1 else str(path)] = path
    other_env = dict(item.split("=", 1) for item in args.other_env)
    extras = {name: {} if name == "this checkout" else other_env for name in codes}
    runs: dict[tuple[str, str], list[Run]] = {(name, game): [] for name in codes for game in args.games}
    skipped: dict[tuple[str, str], str] = {}
    echoes: list[float] = []
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{os.cpu_count()} cores, load average {load}; {args.clients} clients, {args.nodes} node(s); "
        f"games {', '.join(args.games)}"
    )
    for repetition in range(args.repeat):
        for game in args.games:
            for name, checkout in codes.items():
                if (name, game) in skipped:
                    continue
                try:
                    run = measure(checkout, args, extras[name], game)
                except Unplayable as why:
                    for lost in args.games if isinstance(why, Dead) else [game]:
                        skipped[name, lost] = str(why)
                    what = "every game" if isinstance(why, Dead) else game
                    print(f"  {repetition + 1}. {name}, {what}: skipped from now on: {why}", flush=True)
                    continue
                runs[name, game].append(run)
                print(
                    f"  {repetition + 1}. {name}, {game}: {run.rate:,.0f} actions/s, "
                    f"server CPU {run.cpu:.2f} cores, {run.per_core:,.0f} actions/s per core, "
                    f"p50 {run.p50 * 1e3:.1f} ms, p99 {run.p99 * 1e3:.1f} ms"
                    + (f", {run.errors} error frames" if run.errors else ""),
                    flush=True,
                )
        echoes.append(echo(args))
        print(f"  {repetition + 1}. three-frame echo: {echoes[-1]:,.0f} round trips/s", flush=True)
    print()
    report(args.games, runs, skipped, list(codes), echoes)


if __name__ == "__main__":
    main()
