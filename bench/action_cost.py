"""What one action costs the server, stage by stage, on real positions of each game.

    python -m bench.action_cost [--games 30] [--repeat 5]

An "action" is what one person's move sets off in a room where the other seats
are random bots (as in `bench/server_load.py`): the frame is decoded and
checked, the move is applied, every person's view is rebuilt, diffed against
the last and encoded as a delta; then each bot reply that follows until the
person is to move again (one in a two-seat game, two in Dou Dizhu) costs a
legal-move list, the bot's view, its choice, an apply and the person's delta
again; last, the person gets `your_turn`. Positions come from seeded games
played that way, so every stage is timed on the inputs the server really
meets. The stages are those the checkout's room runs: where it has
`encode_your_turn`, `your_turn` is packed from plain data and a move among
the turn's listed moves is applied without a second check; an earlier
checkout builds the `YourTurn` model and checks every move. Where the engines
have `State.view_update`, the person's delta is made from the fields the move
changed, as the room makes it ("view" then times `view_update`, "diff" the
`Recipient.patch`); `--whole-views` builds and diffs whole views instead, to
measure that change alone (the real room's line always runs the room's way). The whole replay
runs `--repeat` times; each stage's median over the runs is divided by the
number of actions. Stages are called through
the package's public functions (the engines' `apply`/`legal_actions`/`view`,
`Recipient.update`, the codec), so the same file measures another checkout
of the code too:

    PYTHONPATH=/path/to/other/checkout python -m bench.action_cost

(`cardavia` in that checkout comes first on the path.) "room, end to end" plays
the same games through a real `cardavia.server.room.Room` with a stand-in
connection, bots deciding inline, and divides the process's CPU time by the
person's actions: what the stages leave out (tasks, locks, the journal hook,
`Room`'s own bookkeeping) shows up as the difference. No sockets are involved:
`bench/server_load.py` measures the whole server.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardavia.bots.registry import make_bot
from cardavia.games.engine import Action, State
from cardavia.games.registry import GAMES
from cardavia.protocol import codec
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, decode_server, encode, encode_delta
from cardavia.protocol.delta import Recipient

# the room's own ways where the checkout has them; an earlier one builds your_turn's model and
# checks every move
encode_your_turn: Callable[[int, list[Any], float | None], bytes] | None = getattr(
    codec, "encode_your_turn", None
)

GAME_IDS = ["briscola", "scopa", "schnapsen", "doudizhu"]
PERSON = 0
"""The seat a person plays; every other seat is a random bot."""


STAGES = [
    "decode and validate the frame",
    "action_from_data",
    "apply",
    "legal_actions",
    "view",
    "diff (Recipient.update)",
    "encode the delta",
    "your_turn: build and encode",
    "the bot's choice (random)",
]


@dataclass
class Costs:
    """Seconds and calls of each stage over the person's actions of one replay."""

    actions: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STAGES, 0))


def replay(game_id: str, games: int, *, whole_views: bool = False) -> Costs:
    """Play ``games`` seeded games as a room would, timing each stage where it runs.

    The stages run in the room's order on the room's inputs, so whatever an engine
    caches within a state (Dou Dizhu's legal moves, its view slots) helps here exactly
    as much as in the server. The person's moves and the bots' are seeded: every
    replay meets the same positions.
    """
    game = GAMES[game_id]
    narrowed = hasattr(State, "view_update") and not whole_views  # the room's way, where it has it
    costs = Costs()
    seconds, calls = costs.seconds, costs.calls
    clock = time.perf_counter

    def lap(stage: str, started: float) -> None:
        seconds[stage] += clock() - started
        calls[stage] += 1

    for number in range(games):
        rng = random.Random(f"{game_id}/{number}")
        state: State[Any] = game.new({}, f"bench-action-cost/{game_id}/{number}")
        bots = {s: make_bot(game_id, "random", f"{number}/{s}") for s in range(game.players) if s != PERSON}
        stream = Recipient()
        stream.snapshot(state.view(PERSON))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            started = clock()
            legal: list[Action] = state.legal_actions(seat)
            lap("legal_actions", started)
            if seat == PERSON:
                costs.actions += 1
                started = clock()
                if encode_your_turn is None:
                    encode(m.YourTurn(seq=stream.seq, legal=[a.to_data() for a in legal]))
                else:
                    encode_your_turn(stream.seq, [a.to_data() for a in legal], None)
                lap("your_turn: build and encode", started)
                frame = encode(m.Act(id=costs.actions, action=rng.choice(legal).to_data()))
                started = clock()
                act = decode_client(frame)
                lap("decode and validate the frame", started)
                assert isinstance(act, m.Act)
                started = clock()
                action = game.action_from_data(act.action)
                lap("action_from_data", started)
            else:
                started = clock()
                view = state.view(seat)
                lap("view", started)
                started = clock()
                action = bots[seat].choose(view, legal)
                lap("the bot's choice (random)", started)
            started = clock()
            if encode_your_turn is not None and action in legal:  # listed this turn: no second check
                state, events = state.apply_unchecked(action)
            else:
                state, events = state.apply(action, seat=seat)
            lap("apply", started)
            started = clock()
            fields = state.view_update(PERSON, events) if narrowed else None
            if fields is None:
                new_view = state.view(PERSON)
            lap("view", started)
            started = clock()
            update = stream.update(new_view) if fields is None else stream.patch(fields)
            lap("diff (Recipient.update)", started)
            if update:
                started = clock()
                encode_delta(update[0], update[1], events)
                lap("encode the delta", started)
    return costs


def stage_costs(
    game_id: str, games: int, repeat: int, *, whole_views: bool = False
) -> tuple[int, list[tuple[str, int, float]]]:
    """(actions, [(stage, calls per 100 actions, median seconds per action)])."""
    runs = [replay(game_id, games, whole_views=whole_views) for _ in range(repeat)]
    actions = runs[0].actions
    rows = []
    for stage in STAGES:
        per_action = statistics.median(run.seconds[stage] for run in runs) / actions
        rows.append((stage, round(100 * runs[0].calls[stage] / actions), per_action))
    return actions, rows


# ---------------------------------------------------------------- the real room


class _Person:
    """A stand-in connection that answers each `your_turn` on the room's loop."""

    session = "s-bench-person"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.turns: asyncio.Queue[list[dict[str, Any]]] = asyncio.Queue()
        self.over = asyncio.Event()

    def send(self, message: Any) -> None:
        if isinstance(message, bytes):
            message = decode_server(message)
        if isinstance(message, m.YourTurn):
            self.turns.put_nowait(message.legal)
        elif isinstance(message, m.MatchResult):
            self.over.set()


async def _room_games(game_id: str, games: int) -> tuple[int, float]:
    """(the person's actions, CPU seconds) over ``games`` matches played through real rooms."""
    from cardavia.games.traditions import default_tradition
    from cardavia.server.bot_runner import BotRunner
    from cardavia.server.lobby import RoomEntry, SeatEntry
    from cardavia.server.room import Room

    game = GAMES[game_id]
    runner = BotRunner(0)
    actions = 0
    cpu = 0.0
    try:
        for number in range(games):
            entry = RoomEntry(
                room=f"r-bench-{number}", code="BENCHBEN", game=game_id,
                deck=default_tradition(game_id).id, options=game.options({}), public=False,
                seats=[SeatEntry() for _ in range(game.players)], humans=1, bot_level="random",
            )  # fmt: skip
            room = Room(
                entry,
                runner=runner,
                make_bot=lambda g, level, seed: make_bot(g, "random", seed),
                bot_delay=0.0,
                grace_seconds=60.0,
                on_finish=lambda room, record: room.id,
            )
            person = _Person(random.Random(f"{game_id}/{number}"))
            room.sit(PERSON, person, "p0")
            started = time.process_time()
            await room.start(f"bench-action-cost/{game_id}/{number}")
            while not person.over.is_set():
                waiting = asyncio.ensure_future(person.turns.get())
                over = asyncio.ensure_future(person.over.wait())
                done, _ = await asyncio.wait({waiting, over}, return_when=asyncio.FIRST_COMPLETED)
                over.cancel()
                if waiting not in done:
                    waiting.cancel()
                    break
                legal = waiting.result()
                actions += 1
                await room.act(PERSON, person.rng.choice(legal))
            cpu += time.process_time() - started
            room.close()
    finally:
        runner.close()
    return actions, cpu


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30, help="seeded games of each game (default 30)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each stage (default 5)")
    parser.add_argument("--game", action="append", choices=GAME_IDS, help="only these games")
    parser.add_argument(
        "--whole-views",
        action="store_true",
        help="the stages build and diff whole views even where the engine names a move's changed fields",
    )
    args = parser.parse_args()
    games = args.game or GAME_IDS
    print("µs per action (one person's move and the bot replies up to the person's next turn);")
    print("calls: how often the stage runs per 100 actions\n")
    for game_id in games:
        played, rows = stage_costs(game_id, args.games, args.repeat, whole_views=args.whole_views)
        actions, cpu = asyncio.run(_room_games(game_id, args.games))
        total = sum(seconds for _, _, seconds in rows)
        print(f"### {game_id}: {played} actions over {args.games} games\n")
        print("| stage | calls per 100 actions | µs per action |")
        print("| --- | ---: | ---: |")
        for name, calls, seconds in rows:
            print(f"| {name} | {calls} | {seconds * 1e6:.1f} |")
        print(f"| **the stages together** | | **{total * 1e6:.1f}** |")
        print(f"| room, end to end (CPU time, {actions} actions) | | {cpu / max(actions, 1) * 1e6:.1f} |")
        print()


if __name__ == "__main__":
    main()
