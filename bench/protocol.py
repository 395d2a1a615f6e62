"""Protocol costs: encode+decode time per message, and delta size against the full view.

    python -m bench.protocol [--games 200] [--repeat 2000]

Delta sizes come from random games of every registered game: after each action
every seat's (and a spectator's) delta is encoded as a `delta` frame and compared
with the `snapshot` frame of the same new view.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from cardavia.games.engine import State
from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, decode_server, encode
from cardavia.protocol.delta import Recipient
from cardavia.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES

ROOM = m.RoomInfo(
    room="r-1", code=None, game="scopa", deck="bolognese", options={}, public=True, state="playing", seats=[]
)


def codec_times(repeat: int) -> list[tuple[str, int, float]]:
    rows = []
    for example in [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]:
        decode = decode_client if isinstance(example, m.Request) else decode_server
        frame = encode(example)
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(repeat):
                decode(encode(example))
            samples.append((time.perf_counter() - start) / repeat)
        rows.append((example.type, len(frame), statistics.median(samples)))
    return rows


def delta_sizes(game_id: str, games: int) -> tuple[list[int], list[int], list[int]]:
    """Sizes of (delta frames, the same with the action's public events, full-view snapshots)."""
    game = GAMES[game_id]
    deltas: list[int] = []
    with_events: list[int] = []
    views: list[int] = []
    for number in range(games):
        rng = random.Random(number)
        state: State[Any] = game.new(None, f"bench/{number}")
        audience = [*range(game.players), None]
        senders = {r: Recipient() for r in audience}
        for r in audience:
            senders[r].snapshot(state.view(r))
        while (seat := state.to_move) is not None:
            legal = state.legal_actions(seat)
            state, events = state.apply(legal[rng.randrange(len(legal))], seat=seat)
            for r in audience:
                view = state.view(r)
                update = senders[r].update(view)
                if update is None:
                    continue
                seq, ops = update
                deltas.append(len(encode(m.Delta(seq=seq, ops=ops))))
                with_events.append(len(encode(m.Delta(seq=seq, ops=ops, events=events))))
                views.append(len(encode(m.Snapshot(room=ROOM, seat=r, seq=seq, view=view))))
    return deltas, with_events, views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="random games per game for delta sizes")
    parser.add_argument("--repeat", type=int, default=2000, help="encode+decode rounds per timing sample")
    args = parser.parse_args()
    print("encode + decode per message (median of 5 samples)")
    print(f"{'type':<14} {'bytes':>6} {'µs':>8}")
    for kind, size, seconds in codec_times(args.repeat):
        print(f"{kind:<14} {size:>6} {seconds * 1e6:>8.1f}")
    print()
    print("per-action delta frame vs full-view snapshot frame (bytes), every recipient")
    header = ["game", "deltas", "mean", "max", "+events mean", "view mean", "view max", "ratio", "+events"]
    print("{:<10} {:>7} {:>6} {:>5} {:>12} {:>9} {:>8} {:>6} {:>7}".format(*header))
    for game_id in GAMES:
        deltas, with_events, views = delta_sizes(game_id, args.games)
        ratio = statistics.mean(d / v for d, v in zip(deltas, views, strict=True))
        ratio_events = statistics.mean(d / v for d, v in zip(with_events, views, strict=True))
        print(
            f"{game_id:<10} {len(deltas):>7} {statistics.mean(deltas):>6.1f} {max(deltas):>5} "
            f"{statistics.mean(with_events):>12.1f} {statistics.mean(views):>9.1f} {max(views):>8} "
            f"{ratio:>6.1%} {ratio_events:>7.1%}"
        )


if __name__ == "__main__":
    main()
