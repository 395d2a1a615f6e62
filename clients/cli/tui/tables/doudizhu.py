"""Dou Dizhu's table: the auction, the landlord and kitty, the combination to beat, the stakes."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.text import Text

from cardavia.clients.cli.tui.names import combo_name
from cardavia.clients.cli.tui.tables.base import Breakdown, Event, GameTable, View, signed


class DouDizhuTable(GameTable):
    game = "doudizhu"

    def seat_facts(self, view: View, seat: int) -> list[str]:
        facts = super().seat_facts(view, seat)
        landlord = view.get("landlord")
        if landlord is not None:
            facts.insert(0, self.role(landlord == seat))
        return facts

    def role(self, landlord: bool) -> str:
        return self.texts("table.doudizhu.landlord" if landlord else "table.doudizhu.peasant")

    def combo(self, combo: object) -> str:
        return combo_name(str(combo), self.texts)

    def board_lines(self, view: View) -> list[tuple[str, RenderableType]]:
        deal = self.texts(
            "table.doudizhu.deal_value", number=int(view.get("deal") or 1), count=int(view.get("deals") or 1)
        )
        lines: list[tuple[str, RenderableType]] = [(self.texts("table.deal"), deal)]
        if view.get("phase") == "bidding":
            bids = view.get("bids") or []
            said = ", ".join(f"{self.ctx.who(b.get('seat'))} {self.bid_text(b.get('bid'))}" for b in bids)
            lines.append((self.texts("table.doudizhu.bids"), said or self.texts("table.doudizhu.no_bids")))
            return lines
        stakes = self.texts(
            "table.doudizhu.stakes",
            bid=int(view.get("bid") or 0),
            multiplier=int(view.get("multiplier") or 1),
        )
        extra = self.doubled(view)
        if extra:
            stakes = self.texts("table.doudizhu.stakes_why", stakes=stakes, why=", ".join(extra))
        lines.append((self.texts("table.doudizhu.stakes_label"), stakes))
        if view.get("kitty"):
            lines.append((self.texts("table.doudizhu.kitty"), self.card_row(view["kitty"])))
        table = view.get("table")
        beat_label = self.texts("table.doudizhu.to_beat")
        if isinstance(table, Mapping) and table.get("cards"):
            beat = self.texts(
                "table.doudizhu.combo_of",
                who=self.ctx.who(table.get("seat")),
                combo=self.combo(table.get("combo")),
            )
            lines.append((beat_label, Group(Text(beat), self.card_row(table["cards"]))))
        else:
            lines.append((beat_label, Text(self.texts("table.doudizhu.new_round"), style="dim")))
        return lines

    def doubled(self, scored: Mapping[str, object]) -> list[str]:
        """What doubled the stake: bombs and rockets played (and, in a deal's score, springs)."""
        why: list[str] = []
        if scored.get("bombs"):
            why.append(self.count("summary.doudizhu.bombs", scored["bombs"]))
        if scored.get("rockets"):
            why.append(self.count("summary.doudizhu.rockets", scored["rockets"]))
        if scored.get("spring"):
            why.append(self.texts("summary.doudizhu.spring"))
        if scored.get("reverse_spring"):
            why.append(self.texts("summary.doudizhu.reverse_spring"))
        return why

    def bid_text(self, bid: object) -> str:
        if not bid:
            return self.texts("table.doudizhu.no_bid")
        return self.texts("table.doudizhu.bid", bid=int(bid) if isinstance(bid, int) else str(bid))

    def describe_event(self, event: Event, following: Event | None, lines: list[str]) -> None:
        kind = event.get("type")
        who = self.ctx.who(event.get("seat"))
        if kind == "landlord":  # remembered for the match's last line, which has no view to read
            self._landlord = event.get("seat")
        elif kind == "deal" and isinstance(event.get("deal"), int) and event["deal"] > 1:
            self._deals = event["deal"]
        if kind == "bid":
            lines.append(self.texts("log.doudizhu.bid", who=who, bid=self.bid_text(event.get("bid"))))
        elif kind == "landlord":
            kitty = self.ctx.cards(event.get("kitty"))
            bid = event.get("bid")
            lines.append(
                self.texts(
                    "log.doudizhu.landlord",
                    who=who,
                    bid=bid if isinstance(bid, int) else str(bid),
                    cards=kitty,
                )
            )
        elif kind == "redeal":
            lines.append(
                self.texts(
                    "log.doudizhu.redeal",
                    number=int(event.get("deal") or 0),
                    dealer=self.ctx.who(event.get("dealer")),
                )
            )
        elif kind == "pass":
            lines.append(self.texts("log.doudizhu.pass", who=who))
        elif kind == "round_over":
            lines.append(self.texts("log.doudizhu.round_over", who=self.ctx.who(event.get("leader"))))
        elif kind == "play":
            combo = self.combo(event.get("combo"))
            lines.append(
                self.texts(
                    "log.doudizhu.play", who=who, combo=combo, cards=self.ctx.cards(event.get("cards"))
                )
            )
        elif kind == "deal_end":
            side = "landlord" if event.get("winner") == "landlord" else "peasants"
            points = self.ctx.per_seat([signed(p) for p in event.get("points") or []])
            lines.append(self.texts("log.doudizhu.deal_end", side=side, points=points))
        elif kind == "deal":
            lines.append(
                self.texts(
                    "log.doudizhu.deal",
                    number=int(event.get("deal") or 0),
                    dealer=self.ctx.who(event.get("dealer")),
                )
            )
        else:
            super().describe_event(event, following, lines)

    def deal_summary(self, event: Event, number: int, view: View) -> Breakdown:
        """Who was landlord, the stakes and why they were multiplied, and the points."""
        detail = event.get("detail") or {}
        landlord = detail.get("landlord", view.get("landlord"))
        winner = event.get("winner") or (
            "landlord" if (event.get("points") or [0])[landlord or 0] > 0 else "peasants"
        )
        side = "landlord" if winner == "landlord" else "peasants"
        out = Breakdown(
            self.texts("summary.doudizhu.title", number=number, side=side), list(self.ctx.players)
        )
        out.add(
            self.texts, "summary.row.role", [self.role(s == landlord) for s in range(len(self.ctx.players))]
        )
        out.add(self.texts, "summary.row.points_this_deal", [signed(p) for p in event.get("points") or []])
        if isinstance(event.get("totals"), list):
            out.add(self.texts, "summary.row.match_totals", [str(t) for t in event["totals"]])
        if detail:
            bid = detail.get("bid")
            stake = self.texts(
                "summary.doudizhu.stake",
                bid=bid if isinstance(bid, int) else str(bid),
                multiplier=int(detail.get("multiplier") or 1),
            )
            why = self.doubled(detail)
            if why:
                stake = self.texts("table.doudizhu.stakes_why", stakes=stake, why=", ".join(why))
            out.notes.append(stake)
            out.notes.append(self.texts("summary.doudizhu.rule"))
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

    def _partner(self, seats: list[int]) -> str | None:
        """The other peasant's name when this seat is one of the two; else None."""
        if self.ctx.seat not in seats:
            return None
        return next(self.ctx.who(s) for s in seats if s != self.ctx.seat)

    def _both(self, seats: list[int]) -> str:
        """The two peasants by name, when this seat is not one of them."""
        first, second = (self.ctx.who(s) for s in seats[:2])
        return self.ctx.both(first, second)

    def match_line(self, event: Event) -> str:
        scores = [int(s) for s in event.get("scores") or []]
        side = self._side(scores, self._landlord, self._deals) if event.get("winner") is None else None
        if side is None:
            return super().match_line(event)
        shown = ", ".join(str(s) for s in scores)
        partner = self._partner(side)
        if partner is not None:
            return self.texts("log.doudizhu.match_peasants_you", partner=partner, scores=shown)
        return self.texts("log.doudizhu.match_peasants", names=self._both(side), scores=shown)

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
            partner = self._partner(side)
            if partner is not None:
                out.title = self.texts("summary.doudizhu.peasants_you", partner=partner)
                out.notes[0] = self.texts("summary.doudizhu.why_peasants_you", partner=partner)
            else:
                both = self._both(side)
                out.title = self.texts("summary.doudizhu.peasants", names=both)
                out.notes[0] = self.texts("summary.doudizhu.why_peasants", names=both)
        return out
