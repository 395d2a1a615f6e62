"""The load generator behind ``cardavia swarm``: many network clients in many rooms, playing random moves.

``run_swarm`` opens ``clients`` connections spread over ``rooms`` rooms, so
that several swarm clients share a room (one creates it, private, with
``humans`` = its group's size; the others join by code; the seats left over
get the server's bots), and every client answers its turns with a random
legal action, optionally after a think delay. Each client is a ``Session``,
so drops are resumed and counted like any player's. Latency is measured from
sending an ``act`` to receiving the delta that acknowledges it. Every player
in a room asks for a rematch whenever a match ends (a rematch starts once all
of them have), until the time is up.

``cardavia swarm`` prints a live line (actions per second and latency
percentiles of the last second) and a final summary; the server benchmark
calls ``run_swarm`` directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from websockets.exceptions import ConnectionClosed

from cardavia.clients.cli.progress import Progress
from cardavia.clients.cli.sdk import Pacer
from cardavia.clients.cli.session import ClientRequestError, Session, SessionClosed, SessionInterrupted
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m

CLOSE_TRY_LATER = 1013

ACT_TIMEOUT = 10.0
RATE_LIMITED_PAUSE = 1.0
PACE_BURST = 10
"""Messages a paced client may send at once: well under the server's default burst (40)."""

LIMIT_HINTS = {
    "rate_limited": "the server's message rate per connection (CARDAVIA_RATE_PER_SECOND, "
    "CARDAVIA_RATE_BURST; 20/s in bursts of 40 by default) was exceeded: raise them on the "
    "server, or lower --rate",
    "setup_rate_limited": "the server's new sessions per address (CARDAVIA_SESSIONS_PER_MINUTE, "
    "60 by default) were used up: raise it on the server, or wait a minute between runs",
    "setup_try_later": "the server's connections per address (CARDAVIA_MAX_CONNECTIONS_PER_IP, "
    "64 by default) were exceeded: raise it on the server, or use fewer --clients",
}
"""Error codes that mean a server limit was hit, and the server setting that sets it."""


@dataclass
class SwarmReport:
    """What a swarm run measured; ``errors`` counts wire error codes and client-side failures."""

    game: str
    clients: int
    rooms: int
    seconds: float = 0.0
    """Seconds measured (after set-up and warm-up)."""
    setup_seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time this process (the load generator) used while measuring."""
    actions: int = 0
    matches: int = 0
    reconnects: int = 0
    latencies: list[float] = field(default_factory=list, repr=False)
    """Seconds from each counted ``act`` to the delta acknowledging it."""
    errors: Counter[str] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def latency_ms(self, quantile: float) -> float:
        """The latency below which ``quantile`` of the counted actions were acknowledged, in ms."""
        return percentile(self.latencies, quantile) * 1e3

    def limits_hit(self) -> list[str]:
        """For each server limit the run ran into, which setting to raise."""
        return [hint for code, hint in LIMIT_HINTS.items() if self.errors.get(code)]

    def summary(self) -> str:
        errors = ", ".join(f"{code} {n}" for code, n in self.errors.most_common()) or "none"
        return "\n".join(
            [
                f"swarm: {self.clients} clients in {self.rooms} {self.game} rooms, {self.seconds:.1f} s "
                f"(set-up {self.setup_seconds:.1f} s)",
                f"  actions {self.actions}, {self.actions_per_second:.1f}/s; matches finished {self.matches}",
                f"  act → delta latency ms: p50 {self.latency_ms(0.5):.2f} p95 {self.latency_ms(0.95):.2f} "
                f"p99 {self.latency_ms(0.99):.2f} max {self.latency_ms(1.0):.2f}",
                f"  reconnects {self.reconnects}; errors: {errors}; load generator CPU "
                f"{self.cpu_seconds / self.seconds if self.seconds else 0:.0%} of one core",
                *(f"  limit hit: {hint}" for hint in self.limits_hit()),
            ]
        )


def percentile(values: list[float], quantile: float) -> float:
    """The nearest-rank percentile (NaN for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))]


def groups(clients: int, rooms: int, players: int) -> list[list[int]]:
    """Client numbers per room, as even as can be; refuses more people than a room has seats."""
    if clients < 1 or rooms < 1:
        raise ValueError("a swarm needs at least one client and one room")
    if rooms > clients:
        raise ValueError(f"{rooms} rooms need at least {rooms} clients, one to create each")
    if math.ceil(clients / rooms) > players:
        raise ValueError(
            f"{clients} clients in {rooms} rooms puts {math.ceil(clients / rooms)} people in rooms of "
            f"{players} seats: use at least {math.ceil(clients / players)} rooms"
        )
    return [list(range(r, clients, rooms)) for r in range(rooms)]


class _Run:
    """The shared tallies of one swarm run."""

    def __init__(
        self,
        report: SwarmReport,
        think: float,
        seed: str | None,
        count_from: float,
        rate: float | None = None,
    ) -> None:
        self.report = report
        self.think = think
        self.rate = rate
        """Most messages one client sends a second (None: as fast as answers come)."""
        self.seed = seed
        self.count_from = count_from
        self.window: list[float] = []
        """Latencies since the last live line."""
        self.window_actions = 0
        self.stopped = False

    def counted(self) -> bool:
        return time.monotonic() >= self.count_from

    def acted(self, latency: float) -> None:
        self.window_actions += 1  # the live line shows the warm-up too
        self.window.append(latency)
        if self.counted():
            self.report.actions += 1
            self.report.latencies.append(latency)

    def failed(self, code: str) -> None:
        self.report.errors[code] += 1


class _Pace:
    """One client's messages kept within ``rate`` a second (bursts of ``PACE_BURST``), so that a
    swarm stays within the server's message rate limit instead of measuring how fast it refuses."""

    def __init__(self, rate: float | None) -> None:
        self.bucket = Pacer(rate, PACE_BURST)

    async def wait(self) -> None:
        delay = self.bucket.delay()
        if delay:
            await asyncio.sleep(delay)


async def _room(url: str, game: str, members: list[int], bot_level: str) -> list[Session]:
    """Connect a room's clients, seat them together and start the game."""
    sessions = [Session(url, f"swarm-{n}") for n in members]
    await asyncio.gather(*(s.connect() for s in sessions))
    owner = sessions[0]
    made = await owner.request(
        owner.requests.create_room(game, humans=len(sessions), public=False, bot_level=bot_level)
    )
    assert isinstance(made, m.Snapshot)
    await asyncio.gather(*(s.request(s.requests.join(code=made.room.code)) for s in sessions[1:]))
    await owner.request(owner.requests.start())
    return sessions


async def _play(session: Session, number: int, owner: bool, run: _Run) -> None:
    """Answer every fresh turn with a random legal action, and ask for a rematch after each match."""
    rng = random.Random(f"{run.seed}/{number}" if run.seed is not None else None)
    pace = _Pace(run.rate)
    acted_at: int | None = None
    try:
        async for item in session.messages():
            if run.stopped:
                return
            if isinstance(item, m.YourTurn):
                if item.seq != session.store.seq or item.seq == acted_at:
                    continue
                if run.think:
                    await asyncio.sleep(rng.uniform(0, 2 * run.think))
                    if item.seq != session.store.seq:
                        continue
                await pace.wait()
                if run.stopped or item.seq != session.store.seq:
                    continue
                acted_at = item.seq
                started = time.perf_counter()
                try:
                    await session.request(session.requests.act(rng.choice(item.legal)), timeout=ACT_TIMEOUT)
                except ClientRequestError as exc:
                    run.failed(exc.code)
                except SessionInterrupted:
                    acted_at = None  # the resumed seat is asked again
                except TimeoutError:
                    run.failed("act_timeout")
                    acted_at = None  # lost: ask for the turn again
                    await pace.wait()
                    with contextlib.suppress(SessionInterrupted):
                        await session.send(session.requests.resync())
                else:
                    run.acted(time.perf_counter() - started)
            elif isinstance(item, m.MatchResult):
                if owner and run.counted():
                    run.report.matches += 1
                await pace.wait()
                with contextlib.suppress(SessionInterrupted):  # a rematch starts once every seat asks
                    await session.send(m.Rematch(id=session.requests.next_id()))
            elif isinstance(item, m.Error):
                run.failed(item.code)
                if item.code == "rate_limited":  # dropped unread: pause, then ask for the turn again
                    await asyncio.sleep(RATE_LIMITED_PAUSE)
                    acted_at = None
                    await pace.wait()
                    with contextlib.suppress(SessionInterrupted):
                        await session.send(session.requests.resync())
    except SessionClosed:
        run.failed("session_closed")


async def run_swarm(
    url: str,
    *,
    clients: int = 10,
    rooms: int | None = None,
    game: str = "scopa",
    duration: float = 10.0,
    think: float = 0.0,
    warmup: float = 0.0,
    bot_level: str = "random",
    seed: str | None = None,
    rate: float | None = None,
    progress: Progress | None = None,
    on_tick: Callable[[str], None] | None = None,
    on_counting: Callable[[], None] | None = None,
) -> SwarmReport:
    """Play for ``warmup`` + ``duration`` seconds after set-up; the report covers the ``duration``.

    ``rooms`` defaults to as few rooms as hold every client (all seats people);
    ``think`` is the mean pause before each action (0: at once); ``rate`` caps the
    messages each client sends a second (None: no cap). The live line
    goes to ``progress`` (and ``on_tick``) once a second; ``on_counting`` is called
    when the warm-up ends and the figures start to count (a benchmark marks the
    server's CPU there).
    """
    players = get_game(game).players
    rooms = rooms if rooms is not None else math.ceil(clients / players)
    plan = groups(clients, rooms, players)
    report = SwarmReport(game, clients, rooms)
    started = time.monotonic()
    built = await asyncio.gather(*(_room(url, game, g, bot_level) for g in plan), return_exceptions=True)
    report.setup_seconds = time.monotonic() - started
    run = _Run(report, think, seed, time.monotonic() + warmup, rate)
    tasks: list[asyncio.Task[None]] = []
    sessions: list[Session] = []
    for members, outcome in zip(plan, built, strict=True):
        if isinstance(outcome, BaseException):
            report.errors[_failure(outcome)] += len(members)
            continue
        sessions.extend(outcome)
        for index, (number, session) in enumerate(zip(members, outcome, strict=True)):
            tasks.append(asyncio.ensure_future(_play(session, number, index == 0, run)))
    cpu_from = asyncio.ensure_future(_cpu_after(warmup, on_counting))
    try:
        await _watch(run, warmup + duration, progress, on_tick)
        report.seconds = max(0.0, time.monotonic() - run.count_from)
        report.cpu_seconds = time.process_time() - await cpu_from
    finally:
        cpu_from.cancel()
        run.stopped = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
    report.reconnects = sum(s.reconnects for s in sessions)
    return report


async def _cpu_after(seconds: float, on_counting: Callable[[], None] | None) -> float:
    """This process's CPU time once the warm-up is over."""
    await asyncio.sleep(seconds)
    if on_counting is not None:
        on_counting()
    return time.process_time()


async def _watch(
    run: _Run, seconds: float, progress: Progress | None, on_tick: Callable[[str], None] | None
) -> None:
    """Sleep out the run, giving the live figures of each second."""
    end = time.monotonic() + seconds
    last = time.monotonic()
    while (left := end - time.monotonic()) > 0:
        await asyncio.sleep(min(1.0, left))
        now = time.monotonic()
        window, run.window = run.window, []
        actions, run.window_actions = run.window_actions, 0
        report = run.report
        line = (
            f"{report.clients} clients, {actions / max(now - last, 1e-9):.0f} actions/s, "
            f"latency ms p50 {percentile(window, 0.5) * 1e3:.1f} p95 {percentile(window, 0.95) * 1e3:.1f} "
            f"p99 {percentile(window, 0.99) * 1e3:.1f}, matches {report.matches}, "
            f"errors {sum(report.errors.values())}" + ("" if run.counted() else " (warming up)")
        )
        last = now
        if progress is not None:
            progress.update(line)
        if on_tick is not None:
            on_tick(line)


def _failure(exc: BaseException) -> str:
    if isinstance(exc, ClientRequestError):
        return f"setup_{exc.code}"
    if isinstance(exc, ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code == CLOSE_TRY_LATER:
        return "setup_try_later"  # the server closed the connection at once: too many from this address
    if isinstance(exc, OSError):
        return "connect_failed"
    return f"setup_{type(exc).__name__}"
