"""The node's side of ``bench/leak.py``: ``cardavia serve`` as in production, plus a thread that
answers the benchmark's questions about the Python heap (pymalloc and malloc bytes in use, objects
the collector tracks), which nothing on the wire can tell.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def node_main(argv: list[str]) -> int:
    """``cardavia serve`` exactly as in production, plus a thread answering questions about its heap.

    ``argv`` is the folder the questions come through, then ``cardavia``'s own arguments.
    """
    folder = Path(argv[0])
    threading.Thread(target=_answer_questions, args=(folder,), daemon=True, name="leak-stats").start()
    from cardavia.cli import main

    return main(argv[1:])


def _answer_questions(folder: Path) -> None:
    """Each ``ask-N`` file (``full``: collect first) gets an ``answer-N.json``: a file handshake
    needs no port and nothing in the server."""
    while True:
        time.sleep(0.1)
        for ask in sorted(folder.glob("ask-*")):
            try:
                figures: dict[str, Any] = heap_figures(full_gc=ask.read_text() == "full")
            except Exception as exc:  # the answer says so: the benchmark goes on without these figures
                figures = {"error": repr(exc)}
            answer = folder / ask.name.replace("ask-", "answer-")
            temporary = answer.with_suffix(".tmp")
            temporary.write_text(json.dumps(figures))
            os.replace(temporary, answer.with_suffix(".json"))
            ask.unlink()


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
            "keepcost",
        )
    ]  # fmt: skip


def malloc_in_use() -> int | None:
    """Bytes malloc has handed out and not got back (glibc's ``mallinfo2``): objects over
    512 bytes (big dicts and lists, long strings and bytes) live here, not in pymalloc."""
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return None
    return int(info.uordblks + info.hblkhd)


def pymalloc_in_use() -> int | None:
    """Bytes in pymalloc's allocated blocks (small objects), from ``sys._debugmallocstats``,
    which only writes to the C stderr: it is caught there for the moment it takes."""
    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return None
    with tempfile.TemporaryFile() as caught:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(caught.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        text = caught.read().decode(errors="replace")
    for line in text.splitlines():
        if line.startswith("# bytes in allocated blocks"):
            return int(line.split("=")[1].replace(",", "").strip())
    return None


def heap_figures(*, full_gc: bool) -> dict[str, float | None]:
    """The Python heap of this process; ``full_gc``: first a full collection, frozen objects included
    (what the pacer's own full collection does), whose count of freed objects is returned."""
    found: int | None = None
    if full_gc:
        frozen = gc.get_freeze_count() > 0
        gc.unfreeze()
        found = gc.collect()
        if frozen:
            gc.freeze()
    return {
        "pymalloc": pymalloc_in_use(),
        "malloc": malloc_in_use(),
        "objects": len(gc.get_objects()) + gc.get_freeze_count(),
        "frozen": gc.get_freeze_count(),
        "garbage": found,
    }
