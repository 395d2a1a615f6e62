"""Briscola's table: the trump card under the stock, the trick in progress, points and tricks."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.tables.base import Event, GameTable, View, plural


class TrickTable(GameTable):
    """What Briscola and Schnapsen share: a two-card trick led by ``leader``, tricks and points."""

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        tricks = view.get("tricks") or []
        if seat < len(tricks):
            facts.append(plural(tricks[seat], "trick"))
        points = view.get("points") or []
        if seat < len(points):
            facts.append(f"{points[seat]} points")
        return facts

    def trick(self, view: View) -> RenderableType:
        """The cards on the table, each with who played it."""
        cards = view.get("trick") or []
        leader = int(view.get("leader") or 0)
        return self.card_row(cards, [self.ctx.who((leader + i) % 2) for i in range(len(cards))])

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        if kind == "trick":
            cards = self.ctx.cards(event.get("cards"), " + ")
            winner = self.ctx.who(event.get("winner"))
            lines.append(f"{winner} wins the trick ({cards}): {plural(event.get('points', 0), 'point')}")
        elif kind == "draw":
            if "card" in event:  # the face-up trump card: everyone sees who takes it
                lines.append(
                    f"{self.ctx.who(event.get('seat'))} draws the trump card {self.ctx.card(event['card'])}"
                )
        else:
            super().describe_event(event, following, lines)


class BriscolaTable(TrickTable):
    game = "briscola"

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        trump = str(view.get("trump") or "")
        briscola = self.chip(trump) if trump else Text("—")
        if trump:
            briscola.append(f"  trumps: {self.ctx.names.suit(trump[-1])}")
        stock = int(view.get("stock") or 0)
        under = " (the trump card last)" if view.get("trump_in_stock") else ""
        return [
            ("trump card", briscola),
            ("stock", plural(stock, "card") + under),
            ("trick", self.trick(view)),
        ]

    def scores(self, view: View) -> str:
        return f"card points: {self.ctx.per_seat(view.get('points') or [])} (61 wins)"

    score_label = "card points"
