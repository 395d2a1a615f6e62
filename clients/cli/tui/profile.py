"""The profile screens: the player's profile, its transfer code and deletion, leaderboards and history.

A profile is reached with a player key the server gives once (``profile.key``);
the app keeps it in the settings file (``keys.py``) and the session sends it
in every hello. These screens only ask and show: each request goes out with
``session.request`` in a worker, and its answer (or refusal, in the player's
words) lands on the screen that asked. The key, error codes and player ids
are never shown; a transfer code is, to the player alone, with how long it
lasts.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Label, Static

from cardavia.clients.cli.session import ClientRequestError
from cardavia.clients.cli.tui.dialogs import Modal
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import display_name
from cardavia.protocol.text import TextRefused, check, display_safe

if TYPE_CHECKING:
    from cardavia.clients.cli.tui.app import CardaviaApp

PROVISIONAL_DEVIATION = 110
"""A rating whose deviation is above this is provisional: too few rated games to say much yet."""
NAME_LENGTH = 32


def rating_text(texts: Texts, rating: int, deviation: int) -> str:
    """ "1562 ±88", marked provisional while the deviation is wide."""
    key = "profile.cli.rating.provisional" if deviation > PROVISIONAL_DEVIATION else "profile.cli.rating"
    return texts(key, rating=str(rating), deviation=str(deviation))  # as numbers they would read "1,562"


def change_text(texts: Texts, before: int, after: int) -> str:
    """ "1548 → 1562 (+14)"."""
    return texts("profile.cli.change", before=str(before), after=str(after), change=f"{after - before:+d}")


class _Asking(Modal[Any]):
    """A modal that sends requests through the app's session and shows refusals on its problem line."""

    @property
    def session_app(self) -> CardaviaApp:
        from cardavia.clients.cli.tui.app import CardaviaApp

        assert isinstance(self.app, CardaviaApp)
        return self.app

    def ask(self, make: Callable[[], m.Request], then: Callable[[m.Reply], Awaitable[None] | None]) -> None:
        """Send the request ``make`` builds; ``then`` gets the answer, a refusal is shown here."""
        app = self.session_app

        async def go() -> None:
            try:
                reply = await app.session.request(make())
            except ClientRequestError as exc:
                self.problem(self.texts.error(exc.code, exc.error.message))
                return
            except (ConnectionError, TimeoutError):
                self.problem(self.texts("profile.cli.no_answer"))
                return
            done = then(reply)
            if done is not None:
                await done

        self.run_worker(go(), group="ask", exit_on_error=False)

    def problem(self, text: str) -> None:
        self.query_one("#problem", Label).update(Text(text))


class ProfileScreen(_Asking):
    """The player's profile: its name and ratings, and every way to make, move or delete it."""

    DEFAULT_CSS = """
    ProfileScreen .modal-box { width: 80; }
    ProfileScreen #ratings { height: auto; margin-bottom: 1; }
    ProfileScreen #code { color: $accent; text-style: bold; height: auto; }
    ProfileScreen #problem { color: $error; }
    """
    BINDINGS = [
        Binding("n", "create", "profile.cli.key.create"),
        Binding("u", "redeem", "profile.cli.key.redeem"),
        Binding("e", "rename", "profile.cli.key.rename"),
        Binding("t", "transfer", "profile.cli.key.transfer"),
        Binding("h", "history", "profile.cli.key.history"),
        Binding("x", "delete", "profile.cli.key.delete"),
        Binding("escape", "close", "forms.key.back"),
    ]

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield Label("", id="title", classes="title", markup=False)
            yield Static("", id="ratings")
            yield Static("", id="code")
            yield Label("", id="problem", markup=False)
            yield Label("", id="hint", classes="hint", markup=False)

    def on_mount(self) -> None:
        self.show()

    @property
    def player(self) -> m.PlayerInfo | None:
        return self.session_app.session.player

    def show(self) -> None:
        """Draw what is known now, and ask for the ratings when there is a profile."""
        t = self.texts
        player = self.player
        if player is None:
            self.query_one("#title", Label).update(t("profile.cli.none.title"))
            self.query_one("#ratings", Static).update(Text(t("profile.cli.none.about")))
            self.query_one("#hint", Label).update(t("profile.cli.none.hint"))
        else:
            self.query_one("#title", Label).update(t("profile.cli.title", name=display_safe(player.name)))
            self.query_one("#hint", Label).update(t("profile.cli.hint"))
            self.ask(lambda: self.session_app.session.requests.get_history(limit=1), self._ratings)
        self.refresh_bindings()

    def _ratings(self, reply: m.Reply) -> None:
        assert isinstance(reply, m.History)
        t = self.texts
        catalogue = self.session_app.catalogue
        if not reply.ratings:
            text = t("profile.cli.no_ratings")
        else:
            text = "\n".join(
                t(
                    "profile.cli.game_rating",
                    game=catalogue.game_name(r.game, t.lang) if catalogue else r.game,
                    rating=rating_text(t, r.rating, r.deviation),
                    count=r.games,
                )
                for r in reply.ratings
            )
        self.query_one("#ratings", Static).update(Text(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that make sense now: making a profile without one, the rest with one."""
        if action in ("create", "redeem"):
            return self.player is None
        if action in ("rename", "transfer", "history", "delete"):
            return self.player is not None
        return True

    # ------------------------------------------------------------- actions
    def action_create(self) -> None:
        def made(name: str | None) -> None:
            if name:
                self.ask(lambda: self.session_app.session.requests.create_profile(name), self._profile)

        self.app.push_screen(
            NameScreen(self.texts("profile.cli.create.title"), self.session_app.player), made
        )

    def action_rename(self) -> None:
        def named(name: str | None) -> None:
            if name:
                self.ask(lambda: self.session_app.session.requests.rename_profile(name), self._profile)

        current = self.player.name if self.player else ""
        self.app.push_screen(NameScreen(self.texts("profile.cli.rename.title"), current), named)

    def action_redeem(self) -> None:
        def typed(code: str | None) -> None:
            if code:
                self.ask(lambda: self.session_app.session.requests.redeem_transfer_code(code), self._profile)

        self.app.push_screen(TransferCodeScreen(), typed)

    def _profile(self, reply: m.Reply) -> None:
        assert isinstance(reply, m.Profile)
        self.session_app.profile_changed(reply)
        self.problem("")
        self.query_one("#code", Static).update("")
        self.show()

    def action_transfer(self) -> None:
        def shown(reply: m.Reply) -> None:
            assert isinstance(reply, m.TransferCode)
            minutes = max(1, round(reply.expires_in / 60))
            text = self.texts("profile.cli.transfer.code", code=display_safe(reply.code), minutes=minutes)
            self.query_one("#code", Static).update(Text(text))

        self.ask(self.session_app.session.requests.new_transfer_code, shown)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen())

    def action_delete(self) -> None:
        player = self.player
        if player is None:
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.ask(self.session_app.session.requests.delete_profile, self._deleted)

        question = self.texts("profile.cli.delete.question", name=display_safe(player.name))
        self.app.push_screen(ConfirmScreen(question), confirmed)

    def _deleted(self, reply: m.Reply) -> None:
        assert isinstance(reply, m.ProfileDeleted)
        self.session_app.profile_deleted()
        self.query_one("#code", Static).update("")
        self.problem(self.texts("profile.cli.delete.done"))
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)


class NameScreen(Modal[str | None]):
    """A profile's name: checked here by the server's own rule for names before it is sent."""

    DEFAULT_CSS = "NameScreen #problem { color: $error; }"
    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

    def __init__(self, title: str, name: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.name_given = name

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.title_text, classes="title", markup=False)
            yield Input(value=self.name_given, max_length=NAME_LENGTH, id="name")
            yield Label("", id="problem", classes="hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            name = check(event.value, max_length=NAME_LENGTH, strip=True)
        except TextRefused as exc:
            self.query_one("#problem", Label).update(self.texts.refusal(exc))
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TransferCodeScreen(Modal[str | None]):
    """The code another device showed: letters and digits, spaces and dashes left out."""

    DEFAULT_CSS = "TransferCodeScreen #problem { color: $error; }"
    BINDINGS = [Binding("escape", "cancel", "forms.key.back")]

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.texts("profile.cli.redeem.title"), classes="title", markup=False)
            yield Input(placeholder="K7MQ2XPR4T", max_length=24, id="code")
            yield Label(self.texts("profile.cli.redeem.hint"), id="problem", classes="hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        code = "".join(c for c in event.value if c not in " -").upper()
        if not 4 <= len(code) <= 16 or not code.isascii() or not code.isalnum():
            self.query_one("#problem", Label).update(self.texts("profile.cli.redeem.problem"))
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(Modal[bool]):
    """A yes-or-no question for what cannot be undone; anything but y keeps things as they are."""

    BINDINGS = [
        Binding("y", "answer(True)", "profile.cli.key.yes"),
        Binding("n", "answer(False)", "profile.cli.key.no"),
        Binding("escape", "answer(False)", "forms.key.back", show=False),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with self.box():
            yield Label(self.question, classes="title", markup=False)
            yield Label(self.texts("profile.cli.confirm.hint"), classes="hint", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class LeaderboardScreen(_Asking):
    """The best ratings of one game, the built-in bots among them, and where the player stands."""

    DEFAULT_CSS = """
    LeaderboardScreen .modal-box { width: 80; }
    LeaderboardScreen DataTable { height: auto; max-height: 24; }
    LeaderboardScreen #problem { color: $error; }
    """
    BINDINGS = [Binding("escape", "close", "forms.key.back")]

    def __init__(self, game: str, game_shown: str) -> None:
        super().__init__()
        self.game = game
        self.game_shown = game_shown
        self.board: m.Leaderboard | None = None

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield Label(self.texts("profile.cli.leaderboard.title", game=self.game_shown), classes="title")
            yield DataTable(id="board", cursor_type="row", zebra_stripes=True)
            yield Label("", id="me", classes="hint", markup=False)
            yield Label("", id="problem", markup=False)

    def on_mount(self) -> None:
        t = self.texts
        board = self.query_one("#board", DataTable)
        board.add_columns(*(t(f"profile.cli.column.{c}") for c in ("rank", "name", "rating", "games")))
        self.ask(lambda: self.session_app.session.requests.get_leaderboard(self.game), self._show)

    def _show(self, reply: m.Reply) -> None:
        assert isinstance(reply, m.Leaderboard)
        self.board = reply
        t = self.texts
        table = self.query_one("#board", DataTable)
        for row in reply.top:
            name = display_safe(row.name)
            if row.level is not None:  # a built-in bot level, at its published rating
                name = t("profile.cli.builtin", level=t.get(f"bots.level.{row.level}", row.level))
            elif row.bot:  # a program's own profile (a ladder bot)
                name = t("profile.cli.bot_profile", name=name)
            cells = (str(row.rank), name, rating_text(t, row.rating, row.deviation), str(row.games))
            table.add_row(*(Text(c) for c in cells), key=row.player)
        if not reply.top:
            self.query_one("#me", Label).update(t("profile.cli.leaderboard.empty"))
        elif reply.me is not None:
            me = reply.me
            self.query_one("#me", Label).update(
                t("profile.cli.leaderboard.me", rank=me.rank, rating=rating_text(t, me.rating, me.deviation))
            )
        else:
            self.query_one("#me", Label).update(t("profile.cli.leaderboard.not_ranked"))

    def action_close(self) -> None:
        self.dismiss(None)


def outcome_text(texts: Texts, entry: m.HistoryEntry) -> str:
    if entry.winner is None:
        return texts("profile.cli.outcome.draw")
    return texts("profile.cli.outcome.won" if entry.winner == entry.seat else "profile.cli.outcome.lost")


class HistoryScreen(_Asking):
    """The player's recent matches, newest first: when, game, opponents, result, rating change."""

    DEFAULT_CSS = """
    HistoryScreen .modal-box { width: 100; max-width: 100%; }
    HistoryScreen DataTable { height: auto; max-height: 24; }
    HistoryScreen #problem { color: $error; }
    """
    BINDINGS = [Binding("escape", "close", "forms.key.back")]

    def __init__(self) -> None:
        super().__init__()
        self.history: m.History | None = None

    def compose(self) -> ComposeResult:
        with self.box("wide"):
            yield Label(self.texts("profile.cli.history.title"), classes="title", markup=False)
            yield DataTable(id="matches", cursor_type="row", zebra_stripes=True)
            yield Label("", id="record", classes="hint", markup=False)
            yield Label("", id="problem", markup=False)

    def on_mount(self) -> None:
        t = self.texts
        table = self.query_one("#matches", DataTable)
        columns = ("when", "game", "opponents", "scores", "result", "change")
        table.add_columns(*(t(f"profile.cli.column.{c}") for c in columns))
        self.ask(self.session_app.session.requests.get_history, self._show)

    def _show(self, reply: m.Reply) -> None:
        assert isinstance(reply, m.History)
        self.history = reply
        t = self.texts
        catalogue = self.session_app.catalogue
        table = self.query_one("#matches", DataTable)
        for entry in reply.matches:
            when = datetime.datetime.fromtimestamp(entry.ended).strftime("%Y-%m-%d %H:%M")
            game = catalogue.game_name(entry.game, t.lang) if catalogue else entry.game
            others = ", ".join(_player_name(t, p, i) for i, p in enumerate(entry.players) if i != entry.seat)
            scores = " - ".join(str(s) for s in entry.scores)
            if entry.rated and entry.rating_before is not None and entry.rating_after is not None:
                change = change_text(t, entry.rating_before, entry.rating_after)
            else:
                change = t("profile.cli.casual") if not entry.rated else ""
            cells = (when, game, others, scores, outcome_text(t, entry), change)
            table.add_row(*(Text(c) for c in cells), key=entry.record)
        if not reply.matches:
            self.query_one("#record", Label).update(t("profile.cli.history.empty"))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a match opens its replay."""
        from cardavia.clients.cli.tui.replay_screen import ReplayScreen

        record = event.row_key.value
        if record:
            self.app.push_screen(ReplayScreen(record))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        record = event.row_key.value
        if record:
            url = self.session_app.session.url
            command = display_safe(f"cardavia replay --server {url} {record}")
            self.query_one("#record", Label).update(self.texts("profile.cli.history.replay", command=command))

    def action_close(self) -> None:
        self.dismiss(None)


def _player_name(texts: Texts, player: Mapping[str, Any], seat: int) -> str:
    name = display_safe(display_name(player, texts, seat))  # a bot or a guest in the reader's words
    if not name:
        return texts("profile.cli.deleted")
    # a profile's bot is marked as one; a built-in bot's name already says what it is
    return texts("profile.cli.bot_profile", name=name) if player.get("bot") and player.get("player") else name
