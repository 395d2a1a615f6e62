"""What the table's language tests read off the screen, and the whole deal they play: the
words of the table's catalogue areas in a language, the English ones left on a screen, and
a match of one deal played by keys from the lobby to the rematch notice."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from textual.screen import Screen
from textual.widgets import Static

from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.hand import HandWidget
from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.summaries import MatchSummaryScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.registry import GAMES, get_game
from cardavia.games.traditions import TRADITIONS
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import own_messages, parse
from tests.clients.tui.driver import SIZE, catalogue_ready, play_match, table_of, text_of, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable

AREAS = ("table", "log", "summary", "moves", "combo")
"""The catalogue areas the table screens speak in."""
SHORT = {"scopa": {"target": 1}, "schnapsen": {"target": 1}}
"""Matches of one deal, so that a whole deal ends in the match summary."""
DECKS = {"scopa": "napoletane", "briscola": "piacentine", "schnapsen": "schnapsen", "doudizhu": "french54"}
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _texts(tree: list[Any]) -> Iterator[str]:
    for node in tree:
        if isinstance(node, str):
            yield node
        else:
            for branch in (node.get("options") or {}).values():
                yield from _texts(branch)


def words(lang: str) -> set[str]:
    """Every word the table's catalogue areas write in ``lang`` (placeholders left out)."""
    found: set[str] = set()
    for key, message in own_messages(lang).items():
        if key.split(".")[0] in AREAS:
            for text in _texts(parse(message)):
                found.update(w.lower() for w in WORD.findall(text))
    return found


def english_left(shown: str, lang: str, names: list[str]) -> set[str]:
    """English words of the table's catalogue that ``shown`` holds and ``lang`` does not write too."""
    for name in sorted(names, key=len, reverse=True):  # card, game and player names stay as they are
        shown = shown.replace(name, " ")
    english = {w for w in words("en") if len(w) > 2} - words(lang)
    return {w for w in WORD.findall(shown) if w.lower() in english}


def proper_names(lang: str, deck: str) -> list[str]:
    names = CardNames(deck, lang)
    cards = [names.card(c.code) for c in TRADITIONS[deck].deck]
    games = [names.game(g) for g in GAMES]
    packs = [CardNames(d, lang).deck_name() for d in TRADITIONS]
    return [*cards, *games, *packs, "Anna", "Bot", "Dou Dizhu", "KX4P2", "rec-test"]


def panels_text(screen: Screen[Any]) -> str:
    """What a screen shows: its text panels, and the key hints of its footer."""
    shown = [text_of(w) for w in screen.query(Static)]
    shown += [b.binding.description for b in screen.active_bindings.values() if b.binding.show]
    return "\n".join(shown)


def table_text(table: TableScreen) -> str:
    shown = [panels_text(table), table.query_one(HandWidget).render().plain]
    shown += table.written  # the log's lines, whole
    return "\n".join(shown)


async def a_whole_deal_shows_no_english_word(game: str, lang: str) -> None:
    """A match of one deal of ``game`` in ``lang``, played by keys: every screen, the log, the
    summary and the rematch notice are read, and none holds an English word."""
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        script = ScriptedTable(
            session, get_game(game).new(SHORT.get(game, {}), f"{game}-{lang}"), deck=DECKS[game]
        )
        script.start()
        summary, moves, _ = await play_match(
            pilot,
            app,
            random.Random(4),
            look=lambda: seen.append(table_text(table_of(app))),
            read=lambda screen: seen.append(panels_text(screen)),
        )
        assert moves > 0
        assert isinstance(summary, MatchSummaryScreen)
        await until(pilot, lambda: summary.is_mounted, "the match summary drawn")
        seen.append(panels_text(summary))
        await pilot.press("escape")  # look at the table once more: the log holds the whole match
        await until(pilot, lambda: app.screen is app.table, "the table")
        await pilot.pause()
        seen.append(table_text(table_of(app)))
        await pilot.press("r")
        status = table_of(app).query_one("#status", Static)
        await until(pilot, lambda: bool(text_of(status)), "the rematch notice")
        asking = text_of(status)
        seen.append(asking)
        session.push(m.RematchVotes(asked=[0], waiting=[1]))
        await until(pilot, lambda: text_of(status) != asking, "who must still agree")
        seen.append(text_of(status))
        assert "Bot 2" in seen[-1]
    shown = "\n".join(seen)
    assert not english_left(shown, lang, proper_names(lang, DECKS[game])), shown
    mine = {"it": "Tocca a te", "pl": "Twoja kolej", "sv": "Din tur", "nb": "Din tur", "es": "Te toca"}[lang]
    assert mine in shown
