"""Schnapsen's match reads one way on the terminal client's table: the game points each seat
has won, counted up to the target (the engine's view counts down from it)."""

from __future__ import annotations

from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.tables import TableContext, table_for


def test_the_schnapsen_header_counts_game_points_up_to_the_target() -> None:
    table = table_for("schnapsen", TableContext(CardNames("schnapsen", "en"), 0, ["Anna", "Bruno"]))
    # the view's counts are what each seat still needs: 7 and 5 means Bruno has won 2
    assert table.scores({"target": 7, "counts": [7, 5]}) == "game points: Anna 0 · Bruno 2 (to 7)"
    assert table.scores({"target": 7, "counts": [4, 1]}) == "game points: Anna 3 · Bruno 6 (to 7)"
    summary = table.deal_summary(
        {
            "type": "deal_end",
            "points": [0, 2],
            "detail": {"winner": 1, "reason": "66", "game_points": 2},
            "totals": [3, 6],
            "counts": [4, 1],
        },
        3,
        {"target": 7},
    )
    assert summary.row("match") == ["3 of 7", "6 of 7"]
