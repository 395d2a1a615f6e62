"""Small modal screens: pick one of several legal moves, type a room code or a chat line, choose a
language; and how every screen of the client shows its key hints in the player's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from textual._context import NoActiveAppError
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.events import Key
from textual.message_pump import MessagePump
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option as ListOption

from cardavia.clients.cli.tui.moves import Option
from cardavia.games.rules import LANGUAGES
from cardavia.games.traditions import language_data
from cardavia.protocol.i18n import Texts

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


def texts_of(node: MessagePump) -> Texts:
    """The words of the running app (``CardaviaApp.texts``); English outside such an app."""
    try:
        texts = getattr(node.app, "texts", None)
    except NoActiveAppError:
        texts = None
    return texts if isinstance(texts, Texts) else Texts()


def localize_bindings(node: DOMNode, texts: Texts) -> None:
    """Show ``node``'s key hints (the footer) in ``texts``' language.

    A binding's description in ``BINDINGS`` is the catalogue key of its words
    (``Binding("c", "create", "lobby.key.create")``). The node's bindings are
    rebuilt from its class's each time, so that calling this again after a
    language switch re-labels the footer; a description that is not a
    catalogue key is kept as it is."""
    merged = type(node)._merged_bindings
    if merged is None:
        return
    fresh = merged.copy()
    for key, bindings in fresh.key_to_bindings.items():
        fresh.key_to_bindings[key] = [
            replace(b, description=texts(b.description)) if b.description and texts.has(b.description) else b
            for b in bindings
        ]
    node._bindings = fresh
    node.refresh_bindings()


class Modal(ModalScreen[Result]):
    """A centred box over the screen below; its key hints in the player's language."""

    DEFAULT_CSS = MODAL_CSS
    SCOPED_CSS = False

    def __init__(self) -> None:
        super().__init__(classes="modal")
        self.texts = texts_of(self)
        localize_bindings(self, self.texts)

    @staticmethod
    def box(*classes: str) -> Vertical:
        return Vertical(classes=" ".join(("modal-box", *classes)))


class ChoiceScreen(Modal[Option | None]):
    """Several legal actions play the chosen cards: which one? (enter or 1-9; escape goes back)"""

    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

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
            yield Label(self.texts("forms.choice.hint"), classes="hint", markup=False)

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

    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

    def __init__(self, title: str | None = None) -> None:
        super().__init__()
        self.title_text = title if title is not None else self.texts("forms.code.join")

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.title_text, classes="title", markup=False)
            placeholder = self.texts("forms.code.placeholder", example="KX4P2")
            yield Input(placeholder=placeholder, max_length=12, id="code")
            yield Label("", id="problem", classes="hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        code = event.value.strip().upper()
        if not 4 <= len(code) <= 12 or not code.isalnum():
            self.query_one("#problem", Label).update(self.texts("forms.code.problem", least=4, most=12))
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(Modal[str | None]):
    """One line to everybody in the room (players and watchers)."""

    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield Label(self.texts("forms.chat.title"), classes="title", markup=False)
            yield Input(placeholder=self.texts("forms.chat.placeholder"), max_length=CHAT_LENGTH, id="line")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def language_name(lang: str) -> str:
    """A language's name as its own speakers write it ("Polski"), the same in every language."""
    return str(language_data(lang).get("language_name", lang))


class LanguageScreen(Modal[str | None]):
    """The six languages, each in its own name: the one chosen is the client's from then on."""

    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.texts("forms.language.title"), classes="title", markup=False)
            yield OptionList(
                *(ListOption(language_name(lang), id=lang) for lang in LANGUAGES),
                markup=False,
                id="languages",
            )
            yield Label(self.texts("forms.language.hint"), classes="hint", markup=False)

    def on_mount(self) -> None:
        languages = self.query_one(OptionList)
        languages.highlighted = LANGUAGES.index(self.current) if self.current in LANGUAGES else 0
        languages.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
