"""The table screen: the board, the running log, the hand, and the keys that play legal moves.

Everything shown comes from the session's view store (snapshot + deltas) and
the public events of each delta; a move can only be one of the ``your_turn``
list. Keys: ←/→ (or 1-9) pick a card, enter plays it, a choice follows when
the card can be played several ways; Dou Dizhu selects cards with space (n
suggests a legal play) and plays them with enter; game actions that play no
card have their own keys, shown in the prompt line.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Static

from cardavia.clients.cli.tui.dialogs import CHAT_LENGTH, ChatScreen, ChoiceScreen, localize_bindings
from cardavia.clients.cli.tui.footer import KeyHints
from cardavia.clients.cli.tui.hand import HandWidget
from cardavia.clients.cli.tui.moves import MoveMenu, Option
from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.summaries import DealSummaryScreen, MatchSummaryScreen, Next
from cardavia.clients.cli.tui.tables import GameTable, TableContext, table_for
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import display_name
from cardavia.protocol.text import TextRefused, check, display_safe

if TYPE_CHECKING:
    from cardavia.clients.cli.tui.app import CardaviaApp

NO_MOVES: list[dict[str, Any]] = []
CARD_KEYS = frozenset("123456789")
"""Keys that move the cursor to the n-th card (unless the position gives the key to an action)."""


def fitted_title(optional: list[str], needed: list[str], width: int) -> str:
    """The title line: the room, scores, whose turn and time left always; the game's and the
    pack's names (both also in the log's first line) only while the line fits ``width``, the
    pack's name given up first. What still does not fit wraps to a second line."""
    for keep in (len(optional), len(optional) - 1, 0):
        text = " · ".join([*optional[:keep], *needed])
        if cell_len(text) <= width:
            return text
    return text


class TableScreen(Screen[None]):
    """One room, from waiting for players to the match summary and rematches."""

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    #title { height: auto; max-height: 2; background: $primary-background; padding: 0 1; text-style: bold; }
    #main { height: 1fr; }
    #board-box { width: 3fr; border: round $secondary; padding: 0 1; }
    #log { width: 2fr; border: round $secondary; }
    #prompt { height: auto; padding: 0 1; color: $warning; }
    #hand { border: round $accent; }
    #status { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [  # descriptions are catalogue keys (dialogs.localize_bindings)
        Binding("left", "cursor(-1)", "table.keys.card", show=False),
        Binding("right", "cursor(1)", "table.keys.card", show=False),
        Binding("enter", "play", "table.keys.play"),
        Binding("space", "select_card", "table.keys.select"),
        Binding("n", "suggest", "table.keys.suggest"),
        Binding("backspace", "clear", "table.keys.clear"),
        Binding("s", "start", "table.keys.start"),
        Binding("r", "rematch", "table.keys.rematch"),
        Binding("t", "chat", "table.keys.chat"),
        Binding("l", "leave", "table.keys.leave"),
        Binding("q", "app.quit", "table.keys.quit"),
    ]

    def __init__(self, snapshot: m.Snapshot, *, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.texts = Texts(lang)
        """The table's words in the player's language (the same as the card names')."""
        localize_bindings(self, self.texts)
        self.room = snapshot.room
        self.seat = snapshot.seat
        self.menu = MoveMenu(snapshot.room.game, NO_MOVES, {}, CardNames(None, lang))
        self.sent: MoveMenu | None = None
        """The moves offered when we last acted, given back if the server refuses the move."""
        self.deadline: float | None = None
        self.turn_seq: int | None = None
        """The view sequence number of the turn offered last (a new turn has a new one)."""
        self.last_deal_end: dict[str, Any] | None = None
        self.result: m.MatchResult | None = None
        self._summaries: deque[ModalScreen[Any]] = deque()
        self._drawn_board: tuple[object, ...] = ()
        self._drawn_bindings: tuple[object, ...] = ()
        self._ready = False
        """Composed: the widgets exist (set first thing in ``on_mount``)."""
        self._shown: dict[str, str] = {}
        self._title_lines = 1
        """What each line shows now, so an unchanged line is not drawn again."""
        self._summary_open = False
        self.written: list[str] = []
        """Every line written to the log, whole (the log itself wraps them to its width)."""
        self._seat_names(snapshot)

    @property
    def session_app(self) -> CardaviaApp:
        from cardavia.clients.cli.tui.app import CardaviaApp

        assert isinstance(self.app, CardaviaApp)
        return self.app

    @property
    def view(self) -> Mapping[str, Any]:
        return self.session_app.session.store.view or {}

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Static(id="board")
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="prompt")
        yield HandWidget(id="hand")
        yield Static(id="status")
        yield KeyHints()

    def on_mount(self) -> None:
        self._ready = True
        self.query_one(RichLog).can_focus = False
        self.query_one(VerticalScroll).can_focus = False
        self.set_interval(0.5, self._tick)
        self.write(
            self.texts(
                "table.opening",
                game=self.names.game(self.room.game),
                deck=self.names.deck_name(),
                code=self.room.code or "?",
            )
        )
        self.redraw()

    # ------------------------------------------------------------ messages
    def _seat_names(self, snapshot: m.Snapshot) -> None:
        self.room, self.seat = snapshot.room, snapshot.seat
        self.names = CardNames(self.room.deck, self.lang, self.room.game)
        # other people chose these names: every renderer gets them made safe for a terminal
        players = [
            display_safe(display_name(s, self.texts, i) or self.texts("table.seat", number=i + 1))
            for i, s in enumerate(self.room.seats)
        ]
        self.renderer: GameTable = table_for(self.room.game, TableContext(self.names, self.seat, players))

    def on_snapshot(self, snapshot: m.Snapshot) -> None:
        new_match = self.result is not None and snapshot.room.state == "playing"
        started = self.room.state == "waiting" and snapshot.room.state == "playing"
        self._seat_names(snapshot)
        self._drawn_board = ()
        self.menu, self.sent, self.deadline = self._no_moves(), None, None
        if new_match:
            self.result, self.last_deal_end = None, None
            self.status("")  # the rematch is no longer being asked for: it has begun
            self.write(self.texts("table.match.new"))
        elif started:
            self.write(self.texts("table.match.begins", players=", ".join(self.renderer.ctx.players)))
        self.redraw()

    def on_delta(self, delta: m.Delta) -> None:
        self.menu, self.deadline = self._no_moves(), None  # a move was made: ours, or the timer's
        for event in delta.events:
            if event.get("type") == "deal_end":
                self.last_deal_end = dict(event)
        for line in self.renderer.describe(delta.events):
            self.write(line)
        self.redraw()

    def on_your_turn(self, turn: m.YourTurn) -> None:
        if turn.seq != self.session_app.session.store.seq:
            return  # about a view we no longer have (a resync is on its way)
        self.menu = MoveMenu(self.room.game, turn.legal, self.view, self.names)
        self.sent, self.deadline, self.turn_seq = None, turn.deadline, turn.seq
        self.redraw()

    def on_deal_result(self, result: m.DealResult) -> None:
        event: dict[str, Any] = {"points": result.points, "detail": result.detail, "totals": result.totals}
        # the deal_end event came just before, with fields a deal_result leaves out
        # (Dou Dizhu's winning side, Schnapsen's counts)
        event |= self.last_deal_end or {}
        self.last_deal_end = None
        breakdown = self.renderer.deal_summary(event, result.deal + 1, self.view)
        self.show_summary(DealSummaryScreen(breakdown, self.texts))

    def on_match_result(self, result: m.MatchResult) -> None:
        self.result = result
        self.menu, self.deadline = self._no_moves(), None
        breakdown = self.renderer.match_summary(result.model_dump(), self.view)
        self.show_summary(MatchSummaryScreen(breakdown, self.texts))
        self.redraw()

    def on_rematch_votes(self, votes: m.RematchVotes) -> None:
        """Who has asked for a rematch: it starts once every seat still waiting asks too."""
        players = self.renderer.ctx.players
        others = [players[i] for i in votes.waiting if i < len(players)]
        waiting = ", ".join(others)
        if self.seat in votes.waiting:
            seats = [players[i] for i in votes.asked if i < len(players)]
            asked = ", ".join(seats)
            self.status(self.texts("table.rematch.invited", names=asked, count=len(seats)))
            self.write(self.texts("table.rematch.asked", names=asked, count=len(seats)))
        else:
            self.status(self.texts("table.rematch.waiting", names=waiting, count=len(others)))

    def on_refused(self, error: m.Error) -> None:
        """The server refused our move: say why and offer the same moves again."""
        if self.sent is not None and error.code in ("illegal_action", "not_your_turn"):
            self.menu, self.sent = self.sent, None
        reason = display_safe(self.texts.error(error.code, error.message))
        self.status(self.texts("table.status.refused", reason=reason))
        self.redraw()

    def write(self, line: str) -> None:
        self.written.append(line)
        self.query_one(RichLog).write(Text(line))

    def status(self, text: str) -> None:
        self._update("#status", Text(text), layout=False)

    # ----------------------------------------------------------- summaries
    def show_summary(self, screen: ModalScreen[Any]) -> None:
        """Summaries show one after another, in the order they came."""
        self._summaries.append(screen)
        if not self._summary_open:
            self._next_summary()

    def _next_summary(self) -> None:
        if not self._summaries:
            self._summary_open = False
            return
        self._summary_open = True
        screen = self._summaries.popleft()
        if isinstance(screen, MatchSummaryScreen):
            self.app.push_screen(screen, self._after_match)
        else:
            self.app.push_screen(screen, lambda _: self._next_summary())

    def _after_match(self, choice: Next | None) -> None:
        self._next_summary()
        if choice == "rematch":
            self.action_rematch()
        elif choice == "lobby":
            self.action_leave()
        elif choice == "quit":
            self.app.exit()

    # --------------------------------------------------------------- drawing
    def _no_moves(self) -> MoveMenu:
        return MoveMenu(self.room.game, NO_MOVES, self.view, self.names)

    def redraw(self) -> None:
        """Show the view, the hand and the prompt; only what changed is laid out again."""
        if not self._ready:
            return
        view = self.view
        hand = self.query_one(HandWidget)
        hand.show(list(view.get("hand") or []), self.names)
        hand.set_turn(self.menu.active, self.menu.playable)
        board_key = (self.session_app.session.store.seq, self.room.state, self.result is not None)
        if board_key != self._drawn_board:
            self._drawn_board = board_key
            self.query_one("#board", Static).update(self._board(view))
        self._update("#prompt", self._prompt(view), layout=True)
        self._tick()
        bindings = (self.menu.multi, self.room.state, self.result is not None)
        if bindings != self._drawn_bindings:
            self._drawn_bindings = bindings
            self.refresh_bindings()

    def _update(self, selector: str, text: Text, *, layout: bool) -> None:
        widget = self.query_one(selector, Static)
        if self._shown.get(selector) != text.plain:
            self._shown[selector] = text.plain
            widget.update(text, layout=layout)

    def _board(self, view: Mapping[str, Any]) -> RenderableType:
        if self.room.state == "waiting" or not view:
            return self._waiting()
        return self.renderer.board(view)

    def _waiting(self) -> RenderableType:
        t = self.texts
        code = self.room.code or "?"
        lines = [t("table.waiting.title", code=code, public="yes" if self.room.public else "no")]
        for i, seat in enumerate(self.room.seats):
            empty = t("table.waiting.bot") if seat.get("kind") == "bot" else t("table.waiting.empty")
            who = display_safe(display_name(seat, t, i)) or empty
            lines.append("  " + t("table.waiting.seat", number=i + 1, who=who))
        if self._owner():
            lines.append(t("table.waiting.press_start"))
        elif self.room.owner is None:
            lines.append(t("table.waiting.starts_when_full"))
        else:
            lines.append(t("table.waiting.owner_starts"))
        return Group(*(Text(line) for line in lines))

    def _owner(self) -> bool:
        welcome = self.session_app.session.welcome
        return welcome is not None and self.room.owner == welcome.session

    def _prompt(self, view: Mapping[str, Any]) -> Text:
        t = self.texts
        if self.result is not None:
            return Text(t("table.prompt.over"))
        if self.room.state == "waiting" or not view:
            return Text(t("table.prompt.waiting_owner") if self._owner() else t("table.prompt.waiting"))
        if not self.menu.active:
            return Text(self.renderer.turn(view) + "…")
        parts: list[str] = []
        if self.menu.multi:
            parts.append(t("table.prompt.select"))
        elif any(self.menu.playable(c) for c in view.get("hand") or []):
            parts.append(t("table.prompt.pick"))
        parts += [f"{e.key}: {e.label}" for e in self.menu.extras]
        return Text(t("table.prompt.your_turn", moves=" · ".join(parts)), style="bold")

    def _tick(self) -> None:
        if not self._ready:
            return
        view = self.view
        game, deck = self.names.game(self.room.game), self.names.deck_name()
        parts = [self.texts("table.title.room", code=self.room.code or "?")]
        if self.seat is None:  # a spectator: the board is everyone's public view, no hand
            parts.append(self.texts("table.title.watching"))
        if view and self.room.state != "waiting":
            parts += [self.renderer.scores(view), self.renderer.turn(view)]
        if self.deadline is not None and self.menu.active:
            parts.append(self.texts("table.title.left", seconds=max(0, int(self.deadline - time.time()))))
        width = self.query_one("#title", Static).size.width or self.size.width - 2  # before its first layout
        text = fitted_title([game, deck], [p for p in parts if p], width)
        lines = 1 if cell_len(text) <= width else 2
        self._update("#title", Text(text), layout=lines != self._title_lines)
        self._title_lines = lines

    # --------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        playing = self.room.state == "playing" and self.result is None
        if action in ("select_card", "suggest", "clear"):
            return self.menu.multi
        if action == "play":
            return playing
        if action == "start":
            return self.room.state == "waiting" and self._owner()
        if action == "rematch":
            return self.result is not None
        return True

    def on_key(self, event: Key) -> None:
        """Keys that change with the position: actions without a card, and 1-9 for a card."""
        extra = self.menu.extra(event.key)
        if extra is not None:
            event.stop()
            event.prevent_default()
            self.send_action(extra.action)
        elif event.key in CARD_KEYS:
            event.stop()
            self.query_one(HandWidget).jump(int(event.key) - 1)

    def action_cursor(self, step: int) -> None:
        self.query_one(HandWidget).move(step)

    def on_hand_widget_chosen(self, _: HandWidget.Chosen) -> None:
        self.action_play()

    def action_play(self) -> None:
        hand = self.query_one(HandWidget)
        if not self.menu.active:
            self.status(self.texts("table.status.not_your_turn"))
            return
        if self.menu.multi:
            chosen = hand.selected_cards()
            options = self.menu.readings(chosen)
            if not options:
                self.status(self.menu.why_not(chosen))
                return
            self.choose(self.texts("table.choose.reading"), options)
            return
        code = hand.current()
        options = self.menu.options(code) if code else []
        if not options:
            card = self.names.card(code or "")
            keys = [self.texts("table.status.key", key=e.key, label=e.label) for e in self.menu.extras]
            if keys:
                self.status(
                    self.texts(
                        "table.status.cannot_play_press", card=card, keys=self.renderer.ctx.either(keys)
                    )
                )
            else:
                self.status(self.texts("table.status.cannot_play", card=card))
            return
        self.choose(self.texts("table.choose.way", card=self.names.card(code or "")), options)

    def choose(self, title: str, options: Sequence[Option]) -> None:
        if len(options) == 1:
            self.send_action(options[0].action)
            return

        def picked(option: Option | None) -> None:
            if option is not None:
                self.send_action(option.action)

        self.app.push_screen(ChoiceScreen(title, options), picked)

    def send_action(self, action: Mapping[str, Any]) -> None:
        session = self.session_app.session
        self.sent, self.menu = self.menu, self._no_moves()
        self.query_one(HandWidget).clear()
        self.status("")
        self.redraw()
        self.session_app.submit(session.requests.act(dict(action)), on_failure=self._unsent)

    def _unsent(self) -> None:
        if self.sent is not None:
            self.menu, self.sent = self.sent, None
            self.redraw()

    def action_select_card(self) -> None:
        self.query_one(HandWidget).toggle()

    def action_clear(self) -> None:
        self.query_one(HandWidget).clear()

    def action_suggest(self) -> None:
        """Select the cards of the next legal play (after the one selected now)."""
        plays = self.menu.suggestions()
        if not plays:
            passing = next((e for e in self.menu.extras if e.action.get("pass")), None)
            if passing is not None:  # nothing in hand beats the table: say so rather than nothing
                self.query_one(HandWidget).clear()
                self.status(self.texts("table.status.only_pass", key=passing.key))
            return
        hand = self.query_one(HandWidget)
        now = sorted(hand.selected_cards())
        index = next((i for i, p in enumerate(plays) if sorted(p) == now), -1)
        hand.select(plays[(index + 1) % len(plays)])

    def action_start(self) -> None:
        self.session_app.submit(m.Start(id=self.session_app.session.requests.next_id()))

    def action_rematch(self) -> None:
        self.status(self.texts("table.rematch.asking"))
        self.session_app.submit(m.Rematch(id=self.session_app.session.requests.next_id()))

    def action_chat(self) -> None:
        def say(line: str | None) -> None:
            if not line:
                return
            try:
                text = check(line, max_length=CHAT_LENGTH)
            except TextRefused as exc:  # pasted text may hold a zero width space or a bidi mark
                self.status(self.texts("table.status.not_sent", reason=self.texts.refusal(exc)))
                return
            app = self.session_app
            app.submit(m.Chat(id=app.session.requests.next_id(), text=text))

        self.app.push_screen(ChatScreen(), say)

    def action_leave(self) -> None:
        self.session_app.leave_table()
