"""The terminal client's application: one session, the lobby, and a table when in a room.

One worker reads the session's message stream and hands each message to the
screen it concerns; everything the user does goes out through ``submit``,
whose answers come back on that same stream (the session applies snapshots
and deltas to its view store first). The session reconnects by itself; the
app only shows its ``Reconnecting``/``Reconnected`` notices.

Every word shown comes from the message catalogues in the player's language
(``self.texts``), which the lobby can change while the app runs; ``?`` or F1
opens the rules of the game at hand on every screen.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from textual.app import App
from textual.binding import Binding

from cardavia.clients.cli.keys import PLAYER, KeyFileError, KeyStore
from cardavia.clients.cli.session import (
    ROOM_MOVING,
    ROOM_NOT_BACK,
    ClientRequestError,
    Reconnected,
    Reconnecting,
    SessionClosed,
)
from cardavia.clients.cli.tui.catalogue import Catalogue
from cardavia.clients.cli.tui.dialogs import localize_bindings
from cardavia.clients.cli.tui.lobby import LobbyScreen
from cardavia.clients.cli.tui.rules import RulesScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.errors import UnknownGameError
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import display_name
from cardavia.protocol.text import display_safe

Item = m.Reply | Reconnecting | Reconnected

LEFT_REASONS = {"replaced by a newer connection": "app.left.replaced"}
"""Why the server sent us out of a room, for the reasons it gives in words of its own."""
RECONNECT_REASONS = {
    ROOM_MOVING: "app.reconnecting.room_moving",
    ROOM_NOT_BACK: "app.reconnecting.room_not_back",
}
"""Why the session is still reconnecting, for the reasons that are the session's own (others are
the network's or the server's words, shown as they come)."""


FORGOTTEN_KEYS = frozenset({"unknown_player", "malformed_player_key"})
"""Why a hello's key was not taken, for the reasons that mean it never will be (the profile was
deleted on another device, or the file was damaged): the key is dropped. A database that is away
(``storage_unavailable``) keeps it for the next start."""


class SessionLike(Protocol):
    """What the app needs of ``cardavia.clients.cli.session.Session`` (tests pass a scripted one)."""

    url: str
    requests: Requests
    store: ViewStore
    welcome: m.Welcome | None
    player: m.PlayerInfo | None
    player_error: str | None

    async def connect(self) -> m.Welcome: ...

    async def send(self, request: m.Request) -> None: ...

    async def request(self, request: m.Request, timeout: float = 10.0) -> m.Reply: ...

    def messages(self) -> AsyncIterator[Item]: ...

    def use_player_key(self, key: str | None) -> None: ...

    async def close(self) -> None: ...


class CardaviaApp(App[None]):
    """`cardavia play`; ``failed`` says why the session could not go on, if it could not."""

    TITLE = "Cardavia"
    ENABLE_COMMAND_PALETTE = False
    """Textual's command palette lists its own commands in English only."""
    BINDINGS = [
        Binding("question_mark", "rules", "app.key.rules", key_display="?"),
        Binding("f1", "rules", "app.key.rules", show=False),
    ]

    def __init__(
        self, session: SessionLike, *, name: str, lang: str = "en", keys: KeyStore | None = None
    ) -> None:
        """``keys``: where the player key of a profile made or brought here is kept (None: nowhere,
        as for the embedded server, whose profiles end with it)."""
        super().__init__()
        self.session = session
        self.keys = keys
        self.server = session.url
        """The URL the client started with: the key file keeps keys under it."""
        self.player = name
        self.texts = Texts(lang)
        """Every word the client shows, in the player's language (``self.texts(key, **args)``)."""
        self.lang = self.texts.lang
        localize_bindings(self, self.texts)
        self.lobby = LobbyScreen(self.texts)
        self.table: TableScreen | None = None
        self.catalogue: Catalogue | None = None
        self.failed: str | None = None

    async def on_mount(self) -> None:
        await self.push_screen(self.lobby)
        self.run_worker(self._run(), name="session")

    async def on_unmount(self) -> None:
        await self.session.close()

    # ------------------------------------------------------------- session
    async def _run(self) -> None:
        try:
            welcome = await self.session.connect()
        except (OSError, TimeoutError, ClientRequestError) as exc:
            self.failed = self.texts("app.connect_failed", url=self.session.url, reason=str(exc))
            self.lobby.status(self.texts("app.q_quits", problem=self.failed))
            return
        self.lobby.connected(self.session.url, self.player)
        self.lobby.profile_known(self.session.player is not None)
        if welcome.player_error is not None:  # an anonymous start: say why, in the player's words
            self.note(self.texts("profile.cli.key_refused", reason=self.texts.error(welcome.player_error)))
            if welcome.player_error in FORGOTTEN_KEYS:
                self._forget_key()
        try:
            reply = await self.session.request(m.GetCatalogue(id=self.session.requests.next_id()))
            if isinstance(reply, m.Catalogue):
                self.catalogue = Catalogue(reply)
                self.lobby.show_catalogue(self.catalogue)
            if welcome.room is None:
                self.refresh_rooms()
            async for item in self.session.messages():
                await self.handle(item)
        except SessionClosed as exc:
            self.failed = self.texts("app.disconnected", reason=str(exc))
            self.note(self.texts("app.q_quits", problem=self.failed), sticky=True)
        except (ConnectionError, TimeoutError, ClientRequestError) as exc:
            self.failed = self.texts("app.no_answer", reason=str(exc))
            self.note(self.texts("app.q_quits", problem=self.failed), sticky=True)

    async def handle(self, item: Item) -> None:
        """One message from the stream, to the screen it concerns."""
        if isinstance(item, Reconnecting):
            key = RECONNECT_REASONS.get(item.reason)
            reason = self.texts(key) if key else display_safe(item.reason)
            self.note(self.texts("app.reconnecting", attempt=item.attempt, reason=reason), sticky=True)
        elif isinstance(item, Reconnected):
            self.note(self.texts("app.reconnected.seat" if item.resumed else "app.reconnected"))
            if not item.resumed and self.table is not None:
                self.to_lobby()  # first, so that the lobby's status line says why
                self.note(self.texts("app.reconnected.seat_lost"))
        elif isinstance(item, m.Snapshot):
            await self._snapshot(item)
        elif isinstance(item, m.Catalogue):
            self.catalogue = Catalogue(item)
        elif isinstance(item, m.Rooms):
            self.lobby.show_rooms(item.rooms)
        elif isinstance(item, m.Left):
            self.to_lobby()  # first, so that the lobby's status line says why
            if item.reason != "requested":
                key = LEFT_REASONS.get(item.reason)
                reason = self.texts(key) if key else display_safe(item.reason)
                self.note(self.texts("app.left", reason=reason))
        elif isinstance(item, m.Error):
            self._error(item)
        elif isinstance(item, m.RatingChange):
            self._rating_change(item)
        elif self.table is not None:
            if isinstance(item, m.Delta):
                self.table.on_delta(item)
            elif isinstance(item, m.YourTurn):
                self.table.on_your_turn(item)
            elif isinstance(item, m.DealResult):
                self.table.on_deal_result(item)
            elif isinstance(item, m.MatchResult):
                self.table.on_match_result(item)
            elif isinstance(item, m.RematchVotes):
                self.table.on_rematch_votes(item)
            elif isinstance(item, m.ChatMessage):
                who = display_name({"name": item.name, "guest": item.guest}, self.texts)
                self.table.write(f"{display_safe(who)}: {display_safe(item.text)}")

    async def _snapshot(self, snapshot: m.Snapshot) -> None:
        if self.table is not None and self.table.room.room == snapshot.room.room:
            self.table.on_snapshot(snapshot)
            return
        if self.table is not None:
            self.to_lobby()
        self.lobby.status("")
        self.table = TableScreen(snapshot, lang=self.lang)
        await self.push_screen(self.table)

    def _error(self, error: m.Error) -> None:
        if self.table is not None and error.code in ("illegal_action", "not_your_turn", "game_over"):
            self.table.on_refused(error)
            return
        text = display_safe(self.texts.error(error.code, error.message))
        if self.table is not None:
            self.table.status(text)
        else:
            self.lobby.status(text)
        self.notify(text, severity="error", markup=False)

    def _rating_change(self, change: m.RatingChange) -> None:
        """A rated match was written: the rating moved once, by this much."""
        from cardavia.clients.cli.tui.profile import change_text

        game = self.catalogue.game_name(change.game, self.lang) if self.catalogue else change.game
        text = self.texts(
            "profile.cli.rating_change",
            game=game,
            change=change_text(self.texts, change.before, change.after),
        )
        if self.table is not None:
            self.table.write(text)
        self.note(text)

    # ------------------------------------------------------------ profiles
    def profile_changed(self, profile: m.Profile) -> None:
        """A profile was made, brought here or renamed: keep a new key, re-label the lobby."""
        if profile.key is not None and self.keys is not None:
            try:
                self.keys.remember(
                    self.server, PLAYER, profile.key, player=profile.player.id, name=profile.player.name
                )
            except KeyFileError as exc:
                self.note(self.texts("profile.cli.key_not_kept", problem=str(exc)), sticky=True)
        self.lobby.profile_known(True)

    def profile_deleted(self) -> None:
        """The profile is gone: its key goes too, and matches are casual from now on."""
        self._forget_key()
        self.lobby.profile_known(False)

    def _forget_key(self) -> None:
        self.session.use_player_key(None)
        if self.keys is not None:
            try:
                self.keys.forget(self.server, PLAYER)
            except KeyFileError as exc:
                self.note(self.texts("profile.cli.key_not_kept", problem=str(exc)), sticky=True)

    # ------------------------------------------------------------- actions
    def submit(self, request: m.Request, on_failure: Callable[[], None] | None = None) -> None:
        """Send a request; its answer (or error) arrives on the stream."""

        async def send() -> None:
            try:
                await self.session.send(request)
            except ConnectionError as exc:
                self.note(self.texts("app.not_sent", reason=str(exc)))
                if on_failure is not None:
                    on_failure()

        self.run_worker(send(), group="send", exit_on_error=False)

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` from now on: the lobby and every key hint at once, tables opened later."""
        self.texts = Texts(lang)
        self.lang = self.texts.lang
        localize_bindings(self, self.texts)
        self.lobby.relabel(self.texts)
        self.screen.refresh_bindings()

    def action_help_quit(self) -> None:
        """ctrl+c does not quit (it copies): say which key does, in the player's language."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(
                    self.texts("app.how_to_quit", key=key), title=self.texts("app.quit_title"), markup=False
                )
                return

    def action_rules(self) -> None:
        """The rules of the table's game, or of the game chosen in the lobby (again: close them)."""
        if isinstance(self.screen, RulesScreen):
            self.screen.dismiss(None)
            return
        game = self.table.room.game if self.table is not None else self.lobby.game_id
        if not game:
            return
        try:
            screen = RulesScreen(game)
        except UnknownGameError:  # a game of a newer server: no rules shipped with this client
            self.notify(self.texts("rules.missing"), markup=False)
            return
        self.push_screen(screen)

    def refresh_rooms(self) -> None:
        async def ask() -> None:
            # on failure the lobby keeps its last list; the status line says why the connection is down
            with contextlib.suppress(ConnectionError, TimeoutError, ClientRequestError):
                await self.session.request(m.ListRooms(id=self.session.requests.next_id()), timeout=5.0)

        self.run_worker(ask(), group="rooms", exclusive=True, exit_on_error=False)

    def leave_table(self) -> None:
        """Leave the room (a running game's seat is played by a bot) and go back to the lobby."""
        if self.table is not None:
            self.submit(m.Leave(id=self.session.requests.next_id()))
        self.to_lobby()

    def to_lobby(self) -> None:
        while len(self.screen_stack) > 1 and self.screen is not self.lobby:
            self.pop_screen()
        self.table = None

    def note(self, text: str, *, sticky: bool = False) -> None:
        """A connection notice: on the open screen's status line, and as a toast unless it is sticky."""
        target = self.table if self.table is not None else self.lobby
        target.status(text)
        if not sticky:
            self.notify(text, markup=False)
