"""Where a page load's JavaScript time goes, function by function (``python -m bench.web_page --profile``).

The shipped bundle is minified, so a profile of it names functions ``u`` and
``Xe``. For the profile the same sources are bundled without minifying
(esbuild, as ``clients/web/build.mjs`` does but with names and lines kept) into
a temporary folder, which a second ``cardavia serve`` serves (``--web-dir``).
The code is the same; an unminified bundle is larger to parse, so this load's
total is not one of the measured ones, only its distribution.

The profile is V8's sampling profiler as a Chromium trace records it
(``disabled-by-default-v8.cpu_profiler``: ``ProfileChunk`` events holding the
call tree's new nodes and the samples with their time deltas). Each sample's
time goes to the function on top of the stack (self time); samples outside the
span from navigation start to the interactive lobby are left out.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

WEB = Path(__file__).resolve().parent.parent / "clients" / "web"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"

PROFILE_CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "blink.user_timing", "toplevel"]


def build_readable_page(folder: Path) -> Path:
    """The page's sources bundled without minifying into ``folder``, with the index naming them."""
    folder.mkdir(parents=True, exist_ok=True)
    common = ["--bundle", "--platform=browser", "--target=es2022", "--charset=utf8", "--log-level=warning"]
    subprocess.run(
        [str(ESBUILD), "src/main.js", "--format=esm", f"--outfile={folder / 'app.js'}", *common],
        cwd=WEB, check=True,
    )  # fmt: skip
    subprocess.run(
        [str(ESBUILD), "src/styles/app.css", f"--outfile={folder / 'app.css'}", *common], cwd=WEB, check=True
    )
    (folder / "index.html").write_text((WEB / "src" / "index.html").read_text())
    return folder


def _events(trace: bytes) -> list[dict[str, Any]]:
    loaded = json.loads(trace)
    events: list[dict[str, Any]] = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    return events


def self_time_by_function(trace: bytes, start_mark: str, end_mark: str) -> tuple[float, dict[str, float]]:
    """Milliseconds of samples on top of the stack per function, between the last ``start_mark``
    before the last ``end_mark`` and that ``end_mark``; and the span's length in milliseconds."""
    events = _events(trace)
    ends = [e for e in events if e.get("name") == end_mark]
    if not ends:
        return 0.0, {}
    end = max(e["ts"] for e in ends)
    pid = ends[0].get("pid")  # the page's renderer: the trace also holds the browser's own
    starts = [
        e["ts"] for e in events if e.get("name") == start_mark and e.get("pid") == pid and e["ts"] <= end
    ]
    start = max(starts) if starts else end - 5_000_000
    # each profile (one per thread profiled) by its id: its start time, nodes and samples
    begun: dict[tuple[Any, Any], float] = {}
    nodes: dict[tuple[Any, Any], dict[int, dict[str, Any]]] = {}
    samples: dict[tuple[Any, Any], list[tuple[int, float]]] = {}
    for e in events:
        key = (e.get("pid"), e.get("id"))
        if e.get("pid") != pid:
            continue
        if e.get("name") == "Profile":
            begun[key] = float(e.get("args", {}).get("data", {}).get("startTime", e["ts"]))
        elif e.get("name") == "ProfileChunk":
            data = e.get("args", {}).get("data", {})
            profile = data.get("cpuProfile", {})
            for node in profile.get("nodes", []):
                nodes.setdefault(key, {})[node["id"]] = node.get("callFrame", {})
            deltas = data.get("timeDeltas", [])
            samples.setdefault(key, []).extend(zip(profile.get("samples", []), deltas, strict=False))
    totals: dict[str, float] = {}
    for key, taken in samples.items():
        clock = begun.get(key)
        if clock is None:
            continue
        frames = nodes.get(key, {})
        for node, delta in taken:
            clock += delta
            if not start <= clock <= end:
                continue
            frame = frames.get(node, {})
            name = frame.get("functionName") or "(anonymous)"
            url = str(frame.get("url", ""))
            where = f" {url.rsplit('/', 1)[-1]}:{frame.get('lineNumber', -1) + 1}" if url else ""
            label = f"{name}{where}"
            totals[label] = totals.get(label, 0.0) + delta / 1000
    return (end - start) / 1000, totals
