"""The player's hand: cards as chips with a cursor, marks for what may be played, and a selection.

The widget only shows and remembers; the table screen decides what a key does.
Chips wrap between cards, never inside a name, and a click on a chip moves the
cursor to it (a second click on the same chip asks to play it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from cardavia.clients.cli.tui.names import CardNames


class HandWidget(Widget):
    """Cards in hand; ``playable`` marks the cards some legal move uses while it is our turn."""

    DEFAULT_CSS = """
    HandWidget { height: auto; min-height: 1; padding: 0 1; }
    """

    class Chosen(Message):
        """A chip was clicked while under the cursor: play it, as enter would."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[str] = []
        self.names = CardNames(None)
        self.cursor = 0
        self.selected: set[int] = set()
        self.active = False
        """Our turn: unplayable cards are dimmed and the cursor skips them."""
        self.playable: Callable[[str], bool] = lambda code: False
        self.compact = False
        """Drawn by corner indices, chips side by side (set by the last layout)."""
        self._spots: list[tuple[int, int, int, int]] = []
        """(line, first column, last column + 1, card index) of each chip, for clicks."""

    # ---------------------------------------------------------------- state
    def show(self, cards: Sequence[str], names: CardNames) -> None:
        """A new hand: keep the cursor on the same card if it is still there, and the selection."""
        current = self.current()
        kept = {self.cards[i] for i in self.selected if i < len(self.cards)}
        changed = list(cards) != self.cards or names is not self.names
        self.cards, self.names = list(cards), names
        self.selected = {i for i, c in enumerate(self.cards) if c in kept}
        self.cursor = (
            self.cards.index(current) if current in self.cards else min(self.cursor, len(self.cards) - 1)
        )
        self.cursor = max(self.cursor, 0)
        self.refresh(layout=changed)

    def set_turn(self, active: bool, playable: Callable[[str], bool]) -> None:
        self.active, self.playable = active, playable
        if active and self.cards and not self._usable(self.cursor):
            self.move(1)
        self.refresh()

    def current(self) -> str | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def selected_cards(self) -> list[str]:
        return [c for i, c in enumerate(self.cards) if i in self.selected]

    def select(self, cards: Sequence[str]) -> None:
        """Select exactly these cards (a suggestion), cursor on the first."""
        wanted = list(cards)
        self.selected = set()
        for i, code in enumerate(self.cards):
            if code in wanted:
                wanted.remove(code)
                self.selected.add(i)
        if self.selected:
            self.cursor = min(self.selected)
        self.refresh()

    def toggle(self) -> None:
        if self.cards:
            self.selected ^= {self.cursor}
            self.refresh()

    def clear(self) -> None:
        self.selected = set()
        self.refresh()

    def _usable(self, index: int) -> bool:
        return not self.active or self.playable(self.cards[index]) or not any(map(self.playable, self.cards))

    def move(self, step: int) -> None:
        """Move the cursor by ``step`` cards, over the cards nothing legal uses while it is our turn."""
        if not self.cards:
            return
        n = len(self.cards)
        index = self.cursor
        for _ in range(n):
            index = (index + step) % n
            if self._usable(index):
                break
        self.cursor = index
        self.refresh()

    def jump(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.refresh()

    # -------------------------------------------------------------- drawing
    def _chip(self, index: int, compact: bool = False) -> Text:
        code = self.cards[index]
        short = self.names.short(code) if compact else None
        if short is not None:
            label = f"{short} "
        else:
            mark = "✓" if index in self.selected else f"{index + 1}" if index < 9 else " "
            label = f" {mark} {self.names.card(code)} "
        red = code[1:] in ("H", "D") or code == "RJ"
        if index == self.cursor:
            # a selected card under the cursor stays green: compact chips have no ✓ to show it
            style = "bold underline black on green" if index in self.selected else "bold reverse"
        elif index in self.selected:
            style = "black on green"
        elif self.active and not self.playable(code):
            style = "grey50 on grey19"
        else:
            style = "red on white" if short is not None and red else "black on white"
        return Text(label, style=style)

    def _layout(self, width: int) -> list[list[tuple[int, Text]]]:
        """Chips with full names; a hand that would take more than two lines so (Dou Dizhu's
        twenty cards) is shown by corner indices, "K♠ 10♥", which fit one line of 80 columns."""
        self.compact = False
        lines = self._lines(width, compact=False)
        if len(lines) > 2 and all(self.names.short(c) is not None for c in self.cards):
            self.compact = True
            lines = self._lines(width, compact=True)
        return lines

    def _lines(self, width: int, *, compact: bool) -> list[list[tuple[int, Text]]]:
        gap = 0 if compact else 1
        lines: list[list[tuple[int, Text]]] = [[]]
        used = 0
        for index in range(len(self.cards)):
            chip = self._chip(index, compact)
            need = chip.cell_len + (gap if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, chip.cell_len
            lines[-1].append((index, chip))
            used += need
        return lines

    def render(self) -> Text:
        if not self.cards:
            return Text(self.names.texts("table.hand.empty"), style="dim")
        out = Text()
        self._spots = []
        lines = self._layout(max(self.content_size.width, 20))
        # a hand drawn by corner letters says what they stand for, on its border
        self.border_subtitle = (self.names.legend(self.size.width - 4) or "") if self.compact else ""
        for number, line in enumerate(lines):
            if number:
                out.append("\n")
            column = 0
            for position, (index, chip) in enumerate(line):
                if position and not self.compact:
                    out.append(" ")
                    column += 1
                self._spots.append((number, column, column + chip.cell_len, index))
                out.append_text(chip)
                column += chip.cell_len
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self._layout(max(width, 20)))) if self.cards else 1

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, first, last, index in self._spots:
            if line == offset.y and first <= offset.x < last:
                if index == self.cursor:
                    self.post_message(self.Chosen())
                else:
                    self.cursor = index
                    self.refresh()
                return
