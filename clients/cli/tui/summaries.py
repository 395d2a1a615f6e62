"""End-of-deal and end-of-match summaries: the scoring breakdown, then what to do next."""

from __future__ import annotations

from typing import Literal

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Label, Static

from cardavia.clients.cli.tui.dialogs import Modal, localize_bindings
from cardavia.clients.cli.tui.tables import Breakdown
from cardavia.protocol.i18n import Texts

Next = Literal["rematch", "lobby", "quit"]


def breakdown_table(breakdown: Breakdown) -> Table:
    table = Table(box=None, padding=(0, 2), show_edge=False)
    table.add_column("")
    for player in breakdown.players:
        table.add_column(Text(player), justify="right")
    for label, cells in breakdown.rows:
        table.add_row(Text(label), *(Text(cell) for cell in cells))
    return table


class DealSummaryScreen(Modal[None]):
    """A deal was scored; the game goes on when it is closed."""

    BINDINGS = [  # descriptions are catalogue keys (dialogs.localize_bindings)
        Binding("enter", "close", "summary.keys.continue"),
        Binding("escape", "close", "summary.keys.continue", show=False),
        Binding("space", "close", "summary.keys.continue", show=False),
    ]

    def __init__(self, breakdown: Breakdown, texts: Texts | None = None) -> None:
        super().__init__()
        self.breakdown = breakdown
        self.texts = texts or Texts()
        localize_bindings(self, self.texts)

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield from _breakdown(self.breakdown, self.texts("summary.hint.deal"))

    def action_close(self) -> None:
        self.dismiss(None)


class MatchSummaryScreen(Modal[Next | None]):
    """The match is over: final scores and why, then a rematch, the lobby, or quit."""

    BINDINGS = [  # descriptions are catalogue keys (dialogs.localize_bindings)
        Binding("r", "next('rematch')", "summary.keys.rematch"),
        Binding("l", "next('lobby')", "summary.keys.lobby"),
        Binding("q", "next('quit')", "summary.keys.quit"),
        Binding("escape", "next('')", "summary.keys.look"),
    ]

    def __init__(self, breakdown: Breakdown, texts: Texts | None = None) -> None:
        super().__init__()
        self.breakdown = breakdown
        self.texts = texts or Texts()
        localize_bindings(self, self.texts)

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield from _breakdown(self.breakdown, self.texts("summary.hint.match"))

    def action_next(self, choice: str) -> None:
        self.dismiss(choice if choice in ("rematch", "lobby", "quit") else None)  # type: ignore[arg-type]


def _breakdown(breakdown: Breakdown, hint: str) -> ComposeResult:
    """A summary's body: title, scoring table, notes and the keys that lead on."""
    yield Label(Text(breakdown.title), classes="title")
    yield Static(breakdown_table(breakdown))
    for note in breakdown.notes:
        yield Label(Text(note))
    yield Label(Text(hint), classes="hint")
