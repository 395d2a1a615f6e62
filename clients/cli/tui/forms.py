"""The create-room form: game, deck, the game's options, seats for people, bots, privacy, timer.

It returns the fields of a ``create_room`` request, checked here first, so a
typo never reaches the server as a half-made room. Options and bot levels are
named and explained from the ``options`` and ``bots`` catalogue areas; an
option or level this client does not know shows the server's own words.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import DescendantFocus
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select

from cardavia.clients.cli.tui.catalogue import Catalogue
from cardavia.clients.cli.tui.dialogs import Modal
from cardavia.clients.cli.tui.footer import KeyHints
from cardavia.protocol.i18n import Texts

Fields = dict[str, Any]
LONGEST_TURN = 3600
"""The longest turn timer a room may have, in seconds."""


def option_name(texts: Texts, game: str, option: str) -> str:
    """A game option's name for people ("Points to win"); its id when the catalogue lacks it."""
    return texts.get(f"options.{game}.{option}", option)


def room_fields(
    *,
    game: str,
    deck: str | None,
    options: dict[str, str],
    defaults: dict[str, Any],
    humans: int,
    bot_level: str | None,
    private: bool,
    turn_seconds: str,
    texts: Texts | None = None,
    rated: bool = False,
) -> Fields:
    """The ``create_room`` fields from what was typed; ValueError says what is wrong (in
    ``texts``' language, English by default)."""
    t = texts or Texts()
    checked: dict[str, Any] = {}
    for name, typed in options.items():
        text = typed.strip()
        if not text:
            continue
        default = defaults.get(name)
        if isinstance(default, bool):
            checked[name] = text.lower() in ("1", "yes", "true", "on")
        elif isinstance(default, int):
            if not text.lstrip("-").isdigit():
                raise ValueError(
                    t("forms.problem.whole_number", option=option_name(t, game, name), text=text)
                )
            checked[name] = int(text)
        else:
            checked[name] = text
    seconds: float | None = None
    if turn_seconds.strip():
        try:
            seconds = float(turn_seconds.strip().replace(",", "."))  # "7,5" where a comma is the decimal mark
        except ValueError:
            raise ValueError(t("forms.problem.timer_number", text=turn_seconds.strip())) from None
        if not 0 < seconds <= LONGEST_TURN:
            raise ValueError(t("forms.problem.timer_range", most=str(LONGEST_TURN)))
    return {
        "game": game,
        "deck": deck,
        "options": checked,
        "public": not private,
        "humans": humans,
        "bot_level": bot_level,
        "turn_seconds": seconds,
        **({"rated": True} if rated else {}),  # a rated room: every person in it needs a profile
    }


class CreateRoomScreen(Modal[Fields | None]):
    DEFAULT_CSS = """
    CreateRoomScreen .modal-box { width: 76; max-width: 100%; padding: 0 1; max-height: 100%; }
    CreateRoomScreen .modal-box .title { margin-bottom: 0; }
    CreateRoomScreen VerticalScroll { height: auto; max-height: 30; }
    CreateRoomScreen .field, CreateRoomScreen #options { height: auto; }
    CreateRoomScreen .field > Label { width: 26; padding-right: 1; }
    CreateRoomScreen Select, CreateRoomScreen Input { width: 1fr; }
    CreateRoomScreen #buttons { height: auto; }
    CreateRoomScreen #buttons Button { margin-right: 2; }
    CreateRoomScreen #about { color: $text-muted; height: auto; }
    CreateRoomScreen #problem { color: $error; }
    """
    FIXED_ROWS = 7
    """Rows of the box besides its fields: border, title, the field's explanation, the problem line,
    the buttons, the footer."""
    BINDINGS = [
        Binding("escape", "cancel", "forms.key.back"),
        Binding("ctrl+s", "create", "forms.key.create", priority=True),
    ]

    def __init__(
        self, catalogue: Catalogue, game: str, deck: str, level: str | None, *, rated: bool | None = None
    ) -> None:
        """``rated``: the first state of the rated box; None: no box (the player has no profile)."""
        super().__init__()
        self.rated = rated
        self.catalogue = catalogue
        self.game = game or catalogue.games[0].id
        self.deck = deck
        self.level = level

    def compose(self) -> ComposeResult:
        # one line per field (compact widgets, the name beside it), so the whole form and its
        # buttons fit a terminal of 24 rows; the fields scroll when a game has many options
        t = self.texts
        with self.box():
            yield Label(t("forms.create.title"), classes="title", markup=False)
            with VerticalScroll():
                yield self._field(
                    t("forms.create.game"),
                    Select(
                        [(self.catalogue.game_name(g.id, t.lang), g.id) for g in self.catalogue.games],
                        value=self.game,
                        allow_blank=False,
                        id="game",
                        compact=True,
                    ),
                )
                yield self._field(
                    t("forms.create.deck"),
                    Select(
                        self._decks(),
                        value=self.deck or Select.NULL,
                        allow_blank=False,
                        id="deck",
                        compact=True,
                    ),
                )
                yield Vertical(id="options")
                yield self._field(
                    t("forms.create.humans"),
                    Select(self._humans(), value=1, allow_blank=False, id="humans", compact=True),
                )
                yield self._field(
                    t("forms.create.bots"),
                    Select(self._levels(), allow_blank=False, id="level", compact=True),
                )
                yield Checkbox(t("forms.create.private"), id="private", compact=True)
                if self.rated is not None:
                    yield Checkbox(t("profile.cli.create_room.rated"), self.rated, id="rated", compact=True)
                yield self._field(
                    t("forms.create.timer"),
                    Input(placeholder=t("forms.create.timer.placeholder"), id="timer", compact=True),
                )
            yield Label("", id="about", markup=False)
            yield Label("", id="problem", markup=False)
            with Horizontal(id="buttons"):
                yield Button(t("forms.create.button.create"), variant="primary", id="create", compact=True)
                yield Button(t("forms.create.button.cancel"), id="cancel", compact=True)
        yield KeyHints()

    @staticmethod
    def _field(name: str, widget: Widget) -> Horizontal:
        return Horizontal(Label(name, markup=False), widget, classes="field")

    def on_resize(self) -> None:
        """Keep the buttons on screen: the fields scroll within what the terminal leaves them."""
        self.query_one(VerticalScroll).styles.max_height = max(3, self.size.height - self.FIXED_ROWS)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).can_focus = False  # tab goes from field to field
        self.query_one("#game", Select).focus()
        self._fill_options()
        if self.level in self.catalogue.levels_for(self.game):
            self.query_one("#level", Select).value = self.level

    def _decks(self) -> list[tuple[str, str]]:
        lang = self.texts.lang
        return [(self.catalogue.deck_texts(d.id, lang)[0], d.id) for d in self.catalogue.decks_for(self.game)]

    def _humans(self) -> list[tuple[str, int]]:
        players = self.catalogue.game(self.game).players
        return [(self.texts.number(n), n) for n in range(1, players + 1)]

    def _levels(self) -> list[tuple[str, str]]:
        return [
            (self.texts.get(f"bots.level.{level}", level), level)
            for level in self.catalogue.levels_for(self.game)
        ]

    def _fill_options(self) -> None:
        box = self.query_one("#options", Vertical)
        box.remove_children()
        for name, default in self.catalogue.game(self.game).options.items():
            shown = self.texts.number(default) if isinstance(default, int) else str(default)
            field = Input(
                placeholder=self.texts("forms.create.option.default", value=shown),
                id=f"option-{name}",
                classes="option",
                compact=True,
            )
            box.mount(self._field(option_name(self.texts, self.game, name), field))

    def on_descendant_focus(self, event: DescendantFocus) -> None:
        """Explain the field that has the focus: a game option, or the bots' level."""
        self._explain(event.widget)

    def _explain(self, widget: Widget) -> None:
        about = ""
        if isinstance(widget, Input) and widget.has_class("option") and widget.id:
            option = widget.id.removeprefix("option-")
            about = self.texts.get(f"options.{self.game}.{option}.about", "")
        elif isinstance(widget, Select) and widget.id == "level" and isinstance(widget.value, str):
            level = widget.value
            about = self.texts.get(
                f"bots.about.{self.game}.{level}", self.catalogue.bot_description(self.game, level)
            )
        self.query_one("#about", Label).update(about)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "level":
            if event.select.has_focus:
                self._explain(event.select)
            return
        if event.select.id != "game" or event.value == self.game or not isinstance(event.value, str):
            return
        self.game = event.value
        self.query_one("#deck", Select).set_options(self._decks())
        self.query_one("#humans", Select).set_options(self._humans())
        self.query_one("#level", Select).set_options(self._levels())
        self._fill_options()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def action_create(self) -> None:
        options = {
            str(i.id).removeprefix("option-"): i.value
            for i in self.query(Input).results()
            if i.has_class("option")
        }
        deck, humans, level = (self.query_one(f"#{k}", Select).value for k in ("deck", "humans", "level"))
        try:
            fields = room_fields(
                game=self.game,
                deck=deck if isinstance(deck, str) else None,
                options=options,
                defaults=self.catalogue.game(self.game).options,
                humans=humans if isinstance(humans, int) else 1,
                bot_level=level if isinstance(level, str) else None,
                private=self.query_one("#private", Checkbox).value,
                turn_seconds=self.query_one("#timer", Input).value,
                texts=self.texts,
                rated=self.rated is not None and self.query_one("#rated", Checkbox).value,
            )
        except ValueError as exc:
            self.query_one("#problem", Label).update(str(exc))
            return
        self.dismiss(fields)

    def action_cancel(self) -> None:
        self.dismiss(None)
