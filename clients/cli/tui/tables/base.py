"""What every game's table shares: seat names, the board's layout, generic events and results.

A ``GameTable`` turns one seat's view (the engine's ``view(seat)``, kept by the
session from snapshot and deltas) into a board, and the public events of each
delta into log lines. It reads only what the view and events hold, so what a
player sees is exactly what the server let them know.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardavia.clients.cli.tui.names import CardNames

View = Mapping[str, Any]
Event = Mapping[str, Any]

REASONS = {
    "target": "{winner} reached the target of {target}",
    "points": "{winner} has the most points",
    "shared": "the top score is shared",
}


@dataclass
class TableContext:
    """Who sits where and how to name cards: everything rendering needs besides the view."""

    names: CardNames
    seat: int | None
    players: list[str]

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return self.players[seat]
        return "nobody" if seat is None else f"seat {seat}"

    def card(self, code: Any) -> str:
        return self.names.card(str(code))

    def cards(self, codes: Any, sep: str = ", ") -> str:
        return self.names.cards([str(c) for c in codes or []], sep)

    def per_seat(self, values: Sequence[Any]) -> str:
        return " · ".join(f"{self.who(s)} {v}" for s, v in enumerate(values))


@dataclass
class Breakdown:
    """A scoring summary: one column per player, one row per scoring item, and notes."""

    title: str
    players: list[str]
    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, label: str) -> list[str]:
        """The cells of the row with this label (KeyError if none: tests ask for real rows)."""
        for name, cells in self.rows:
            if name == label:
                return cells
        raise KeyError(label)

    def text(self) -> str:
        """The whole breakdown as plain lines."""
        width = max([len(r[0]) for r in self.rows] + [8])
        lines = [self.title, " " * width + "  " + "  ".join(f"{p:>14}" for p in self.players)]
        lines += [f"{label:<{width}}  " + "  ".join(f"{c:>14}" for c in cells) for label, cells in self.rows]
        return "\n".join(lines + self.notes)


class GameTable:
    """The generic table; each game overrides what it shows differently."""

    game = ""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------ board
    def board(self, view: View) -> RenderableType:
        seats = Table.grid(padding=(0, 1))
        seats.add_column(width=1, style="bold yellow")
        seats.add_column(no_wrap=True)
        seats.add_column()
        for seat in range(len(self.ctx.players)):
            mine = seat == self.ctx.seat
            name = Text(self.ctx.who(seat) + (" (you)" if mine else ""), style="bold" if mine else "")
            marker = "▶" if view.get("to_move") == seat else ""
            seats.add_row(marker, name, Text(" · ".join(self.seat_facts(view, seat))))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", min_width=14)
        grid.add_column()
        for label, value in self.board_lines(view):
            grid.add_row(label, Text(value) if isinstance(value, str) else value)
        return Group(seats, Text(""), grid)

    def seat_facts(self, view: View, seat: int) -> list[str]:
        counts = view.get("hand_counts") or []
        return [plural(counts[seat], "card")] if seat < len(counts) else []

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        return []

    def chip(self, code: Any, caption: str = "") -> Text:
        text = Text(f"{caption}: " if caption else "")
        text.append(f" {self.ctx.card(code)} ", style="black on white")
        return text

    def card_row(self, codes: Any, captions: list[str] | None = None) -> RenderableType:
        """Cards as chips that wrap between cards, never inside a name."""
        codes = list(codes or [])
        if not codes:
            return Text("—", style="dim")
        labels = captions or [""] * len(codes)
        return Columns([self.chip(c, label) for c, label in zip(codes, labels, strict=False)])

    def scores(self, view: View) -> str:
        """The match standing, for the header."""
        totals = view.get("totals")
        return f"totals: {self.ctx.per_seat(totals)}" if isinstance(totals, list) else ""

    def turn(self, view: View) -> str:
        mover = view.get("to_move")
        if mover is None:
            return "match over" if view.get("result") else ""
        return "your turn" if mover == self.ctx.seat else f"{self.ctx.who(mover)} to move"

    # ----------------------------------------------------------------- events
    def describe(self, events: Sequence[Event]) -> list[str]:
        """Log lines for the events of one delta."""
        lines: list[str] = []
        for index, event in enumerate(events):
            following = events[index + 1] if index + 1 < len(events) else None
            self.describe_event(event, following, lines)
        return lines

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "play" and "card" in event:
            lines.append(f"{who} plays {self.ctx.card(event['card'])}")
        elif kind == "game_over":
            lines.append(self.match_line(event))

    def match_line(self, event: Event) -> str:
        scores = ", ".join(str(s) for s in event.get("scores") or [])
        winner = event.get("winner")
        if winner is None:
            return f"Match over: no single winner (scores {scores})"
        return f"Match over: {self.ctx.who(winner)} wins (scores {scores})"

    # -------------------------------------------------------------- summaries
    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """The breakdown of a scored deal, from its ``deal_end`` event (or ``deal_result``)."""
        out = Breakdown(f"Deal {number} scored", list(self.ctx.players))
        out.rows.append(("points", [signed(p) for p in event.get("points") or []]))
        if isinstance(event.get("totals"), list):
            out.rows.append(("match totals", [str(t) for t in event["totals"]]))
        return out

    def match_summary(self, result: Event, view: View) -> Breakdown:
        winner = result.get("winner")
        title = (
            "No single winner"
            if winner is None
            else ("You win!" if winner == self.ctx.seat else f"{self.ctx.who(winner)} wins")
        )
        out = Breakdown(title, list(self.ctx.players))
        out.rows.append((self.score_label, [str(s) for s in result.get("scores") or []]))
        pattern = REASONS.get(str(result.get("reason", "")), str(result.get("reason", "")))
        target = view.get("target", "")
        out.notes.append("Why: " + pattern.format(winner=self.ctx.who(winner), target=target))
        if result.get("record"):
            out.notes.append(f"Record: {result['record']}")
        return out

    score_label = "final score"


def plural(n: Any, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def plain(renderable: RenderableType, width: int = 100) -> str:
    """A renderable as plain text, the way a terminal of ``width`` columns shows it."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n)
