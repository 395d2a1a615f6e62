"""The lobby, table and summary screens driven by keys, over a scripted session."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from textual.widgets import Label, Static

from cardavia.clients.cli.session import Reconnected, Reconnecting
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.dialogs import ChoiceScreen, CodeScreen
from cardavia.clients.cli.tui.forms import CreateRoomScreen, room_fields
from cardavia.clients.cli.tui.hand import HandWidget
from cardavia.clients.cli.tui.summaries import DealSummaryScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from cardavia.protocol.i18n import Texts
from tests.clients.tui.driver import SIZE, catalogue_ready, play_match, screen_ready, table_of, text_of, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable, room_info
from tests.clients.tui.positions import schnapsen, scopa


async def test_the_lobby_lists_games_with_their_decks_and_plays_now_against_bots() -> None:
    session = FakeSession(lang="it")
    app = CardaviaApp(session, name="Anna", lang="it")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        lobby = app.lobby
        assert [g.id for g in lobby.catalogue.games] == ["scopa", "briscola", "schnapsen", "doudizhu"]  # type: ignore[union-attr]
        decks = lobby.query_one("#decks")
        assert "Primiera Bolognese" in str(decks.get_option_at_index(0).prompt)  # type: ignore[attr-defined]
        await pilot.press("down", "down")  # Schnapsen
        assert lobby.game_id == "schnapsen"
        await pilot.press("b")  # the next bot level
        await pilot.press("p")
        await until(pilot, lambda: session.sent_of(m.PlayNow), "play_now")
        request = session.sent_of(m.PlayNow)[0]
        assert request.game == "schnapsen"
        assert request.deck == "schnapsen"
        assert request.bot_level in ("random", "strong")


async def test_quick_match_and_join_by_code_send_their_requests() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("m")
        await until(pilot, lambda: session.sent_of(m.QuickMatch), "quick_match")
        assert session.sent_of(m.QuickMatch)[0].game == "scopa"
        await pilot.press("j")
        await screen_ready(pilot, app, CodeScreen, "the code form")
        await pilot.press("a", "b", "enter")  # too short: refused here, nothing sent
        assert "4 to 12" in text_of(app.screen.query_one("#problem", Label))
        await pilot.press("backspace", "backspace", "k", "x", "4", "p", "2", "enter")
        await until(pilot, lambda: session.sent_of(m.JoinRoom), "join_room")
        assert [r.code for r in session.sent_of(m.JoinRoom)] == ["KX4P2"]


async def test_an_open_room_is_joined_with_enter() -> None:
    session = FakeSession()
    session.rooms = [room_info("briscola", ["Bea", ""], state="waiting", room="r-open", code="QQ7RT")]
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await until(pilot, lambda: app.lobby.rooms, "the open rooms")
        await pilot.press("tab", "tab", "enter")  # games → decks → rooms
        await until(pilot, lambda: session.sent_of(m.JoinRoom), "join_room")
        assert session.sent_of(m.JoinRoom)[0].room == "r-open"


async def test_the_create_room_form_sends_every_field_and_refuses_bad_input() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        await pilot.press("c")
        await screen_ready(pilot, app, CreateRoomScreen, "the form")
        await pilot.pause()
        # game, deck, target, people, bots, private, timer
        await pilot.press("tab", "tab", "2", "1", "tab", "tab", "tab", "space", "tab", "x", "enter")
        assert "turn timer" in text_of(app.screen.query_one("#problem", Label))
        assert not session.sent_of(m.CreateRoom)
        await pilot.press("backspace", "3", "0", "enter")
        await until(pilot, lambda: session.sent_of(m.CreateRoom), "create_room")
        request = session.sent_of(m.CreateRoom)[0]
        assert (request.game, request.deck, request.options) == ("scopa", "bolognese", {"target": 21})
        assert (request.public, request.humans, request.turn_seconds) == (False, 1, 30.0)


def test_room_fields_are_checked_before_anything_is_sent() -> None:
    fields = {"game": "scopa", "deck": None, "defaults": {"target": 11}, "humans": 2, "bot_level": "basic"}
    with pytest.raises(ValueError, match="whole number"):
        room_fields(**fields, options={"target": "eleven"}, private=False, turn_seconds="")
    with pytest.raises(ValueError, match="at most 3600"):
        room_fields(**fields, options={}, private=False, turn_seconds="4000")
    made = room_fields(**fields, options={"target": " "}, private=True, turn_seconds="")
    assert made["options"] == {}
    assert made["public"] is False
    assert made["turn_seconds"] is None
    polish = Texts("pl")
    with pytest.raises(ValueError, match="liczba całkowita") as refused:
        room_fields(**fields, options={"target": "jedenaście"}, private=False, turn_seconds="", texts=polish)
    assert str(refused.value) == polish(
        "forms.problem.whole_number", option=polish("options.scopa.target"), text="jedenaście"
    )
    assert "Punkty do wygranej" in str(refused.value)  # the option as people name it, not "target"
    assert (
        room_fields(**fields, options={}, private=False, turn_seconds="7,5", texts=polish)["turn_seconds"]
        == 7.5
    )
    with pytest.raises(ValueError, match="najwyżej 3600 sekund"):
        room_fields(**fields, options={}, private=False, turn_seconds="4000", texts=polish)


async def test_several_captures_become_a_choice_made_by_keys() -> None:
    session = FakeSession()
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    sevens = [a.to_data() for a in state.legal_actions(0) if a.to_data()["play"] == "7D"]
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        ScriptedTable(session, state, deck="napoletane").start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        assert table_of(app).query_one(HandWidget).current() == "7D"
        await pilot.press("enter")
        await screen_ready(pilot, app, ChoiceScreen, "the capture choice")
        assert len(app.screen.options) == 4  # type: ignore[attr-defined]
        await pilot.press("escape")  # changed our mind: nothing was sent
        assert not session.sent_of(m.Act)
        await pilot.press("enter", "3")
        await until(pilot, lambda: session.sent_of(m.Act), "the act")
        assert session.sent_of(m.Act)[0].action == sevens[2]


async def test_only_offered_cards_can_be_played() -> None:
    session = FakeSession()
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    view = state.view(0)
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        session.push(m.Snapshot(room=room_info("scopa", ["Anna", "Bruno"]), seat=0, seq=1, view=view))
        # the server offers only the 3 and the king (a rule the client need not know)
        offered = [a.to_data() for a in state.legal_actions(0) if a.to_data()["play"] != "7D"]
        session.push(m.YourTurn(seq=1, legal=offered, deadline=time.time() + 30))
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        table = table_of(app)
        hand = table.query_one(HandWidget)
        assert hand.current() == "3S"  # the cursor starts on a playable card
        await pilot.press("right", "right")  # KC, then round past 7D to 3S
        assert hand.current() == "3S"
        await pilot.press("1", "enter")  # jump to the 7 anyway: it cannot be played
        assert not session.sent_of(m.Act)
        assert "cannot be played now" in text_of(table.query_one("#status", Static))
        assert " s left" in text_of(table.query_one("#title", Static))
        await pilot.press("2", "enter")
        await until(pilot, lambda: session.sent_of(m.Act), "the act")
        assert session.sent_of(m.Act)[0].action == {"play": "3S", "capture": ["3C"]}


async def test_a_card_is_played_with_the_mouse_by_clicking_it_twice() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        script = ScriptedTable(session, get_game("briscola").new({}, "mouse"))
        script.start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        hand = table_of(app).query_one(HandWidget)
        line, first, _, index = next(spot for spot in hand._spots if spot[3] == 2)
        at = (first + 2, line + 1)  # past the border and the padding
        await pilot.click(HandWidget, offset=at)
        assert hand.current() == hand.cards[index]
        assert not session.sent_of(m.Act)
        card = hand.cards[index]
        await pilot.click(HandWidget, offset=at)
        await until(pilot, lambda: session.sent_of(m.Act), "the act")
        assert session.sent_of(m.Act)[0].action == {"play": card}


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (("x",), {"exchange": "JD"}),
        (("c",), {"close": True}),
        (("2", "enter", "2"), {"play": "QH", "marriage": True}),
        (("2", "enter", "1"), {"play": "QH", "marriage": False}),
        (("m",), {"play": "KH", "marriage": True}),
        (("M",), {"play": "QH", "marriage": True}),
    ],
)
async def test_schnapsen_exchange_close_and_marriage_by_keys(
    keys: tuple[str, ...], expected: dict[str, Any]
) -> None:
    session = FakeSession()
    state = schnapsen(("KH QH JD AC TS", "AS QS KS AH KC"), "D", "AD")
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        ScriptedTable(session, state, deck="schnapsen").start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        prompt = text_of(table_of(app).query_one("#prompt", Static))
        assert "x: exchange Diamonds · Jack for Diamonds · Ace" in prompt
        assert "c: close the stock" in prompt
        # the marriage is offered beside the cards, one key for each card that may announce it
        assert "m: lead Hearts · King and announce a marriage in hearts (20)" in prompt
        assert "M: lead Hearts · Queen and announce a marriage in hearts (20)" in prompt
        await pilot.press(*keys)
        await until(pilot, lambda: session.sent_of(m.Act), "the act")
        assert session.sent_of(m.Act)[0].action == expected


async def test_reconnection_is_shown_while_it_happens() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        ScriptedTable(session, get_game("briscola").new({}, "r1")).start()
        await until(pilot, lambda: app.table is not None, "the table")
        status = table_of(app).query_one("#status", Static)
        session.push(Reconnecting(attempt=2, delay=0.4, reason="connection lost"))
        await until(pilot, lambda: "reconnecting" in text_of(status), "the reconnecting notice")
        assert text_of(status) == "reconnecting… (attempt 2, connection lost)"
        session.push(Reconnected(resumed=True))
        await until(pilot, lambda: "reconnected" in text_of(status), "the reconnected notice")
        assert text_of(status) == "reconnected: back in your seat"
        session.push(Reconnected(resumed=False))  # the seat is gone: back to the lobby
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["briscola", "schnapsen"])  # Scopa and Dou Dizhu: test_live.py
async def test_a_whole_match_by_keys_ends_in_its_summary_and_a_rematch(game: str) -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        short = {"scopa": {"target": 4}, "schnapsen": {"target": 2}}.get(game, {})  # a short match
        script = ScriptedTable(session, get_game(game).new(short, f"{game}-keys"))
        script.start()
        summary, moves, deals = await play_match(pilot, app, random.Random(7))
        assert moves > 0
        assert deals == script.deals  # every scored deal had its summary
        assert script.state.is_over
        result = script.state.result
        assert result is not None
        assert summary.breakdown.rows[0][1] == [str(s) for s in result.scores]
        log = table_of(app).query_one("#log")
        assert any("Match over" in str(line.text) for line in log.lines)  # type: ignore[attr-defined]
        await pilot.press("r")
        await until(pilot, lambda: session.sent_of(m.Rematch), "the rematch request")
        assert isinstance(app.screen, TableScreen)
        status = table_of(app).query_one("#status", Static)
        others = table_of(app).renderer.ctx.players
        session.push(m.RematchVotes(asked=[0], waiting=[1]))  # the other seat has not agreed yet
        await until(pilot, lambda: "waiting for" in text_of(status), "the waiting notice")
        assert text_of(status) == f"waiting for {others[1]} to agree to a rematch…"
        session.push(m.RematchVotes(asked=[1], waiting=[0]))  # as the other player sees it
        await until(pilot, lambda: "r to agree" in text_of(status), "the invitation")
        assert text_of(status) == f"{others[1]} asks for a rematch: r to agree"


@pytest.mark.slow
async def test_a_deal_summary_shows_and_the_game_goes_on_when_it_closes() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        ScriptedTable(session, get_game("scopa").new({}, "deal-summary")).start()
        screen, moves, _ = await play_match(pilot, app, random.Random(3), stop=DealSummaryScreen)
        assert moves >= 18  # a whole deal: 36 cards between two players
        assert isinstance(screen, DealSummaryScreen)
        rows = [row[0] for row in screen.breakdown.rows]
        assert rows == [
            "cards",
            "coins",
            "settebello",
            "primiera",
            "scopas",
            "points this deal",
            "match totals",
        ]
        assert "Deal scored" in " ".join(str(line.text) for line in table_of(app).query_one("#log").lines)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is app.table, "the table again")


async def test_leaving_the_table_goes_back_to_the_lobby() -> None:
    session = FakeSession()
    app = CardaviaApp(session, name="Anna")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        session.push(
            m.Snapshot(room=room_info("scopa", ["Anna", ""], state="waiting"), seat=0, seq=1, view={})
        )
        await screen_ready(pilot, app, TableScreen, "the waiting room")
        await until(pilot, lambda: bool(table_of(app).query("#board")), "the table mounted")
        panel = table_of(app).query_one("#board", Static)
        await until(pilot, lambda: "Waiting for players" in text_of(panel), "the waiting room's board")
        board = text_of(panel)
        assert "Waiting for players in room KX4P2" in board
        assert "Press s to start now" in board
        await pilot.press("s")
        await until(pilot, lambda: session.sent_of(m.Start), "start")
        await pilot.press("l")
        await until(pilot, lambda: app.screen is app.lobby and session.sent_of(m.Leave), "the lobby")
        assert app.table is None
