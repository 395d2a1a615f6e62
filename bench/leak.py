"""Memory after many whole matches: a node must give back what each match used.

    python -m bench.leak --matches 10000 --batch 1000
    python -m bench.leak --matches 2000 --batch 500 --games scopa,doudizhu --clients 16
    python -m bench.leak --url ws://127.0.0.1:8765/ [--pid PID]   # a node already running
    python -m bench.leak --matches 1500 --batch 300 --tracemalloc     # what stays, line by line
    python -m bench.leak --matches 3000 --batch 1000 --pattern drop   # each client drops at the end

A node that runs for weeks plays millions of matches, so anything it keeps
per match (a journal, a session, a cache entry, a timer) is a leak even if it
is a few kilobytes. This benchmark plays ``--matches`` whole matches the way
players do: each one is a new connection and a new session (``hello``),
``play_now`` against the server's bots, random legal moves from the client's
seat until ``match_result``, then, by ``--pattern``:

* ``leave`` (the default): ``leave`` and disconnect (the bot SDK's ``BotClient``);
* ``drop``: the socket is closed at once on ``match_result``, without ``leave``
  and without a WebSocket closing handshake, as when a player's network drops
  or the tab is killed: the node finds out from the TCP connection's end. This
  player speaks the protocol itself (hello, play_now, act), since the SDK
  always leaves and closes cleanly;

``--clients`` of them at a time. After each ``--batch`` it
waits until the node is idle (no connection, no room: finished rooms close
after their grace period) and prints the node's memory and its table gauges.

Where the node comes from:

* by default a ``cardavia serve`` subprocess (``--bot-delay 0``, records in a
  temporary folder, its collector paced as in production). It runs through a
  small bootstrap that starts one thread beside the server to answer the
  benchmark's questions about the Python heap (pymalloc and malloc bytes in
  use, objects the collector tracks), which nothing on the wire can tell;
  ``--full-gc`` also has it run a full collection (frozen objects included)
  before each measurement, to tell live memory from what only a full
  collection gives back, which the pacer may defer for up to an hour. Any
  ``CARDAVIA_*`` variable set for the benchmark reaches the node, so
  ``CARDAVIA_GC_FREEZE_SECONDS=0`` measures it without the pacer;
* ``--url``: a node already running; only its ``/metrics`` can be read (and
  its RSS, with ``--pid``, when it runs on this machine);
* ``--tracemalloc``: the server in this process (``CardaviaServer``, as the
  tests run it, without the pacer), under ``tracemalloc`` (about ten times
  slower: batches of a few hundred): after each batch the source lines whose
  allocations grew, the object types that grew, the cyclic garbage by type
  (and, for functions, by where they are defined), and every table of the
  server, lobby, record store, runner, metrics and node keeper, every
  module-level container and ``lru_cache`` of the code and the loop's timers
  that grew, with their growth per match.

A node of its own lifts the per-connection and per-address limits (every
player here comes from one address and never pauses) and shortens what
expires by design so that a batch need not wait for it: ``--grace`` for
finished rooms (60 s in production) and ``--session-seconds`` for sessions
that hold no seat (300 s); the code paths are the same.

The verdict at the end: memory after all matches within 10% of its value
after the first batch (so start-up, imports and warm caches do not count),
and every ``cardavia_table_size`` gauge back to its idle size (its value
before the first match). The exit status is 1 when either fails. A match
that fails (an error, a drop, a timeout) is counted and reported, and the
run goes on.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.server_load import free_port, rss_bytes

GAMES = "scopa,briscola,schnapsen,doudizhu"
MATCH_TIMEOUT = 120.0
"""Seconds one match may take, connection to disconnect, before it counts as failed."""
SETTLE_SECONDS = 1.0
"""Pause once the node is idle before measuring: the record thread and the collector's pacer catch up."""
UNLIMITED = {"rate_per_second": 10_000.0, "rate_burst": 10_000, "max_connections_per_ip": 0,
             "sessions_per_minute": 0}  # fmt: skip
"""Every player of this benchmark comes from one address and never waits between moves: the
per-connection and per-address limits are lifted (the tables behind them are still kept)."""
TABLE_GAUGE = "cardavia_table_size"
ROOT = Path(__file__).resolve().parent.parent
MiB = 2**20


# ----------------------------------------------------------------------- nodes
@dataclass
class Figures:
    """One measurement of a node, after a batch (or before the first)."""

    matches: int
    failed: int
    seconds: float
    rss: int | None = None
    heap: dict[str, float | None] = field(default_factory=dict)
    gauges: dict[str, float] = field(default_factory=dict)
    """Every sample of the gauges this benchmark watches, by name and labels as /metrics writes them."""

    @property
    def tables(self) -> dict[str, float]:
        return tables_of(self.gauges)

    @property
    def python_heap(self) -> float | None:
        parts = [self.heap.get("pymalloc"), self.heap.get("malloc")]
        if "traced" in self.heap:
            parts = [self.heap["traced"]]
        if any(p is None for p in parts):
            return None
        return float(sum(p for p in parts if p is not None))


def metrics_url(ws_url: str) -> str:
    base = ws_url.replace("wss://", "https://", 1).replace("ws://", "http://", 1)
    return base.rstrip("/") + "/metrics"


def read_gauges(url: str) -> dict[str, float]:
    """The watched samples of a node's /metrics: table sizes, connections, rooms and process memory."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    wanted = (TABLE_GAUGE, "cardavia_connections", "cardavia_rooms", "process_resident_memory_bytes")
    gauges: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name in wanted:
                labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
                gauges[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return gauges


def tables_of(gauges: dict[str, float]) -> dict[str, float]:
    """The ``cardavia_table_size`` gauges by table name."""
    prefix = TABLE_GAUGE + '{table="'
    return {k[len(prefix) : -2]: v for k, v in gauges.items() if k.startswith(prefix)}


def grown(baseline: dict[str, float], gauges: dict[str, float]) -> dict[str, tuple[float, float]]:
    """Tables larger than in ``baseline``: (then, now) by name."""
    before, now = tables_of(baseline), tables_of(gauges)
    return {k: (before.get(k, 0.0), v) for k, v in now.items() if v > before.get(k, 0.0)}


def busy(gauges: dict[str, float]) -> tuple[float, float]:
    """(connections, rooms) the node reports."""
    rooms = sum(v for k, v in gauges.items() if k.startswith("cardavia_rooms"))
    return gauges.get("cardavia_connections", 0.0), rooms


class Node:
    """A node under test: where clients connect, and what can be measured of it."""

    url = ""
    full_gc = False

    async def gauges(self) -> dict[str, float]:
        return await asyncio.to_thread(read_gauges, metrics_url(self.url))

    async def idle(self, timeout: float, expiry: float, baseline: dict[str, float]) -> dict[str, float]:
        """The gauges once no connection and no room is left (or when ``timeout`` is up), and then
        every table is back to its size in ``baseline`` (or ``expiry`` seconds have passed: what
        expires by design, such as sessions that hold no seat, has expired by then)."""
        deadline = time.monotonic() + timeout
        while True:
            gauges = await self.gauges()
            if busy(gauges) == (0, 0) or time.monotonic() > deadline:
                if busy(gauges) != (0, 0):
                    print(f"  (not idle after {timeout:.0f} s: connections, rooms = {busy(gauges)})")
                break
            await asyncio.sleep(0.5)
        deadline = time.monotonic() + expiry
        while time.monotonic() < deadline and grown(baseline, gauges):
            await asyncio.sleep(0.5)
            gauges = await self.gauges()
        return gauges

    def describe(self) -> str:
        return "already running"

    async def measure(self, figures: Figures) -> None:
        """Fill in the memory figures."""

    async def close(self) -> None:
        pass


class SpawnedNode(Node):
    """A ``cardavia serve`` process of its own on a free loopback port."""

    def __init__(self, folder: Path, settings: dict[str, Any], *, full_gc: bool) -> None:
        self.folder = folder
        self.full_gc = full_gc
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        self.questions = folder / "questions"
        self.questions.mkdir()
        self.log = folder / "node.log"
        self._asked = 0
        env = {
            **os.environ,
            **{f"CARDAVIA_{name.upper()}": str(value) for name, value in settings.items()},
            "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
        }
        code = "import sys; from bench.leak_node import node_main; sys.exit(node_main(sys.argv[1:]))"
        command = [sys.executable, "-c", code, str(self.questions), "serve", "--port", str(self.port),
                   "--bot-delay", "0", "--records-dir", str(folder / "records")]  # fmt: skip
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )

    async def started(self) -> None:
        for _ in range(400):
            if self.proc.poll() is not None:
                raise RuntimeError(f"the node exited with {self.proc.returncode}: {self.tail()}")
            with contextlib.suppress(OSError):
                await self.gauges()
                return
            await asyncio.sleep(0.05)
        raise RuntimeError(f"the node did not start: {self.tail()}")

    def describe(self) -> str:
        return f"cardavia serve, pid {self.proc.pid}, log {self.log}"

    def tail(self, lines: int = 20) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    async def measure(self, figures: Figures) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"the node exited with {self.proc.returncode}: {self.tail()}")
        figures.rss = rss_bytes(self.proc.pid)
        self._asked += 1
        ask = self.questions / f"ask-{self._asked}"
        answer = self.questions / f"answer-{self._asked}.json"
        ask.write_text("full" if self.full_gc else "")
        for _ in range(600):
            if answer.exists():
                figures.heap = json.loads(answer.read_text())
                if "error" in figures.heap:
                    print(f"  (the node could not measure its heap: {figures.heap.pop('error')})")
                answer.unlink()
                break
            await asyncio.sleep(0.05)
        else:
            print("  (the node did not answer about its heap within 30 s)")
        if self.full_gc:  # after a full collection the RSS says what live memory needs
            figures.rss = rss_bytes(self.proc.pid)

    async def close(self) -> None:
        self.proc.terminate()
        try:
            await asyncio.to_thread(self.proc.wait, 20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class RemoteNode(Node):
    """A node already running: its /metrics, and its RSS when ``pid`` names it on this machine."""

    def __init__(self, url: str, pid: int | None) -> None:
        self.url, self.pid = url, pid

    def describe(self) -> str:
        return "already running" + (f", pid {self.pid}" if self.pid is not None else "")

    async def measure(self, figures: Figures) -> None:
        if self.pid is not None:
            figures.rss = rss_bytes(self.pid)
        elif "process_resident_memory_bytes" in figures.gauges:
            figures.rss = int(figures.gauges["process_resident_memory_bytes"])


# ---------------------------------------------------------------------- players
@dataclass
class Tally:
    done: int = 0
    failed: collections.Counter[str] = field(default_factory=collections.Counter)


async def play_one(url: str, game: str, number: int, args: argparse.Namespace, tally: Tally) -> None:
    """One player's visit: connect, hello, play now against the bots, random moves to the end,
    then leave and disconnect, or drop (``args.pattern``).

    A failure of any kind is counted by its name, never raised: one bad match must
    not end a run of thousands.
    """
    rng = random.Random(f"{args.seed}/{number}")
    try:
        async with asyncio.timeout(args.match_timeout):
            if args.pattern == "drop":
                await play_and_drop(url, game, number, rng, args)
            else:
                await play_and_leave(url, game, number, rng, args)
    except TimeoutError:
        tally.failed["timeout"] += 1
    except Exception as exc:
        code = getattr(exc, "code", None)  # a refused request: its wire code says why
        tally.failed[type(exc).__name__ + (f" {code}" if isinstance(code, str) else "")] += 1
    else:
        tally.done += 1


async def play_and_leave(
    url: str, game: str, number: int, rng: random.Random, args: argparse.Namespace
) -> None:
    """``--pattern leave``: the bot SDK's ``BotClient`` plays one match, leaves and disconnects."""
    from cardavia.clients.cli.sdk import BotClient, Turn

    def policy(turn: Turn) -> dict[str, Any]:
        return rng.choice(turn.legal)

    client = BotClient(url, policy, game, name=f"leak-{number}", play_now=True, bot_level=args.bot_level,
                       games=1, rate=args.rate, reconnect=False)  # fmt: skip
    await client.run()


class Refused(Exception):
    """The node answered a request of the match with an error; ``code`` is its wire code."""

    def __init__(self, error: Any) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.code = error.code


async def play_and_drop(
    url: str, game: str, number: int, rng: random.Random, args: argparse.Namespace
) -> None:
    """``--pattern drop``: hello, play_now, a random legal move on each ``your_turn``, and on
    ``match_result`` the TCP connection is ended at once: no ``leave``, no closing handshake."""
    from websockets.asyncio.client import connect

    from cardavia.clients.cli.sdk import BURST, Pacer
    from cardavia.protocol import messages as m
    from cardavia.protocol.client import Requests
    from cardavia.protocol.codec import decode_server, encode

    requests, pacer = Requests(), Pacer(args.rate, BURST)
    ws = await connect(url, compression=None, max_size=2**22)
    try:
        await ws.send(encode(requests.hello(f"leak-{number}")))
        await ws.send(encode(requests.play_now(game, args.bot_level)))
        async for frame in ws:
            message = decode_server(frame)
            if isinstance(message, m.Error):
                raise Refused(message)
            if isinstance(message, m.YourTurn):
                if delay := pacer.delay():
                    await asyncio.sleep(delay)
                await ws.send(encode(requests.act(rng.choice(message.legal))))
            elif isinstance(message, m.MatchResult):
                return
        raise ConnectionError("the node closed the connection before the match's end")
    finally:
        ws.transport.abort()  # the network drops: the node sees the TCP connection end


async def play_batch(url: str, first: int, count: int, args: argparse.Namespace) -> Tally:
    """``count`` matches, ``args.clients`` at a time, the games taken in turn."""
    from cardavia.clients.cli.progress import Progress

    tally = Tally()
    numbers = iter(range(first, first + count))
    games: list[str] = args.games

    async def player() -> None:
        for number in numbers:  # one iterator shared by every player: each number is played once
            await play_one(url, games[number % len(games)], number, args, tally)
            failed = sum(tally.failed.values())
            progress.count(tally.done + failed, count, "matches", f"failed {failed}" if failed else "")

    progress = Progress(every=15.0)
    try:
        await asyncio.gather(*(player() for _ in range(args.clients)))
    finally:
        progress.close()
    return tally


# ---------------------------------------------------------------------- report
def row(f: Figures) -> str:
    def mib(value: float | None) -> str:
        return f"{value / MiB:9.1f}" if value is not None else f"{'-':>9}"

    connections, rooms = busy(f.gauges)
    objects, garbage = f.heap.get("objects"), f.heap.get("garbage")
    counts = [f"{int(v):>{w}}" if v is not None else f"{'-':>{w}}" for v, w in ((objects, 10), (garbage, 8))]
    return (
        f"{f.matches:>8} {f.failed:>6} {f.seconds:>7.0f} {mib(f.rss)} {mib(f.python_heap)} "
        f"{mib(f.heap.get('pymalloc'))} {mib(f.heap.get('malloc'))} "
        f"{counts[0]} {counts[1]} "
        f"{connections:>5.0f} {rooms:>5.0f}"
    )


HEADER = (
    f"{'matches':>8} {'failed':>6} {'seconds':>7} {'RSS MiB':>9} {'heap MiB':>9} {'pymalloc':>9} "
    f"{'malloc':>9} {'objects':>10} {'garbage':>8} {'conns':>5} {'rooms':>5}"
)


def print_tables(f: Figures) -> None:
    tables = f.tables
    if tables:
        print("         tables: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(tables.items())))
    rooms = {k: v for k, v in f.gauges.items() if k.startswith("cardavia_rooms") and v}
    if rooms:
        print(
            "         rooms: " + ", ".join(f"{k[len('cardavia_rooms') :]}={v:.0f}" for k, v in rooms.items())
        )


def verdict(rows: list[Figures], tolerance: float) -> bool:
    """Print the verdict against the target; True when it is met."""
    idle, first, last = rows[0], rows[1] if len(rows) > 1 else rows[0], rows[-1]
    ok = True
    print()
    failed = sum(r.failed for r in rows)
    print(f"matches played {last.matches}, failed {failed}")
    traced = "traced" in last.heap
    # The target is the process's memory (the traced heap in this process); the heap says where it went.
    checks = (
        [("Python heap (tracemalloc)", first.python_heap, last.python_heap, True)]
        if traced
        else [
            ("RSS", first.rss, last.rss, True),
            ("Python heap (pymalloc + malloc)", first.python_heap, last.python_heap, False),
        ]
    )
    for label, before, after, counts in checks:
        if before is None or after is None or last.matches == first.matches:
            continue
        change = (after - before) / before
        per_match = (after - before) / (last.matches - first.matches)
        good = change <= tolerance
        print(
            f"{label}: {before / MiB:.1f} MiB after {first.matches} matches, {after / MiB:.1f} MiB after "
            f"{last.matches}: {change:+.1%}, {per_match / 1024:+.2f} KiB per match "
            f"(target: within {tolerance:.0%}) {'PASS' if good else 'FAIL'}"
        )
        ok = ok and (good or not counts)
    if last.rss is None and not traced:
        print("memory: not measured (a node on another machine: give --pid for one on this machine)")
    tables = last.tables
    if not tables and not idle.tables:
        print(f"tables: this node has no {TABLE_GAUGE} gauges: not checked")
    else:
        larger = grown(idle.gauges, last.gauges)
        for name, (before, after) in sorted(larger.items()):
            print(f"table {name}: {before:.0f} when idle before the first match, {after:.0f} now: FAIL")
        if not larger:
            print(f"tables: all {len(tables)} back to their idle size: PASS")
        ok = ok and not larger
    connections, rooms = busy(last.gauges)
    if connections or rooms:
        print(f"the node was not idle at the end: {connections:.0f} connections, {rooms:.0f} rooms: FAIL")
        ok = False
    print(f"verdict: {'PASS' if ok else 'FAIL'}")
    return ok


# ------------------------------------------------------------------------- run
async def run(args: argparse.Namespace, folder: Path) -> bool:
    node: Node
    settings = {**UNLIMITED, "grace_seconds": args.grace, "session_seconds": args.session_seconds}
    if args.tracemalloc:
        from bench.leak_trace import TracedNode

        node = TracedNode(folder, settings, args.frames)
        await node.started()
    elif args.url:
        node = RemoteNode(args.url, args.pid)
    else:
        node = SpawnedNode(folder, settings, full_gc=args.full_gc)
        await node.started()
    idle_timeout = args.idle_timeout if args.idle_timeout is not None else args.grace + 60.0
    expiry = args.session_seconds + 2.0
    print(
        f"{args.matches} matches in batches of {args.batch}, {args.clients} clients, pattern "
        f"{args.pattern}, games {','.join(args.games)}; node {node.url} ({node.describe()})"
    )
    rows: list[Figures] = []
    started = time.monotonic()
    try:
        idle = Figures(0, 0, 0.0, gauges=await node.idle(idle_timeout, 0.0, {}))
        await node.measure(idle)
        rows.append(idle)
        print(HEADER)
        print(row(idle))
        print_tables(idle)
        done = failed = 0
        while done + failed < args.matches:
            count = min(args.batch, args.matches - done - failed)
            tally = await play_batch(node.url, done + failed, count, args)
            done, failed = done + tally.done, failed + sum(tally.failed.values())
            if tally.failed:
                print("  failed: " + ", ".join(f"{k} {v}" for k, v in tally.failed.most_common()))
            gauges = await node.idle(idle_timeout, expiry, idle.gauges)
            await asyncio.sleep(SETTLE_SECONDS)
            figures = Figures(done + failed, sum(tally.failed.values()), time.monotonic() - started,
                              gauges=gauges)  # fmt: skip
            await node.measure(figures)
            rows.append(figures)
            print(row(figures), flush=True)
            print_tables(figures)
    finally:
        await node.close()
    return verdict(rows, args.tolerance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--matches", type=int, default=10_000, help="matches in all (default 10000)")
    parser.add_argument("--batch", type=int, default=1000, help="matches between measurements (default 1000)")
    parser.add_argument("--games", default=GAMES, help=f"games, played in turn (default {GAMES})")
    parser.add_argument("--clients", type=int, default=16, help="players at a time (default 16)")
    parser.add_argument("--url", help="a node already running (only its /metrics, and RSS with --pid)")
    parser.add_argument("--pid", type=int, help="with --url: the node's process id, to read its RSS")
    parser.add_argument(
        "--tracemalloc", action="store_true", help="the server in this process, under tracemalloc: what grew"
    )
    parser.add_argument("--frames", type=int, default=6, help="frames tracemalloc keeps (default 6)")
    parser.add_argument(
        "--full-gc", action="store_true",
        help="the node collects everything (frozen objects too) before each measurement",
    )  # fmt: skip
    parser.add_argument(
        "--grace", type=float, default=5.0,
        help="the node's grace_seconds: how long a finished room waits before it closes (default 5; "
        "production 60 makes every batch wait a minute for the same closing path)",
    )  # fmt: skip
    parser.add_argument(
        "--session-seconds", type=float, default=5.0,
        help="the node's session_seconds, where it has them: how long a session that holds no seat "
        "outlives its connection (default 5, production 300, for the same reason)",
    )  # fmt: skip
    parser.add_argument(
        "--idle-timeout", type=float, help="longest wait for an idle node (default grace + 60)"
    )
    parser.add_argument(
        "--pattern", choices=("leave", "drop"), default="leave",
        help="how each player goes after match_result: leave then disconnect (default), or drop the "
        "socket at once, without leave or a closing handshake",
    )  # fmt: skip
    parser.add_argument("--bot-level", help="level of the server's bots (default: the game's default)")
    parser.add_argument(
        "--rate", type=float, help="most actions a second per client (default: none on a node of its own, "
        "16 on --url, under the server's default limit)",
    )  # fmt: skip
    parser.add_argument("--match-timeout", type=float, default=MATCH_TIMEOUT)
    parser.add_argument("--tolerance", type=float, default=0.10, help="allowed memory growth (default 0.10)")
    parser.add_argument("--seed", default="leak", help="seed of the clients' random moves")
    args = parser.parse_args()
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    from cardavia.games.registry import GAMES as REGISTERED

    unknown = [g for g in args.games if g not in REGISTERED]
    if unknown or not args.games:
        parser.error(f"unknown games {unknown}; known: {', '.join(sorted(REGISTERED))}")
    if args.matches < 1 or args.batch < 1 or args.clients < 1:
        parser.error("--matches, --batch and --clients are at least 1")
    if args.rate is None and args.url:
        args.rate = 16.0
    with tempfile.TemporaryDirectory(prefix="cardavia-leak-") as folder:
        ok = asyncio.run(run(args, Path(folder)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
