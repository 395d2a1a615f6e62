"""The replay screen: a finished match from the history, one move at a time, every hand shown.

The words are ``replay.ReplayText``'s, the same as ``cardavia replay --server``
prints; this screen asks for the replay once and then only moves through the
steps it has (right or space: the next move, left: back one, end: all of it,
home: the start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from cardavia.clients.cli.replay import ReplayText, ReplayUnreadable
from cardavia.clients.cli.session import ClientRequestError
from cardavia.clients.cli.tui.dialogs import Modal
from cardavia.protocol import messages as m

if TYPE_CHECKING:
    from cardavia.clients.cli.tui.app import CardaviaApp


class ReplayScreen(Modal[None]):
    """One finished match, stepped through with the arrow keys."""

    DEFAULT_CSS = """
    ReplayScreen .modal-box { width: 100; max-width: 100%; height: 90%; }
    ReplayScreen VerticalScroll { height: 1fr; }
    ReplayScreen #problem { color: $error; }
    """
    BINDINGS = [
        Binding("right", "step(1)", "profile.cli.key.next"),
        Binding("space", "step(1)", "profile.cli.key.next", show=False),
        Binding("left", "step(-1)", "profile.cli.key.back_move"),
        Binding("end", "step(10000)", "profile.cli.key.all"),
        Binding("home", "step(-10000)", "profile.cli.key.start", show=False),
        Binding("escape", "close", "forms.key.back"),
    ]

    def __init__(self, record: str) -> None:
        super().__init__()
        self.record = record
        self.head: list[str] = []
        self.steps: list[list[str]] = []
        self.foot: list[str] = []
        self.shown = 0
        """How many moves are shown."""

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.texts("profile.cli.replay.loading"), id="where", classes="title", markup=False)
            with VerticalScroll():
                yield Static("", id="moves")
            yield Label("", id="problem", markup=False)

    def on_mount(self) -> None:
        from cardavia.clients.cli.tui.app import CardaviaApp

        app = self.app
        assert isinstance(app, CardaviaApp)
        self.run_worker(self._load(app), exit_on_error=False)

    async def _load(self, app: CardaviaApp) -> None:
        try:
            request = app.session.requests.get_replay(self.record)
        except ValueError:  # not a record id the protocol can carry: no match has it
            self.query_one("#problem", Label).update(self.texts.error("unknown_record"))
            return
        try:
            reply = await app.session.request(request, timeout=60.0)
        except ClientRequestError as exc:
            self.query_one("#problem", Label).update(self.texts.error(exc.code, exc.error.message))
            return
        except (ConnectionError, TimeoutError):
            self.query_one("#problem", Label).update(self.texts("profile.cli.no_answer"))
            return
        assert isinstance(reply, m.Replay)
        shown = ReplayText(reply, self.texts)
        try:
            self.head, self.steps, self.foot = shown.header(), list(shown.steps()), shown.footer()
        except ReplayUnreadable as exc:
            self.head, self.steps = [], []
            problem = self.texts("profile.cli.replay.unreadable", problem=str(exc))
            self.query_one("#problem", Label).update(problem)
            return
        self._draw()

    def action_step(self, by: int) -> None:
        if self.head:
            self.shown = max(0, min(len(self.steps), self.shown + by))
            self._draw()

    def _draw(self) -> None:
        lines = self.head[:2] + [line for step in self.steps[: self.shown] for line in step]
        if not self.shown:
            lines = self.head
        if self.shown == len(self.steps):
            lines += self.foot
        self.query_one("#where", Label).update(
            self.texts("profile.cli.replay.where", shown=self.shown, total=len(self.steps))
        )
        self.query_one("#moves", Static).update(Text("\n".join(lines)))
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
