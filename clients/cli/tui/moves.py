"""Legal moves arranged the way a person picks them: a card, then one choice if needed.

The server's ``your_turn`` lists every legal action in data form and nothing
here invents one. Scopa, Briscola and Schnapsen group the actions by the card
they play (several captures, or a Schnapsen lead with or without its marriage,
become a choice); an action that plays no card (Schnapsen's exchange and
close, Dou Dizhu's bids and pass) gets a key of its own, and so does each
Schnapsen lead that announces a marriage (its card offers it too), so the
marriage is named in the prompt beside the cards. A Dou Dizhu play is
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
from cardavia.protocol.i18n import Texts

Action = dict[str, Any]

MARRIAGE_KEYS = ("m", "M", "b", "B")
"""The keys of Schnapsen's leads that announce a marriage, in the server's order (at most two
marriages of two cards each; the digits are the hand's cards)."""


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
        self.texts = names.texts
        self.multi = game == "doudizhu" and any("combo" in a or "pass" in a for a in self.legal)
        """Dou Dizhu's play phase: several cards are selected, then played as one combination."""
        self.extras: list[Extra] = [e for a in self.legal if (e := self._extra(a)) is not None]
        marriages = [a for a in self.legal if "play" in a and a.get("marriage")]
        self.extras += [
            Extra(key, self._label(a), a) for key, a in zip(MARRIAGE_KEYS, marriages, strict=False)
        ]
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
                self.texts("moves.reading", combo=self._combo(a["combo"]), cards=self.names.cards(cards)),
                {"combo": a["combo"], "cards": cards},
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
            return self.texts("moves.why_not.nothing_selected")
        shown = self.names.cards(selected)
        try:
            readings = dm.classify(dm.card_counts([Card.parse(c) for c in selected]))
        except (CardaviaError, ValueError):
            return self.texts("moves.why_not.cannot", cards=shown)
        if not readings:
            return self.texts("moves.why_not.no_combination", cards=shown)
        table = self.view.get("table")
        kinds = _either(self.texts, [self._combo(m[0]) for m in readings])
        if isinstance(table, Mapping) and table.get("combo"):
            return self.texts(
                "moves.why_not.does_not_beat",
                cards=shown,
                kinds=kinds,
                combo=self._combo(table["combo"]),
                table=self.names.cards(table.get("cards", [])),
            )
        return self.texts("moves.why_not.not_now", cards=shown, kinds=kinds)

    def _combo(self, combo: object) -> str:
        return combo_name(str(combo), self.texts)

    # ---------------------------------------------------------------- labels
    def label(self, action: Mapping[str, Any]) -> str:
        """Any action of this game in words, as the menu offers it (a replay's moves, a bot's choice);
        ``view`` is the mover's view before it."""
        if "play" in action:
            return self._label(action)
        if "combo" in action:
            cards = self.names.cards([str(c) for c in action.get("cards", [])])
            return self.texts("moves.reading", combo=self._combo(action["combo"]), cards=cards)
        extra = self._extra(action)
        return extra.label if extra is not None else ", ".join(f"{k} {v}" for k, v in action.items())

    def _label(self, action: Mapping[str, Any]) -> str:
        card = self.names.card(str(action["play"]))
        if self.game == "scopa":
            taken = action.get("capture") or []
            if not taken:
                return self.texts("moves.lay", card=card)
            return self.texts("moves.capture", cards=self.names.cards(taken, " + "), card=card)
        if action.get("marriage"):
            suit = str(action["play"])[1]
            points = 40 if suit == self.view.get("trump") else 20
            return self.texts("moves.marriage", card=card, suit=self.names.suit_word(suit), points=points)
        return self.texts("moves.play", card=card)

    def _extra(self, action: Mapping[str, Any]) -> Extra | None:
        if "exchange" in action:
            jack = self.names.card(str(action["exchange"]))
            indicator = self.view.get("indicator")
            turned = self.names.card(str(indicator)) if indicator else self.texts("moves.the_trump_card")
            return Extra("x", self.texts("moves.exchange", jack=jack, card=turned), dict(action))
        if action.get("close"):
            return Extra("c", self.texts("moves.close"), dict(action))
        if "bid" in action:
            bid = int(action["bid"])
            label = self.texts("moves.bid", bid=bid) if bid else self.texts("moves.no_bid")
            return Extra(str(bid), label, dict(action))
        if action.get("pass"):
            return Extra("p", self.texts("moves.pass"), dict(action))
        return None


def _either(texts: Texts, items: Sequence[str]) -> str:
    """ "a or b or c", in the player's language."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = texts("table.list.or", first=out, second=item)
    return out
