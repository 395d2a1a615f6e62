"""The browser page in headless Chromium: its first load, its delta path, a Dou Dizhu hand.

    python -m bench.web_page                                 # every part, 20 cold loads
    python -m bench.web_page --parts load --loads 50
    python -m bench.web_page --parts delta --repeat 500 --passes 5
    python -m bench.web_page --parts hand --throttle 4       # a CPU four times slower

The page is the built one (``clients/web/dist/``) served by a ``cardavia serve``
subprocess of its own on a free loopback port (killed at the end, whatever
happens). Chromium is Debian's (``--chromium``, default ``/usr/bin/chromium``),
driven by Playwright.

``load``
    The first load of ``/``. Each cold load is a new browser context (an empty
    cache, no stored resume token); the very first, right after the server
    started, is shown on its own, and is not one of the ``--loads``. A warm load
    is ``reload()`` of a page that has loaded once (``index.html`` asks again and
    gets a 304; the hashed files are immutable and come from the cache). Bytes
    are what Chromium received for each HTTP response as the DevTools protocol
    reports it (``Network.loadingFinished``'s ``encodedDataLength``: compressed,
    headers included); a body is that less the response's headers. WebSocket
    frames up to the interactive lobby are counted apart. "Interactive" is
    timed inside the page from navigation start (``performance.now()``): a
    ``MutationObserver`` installed before the page's own code notes the first
    moment the connection shows as online (``.conn[data-state=online]``) and the
    lobby's "play now" button is there, enabled and not hidden; "shown" is when
    the frame after that has been drawn (``requestAnimationFrame`` then a
    posted message).

``delta``
    The page's own ``ViewStore`` and ``applyDelta`` (``src/protocol/store.js``,
    ``delta.js``) and codec, bundled with ``clients/web/bench/delta_bench.js`` by
    esbuild into a temporary folder, replay every recorded stream of
    ``clients/web/test/fixtures/deltas.json`` in a page served with
    cross-origin isolation (Chromium's ``performance.now()`` then steps by
    5 µs, not 100 µs). See that file for the three timings.

``hand``
    The real page plays Dou Dizhu against the server's bots from the lobby's
    "play now": it bids the highest bid offered, and leaves and plays again (up
    to ``--tries`` times) until it is the landlord with 20 cards when its turn
    comes to play; after the last try it takes the hand it has (17 cards). Then it
    clicks each card in turn (selecting all of them), then each again
    (deselecting them), with the mouse at a player's pace (``--pause``). Each
    click is timed in the page from the event's time stamp to the end of the
    next frame, and every frame over 50 ms is caught by ``PerformanceObserver``s
    (``long-animation-frame``, ``longtask``). A Chromium trace of the page's main
    thread gives its longest task and, for each click, the CPU time of its tasks
    (wall-clock frames also grow while the machine's other work has the CPU;
    the thread's CPU time does not). ``--throttle`` slows the page's CPU
    (DevTools' ``Emulation.setCPUThrottlingRate``) for the clicks.

The load part ends with one more cold load under a Chromium trace: the page's
main thread up to the interactive lobby, by the kind of work, in wall and CPU
time. ``--profile`` adds a JavaScript profile of a cold load of the same sources
bundled unminified (``bench/web_profile.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, CDPSession, Page, async_playwright

from bench.server_load import free_port
from bench.web_profile import PROFILE_CATEGORIES, build_readable_page, self_time_by_function

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "clients" / "web"
FIXTURE = WEB / "test" / "fixtures" / "deltas.json"
DELTA_ENTRY = WEB / "bench" / "delta_bench.js"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"
PARTS = ("load", "delta", "hand")

LOAD_TARGET_KIB = 200
INTERACTIVE_TARGET_MS = 500
DELTA_P99_TARGET_MS = 1.0
FRAME_TARGET_MS = 50

WATCH_LOBBY = """
(() => {
  const marks = {};
  window.__bench = marks;
  // the page's WebSocket, with its opening and first message noted
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (marks.wsStart === undefined) {
        marks.wsStart = performance.now();
        this.addEventListener("open", () => { marks.wsOpen ??= performance.now(); });
        this.addEventListener("message", () => { marks.wsFirstMessage ??= performance.now(); });
      }
    }
  };
  const ready = () => {
    const conn = document.querySelector(".conn");
    const button = document.querySelector('button[data-focus-key="play-now"]');
    return conn !== null && conn.dataset.state === "online" && button !== null && !button.disabled
      && button.closest("[hidden]") === null;  // shown, without forcing a style recalculation early
  };
  const observer = new MutationObserver(() => {
    if (marks.interactive === undefined && ready()) {
      marks.interactive = performance.now();
      performance.mark("cardavia-interactive");  // the same moment in a Chromium trace
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { marks.shown = performance.now(); };
        channel.port2.postMessage(0);
      });
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})();
"""

PAGE_TIMES = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const end = (part) => {
    const entry = resources.find((r) => r.name.includes(part));
    return entry ? entry.responseEnd : null;
  };
  return {
    ...window.__bench,
    html: nav.responseEnd,
    script: end(".js"),
    style: end(".css"),
    texts: end("/i18n/"),
    textsStart: (resources.find((r) => r.name.includes("/i18n/")) || {}).startTime ?? null,
    domContentLoaded: nav.domContentLoadedEventEnd,
  };
}
"""

WATCH_FRAMES = """
() => {
  const seen = { clicks: [], frames: [], tasks: [] };
  window.__frames = seen;
  for (const [type, list] of [["long-animation-frame", seen.frames], ["longtask", seen.tasks]]) {
    try {
      new PerformanceObserver((entries) => {
        for (const e of entries.getEntries()) {
          list.push({
            start: e.startTime,
            duration: e.duration,
            renderStart: e.renderStart ?? null,
            styleAndLayoutStart: e.styleAndLayoutStart ?? null,
            scripts: (e.scripts || []).map((x) => ({
              invoker: x.invoker, source: x.sourceURL, duration: x.duration,
              layout: x.forcedStyleAndLayoutDuration,
            })),
          });
        }
      }).observe({ type, buffered: false });
    } catch {
      seen[type] = "unsupported";
    }
  }
  // after the hand's own click handler (it listens on the hand; this, on the window, runs last)
  window.addEventListener("click", (event) => {
    const handled = performance.now();
    const card = event.target instanceof Element ? event.target.closest("button.tv-card") : null;
    const selected = document.querySelectorAll(".tv-hand button.tv-card.tv-selected").length;
    requestAnimationFrame(() => {
      const frame = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        performance.mark("cardavia-drawn");  // the same moment in the Chromium trace
        seen.clicks.push({ event: event.timeStamp, handled, frame, drawn: performance.now(),
          card: card ? card.dataset.code : null, selected });
      };
      channel.port2.postMessage(0);
    });
  });
}
"""

CARD_POINTS = """
() => {
  document.querySelector(".tv-hand").scrollIntoView({ block: "center" });
  return [...document.querySelectorAll(".tv-hand button.tv-card")].map((card) => {
    const box = card.getBoundingClientRect();
    const y = box.top + box.height / 2;
    for (let x = box.left + 2; x < box.right - 1; x += 2) {
      const top = document.elementFromPoint(x, y);
      if (top && top.closest("button.tv-card") === card) return [x, y];
    }
    throw new Error(`card ${card.dataset.code} is covered everywhere`);
  });
}
"""

TABLE_STATE = """
() => {
  const table = document.querySelector(".tv");
  if (!table) return null;
  const bids = [...table.querySelectorAll(".tv-actions button[aria-keyshortcuts]")]
    .map((b) => b.getAttribute("aria-keyshortcuts"))
    .filter((k) => /^[0-9]$/.test(k));
  const cards = [...table.querySelectorAll(".tv-hand button.tv-card")];
  return {
    myTurn: table.classList.contains("tv-my-turn"),
    bids,
    hand: cards.length,
    multi: cards.some((c) => c.hasAttribute("aria-pressed")),
    waiting: table.classList.contains("tv-waiting"),
  };
}
"""


# ---------------------------------------------------------------- figures


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) by linear interpolation between the closest ranks."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def kib(n: float) -> str:
    return f"{n / 1024:.1f}"


# ---------------------------------------------------------------- the server


class Server:
    """A ``cardavia serve`` of its own on a free loopback port, with the built page."""

    def __init__(self, folder: Path, bot_delay: float, port: int | None, web_dir: Path | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = folder / f"serve-{self.port}.log"
        command = [sys.executable, "-m", "cardavia.cli", "serve", "--port", str(self.port),
                   "--bot-delay", str(bot_delay), "--records-dir", str(folder / "records"),
                   "--log-level", "WARNING"]  # fmt: skip
        if web_dir is not None:
            command += ["--web-dir", str(web_dir)]
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        self.started = time.monotonic()

    def wait(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardavia serve exited with {self.proc.returncode}: {self.tail()}")
            with contextlib.suppress(OSError), urllib.request.urlopen(self.url + "healthz", timeout=1) as r:
                if r.status == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"cardavia serve did not start: {self.tail()}")

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-20:])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def served(folder: Path, bot_delay: float, port: int | None, web_dir: Path | None = None) -> Iterator[Server]:
    server = Server(folder, bot_delay, port, web_dir)
    try:
        server.wait()
        yield server
    finally:
        server.close()


@contextlib.asynccontextmanager
async def chromium(path: str) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path)
        try:
            yield browser
        finally:
            await browser.close()


# ---------------------------------------------------------------- Chromium traces


def main_thread_events(trace: bytes, mark: str) -> list[dict[str, Any]]:
    """The complete events of the thread that made the user timing ``mark``: the page's main
    thread (a browser-wide trace also holds other renderers, such as the browser's own UI)."""
    loaded = json.loads(trace)
    events: list[dict[str, Any]] = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    threads = {(e.get("pid"), e.get("tid")) for e in events if e.get("name") == mark}
    if len(threads) != 1:
        return []
    (page,) = threads
    return [e for e in events if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) == page and "dur" in e]


@dataclass
class Busy:
    """The page's main thread in a trace: its longest task (wall and CPU time, ms) and, for each
    click, the CPU time of the tasks from the click to the end of its frame."""

    longest_wall: float
    longest_cpu: float
    per_click_cpu: list[float]
    per_click_wall: list[float]
    kinds_cpu: dict[str, float]
    """CPU time of each kind of work, summed over the clicks' spans"""


def main_thread_busy(trace: bytes, clicks: list[dict[str, Any]]) -> Busy | None:
    thread = main_thread_events(trace, "cardavia-drawn")
    tasks = [e for e in thread if e["name"] == "RunTask"]
    if not tasks:
        return None
    longest = max(tasks, key=lambda e: e["dur"])
    loaded = json.loads(trace)
    events: list[dict[str, Any]] = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    drawn = sorted(e["ts"] for e in events if e.get("name") == "cardavia-drawn" and e.get("ph") != "e")
    cpu: list[float] = []
    wall: list[float] = []
    kinds: dict[str, float] = {}
    for end, click in zip(drawn, clicks, strict=False):
        start = end - (click["drawn"] - click["event"]) * 1000
        inside = [t for t in tasks if start - 1000 <= t["ts"] <= end]
        cpu.append(sum(t.get("tdur", t["dur"]) for t in inside) / 1000)
        wall.append(sum(t["dur"] for t in inside) / 1000)
        if inside:
            span = (min(t["ts"] for t in inside), max(t["ts"] + t["dur"] for t in inside) + 1)
            for label, ms in self_times(thread, *span, "tdur").items():
                kinds[kind_of(label)] = kinds.get(kind_of(label), 0.0) + ms
    return Busy(longest["dur"] / 1000, longest.get("tdur", longest["dur"]) / 1000, cpu, wall, kinds)


def event_label(event: dict[str, Any]) -> str:
    """An event's name, with the script or function it ran when the trace says."""
    data = event.get("args", {}).get("data", {}) or {}
    name = str(event["name"])
    if name in ("FunctionCall", "EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule"):
        where = data.get("functionName") or short_name(str(data.get("url", ""))) if data else ""
        return f"{name} {where}".strip()
    if name == "EventDispatch":
        return f"{name} {data.get('type', '')}".strip()
    return name


def self_times(
    events: list[dict[str, Any]], start_us: float, end_us: float, clock: str = "dur"
) -> dict[str, float]:
    """Milliseconds of each kind of work on one thread between two trace times: each event's
    duration less that of the events nested in it, so nothing is counted twice. ``clock`` is
    ``dur`` (wall time) or ``tdur`` (the thread's CPU time, which a busy machine does not stretch)."""
    inside = sorted((e for e in events if start_us <= e["ts"] < end_us), key=lambda e: (e["ts"], -e["dur"]))
    totals: dict[str, float] = {}
    stack: list[tuple[dict[str, Any], float]] = []  # (event, time of its children so far)

    def close(until: float) -> None:
        while stack and stack[-1][0]["ts"] + stack[-1][0]["dur"] <= until:
            event, children = stack.pop()
            label = event_label(event)
            own = event.get(clock, event["dur"])
            totals[label] = totals.get(label, 0.0) + (own - children) / 1000
            if stack:
                parent, theirs = stack[-1]
                stack[-1] = (parent, theirs + own)

    for event in inside:
        close(event["ts"])
        stack.append((event, 0.0))
    close(float("inf"))
    return totals


# ---------------------------------------------------------------- part 1: loading the page


@dataclass
class Fetched:
    url: str
    status: int = 0
    encoding: str = ""
    cached: bool = False
    headers: int = 0
    total: int = 0

    @property
    def body(self) -> int:
        return max(0, self.total - self.headers)


@dataclass
class Network:
    """What Chromium's network stack reports for one page, through the DevTools protocol."""

    requests: dict[str, Fetched] = field(default_factory=dict)
    ws_in: int = 0
    ws_out: int = 0

    async def attach(self, cdp: CDPSession) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.requestServedFromCache", self._from_cache)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame_in)
        cdp.on("Network.webSocketFrameSent", self._frame_out)
        await cdp.send("Network.enable")

    def reset(self) -> None:
        self.requests = {}
        self.ws_in = self.ws_out = 0

    def _sent(self, event: dict[str, Any]) -> None:
        self.requests[event["requestId"]] = Fetched(event["request"]["url"])

    def _response(self, event: dict[str, Any]) -> None:
        fetched = self.requests.setdefault(event["requestId"], Fetched(event["response"]["url"]))
        response = event["response"]
        fetched.status = response["status"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        fetched.encoding = headers.get("content-encoding", "")
        fetched.headers = int(response.get("encodedDataLength", 0))
        fetched.cached = fetched.cached or bool(
            response.get("fromDiskCache") or response.get("fromMemoryCache")
        )

    def _from_cache(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]].cached = True

    def _finished(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]].total = int(event["encodedDataLength"])

    @staticmethod
    def _payload(event: dict[str, Any]) -> int:
        response = event["response"]
        data = response.get("payloadData", "")
        return len(base64.b64decode(data)) if response.get("opcode") == 2 else len(data.encode())

    def _frame_in(self, event: dict[str, Any]) -> None:
        self.ws_in += self._payload(event)

    def _frame_out(self, event: dict[str, Any]) -> None:
        self.ws_out += self._payload(event)


@dataclass
class Load:
    kind: str
    times: dict[str, float | None]
    requests: list[Fetched]
    ws_in: int
    ws_out: int

    @property
    def interactive(self) -> float:
        return float(self.times["interactive"] or 0.0)

    @property
    def shown(self) -> float:
        return float(self.times["shown"] or 0.0)

    @property
    def total(self) -> int:
        return sum(r.total for r in self.requests)

    @property
    def bodies(self) -> int:
        return sum(r.body for r in self.requests)


async def new_page(context: BrowserContext) -> tuple[Page, Network]:
    page = await context.new_page()
    network = Network()
    await network.attach(await context.new_cdp_session(page))
    return page, network


async def measure_load(page: Page, network: Network, kind: str, go: Any) -> Load:
    network.reset()
    await go()
    await page.wait_for_function("() => window.__bench && window.__bench.shown !== undefined", timeout=30_000)
    await page.wait_for_timeout(300)  # whatever the page still fetches after it is interactive
    times = await page.evaluate(PAGE_TIMES)
    requests = [r for r in network.requests.values() if r.url.startswith("http")]
    return Load(kind, times, requests, network.ws_in, network.ws_out)


async def cold_load(browser: Browser, url: str, kind: str) -> Load:
    context = await browser.new_context()
    try:
        await context.add_init_script(WATCH_LOBBY)
        page, network = await new_page(context)
        return await measure_load(page, network, kind, lambda: page.goto(url))
    finally:
        await context.close()


async def part_load(browser: Browser, server: Server, loads: int) -> list[Load]:
    results = [await cold_load(browser, server.url, "first")]
    for _ in range(loads):
        results.append(await cold_load(browser, server.url, "cold"))
    context = await browser.new_context()
    try:
        await context.add_init_script(WATCH_LOBBY)
        page, network = await new_page(context)
        await measure_load(page, network, "primer", lambda: page.goto(server.url))
        for _ in range(loads):
            results.append(await measure_load(page, network, "warm", page.reload))
    finally:
        await context.close()
    return results


async def part_against(browser: Browser, server: Server, other: Server, loads: int) -> dict[str, list[Load]]:
    """Cold loads of two builds of the page, alternating, so that both meet the same machine."""
    await cold_load(browser, server.url, "first")
    await cold_load(browser, other.url, "first")
    results: dict[str, list[Load]] = {"this build": [], "the other build": []}
    for _ in range(loads):
        results["this build"].append(await cold_load(browser, server.url, "cold"))
        results["the other build"].append(await cold_load(browser, other.url, "cold"))
    return results


def report_against(results: dict[str, list[Load]], other: Path) -> None:
    print(f"\n## Cold loads of this build and of {other}, alternating\n")
    print("| build | loads | interactive median (ms) | p90 | welcome median | shown median |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, group in results.items():
        inter = [r.interactive for r in group]
        welcome = [float(r.times.get("wsFirstMessage") or 0.0) for r in group]
        print(
            f"| {name} | {len(group)} | {median(inter):.0f} | {quantile(inter, 0.9):.0f} "
            f"| {median(welcome):.0f} | {median([r.shown for r in group]):.0f} |"
        )


TRACE_CATEGORIES = [
    "toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "v8.execute",
    "blink.user_timing", "loading",
]  # fmt: skip


async def trace_cold_load(browser: Browser, url: str, categories: list[str]) -> bytes:
    """A Chromium trace of one cold load, up to the interactive lobby's frame."""
    context = await browser.new_context()
    try:
        await context.add_init_script(WATCH_LOBBY)
        page = await context.new_page()
        await browser.start_tracing(page=page, categories=categories)
        await page.goto(url)
        await page.wait_for_function(
            "() => window.__bench && window.__bench.shown !== undefined", timeout=30_000
        )
        return await browser.stop_tracing()
    finally:
        await context.close()


async def traced_load(browser: Browser, url: str) -> tuple[float, dict[str, float], dict[str, float]]:
    """One more cold load, under a Chromium trace: the page's main thread from navigation start to
    the interactive lobby, by the kind of work (self time, ms), and that span's length."""
    trace = await trace_cold_load(browser, url, TRACE_CATEGORIES)
    loaded = json.loads(trace)
    events: list[dict[str, Any]] = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    ready = [e for e in events if e.get("name") == "cardavia-interactive"]
    if not ready:
        return 0.0, {}, {}
    end = max(e["ts"] for e in ready)
    pid = ready[0].get("pid")
    starts = [
        e["ts"]
        for e in events
        if e.get("name") == "navigationStart" and e.get("pid") == pid and e["ts"] <= end
    ]
    start = max(starts) if starts else end - 5_000_000
    thread = main_thread_events(trace, "cardavia-interactive")
    return (end - start) / 1000, self_times(thread, start, end), self_times(thread, start, end, "tdur")


KINDS = {
    "script": ("FunctionCall", "EvaluateScript", "v8.", "V8.", "RunMicrotasks", "TimerFire", "EventDispatch",
               "FireAnimationFrame", "HandlePostMessage", "XHR", "ResourceReceiveResponse"),
    "garbage collection": ("MinorGC", "MajorGC", "BlinkGC", "GCEvent", "V8.GC", "CppGC"),
    "style and layout": ("UpdateLayoutTree", "Layout", "RecalculateStyles", "ScheduleStyleRecalculation",
                         "InvalidateLayout", "HitTest"),
    "paint": ("Paint", "PrePaint", "Layerize", "Commit", "UpdateLayer", "CompositeLayers", "RasterTask",
              "PaintImage", "Decode"),
    "parse HTML and CSS": ("ParseHTML", "ParseAuthorStyleSheet"),
}  # fmt: skip


def kind_of(label: str) -> str:
    for kind, prefixes in KINDS.items():
        if kind != "script" and label.startswith(prefixes):
            return kind
    return "script" if label.startswith(KINDS["script"]) else "other (task scheduling, loading, IPC)"


def report_trace(span: float, wall: dict[str, float], cpu: dict[str, float]) -> None:
    if not wall:
        print("\n(the trace did not hold the interactive mark)")
        return
    busy = sum(wall.values())
    print(f"\nOne more cold load under a Chromium trace: {span:.0f} ms to the interactive lobby. The page's")
    print("main thread, by the kind of work (self time, ms; wall clock, and its own CPU time):\n")
    kinds: dict[str, list[float]] = {}
    for label, ms in wall.items():
        entry = kinds.setdefault(kind_of(label), [0.0, 0.0])
        entry[0] += ms
        entry[1] += cpu.get(label, 0.0)
    for kind, (ms, own) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
        print(f"  {kind:<40} {ms:>7.1f} {own:>7.1f}")
    print(f"  {'all':<40} {busy:>7.1f} {sum(cpu.values()):>7.1f}")
    print(f"  {'idle (waiting on the network or server)':<40} {max(0.0, span - busy):>7.1f}")
    print("\nThe largest items (wall, CPU):\n")
    for label, ms in sorted(wall.items(), key=lambda kv: -kv[1])[:14]:
        print(f"  {label[:60]:<60} {ms:>7.1f} {cpu.get(label, 0.0):>7.1f}")


def short_name(url: str) -> str:
    path = url.split("/", 3)[-1]
    return "/" + path


def report_load(results: list[Load]) -> None:
    first = results[0]
    print("\n## Loading the page\n")
    print("First load after the server started, per response (bytes as received):\n")
    print(f"{'response':<28} {'status':>6} {'encoding':>8} {'body':>8} {'headers':>8}")
    for r in first.requests:
        print(f"{short_name(r.url):<28} {r.status:>6} {r.encoding or '-':>8} {r.body:>8} {r.headers:>8}")
    print(f"{'all HTTP':<28} {'':>6} {'':>8} {first.bodies:>8} {first.total - first.bodies:>8}")
    print(f"WebSocket up to the lobby: {first.ws_in} bytes in, {first.ws_out} out")
    print(
        f"total: {kib(first.total)} KiB over HTTP, {kib(first.total + first.ws_in + first.ws_out)} KiB "
        f"with the WebSocket frames (target < {LOAD_TARGET_KIB} KiB)"
    )
    print()
    print("| load | loads | interactive median (ms) | p90 | max | shown median | KiB received (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for kind in ("first", "cold", "warm"):
        group = [r for r in results if r.kind == kind]
        if not group:
            continue
        inter = [r.interactive for r in group]
        print(
            f"| {kind} | {len(group)} | {median(inter):.0f} | {quantile(inter, 0.9):.0f} | {max(inter):.0f} "
            f"| {median([r.shown for r in group]):.0f} | {kib(median([float(r.total) for r in group]))} |"
        )
    print()
    print("Where the time goes (medians, ms from navigation start):\n")
    marks = [
        ("html", "index.html received"),
        ("style", "app.css received"),
        ("script", "app.js received"),
        ("domContentLoaded", "DOMContentLoaded done (the module has run)"),
        ("textsStart", "catalogue requested"),
        ("texts", "catalogue received"),
        ("wsStart", "WebSocket opened by the page"),
        ("wsOpen", "WebSocket open"),
        ("wsFirstMessage", "first message (welcome)"),
        ("interactive", "lobby interactive"),
        ("shown", "its frame drawn"),
    ]
    print(f"{'mark':<44} {'first':>7} {'cold':>7} {'warm':>7}")
    for key, label in marks:
        cells = []
        for kind in ("first", "cold", "warm"):
            values = [float(v) for r in results if r.kind == kind and (v := r.times.get(key)) is not None]
            cells.append(f"{median(values):>7.1f}" if values else f"{'-':>7}")
        print(f"{label:<44} {' '.join(cells)}")
    warm = [r for r in results if r.kind == "warm"]
    if warm:
        print("\nA warm load's responses (the first of them):")
        for r in warm[0].requests:
            where = "cache" if r.cached else "network"
            print(f"  {short_name(r.url):<28} {r.status:>4} {where:<8} {r.total:>7} bytes")


# ---------------------------------------------------------------- part 2: applying deltas


def build_delta_bench(folder: Path) -> Path:
    out = folder / "delta_bench.js"
    subprocess.run(
        [str(ESBUILD), str(DELTA_ENTRY), "--bundle", "--format=esm", "--platform=browser",
         "--target=es2022", f"--outfile={out}", "--log-level=warning"],
        cwd=WEB, check=True,
    )  # fmt: skip
    return out


async def part_delta(browser: Browser, folder: Path, repeat: int, passes: int) -> dict[str, Any]:
    script = build_delta_bench(folder).read_bytes()
    html = b'<!doctype html><meta charset="utf-8"><script type="module" src="/bench.js"></script>'
    isolation = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"}
    origin = "http://localhost:9/"  # never reached: every request is answered by the route below

    async def answer(route: Any) -> None:
        if route.request.url.endswith("/bench.js"):
            await route.fulfill(body=script, content_type="text/javascript", headers=isolation)
        else:
            await route.fulfill(body=html, content_type="text/html", headers=isolation)

    context = await browser.new_context()
    try:
        await context.route(origin + "**", answer)
        page = await context.new_page()
        await page.goto(origin)
        await page.wait_for_function("typeof window.runDeltaBench === 'function'")
        fixture = json.loads(FIXTURE.read_text())
        step = await page.evaluate("timerStep()")
        result: dict[str, Any] = await page.evaluate(
            "([fixture, options]) => runDeltaBench(fixture, options)",
            [fixture, {"repeat": repeat, "passes": passes}],
        )
        result["timerStep"] = step
        return result
    finally:
        await context.close()


def report_delta(result: dict[str, Any]) -> None:
    deltas = result["deltas"]
    print("\n## Applying a delta in the page\n")
    print(
        f"{len(deltas)} deltas of {len({(d['game']) for d in deltas})} games; cross-origin isolated: "
        f"{result['isolated']}; timer step {result['timerStep'] * 1000:.1f} µs; "
        f"{result['repeat']} repeats a batch, median of {result['passes']} passes per delta"
    )
    columns = [
        ("singleFirst", "onDelta alone, first pass (cold)"),
        ("singleWarm", "onDelta alone, warm"),
        ("repeated", "onDelta, batch of repeats"),
        ("decoded", "decodeServer + onDelta, batch"),
    ]
    print("\n| timing | deltas | median µs | p99 µs | max µs |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for key, label in columns:
        values = [v * 1000 for v in result[key]]
        print(
            f"| {label} | {len(values)} | {median(values):.1f} | {quantile(values, 0.99):.1f} "
            f"| {max(values):.1f} |"
        )
    first = result["singleFirst"]
    slowest = sorted(range(len(first)), key=lambda i: -first[i])[:3]
    print(
        "\nslowest in the cold pass: "
        + ", ".join(f"delta #{i + 1} ({deltas[i]['game']}) {first[i] * 1000:.0f} µs" for i in slowest)
    )
    print("\nBatch of repeats, per game:\n")
    print(
        "| game | deltas | ops per delta (mean) | onDelta median µs | p99 | decode + onDelta median | p99 |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in sorted({d["game"] for d in deltas}):
        idx = [i for i, d in enumerate(deltas) if d["game"] == game]
        rep = [result["repeated"][i] * 1000 for i in idx]
        dec = [result["decoded"][i] * 1000 for i in idx]
        ops = statistics.mean(deltas[i]["opsLength"] for i in idx)
        print(
            f"| {game} | {len(idx)} | {ops:.1f} | {median(rep):.1f} | {quantile(rep, 0.99):.1f} "
            f"| {median(dec):.1f} | {quantile(dec, 0.99):.1f} |"
        )


# ---------------------------------------------------------------- part 3: a Dou Dizhu hand


@dataclass
class Hand:
    cards: int
    tries: int
    clicks: list[dict[str, Any]]
    frames: list[dict[str, Any]]
    tasks: list[dict[str, Any]]
    busy: Busy | None
    throttle: float


async def to_play_turn(page: Page, deadline: float) -> dict[str, Any]:
    """Bids the highest bid offered until it is this seat's turn to play; the table's state then."""
    while time.monotonic() < deadline:
        state: dict[str, Any] | None = await page.evaluate(TABLE_STATE)
        if state and state["myTurn"]:
            if state["multi"]:
                return state
            if state["bids"]:
                key = max(state["bids"])
                await page.locator(f'.tv-actions button[aria-keyshortcuts="{key}"]').click()
                await page.wait_for_timeout(100)
                continue
        await page.wait_for_timeout(50)
    raise TimeoutError("no turn to play came")


async def part_hand(browser: Browser, server: Server, tries: int, throttle: float, pause: float) -> Hand:
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        await context.add_init_script(WATCH_LOBBY)
        page = await context.new_page()
        cdp = await context.new_cdp_session(page)
        await page.goto(server.url)
        await page.wait_for_function("() => window.__bench && window.__bench.interactive !== undefined")
        await page.locator('.game-choice:has(input[value="doudizhu"])').click()
        state: dict[str, Any] = {}
        attempt = 0
        for attempt in range(1, tries + 1):
            await page.locator('button[data-focus-key="play-now"]').click()
            await page.wait_for_selector('.tv[data-game="doudizhu"]')
            state = await to_play_turn(page, time.monotonic() + 120)
            if state["hand"] == 20 or attempt == tries:
                break
            # a bot is the landlord: leave (the second of the table bar's buttons) and deal again
            await page.locator(".tv-bar-buttons button").nth(1).click()
            await page.wait_for_selector('button[data-focus-key="play-now"]:enabled')
        if throttle != 1:
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        await page.wait_for_timeout(1000)  # the turn's own drawing is over before anything is watched
        await page.evaluate(WATCH_FRAMES)
        await browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        # Clicks go straight to the browser's input (no locator: its checks run scripts in the page,
        # and would be counted in the frames), each at a point where the card is the topmost element,
        # at a player's pace; the page is not polled meanwhile for the same reason.
        points: list[list[float]] = await page.evaluate(CARD_POINTS)
        for x, y in [*points, *points]:  # select each card, then deselect each
            await page.mouse.click(x, y)
            await asyncio.sleep(pause)
        await page.wait_for_timeout(300)
        count = len(points)
        trace = await browser.stop_tracing()
        seen: dict[str, Any] = await page.evaluate("window.__frames")
        return Hand(
            count,
            attempt,
            seen["clicks"],
            seen["frames"],
            seen["tasks"],
            main_thread_busy(trace, seen["clicks"]),
            throttle,
        )
    finally:
        await context.close()


def report_hand(hand: Hand) -> None:
    print("\n## A Dou Dizhu hand, each card selected and deselected\n")
    slow = f", CPU slowed {hand.throttle:g} times" if hand.throttle != 1 else ""
    print(f"{hand.cards} cards in hand (after {hand.tries} deal(s)){slow}; {len(hand.clicks)} clicks")
    print("\n| clicks | measured | clicks | median ms | p90 | max |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for name, group in (("on a card (select, deselect)", [c for c in hand.clicks if c["card"]]),):
        if not group:
            continue
        to_frame = [c["drawn"] - c["event"] for c in group]
        handler = [c["handled"] - c["event"] for c in group]
        print(f"| {name} | to the end of its frame | {len(group)} | {median(to_frame):.1f} "
              f"| {quantile(to_frame, 0.9):.1f} | {max(to_frame):.1f} |")  # fmt: skip
        print(f"| {name} | to the end of its handlers | {len(group)} | {median(handler):.1f} "
              f"| {quantile(handler, 0.9):.1f} | {max(handler):.1f} |")  # fmt: skip
    spans = [(c["event"], c["drawn"]) for c in hand.clicks]
    during = [
        f for f in hand.frames if any(f["start"] < b and a < f["start"] + f["duration"] for a, b in spans)
    ]
    worst = max((f["duration"] for f in during), default=0.0)
    print(
        f"\nlong animation frames (> 50 ms): {len(hand.frames)}, {len(during)} of them holding a click's "
        f"frame (the longest {worst:.1f} ms); long tasks (> 50 ms): {len(hand.tasks)}"
    )
    if hand.busy is not None:
        busy = hand.busy
        print(
            f"longest task on the page's main thread while clicking (trace): {busy.longest_wall:.1f} ms, "
            f"{busy.longest_cpu:.1f} ms of it on the CPU"
        )
        if busy.per_click_cpu:
            cpu, wall = busy.per_click_cpu, busy.per_click_wall
            print(
                f"main thread's tasks from a click to the end of its frame: CPU median {median(cpu):.1f} ms, "
                f"p90 {quantile(cpu, 0.9):.1f}, max {max(cpu):.1f}; wall median {median(wall):.1f}, "
                f"max {max(wall):.1f} ({len(cpu)} clicks)"
            )
            shares = ", ".join(
                f"{kind} {ms / len(cpu):.1f}"
                for kind, ms in sorted(busy.kinds_cpu.items(), key=lambda kv: -kv[1])
            )
            print(f"of which, per click (CPU ms): {shares}")
    if not hand.frames:
        return
    print("\nThe long frames, longest first (ms): scripts (theirs the layout they forced), then the")
    print("frame's own style, layout and paint; what ran:\n")
    for frame in sorted(hand.frames, key=lambda f: -f["duration"])[:8]:
        scripts = sum(x["duration"] for x in frame["scripts"])
        forced = sum(x["layout"] or 0 for x in frame["scripts"])
        render = frame["duration"] - (frame["renderStart"] - frame["start"]) if frame["renderStart"] else 0.0
        ran = ", ".join(
            sorted(
                {
                    f"{x['invoker']} ({short_name(x['source']) if x['source'] else '-'})"
                    for x in frame["scripts"]
                }
            )
        )
        click = "click" if frame in during else "     "
        print(
            f"  {frame['duration']:6.1f} {click}: scripts {scripts:5.1f} ({forced:5.1f}), "
            f"rendering {render:5.1f}; {ran[:90]}"
        )


async def profile_load(browser: Browser, folder: Path, bot_delay: float) -> None:
    readable = build_readable_page(folder / "readable")
    with served(folder, bot_delay, None, readable) as server:
        await cold_load(browser, server.url, "first")  # the server's own first-request work is not profiled
        trace = await trace_cold_load(browser, server.url, PROFILE_CATEGORIES)
    span, totals = self_time_by_function(trace, "navigationStart", "cardavia-interactive")
    if not totals:
        print("\n(the profile held no samples)")
        return
    print(f"\nJavaScript profile of a cold load of the unminified page ({span:.0f} ms to interactive;")
    print("self time of the sampled functions, ms; (program) is the browser's own work):\n")
    for label, ms in sorted(totals.items(), key=lambda kv: -kv[1])[:24]:
        print(f"  {label[:76]:<76} {ms:>7.1f}")


# ---------------------------------------------------------------- main


async def run(args: argparse.Namespace, folder: Path) -> None:
    async with chromium(args.chromium) as browser:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"Chromium {browser.version}, headless; {os.cpu_count()} cores; load average {load}")
        if "delta" in args.parts:
            report_delta(await part_delta(browser, folder, args.repeat, args.passes))
        if "load" in args.parts or "hand" in args.parts:
            with served(folder, args.bot_delay, args.port) as server:
                if "load" in args.parts:
                    report_load(await part_load(browser, server, args.loads))
                    if args.trace:
                        report_trace(*await traced_load(browser, server.url))
                if "load" in args.parts and args.against is not None:
                    with served(folder, args.bot_delay, None, args.against) as other:
                        report_against(await part_against(browser, server, other, args.loads), args.against)
                if "load" in args.parts and args.profile:
                    await profile_load(browser, folder, args.bot_delay)
                if "hand" in args.parts:
                    report_hand(await part_hand(browser, server, args.tries, args.throttle, args.pause))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parts", default=",".join(PARTS), help=f"parts to run (default {','.join(PARTS)})")
    parser.add_argument("--loads", type=int, default=20, help="cold loads, and warm reloads (default 20)")
    parser.add_argument(
        "--no-trace",
        dest="trace",
        action="store_false",
        help="skip the traced load that says where the time goes",
    )
    parser.add_argument(
        "--profile", action="store_true", help="with load: a JavaScript profile of the unminified page's load"
    )
    parser.add_argument("--port", type=int, help="the server's port (default: a free one)")
    parser.add_argument(
        "--against",
        type=Path,
        help="with load: also cold-load the page built in this folder (e.g. an earlier commit's "
        "clients/web/dist), alternating with this build's",
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.05, help="the server's bot delay (default 0.05 s)"
    )
    parser.add_argument(
        "--repeat", type=int, default=200, help="applies of each delta in a batch (default 200)"
    )
    parser.add_argument("--passes", type=int, default=3, help="passes over the recorded streams (default 3)")
    parser.add_argument("--tries", type=int, default=6, help="deals to try for a landlord's hand (default 6)")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between two clicks (default 0.25)")
    parser.add_argument("--throttle", type=float, default=1.0, help="CPU slow-down for the hand (default 1)")
    parser.add_argument(
        "--chromium", default="/usr/bin/chromium", help="the browser (default /usr/bin/chromium)"
    )
    args = parser.parse_args()
    args.parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown or not args.parts:
        parser.error(f"unknown parts {unknown}; known: {', '.join(PARTS)}")
    if args.loads < 1 or args.repeat < 1 or args.passes < 1 or args.tries < 1:
        parser.error("--loads, --repeat, --passes and --tries are at least 1")
    with tempfile.TemporaryDirectory(prefix="cardavia-web-bench-") as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()
