"""``python -m bench.leak --tracemalloc``: the server in this process, and what grew between batches.

Line by line (``tracemalloc``), by object type, cyclic garbage by type, and
every container of the server and of our modules: the tool to find what a
node keeps per match once ``bench/leak.py`` has shown that it keeps something.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import gc
import os
import sys
import tracemalloc
import types
from pathlib import Path
from typing import Any

from bench.leak import ROOT, Figures, Node
from bench.server_load import rss_bytes


class TracedNode(Node):
    """The server in this process under tracemalloc: what grew, by source line, type and table."""

    def __init__(self, folder: Path, settings: dict[str, Any], frames: int) -> None:
        from cardavia.server.app import CardaviaServer
        from cardavia.server.config import ServerConfig

        tracemalloc.start(frames)
        known = {f.name for f in dataclasses.fields(ServerConfig)}  # settings of newer servers are skipped
        config = ServerConfig(
            port=0, records_dir=str(folder / "records"), bot_delay=0.0, bot_workers=0,
            **{name: value for name, value in settings.items() if name in known},
        )  # fmt: skip
        self.server = CardaviaServer(config)
        self._snapshot: tracemalloc.Snapshot | None = None
        self._types: collections.Counter[str] = collections.Counter()
        self._tables: dict[str, int] = {}
        self._matches = 0

    async def started(self) -> None:
        await self.server.start()
        self.url = f"ws://127.0.0.1:{self.server.port}/"
        gc.disable()  # cyclic garbage stays until measure() collects it and counts what went, by type

    def describe(self) -> str:
        return "in this process, under tracemalloc, no gc pacer"

    async def idle(self, timeout: float, expiry: float, baseline: dict[str, float]) -> dict[str, float]:
        gauges = await super().idle(timeout, expiry, baseline)
        await self.server.archiver.drain()
        return gauges

    async def measure(self, figures: Figures) -> None:
        # What only the cycle collector frees: on a paced node it waits in the frozen generation
        # for the pacer's next full collection (gc_pacer.py).
        # Counted twice over: what gc.DEBUG_SAVEALL keeps, and what the collector tracked before and
        # not after that is neither in gc.garbage nor a tuple or dict (the two types the collector
        # stops tracking when they hold nothing it tracks). The second is garbage that never reaches
        # gc.garbage: an object held only by a suspended generator's frame in a cycle (websockets'
        # parser holds its protocol so) is freed by reference counting while the collector closes
        # that generator.
        before = collections.Counter(_kind(o) for o in gc.get_objects())
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.set_debug(0)
        saved = collections.Counter(_kind(o) for o in gc.garbage)
        saved_bytes = sum(sys.getsizeof(o) for o in gc.garbage)
        after = collections.Counter(_kind(o) for o in gc.get_objects())
        vanished = before - after
        for untracked in ("builtins.tuple", "builtins.dict"):
            vanished.pop(untracked, None)
        garbage = saved + vanished
        gc.garbage.clear()
        gc.collect()  # what gc.garbage held is unreachable cycles again: freed now, not counted twice
        kinds = collections.Counter(_kind(o) for o in gc.get_objects())
        figures.rss = rss_bytes(os.getpid())
        traced, _ = tracemalloc.get_traced_memory()
        figures.heap = {"traced": traced, "objects": len(gc.get_objects()), "garbage": garbage.total()}
        snapshot = tracemalloc.take_snapshot().filter_traces(
            (
                tracemalloc.Filter(False, tracemalloc.__file__),
                tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
                tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
                tracemalloc.Filter(False, "<unknown>"),
            )
        )
        tables = self.tables()
        played = figures.matches - self._matches
        if self._snapshot is not None and played > 0:
            self._report(snapshot, kinds, tables, played)
            print(
                f"  cyclic garbage (freed by the collector only), by type; what gc.garbage saved of it "
                f"takes {saved_bytes / played:.0f} B per match (each object's own size):"
            )
            for name, count in garbage.most_common(20):
                print(f"    {count / played:9.2f} per match  {name}")
        self._snapshot, self._types, self._tables, self._matches = snapshot, kinds, tables, figures.matches

    def tables(self) -> dict[str, int]:
        """The size of every container the server, its lobby, match archiver, runner, metrics and node
        keeper hold, of every module-level container and ``lru_cache`` of our code, and the loop's
        timers and tasks: found by walking, so tables added later are covered too."""
        sizes: dict[str, int] = {}
        server = self.server
        owners = {"server": server, "lobby": server.lobby, "archiver": server.archiver,
                  "runner": server.runner, "metrics": server.metrics,
                  "nodes": server.node_keeper}  # fmt: skip
        for name, owner in owners.items():
            for attr, value in _attributes(owner).items():
                if isinstance(value, dict | list | set | frozenset | collections.deque):
                    sizes[f"{name}.{attr}"] = len(value)
                    if value and isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
                        sizes[f"{name}.{attr} (items)"] = sum(len(v) for v in value.values())
        for module_name, module in list(sys.modules.items()):
            if not module_name.startswith("cardavia.") or module is None:
                continue
            for attr, value in list(vars(module).items()):
                if isinstance(value, dict | list | set | collections.deque) and not attr.startswith("__"):
                    sizes[f"{module_name}.{attr}"] = len(value)
                info = getattr(value, "cache_info", None)
                if callable(info) and getattr(value, "__module__", None) == module_name:
                    sizes[f"{module_name}.{attr}()"] = int(info().currsize)
        loop = asyncio.get_running_loop()
        scheduled = getattr(loop, "_scheduled", None)
        if isinstance(scheduled, list):  # the loop's heap of TimerHandles
            sizes["loop timers (call_later)"] = len(scheduled)
            for kind, count in collections.Counter(_kind(t) for t in scheduled).items():
                sizes[f"loop timer {kind.split(' ', 1)[-1]}"] = count
        sizes["loop tasks"] = len(asyncio.all_tasks(loop))
        return sizes

    def _report(
        self, snapshot: tracemalloc.Snapshot, kinds: collections.Counter[str], tables: dict[str, int],
        played: int,
    ) -> None:  # fmt: skip
        assert self._snapshot is not None
        print(f"  -- what grew over these {played} matches (bytes and counts per match) --")
        grown = [s for s in snapshot.compare_to(self._snapshot, "lineno") if s.size_diff > 0][:15]
        print("  source lines, by bytes allocated and still held:")
        for stat in grown:
            frame = stat.traceback[0]
            print(
                f"    {stat.size_diff / played:9.0f} B {stat.count_diff / played:7.1f} blocks  "
                f"{_short(frame.filename)}:{frame.lineno}"
            )
        print("  the first of them with their callers:")
        for stat in [s for s in snapshot.compare_to(self._snapshot, "traceback") if s.size_diff > 0][:4]:
            print(f"    {stat.size_diff / played:9.0f} B per match, {stat.count_diff / played:.1f} blocks:")
            for frame in list(reversed(stat.traceback))[:6]:
                print(f"        {_short(frame.filename)}:{frame.lineno}")
        print("  object types the collector tracks:")
        for name, count in (kinds - self._types).most_common(15):
            print(f"    {count / played:9.2f} per match  {name}")
        print("  tables that grew:")
        changed = [(k, self._tables.get(k, 0), v) for k, v in tables.items() if v > self._tables.get(k, 0)]
        for name, before, after in sorted(changed, key=lambda c: c[1] - c[2])[:25]:
            print(f"    {name}: {before} -> {after} ({(after - before) / played:+.2f} per match)")
        if not changed:
            print("    none")

    async def close(self) -> None:
        gc.enable()
        await self.server.shutdown()
        tracemalloc.stop()


def _kind(thing: object) -> str:
    """An object's type; for a function or timer also what it runs, which says who made it."""
    cls = type(thing)  # not isinstance: a proxy whose object is gone raises on its __class__
    kind = f"{cls.__module__}.{cls.__qualname__}"
    if cls is types.FunctionType:
        assert isinstance(thing, types.FunctionType)
        code = thing.__code__
        return f"{kind} {thing.__qualname__} ({_short(code.co_filename)}:{code.co_firstlineno})"
    if issubclass(cls, asyncio.TimerHandle):
        assert isinstance(thing, asyncio.TimerHandle)
        callback = getattr(thing, "_callback", None)
        return (
            f"{kind} {getattr(callback, '__qualname__', callback)}{' cancelled' if thing.cancelled() else ''}"
        )
    return kind


def _attributes(owner: object) -> dict[str, Any]:
    found: dict[str, Any] = dict(getattr(owner, "__dict__", {}))
    for cls in type(owner).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(owner, slot):
                found[slot] = getattr(owner, slot)
    return found


def _short(filename: str) -> str:
    for marker in ("/site-packages/", str(ROOT) + "/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename
