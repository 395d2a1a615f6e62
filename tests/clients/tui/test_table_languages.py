"""The table speaks the player's language: every label, log line, summary and key hint, with the
plural forms of each language (Polish: 1 karta, 2 karty, 5 kart)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.moves import MoveMenu
from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.clients.cli.tui.tables import TableContext, table_for
from cardavia.clients.cli.tui.tables.base import plain
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from tests.clients.tui.driver import SIZE, catalogue_ready, screen_ready, table_of, text_of, until
from tests.clients.tui.fakes import FakeSession, ScriptedTable, room_info
from tests.clients.tui.positions import schnapsen, schnapsen_won_at_66, scopa
from tests.clients.tui.whole_deal import english_left, panels_text, proper_names


async def test_the_table_footer_and_prompt_speak_italian() -> None:
    session = FakeSession(lang="it")
    app = CardaviaApp(session, name="Anna", lang="it")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        ScriptedTable(
            session, scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H"), deck="napoletane"
        ).start()
        await until(pilot, lambda: app.table is not None and app.table.menu.active, "our turn")
        table = table_of(app)
        await pilot.pause()
        prompt = text_of(table.query_one("#prompt", Static))
        assert prompt.startswith("Tocca a te: ")
        assert "invio la gioca" in prompt
        hints = {b.binding.description for b in table.active_bindings.values() if b.binding.show}
        assert {"gioca", "chat", "esci", "chiudi"} <= hints
        assert "play" not in hints
        assert "ancora " in text_of(table.query_one("#title", Static)) or table.deadline is None
        await pilot.press("enter")  # the 7 of coins takes in four ways: a choice, in Italian
        await until(pilot, lambda: app.screen is not table, "the choice")
        assert app.screen.title_text == "Giochi Denari · 7: in che modo?"  # type: ignore[attr-defined]
        assert app.screen.options[0].label == "prendi Bastoni · 3 + Bastoni · 4 con Denari · 7"  # type: ignore[attr-defined]


async def test_a_refused_move_and_a_waiting_room_speak_polish() -> None:
    session = FakeSession(lang="pl")
    app = CardaviaApp(session, name="Anna", lang="pl")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        room = room_info("scopa", ["Anna", ""], state="waiting", public=False)
        session.push(m.Snapshot(room=room, seat=0, seq=1, view={}))
        await screen_ready(pilot, app, TableScreen, "the waiting room")
        board = table_of(app).query_one("#board", Static)
        await until(pilot, lambda: "Czekamy" in text_of(board), "the waiting room's board")
        assert text_of(board).splitlines()[0] == "Czekamy na graczy przy stole KX4P2 (stół prywatny)"
        assert "  miejsce 2: bot, gdy zacznie się partia" in text_of(board)
        assert "Naciśnij s, by zacząć teraz" in text_of(board)
        table = table_of(app)
        status = table.query_one("#status", Static)
        table.on_refused(m.Error(code="no_such_code_yet", message="odmowa"))
        await until(pilot, lambda: bool(text_of(status)), "the refusal")
        assert text_of(status) == "odrzucono: odmowa"


@pytest.mark.parametrize(
    ("n", "cards", "points", "tricks"),
    [
        (1, "1 karta", "1 punkt", "1 lewa"),
        (2, "2 karty", "2 punkty", "2 lewy"),
        (5, "5 kart", "5 punktów", "5 lew"),
        (12, "12 kart", "12 punktów", "12 lew"),
        (22, "22 karty", "22 punkty", "22 lewy"),
    ],
)
def test_polish_counts_take_their_plural_forms(n: int, cards: str, points: str, tricks: str) -> None:
    table = table_for("briscola", TableContext(CardNames("piacentine", "pl"), 0, ["Anna", "Bruno"]))
    view = {"hand_counts": [3, n], "tricks": [0, n], "points": [0, n], "stock": n, "trump": "7D", "trick": []}
    text = plain(table.board(view))
    bruno = next(line for line in text.splitlines() if "Bruno" in line)
    assert f"{cards} · {tricks} · {points}" in bruno
    assert f"{cards}" in next(line for line in text.splitlines() if line.startswith("talon"))
    line = table.describe([{"type": "trick", "winner": 1, "cards": ["7D", "3D"], "points": n}])[0]
    assert line.endswith(f": {points}")


def test_italian_and_polish_log_lines_and_summaries() -> None:
    it = table_for("scopa", TableContext(CardNames("napoletane", "it"), 0, ["Anna", "Bruno"]))
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C")
    _, events = state.apply(
        get_game("scopa").action_from_data({"play": "7D", "capture": ["3C", "4C"]}), seat=0
    )
    assert it.describe(events) == ["Anna prende Bastoni · 3 + Bastoni · 4 con Denari · 7 — scopa!"]
    summary = it.match_summary(
        {"scores": [11, 7], "winner": 0, "reason": "target", "record": "rec-1"}, {"target": 11}
    )
    assert summary.title == "Hai vinto!"
    assert summary.row("summary.row.match_points") == ["11", "7"]
    assert summary.notes == ["Perché: Anna ha raggiunto quota 11", "Registrazione: rec-1"]
    assert summary.record == "rec-1"

    pl = table_for("schnapsen", TableContext(CardNames("schnapsen", "pl"), 0, ["Anna", "Bruno"]))
    scored = pl.deal_summary(schnapsen_won_at_66(), 1, {"target": 7})
    assert scored.title == "Rozdanie 1 policzone"
    assert scored.row("summary.row.match") == ["2 z 7", "0 z 7"]
    assert scored.notes == ["Dlaczego: Anna osiąga 66; 2 punkty gry: przegrany miał mniej niż 33"]
    assert (
        pl.worth({"reason": "closer_failed", "game_points": 5})
        == "5 punktów gry (liczone w chwili zamknięcia talonu)"
    )


def test_dou_dizhu_combinations_and_moves_are_named_in_the_language() -> None:
    view = {"game": "doudizhu", "phase": "play", "hand": ["3C", "3D", "9C", "9D", "KS"],
            "table": {"seat": 1, "combo": "pair", "cards": ["4C", "4D"]}}  # fmt: skip
    legal: list[dict[str, object]] = [{"combo": "pair", "cards": ["9C", "9D"]}, {"pass": True}]
    menu = MoveMenu("doudizhu", legal, view, CardNames("french54", "it"))
    assert menu.readings(["9C", "9D"])[0].label == "coppia: Fiori · 9, Quadri · 9"
    assert menu.why_not(["3C", "3D"]) == (
        "Fiori · 3, Quadri · 3 (coppia) non batte la giocata in tavola: coppia (Fiori · 4, Quadri · 4)"
    )
    assert menu.why_not([]).startswith("scegli le carte con spazio")
    assert [e.label for e in menu.extras] == ["passa"]
    ctx = TableContext(CardNames("french54", "pl"), 0, ["Anna", "Bruno", "Carla"])
    table = table_for("doudizhu", ctx)
    assert table.describe([{"type": "play", "seat": 1, "combo": "rocket", "cards": ["BJ", "RJ"]}]) == [
        f"Bruno zagrywa {ctx.cards(['BJ', 'RJ'])} (rakieta)"
    ]
    bombs = table.deal_summary(
        {"winner": "landlord", "points": [-8, 16, -8],
         "detail": {"landlord": 1, "bid": 2, "bombs": 2, "rockets": 1, "spring": True, "multiplier": 16}},
        1, {},
    )  # fmt: skip
    assert bombs.title == "Rozdanie 1: wygrywa obszarnik"
    assert bombs.notes[0] == "Odzywka 2 × mnożnik 16 (2 bomby, 1 rakieta, wiosna)"  # noqa: RUF001 (the sign the text uses)
    assert bombs.row("summary.row.role") == ["chłop", "obszarnik", "chłop"]
    assert CardNames("french54", "pl").cards([]) == "nic"
    assert CardNames(None, "it").deck_name() == "carte"


def test_schnapsen_moves_in_swedish_and_the_peasants_in_norwegian() -> None:
    state = schnapsen(("KH QH JD AC TS", "AS QS KS AH KC"), "D", "AD")
    menu = MoveMenu(
        "schnapsen",
        [a.to_data() for a in state.legal_actions(0)],
        state.view(0),
        CardNames("schnapsen", "sv"),
    )
    close = menu.extra("c")
    assert close is not None
    assert close.label == "stäng talongen"
    assert [o.label for o in menu.options("QH")][1].endswith("melda mariage i hjärter (20)")
    ctx = TableContext(CardNames("french54", "nb"), 0, ["Anna", "Bruno", "Carla"])
    result = {"scores": [3, -6, 3], "winner": None, "reason": "shared"}
    summary = table_for("doudizhu", ctx).match_summary(result, {"landlord": 1, "deals": 1})
    assert summary.title == "Du og Carla vinner som bønder!"


async def test_a_spectator_watches_in_spanish() -> None:
    session = FakeSession(lang="es")
    app = CardaviaApp(session, name="Carla", lang="es")
    state = get_game("briscola").new({}, "watched")
    async with app.run_test(size=SIZE) as pilot:
        await catalogue_ready(pilot, app)
        room = room_info("briscola", ["Anna", "Bruno"], deck="piacentine")
        session.push(m.Snapshot(room=room, seat=None, seq=1, view=state.view(None)))
        await screen_ready(pilot, app, TableScreen, "the watched table")
        table = table_of(app)
        title = table.query_one("#title", Static)
        await until(pilot, lambda: "como espectador" in text_of(title), "the title")
        board = text_of(table.query_one("#board", Static))
        assert "(tú)" not in board
        assert "triunfo" in board
        assert "34 cartas (con la muestra al final)" in board
        assert "le toca a " in text_of(title)
        assert not english_left(panels_text(table), "es", proper_names("es", "piacentine"))
