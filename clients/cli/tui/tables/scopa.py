"""Scopa's table: the cards on the table, the piles, the deck, and the deal's scoring."""

from __future__ import annotations

from rich.console import RenderableType

from cardavia.clients.cli.tui.tables.base import Breakdown, Event, GameTable, View, plural, signed

AWARDS = (("cards", "most cards"), ("coins", "most coins"), ("settebello", "settebello"),
          ("primiera", "primiera"))  # fmt: skip


class ScopaTable(GameTable):
    game = "scopa"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        captured = view.get("captured") or []
        scopas = view.get("scopas") or []
        if seat < len(captured):
            facts.append(f"{len(captured[seat])} taken")
        if seat < len(scopas) and scopas[seat]:
            facts.append(plural(scopas[seat], "scopa"))
        return facts

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        lines: list[tuple[str, RenderableType]] = [
            ("table", self.card_row(view.get("table"))),
            ("deck", plural(view.get("stock", 0), "card")),
        ]
        if view.get("last_capture") is not None:
            lines.append(("last to take", self.ctx.who(view["last_capture"])))
        lines.append(("deal", f"{int(view.get('deal', 0)) + 1}, dealt by {self.ctx.who(view.get('dealer'))}"))
        return lines

    def scores(self, view: View) -> str:
        return f"{super().scores(view)} (to {view.get('target', 11)})"

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "play":
            if (
                following
                and following.get("type") == "capture"
                and following.get("seat") == event.get("seat")
            ):
                return  # the capture line says it all
            lines.append(f"{who} lays {self.ctx.card(event['card'])} on the table")
        elif kind == "capture":
            taken = self.ctx.cards(event.get("cards"), " + ")
            lines.append(f"{who} took {taken} with {self.ctx.card(event['card'])}")
        elif kind == "scopa":
            if lines:
                lines[-1] += " — scopa!"
            else:
                lines.append(f"{who}: scopa!")
        elif kind == "deal_round":
            lines.append(f"Three more cards each; {plural(event.get('stock', 0), 'card')} left in the deck")
        elif kind == "leftover":
            if event.get("seat") is None:
                lines.append(f"Nobody took anything: {self.ctx.cards(event.get('cards'))} stay out")
            else:
                lines.append(f"{who} takes the cards left on the table: {self.ctx.cards(event.get('cards'))}")
        elif kind == "deal_end":
            points = self.ctx.per_seat([signed(p) for p in event.get("points") or []])
            lines.append(f"Deal scored: {points} (totals {self.ctx.per_seat(event.get('totals') or [])})")
        elif kind == "deal":
            line = f"Deal {int(event.get('deal', 0)) + 1}, dealt by {self.ctx.who(event.get('dealer'))}"
            line += f"; on the table: {self.ctx.cards(event.get('table'))}"
            if event.get("redeals"):
                line += f" (shuffled again {plural(event['redeals'], 'time')}: three kings on the table)"
            lines.append(line)
        else:
            super().describe_event(event, following, lines)

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Cards, coins, settebello, primiera and scopas, each with who scored it."""
        detail = event.get("detail") or {}
        awards = detail.get("awards") or {}
        players = list(self.ctx.players)
        out = Breakdown(f"Deal {number} scored", players)

        def won(item: str) -> list[str]:
            return ["+1" if awards.get(item) == seat else "" for seat in range(len(players))]

        def marked(values: list[object], item: str) -> list[str]:
            return [f"{v} {w}".strip() for v, w in zip(values, won(item), strict=False)]

        if "cards" in detail:
            out.rows.append(("cards", marked(list(detail["cards"]), "cards")))
        if "coins" in detail:
            out.rows.append(("coins", marked(list(detail["coins"]), "coins")))
        if "awards" in detail:
            out.rows.append(("settebello", [w or "—" for w in won("settebello")]))
        if "primiera" in detail:
            out.rows.append(("primiera", marked(list(detail["primiera"]), "primiera")))
        if "scopas" in detail:
            out.rows.append(("scopas", [signed(s) if s else "0" for s in detail["scopas"]]))
        out.rows.append(("points this deal", [signed(p) for p in event.get("points") or []]))
        if isinstance(event.get("totals"), list):
            out.rows.append(("match totals", [str(t) for t in event["totals"]]))
        for item, label in AWARDS:
            if item in awards and awards[item] is None:
                out.notes.append(f"{label}: a tie, no point")
        return out

    score_label = "match points"
