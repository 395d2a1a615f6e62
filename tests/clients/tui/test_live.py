"""The real terminal client against a live server with bots, every move chosen by pressing keys."""

from __future__ import annotations

import random

import pytest
from textual.widgets import Static

from cardavia.clients.cli.session import Session
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.dialogs import ChatScreen, CodeScreen
from cardavia.clients.cli.tui.forms import CreateRoomScreen
from cardavia.clients.cli.tui.summaries import MatchSummaryScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from tests.clients.tui.driver import play_by_keys, play_match, screen_ready, table_of, until
from tests.support.clients import client

SIZE = (120, 40)


def log_lines(app: CardaviaApp) -> list[str]:
    """The log's lines as written, whole: the widget's own lines are wrapped to its width."""
    return list(table_of(app).written)


def logged(app: CardaviaApp, key: str, **choices: str) -> bool:
    """Whether the log reads as the message ``key`` does in the player's language: the pieces of
    its own text follow one another in the log, whatever names and cards fill its placeholders
    (its lines are read as one text)."""
    hole = "\x00"
    holes = dict.fromkeys(("who", "cards", "card", "bid", "combo", "points", "scores", "names"), hole)
    pieces = [p for p in app.texts(key, **{**holes, **choices}).split(hole) if p.strip()]
    text = "".join(log_lines(app))
    start = text.find(pieces[0])
    while start >= 0:
        at = start + len(pieces[0])
        for piece in pieces[1:]:
            found = text.find(piece, at)
            if found < 0 or found - at > 200:  # the next piece of this line, not of a later one
                break
            at = found + len(piece)
        else:
            return True
        start = text.find(pieces[0], start + 1)
    return False


async def replayed(server: CardaviaServer, record: str) -> dict[str, object]:
    """The record the server wrote for the match, replayed through the engine: it must match exactly."""
    assert await server.archiver.drain(timeout=10)  # written by the server's archiver
    data = await server.archive.load_record(record)
    assert data is not None
    report = replay(data)
    assert report.problems == []
    return data


@pytest.mark.slow
async def test_a_whole_scopa_match_from_the_create_form_to_a_rematch(
    server: CardaviaServer, url: str
) -> None:
    app = CardaviaApp(Session(url, "Anna", lang="it"), name="Anna", lang="it")
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id == "scopa", "the lobby"
        )
        await pilot.press("c")
        await screen_ready(pilot, app, CreateRoomScreen, "the create-room form")
        await pilot.pause()
        await pilot.press("tab", "tab", "1", "1", "enter")  # Scopa to 11, one seat for a person, basic bots
        await screen_ready(pilot, app, TableScreen, "the waiting room")
        await pilot.press("s")
        summary, moves, deals = await play_match(pilot, app, random.Random(11))
        assert isinstance(summary, MatchSummaryScreen)
        assert moves >= 18
        assert deals >= 1
        lines = log_lines(app)
        assert logged(app, "log.scopa.capture")  # captures, named in Italian
        assert any(
            "Denari" in line or "Coppe" in line or "Spade" in line or "Bastoni" in line for line in lines
        )
        assert logged(app, "log.match_over.winner") or logged(app, "log.match_over.shared")
        assert summary.breakdown.record is not None
        data = await replayed(server, summary.breakdown.record)
        assert data["game"] == "scopa"
        scores = summary.breakdown.row("summary.row.match_points")
        assert max(int(s) for s in scores) >= 11
        await pilot.press("r")  # a rematch: the same seats, a new deal
        new_match = app.texts("table.match.new")
        await until(pilot, lambda: new_match in log_lines(app), "the rematch")
        await until(pilot, lambda: table_of(app).result is None and app.screen is app.table, "the new match")
        await pilot.press("l")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")


@pytest.mark.slow
async def test_a_whole_dou_dizhu_deal_played_now_against_bots(server: CardaviaServer, url: str) -> None:
    app = CardaviaApp(Session(url, "Anna", lang="sv"), name="Anna", lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the lobby")
        await pilot.press("down", "down", "down")
        assert app.lobby.game_id == "doudizhu"
        await pilot.press("p")
        summary, moves, deals = await play_match(pilot, app, random.Random(5))
        assert isinstance(summary, MatchSummaryScreen)
        assert deals == 1
        assert moves >= 2  # a bid (or a pass in the auction) and at least one play
        assert logged(app, "log.doudizhu.landlord")  # in Swedish
        assert logged(app, "log.doudizhu.play")
        assert any(logged(app, "log.doudizhu.deal_end", side=side) for side in ("landlord", "peasants"))
        assert summary.breakdown.record is not None
        data = await replayed(server, summary.breakdown.record)
        assert data["game"] == "doudizhu"
        assert len(summary.breakdown.row("summary.row.final_score")) == 3


async def test_the_client_reconnects_by_itself_and_plays_on(server: CardaviaServer, url: str) -> None:
    session = Session(url, "Anna", max_backoff=0.2)
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the lobby")
        await pilot.press("down")  # Briscola
        await pilot.press("p")
        await until(pilot, lambda: app.table is not None and table_of(app).menu.active, "our first turn")
        table = table_of(app)
        status = table.query_one("#status", Static)
        seen: list[str] = []
        original = table.status

        def watch(text: str) -> None:
            seen.append(text)
            original(text)

        table.status = watch  # type: ignore[method-assign]
        assert session.welcome is not None
        server.sessions[session.welcome.session].wire.close(1000, "")  # the connection drops
        await until(
            pilot, lambda: any(s.startswith("reconnecting…") for s in seen), "the reconnecting notice"
        )
        await until(pilot, lambda: "reconnected: back in your seat" in seen, "the reconnected notice")
        assert str(status.content) == "reconnected: back in your seat"
        assert app.table is table  # still at the same table
        await until(pilot, lambda: table.menu.active, "our turn again")
        before = len(log_lines(app))
        await play_by_keys(pilot, app, table.menu.legal[0])
        await until(pilot, lambda: len(log_lines(app)) > before, "our move to be seen")


@pytest.mark.slow
async def test_watching_a_game_by_its_code_and_chatting_with_its_players(
    server: CardaviaServer, url: str
) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.create_room("briscola", humans=1, public=False))
    waiting: m.Snapshot = await anna.expect(m.Snapshot)
    code = waiting.room.code
    assert code
    await anna.send(anna.req.start())
    app = CardaviaApp(Session(url, "Bo"), name="Bo")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.catalogue is not None, "the lobby")
        await pilot.press("w")
        await screen_ready(pilot, app, CodeScreen, "the room-code prompt")
        await pilot.press(*code.lower(), "enter")
        await until(pilot, lambda: app.table is not None, "the table, watched")
        table = table_of(app)
        assert table.seat is None
        assert app.session.store.view is not None
        assert app.session.store.view["hand"] is None  # a watcher sees no hand
        rng = random.Random(3)
        for _ in range(3):  # Anna plays; the watcher's view follows
            turn: m.YourTurn = await anna.expect(m.YourTurn)
            await anna.send(anna.req.act(rng.choice(turn.legal)))
        await until(
            pilot,
            lambda: len((app.session.store.view or {}).get("history", [])) >= 5,
            "Anna's moves and the bot's, watched",
        )
        assert not table.menu.active  # nothing to play from a watcher's chair
        await pilot.press("t")
        await screen_ready(pilot, app, ChatScreen, "the chat line")
        await pilot.press(*"ciao anna", "enter")
        heard: m.ChatMessage = await anna.expect(m.ChatMessage)
        assert (heard.name, heard.seat, heard.text) == ("Bo", None, "ciao anna")
        await until(pilot, lambda: "Bo: ciao anna" in log_lines(app), "the line in the watcher's own log")
        await anna.send(anna.req.chat("grazie"))
        await until(pilot, lambda: "Anna: grazie" in log_lines(app), "Anna's answer")
