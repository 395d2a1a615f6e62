"""The terminal client names bots and guests in its reader's language (``protocol.names``): a
bot by its seat and level, a guest by its number, whatever English name the server wrote."""

from __future__ import annotations

from textual.widgets import Static

from cardavia.clients.cli.replay import ReplayText
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts
from tests.clients.tui.driver import SIZE, catalogue_ready, screen_ready, table_of, text_of, until
from tests.clients.tui.fakes import FakeSession, room_info

GUEST = {"name": "Player 563", "kind": "human", "bot": None, "guest": 563}
BOT = {"name": "Bot 2 (basic)", "kind": "bot", "bot": "basic", "guest": None}


async def test_a_bot_seat_and_a_guest_seat_read_in_polish() -> None:
    session = FakeSession(lang="pl")
    app = CardaviaApp(session, name="Anna", lang="pl")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        room = room_info("scopa", ["", ""], state="waiting", public=False)
        room = room.model_copy(update={"seats": [dict(GUEST), dict(BOT)]})
        session.push(m.Snapshot(room=room, seat=0, seq=1, view={}))
        await screen_ready(pilot, app, TableScreen, "the waiting room")
        board = table_of(app).query_one("#board", Static)
        await until(pilot, lambda: "Czekamy" in text_of(board), "the waiting room's board")
        text = text_of(board)
        assert "miejsce 1: Gracz 563" in text
        assert "miejsce 2: Bot 2 (podstawowy)" in text
        assert "basic" not in text
        assert "Player" not in text
        session.push(m.ChatMessage(seat=0, name="Player 563", text="cześć", guest=563))
        await until(pilot, lambda: "Gracz 563: cześć" in table_of(app).written, "the chat line")


def test_a_replay_names_its_bot_and_its_guest_in_the_readers_language() -> None:
    record = {"format": "cardavia-record/1", "game": "briscola", "deck": "napoletane", "seats": [GUEST, BOT]}
    replay = m.Replay(id=1, record_id="r-1", record=record, views=[{}, {}], steps=[], analysis=[])
    assert ReplayText(replay, Texts("pl")).seats == ["Gracz 563", "Bot 2 (podstawowy)"]
    assert ReplayText(replay, Texts("sv")).seats == ["Spelare 563", "Dator 2 (enkel)"]
