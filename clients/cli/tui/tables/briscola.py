"""Briscola's table: the trump card under the stock, the trick in progress, points and tricks."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.tables.base import Event, GameTable, View


class TrickTable(GameTable):
    """What Briscola and Schnapsen share: a two-card trick led by ``leader``, tricks and points."""

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        tricks = view.get("tricks") or []
        if seat < len(tricks):
            facts.append(self.count("table.count.tricks", tricks[seat]))
        points = view.get("points") or []
        if seat < len(points):
            facts.append(self.count("table.count.points", points[seat]))
        return facts

    def trick(self, view: View) -> RenderableType:
        """The cards on the table, each with who played it."""
        cards = view.get("trick") or []
        leader = int(view.get("leader") or 0)
        return self.card_row(cards, [self.ctx.who((leader + i) % 2) for i in range(len(cards))])

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        if kind == "trick":
            lines.append(
                self.texts(
                    "log.trick",
                    winner=self.ctx.who(event.get("winner")),
                    cards=self.ctx.cards(event.get("cards"), " + "),
                    points=int(event.get("points") or 0),
                )
            )
        elif kind == "draw":
            if "card" in event:  # the face-up trump card: everyone sees who takes it
                lines.append(
                    self.texts(
                        "log.draw_trump",
                        who=self.ctx.who(event.get("seat")),
                        card=self.ctx.card(event["card"]),
                    )
                )
        else:
            super().describe_event(event, following, lines)


class BriscolaTable(TrickTable):
    game = "briscola"

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        trump = str(view.get("trump") or "")
        briscola = self.chip(trump) if trump else Text("—")
        if trump:
            briscola.append("  " + self.texts("table.briscola.trumps", suit=self.ctx.names.suit(trump[-1])))
        stock = self.count("table.count.cards", view.get("stock") or 0)
        if view.get("trump_in_stock"):
            stock = self.texts("table.briscola.stock_with_trump", cards=stock)
        return [
            (self.texts("table.briscola.trump_card"), briscola),
            (self.texts("table.briscola.stock"), stock),
            (self.texts("table.trick"), self.trick(view)),
        ]

    def scores(self, view: View) -> str:
        return self.texts("table.briscola.scores", scores=self.ctx.per_seat(view.get("points") or []))

    score_label = "summary.row.card_points"
