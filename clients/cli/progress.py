"""A status line for long runs (swarm, headless bots, arena, selfplay).

On a terminal the line is redrawn in place (at most ten times a second) and
results printed with ``print`` appear above it. When the output is a file or
a CI log, a redrawn line would be noise, so the status is printed as a plain
line every ``every`` seconds instead, and once more at the end.

Rich's progress bars do the terminal part, but print nothing until the end
when the output is not a terminal, which is exactly when a long CI run needs
periodic lines; so this is its own small class.

    with Progress() as progress:
        for done in range(1, total + 1):
            ...
            progress.count(done, total, "games")
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

CLEAR_LINE = "\r\x1b[2K"
REDRAW_SECONDS = 0.1


class Progress:
    """One live status line: in place on a terminal, a line every ``every`` seconds otherwise."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        every: float = 10.0,
        tty: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = every
        self._clock = clock
        self._started = clock()
        self._shown_at: float | None = None
        self._line = ""
        self._drawn = False
        self._last_plain = ""
        """The status line last printed as a plain line (not a terminal), so ``close`` does not repeat it."""

    @property
    def elapsed(self) -> float:
        """Seconds since the progress display was made."""
        return self._clock() - self._started

    def update(self, text: str, *, force: bool = False) -> None:
        """Set the status; it is shown when the redraw (or print) interval allows, or at once if ``force``."""
        self._line = text
        now = self._clock()
        interval = REDRAW_SECONDS if self.tty else self.every
        if not force and self._shown_at is not None and now - self._shown_at < interval:
            return
        self._shown_at = now
        self._show()

    def count(self, done: int, total: int | None, unit: str, extra: str = "") -> None:
        """A counting status: ``37/100 games (37%), 4.1/s, about 15 s left`` and ``extra``."""
        elapsed = self.elapsed
        rate = done / elapsed if elapsed > 0 else 0.0
        if total:
            text = f"{done}/{total} {unit} ({done / total:.0%}), {rate:.1f}/s"
            if rate > 0 and done < total:
                text += f", about {(total - done) / rate:.0f} s left"
        else:
            text = f"{done} {unit}, {rate:.1f}/s"
        self.update(f"{text}, {extra}" if extra else text, force=done == total)

    def print(self, line: str, file: TextIO | None = None) -> None:
        """A permanent line (a result), above the live line on a terminal; ``file`` (say stdout,
        with the status on stderr) receives it instead of the progress stream."""
        if self.tty and self._drawn:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
            self._drawn = False
        out = file if file is not None else self.stream
        out.write(line + "\n")
        out.flush()
        if self.tty and self._line:
            self._show()

    def close(self, final: str | None = None) -> None:
        """End the display: the last status (or ``final``) stays as an ordinary line."""
        text = final if final is not None else self._line
        if self.tty and self._drawn:
            self.stream.write(CLEAR_LINE)
        if text and (self.tty or text != self._last_plain):
            self.stream.write(text + "\n")
        self.stream.flush()
        self._drawn = False
        self._line = ""

    def _show(self) -> None:
        if self.tty:
            self.stream.write(CLEAR_LINE + self._line)
            self._drawn = True
        else:
            self.stream.write(self._line + "\n")
            self._last_plain = self._line
        self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
