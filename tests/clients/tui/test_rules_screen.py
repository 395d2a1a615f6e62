"""? or F1 opens the rules of the game at hand, in the player's language, from the lobby (the game
chosen there) and from a table (the table's game); escape, q or ? closes them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.containers import VerticalScroll

from cardavia.clients.cli.tui import rules as rules_screen
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.rules import RulesScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.registry import get_game
from cardavia.games.rules import RulesText, rules_text
from cardavia.games.traditions import game_name
from cardavia.protocol.i18n import Texts
from tests.clients.tui.driver import catalogue_ready, footer_key, screen_ready, screen_text, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable

SIZE = (100, 32)


async def rules_shown(pilot: Any, app: CardaviaApp, game: str, lang: str) -> None:
    """The rules screen is up, showing ``game``'s rules written in ``lang``, under a title in the
    player's language."""
    await screen_ready(pilot, app, RulesScreen, "the rules")
    screen = app.screen
    assert isinstance(screen, RulesScreen)
    assert screen.game == game
    first = rules_text(game, lang).sections()[0]
    await until(pilot, lambda: first in screen_text(app), f"the section {first!r}")
    assert app.texts("rules.title", game=game_name(game, app.lang)) in screen_text(app)


@pytest.mark.slow
async def test_the_lobby_opens_the_chosen_games_rules_in_italian() -> None:
    app = CardaviaApp(FakeSession(lang="it"), name="Anna", lang="it")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("question_mark")
        await rules_shown(pilot, app, "scopa", "it")
        assert "Scopo del gioco" in screen_text(app)  # a heading of games/data/rules/scopa.it.md
        assert Texts("it")("rules.hint") in screen_text(app)
        assert await footer_key(pilot, app.screen, "escape") == "chiudi"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")

        await pilot.press("down")  # Briscola
        await until(pilot, lambda: app.lobby.game_id == "briscola", "Briscola chosen")
        await pilot.press("f1")
        await rules_shown(pilot, app, "briscola", "it")
        await pilot.press("q")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")
        await pilot.press("question_mark")
        await rules_shown(pilot, app, "briscola", "it")
        await pilot.press("question_mark")  # the same key closes them
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "lang"), [("briscola", "en"), ("schnapsen", "pl"), ("doudizhu", "sv")])
async def test_f1_at_a_table_opens_that_tables_game_rules(game: str, lang: str) -> None:
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        assert app.lobby.game_id == "scopa"  # the lobby's choice is not the table's game
        ScriptedTable(session, get_game(game).new({}, "rules")).start()
        await screen_ready(pilot, app, TableScreen, "the table")
        table = app.screen
        await pilot.press("f1")
        await rules_shown(pilot, app, game, lang)
        text = app.screen.query_one("#rules-text", VerticalScroll)
        assert text.max_scroll_y > 0
        await pilot.press("end")  # the rules scroll to their end
        await until(pilot, lambda: text.scroll_y == text.max_scroll_y, "the end of the rules")
        last_word = rules_text(game, lang).markdown.split()[-1]
        await until(pilot, lambda: last_word in screen_text(app), "the last words")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "the table again")


async def test_rules_not_written_in_the_language_say_they_are_in_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def english_only(game: str, lang: str = "en") -> RulesText:
        return rules_text(game, "en")

    monkeypatch.setattr(rules_screen, "rules_text", english_only)
    app = CardaviaApp(FakeSession(lang="pl"), name="Anna", lang="pl")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("question_mark")
        await rules_shown(pilot, app, "scopa", "en")
        assert Texts("pl")("rules.in_english") in screen_text(app)
