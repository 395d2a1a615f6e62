"""Game records (records.md): one JSON object per finished match.

A record is written from a finished state's deal log, and replayed through the
engine from the shuffles it lists (``RecordedChance``), never from the seed, so
a record means the same thing to any tool that knows the rules. Replaying
rebuilds every deal and compares it field by field with what the record says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
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


def replay(record: Mapping[str, JSON]) -> Replay:
    """Replay ``record`` through the engine; every difference becomes a problem line."""
    report = Replay()
    try:
        _replay(record, report)
    except CardaviaError as exc:
        report.problems.append(f"{exc.code}: {exc.message}")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        report.problems.append(f"malformed record: {type(exc).__name__}: {exc}")
    return report


def _replay(record: Mapping[str, JSON], report: Replay) -> None:
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
                state, _ = state.apply(action, seat=seat)
            except CardaviaError as exc:
                report.problems.append(f"deal {number}, action {step} ({data}): {exc.message}")
                return
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
