"""Small modal screens: pick one of several legal moves, type a room code or a chat line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option as ListOption

from cardavia.clients.cli.tui.moves import Option

Result = TypeVar("Result")

CHAT_LENGTH = 200
"""The protocol's longest chat line (``messages.Chat``)."""

MODAL_CSS = """
.modal { align: center middle; }
.modal-box {
    width: auto; max-width: 90%; min-width: 40; height: auto; max-height: 90%;
    border: round $accent; background: $surface; padding: 1 2;
}
.modal-box.wide { width: 90; }
.modal-box .title { text-style: bold; margin-bottom: 1; }
.modal-box .hint { color: $text-muted; margin-top: 1; }
"""
"""Shared by every modal screen (unscoped: each screen class sets ``SCOPED_CSS = False``)."""


class Modal(ModalScreen[Result]):
    """A centred box over the screen below."""

    DEFAULT_CSS = MODAL_CSS
    SCOPED_CSS = False

    def __init__(self) -> None:
        super().__init__(classes="modal")

    @staticmethod
    def box(*classes: str) -> Vertical:
        return Vertical(classes=" ".join(("modal-box", *classes)))


class ChoiceScreen(Modal[Option | None]):
    """Several legal actions play the chosen cards: which one? (enter or 1-9; escape goes back)"""

    BINDINGS = [Binding("escape", "cancel", "back")]

    def __init__(self, title: str, options: Sequence[Option]) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.title_text, classes="title")
            yield OptionList(
                *(
                    ListOption(f"{i + 1}. {o.label}" if i < 9 else o.label)
                    for i, o in enumerate(self.options)
                ),
                markup=False,
            )
            yield Label("enter chooses · 1-9 · escape goes back", classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.options[event.option_index])

    def on_key(self, event: Key) -> None:
        if event.character and event.character.isdigit() and 1 <= int(event.character) <= len(self.options):
            event.stop()
            self.dismiss(self.options[int(event.character) - 1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class CodeScreen(Modal[str | None]):
    """A room's short code: to join it (private rooms are joined this way only) or to watch it."""

    BINDINGS = [Binding("escape", "cancel", "back")]

    def __init__(self, title: str = "Join a room by its code") -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.title_text, classes="title")
            yield Input(placeholder="room code, like KX4P2", max_length=12, id="code")
            yield Label("", id="problem", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        code = event.value.strip().upper()
        if not 4 <= len(code) <= 12 or not code.isalnum():
            self.query_one("#problem", Label).update("a room code is 4 to 12 letters and digits")
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(Modal[str | None]):
    """One line to everybody in the room (players and watchers)."""

    BINDINGS = [Binding("escape", "cancel", "back")]

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield Label("Say something to the room", classes="title")
            yield Input(placeholder="enter sends · escape goes back", max_length=CHAT_LENGTH, id="line")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
