"""Writes the log-sentence fixture: every kind of event of every game, as the terminal client words it.

The terminal client (``clients/cli/tui/tables/<game>.py``, ``describe_event``)
and the page (``clients/web/src/ui/tables/<game>.js``, ``describe``) each word
the game log. ``clients/web/test/fixtures/log_sentences.json`` holds them equal:
this script plays seeded matches of each game with the engines, choosing moves
with a seeded random generator, and keeps each delta's events whose kinds (and
the fields that choose a sentence: a seat or none, a redeal, a face-up card, a
winner or none) no kept delta has had yet. Each kept delta is written with the
Python lines in every language; ``clients/web/test/log_sentences.test.js`` words
the same events with the page's modules and compares.

A few sentences no seeded match reaches in a few hundred moves (a Scopa deal
dealt again, a leftover nobody takes, a scopa with no capture line before it)
come from events written here (``WRITTEN``), in the engines' form. After
changing a game's events or a log sentence, run::

    .venv/bin/python -m tests.web.make_log_fixture

``tests/web/test_log_fixture.py`` fails when the committed file is not what this writes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from cardavia.clients.cli.tui.names import CardNames
from cardavia.clients.cli.tui.tables import GameTable, TableContext, table_for
from cardavia.games.doudizhu_moves import COMBOS
from cardavia.games.engine import State
from cardavia.games.registry import GAMES
from cardavia.games.traditions import LANGUAGES, default_tradition
from cardavia.protocol.i18n import served_catalogue

FIXTURE: Final = (
    Path(__file__).resolve().parents[2] / "clients" / "web" / "test" / "fixtures" / "log_sentences.json"
)
PLAYERS: Final = ("Anna", "Bruno", "Chen")
SEEDS: Final = tuple(f"log-{n}" for n in range(12))
"""The matches played of each game: enough for every sentence a match reaches, few enough to stay fast."""
OPTIONS: Final[dict[str, list[dict[str, Any]]]] = {"doudizhu": [{}, {"deals": 3}]}
"""Each game's options the matches are played with (more than one deal has sentences of its own)."""

Event = Mapping[str, Any]

WRITTEN: Final[dict[str, list[list[dict[str, Any]]]]] = {
    "scopa": [
        [{"type": "deal", "deal": 3, "dealer": 1, "table": ["1D", "5C", "7S", "KB"], "redeals": 2}],
        [{"type": "leftover", "seat": None, "cards": ["3D", "4C"]}],
        [{"type": "scopa", "seat": 1}],
    ],
    "briscola": [[{"type": "draw", "seat": 0}]],
    "doudizhu": [
        [{"type": "play", "seat": 1, "combo": combo, "cards": ["3C"]} for combo in [*COMBOS, "newcombo"]],
        [{"type": "redeal", "deal": 2, "dealer": 0}],
    ],
    "schnapsen": [
        [{"type": "play", "seat": 5, "card": "AH"}],
        [
            {
                "type": "deal_end",
                "deal": 1,
                "points": [2, 0],
                "detail": {"winner": 0, "reason": "newreason", "game_points": 2, "closed_by": None},
                "totals": [2, 0],
                "counts": [5, 7],
            }
        ],
    ],
}
"""Events for sentences seeded matches do not reach (or only rarely), with the fields the engines give them;
every combination's name, and one the page does not know. Each is kept, whatever delta came before."""


def _signature(events: Sequence[Event]) -> tuple[tuple[Any, ...], ...]:
    """What chooses a delta's sentences: each event's kind and the fields its wording branches on."""
    return tuple(
        (
            e.get("type"),
            "seat" in e and e["seat"] is None,
            bool(e.get("redeals")),
            "card" in e,
            e.get("winner") is None,
            e.get("winner") == "landlord",
            bool(e.get("bid")),
            _detail(e).get("reason"),
            _detail(e).get("game_points"),
        )
        for e in events
    )


def _detail(event: Event) -> Mapping[str, Any]:
    """A deal's score, as its ``deal_end`` carries it (Schnapsen words why the deal ended and its worth)."""
    detail = event.get("detail")
    return detail if isinstance(detail, Mapping) else {}


def _deltas(game_id: str, seed: str, options: dict[str, Any]) -> Iterator[list[Event]]:
    """The events of each delta of one seeded match, in order."""
    game = GAMES[game_id]
    choices = random.Random(f"{game_id}/{seed}/{json.dumps(options, sort_keys=True)}")
    state: State[Any] = game.new(options, seed)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, events = state.apply(legal[choices.randrange(len(legal))], seat=seat)
        yield _plain(events)


def _plain(data: Any) -> Any:
    """``data`` as JSON gives it back (tuples become lists), so the file holds what a client decodes."""
    return json.loads(json.dumps(data))


def _tables(game_id: str, seat: int | None) -> dict[str, GameTable]:
    players = list(PLAYERS[: GAMES[game_id].players])
    return {
        lang: table_for(
            game_id, TableContext(names=CardNames(None, lang, game_id), seat=seat, players=players)
        )
        for lang in LANGUAGES
    }


def _memo(table: GameTable) -> dict[str, Any]:
    """What the table remembers between deltas (Dou Dizhu: landlord, deal count), as the page keeps it."""
    out: dict[str, Any] = {}
    for name in ("landlord", "deals"):
        value = getattr(table, f"_{name}", None)
        if value is not None:
            out[name] = value
    return out


def _viewpoints(game_id: str, events: Sequence[Event]) -> list[int | None]:
    """Who reads the lines: a match's last line may say "you", so every seat and a spectator read it."""
    if any(e.get("type") == "game_over" for e in events):
        return [*range(GAMES[game_id].players), None]
    return [0]


def cases(game_id: str) -> list[dict[str, Any]]:
    """One game's cases: each new kind of delta of the seeded matches, then the written events."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    played = [
        list(_deltas(game_id, seed, options)) for options in OPTIONS.get(game_id, [{}]) for seed in SEEDS
    ]
    written = WRITTEN.get(game_id, [])
    streams: list[Sequence[Sequence[Event]]] = [*played, written]
    for stream in streams:
        readers = {seat: _tables(game_id, seat) for seat in [*range(GAMES[game_id].players), None]}
        for events in stream:
            signature = _signature(events)
            memo = _memo(readers[0]["en"])
            lines = {
                seat: {lang: t.describe(events) for lang, t in tables.items()}
                for seat, tables in readers.items()
            }
            if not events or (signature in seen and stream is not written):
                continue
            seen.add(signature)
            for seat in _viewpoints(game_id, events):
                out.append(
                    {"game": game_id, "seat": seat, "memo": memo, "events": events, "lines": lines[seat]}
                )
    return out


def render() -> str:
    """The fixture's text: the card names the page is served, then one case per line."""
    decks = sorted({default_tradition(game_id).id for game_id in GAMES})
    cards = {
        lang: {deck: served_catalogue(lang)["decks"][deck]["cards"] for deck in decks} for lang in LANGUAGES
    }
    all_cases = [case for game_id in sorted(GAMES) for case in cases(game_id)]
    head = {
        "about": (
            "Generated by tests/web/make_log_fixture.py: game events with the terminal client's log lines "
            "in every language, for clients/web/test/log_sentences.test.js."
        ),
        "players": list(PLAYERS),
        "seats": {game_id: GAMES[game_id].players for game_id in sorted(GAMES)},
        "decks": {game_id: default_tradition(game_id).id for game_id in sorted(GAMES)},
        "cards": cards,
    }
    lines = [json.dumps(case, ensure_ascii=False, separators=(",", ":")) for case in all_cases]
    return (
        json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
        + ',\n"cases":[\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )


def main() -> None:
    FIXTURE.write_text(render(), encoding="utf-8")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
