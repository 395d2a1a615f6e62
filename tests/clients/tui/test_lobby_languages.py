"""The lobby, its forms and dialogs in Italian and in Polish: not one English word of their
catalogue areas left on screen, on a small and a large terminal; and the language switched in the
lobby while the client runs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Input, Select, Static

from cardavia.clients.cli.session import Reconnected, Reconnecting
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.dialogs import (
    ChatScreen,
    ChoiceScreen,
    CodeScreen,
    LanguageScreen,
    language_name,
)
from cardavia.clients.cli.tui.forms import CreateRoomScreen
from cardavia.clients.cli.tui.lobby import LobbyScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.rules import LANGUAGES
from cardavia.games.traditions import TRADITIONS
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts, own_messages
from tests.clients.tui.driver import footer_key, footer_keys, screen_ready, screen_text, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable, room_info
from tests.clients.tui.positions import scopa

SMALL = (80, 24)
LARGE = (120, 40)
AREAS = ("app.", "lobby.", "forms.", "options.", "bots.", "rules.")
"""The catalogue areas of the lobby, its forms and dialogs, the app's notices and the rules screen."""
PLAYERS = ["Anna", "Bea"]


def words(text: str) -> set[str]:
    """The words of a text of three letters or more, lower-cased; placeholders left out."""
    plain = re.sub(r"\{[^{}]*\}", " ", text)
    plain = re.sub(r"\b(plural|select|one|few|many|other)\b", " ", plain)
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", plain)}


def english_words(lang: str) -> set[str]:
    """Words of the English messages of these areas that ``lang`` itself never writes: a name
    ("Cardavia", a deck's, a language's), a key ("enter") or a word both languages share is not a
    leftover."""
    english = {w for key, text in own_messages("en").items() if key.startswith(AREAS) for w in words(text)}
    own = {w for text in own_messages(lang).values() for w in words(text)}
    names = {w for t in TRADITIONS.values() for w in words(t.display_name(lang) + " " + t.name)}
    names |= {w for code in LANGUAGES for w in words(language_name(code))}  # "English" on the picker
    return english - own - names - {w.lower() for p in PLAYERS for w in words(p)}


def english_on_screen(app: CardaviaApp, lang: str) -> set[str]:
    return words(screen_text(app)) & english_words(lang)


async def lobby_ready(pilot: Any, app: CardaviaApp) -> None:
    await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the catalogue")
    await until(pilot, lambda: app.lobby.rooms, "the open rooms")
    await pilot.pause()


async def shown(pilot: Any, app: CardaviaApp, kind: type[Screen[Any]], what: str) -> None:
    await screen_ready(pilot, app, kind, what)
    await pilot.pause()


def session_for(lang: str) -> FakeSession:
    session = FakeSession(lang=lang)
    session.rooms = [
        room_info("briscola", PLAYERS, state="playing", room="r-1", code="QQ7RT"),
        room_info("scopa", ["Bea", ""], state="waiting", room="r-2", code="KX4P2"),
    ]
    session.rooms[1].seats[1]["kind"] = "open"
    return session


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["it", "pl"])
@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_the_lobby_and_every_form_show_no_english(lang: str, size: tuple[int, int]) -> None:
    session = session_for(lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    texts = Texts(lang)
    seen: dict[str, set[str]] = {}
    async with app.run_test(size=size) as pilot:
        await lobby_ready(pilot, app)
        seen["lobby"] = english_on_screen(app, lang)
        assert texts("lobby.games") in screen_text(app)
        assert texts("lobby.state.waiting") in screen_text(app)
        await pilot.press("b")  # another bot level, described in this language
        await pilot.pause()
        seen["lobby, strong bots"] = english_on_screen(app, lang)

        for game in ("scopa", "schnapsen", "doudizhu"):  # the games with options, and a game of three
            while app.lobby.game_id != game:
                await pilot.press("down")
            await pilot.press("c")
            await shown(pilot, app, CreateRoomScreen, "the form")
            seen[f"{game} form"] = english_on_screen(app, lang)
            await pilot.press("tab", "tab")  # from the game past the deck to the first option
            await pilot.pause()
            seen[f"{game} form, an option"] = english_on_screen(app, lang)
            await pilot.press("tab", "tab")  # seats for people, then the bots' level
            await pilot.pause()
            seen[f"{game} form, bots"] = english_on_screen(app, lang)
            app.screen.query_one("#timer", Input).value = "soon"
            await pilot.press("ctrl+s")  # refused: the problem is said in this language
            await pilot.pause()
            assert texts("forms.problem.timer_number", text="soon") in screen_text(app)
            seen[f"{game} form, a problem"] = english_on_screen(app, lang)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.lobby, "the lobby")

        for key, title in (("j", "forms.code.join"), ("w", "forms.code.watch")):
            await pilot.press(key)
            await shown(pilot, app, CodeScreen, "the code form")
            assert texts(title) in screen_text(app)
            seen[title] = english_on_screen(app, lang)
            await pilot.press("a", "enter")  # too short
            await pilot.pause()
            seen[f"{title}, a problem"] = english_on_screen(app, lang)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.lobby, "the lobby")

        await pilot.press("l")
        await shown(pilot, app, LanguageScreen, "the languages")
        seen["languages"] = english_on_screen(app, lang)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")

        await pilot.press("p")
        await until(pilot, lambda: session.sent_of(m.PlayNow), "play_now")
        await pilot.pause()
        seen["lobby, starting"] = english_on_screen(app, lang)
    assert {where: found for where, found in seen.items() if found} == {}


@pytest.mark.slow
async def test_the_form_names_options_and_levels_in_the_players_language() -> None:
    app = CardaviaApp(session_for("pl"), name="Anna", lang="pl")
    texts = Texts("pl")
    async with app.run_test(size=LARGE) as pilot:
        await lobby_ready(pilot, app)
        await pilot.press("down", "down", "c")  # Schnapsen
        await shown(pilot, app, CreateRoomScreen, "the form")
        text = screen_text(app)
        assert texts("options.schnapsen.target") in text  # "Punkty gry do wygranej", not "target"
        assert texts("forms.create.option.default", value="7") in text
        assert texts("bots.level.basic") in text
        levels = app.screen.query_one("#level", Select)
        assert [str(prompt) for prompt, _ in levels._options] == [
            texts("bots.level.basic"),  # basic first: the level a newcomer plays against
            texts("bots.level.random"),
            texts("bots.level.strong"),
            texts("bots.level.expert"),
        ]
        await pilot.press("tab", "tab")  # from the game past the deck to the option
        await pilot.pause()
        assert texts("options.schnapsen.target.about")[:40] in screen_text(app)  # what the option means
        await pilot.press("tab", "tab")  # seats for people, then the bots' level
        await pilot.pause()
        assert texts("bots.about.schnapsen.basic")[:40] in screen_text(app)  # how those bots play


async def test_the_language_is_switched_in_the_lobby_without_restarting() -> None:
    session = session_for("en")
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=LARGE) as pilot:
        await lobby_ready(pilot, app)
        await pilot.press("down")  # Briscola, kept through the switch
        english = screen_text(app)
        assert "Open rooms (enter joins)" in english
        assert footer_keys(app.lobby)["c"] == "create room"
        assert {"open", "rooms", "joins"} <= english_on_screen(app, "pl")  # the check sees English
        await pilot.press("l")
        await shown(pilot, app, LanguageScreen, "the languages")
        names = screen_text(app)
        for own in ("English", "Italiano", "Svenska", "Norsk bokmål", "Español", "Polski"):
            assert own in names
        await pilot.press(*["down"] * LANGUAGES.index("pl"), "enter")
        await until(pilot, lambda: app.screen is app.lobby and app.lang == "pl", "the lobby in Polish")
        await pilot.pause()
        polish = Texts("pl")
        assert app.texts.lang == "pl"
        text = screen_text(app)
        assert polish("lobby.rooms") in text
        assert polish("lobby.game", game="Briscola", count=2) in text
        assert polish("lobby.state.waiting") in text
        assert polish("bots.about.briscola.basic")[:30] in text
        assert app.lobby.game_id == "briscola"
        assert english_on_screen(app, "pl") == set()
        keys = footer_keys(app.lobby)
        assert keys["c"] == polish("lobby.key.create")
        assert keys["question_mark"] == polish("app.key.rules")
        # the forms opened now speak Polish too
        await pilot.press("c")
        await shown(pilot, app, CreateRoomScreen, "the form")
        assert polish("forms.create.title") in screen_text(app)
        assert english_on_screen(app, "pl") == set()
        assert await footer_key(pilot, app.screen, "escape") == polish("forms.key.back")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")
        # and so do the tables opened after the switch
        session.push(
            m.Snapshot(room=room_info("scopa", ["Anna", ""], state="waiting"), seat=0, seq=1, view={})
        )
        await shown(pilot, app, TableScreen, "the table")
        assert isinstance(app.screen, TableScreen)
        assert app.screen.lang == "pl"


async def test_a_language_switched_back_and_forth_keeps_the_lobby_whole() -> None:
    app = CardaviaApp(session_for("it"), name="Anna", lang="it")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        for lang in ("sv", "nb", "es", "en", "it"):
            app.set_language(lang)
            await pilot.pause()
            texts = Texts(lang)
            text = screen_text(app)
            assert texts("lobby.games") in text
            assert texts("lobby.column.seats") in text
            assert len(app.lobby.query_one("#rooms").rows) == 2  # type: ignore[attr-defined]
            assert app.lobby.query_one("#decks").option_count >= 1  # type: ignore[attr-defined]
        assert isinstance(app.screen, LobbyScreen)


class Unreachable(FakeSession):
    async def connect(self) -> m.Welcome:
        raise OSError("connection refused")


async def test_connection_notices_and_errors_are_in_the_players_language() -> None:
    session = session_for("pl")
    app = CardaviaApp(session, name="Anna", lang="pl")
    polish = Texts("pl")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        status = app.lobby.query_one("#lobby-status", Static)
        session.push(Reconnecting(attempt=2, delay=0.4, reason="connection lost"))
        expected = polish("app.reconnecting", attempt=2, reason="connection lost")
        await until(pilot, lambda: str(status.content) == expected, "the reconnecting notice")
        assert expected.startswith("ponowne łączenie… (próba 2")
        session.push(Reconnected(resumed=False))
        await until(pilot, lambda: str(status.content) == polish("app.reconnected"), "the reconnected notice")
        session.push(m.Error(code="no_such_code", message=""))  # a code this client does not know
        await until(pilot, lambda: str(status.content) == polish("errors.unknown"), "the error")
        session.push(m.Error(code="room_full", message="every seat is taken"))
        await until(pilot, lambda: str(status.content) == app.texts.error("room_full", "x"), "the error")
        assert "(room_full)" not in str(status.content)  # what it means, not the wire code
        session.push(
            m.Snapshot(room=room_info("scopa", ["Anna", ""], state="waiting"), seat=0, seq=1, view={})
        )
        await shown(pilot, app, TableScreen, "the table")
        session.push(m.Left(reason="replaced by a newer connection"))
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")
        left = polish("app.left", reason=polish("app.left.replaced"))
        await until(pilot, lambda: str(status.content) == left, "why we left")
        assert "newer connection" not in left


async def test_a_server_that_cannot_be_reached_is_said_in_the_players_language() -> None:
    app = CardaviaApp(Unreachable(lang="sv"), name="Anna", lang="sv")
    swedish = Texts("sv")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.failed is not None, "the failure")
        failed = swedish("app.connect_failed", url="ws://fake.invalid/", reason="connection refused")
        assert app.failed == failed
        status = app.lobby.query_one("#lobby-status", Static)
        await until(
            pilot, lambda: str(status.content) == swedish("app.q_quits", problem=failed), "the notice"
        )
        assert swedish("lobby.title.connecting") in screen_text(app)
        assert english_on_screen(app, "sv") <= {"connection", "refused"}  # the system's own words


@pytest.mark.slow
async def test_the_dialogs_of_a_table_speak_the_players_language() -> None:
    session = FakeSession(lang="pl")
    app = CardaviaApp(session, name="Anna", lang="pl")
    polish, english = Texts("pl"), Texts("en")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.lobby.catalogue is not None, "the catalogue")
        ScriptedTable(
            session, scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H"), deck="napoletane"
        ).start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        await pilot.press("enter")  # the 7 takes in several ways: which one?
        await shown(pilot, app, ChoiceScreen, "the capture choice")
        assert polish("forms.choice.hint") in screen_text(app)
        assert english("forms.choice.hint") not in screen_text(app)
        assert app.screen.active_bindings["escape"].binding.description == polish("forms.key.back")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.table, "the table")
        await pilot.press("t")
        await shown(pilot, app, ChatScreen, "the chat line")
        text = screen_text(app)
        assert polish("forms.chat.title") in text
        assert polish("forms.chat.placeholder") in text
        assert english("forms.chat.title") not in text
