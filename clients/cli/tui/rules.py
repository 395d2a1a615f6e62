"""The rules screen: a game's rules in the player's language, over the lobby or a table.

The texts are the package's own Markdown (``cardavia.games.rules``), so they
are there without a server; a game whose rules are not written in the
player's language shows them in English and says so.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Label, Markdown

from cardavia.clients.cli.tui.dialogs import Modal
from cardavia.clients.cli.tui.footer import KeyHints
from cardavia.games.rules import rules_text
from cardavia.games.traditions import game_name


class RulesScreen(Modal[None]):
    """``game``'s rules, scrolled with the arrows and page keys; escape, q or ? closes it."""

    DEFAULT_CSS = """
    RulesScreen .modal-box { width: 100; max-width: 100%; height: 100%; max-height: 100%; padding: 0 1; }
    RulesScreen .modal-box .title { margin-bottom: 0; }
    RulesScreen #rules-text { height: 1fr; }
    RulesScreen .modal-box .hint { margin-top: 0; }
    """
    BINDINGS = [
        Binding("escape", "close", "rules.key.close"),
        Binding("q", "close", "rules.key.close", show=False),
        Binding("question_mark", "close", "rules.key.close", show=False, key_display="?"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game
        self.rules = rules_text(game, self.texts.lang)

    def compose(self) -> ComposeResult:
        t = self.texts
        with self.box():
            yield Label(t("rules.title", game=game_name(self.game, t.lang)), classes="title", markup=False)
            if self.rules.lang != t.lang:
                yield Label(t("rules.in_english"), classes="hint", markup=False)
            with VerticalScroll(id="rules-text"):
                yield Markdown(self.rules.markdown, open_links=False)
            yield Label(t("rules.hint"), classes="hint", markup=False)
        yield KeyHints()

    def on_mount(self) -> None:
        self.query_one("#rules-text", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
