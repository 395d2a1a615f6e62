"""The key hints at the foot of every screen, on as many rows as they need.

Textual's ``Footer`` lays its keys out on one row that scrolls sideways: on an 80-column
terminal the lobby's eleven keys in Polish, or the table's keys during a Dou Dizhu turn,
ran off its right edge with nothing to say they were there. ``KeyHints`` is the same footer
(the same keys, clickable, localized by ``dialogs.localize_bindings``) laid out as a grid
whose columns follow the terminal's width and the keys' own widths, so every key stays in
sight; it takes a second or third row only when one does not hold them all.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KEY_PADDING = 3
"""Cells a key takes besides its key and description: the padding around them and the gap."""


class KeyHints(Footer):
    """A footer whose keys wrap onto further rows instead of running off the screen."""

    DEFAULT_CSS = """
    KeyHints { layout: grid; grid-size: 4; grid-gutter: 0 0; height: auto; min-height: 1; max-height: 5; }
    KeyHints FooterKey { width: 1fr; }
    """

    def on_resize(self, event: events.Resize) -> None:
        self._arrange(list(self.query(FooterKey)))

    def compose(self) -> ComposeResult:
        """The keys change with the screen's state (a turn, a match's end): lay them out anew
        (``Footer.compose`` puts them all on one row again)."""
        made = list(super().compose())
        # laid out before the first frame: keys that moved after it would move the screen too
        self._arrange([k for k in made if isinstance(k, FooterKey)])
        yield from made

    def _arrange(self, keys: list[FooterKey]) -> None:
        width = self.size.width or self.app.size.width
        if not keys or not width:
            return
        cells = [cell_len(k.key_display) + cell_len(k.description) + KEY_PADDING for k in keys]
        columns = packed_columns(cells, width)
        self.styles.grid_size_columns = len(columns)
        self.styles.grid_columns = " ".join(str(w) for w in columns)


def packed_columns(cells: list[int], width: int) -> list[int]:
    """The widths of the most columns whose keys, laid out row by row, fit ``width`` cells:
    each column as wide as its widest key (at least one column, however narrow the screen)."""
    for count in range(len(cells), 1, -1):
        widths = [max(cells[i::count]) for i in range(count)]
        if sum(widths) <= width:
            return widths
    return [min(max(cells), width)]
