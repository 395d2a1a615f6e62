"""The per-game tables: boards from real views, log lines from real events, scoring breakdowns."""

from __future__ import annotations

from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.tables import TableContext, table_for
from cardavia.clients.cli.tui.tables.base import plain
from cardavia.games.registry import get_game
from tests.clients.tui.positions import schnapsen, schnapsen_won_at_66, scopa


def context(deck: str, lang: str = "en", players: int = 2) -> TableContext:
    names = ["Anna", "Bruno", "Carla"][:players]
    return TableContext(CardNames(deck, lang), 0, names)


def test_a_scopa_capture_reads_as_one_line_with_its_scopa() -> None:
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C")
    table = table_for("scopa", context("napoletane"))
    state, events = state.apply(
        get_game("scopa").action_from_data({"play": "7D", "capture": ["3C", "4C"]}), seat=0
    )
    assert [e["type"] for e in events] == ["play", "capture", "scopa"]
    assert table.describe(events) == ["Anna takes Batons · 3 + Batons · 4 with Coins · 7 — scopa!"]
    laid = get_game("scopa").action_from_data({"play": "QD", "capture": []})
    _, events = state.apply(laid, seat=1)
    assert table.describe(events) == ["Bruno lays Coins · Knight on the table"]


def test_the_scopa_board_shows_the_table_the_deck_and_the_other_hand() -> None:
    state = scopa(("7D 3S KC", "QD JD KS"), "3C 4C 2S 5H AS 6H")
    text = plain(table_for("scopa", context("napoletane", "it")).board(state.view(0)))
    assert "Anna (tu)" in text
    assert "Bruno" in text
    assert "3 carte" in text  # the other seat's count; its cards are not in the view
    assert "Spade · Fante" not in text
    for name in ("Bastoni · 3", "Bastoni · 4", "Spade · 2", "Coppe · 5", "Spade · Asso", "Coppe · 6"):
        assert name in text
    assert "24 carte" in text
    assert "mazziere Bruno" in text


def test_the_scopa_deal_summary_names_every_point() -> None:
    table = table_for("scopa", context("napoletane"))
    event = {
        "type": "deal_end",
        "points": [3, 1],
        "detail": {
            "cards": [22, 18],
            "coins": [5, 5],
            "primiera": [78, 70],
            "scopas": [1, 0],
            "awards": {"cards": 0, "coins": None, "settebello": 1, "primiera": 0},
        },
        "totals": [5, 2],
    }
    summary = table.deal_summary(event, 2, {"target": 11})
    assert summary.title == "Deal 2 scored"
    assert summary.row("cards") == ["22 +1", "18"]
    assert summary.row("coins") == ["5", "5"]
    assert summary.row("settebello") == ["—", "+1"]
    assert summary.row("primiera") == ["78 +1", "70"]
    assert summary.row("scopas") == ["+1", "0"]
    assert summary.row("points this deal") == ["+3", "+1"]
    assert summary.row("match totals") == ["5", "2"]
    assert summary.notes == ["most coins: tied, no point"]


def test_schnapsen_says_why_a_deal_was_worth_its_game_points() -> None:
    table = table_for("schnapsen", context("schnapsen"))
    reached = schnapsen_won_at_66()  # the score's detail, then the match's totals and counts
    summary = table.deal_summary(reached, 1, {"target": 7})
    assert summary.row("game points") == ["+2", "0"]
    assert summary.row("match") == ["2 of 7", "0 of 7"]
    assert summary.row("marriages") == ["20", "0"]
    assert summary.row("total") == ["86", "25"]  # the deal's card points, not the match's
    assert summary.notes == ["Why: Anna reached 66; 2 game points (the loser had fewer than 33)"]
    failed = reached | {
        "points": [0, 3],
        "detail": reached["detail"]
        | {
            "winner": 1,
            "reason": "closer_failed",
            "game_points": 3,
            "closed_by": 0,
            "closed_opponent_points": 0,
            "closed_opponent_trick": False,
        },
    }
    notes = table.deal_summary(failed, 1, {"target": 7}).notes
    assert (
        notes[0] == "Why: Anna closed the stock but did not reach 66; "
        "3 game points (as things stood when the stock was closed)"
    )
    assert notes[1] == "When the stock was closed, the opponent had 0 points and no trick"
    assert table.describe([failed])[0].startswith("Deal over: Anna closed the stock but did not reach 66")


def test_the_schnapsen_board_shows_trumps_the_turned_card_and_the_trick() -> None:
    state = schnapsen(("KH QH JD AC TS", "AS QS KS AH KC"), "D", "AD", turn=1)
    state, events = state.apply(get_game("schnapsen").action_from_data({"play": "AS"}), seat=1)
    table = table_for("schnapsen", context("schnapsen"))
    text = plain(table.board(state.view(0)))
    assert "Diamonds" in text
    assert "trump card:  Diamonds · Ace" in text
    assert "Bruno:  Spades · Ace" in text
    assert table.describe(events) == ["Bruno plays Spades · Ace"]


def test_briscola_shows_the_trump_card_and_who_won_the_trick() -> None:
    state = get_game("briscola").new({}, "x1")
    table = table_for("briscola", context("piacentine"))
    mover = state.to_move
    assert mover is not None
    text = plain(table.board(state.view(0)))
    assert f"trumps: {CardNames('piacentine').suit(state.view(0)['trump'][1])}" in text
    assert "34 cards (the trump card last)" in text
    lines: list[str] = []
    for _ in range(2):
        seat = state.to_move
        assert seat is not None
        state, events = state.apply(state.legal_actions(seat)[0], seat=seat)
        lines += table.describe(events)
    assert lines[0].startswith(f"{['Anna', 'Bruno'][mover]} plays ")
    assert "wins the trick (" in lines[-1]


def test_dou_dizhu_shows_the_auction_then_the_combination_to_beat() -> None:
    state = get_game("doudizhu").new({}, "x1")
    table = table_for("doudizhu", context("french54", players=3))
    lines: list[str] = []
    seat = state.to_move
    assert seat is not None
    state, events = state.apply(get_game("doudizhu").action_from_data({"bid": 3}), seat=seat)
    lines += table.describe(events)
    assert lines[0] == f"{['Anna', 'Bruno', 'Carla'][seat]}: bid 3"
    assert lines[1].startswith(
        f"{['Anna', 'Bruno', 'Carla'][seat]} becomes the landlord with a bid of 3 and takes the kitty: "
    )
    state, events = state.apply(state.legal_actions(seat)[0], seat=seat)
    played = table.describe(events)[0]
    assert played.startswith(f"{['Anna', 'Bruno', 'Carla'][seat]} plays ")
    assert played.endswith(" (single)")
    text = plain(table.board(state.view(0)))
    assert "landlord" in text
    assert "peasant" in text
    assert "to beat" in text
    assert "bid 3 × 1" in text  # noqa: RUF001 (the sign the table shows)


def test_the_dou_dizhu_deal_summary_shows_roles_stakes_and_why() -> None:
    table = table_for("doudizhu", context("french54", players=3))
    event = {
        "type": "deal_end",
        "deal": 1,
        "out": 2,
        "winner": "peasants",
        "points": [4, -8, 4],
        "detail": {
            "landlord": 1,
            "bid": 2,
            "bombs": 1,
            "rockets": 0,
            "spring": False,
            "reverse_spring": False,
            "multiplier": 2,
        },
        "totals": [4, -8, 4],
    }
    summary = table.deal_summary(event, 1, {})
    assert summary.title == "Deal 1: the peasants win"
    assert summary.row("role") == ["peasant", "landlord", "peasant"]
    assert summary.row("points this deal") == ["+4", "-8", "+4"]
    assert summary.notes[0] == "Bid 2 × multiplier 2 (1 bomb)"  # noqa: RUF001 (the sign it shows)


def test_the_match_summary_says_who_won_and_why() -> None:
    table = table_for("scopa", context("napoletane"))
    result = {"scores": [11, 7], "winner": 0, "reason": "target", "record": "rec-1"}
    summary = table.match_summary(result, {"target": 11})
    assert summary.title == "You win!"
    assert summary.row("total points") == ["11", "7"]
    assert summary.notes == ["Why: Anna reached the target of 11", "Record: rec-1"]
    shared = table_for("doudizhu", context("french54", players=3)).match_summary(
        {"scores": [3, -6, 3], "winner": None, "reason": "shared"}, {}
    )
    assert shared.title == "A tie"
    assert shared.notes == ["Why: the top score is shared"]
