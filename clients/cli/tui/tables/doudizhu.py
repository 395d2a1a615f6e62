"""Dou Dizhu's table: the auction, the landlord and kitty, the combination to beat, the stakes."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.names import combo_name
from cardavia.clients.cli.tui.tables.base import Breakdown, Event, GameTable, View, plural, signed


class DouDizhuTable(GameTable):
    game = "doudizhu"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        landlord = view.get("landlord")
        if landlord is not None:
            facts.insert(0, "landlord" if landlord == seat else "peasant")
        return facts

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        lines: list[tuple[str, RenderableType]] = [
            ("deal", f"{view.get('deal', 1)} of {view.get('deals', 1)}")
        ]
        if view.get("phase") == "bidding":
            bids = view.get("bids") or []
            said = ", ".join(f"{self.ctx.who(b.get('seat'))} {self.bid_text(b.get('bid'))}" for b in bids)
            lines.append(("bids", said or "nobody has bid yet"))
            return lines
        stakes = f"bid {view.get('bid', 0)} x {view.get('multiplier', 1)}"
        extra = [plural(view[k], k[:-1]) for k in ("bombs", "rockets") if view.get(k)]
        lines.append(("stakes", stakes + (f" ({', '.join(extra)})" if extra else "")))
        if view.get("kitty"):
            lines.append(("kitty", self.card_row(view["kitty"])))
        table = view.get("table")
        if isinstance(table, Mapping) and table.get("cards"):
            beat = f"{self.ctx.who(table.get('seat'))}'s {combo_name(str(table.get('combo')))}"
            lines.append(("to beat", Group(Text(beat), self.card_row(table["cards"]))))
        else:
            lines.append(("to beat", Text("nothing: a new round", style="dim")))
        return lines

    @staticmethod
    def bid_text(bid: object) -> str:
        return f"bid {bid}" if bid else "no bid"

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "landlord":  # remembered for the match's last line, which has no view to read
            self._landlord = event.get("seat")
        elif kind == "deal" and isinstance(event.get("deal"), int) and event["deal"] > 1:
            self._deals = event["deal"]
        if kind == "bid":
            lines.append(f"{who}: {self.bid_text(event.get('bid'))}")
        elif kind == "landlord":
            kitty = self.ctx.cards(event.get("kitty"))
            lines.append(f"{who} is the landlord at {event.get('bid')} and takes the kitty: {kitty}")
        elif kind == "redeal":
            lines.append(
                f"Nobody bid: deal {event.get('deal')} is dealt again by {self.ctx.who(event.get('dealer'))}"
            )
        elif kind == "pass":
            lines.append(f"{who} passes")
        elif kind == "round_over":
            lines.append(f"{self.ctx.who(event.get('leader'))} wins the round and leads")
        elif kind == "play":
            combo = combo_name(str(event.get("combo")))
            lines.append(f"{who} plays a {combo}: {self.ctx.cards(event.get('cards'))}")
        elif kind == "deal_end":
            side = "The landlord wins" if event.get("winner") == "landlord" else "The peasants win"
            points = self.ctx.per_seat([signed(p) for p in event.get("points") or []])
            lines.append(f"{side} the deal: {points}")
        elif kind == "deal":
            lines.append(f"Deal {event.get('deal')}, dealt by {self.ctx.who(event.get('dealer'))}")
        else:
            super().describe_event(event, following, lines)

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Who was landlord, the stakes and why they were multiplied, and the points."""
        detail = event.get("detail") or {}
        landlord = detail.get("landlord", view.get("landlord"))
        winner = event.get("winner") or (
            "landlord" if (event.get("points") or [0])[landlord or 0] > 0 else "peasants"
        )
        title = f"Deal {number}: the {'landlord wins' if winner == 'landlord' else 'peasants win'}"
        out = Breakdown(title, list(self.ctx.players))
        out.rows.append(
            ("role", ["landlord" if s == landlord else "peasant" for s in range(len(self.ctx.players))])
        )
        out.rows.append(("points this deal", [signed(p) for p in event.get("points") or []]))
        if isinstance(event.get("totals"), list):
            out.rows.append(("match totals", [str(t) for t in event["totals"]]))
        if detail:
            why = [plural(detail[k], k[:-1]) for k in ("bombs", "rockets") if detail.get(k)]
            why += [
                label
                for key, label in (("spring", "spring"), ("reverse_spring", "reverse spring"))
                if detail.get(key)
            ]
            stake = f"Bid {detail.get('bid')} x multiplier {detail.get('multiplier', 1)}"
            out.notes.append(stake + (f" ({', '.join(why)})" if why else ""))
            out.notes.append("The landlord wins or loses twice the stake; each peasant once")
        return out

    # ------------------------------------------------------------- the match
    def _side(self, scores: list[int], landlord: object, deals: object) -> list[int] | None:
        """The peasants' two seats when they share the top score of a one-deal match: their side
        won (the engine names no single winner then)."""
        if not scores or landlord is None or deals not in (None, 1):
            return None
        top = max(scores)
        leaders = [s for s, score in enumerate(scores) if score == top]
        return leaders if leaders == [s for s in range(len(scores)) if s != landlord] else None

    def _both(self, seats: list[int], *, start: bool = False) -> str:
        """The two seats by name, "you" first; ``start``: at the start of a sentence."""
        names = [self.ctx.who(s) for s in seats if s != self.ctx.seat]
        if self.ctx.seat in seats:
            names.insert(0, "You" if start else "you")
        return " and ".join(names)

    def match_line(self, event: Event) -> str:
        scores = [int(s) for s in event.get("scores") or []]
        side = self._side(scores, self._landlord, self._deals) if event.get("winner") is None else None
        if side is None:
            return super().match_line(event)
        shown = ", ".join(str(s) for s in scores)
        return f"Match over: the peasants win, {self._both(side)} (scores {shown})"

    _landlord: object = None
    """The last deal's landlord, from its ``landlord`` event (the log has no view)."""
    _deals: object = None
    """The highest deal number seen in a ``deal`` event (None: only the first deal)."""

    def match_summary(self, result: Event, view: View) -> Breakdown:
        out = super().match_summary(result, view)
        scores = [int(s) for s in result.get("scores") or []]
        detail = (view.get("last_deal") or {}).get("detail") or {}
        landlord = view.get("landlord", detail.get("landlord"))
        side = self._side(scores, landlord, view.get("deals", 1)) if result.get("winner") is None else None
        if side is not None:
            both = self._both(side)
            out.title = (
                f"{self._both(side, start=True)} win as the peasants!"
                if self.ctx.seat in side
                else f"The peasants win: {both}"
            )
            out.notes[0] = f"Why: the peasants, {both}, went out before the landlord and share the top score"
        return out
