"""Legal moves arranged the way a person picks them: a card, then one choice if needed.

The server's ``your_turn`` lists every legal action in data form and nothing
here invents one. Scopa, Briscola and Schnapsen group the actions by the card
they play (several captures, or a Schnapsen lead with or without its marriage,
become a choice); an action that plays no card (Schnapsen's exchange and
close, Dou Dizhu's bids and pass) gets a key of its own. A Dou Dizhu play is
picked by selecting cards: the selection's ranks are matched against every
legal combination (suits never matter there), and when they read as more than
one combination the player chooses the reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.clients.cli.tui.names import CardNames, combo_name
from cardavia.games import doudizhu_moves as dm
from cardavia.games.cards import Card
from cardavia.games.errors import CardaviaError

Action = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One complete legal action and how it reads."""

    label: str
    action: Action


@dataclass(frozen=True)
class Extra:
    """An action that plays no card of the hand, bound to a key."""

    key: str
    label: str
    action: Action


def _ranks(codes: Sequence[str]) -> Counter[str]:
    return Counter(code[0] for code in codes)


class MoveMenu:
    """What this seat may do now; empty when it is not its turn."""

    def __init__(
        self, game: str, legal: Sequence[Mapping[str, Any]], view: Mapping[str, Any], names: CardNames
    ) -> None:
        self.game = game
        self.legal: list[Action] = [dict(a) for a in legal]
        self.view = view
        self.names = names
        self.multi = game == "doudizhu" and any("combo" in a or "pass" in a for a in self.legal)
        """Dou Dizhu's play phase: several cards are selected, then played as one combination."""
        self.extras: list[Extra] = [e for a in self.legal if (e := self._extra(a)) is not None]
        self._by_card: dict[str, list[Option]] = {}
        for action in self.legal:
            card = action.get("play")
            if isinstance(card, str):
                self._by_card.setdefault(card, []).append(Option(self._label(action), action))
        self._combo_ranks = [(a, _ranks(a["cards"])) for a in self.legal if "combo" in a]
        self._playable_ranks = {r for _, ranks in self._combo_ranks for r in ranks}

    @property
    def active(self) -> bool:
        return bool(self.legal)

    def playable(self, code: str) -> bool:
        """Whether the card takes part in some legal move (for Dou Dizhu: its rank does)."""
        if self.multi:
            return code[0] in self._playable_ranks
        return code in self._by_card

    def options(self, code: str) -> list[Option]:
        """The legal actions that play this card (several: the player chooses)."""
        return list(self._by_card.get(code, []))

    def extra(self, key: str) -> Extra | None:
        return next((e for e in self.extras if e.key == key), None)

    # ------------------------------------------------------------ Dou Dizhu
    def readings(self, selected: Sequence[str]) -> list[Option]:
        """Every legal combination the selected cards form, played with exactly those cards."""
        want = _ranks(selected)
        cards = list(selected)
        return [
            Option(
                f"{combo_name(a['combo'])}: {self.names.cards(cards)}", {"combo": a["combo"], "cards": cards}
            )
            for a, ranks in self._combo_ranks
            if ranks == want
        ]

    def suggestions(self) -> list[list[str]]:
        """The cards of every legal combination, in the server's order."""
        return [list(a["cards"]) for a, _ in self._combo_ranks]

    def why_not(self, selected: Sequence[str]) -> str:
        """Why the selected cards are no legal play now, in the game's words."""
        if not selected:
            return "select cards with space (n suggests a play), then press enter"
        shown = self.names.cards(selected)
        try:
            readings = dm.classify(dm.card_counts([Card.parse(c) for c in selected]))
        except (CardaviaError, ValueError):
            return f"{shown} cannot be played"
        if not readings:
            return f"{shown} is not a Dou Dizhu combination"
        table = self.view.get("table")
        kinds = " or ".join(combo_name(m[0]) for m in readings)
        if isinstance(table, Mapping) and table.get("combo"):
            beaten = f"{combo_name(str(table['combo']))} ({self.names.cards(table.get('cards', []))})"
            return f"{shown} ({kinds}) does not beat the {beaten} on the table"
        return f"{shown} ({kinds}) cannot be played now"

    # ---------------------------------------------------------------- labels
    def _label(self, action: Mapping[str, Any]) -> str:
        card = self.names.card(str(action["play"]))
        if self.game == "scopa":
            taken = action.get("capture") or []
            if not taken:
                return f"lay {card} on the table"
            return f"take {self.names.cards(taken, ' + ')} with {card}"
        if action.get("marriage"):
            suit = str(action["play"])[1]
            points = 40 if suit == self.view.get("trump") else 20
            return f"lead {card} and announce the marriage in {self.names.suit(suit)} ({points})"
        return f"play {card}"

    def _extra(self, action: Mapping[str, Any]) -> Extra | None:
        if "exchange" in action:
            jack = self.names.card(str(action["exchange"]))
            indicator = self.view.get("indicator")
            turned = self.names.card(str(indicator)) if indicator else "the trump card"
            return Extra("x", f"exchange {jack} for {turned}", dict(action))
        if action.get("close"):
            return Extra("c", "close the talon", dict(action))
        if "bid" in action:
            bid = int(action["bid"])
            return Extra(str(bid), f"bid {bid}" if bid else "no bid", dict(action))
        if action.get("pass"):
            return Extra("p", "pass", dict(action))
        return None
