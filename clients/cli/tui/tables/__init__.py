"""How each game's table reads: the board, the running log, and the scoring breakdowns."""

from __future__ import annotations

from cardavia.clients.cli.tui.tables.base import Breakdown, GameTable, TableContext
from cardavia.clients.cli.tui.tables.briscola import BriscolaTable
from cardavia.clients.cli.tui.tables.doudizhu import DouDizhuTable
from cardavia.clients.cli.tui.tables.schnapsen import SchnapsenTable
from cardavia.clients.cli.tui.tables.scopa import ScopaTable

TABLES: dict[str, type[GameTable]] = {
    "scopa": ScopaTable,
    "briscola": BriscolaTable,
    "schnapsen": SchnapsenTable,
    "doudizhu": DouDizhuTable,
}


def table_for(game: str, ctx: TableContext) -> GameTable:
    """The renderer of a game; a game this client does not know gets the generic one."""
    return TABLES.get(game, GameTable)(ctx)


__all__ = ["Breakdown", "GameTable", "TableContext", "table_for"]
