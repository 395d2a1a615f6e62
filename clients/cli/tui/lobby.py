"""The lobby: games and their deck traditions, open rooms, and the ways into a game.

Keys: p plays now against bots (the highlighted game and deck, the chosen bot
level), m finds a quick match with people, c creates a room with every option,
j joins a room by its code, enter on an open room joins it, b changes the bot
level, r refreshes the rooms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from cardavia.clients.cli.tui.catalogue import Catalogue
from cardavia.clients.cli.tui.dialogs import CodeScreen
from cardavia.clients.cli.tui.forms import CreateRoomScreen
from cardavia.protocol import messages as m
from cardavia.protocol.text import display_safe

if TYPE_CHECKING:
    from cardavia.clients.cli.tui.app import CardaviaApp


class LobbyScreen(Screen[None]):
    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    #lobby-title { height: 1; background: $primary-background; padding: 0 1; text-style: bold; }
    #pickers { height: 3fr; min-height: 9; }
    #games-box { width: 1fr; border: round $secondary; }
    #decks-box { width: 2fr; border: round $secondary; }
    #games, #decks { height: 1fr; min-height: 3; }
    #deck-info { height: auto; max-height: 3; padding: 0 1; color: $text-muted; overflow-y: auto; }
    #rooms-box { height: 2fr; min-height: 5; border: round $secondary; }
    #rooms { height: 1fr; }
    #lobby-status { height: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("p", "play_now", "play now vs bots"),
        Binding("m", "quick_match", "quick match"),
        Binding("c", "create", "create room"),
        Binding("j", "join_code", "join by code"),
        Binding("w", "watch", "watch a game"),
        Binding("b", "bot_level", "bot level"),
        Binding("r", "refresh", "refresh rooms"),
        Binding("q", "app.quit", "quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.catalogue: Catalogue | None = None
        self.game_id = ""
        self.deck_id = ""
        self.levels: dict[str, str] = {}
        self.rooms: list[m.RoomInfo] = []

    @property
    def session_app(self) -> CardaviaApp:
        from cardavia.clients.cli.tui.app import CardaviaApp

        assert isinstance(self.app, CardaviaApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static("Cardavia: connecting…", id="lobby-title")
        with Horizontal(id="pickers"):
            with Vertical(id="games-box"):
                yield Label("Games")
                yield OptionList(id="games")
            with Vertical(id="decks-box"):
                yield Label("Deck traditions")
                yield OptionList(id="decks")
                yield Static(id="deck-info")
        with Vertical(id="rooms-box"):
            yield Label("Open rooms (enter joins)")
            yield DataTable(id="rooms", cursor_type="row")
        yield Static(id="lobby-status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#rooms", DataTable)
        table.add_columns("code", "game", "deck", "seats", "state")
        self.set_interval(5.0, self.action_refresh)
        self.query_one("#games", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    # ------------------------------------------------------------ data in
    def connected(self, url: str, name: str) -> None:
        self.query_one("#lobby-title", Static).update(Text(f"Cardavia: {name} at {url}"))

    def show_catalogue(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        games = self.query_one("#games", OptionList)
        games.clear_options()
        games.add_options(Option(f"{g.name} ({g.players} players)", id=g.id) for g in catalogue.games)
        for g in catalogue.games:
            levels = catalogue.levels_for(g.id)
            self.levels.setdefault(g.id, levels[0] if levels else "basic")
        if catalogue.games:
            games.highlighted = 0
            self._pick_game(catalogue.games[0].id)

    def show_rooms(self, rooms: list[m.RoomInfo]) -> None:
        self.rooms = rooms
        table = self.query_one("#rooms", DataTable)
        table.clear()
        for room in rooms:
            seats = ", ".join(str(s.get("name") or s.get("kind", "open")) for s in room.seats)
            # a DataTable reads a str cell as Rich markup: every cell is a Text of safe characters
            cells = (room.code or "", room.game, room.deck, seats, room.state)
            table.add_row(*(Text(display_safe(c)) for c in cells), key=room.room)

    def status(self, text: str) -> None:
        self.query_one("#lobby-status", Static).update(Text(text))

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

    def _pick_game(self, game_id: str) -> None:
        if self.catalogue is None or game_id == self.game_id:
            return
        self.game_id = game_id
        decks = self.query_one("#decks", OptionList)
        decks.clear_options()
        choices = self.catalogue.decks_for(game_id)
        decks.add_options(Option(f"{d.name} · {d.place}" if d.place else d.name, id=d.id) for d in choices)
        self.deck_id = choices[0].id if choices else ""
        if choices:
            decks.highlighted = 0
        self._describe()

    def _describe(self) -> None:
        if self.catalogue is None:
            return
        deck = next((d for d in self.catalogue.decks if d.id == self.deck_id), None)
        level = self.levels.get(self.game_id, "basic")
        lines = [deck.description] if deck else []
        lines.append(f"Bots: {level} (b changes). {self.catalogue.bot_description(self.game_id, level)}")
        self.query_one("#deck-info", Static).update(Text("\n".join(lines)))

    # ------------------------------------------------------------- actions
    def _request_fields(self) -> dict[str, Any]:
        return {"game": self.game_id, "deck": self.deck_id or None}

    def action_play_now(self) -> None:
        if not self.game_id:
            return
        app = self.session_app
        self.status(f"starting {self.game_id} against bots…")
        request = m.PlayNow.model_validate(
            {
                "id": app.session.requests.next_id(),
                **self._request_fields(),
                "bot_level": self.levels.get(self.game_id),
            }
        )
        app.submit(request)

    def action_quick_match(self) -> None:
        if not self.game_id:
            return
        app = self.session_app
        self.status(f"looking for a {self.game_id} match…")
        app.submit(m.QuickMatch.model_validate({"id": app.session.requests.next_id(), "game": self.game_id}))

    def action_create(self) -> None:
        if self.catalogue is None:
            return

        def created(fields: dict[str, Any] | None) -> None:
            if fields is not None:
                app = self.session_app
                self.status(f"creating a {fields['game']} room…")
                app.submit(m.CreateRoom.model_validate({"id": app.session.requests.next_id(), **fields}))

        form = CreateRoomScreen(self.catalogue, self.game_id, self.deck_id, self.levels.get(self.game_id))
        self.app.push_screen(form, created)

    def action_join_code(self) -> None:
        self._by_code("Join a room by its code", "joining", lambda rid, code: m.JoinRoom(id=rid, code=code))

    def action_watch(self) -> None:
        self._by_code(
            "Watch a game by its room code", "watching", lambda rid, code: m.Spectate(id=rid, code=code)
        )

    def _by_code(self, title: str, doing: str, request: Callable[[int, str], m.Request]) -> None:
        """Ask for a room's code, then send the request made from it."""

        def send(code: str | None) -> None:
            if code:
                app = self.session_app
                self.status(f"{doing} room {code}…")
                app.submit(request(app.session.requests.next_id(), code))

        self.app.push_screen(CodeScreen(title), send)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        room = event.row_key.value
        if room:
            app = self.session_app
            self.status("joining…")
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

    def action_refresh(self) -> None:
        if self.catalogue is not None and self.is_current:
            self.session_app.refresh_rooms()
