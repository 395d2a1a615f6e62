"""Schnapsen's table: trump, the turned card and the talon, closing, marriages, and game points."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.tables.base import Breakdown, Event, View, signed
from cardavia.clients.cli.tui.tables.briscola import TrickTable

WHY = {
    "66": "summary.schnapsen.why.reached",
    "last_trick": "summary.schnapsen.why.last_trick",
    "closer_66": "summary.schnapsen.why.closer_reached",
    "opponent_66": "summary.schnapsen.why.opponent_reached",
    "closer_failed": "summary.schnapsen.why.closer_failed",
}
"""Why a deal ended as it did, by the score's ``reason``."""
WORTH = {
    3: "summary.schnapsen.worth.no_trick",
    2: "summary.schnapsen.worth.under_33",
    1: "summary.schnapsen.worth.over_33",
}
"""What a deal won by reaching 66 was worth, by its game points."""


class SchnapsenTable(TrickTable):
    game = "schnapsen"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        shown = view.get("shown") or []
        if seat != self.ctx.seat and seat < len(shown) and shown[seat]:
            facts.append(self.texts("table.schnapsen.holds", cards=self.ctx.cards(shown[seat])))
        return facts

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        trump = str(view.get("trump") or "")
        indicator = view.get("indicator")
        talon = Text(self.count("table.count.cards", view.get("talon", 0)))
        if indicator and not view.get("closed"):
            talon.append(", " + self.texts("table.schnapsen.turned_up") + " ")
            talon.append_text(self.chip(indicator))
        lines: list[tuple[str, RenderableType]] = [
            (self.texts("table.schnapsen.trumps"), self.ctx.names.suit(trump) if trump else "—"),
            (self.texts("table.schnapsen.talon"), talon),
        ]
        if view.get("closed"):
            lines.append((self.texts("table.schnapsen.closed_by"), self.ctx.who(view.get("closed_by"))))
        elif view.get("strict"):
            lines.append((self.texts("table.schnapsen.talon_gone"), self.texts("table.schnapsen.strict")))
        marriages = view.get("marriages") or []
        if marriages:
            said = ", ".join(
                f"{self.ctx.who(m.get('seat'))} {self.ctx.names.suit(str(m.get('suit')))} ({m.get('points')})"
                for m in marriages
            )
            lines.append((self.texts("table.schnapsen.marriages"), said))
        lines.append((self.texts("table.trick"), self.trick(view)))
        return lines

    def scores(self, view: View) -> str:
        target = int(view.get("target") or 7)
        counts = view.get("counts") or []
        won = [target - int(c) for c in counts]
        return self.texts("table.schnapsen.scores", scores=self.ctx.per_seat(won), target=target)

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "marriage":
            suit = self.ctx.names.suit_word(str(event.get("suit")))
            points = int(event.get("points") or 0)
            lines.append(self.texts("log.schnapsen.marriage", who=who, suit=suit, points=points))
        elif kind == "exchange":
            jack, turned = self.ctx.card(event.get("card")), self.ctx.card(event.get("indicator"))
            lines.append(self.texts("log.schnapsen.exchange", who=who, jack=jack, card=turned))
        elif kind == "close":
            lines.append(self.texts("log.schnapsen.close", who=who))
        elif kind == "deal_end":
            lines.append(self.texts("log.schnapsen.deal_end", why=self.why(event), worth=self.worth(event)))
        elif kind == "deal":
            lines.append(
                self.texts(
                    "log.schnapsen.deal",
                    number=int(event.get("deal", 0)) + 1,
                    dealer=self.ctx.who(event.get("dealer")),
                    card=self.ctx.card(event.get("indicator")),
                )
            )
        else:
            super().describe_event(event, following, lines)

    def why(self, event: Event) -> str:
        event = scored(event)
        key = WHY.get(str(event.get("reason")), "summary.schnapsen.why.won")
        return self.texts(
            key, winner=self.ctx.who(event.get("winner")), closer=self.ctx.who(event.get("closed_by"))
        )

    def worth(self, event: Event) -> str:
        event = scored(event)
        points = int(event.get("game_points") or 0)
        if event.get("reason") in ("66", "closer_66"):
            return self.texts(WORTH.get(points, "summary.schnapsen.worth.points"), count=points)
        if event.get("reason") == "last_trick":
            return self.texts("summary.schnapsen.worth.points", count=1)
        # counted as things stood at the close only when the stock was closed; a reason this
        # client does not know says the points alone
        if event.get("reason") in ("opponent_66", "closer_failed"):
            return self.texts("summary.schnapsen.worth.at_close", count=points)
        return self.texts("summary.schnapsen.worth.points", count=points)

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Card and marriage points, tricks, and the game points with why."""
        event = scored(event)
        out = Breakdown(self.texts("summary.deal_scored", number=number), list(self.ctx.players))
        for key, label in (("card_points", "summary.row.card_points"),
                           ("marriage_points", "summary.row.marriages"),
                           ("totals", "summary.row.total"), ("tricks", "summary.row.tricks")):  # fmt: skip
            if isinstance(event.get(key), list):
                out.add(self.texts, label, [str(v) for v in event[key]])
        out.add(self.texts, "summary.row.game_points", [signed(p) for p in event.get("points") or []])
        if isinstance(event.get("counts"), list):
            target = int(view.get("target") or 7)
            out.add(
                self.texts,
                "summary.row.match",
                [
                    self.texts("summary.of_target", points=target - int(c), target=target)
                    for c in event["counts"]
                ],
            )
        if event.get("reason"):
            out.notes.append(
                self.texts("summary.schnapsen.why_note", why=self.why(event), worth=self.worth(event))
            )
        if event.get("closed_by") is not None:
            out.notes.append(
                self.texts(
                    "summary.schnapsen.at_close",
                    points=int(event.get("closed_opponent_points") or 0),
                    trick="yes" if event.get("closed_opponent_trick") else "no",
                )
            )
        uncredited = event.get("uncredited") or []
        for seat, points in enumerate(uncredited):
            if points:
                out.notes.append(
                    self.texts("summary.schnapsen.uncredited", name=self.ctx.who(seat), points=int(points))
                )
        return out

    score_label = "summary.row.game_points"


def scored(event: Event) -> Event:
    """A ``deal_end`` event (or deal result) with its score ``detail`` read into it.

    In the detail ``totals`` are the deal's card points; the event's own ``totals``
    are the match's game points, which ``counts`` shows already.
    """
    detail = event.get("detail")
    return {**event, **detail} if isinstance(detail, dict) else event
