"""End-of-deal and end-of-match summaries: the scoring breakdown, then what to do next."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Literal

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Label, Static

from cardavia.clients.cli.tui.dialogs import Modal
from cardavia.clients.cli.tui.tables import Breakdown
from cardavia.protocol.i18n import Texts

Next = Literal["rematch", "lobby", "quit"]


def relabel_bindings(node: DOMNode, texts: Texts, labels: Mapping[str, str]) -> None:
    """Describe ``node``'s key bindings in the player's language, for the footer: ``labels`` maps
    an action (as its binding names it) to the message key of its description. The class's
    bindings stay as they are: each node has its own copy to relabel."""
    bindings = node._bindings
    for key, found in list(bindings.key_to_bindings.items()):
        bindings.key_to_bindings[key] = [
            replace(b, description=texts(labels[b.action])) if b.action in labels else b for b in found
        ]


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

    BINDINGS = [
        Binding("enter", "close", "continue"),
        Binding("escape", "close", "continue", show=False),
        Binding("space", "close", "continue", show=False),
    ]

    def __init__(self, breakdown: Breakdown, texts: Texts | None = None) -> None:
        super().__init__()
        self.breakdown = breakdown
        self.texts = texts or Texts()
        relabel_bindings(self, self.texts, {"close": "summary.keys.continue"})

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield from _breakdown(self.breakdown, self.texts("summary.hint.deal"))

    def action_close(self) -> None:
        self.dismiss(None)


class MatchSummaryScreen(Modal[Next | None]):
    """The match is over: final scores and why, then a rematch, the lobby, or quit."""

    BINDINGS = [
        Binding("r", "next('rematch')", "rematch"),
        Binding("l", "next('lobby')", "lobby"),
        Binding("q", "next('quit')", "quit"),
        Binding("escape", "next('')", "look at the table"),
    ]

    def __init__(self, breakdown: Breakdown, texts: Texts | None = None) -> None:
        super().__init__()
        self.breakdown = breakdown
        self.texts = texts or Texts()
        relabel_bindings(
            self,
            self.texts,
            {
                "next('rematch')": "summary.keys.rematch",
                "next('lobby')": "summary.keys.lobby",
                "next('quit')": "summary.keys.quit",
                "next('')": "summary.keys.look",
            },
        )

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
