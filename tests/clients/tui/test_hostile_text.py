"""Names and chat from other people reach the screen inert: no escape sequences, line breaks or
bidi overrides get to the terminal, and text that looks like Rich markup is shown as written."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input, Label, RichLog, Static

from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.dialogs import ChatScreen
from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.summaries import MatchSummaryScreen, breakdown_table
from cardavia.clients.cli.tui.tables import Breakdown, TableContext, table_for
from cardavia.clients.cli.tui.tables.base import plain
from cardavia.protocol import messages as m
from cardavia.protocol.text import REPLACEMENT
from tests.clients.tui.driver import SIZE, catalogue_ready, screen_ready, table_of, text_of, until
from tests.clients.tui.fakes import FakeSession, room_info
from tests.clients.tui.positions import schnapsen, scopa

EVIL = "[red]Eve[/red]\x1b[5m\u202e"
"""A name an old or hostile server lets through: markup, an escape sequence, a right-to-left override."""
EVIL_SHOWN = f"[red]Eve[/red]{REPLACEMENT}[5m{REPLACEMENT}"
EVIL_CHAT = "[link=https://evil.example]prize[/link]\x07\r\nAnna: I resign\x1b]8;;x\x07"
EVIL_CHAT_SHOWN = (
    f"[link=https://evil.example]prize[/link]{REPLACEMENT * 3}Anna: I resign{REPLACEMENT}]8;;x{REPLACEMENT}"
)
DANGEROUS = ("\x1b", "\x07", "\r", "\u202e")
"""What must never reach the terminal (a line break shows as a separate log line, checked apart)."""


def inert(shown: str) -> bool:
    return not any(c in shown for c in DANGEROUS)


async def test_a_hostile_name_and_chat_line_are_shown_as_written_and_inert() -> None:
    session = FakeSession()
    session.rooms = [room_info("scopa", [EVIL, ""], state="waiting", room="r-evil", code="EV1L")]
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await until(pilot, lambda: app.lobby.rooms, "the open rooms")
        rooms = app.lobby.query_one("#rooms", DataTable)
        seats = rooms.get_row_at(0)[3]
        assert plain(seats).strip() == f"{EVIL_SHOWN}, bot"

        state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")  # seat 1 dealt
        session.push(m.Snapshot(room=room_info("scopa", ["Anna", EVIL]), seat=0, seq=1, view=state.view(0)))
        await until(pilot, lambda: app.table is not None and bool(app.table.query("#board")), "the table")
        table = table_of(app)
        board = table.query_one("#board", Static)
        await until(pilot, lambda: "dealt by" in text_of(board), "the board")
        assert f"dealt by {EVIL_SHOWN}" in text_of(board)
        assert inert(text_of(board))

        log = table.query_one(RichLog)
        # a RichLog holds its lines until it has a size: wait for the table's opening line
        await until(pilot, lambda: any("room" in line.text for line in log.lines), "the log's opening line")
        before = len(log.lines)
        session.push(m.ChatMessage(seat=1, name=EVIL, text=EVIL_CHAT))
        await until(pilot, lambda: any("resign" in line.text for line in log.lines), "the chat line")
        lines = [line.text for line in log.lines]
        assert "".join(lines[before:]) == f"{EVIL_SHOWN}: {EVIL_CHAT_SHOWN}"  # wrapped, never broken
        assert not any(line.startswith("Anna: I resign") for line in lines)  # no forged line
        assert all(inert(line) for line in lines)

        session.push(m.MatchResult(scores=[3, 11], winner=1, reason="target", record="rec-evil"))
        await screen_ready(pilot, app, MatchSummaryScreen, "the match summary")
        title = app.screen.query_one(".title", Label)
        assert title.visual.plain == f"{EVIL_SHOWN} wins"  # type: ignore[attr-defined]
        notes = [label.visual.plain for label in app.screen.query(Label)]  # type: ignore[attr-defined]
        assert f"Why: {EVIL_SHOWN} reached the target of 11" in notes


async def test_a_hostile_error_message_from_a_server_is_shown_inert() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        # a code this client has no words for (a newer server): the server's own message is shown
        session.push(m.Error(code="room_on_fire", message="full\x1b[2J\u202e"))
        status = app.lobby.query_one("#lobby-status", Static)
        await until(pilot, lambda: "full" in text_of(status), "the error")
        assert text_of(status).startswith(f"full{REPLACEMENT}[2J{REPLACEMENT}")
        assert inert(text_of(status))


@pytest.mark.parametrize("name", ["[/b]Eve", "[bold]Bo", "[link=https://evil.example]Cy[/link]"])
def test_names_that_look_like_markup_are_drawn_as_written(name: str) -> None:
    """Board cells, summary headers and notes take text, not markup: a stray closing tag in a name
    would otherwise raise ``MarkupError`` while drawing, and an opening one restyle the board."""
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    ctx = TableContext(CardNames("napoletane"), 0, ["Anna", name])
    assert f"dealt by {name}" in plain(table_for("scopa", ctx).board(state.view(0)))
    closed = schnapsen(("AH TH KH QH JH", "AS TS KS QS JS"), "C", "AC")
    ctx = TableContext(CardNames("schnapsen"), 0, ["Anna", name])
    view = dict(closed.view(0), closed=True, closed_by=1)
    assert name in plain(table_for("schnapsen", ctx).board(view))
    ctx = TableContext(CardNames(None), 0, ["Anna", name, "Bo"])
    pair = {"seat": 1, "combo": "pair", "cards": ["5C", "5D"]}
    view = {"phase": "play", "bid": 2, "landlord": 1, "table": pair, "hand_counts": [17, 15, 17]}
    assert f"{name}'s pair" in plain(table_for("doudizhu", ctx).board(view))
    summary = Breakdown("Deal 1 scored", ["Anna", name], rows=[("points", ["+1", "[i]0"])])
    drawn = plain(breakdown_table(summary), width=200)
    assert name in drawn
    assert "[i]0" in drawn


async def test_a_pasted_invisible_character_is_caught_before_sending() -> None:
    """The chat form refuses what the server would refuse, with the same reason, instead of failing
    to build the request."""
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        room = room_info("scopa", ["Anna", ""], state="waiting")
        session.push(m.Snapshot(room=room, seat=0, seq=1, view={}))
        await until(pilot, lambda: app.table is not None and bool(app.table.query("#status")), "the table")
        table = table_of(app)
        status = table.query_one("#status", Static)

        async def say(line: str) -> None:
            await pilot.press("t")
            await screen_ready(pilot, app, ChatScreen, "the chat form")
            app.screen.query_one(Input).value = line
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is table, "the table again")

        await say("gg\u200b wp")
        await until(pilot, lambda: "not sent" in text_of(status), "the refusal")
        reason = "U+200B ZERO WIDTH SPACE (an invisible format character) at position 3 is not allowed"
        assert text_of(status) == f"not sent: {reason}"
        assert not session.sent_of(m.Chat)
        await say("cafe\u0301 ?")
        await until(pilot, lambda: session.sent_of(m.Chat), "the chat request")
        assert [c.text for c in session.sent_of(m.Chat)] == ["caf\u00e9 ?"]
