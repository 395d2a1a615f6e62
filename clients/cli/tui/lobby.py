"""The lobby: games and their deck traditions, open rooms, and the ways into a game.

Keys: p plays now against bots (the highlighted game and deck, the chosen bot
level), m finds a quick match with people, c creates a room with every option,
j joins a room by its code, enter on an open room joins it, b changes the bot
level, r refreshes the rooms, l changes the language (the lobby is re-labelled
at once, and tables opened afterwards speak the new language). i opens the
profile, t the chosen game's leaderboard, h the player's history, and a
switches play now and quick match between rated and casual (rated needs a
profile, and is the choice once there is one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardavia.clients.cli.tui.catalogue import Catalogue
from cardavia.clients.cli.tui.dialogs import CodeScreen, LanguageScreen, localize_bindings, texts_of
from cardavia.clients.cli.tui.footer import KeyHints
from cardavia.clients.cli.tui.forms import CreateRoomScreen
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import display_name
from cardavia.protocol.text import display_safe

if TYPE_CHECKING:
    from cardavia.clients.cli.tui.app import CardaviaApp


ROOM_COLUMNS = (
    "lobby.column.code",
    "lobby.column.game",
    "lobby.column.deck",
    "lobby.column.seats",
    "lobby.column.state",
)
"""The open rooms' columns, by the catalogue key of their headings."""


class LobbyScreen(Screen[None]):
    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    #lobby-title { height: 1; background: $primary-background; padding: 0 1; text-style: bold; }
    #pickers { height: 3fr; min-height: 7; }
    #games-box { width: 1fr; border: round $secondary; }
    #decks-box { width: 2fr; border: round $secondary; }
    #games, #decks { height: 1fr; min-height: 3; border: none; }
    #games-box:focus-within, #decks-box:focus-within { border: round $accent; }
    #deck-info { height: auto; max-height: 6; padding: 0 1; color: $text-muted; overflow-y: auto; }
    #rooms-box { height: 2fr; min-height: 5; border: round $secondary; }
    #rooms { height: 1fr; }
    #lobby-status { height: auto; padding: 0 1; display: none; }
    """
    BINDINGS = [
        Binding("p", "play_now", "lobby.key.play_now"),
        Binding("m", "quick_match", "lobby.key.quick_match"),
        Binding("c", "create", "lobby.key.create"),
        Binding("j", "join_code", "lobby.key.join_code"),
        Binding("w", "watch", "lobby.key.watch"),
        Binding("l", "language", "lobby.key.language"),
        Binding("b", "bot_level", "lobby.key.bot_level"),
        Binding("a", "rated", "profile.cli.key.rated"),
        Binding("i", "profile", "profile.cli.key.profile"),
        Binding("t", "leaderboard", "profile.cli.key.leaderboard"),
        Binding("h", "history", "profile.cli.key.history", show=False),
        Binding("r", "refresh", "lobby.key.refresh", show=False),  # the rooms refresh every 5 s anyway
        Binding("q", "app.quit", "lobby.key.quit"),
    ]

    def __init__(self, texts: Texts | None = None) -> None:
        super().__init__()
        self.texts = texts or texts_of(self)
        """The words of the lobby, in the language it was last labelled in."""
        localize_bindings(self, self.texts)
        self.catalogue: Catalogue | None = None
        self.game_id = ""
        self.deck_id = ""
        self.levels: dict[str, str] = {}
        self.rooms: list[m.RoomInfo] = []
        self.where: tuple[str, str] | None = None
        """The server's URL and our name, once connected."""
        self._status = ""
        self._status_args: dict[str, str | int] = {}
        self.has_profile = False
        self.rated = False
        """Whether play now and quick match ask for rated matches (only with a profile)."""

    @property
    def session_app(self) -> CardaviaApp:
        from cardavia.clients.cli.tui.app import CardaviaApp

        assert isinstance(self.app, CardaviaApp)
        return self.app

    @property
    def lang(self) -> str:
        return self.texts.lang

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        with Horizontal(id="pickers"):
            with Vertical(id="games-box"):
                yield Label(id="games-label", markup=False)
                yield OptionList(id="games", markup=False)
            with Vertical(id="decks-box"):
                yield Label(id="decks-label", markup=False)
                yield OptionList(id="decks", markup=False)
        yield Static(id="deck-info")
        with Vertical(id="rooms-box"):
            yield Label(id="rooms-label", markup=False)
            yield DataTable(id="rooms", cursor_type="row")
        yield Static(id="lobby-status")
        yield KeyHints()

    def on_mount(self) -> None:
        self._label()
        self.set_interval(5.0, self.action_refresh)
        self.query_one("#games", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def relabel(self, texts: Texts) -> None:
        """Show the whole lobby in ``texts``' language: headings, lists, rooms, key hints."""
        self.texts = texts
        localize_bindings(self, texts)
        if self.is_mounted:
            self._label()

    def _label(self) -> None:
        t = self.texts
        self._title()
        self.query_one("#games-label", Label).update(t("lobby.games"))
        self.query_one("#decks-label", Label).update(t("lobby.decks"))
        self.query_one("#rooms-label", Label).update(t("lobby.rooms"))
        table = self.query_one("#rooms", DataTable)
        table.clear(columns=True)
        table.add_columns(*(t(key) for key in ROOM_COLUMNS))
        self._rows()
        if self.catalogue is not None:
            self._games()
        if self._status:
            self.status(self._status, **self._status_args)

    def _title(self) -> None:
        if self.where is None:
            title = self.texts("lobby.title.connecting")
        else:
            title = self.texts("lobby.title", url=self.where[0], name=self.where[1])
        self.query_one("#lobby-title", Static).update(Text(title))

    # ------------------------------------------------------------ data in
    def connected(self, url: str, name: str) -> None:
        self.where = (display_safe(url), display_safe(name))
        self._title()

    def profile_known(self, present: bool) -> None:
        """The session holds a profile (or no longer does): rated is the choice with one."""
        if present != self.has_profile:
            self.has_profile = self.rated = present
        if self.is_mounted:
            self._describe()

    def show_catalogue(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        for g in catalogue.games:
            levels = catalogue.levels_for(g.id)
            self.levels.setdefault(g.id, levels[0] if levels else "basic")
        self._games()

    def _games(self) -> None:
        """Fill the games list (and the chosen game's decks), keeping the highlighted game."""
        assert self.catalogue is not None
        games = self.query_one("#games", OptionList)
        games.clear_options()
        games.add_options(
            Option(
                self.texts("lobby.game", game=self.catalogue.game_name(g.id, self.lang), count=g.players),
                id=g.id,
            )
            for g in self.catalogue.games
        )
        ids = [g.id for g in self.catalogue.games]
        if not ids:
            return
        chosen, deck = (self.game_id, self.deck_id) if self.game_id in ids else (ids[0], "")
        games.highlighted = ids.index(chosen)
        self.game_id = ""  # so that the decks are listed again, in this language
        self._pick_game(chosen, deck)

    def show_rooms(self, rooms: list[m.RoomInfo]) -> None:
        self.rooms = rooms
        self.query_one("#rooms", DataTable).clear()
        self._rows()

    def _rows(self) -> None:
        t = self.texts
        table = self.query_one("#rooms", DataTable)
        for room in self.rooms:
            seats = ", ".join(
                display_safe(display_name(s, t, i))
                or t.get(f"lobby.seat.{s.get('kind', 'open')}", str(s.get("kind")))
                for i, s in enumerate(room.seats)
            )
            game = self.catalogue.game_name(room.game, self.lang) if self.catalogue else room.game
            deck = self.catalogue.deck_texts(room.deck, self.lang)[0] if self.catalogue else room.deck
            state = t.get(f"lobby.state.{room.state}", room.state)
            # a DataTable reads a str cell as Rich markup: every cell is a Text of safe characters
            cells = (room.code or "", game, deck, seats, state)
            table.add_row(*(Text(display_safe(c)) for c in cells), key=room.room)

    def status(self, text: str, /, **args: str | int) -> None:
        """The status line: a catalogue key and its arguments (shown again in a new language),
        or text already written for the player."""
        self._status, self._status_args = text, args
        shown = self.texts(text, **args) if text and self.texts.has(text) else text
        line = self.query_one("#lobby-status", Static)
        line.update(Text(shown))
        line.display = bool(shown)  # no empty row taken from the lists on a small terminal

    # ------------------------------------------------------------ pickers
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None:
            return
        if event.option_list.id == "games":
            self._pick_game(event.option.id)
        elif event.option_list.id == "decks":
            self.deck_id = event.option.id
            self._describe()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "games":
            self.query_one("#decks", OptionList).focus()
        elif event.option_list.id == "decks":
            self.action_play_now()

    def _pick_game(self, game_id: str, deck_id: str = "") -> None:
        if self.catalogue is None or game_id == self.game_id:
            return
        self.game_id = game_id
        decks = self.query_one("#decks", OptionList)
        decks.clear_options()
        choices = self.catalogue.decks_for(game_id)
        for d in choices:
            name, place, _ = self.catalogue.deck_texts(d.id, self.lang)
            decks.add_option(Option(f"{name} · {place}" if place else name, id=d.id))
        ids = [d.id for d in choices]
        self.deck_id = deck_id if deck_id in ids else ids[0] if ids else ""
        if ids:
            decks.highlighted = ids.index(self.deck_id)
        self._describe()

    def _describe(self) -> None:
        if self.catalogue is None:
            return
        t = self.texts
        lines = [self.catalogue.deck_texts(self.deck_id, self.lang)[2]] if self.deck_id else []
        level = self.levels.get(self.game_id, "basic")
        about = t.get(
            f"bots.about.{self.game_id}.{level}", self.catalogue.bot_description(self.game_id, level)
        )
        lines.append(t("lobby.bots", level=t.get(f"bots.level.{level}", level), about=about))
        lines.append(t("profile.cli.lobby.rated" if self.rated else "profile.cli.lobby.casual"))
        self.query_one("#deck-info", Static).update(Text("\n".join(line for line in lines if line)))

    def game_shown(self) -> str:
        """The chosen game's name, as the lobby shows it."""
        return self.catalogue.game_name(self.game_id, self.lang) if self.catalogue else self.game_id

    # ------------------------------------------------------------- actions
    def _request_fields(self) -> dict[str, Any]:
        return {"game": self.game_id, "deck": self.deck_id or None}

    def action_play_now(self) -> None:
        if not self.game_id:
            return
        app = self.session_app
        self.status("lobby.doing.play_now", game=self.game_shown())
        request = m.PlayNow.model_validate(
            {
                "id": app.session.requests.next_id(),
                **self._request_fields(),
                "bot_level": self.levels.get(self.game_id),
                "rated": self.rated,
            }
        )
        app.submit(request)

    def action_quick_match(self) -> None:
        if not self.game_id:
            return
        app = self.session_app
        self.status("lobby.doing.quick_match", game=self.game_shown())
        app.submit(
            m.QuickMatch.model_validate(
                {"id": app.session.requests.next_id(), "game": self.game_id, "rated": self.rated}
            )
        )

    def action_rated(self) -> None:
        """Rated or casual for play now and quick match; rated only with a profile."""
        if not self.has_profile:
            self.status("profile.cli.lobby.needs_profile")
            return
        self.rated = not self.rated
        self._describe()

    def action_profile(self) -> None:
        from cardavia.clients.cli.tui.profile import ProfileScreen

        self.app.push_screen(ProfileScreen())

    def action_leaderboard(self) -> None:
        from cardavia.clients.cli.tui.profile import LeaderboardScreen

        if self.game_id:
            self.app.push_screen(LeaderboardScreen(self.game_id, self.game_shown()))

    def action_history(self) -> None:
        from cardavia.clients.cli.tui.profile import HistoryScreen

        if not self.has_profile:
            self.status("profile.cli.lobby.needs_profile")
            return
        self.app.push_screen(HistoryScreen())

    def action_create(self) -> None:
        if self.catalogue is None:
            return
        catalogue = self.catalogue

        def created(fields: dict[str, Any] | None) -> None:
            if fields is not None:
                app = self.session_app
                self.status("lobby.doing.create", game=catalogue.game_name(fields["game"], self.lang))
                app.submit(m.CreateRoom.model_validate({"id": app.session.requests.next_id(), **fields}))

        rated = self.rated if self.has_profile else None
        form = CreateRoomScreen(
            catalogue, self.game_id, self.deck_id, self.levels.get(self.game_id), rated=rated
        )
        self.app.push_screen(form, created)

    def action_join_code(self) -> None:
        self._by_code(
            self.texts("forms.code.join"),
            "lobby.doing.join_code",
            lambda rid, code: m.JoinRoom(id=rid, code=code),
        )

    def action_watch(self) -> None:
        self._by_code(
            self.texts("forms.code.watch"),
            "lobby.doing.watch_code",
            lambda rid, code: m.Spectate(id=rid, code=code),
        )

    def _by_code(self, title: str, doing: str, request: Callable[[int, str], m.Request]) -> None:
        """Ask for a room's code, then send the request made from it."""

        def send(code: str | None) -> None:
            if code:
                app = self.session_app
                self.status(doing, code=code)
                app.submit(request(app.session.requests.next_id(), code))

        self.app.push_screen(CodeScreen(title), send)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        room = event.row_key.value
        if room:
            app = self.session_app
            self.status("lobby.doing.join")
            app.submit(m.JoinRoom(id=app.session.requests.next_id(), room=room))

    def action_bot_level(self) -> None:
        if self.catalogue is None or not self.game_id:
            return
        levels = self.catalogue.levels_for(self.game_id)
        if levels:
            now = self.levels.get(self.game_id, levels[0])
            self.levels[self.game_id] = (
                levels[(levels.index(now) + 1) % len(levels)] if now in levels else levels[0]
            )
            self._describe()

    def action_language(self) -> None:
        def chosen(lang: str | None) -> None:
            if lang:
                self.session_app.set_language(lang)

        self.app.push_screen(LanguageScreen(self.lang), chosen)

    def action_refresh(self) -> None:
        if self.catalogue is not None and self.is_current:
            self.session_app.refresh_rooms()
