"""Writes the page's replay fixture: `replay` answers built from real records.

``clients/web/test/fixtures/replays.json`` holds, for a Briscola match (one
person against the basic bot) and a Scopa match, a ``replay`` message as the
protocol documents it (``protocol/README.md``, "replay"): the record, every
seat's view at the start, one step per recorded action with each seat's delta
ops from its previous view (``cardavia.protocol.delta.Recipient``, as the
server sends a live match), and the analysis of the person's moves (the strong
bot's choice from that seat's view, with a small seeded budget, so the file is
the same on every run); next to it every seat's view after each step, which
the JavaScript tests (``clients/web/test/replay_state.test.js``) compare with
what the page's ``delta.js`` makes of the ops.

The views are rebuilt from the record alone, through the engine and the
shuffles it lists (``RecordedChance``), never from the seed, as
``games/records.py`` replays a record. After changing an engine's views or the
delta encoding, run::

    .venv/bin/python -m tests.web.make_replay_fixture
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from cardavia.bots.base import Budget
from cardavia.bots.match import play_match
from cardavia.bots.registry import make_bot
from cardavia.games.cards import Card
from cardavia.games.chance import RecordedChance
from cardavia.games.engine import State
from cardavia.games.records import OPTIONAL_ACTION_FIELDS, Seat, make_record
from cardavia.games.registry import get_game
from cardavia.protocol.delta import Recipient

FIXTURE: Final = Path(__file__).resolve().parents[2] / "clients" / "web" / "test" / "fixtures" / "replays.json"
MATCHES: Final = (("briscola", "replay-1", {}), ("scopa", "replay-2", {"target": 1}))
"""The matches: game, seed, options (a one-point Scopa match is one deal or two)."""
PERSON: Final = 0
"""The seat a person played (by the basic bot's rules): the seat the analysis is of."""
BUDGET: Final = Budget(iterations=40)


def replay_message(game_id: str, seed: str, options: dict[str, Any]) -> tuple[dict[str, Any], list[list[Any]]]:
    """A ``replay`` answer for one seeded match, and every seat's view after each step."""
    game = get_game(game_id)
    bots = [make_bot(game_id, "basic", f"{seed}/{seat}") for seat in range(game.players)]
    final = play_match(game, bots, seed=seed, options=options)
    seats = [Seat("Anna", "human") if s == PERSON else Seat(f"Bot {s}", "bot", "basic") for s in range(game.players)]
    record = make_record(final, seats=seats, seed=seed)
    deals = record["deals"]
    assert isinstance(deals, list)
    chance = RecordedChance(
        dealer=int(deals[0]["dealer"]),
        shuffles=tuple(
            tuple(tuple(Card.parse(c) for c in s) for s in (*deal.get("redeals", []), deal["order"])) for deal in deals
        ),
    )
    state: State[Any] = game.new(record.get("options") or {}, chance)
    senders = [Recipient() for _ in range(game.players)]
    views = [_plain(state.view(s)) for s in range(game.players)]
    for seat, view in enumerate(views):
        senders[seat].snapshot(state.view(seat))
    strong = make_bot(game_id, "strong", f"{seed}/analysis", iterations=BUDGET.iterations)
    steps: list[dict[str, Any]] = []
    analysis: list[dict[str, Any] | None] = []
    after: list[list[Any]] = []
    for number, deal in enumerate(deals):
        for data in deal["actions"]:
            seat = data["seat"]
            action = game.action_from_data({k: v for k, v in data.items() if k not in OPTIONAL_ACTION_FIELDS})
            legal = state.legal_actions(seat)
            if seat != PERSON:
                analysis.append(None)
            elif len(legal) == 1:
                analysis.append({"best": legal[0].to_data(), "differs": False, "forced": True})
            else:
                best = strong.choose(state.view(seat), legal, BUDGET)
                analysis.append({"best": best.to_data(), "differs": best != action})
            state, _ = state.apply(action, seat=seat)
            ops = []
            for s in range(game.players):
                update = senders[s].update(state.view(s))
                ops.append(_plain(update[1]) if update else [])
            steps.append({"deal": number, "seat": seat, "action": action.to_data(), "ops": ops})
            after.append([_plain(state.view(s)) for s in range(game.players)])
    message = {
        "id": 25,
        "type": "replay",
        "record_id": f"r-{seed}-1",
        "record": _plain(record),
        "views": views,
        "steps": steps,
        "analysis": analysis,
    }
    return message, after


def _plain(data: Any) -> Any:
    """``data`` as JSON gives it back (tuples become lists), as a client decodes it."""
    return json.loads(json.dumps(data))


def render() -> str:
    cases = []
    for game_id, seed, options in MATCHES:
        message, after = replay_message(game_id, seed, options)
        cases.append({"game": game_id, "replay": message, "after": after})
    about = "Generated by tests/web/make_replay_fixture.py: replay answers of real records, and every view after each step."
    return json.dumps({"about": about, "cases": cases}, ensure_ascii=False, separators=(",", ":")) + "\n"


def main() -> None:
    FIXTURE.write_text(render(), encoding="utf-8")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
