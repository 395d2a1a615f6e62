"""Protocol costs: encode+decode time per message, and delta size against the full view.

    python -m bench.protocol [--games 200] [--repeat 2000]
    python -m bench.protocol --alternatives [--games 20]

Delta sizes come from random games of every registered game: after each action
every seat's (and a spectator's) delta is encoded as a `delta` frame and compared
with the `snapshot` frame of the same new view.

`--alternatives` times, each alone, the ways of writing and reading a frame the
codec chose between, on the frames the server really sends and receives: the
golden frames (tests/protocol/golden_frames.json) and, from seeded random games
of every game, each recipient's `delta`, each `your_turn` and each `act` a
player sends. Writing: `msgpack.packb` per frame, one reused `msgpack.Packer`,
and `msgspec.msgpack.Encoder` (the codec's `pack`). Reading a client frame:
`msgpack.unpackb` (the codec's), a `msgpack.Unpacker` per frame and
`msgspec.msgpack.Decoder`; then each with the depth check (before and after it
visited only containers; msgspec's with the check of map keys `strict_map_key`
makes, in the same walk), and the whole `unpack_frame` and `decode_client`.
Each figure is the median of 9 samples of 20,000 frames or more (the
frames again and again), the alternatives in a shuffled order in each sample.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import msgspec

from cardavia.games.engine import State
from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.protocol.codec import (
    MAX_DEPTH,
    _depth,
    decode_client,
    decode_server,
    encode,
    encode_delta,
    encode_your_turn,
    pack,
    unpack_frame,
)
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


def _streams(state: State[Any]) -> dict[int | None, Recipient]:
    """A view stream started at ``state`` for every seat and a spectator (``None``), as a room keeps."""
    senders: dict[int | None, Recipient] = {seat: Recipient() for seat in [*range(state.seats), None]}
    for seat, sender in senders.items():
        sender.snapshot(state.view(seat))
    return senders


def delta_sizes(game_id: str, games: int) -> tuple[list[int], list[int], list[int]]:
    """Sizes of (delta frames, the same with the action's public events, full-view snapshots)."""
    game = GAMES[game_id]
    deltas: list[int] = []
    with_events: list[int] = []
    views: list[int] = []
    for number in range(games):
        rng = random.Random(number)
        state: State[Any] = game.new(None, f"bench/{number}")
        senders = _streams(state)
        audience = list(senders)
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


GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "protocol" / "golden_frames.json"


def real_frames(games: int) -> dict[str, list[bytes]]:
    """The frames of ``games`` seeded random games of every game, by type, and the golden frames."""
    frames: dict[str, list[bytes]] = {"delta": [], "your_turn": [], "act": []}
    for game_id, game in GAMES.items():
        for number in range(games):
            rng = random.Random(f"{game_id}/{number}")
            state: State[Any] = game.new(None, f"bench/{game_id}/{number}")
            senders = _streams(state)
            audience = list(senders)
            while (seat := state.to_move) is not None:
                legal = state.legal_actions(seat)
                frames["your_turn"].append(
                    encode_your_turn(senders[seat].seq, [a.to_data() for a in legal], None)
                )
                action = legal[rng.randrange(len(legal))]
                frames["act"].append(encode(m.Act(id=len(frames["act"]) % 2**31, action=action.to_data())))
                state, events = state.apply(action, seat=seat)
                for r in audience:
                    update = senders[r].update(state.view(r))
                    if update is not None:
                        frames["delta"].append(encode_delta(update[0], update[1], events))
    golden = [bytes.fromhex(h) for h in json.loads(GOLDEN.read_text(encoding="utf-8")).values()]
    frames["golden"] = golden
    client_types = {t.model_fields["type"].default for t in m.CLIENT_TYPES}
    frames["golden, client"] = [f for f in golden if msgpack.unpackb(f)["type"] in client_types]
    return frames


def _depth_before(data: Any, limit: int) -> int:
    """The depth check as it was: an (item, level) tuple stacked for every value."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            break
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def _depth_and_keys(data: Any, limit: int, level: int = 1) -> int:
    """``codec._depth`` refusing in the same walk what ``strict_map_key=True`` refuses, for a
    decoder that takes any key: what reading with msgspec would have to add."""
    if isinstance(data, dict):
        for key in data:
            if not isinstance(key, str | bytes):
                raise ValueError(f"{type(key).__name__} is not allowed for map key")
        values: Any = data.values()
    else:
        values = data
    if not values:
        return level
    child = level + 1
    if child > limit:
        return child
    deepest = child
    for value in values:
        if isinstance(value, dict | list):
            found = _depth_and_keys(value, limit, child)
            if found > deepest:
                deepest = found
                if found > limit:
                    return found
    return deepest


def _unpackb(frame: bytes) -> Any:
    return msgpack.unpackb(frame, raw=False, strict_map_key=True)


def _unpacker(frame: bytes) -> Any:
    unpacker = msgpack.Unpacker(None, raw=False, strict_map_key=True, max_buffer_size=max(len(frame), 1))
    unpacker.feed(frame)
    return unpacker.unpack()


def alternatives(games: int) -> list[tuple[str, str, int, float, list[tuple[str, float]]]]:
    """[(what, frames, how many, mean bytes, [(way, median µs per frame)])]."""
    frames = real_frames(games)
    packer = msgpack.Packer(use_bin_type=True)
    encoder = msgspec.msgpack.Encoder()
    decoder = msgspec.msgpack.Decoder()
    writing: dict[str, Callable[[Any], Any]] = {
        "msgpack.packb": lambda d: msgpack.packb(d, use_bin_type=True),
        "one msgpack.Packer": packer.pack,
        "msgspec Encoder": encoder.encode,
        "codec.pack": pack,
    }
    reading: dict[str, Callable[[bytes], Any]] = {
        "msgpack.unpackb": _unpackb,
        "msgpack.Unpacker per frame": _unpacker,
        "msgspec Decoder": decoder.decode,
    }
    rows = []
    for kind in ["delta", "your_turn", "golden"]:
        data = [msgpack.unpackb(f, raw=False) for f in frames[kind]]
        for way in writing.values():  # the same bytes, or the comparison means nothing
            assert all(way(d) == f for d, f in zip(data, frames[kind], strict=True))
        rows.append(("write", kind, len(data), _mean_bytes(frames[kind]), _timed(writing, data)))
    for kind in ["act", "golden, client"]:
        decoded = [msgpack.unpackb(f, raw=False) for f in frames[kind]]
        reading_now = {
            **reading,
            "msgpack.unpackb + depth check before": lambda f: _depth_before(_unpackb(f), MAX_DEPTH),
            "msgpack.unpackb + depth check now": lambda f: _depth(_unpackb(f), MAX_DEPTH),
            "msgspec Decoder + depth and key check": lambda f: _depth_and_keys(decoder.decode(f), MAX_DEPTH),
            "codec.unpack_frame": unpack_frame,
            "codec.decode_client": decode_client,
        }
        assert all(decoder.decode(f) == d for f, d in zip(frames[kind], decoded, strict=True))
        rows.append(
            ("read", kind, len(decoded), _mean_bytes(frames[kind]), _timed(reading_now, frames[kind]))
        )
        depth_only = {
            "depth check before": lambda d: _depth_before(d, MAX_DEPTH),
            "depth check now": lambda d: _depth(d, MAX_DEPTH),
        }
        rows.append(
            ("depth only", kind, len(decoded), _mean_bytes(frames[kind]), _timed(depth_only, decoded))
        )
    return rows


def _mean_bytes(frames: list[bytes]) -> float:
    return statistics.mean(len(f) for f in frames)


def _timed(
    ways: dict[str, Callable[[Any], Any]], inputs: list[Any], samples: int = 9
) -> list[tuple[str, float]]:
    """Median µs per input of each way; the ways in a shuffled order in each sample, so that a
    change in the machine's load falls on all of them."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    rounds = -(-20_000 // len(inputs))  # at least 20,000 calls a sample, however few the frames
    inputs = inputs * rounds
    order = list(ways)
    shuffle = random.Random(0).shuffle
    for _ in range(samples):
        shuffle(order)
        for name in order:
            way = ways[name]
            start = time.perf_counter()
            for item in inputs:
                way(item)
            times[name].append((time.perf_counter() - start) / len(inputs) * 1e6)
    return [(name, statistics.median(times[name])) for name in ways]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument(
        "--games", type=int, default=None, help="random games per game (default 200; 20 with --alternatives)"
    )
    parser.add_argument("--repeat", type=int, default=2000, help="encode+decode rounds per timing sample")
    parser.add_argument(
        "--alternatives",
        action="store_true",
        help="time the ways of writing and reading a frame, each alone (--games per game, default 20)",
    )
    args = parser.parse_args()
    if args.alternatives:
        games = 20 if args.games is None else args.games
        print(f"µs per frame, median of 9 samples; frames of {games} seeded games of every game\n")
        print("| stage | frames | count | mean bytes | way | µs per frame |")
        print("| --- | --- | ---: | ---: | --- | ---: |")
        for what, kind, count, size, timings in alternatives(games):
            for way, micro in timings:
                print(f"| {what} | {kind} | {count} | {size:.1f} | {way} | {micro:.2f} |")
        return
    print("encode + decode per message (median of 5 samples)")
    print(f"{'type':<14} {'bytes':>6} {'µs':>8}")
    for kind, size, seconds in codec_times(args.repeat):
        print(f"{kind:<14} {size:>6} {seconds * 1e6:>8.1f}")
    print()
    print("per-action delta frame vs full-view snapshot frame (bytes), every recipient")
    header = ["game", "deltas", "mean", "max", "+events mean", "view mean", "view max", "ratio", "+events"]
    print("{:<10} {:>7} {:>6} {:>5} {:>12} {:>9} {:>8} {:>6} {:>7}".format(*header))
    for game_id in GAMES:
        deltas, with_events, views = delta_sizes(game_id, 200 if args.games is None else args.games)
        ratio = statistics.mean(d / v for d, v in zip(deltas, views, strict=True))
        ratio_events = statistics.mean(d / v for d, v in zip(with_events, views, strict=True))
        print(
            f"{game_id:<10} {len(deltas):>7} {statistics.mean(deltas):>6.1f} {max(deltas):>5} "
            f"{statistics.mean(with_events):>12.1f} {statistics.mean(views):>9.1f} {max(views):>8} "
            f"{ratio:>6.1%} {ratio_events:>7.1%}"
        )


if __name__ == "__main__":
    main()
