"""The engine contract shared by every game.

Theory of operation
-------------------
A game is a ``Game`` object (one per game, in ``registry.py``) that makes
``State`` objects. A state is an immutable position of a whole match: hands,
table, stock, scores, whose turn, and the log needed to write a record.

* ``Game.new(options, seed)`` starts a match; all randomness comes from a
  ``Chance`` built from the seed (``chance.py``).
* ``state.legal_actions(seat)`` lists the moves of ``seat``; it is empty exactly
  when it is not that seat's turn or the match is over.
* ``state.apply(action, seat=...)`` checks the action and returns
  ``(new_state, events)``; the old state is untouched, so a refused action can
  never leave a half-applied move. ``apply_unchecked`` skips the check for
  bots that search over actions they took from ``legal_actions``.
* ``state.view(seat)`` is plain data (str, int, bool, None, list, dict) with
  exactly what that seat may know; ``view(None)`` is the spectator's view.
* ``state.result`` is ``None`` until the match is over.

Legality has one source of truth: an action is legal iff it is in
``legal_actions``. Engines only add ``_why_illegal`` to explain a refusal with
a specific reason. Subclasses implement the ``_``-prefixed hooks and mutate
only the private copy that ``apply`` hands them.

Actions are small frozen values: ``str(action)`` is a text form that
``Game.parse_action`` reads back, and ``action.to_data()`` is the record/wire
form without the seat (``{"play": "7D", "capture": ["3S", "4C"]}``).

The compiled build (setup.py) compiles this module and the games with mypyc, so the
contract is made of plain base classes whose hooks raise ``NotImplementedError``: mypyc's
frozen dataclasses fail on import when they derive from an ``ABC``, and a class that mypyc
compiles cannot be derived from outside the compiled modules. The same source runs pure.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from cardavia.games.cards import Card, codes, parse_cards
from cardavia.games.chance import Chance, SeededChance
from cardavia.games.errors import ActionFormatError, IllegalAction, OptionsError, PositionError

JSON = Any
"""Plain data: what msgpack and JSON encode without hooks."""

Event = dict[str, JSON]
View = dict[str, JSON]


class Action:
    """A move. Subclasses are frozen dataclasses, hashable and comparable.

    Each writes out its ``__init__`` (with ``object.__setattr__``, as the frozen dataclass's
    own does), and ``__eq__`` and ``__hash__`` (``eq=False``): compiled (setup.py), the
    methods a dataclass generates stay pure Python, and these run for every legal action."""

    def to_data(self) -> dict[str, JSON]:
        """The record/wire form without the seat."""
        raise NotImplementedError(f"{type(self).__name__} has no record form")

    def __reduce__(self) -> tuple[type[Action], tuple[Any, ...]]:
        """Pickled as the call of its constructor (bots choose in worker processes): compiled,
        the frozen dataclass refuses the attribute-by-attribute restore that pickle does
        otherwise."""
        fields = dataclasses.fields(cast(Any, self))
        return type(self), tuple(getattr(self, f.name) for f in fields)


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="State[Any]")


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended; ``winner`` is None for a draw or a shared win."""

    scores: tuple[int, ...]
    winner: int | None
    reason: str

    def to_data(self) -> dict[str, JSON]:
        return {"scores": list(self.scores), "winner": self.winner, "reason": self.reason}


@dataclass(slots=True)
class DealLog:
    """What a record needs of one deal (see records.md)."""

    dealer: int
    order: tuple[Card, ...]
    redeals: tuple[tuple[Card, ...], ...] = ()
    actions: list[tuple[int, Action]] = field(default_factory=list)
    score: dict[str, JSON] | None = None
    entries: tuple[dict[str, JSON], ...] = field(default=(), compare=False, repr=False)
    """Record entries of the first actions, built once: views repeat the history for
    every seat after every action. A tuple, so forks share it safely."""

    def __init__(  # noqa: PLR0917 - the dataclass's fields, in order, as its own __init__ takes them
        self,
        dealer: int,
        order: tuple[Card, ...],
        redeals: tuple[tuple[Card, ...], ...] = (),
        actions: list[tuple[int, Action]] | None = None,
        score: dict[str, JSON] | None = None,
        entries: tuple[dict[str, JSON], ...] = (),
    ) -> None:
        """Written out: compiled (setup.py), a dataclass's own ``__init__`` stays pure Python,
        and every action forks the log. No ``actions``: a new empty list."""
        self.dealer = dealer
        self.order = order
        self.redeals = redeals
        self.actions = [] if actions is None else actions
        self.score = score
        self.entries = entries

    def history(self) -> list[dict[str, JSON]]:
        """The actions so far in record form, as a fresh list of shared entries."""
        cached, actions = self.entries, self.actions
        if len(cached) < len(actions):
            cached += tuple({"seat": seat, **action.to_data()} for seat, action in actions[len(cached) :])
            self.entries = cached
        return list(cached)

    def to_data(self) -> dict[str, JSON]:
        return {
            "dealer": self.dealer,
            "order": codes(self.order),
            "redeals": [codes(r) for r in self.redeals],
            # fresh dicts, not ``history()``'s shared ones: a record's owner may annotate them ("auto")
            "actions": [{"seat": seat, **action.to_data()} for seat, action in self.actions],
            "score": self.score,
        }


class State(Generic[A]):
    """A position of a match. Treat as immutable: ``apply`` returns a new one."""

    game: ClassVar[Game[Any, Any]]
    seats: int
    turn: int
    """The seat whose turn it is (meaningless once the match is over)."""
    _result: Result | None
    log: list[DealLog]
    """Deals so far, the current one last; shared structurally, copied on apply."""

    # ----------------------------------------------------------- the contract
    @property
    def to_move(self) -> int | None:
        """The seat that acts next, or None when the match is over."""
        return None if self._result else self.turn

    @property
    def result(self) -> Result | None:
        """How the match ended, or None while it goes on."""
        return self._result

    @property
    def options(self) -> Mapping[str, JSON]:
        """The match's table options, as ``Game.options`` validated them."""
        return {}

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self, seat: int) -> list[A]:
        """Every legal move of ``seat``, in a stable order; empty when it may not act."""
        if seat != self.to_move:
            return []
        return self._legal()

    def check(self, action: A, *, seat: int | None = None) -> None:
        """Raise ``IllegalAction`` with a specific reason unless ``action`` is legal."""
        mover = self.to_move
        if mover is None:
            raise IllegalAction("game_over", "the game is over")
        if seat is not None and seat != mover:
            raise IllegalAction("not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s")
        if not isinstance(action, Action):
            raise ActionFormatError(f"not an action: {action!r}")
        if action in self._legal():
            return
        raise self._why_illegal(action)

    def apply(self, action: A, *, seat: int | None = None) -> tuple[Self, list[Event]]:
        """Check ``action`` (for ``seat`` when given) and play it on a copy."""
        self.check(action, seat=seat)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: A) -> tuple[Self, list[Event]]:
        """Play an action known to be legal (from ``legal_actions``); no check."""
        new = self._copy()
        mover = self.to_move
        assert mover is not None
        new.log[-1].actions.append((mover, action))
        events = new._play(mover, action)
        return new, events

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know, as plain data; ``None`` for a spectator."""
        raise NotImplementedError(f"{type(self).__name__} lacks view")

    def view_update(self, seat: int | None, events: list[Event]) -> View | None:
        """The fields of ``view(seat)`` that the move which made this state may have changed.

        ``events`` are what that move's ``apply`` returned. The answer maps each such
        field to its value here, in the order ``view`` gives its fields, and leaves out
        every field the move cannot change; ``None`` means the game does not narrow these
        events, and the whole view is to be built. Why: a server sends every player a
        delta after every move, and building and diffing whole views was most of a
        move's cost there. The whole view stays the reference: the previous state's view
        with these fields set is this state's view (tests hold every game to it).
        """
        return None

    def secret_cards(self, seat: int | None) -> frozenset[Card]:
        """Cards whose identity or place ``seat`` may not know (hands, stock order)."""
        raise NotImplementedError(f"{type(self).__name__} lacks secret_cards")

    def places(self) -> dict[str, list[Card]]:
        """Where every card of the current deal lies, by place; each card once.

        For the conformance suite (cards are conserved) and for bots that
        reason about the unseen cards.
        """
        raise NotImplementedError(f"{type(self).__name__} does not list its card places")

    def to_text(self) -> str:
        """The position as text that ``Game.position`` reads back."""
        raise NotImplementedError(f"{type(self).__name__} lacks to_text")

    # ----------------------------------------------------------------- hooks
    def _legal(self) -> list[A]:
        """Legal moves of ``to_move``; called only while the match goes on."""
        raise NotImplementedError(f"{type(self).__name__} lacks _legal")

    def _why_illegal(self, action: Action) -> IllegalAction:
        """Why ``action`` (not among the legal moves) is refused."""
        raise NotImplementedError(f"{type(self).__name__} lacks _why_illegal")

    def _play(self, seat: int, action: A) -> list[Event]:
        """Play a legal action on this private copy; return the public events."""
        raise NotImplementedError(f"{type(self).__name__} lacks _play")

    def _copy(self) -> Self:
        """A copy that ``_play`` may mutate; override for speed, and for the compiled build
        (setup.py), whose ``copy.copy`` of a state calls its ``__init__`` with no fields."""
        new = copy.copy(self)
        new.log = fork_log(self.log)
        return new

    def history(self) -> list[dict[str, JSON]]:
        """The current deal's actions so far, in record form: public in every game here."""
        if not self.log:
            return []
        return self.log[-1].history()

    # --------------------------------------------------------------- records
    def deal_logs(self) -> list[dict[str, JSON]]:
        return [d.to_data() for d in self.log]


def fork_log(log: list[DealLog]) -> list[DealLog]:
    """A copy of a match log that a new state may append to.

    Finished deals are shared; only the current deal is copied, so a copy
    costs one deal's actions, not the whole match's.
    """
    if not log:
        return []
    last = log[-1]
    return [
        *log[:-1],
        DealLog(last.dealer, last.order, last.redeals, list(last.actions), last.score, last.entries),
    ]


class Game(Generic[S, A]):
    """A game: its identity, options, and the constructors of its states."""

    id: ClassVar[str]
    name: ClassVar[str]
    players: ClassVar[int]
    deck_size: ClassVar[int]
    default_options: ClassVar[Mapping[str, JSON]] = {}

    def options(self, raw: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """Validated options with defaults filled in; ``OptionsError`` says what is wrong."""
        given = dict(raw or {})
        unknown = sorted(set(given) - set(self.default_options))
        if unknown:
            allowed = ", ".join(sorted(self.default_options)) or "none"
            raise OptionsError(f"{self.id} has no option {unknown[0]!r} (options: {allowed})")
        merged = {**self.default_options, **given}
        self._check_options(merged)
        return merged

    def _check_options(self, options: dict[str, JSON]) -> None:
        """Raise ``OptionsError`` for a bad value; the default accepts all."""

    def new(self, options: Mapping[str, JSON] | None = None, seed: str | Chance = "") -> S:
        """A new match; ``seed`` is any string, or a ``Chance`` (records use one)."""
        chance = seed if isinstance(seed, Chance) else SeededChance(str(seed))
        return self._new(self.options(options), chance)

    def _new(self, options: dict[str, JSON], chance: Chance) -> S:
        """A new match with validated options."""
        raise NotImplementedError(f"{type(self).__name__} lacks _new")

    def action_from_data(self, data: Mapping[str, JSON]) -> A:
        """Read the record/wire form (a ``seat`` key, if present, is ignored)."""
        raise NotImplementedError(f"{type(self).__name__} lacks action_from_data")

    def parse_action(self, text: str) -> A:
        """Read the text form, as ``str(action)`` writes it."""
        raise NotImplementedError(f"{type(self).__name__} lacks parse_action")

    def position(self, text: str) -> S:
        """A position from text, for tests and analysis (see each game's to_text)."""
        raise NotImplementedError(f"{type(self).__name__} lacks position")


# ------------------------------------------------------------------ helpers
def int_option(options: Mapping[str, JSON], name: str, low: int, high: int) -> int:
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionsError(f"option {name!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def data_keys(data: Mapping[str, JSON], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    """Check an action's data form has exactly the keys it may have."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action is a map, not {type(data).__name__}")
    keys = set(data) - {"seat"}
    missing = [k for k in required if k not in keys]
    extra = sorted(keys - set(required) - set(optional))
    if missing:
        raise ActionFormatError(f"action {dict(data)!r} lacks {missing[0]!r}")
    if extra:
        raise ActionFormatError(f"action {dict(data)!r} has an unknown field {extra[0]!r}")


def card_field(data: Mapping[str, JSON], name: str) -> Card:
    value = data[name]
    if not isinstance(value, str):
        raise ActionFormatError(f"{name!r} must be a card code, not {value!r}")
    return Card.parse(value)


def cards_field(data: Mapping[str, JSON], name: str) -> tuple[Card, ...]:
    value = data[name]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ActionFormatError(f"{name!r} must be a list of card codes, not {value!r}")
    return tuple(Card.parse(v) for v in value)


def parse_fields(text: str) -> dict[str, str]:
    """Read a position text: one ``key: value`` per line; a line starting with ``#`` is a comment."""
    fields: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or not key:
            raise PositionError(f"line {number}: expected 'key: value', got {raw.strip()!r}")
        if key in fields:
            raise PositionError(f"line {number}: {key!r} given twice")
        fields[key] = value.strip()
    return fields


def text_field(value: str, what: str) -> str:
    """A free-text field, written as a JSON string so any text survives a round trip."""
    try:
        text = json.loads(value)
    except json.JSONDecodeError:
        text = None
    if not isinstance(text, str):
        raise PositionError(f"{what} must be a quoted string, not {value!r}")
    return text


def pair_field(text: str, what: str) -> tuple[list[Card], list[Card]]:
    """Two card lists written ``cards / cards`` (one per seat of a two-player game)."""
    parts = text.split("/")
    if len(parts) != 2:
        raise PositionError(f"{what} must be two card lists separated by '/', not {text!r}")
    return list(parse_cards(parts[0])), list(parse_cards(parts[1]))


def take_field(fields: dict[str, str], key: str, default: str | None = None) -> str:
    if key in fields:
        return fields.pop(key)
    if default is None:
        raise PositionError(f"the position lacks {key!r}")
    return default


def no_more_fields(fields: Mapping[str, str]) -> None:
    if fields:
        raise PositionError(f"unknown position field {sorted(fields)[0]!r}")


def seat_field(value: str, seats: int, what: str) -> int:
    try:
        seat = int(value)
    except ValueError:
        raise PositionError(f"{what} must be a seat number, not {value!r}") from None
    if not 0 <= seat < seats:
        raise PositionError(f"{what} must be a seat from 0 to {seats - 1}, not {seat}")
    return seat


def ints_field(value: str, count: int, what: str) -> tuple[int, ...]:
    try:
        numbers = tuple(int(v) for v in value.split())
    except ValueError:
        raise PositionError(f"{what} must be {count} whole numbers, not {value!r}") from None
    if len(numbers) != count:
        raise PositionError(f"{what} must be {count} whole numbers, not {value!r}")
    return numbers
