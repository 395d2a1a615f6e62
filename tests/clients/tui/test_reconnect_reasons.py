"""Why the client is still reconnecting, in the player's language: the session's own reasons
(the room is moving to another node, the room is not back yet) are not shown in its English."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from textual.widgets import Static

from cardavia.clients.cli.session import ROOM_MOVING, ROOM_NOT_BACK, Reconnecting
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.games.registry import get_game
from cardavia.protocol.i18n import Texts
from tests.clients.tui.driver import until
from tests.clients.tui.fakes import FakeSession, ScriptedTable

SMALL = (80, 24)


async def lobby_ready(pilot: Any, app: CardaviaApp) -> None:
    await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the catalogue")


def shows(line: Static, text: str) -> bool:
    return str(line.content) == text


@pytest.mark.parametrize("lang", ["pl", "sv", "es"])
async def test_a_moving_room_is_explained_in_the_players_language(lang: str) -> None:
    session = FakeSession(lang=lang)
    app = CardaviaApp(session, name="Anna", lang=lang)
    texts = Texts(lang)
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        ScriptedTable(session, get_game("briscola").new({}, "r1")).start()
        await until(pilot, lambda: app.table is not None, "the table")
        assert app.table is not None
        status = app.table.query_one("#status", Static)
        for attempt, reason, key in [
            (3, ROOM_MOVING, "app.reconnecting.room_moving"),
            (4, ROOM_NOT_BACK, "app.reconnecting.room_not_back"),
        ]:
            session.push(Reconnecting(attempt=attempt, delay=0.4, reason=reason))
            expected = texts("app.reconnecting", attempt=attempt, reason=texts(key))
            await until(pilot, functools.partial(shows, status, expected), "the reconnecting notice")
            assert reason not in str(status.content)


async def test_a_reason_from_the_network_is_shown_as_it_comes() -> None:
    session = FakeSession(lang="it")
    app = CardaviaApp(session, name="Anna", lang="it")
    async with app.run_test(size=SMALL) as pilot:
        await lobby_ready(pilot, app)
        status = app.lobby.query_one("#lobby-status", Static)
        session.push(Reconnecting(attempt=2, delay=0.4, reason="ConnectionRefusedError"))
        expected = Texts("it")("app.reconnecting", attempt=2, reason="ConnectionRefusedError")
        await until(pilot, lambda: str(status.content) == expected, "the reconnecting notice")
