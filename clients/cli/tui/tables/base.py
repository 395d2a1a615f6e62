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
from cardavia.protocol.i18n import Texts

View = Mapping[str, Any]
Event = Mapping[str, Any]


@dataclass
class TableContext:
    """Who sits where and how to name cards: everything rendering needs besides the view."""

    names: CardNames
    seat: int | None
    players: list[str]

    @property
    def texts(self) -> Texts:
        """The interface's words, in the language the cards are named in."""
        return self.names.texts

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return self.players[seat]
        if seat is None:
            return self.texts("table.nobody")
        return self.texts("table.seat", number=seat + 1 if isinstance(seat, int) else str(seat))

    def card(self, code: Any) -> str:
        return self.names.card(str(code))

    def cards(self, codes: Any, sep: str = ", ") -> str:
        return self.names.cards([str(c) for c in codes or []], sep)

    def per_seat(self, values: Sequence[Any]) -> str:
        return " · ".join(f"{self.who(s)} {v}" for s, v in enumerate(values))

    def either(self, items: Sequence[str]) -> str:
        """ "a or b or c", in the player's language."""
        return _fold(items, lambda a, b: self.texts("table.list.or", first=a, second=b))

    def both(self, first: str, second: str) -> str:
        """ "a and b", in the player's language."""
        return self.texts("table.list.and", first=first, second=second)


def _fold(items: Sequence[str], join: Any) -> str:
    out = items[0] if items else ""
    for item in items[1:]:
        out = join(out, item)
    return out


@dataclass
class Breakdown:
    """A scoring summary: one column per player, one row per scoring item, and notes."""

    title: str
    players: list[str]
    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)
    """The message key of each row's label (``summary.row.cards``) to the label shown."""
    record: str | None = None
    """The match record's id, on a match summary that has one."""

    def add(self, texts: Texts, key: str, cells: list[str]) -> None:
        """A row labelled by the message ``key``."""
        label = texts(key)
        self.keys[key] = label
        self.rows.append((label, cells))

    def row(self, label: str) -> list[str]:
        """The cells of the row with this label or label key (KeyError if none: tests ask for real rows)."""
        label = self.keys.get(label, label)
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
        self.texts = ctx.texts

    # ------------------------------------------------------------------ board
    def board(self, view: View) -> RenderableType:
        seats = Table.grid(padding=(0, 1))
        seats.add_column(width=1, style="bold yellow")
        seats.add_column(no_wrap=True)
        seats.add_column()
        for seat in range(len(self.ctx.players)):
            mine = seat == self.ctx.seat
            who = self.ctx.who(seat)
            name = Text(self.texts("table.you", name=who) if mine else who, style="bold" if mine else "")
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
        return [self.count("table.count.cards", counts[seat])] if seat < len(counts) else []

    def count(self, key: str, n: Any) -> str:
        """A plural message of ``count``: "1 card", "5 cards", "2 karty", "5 kart"."""
        return self.texts(key, count=_whole(n))

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
        return (
            self.texts("table.totals", scores=self.ctx.per_seat(totals)) if isinstance(totals, list) else ""
        )

    def turn(self, view: View) -> str:
        mover = view.get("to_move")
        if mover is None:
            return self.texts("table.turn.over") if view.get("result") else ""
        if mover == self.ctx.seat:
            return self.texts("table.your_turn")
        return self.texts("table.turn.other", name=self.ctx.who(mover))

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
            lines.append(self.texts("log.play", who=who, card=self.ctx.card(event["card"])))
        elif kind == "game_over":
            lines.append(self.match_line(event))

    def match_line(self, event: Event) -> str:
        scores = ", ".join(str(s) for s in event.get("scores") or [])
        winner = event.get("winner")
        if winner is None:
            return self.texts("log.match_over.shared", scores=scores)
        return self.texts("log.match_over.winner", who=self.ctx.who(winner), scores=scores)

    # -------------------------------------------------------------- summaries
    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """The breakdown of a scored deal, from its ``deal_end`` event (or ``deal_result``)."""
        out = Breakdown(self.texts("summary.deal_scored", number=number), list(self.ctx.players))
        out.add(self.texts, "summary.row.points", [signed(p) for p in event.get("points") or []])
        if isinstance(event.get("totals"), list):
            out.add(self.texts, "summary.row.match_totals", [str(t) for t in event["totals"]])
        return out

    def match_summary(self, result: Event, view: View) -> Breakdown:
        winner = result.get("winner")
        if winner is None:
            title = self.texts("summary.title.shared")
        elif winner == self.ctx.seat:
            title = self.texts("summary.title.you_win")
        else:
            title = self.texts("summary.title.wins", name=self.ctx.who(winner))
        out = Breakdown(title, list(self.ctx.players))
        out.add(self.texts, self.score_label, [str(s) for s in result.get("scores") or []])
        reason = str(result.get("reason", ""))
        target = view.get("target", "")
        # a reason this client has no words for (a newer server) is shown as the server names it
        why = self.texts.get(
            f"summary.reason.{reason}",
            reason,
            winner=self.ctx.who(winner),
            target=target if isinstance(target, int) else str(target),
        )
        out.notes.append(self.texts("summary.why", reason=why))
        if result.get("record"):
            out.record = str(result["record"])
            out.notes.append(self.texts("summary.record", record=out.record))
        return out

    score_label = "summary.row.final_score"
    """The message key of the match summary's score row."""


def _whole(n: Any) -> int:
    """A count from a view, where a malformed one counts as none."""
    try:
        return int(n)
    except (TypeError, ValueError):
        return 0


def plain(renderable: RenderableType, width: int = 100) -> str:
    """A renderable as plain text, the way a terminal of ``width`` columns shows it."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n)
