"""Determinization: a full engine state consistent with what one seat has seen.

A bot gets a view, never the state. To search it samples a *determinization*:
the cards the seat has not seen are dealt at random to the places the view
says hold hidden cards (the opponent's hand, the stock), in the sizes the view
gives and within whatever the seat has inferred (a void suit, a card known to
be in a hand), and the result is written as position text and read back with
the game's public constructor ``GAME.position(text)``. The engine checks the
position, so an inconsistent determinization fails loudly instead of playing
a game that cannot happen.

Each game registers a ``Determinizer`` with two halves: ``hidden(view)`` says
which cards are unseen and where they may go (a ``HiddenPlaces``), and
``build(view, placed)`` writes the position. ``determinize(view, rng)`` glues
them. Later games add constraints in ``hidden`` only: Schnapsen puts the
suits a player showed void (strict play) in ``excluded`` and an announced
marriage partner in ``known``; Dou Dizhu has two hidden hands and a revealed
kitty in the landlord's ``known``.

A measurement of what the hidden cards are worth (``bench/hidden_cards.py``)
runs a decision inside ``told(places)``: every placement then puts the
cards of the named places where they truly are (an ordered place in its true
order) and samples only the rest, so the same search is given the truth
through its determinizations alone. Outside ``told`` nothing changes.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from cardavia.games import briscola, scopa
from cardavia.games.cards import DECK_40, Card, format_cards, parse_cards
from cardavia.games.engine import State, View


class DeterminizeError(ValueError):
    """The view leaves no way to place the unseen cards (a bug in a view or a constraint)."""


@dataclass(frozen=True, slots=True)
class HiddenPlaces:
    """Where the unseen cards may lie: one placement problem.

    ``sizes`` gives how many unseen cards each place holds (cards in ``known``
    included); ``ordered`` names places whose order matters (a stock); a card
    in ``excluded[place]`` may not lie there.
    """

    unseen: tuple[Card, ...]
    sizes: Mapping[str, int]
    ordered: frozenset[str] = frozenset()
    known: Mapping[str, frozenset[Card]] = field(default_factory=dict)
    excluded: Mapping[str, frozenset[Card]] = field(default_factory=dict)

    def check(self) -> None:
        if sum(self.sizes.values()) != len(self.unseen):
            raise DeterminizeError(f"{len(self.unseen)} unseen cards for places holding {dict(self.sizes)}")

    @property
    def fully_known(self) -> bool:
        """True when only one placement is possible: the seat knows the whole position."""
        free = len(self.unseen) - sum(len(k) for k in self.known.values())
        open_places = [p for p, n in self.sizes.items() if n - len(self.known.get(p, ())) > 0]
        if not open_places:
            return True
        if len(open_places) > 1:
            return False
        return open_places[0] not in self.ordered or free <= 1


_TOLD: ContextVar[Mapping[str, Sequence[Card]] | None] = ContextVar("told", default=None)
"""The places whose true cards the determinizations of this decision are given (``told``)."""


@contextmanager
def told(places: Mapping[str, Sequence[Card]]) -> Iterator[None]:
    """Within the block, placements put each named place's true cards there (in their order)."""
    token = _TOLD.set(places)
    try:
        yield
    finally:
        _TOLD.reset(token)


def is_told() -> bool:
    """True inside ``told``: the placements are given, not inferred."""
    return _TOLD.get() is not None


def _split_told(
    hidden: HiddenPlaces, places: Mapping[str, Sequence[Card]]
) -> tuple[dict[str, list[Card]], HiddenPlaces]:
    """The told places' cards, and the placement problem of the places left."""
    fixed = {p: list(places[p]) for p in hidden.sizes if p in places}
    taken = {c for cards in fixed.values() for c in cards}
    if any(len(cards) != hidden.sizes[p] for p, cards in fixed.items()) or not taken <= set(hidden.unseen):
        raise DeterminizeError(f"told cards {dict(fixed)} do not fit the places {dict(hidden.sizes)}")
    rest = HiddenPlaces(
        tuple(c for c in hidden.unseen if c not in taken),
        {p: n for p, n in hidden.sizes.items() if p not in fixed},
        ordered=hidden.ordered - fixed.keys(),
        known={p: k for p, k in hidden.known.items() if p not in fixed},
        excluded={p: e for p, e in hidden.excluded.items() if p not in fixed},
    )
    return fixed, rest


def _merge(
    hidden: HiddenPlaces, fixed: Mapping[str, list[Card]], rest: Mapping[str, list[Card]]
) -> dict[str, list[Card]]:
    return {p: list(fixed[p]) if p in fixed else rest[p] for p in hidden.sizes}


def sample_places(hidden: HiddenPlaces, rng: random.Random) -> dict[str, list[Card]]:
    """Deal the unseen cards to their places at random, within the constraints.

    Without exclusions every placement is equally likely (shuffle and cut).
    With them, the most constrained cards go first, each to an allowed place
    chosen in proportion to the room left there; a dead end starts again.
    Inside ``told`` the told places hold their true cards and the rest is dealt so.
    """
    places = _TOLD.get()
    if places is not None:
        fixed, rest = _split_told(hidden, places)
        return _merge(hidden, fixed, _sample(rest, rng))
    return _sample(hidden, rng)


def _sample(hidden: HiddenPlaces, rng: random.Random) -> dict[str, list[Card]]:
    hidden.check()
    placed: dict[str, list[Card]] = {p: sorted(hidden.known.get(p, ())) for p in hidden.sizes}
    pinned = {c for cards in hidden.known.values() for c in cards}
    free = [c for c in hidden.unseen if c not in pinned]
    room = {p: n - len(placed[p]) for p, n in hidden.sizes.items()}
    if any(n < 0 for n in room.values()):
        raise DeterminizeError(f"more known cards than room in {dict(hidden.sizes)}")
    if not any(hidden.excluded.values()):
        rng.shuffle(free)
        start = 0
        for place, n in room.items():
            placed[place].extend(free[start : start + n])
            start += n
        return _shuffle_ordered(placed, hidden, rng)
    for _attempt in range(200):
        result = _constrained(free, room, hidden.excluded, rng)
        if result is not None:
            for place, cards in result.items():
                placed[place].extend(cards)
            return _shuffle_ordered(placed, hidden, rng)
    raise DeterminizeError("no placement of the unseen cards meets the constraints")


def placement_count(hidden: HiddenPlaces) -> int:
    """How many placements there are, ignoring exclusions (an upper bound with them)."""
    free = len(hidden.unseen) - sum(len(k) for k in hidden.known.values())
    count = math.factorial(free)
    for place, size in hidden.sizes.items():
        count //= math.factorial(size - len(hidden.known.get(place, ())))
        if place in hidden.ordered:
            count *= math.factorial(size)
    return count


def all_placements(hidden: HiddenPlaces) -> Iterator[dict[str, list[Card]]]:
    """Every placement that meets the constraints, each once (use when ``placement_count`` is small).

    Inside ``told``: every placement of the places not told, the told ones as they are.
    """
    places = _TOLD.get()
    if places is not None:
        fixed, rest = _split_told(hidden, places)
        for placed in _all_placements(rest):
            yield _merge(hidden, fixed, placed)
        return
    yield from _all_placements(hidden)


def _all_placements(hidden: HiddenPlaces) -> Iterator[dict[str, list[Card]]]:
    hidden.check()
    pinned = {c for cards in hidden.known.values() for c in cards}
    free = [c for c in hidden.unseen if c not in pinned]
    places = list(hidden.sizes)

    def fill(index: int, left: list[Card], placed: dict[str, list[Card]]) -> Iterator[dict[str, list[Card]]]:
        if index == len(places):
            yield {p: list(cards) for p, cards in placed.items()}
            return
        place = places[index]
        known = sorted(hidden.known.get(place, ()))
        room = hidden.sizes[place] - len(known)
        banned = hidden.excluded.get(place, frozenset())
        for chosen in itertools.combinations(left, room):
            if banned.intersection(chosen):
                continue
            rest = [c for c in left if c not in chosen]
            group = (*known, *chosen)
            for order in itertools.permutations(group) if place in hidden.ordered else [group]:
                yield from fill(index + 1, rest, {**placed, place: list(order)})

    yield from fill(0, free, {})


def _constrained(
    free: Sequence[Card],
    room: Mapping[str, int],
    excluded: Mapping[str, frozenset[Card]],
    rng: random.Random,
) -> dict[str, list[Card]] | None:
    left = dict(room)
    allowed = {c: [p for p in room if c not in excluded.get(p, frozenset())] for c in free}
    order = list(free)
    rng.shuffle(order)
    order.sort(key=lambda c: len(allowed[c]))
    out: dict[str, list[Card]] = {p: [] for p in room}
    for card in order:
        options = [p for p in allowed[card] if left[p] > 0]
        if not options:
            return None
        pick = rng.choices(options, weights=[left[p] for p in options])[0]
        out[pick].append(card)
        left[pick] -= 1
    return out


def _shuffle_ordered(
    placed: dict[str, list[Card]], hidden: HiddenPlaces, rng: random.Random
) -> dict[str, list[Card]]:
    for place in hidden.ordered:
        rng.shuffle(placed[place])
    return placed


def cards_of(codes: Sequence[str]) -> list[Card]:
    return list(parse_cards(codes))


@dataclass(frozen=True, slots=True)
class Determinizer:
    """A game's half of determinization: what is hidden, and how to write a position."""

    hidden: Callable[[View], HiddenPlaces]
    build: Callable[[View, Mapping[str, list[Card]]], State[Any]]

    def determinize(self, view: View, rng: random.Random) -> State[Any]:
        return self.build(view, sample_places(self.hidden(view), rng))

    def every_world(self, view: View) -> Iterator[State[Any]]:
        """Every state consistent with ``view``: only for views with few (``placement_count``)."""
        for placed in all_placements(self.hidden(view)):
            yield self.build(view, placed)

    def fully_known(self, view: View) -> bool:
        return self.hidden(view).fully_known


# ------------------------------------------------------------------ Scopa
def view_seat(view: View) -> int:
    """The seat whose view this is; a spectator's view has no hand to determinize from."""
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise DeterminizeError("a spectator's view cannot be determinized: it has no hand")
    return seat


def scopa_hidden(view: View) -> HiddenPlaces:
    """Unseen: the deck minus own hand, table and both piles; they fill the other hand and the stock."""
    seat = view_seat(view)
    seen = set(cards_of(view["hand"])) | set(cards_of(view["table"]))
    for pile in view["captured"]:
        seen.update(cards_of(pile))
    unseen = tuple(c for c in DECK_40 if c not in seen)
    sizes = {"hand": view["hand_counts"][1 - seat], "stock": view["stock"]}
    return HiddenPlaces(unseen, sizes, ordered=frozenset({"stock"}))


def scopa_build(view: View, placed: Mapping[str, list[Card]]) -> State[Any]:
    seat = view_seat(view)
    hands = ["", ""]
    hands[seat] = format_cards(cards_of(view["hand"]))
    hands[1 - seat] = format_cards(placed["hand"])
    piles = [format_cards(cards_of(p)) for p in view["captured"]]
    last = view["last_capture"]
    text = "\n".join(
        [
            "game: scopa",
            f"target: {view['target']}",
            f"totals: {view['totals'][0]} {view['totals'][1]}",
            f"deal: {view['deal']}",
            f"dealer: {view['dealer']}",
            f"turn: {view['to_move']}",
            f"hands: {hands[0]} / {hands[1]}",
            f"table: {format_cards(cards_of(view['table']))}",
            f"stock: {format_cards(placed['stock'])}",
            f"piles: {piles[0]} / {piles[1]}",
            f"scopas: {view['scopas'][0]} {view['scopas'][1]}",
            f"last_capture: {'-' if last is None else last}",
        ]
    )
    return scopa.GAME.position(text)


# --------------------------------------------------------------- Briscola
def briscola_hidden(view: View) -> HiddenPlaces:
    """Unseen: the deck minus own hand, trick, won piles and the face-up trump while it lies in the stock."""
    seat = view_seat(view)
    trump = Card.parse(view["trump"])
    seen = set(cards_of(view["hand"])) | set(cards_of(view["trick"]))
    for pile in view["won"]:
        seen.update(cards_of(pile))
    if view["trump_in_stock"]:
        seen.add(trump)
    unseen = tuple(c for c in DECK_40 if c not in seen)
    stock = view["stock"] - 1 if view["trump_in_stock"] else view["stock"]
    sizes = {"hand": view["hand_counts"][1 - seat], "stock": stock}
    return HiddenPlaces(unseen, sizes, ordered=frozenset({"stock"}))


def briscola_build(view: View, placed: Mapping[str, list[Card]]) -> State[Any]:
    seat = view_seat(view)
    trump = Card.parse(view["trump"])
    hands = ["", ""]
    hands[seat] = format_cards(cards_of(view["hand"]))
    hands[1 - seat] = format_cards(placed["hand"])
    stock = [*placed["stock"], trump] if view["trump_in_stock"] else list(placed["stock"])
    won = [format_cards(cards_of(w)) for w in view["won"]]
    text = "\n".join(
        [
            "game: briscola",
            f"dealer: {view['dealer']}",
            f"turn: {view['to_move']}",
            f"trump: {trump}",
            f"hands: {hands[0]} / {hands[1]}",
            f"stock: {format_cards(stock)}",
            f"trick: {format_cards(cards_of(view['trick']))}",
            f"won: {won[0]} / {won[1]}",
        ]
    )
    return briscola.GAME.position(text)


DETERMINIZERS: dict[str, Determinizer] = {
    "scopa": Determinizer(scopa_hidden, scopa_build),
    "briscola": Determinizer(briscola_hidden, briscola_build),
}
"""The determinizer of each game, by game id."""


def determinize(view: View, rng: random.Random) -> State[Any]:
    """A random full state consistent with ``view``, built through ``GAME.position``."""
    try:
        determinizer = DETERMINIZERS[view["game"]]
    except KeyError:
        raise DeterminizeError(f"no determinizer for game {view.get('game')!r}") from None
    return determinizer.determinize(view, rng)
