"""Schnapsen's table: trump, the turned card and the talon, closing, marriages, and game points."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.tables.base import Breakdown, Event, View, plural, signed
from cardavia.clients.cli.tui.tables.briscola import TrickTable

WHY = {
    "66": "{winner} reached 66",
    "last_trick": "nobody reached 66: {winner} took the last trick",
    "closer_66": "{winner} closed the talon and reached 66",
    "opponent_66": "{closer} closed the talon but {winner} reached 66",
    "closer_failed": "{closer} closed the talon and did not reach 66",
}
WORTH = {
    3: "3 game points: the loser took no trick",
    2: "2 game points: the loser had fewer than 33",
    1: "1 game point: the loser had 33 or more",
}


class SchnapsenTable(TrickTable):
    game = "schnapsen"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        shown = view.get("shown") or []
        if seat != self.ctx.seat and seat < len(shown) and shown[seat]:
            facts.append(f"holds {self.ctx.cards(shown[seat])}")
        return facts

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        trump = str(view.get("trump") or "")
        indicator = view.get("indicator")
        talon = Text(plural(view.get("talon", 0), "card"))
        if indicator and not view.get("closed"):
            talon.append(", turned up: ")
            talon.append_text(self.chip(indicator))
        lines: list[tuple[str, RenderableType]] = [
            ("trumps", self.ctx.names.suit(trump) if trump else "—"),
            ("talon", talon),
        ]
        if view.get("closed"):
            lines.append(("closed by", self.ctx.who(view.get("closed_by"))))
        elif view.get("strict"):
            lines.append(("talon gone", "follow suit and head the trick"))
        marriages = view.get("marriages") or []
        if marriages:
            said = ", ".join(
                f"{self.ctx.who(m.get('seat'))} {self.ctx.names.suit(str(m.get('suit')))} ({m.get('points')})"
                for m in marriages
            )
            lines.append(("marriages", said))
        lines.append(("trick", self.trick(view)))
        return lines

    def scores(self, view: View) -> str:
        target = int(view.get("target") or 7)
        counts = view.get("counts") or []
        won = [target - int(c) for c in counts]
        return f"game points: {self.ctx.per_seat(won)} (to {target})"

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "marriage":
            suit = self.ctx.names.suit(str(event.get("suit")))
            lines.append(f"{who} announces the marriage in {suit}: {event.get('points')} points")
        elif kind == "exchange":
            jack, turned = self.ctx.card(event.get("card")), self.ctx.card(event.get("indicator"))
            lines.append(f"{who} exchanges {jack} for {turned}")
        elif kind == "close":
            lines.append(f"{who} closes the talon")
        elif kind == "deal_end":
            lines.append(f"Deal over: {self.why(event)}; {self.worth(event)}")
        elif kind == "deal":
            dealer = self.ctx.who(event.get("dealer"))
            turned = self.ctx.card(event.get("indicator"))
            lines.append(f"Deal {int(event.get('deal', 0)) + 1}, dealt by {dealer}; turned up {turned}")
        else:
            super().describe_event(event, following, lines)

    def why(self, event: Event) -> str:
        event = scored(event)
        pattern = WHY.get(str(event.get("reason")), "{winner} won the deal")
        return pattern.format(
            winner=self.ctx.who(event.get("winner")), closer=self.ctx.who(event.get("closed_by"))
        )

    def worth(self, event: Event) -> str:
        event = scored(event)
        points = int(event.get("game_points") or 0)
        if event.get("reason") in ("66", "closer_66"):
            return WORTH.get(points, plural(points, "game point"))
        if event.get("reason") == "last_trick":
            return "1 game point"
        return f"{plural(points, 'game point')} (counted at the close)"

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Card and marriage points, tricks, and the game points with why."""
        event = scored(event)
        out = Breakdown(f"Deal {number} scored", list(self.ctx.players))
        for key, label in (("card_points", "card points"), ("marriage_points", "marriages"),
                           ("totals", "total"), ("tricks", "tricks")):  # fmt: skip
            if isinstance(event.get(key), list):
                out.rows.append((label, [str(v) for v in event[key]]))
        out.rows.append(("game points", [signed(p) for p in event.get("points") or []]))
        if isinstance(event.get("counts"), list):
            target = int(view.get("target") or 7)
            out.rows.append(("match", [f"{target - int(c)} of {target}" for c in event["counts"]]))
        if event.get("reason"):
            out.notes.append(f"Why: {self.why(event)}; {self.worth(event)}")
        if event.get("closed_by") is not None:
            trick = "had a trick" if event.get("closed_opponent_trick") else "had no trick"
            out.notes.append(
                f"At the close the opponent had {event.get('closed_opponent_points')} points and {trick}"
            )
        uncredited = event.get("uncredited") or []
        for seat, points in enumerate(uncredited):
            if points:
                out.notes.append(f"{self.ctx.who(seat)}'s marriage of {points} never counted (no trick won)")
        return out

    score_label = "game points"


def scored(event: Event) -> Event:
    """A ``deal_end`` event (or deal result) with its score ``detail`` read into it.

    In the detail ``totals`` are the deal's card points; the event's own ``totals``
    are the match's game points, which ``counts`` shows already.
    """
    detail = event.get("detail")
    return {**event, **detail} if isinstance(detail, dict) else event
