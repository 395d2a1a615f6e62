"""The terminal client on the smallest usual terminal, 80 by 24, and on a large one: everything a
player needs stays on screen (the form's buttons, the lobby's lists, the hand, the legal moves,
the status line and the key hints), and every name is in the player's language."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets._footer import FooterKey

from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.forms import CreateRoomScreen
from cardavia.clients.cli.tui.hand import HandWidget
from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.tables import TableContext, table_for
from cardavia.clients.cli.tui.tables.base import plain
from cardavia.games.engine import State
from cardavia.games.registry import get_game
from cardavia.games.traditions import LANGUAGES, TRADITIONS
from cardavia.protocol import messages as m
from tests.clients.tui.driver import play_match, screen_ready, table_of, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable, room_info

SMALL = (80, 24)
LARGE = (200, 60)

FOREIGN_RANKS = re.compile(r"\b(Asso|Fante|Cavallo|Regina|Re|König|Dame|Bube|Ober|Unter|Ass|Sota|Caballo)\b")
"""Court names of the Italian, Austrian and Spanish packs: a Swedish or Polish player reads none."""


async def lobby_ready(pilot: Any, app: CardaviaApp) -> None:
    await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the catalogue")


def on_screen(app: CardaviaApp, widget: Widget, what: str) -> None:
    """The widget is laid out with room for what it shows, wholly inside the terminal."""
    region = widget.region
    assert region.height > 0, f"{what} has no rows"
    assert region.width > 0, f"{what} has no columns"
    assert app.screen.region.contains_region(region), f"{what} is cut off: {region}"


def shown(widget: Static) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


async def test_the_create_room_form_fits_80_by_24_and_shows_its_ctrl_s() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        await pilot.press("down", "down")  # Schnapsen: the game with the most options
        await pilot.press("c")
        await screen_ready(pilot, app, CreateRoomScreen, "the form")
        await pilot.pause()
        form = app.screen
        for selector in ("#game", "#deck", "#timer", "#create", "#cancel"):
            on_screen(app, form.query_one(selector), selector)
        keys = [k for k in form.query_one(Footer).query(FooterKey) if k.key == "ctrl+s"]
        assert keys, "the footer does not show ctrl+s"
        on_screen(app, keys[0], "ctrl+s in the footer")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: session.sent_of(m.CreateRoom), "create_room")
        assert session.sent_of(m.CreateRoom)[0].game == "schnapsen"


async def test_the_lobby_lists_games_and_decks_at_80_by_24() -> None:
    app = CardaviaApp(FakeSession(), name="Anna")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        await pilot.pause()
        for selector in ("#games", "#decks", "#rooms"):
            widget = app.lobby.query_one(selector)
            on_screen(app, widget, selector)
            assert widget.region.height >= 3, f"{selector} has {widget.region.height} rows"
        decks = app.lobby.query_one("#decks", OptionList)
        assert decks.option_count >= 1


def landlord_hand() -> State[Any]:
    """A Dou Dizhu deal where seat 0 took the landlord's 20 cards (the others bid nothing)."""
    game = get_game("doudizhu")
    state = game.new({}, "twenty")
    while state.to_move is not None and len(state.view(0)["hand"]) < 20:
        seat = state.to_move
        state, _ = state.apply(game.action_from_data({"bid": 3 if seat == 0 else 0}), seat=seat)
    assert len(state.view(0)["hand"]) == 20
    return state


async def landlords_hand(pilot: Any, app: CardaviaApp, session: FakeSession) -> HandWidget:
    """The hand of twenty cards on the table, at our lead."""
    await lobby_ready(pilot, app)
    ScriptedTable(session, landlord_hand()).start()
    await until(pilot, lambda: app.table is not None and app.table.menu.active, "our lead")
    await pilot.pause()
    return table_of(app).query_one(HandWidget)


async def test_twenty_cards_of_dou_dizhu_fit_one_line_of_80_columns() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SMALL) as pilot:
        hand = await landlords_hand(pilot, app, session)
        assert len(hand.cards) == 20
        assert hand.compact
        assert len(hand._layout(hand.content_size.width)) == 1
        on_screen(app, hand, "the hand")
        text = hand.render().plain
        assert "♠" in text or "♣" in text
        await pilot.press("n")  # a suggestion is selected by its corner indices too
        assert hand.selected_cards()


async def test_n_says_when_only_a_pass_is_possible() -> None:
    session = FakeSession()
    state = landlord_hand()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        room = room_info("doudizhu", ["Anna", "Bo", "Cy"])
        session.push(m.Snapshot(room=room, seat=0, seq=1, view=state.view(0)))
        session.push(m.YourTurn(seq=1, legal=[{"pass": True}]))  # nothing in hand beats the table
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        status = table_of(app).query_one("#status", Static)
        await pilot.press("n")
        await until(pilot, lambda: "only pass" in shown(status), "the notice")
        assert shown(status) == "you can only pass: press p"
        await pilot.press("p")
        await until(pilot, lambda: session.sent_of(m.Act), "the pass")
        assert session.sent_of(m.Act)[0].action == {"pass": True}


def look_at_the_table(app: CardaviaApp, texts: list[str]) -> None:
    """At a turn: the hand, the prompt with every legal move's key, the status line and the
    key hints are all on screen, and the hand has the rows its cards need."""
    table = table_of(app)
    hand = table.query_one(HandWidget)
    on_screen(app, hand, "the hand")
    assert hand.region.height >= len(hand._layout(hand.content_size.width)) + 2  # and its border
    prompt = table.query_one("#prompt", Static)
    on_screen(app, prompt, "the prompt")
    for extra in table.menu.extras:
        assert f"{extra.key}: {extra.label}" in shown(prompt)
    width = prompt.content_region.width
    assert prompt.get_content_height(app.screen.size, app.screen.size, width) <= prompt.content_region.height
    on_screen(app, table.query_one("#status", Static), "the status line")
    on_screen(app, table.query_one(Footer), "the key hints")
    on_screen(app, table.query_one("#board-box"), "the board")
    assert table.query_one("#board-box").region.height >= 4
    texts += [hand.render().plain, shown(prompt), plain(table.renderer.board(table.view), width=78)]
    texts += [str(line.text) for line in table.query_one(RichLog).lines]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "lang", "deck"),
    [
        ("scopa", "sv", "bolognese"),
        ("briscola", "pl", "napoletane"),
        ("schnapsen", "pl", "doubledeutsch"),
        ("doudizhu", "sv", "french54"),
    ],
)
@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_a_match_of_each_game_on_a_small_and_a_large_screen_in_swedish_and_polish(
    game: str, lang: str, deck: str, size: tuple[int, int]
) -> None:
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    async with app.run_test(size=size) as pilot:
        await lobby_ready(pilot, app)
        short = {"scopa": {"target": 4}, "schnapsen": {"target": 2}}.get(game, {})
        script = ScriptedTable(session, get_game(game).new(short, f"{game}-small"), deck=deck)
        script.start()
        texts: list[str] = []
        _, moves, _ = await play_match(
            pilot, app, random.Random(5), look=lambda: look_at_the_table(app, texts)
        )
        assert moves > 0
        seen = "\n".join(texts)
        assert not FOREIGN_RANKS.search(seen), FOREIGN_RANKS.search(seen)
        # the rematch: asked for, then begun; the notice goes when the new match arrives
        await pilot.press("r")
        status = table_of(app).query_one("#status", Static)
        asking = app.texts("table.rematch.asking")
        await until(pilot, lambda: shown(status) == asking, "the request")
        session.push(m.RematchVotes(asked=[0], waiting=[1]))
        other = table_of(app).renderer.ctx.players[1]
        await until(pilot, lambda: shown(status) not in ("", asking), "who must still agree")
        assert other in shown(status)
        ScriptedTable(session, get_game(game).new(short, f"{game}-again"), deck=deck).start()
        await until(pilot, lambda: table_of(app).result is None, "the new match")
        await until(pilot, lambda: shown(status) == "", "the rematch notice to go")


@pytest.mark.parametrize("lang", ["sv", "pl", "nb", "es", "en"])
def test_no_pack_names_a_rank_in_a_foreign_language(lang: str) -> None:
    # words of the language itself: Spanish court cards, Norwegian's queen, English's Ober and Unter
    own = {"es": {"Sota", "Caballo"}, "nb": {"Dame"}, "en": {"Ober", "Unter"}}.get(lang, set())
    for deck in TRADITIONS:
        names = CardNames(deck, lang)
        for code in (c.code for c in TRADITIONS[deck].deck):
            found = FOREIGN_RANKS.search(names.card(code))
            assert found is None or found.group() in own, f"{deck} {code}: {names.card(code)}"


def test_every_language_names_every_rank_of_every_pack() -> None:
    for lang in LANGUAGES:
        for deck in TRADITIONS:
            names = CardNames(deck, lang)
            assert all(names.card(c.code) != c.code for c in TRADITIONS[deck].deck)


def test_the_peasants_win_a_one_deal_match() -> None:
    table = table_for("doudizhu", TableContext(CardNames("french54"), 0, ["Anna", "Bruno", "Carla"]))
    result = {"scores": [3, -6, 3], "winner": None, "reason": "shared"}
    summary = table.match_summary(result, {"landlord": 1, "deals": 1})
    assert summary.title == "You and Carla win as the peasants!"
    assert summary.notes[0] == (
        "Why: a peasant went out before the landlord, so the peasants, you and Carla, share the top score"
    )
    watched = table_for("doudizhu", TableContext(CardNames("french54"), None, ["Anna", "Bruno", "Carla"]))
    assert (
        watched.match_summary(result, {"landlord": 1, "deals": 1}).title == "The peasants win: Anna and Carla"
    )
    events = [{"type": "landlord", "seat": 1, "bid": 3, "kitty": []}, {"type": "game_over", **result}]
    assert watched.describe(events)[-1] == "Match over: Anna and Carla win as the peasants (scores 3, -6, 3)"


USUAL = [SMALL, (100, 30)]
"""The smallest usual terminal and a common laptop one: nothing may be cut at either."""


def fits(widget: Static, what: str) -> None:
    """Every line of the widget's text is shown: none runs past its edge or below its last row."""
    width = widget.content_region.width
    needed = widget.get_content_height(widget.app.screen.size, widget.app.screen.size, width)
    rows = widget.content_region.height
    assert needed <= rows, f"{what} needs {needed} rows, has {rows}"


@pytest.mark.parametrize("size", USUAL)
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_lobby_shows_every_key_every_game_and_the_whole_bot_description(
    size: tuple[int, int], lang: str
) -> None:
    app = CardaviaApp(FakeSession(lang=lang), name="Anna", lang=lang)
    async with app.run_test(size=size) as pilot:
        await lobby_ready(pilot, app)
        await pilot.pause()
        keys = list(app.screen.query_one(Footer).query(FooterKey))
        assert len(keys) >= 10
        for key in keys:
            on_screen(app, key, f"the key {key.key} ({key.description})")
        info = app.lobby.query_one("#deck-info", Static)
        on_screen(app, info, "the pack's and the bots' description")
        fits(info, "the pack's and the bots' description")
        games = app.lobby.query_one("#games", OptionList)
        assert games.region.height >= games.option_count, "some games are out of sight"


@pytest.mark.parametrize("size", USUAL)
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_table_title_and_keys_fit_with_three_players(size: tuple[int, int], lang: str) -> None:
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    async with app.run_test(size=size) as pilot:
        await lobby_ready(pilot, app)
        ScriptedTable(session, get_game("doudizhu").new({}, "title"), deck="french54").start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our bid")
        await pilot.pause()
        table = table_of(app)
        title = table.query_one("#title", Static)
        turn = table.renderer.turn(table.view)
        await until(pilot, lambda: turn in shown(title), "whose turn in the title")  # it never gives way
        await pilot.pause()  # a title grown to two rows is laid out on the next frame
        on_screen(app, title, "the title")
        fits(title, "the title")
        for key in table.query_one(Footer).query(FooterKey):
            on_screen(app, key, f"the key {key.key} ({key.description})")


@pytest.mark.parametrize(
    ("lang", "letters"), [("sv", "E = ess · Kn = knekt"), ("pl", "W = walet"), ("en", "J = jack · Q = queen")]
)
async def test_a_hand_drawn_by_letters_says_what_they_stand_for(lang: str, letters: str) -> None:
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        hand = await landlords_hand(pilot, app, session)
        assert hand.compact
        legend = str(hand.border_subtitle)
        assert legend.startswith(app.texts("legend.line", letters="").strip()), legend
        assert letters in legend
        assert len(legend) <= hand.size.width - 4  # whole on the border, not cut
