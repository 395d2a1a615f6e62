"""Scopa's table: the cards on the table, the piles, the deck, and the deal's scoring."""

from __future__ import annotations

from rich.console import RenderableType

from cardavia.clients.cli.tui.tables.base import Breakdown, Event, GameTable, View, signed

AWARDS = (("cards", "summary.scopa.award.cards"), ("coins", "summary.scopa.award.coins"),
          ("settebello", "summary.scopa.award.settebello"),
          ("primiera", "summary.scopa.award.primiera"))  # fmt: skip
"""The deal's four points by the score's ``awards`` names, with the message key of each."""


class ScopaTable(GameTable):
    game = "scopa"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        captured = view.get("captured") or []
        scopas = view.get("scopas") or []
        if seat < len(captured):
            facts.append(self.count("table.count.taken", len(captured[seat])))
        if seat < len(scopas) and scopas[seat]:
            facts.append(self.count("table.count.scopas", scopas[seat]))
        return facts

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        lines: list[tuple[str, RenderableType]] = [
            (self.texts("table.scopa.table"), self.card_row(view.get("table"))),
            (self.texts("table.scopa.deck"), self.count("table.count.cards", view.get("stock", 0))),
        ]
        if view.get("last_capture") is not None:
            lines.append((self.texts("table.scopa.last_capture"), self.ctx.who(view["last_capture"])))
        deal = self.texts(
            "table.scopa.deal_value",
            number=int(view.get("deal", 0)) + 1,
            dealer=self.ctx.who(view.get("dealer")),
        )
        lines.append((self.texts("table.deal"), deal))
        return lines

    def scores(self, view: View) -> str:
        target = view.get("target", 11)
        return self.texts(
            "table.scopa.scores",
            scores=super().scores(view),
            target=target if isinstance(target, int) else 11,
        )

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
            lines.append(self.texts("log.scopa.lay", who=who, card=self.ctx.card(event["card"])))
        elif kind == "capture":
            taken = self.ctx.cards(event.get("cards"), " + ")
            lines.append(
                self.texts("log.scopa.capture", who=who, cards=taken, card=self.ctx.card(event["card"]))
            )
        elif kind == "scopa":
            if lines:
                lines[-1] = self.texts("log.scopa.scopa_after", line=lines[-1])
            else:
                lines.append(self.texts("log.scopa.scopa", who=who))
        elif kind == "deal_round":
            lines.append(self.texts("log.scopa.deal_round", count=int(event.get("stock") or 0)))
        elif kind == "leftover":
            cards = self.ctx.cards(event.get("cards"))
            if event.get("seat") is None:
                lines.append(self.texts("log.scopa.leftover_out", cards=cards))
            else:
                lines.append(self.texts("log.scopa.leftover", who=who, cards=cards))
        elif kind == "deal_end":
            points = self.ctx.per_seat([signed(p) for p in event.get("points") or []])
            totals = self.ctx.per_seat(event.get("totals") or [])
            lines.append(self.texts("log.scopa.deal_end", points=points, totals=totals))
        elif kind == "deal":
            number, dealer = int(event.get("deal", 0)) + 1, self.ctx.who(event.get("dealer"))
            cards = self.ctx.cards(event.get("table"))
            redeals = int(event.get("redeals") or 0)
            if redeals:
                lines.append(
                    self.texts(
                        "log.scopa.deal_again", number=number, dealer=dealer, cards=cards, count=redeals
                    )
                )
            else:
                lines.append(self.texts("log.scopa.deal", number=number, dealer=dealer, cards=cards))
        else:
            super().describe_event(event, following, lines)

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Cards, coins, settebello, primiera and scopas, each with who scored it."""
        detail = event.get("detail") or {}
        awards = detail.get("awards") or {}
        players = list(self.ctx.players)
        out = Breakdown(self.texts("summary.deal_scored", number=number), players)

        def won(item: str) -> list[str]:
            return ["+1" if awards.get(item) == seat else "" for seat in range(len(players))]

        def marked(values: list[object], item: str) -> list[str]:
            return [f"{v} {w}".strip() for v, w in zip(values, won(item), strict=False)]

        if "cards" in detail:
            out.add(self.texts, "summary.row.cards", marked(list(detail["cards"]), "cards"))
        if "coins" in detail:
            out.add(self.texts, "summary.row.coins", marked(list(detail["coins"]), "coins"))
        if "awards" in detail:
            out.add(self.texts, "summary.row.settebello", [w or "—" for w in won("settebello")])
        if "primiera" in detail:
            out.add(self.texts, "summary.row.primiera", marked(list(detail["primiera"]), "primiera"))
        if "scopas" in detail:
            out.add(self.texts, "summary.row.scopas", [signed(s) if s else "0" for s in detail["scopas"]])
        out.add(self.texts, "summary.row.points_this_deal", [signed(p) for p in event.get("points") or []])
        if isinstance(event.get("totals"), list):
            out.add(self.texts, "summary.row.match_totals", [str(t) for t in event["totals"]])
        for item, label in AWARDS:
            if item in awards and awards[item] is None:
                out.notes.append(self.texts("summary.scopa.tie", item=self.texts(label)))
        return out

    score_label = "summary.row.match_points"
