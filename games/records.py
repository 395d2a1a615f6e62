"""Game records (records.md): one JSON object per finished match.

A record is written from a finished state's deal log, and replayed through the
engine from the shuffles it lists (``RecordedChance``), never from the seed, so
a record means the same thing to any tool that knows the rules. Replaying
rebuilds every deal and compares it field by field with what the record says.

``replay_states`` and ``replay_views`` walk the same replay and keep what it passes
through: every state, or every seat's view after every action (a replay viewer shows
all hands; the analysis asks a bot about each seat's choices). They accept only a
record that replays without a single problem, so what they show is what was played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cardavia.games.cards import Card
from cardavia.games.chance import RecordedChance
from cardavia.games.engine import JSON, State
from cardavia.games.errors import CardaviaError
from cardavia.games.registry import get_game
from cardavia.games.traditions import default_tradition

FORMAT: Final = "cardavia-record/1"
SEAT_KINDS: Final = ("human", "bot")
OPTIONAL_ACTION_FIELDS: Final = frozenset({"auto"})
"""Annotations an action may carry besides its move: ``auto`` marks a move a bot made for a player."""


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    kind: str = "bot"
    bot: str | None = None

    def to_data(self) -> dict[str, JSON]:
        return {"name": self.name, "kind": self.kind, "bot": self.bot}


def make_record(
    state: State[Any], *, seats: Sequence[Seat], seed: str, deck: str | None = None
) -> dict[str, JSON]:
    """The record of a finished match, as plain data ready for ``json.dumps``."""
    result = state.result
    if result is None:
        raise ValueError("only a finished game has a record")
    game = state.game
    if len(seats) != game.players:
        raise ValueError(f"{game.id} has {game.players} seats, not {len(seats)}")
    if any(not d.order for d in state.log):
        raise ValueError("a game started from a position has no shuffles to record")
    return {
        "format": FORMAT,
        "game": game.id,
        "deck": deck or default_tradition(game.id).id,
        "seats": [s.to_data() for s in seats],
        "seed": seed,
        "options": dict(state.options),
        "deals": state.deal_logs(),
        "result": result.to_data(),
    }


def dumps(record: Mapping[str, JSON]) -> str:
    """One record line (no trailing newline), UTF-8 safe, keys in a stable order."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


@dataclass(slots=True)
class Replay:
    """What replaying one record found; ``ok`` when nothing differs."""

    game: str | None = None
    result: dict[str, JSON] | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


Visit = Callable[[int, int, dict[str, JSON], State[Any], State[Any]], None]
"""(deal number from 1, seat, the action's data, state before, state after), per recorded action."""


def replay(record: Mapping[str, JSON]) -> Replay:
    """Replay ``record`` through the engine; every difference becomes a problem line."""
    return _run(record, None)


def _run(record: Mapping[str, JSON], visit: Visit | None) -> Replay:
    report = Replay()
    try:
        _replay(record, report, visit)
    except CardaviaError as exc:
        report.problems.append(f"{exc.code}: {exc.message}")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        report.problems.append(f"malformed record: {type(exc).__name__}: {exc}")
    return report


def _replay(record: Mapping[str, JSON], report: Replay, visit: Visit | None = None) -> None:
    if not isinstance(record, Mapping):
        raise TypeError("a record is a JSON object")
    if record.get("format") != FORMAT:
        report.problems.append(f"format is {record.get('format')!r}, expected {FORMAT!r}")
        return
    game = get_game(record["game"])
    report.game = game.id
    seats = record["seats"]
    if not isinstance(seats, list) or len(seats) != game.players:
        report.problems.append(f"{game.id} has {game.players} seats")
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        raise ValueError("a record has at least one deal")
    chance = RecordedChance(
        dealer=int(deals[0]["dealer"]),
        shuffles=tuple(tuple(_cards(s) for s in (*deal.get("redeals", []), deal["order"])) for deal in deals),
    )
    state: State[Any] = game.new(record.get("options") or {}, chance)
    for number, deal in enumerate(deals, 1):
        for step, data in enumerate(deal["actions"], 1):
            if state.is_over:
                report.problems.append(f"deal {number}, action {step}: the game was already over")
                return
            seat = data["seat"]
            action = game.action_from_data({k: v for k, v in data.items() if k not in OPTIONAL_ACTION_FIELDS})
            try:
                after, _ = state.apply(action, seat=seat)
            except CardaviaError as exc:
                report.problems.append(f"deal {number}, action {step} ({data}): {exc.message}")
                return
            if visit is not None:
                annotations = {k: v for k, v in data.items() if k in OPTIONAL_ACTION_FIELDS}
                visit(number, seat, {**action.to_data(), **annotations}, state, after)
            state = after
    logs = state.deal_logs()
    if len(logs) != len(deals):
        report.problems.append(f"the engine played {len(logs)} deals, the record has {len(deals)}")
    for number, (mine, theirs) in enumerate(zip(logs, deals, strict=False), 1):
        for key in ("dealer", "order", "redeals", "score"):
            if mine[key] != theirs.get(key):
                report.problems.append(
                    f"deal {number}: {key} is {theirs.get(key)!r} in the record, {mine[key]!r} on replay"
                )
    if state.result is None:
        report.problems.append("the actions end before the game does")
        return
    report.result = state.result.to_data()
    if report.result != record["result"]:
        report.problems.append(f"result is {record['result']!r} in the record, {report.result!r} on replay")


@dataclass(frozen=True, slots=True)
class ReplayedAction:
    """One recorded action as replayed: the states on either side of it."""

    deal: int
    """The deal's number, from 1 (as in the engine's ``deal_end`` events)."""
    seat: int
    action: dict[str, JSON]
    """The move's data form (``Action.to_data()``), with any annotation the record gave it (``auto``)."""
    before: State[Any]
    after: State[Any]


def replay_states(record: Mapping[str, JSON]) -> tuple[State[Any], list[ReplayedAction]]:
    """The match's first state and every recorded action with the states around it.

    Raises ValueError, naming the problems, on a record that does not replay exactly.
    """
    steps: list[ReplayedAction] = []
    first: list[State[Any]] = []

    def visit(deal: int, seat: int, action: dict[str, JSON], before: State[Any], after: State[Any]) -> None:
        if not first:
            first.append(before)
        steps.append(ReplayedAction(deal, seat, action, before, after))

    report = _run(record, visit)
    if not report.ok:
        raise ValueError(f"the record does not replay: {'; '.join(report.problems)}")
    if not first:
        raise ValueError("the record does not replay: it has no actions")
    return first[0], steps


@dataclass(frozen=True)
class ReplayStep:
    """One recorded action and every seat's view after it."""

    deal: int
    """The deal's number, from 1."""
    seat: int
    action: dict[str, JSON]
    views: list[JSON]
    """``state.view(seat)`` for every seat, in seat order, after the action."""


def replay_views(record: Mapping[str, JSON]) -> tuple[list[JSON], list[ReplayStep]]:
    """Every seat's view at the match's start, then one step per recorded action with every seat's
    view after it (``state.view(seat)``). Raises ValueError on a record that does not replay."""
    start, actions = replay_states(record)
    seats = range(start.seats)
    views: list[JSON] = [start.view(seat) for seat in seats]
    steps = [ReplayStep(a.deal, a.seat, a.action, [a.after.view(seat) for seat in seats]) for a in actions]
    return views, steps


def _cards(codes: Iterable[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def read_lines(lines: Iterable[str]) -> Iterable[tuple[int, dict[str, JSON] | str]]:
    """(line number, record) per non-empty line; a line that is not JSON gives its error text."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, f"not JSON: {exc}"
