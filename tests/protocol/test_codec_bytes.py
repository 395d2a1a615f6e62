"""The encoder writes, byte for byte, what ``msgpack.packb(data, use_bin_type=True)`` writes, and the
depth check counts levels as the plain definition does.

Clients compare frames with the golden ones and some decode them with other msgpack libraries, so a
faster encoder is only a faster encoder if every value a frame can hold comes out the same: ints at
each size boundary and sign, floats, strings and bytes at each length boundary (fixstr, str8,
str16, str32), lists and maps at theirs, and the deltas of real games.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cardavia.games.engine import State
from cardavia.games.registry import GAMES
from cardavia.protocol.codec import MAX_DEPTH, _depth, encode_delta, encode_your_turn, pack
from cardavia.protocol.delta import Recipient

GOLDEN = json.loads((Path(__file__).parent / "golden_frames.json").read_text(encoding="utf-8"))


def reference(data: Any) -> bytes:
    """The bytes every frame had before the encoder changed (and clients test against)."""
    return msgpack.packb(data, use_bin_type=True)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_golden_frame_packs_back_to_its_bytes(name: str) -> None:
    frame = bytes.fromhex(GOLDEN[name])
    data = msgpack.unpackb(frame, raw=False)
    assert pack(data) == reference(data) == frame


_INT_EDGES = sorted(
    {e + d for e in [0, 2**7, 2**8, 2**15, 2**16, 2**31, 2**32, 2**63, 2**64] for d in (-1, 0, 1)}
    | {-(e + d) for e in [0, 2**5, 2**7, 2**15, 2**31, 2**63] for d in (-1, 0, 1)}
)
_INT_EDGES = [i for i in _INT_EDGES if -(2**63) <= i < 2**64]
_LENGTHS = [0, 1, 15, 16, 31, 32, 255, 256, 65535, 65536]


@pytest.mark.parametrize("value", _INT_EDGES)
def test_ints_at_every_size_boundary(value: int) -> None:
    assert pack(value) == reference(value)
    assert pack({"seq": value, "ops": [value, -value if value < 2**63 else 0]}) == reference(
        {"seq": value, "ops": [value, -value if value < 2**63 else 0]}
    )


@pytest.mark.parametrize("length", _LENGTHS)
def test_strings_bytes_lists_and_maps_at_every_length_boundary(length: int) -> None:
    for value in [
        "a" * length,
        "é" * (length // 2),  # two bytes a character: the length in bytes decides the header
        b"\x00" * length,
        [None] * length,
        {f"k{i}": i for i in range(length)},
    ]:
        assert pack(value) == reference(value), (type(value).__name__, length)


@pytest.mark.parametrize(
    "value", [0.0, -0.0, 1.5, -1e300, 5e-324, float("inf"), float("-inf"), float("nan"), 30.0, 1 / 3]
)
def test_floats_are_float64(value: float) -> None:
    assert pack(value) == reference(value)
    assert pack(value)[0] == 0xCB


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.sampled_from(_INT_EDGES)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=300)
    | st.binary(max_size=300)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=20)
        | st.dictionaries(st.text(max_size=40), inner, max_size=20)
        | st.dictionaries(st.integers(-(2**63), 2**64 - 1), inner, max_size=4)
    ),
    max_leaves=60,
)


@given(values)
@example({"type": "delta", "seq": 2**32, "ops": [[0, "hand", ["7D", "KC"]]], "events": []})
@example({"deadline": 1_765_000_000.25, "x": -(2**63), "y": 2**64 - 1})
def test_any_msgpack_value_packs_to_the_same_bytes(value: Any) -> None:
    assert pack(value) == reference(value)


def _seeded_frames(game_id: str, games: int) -> list[tuple[bytes, dict[str, Any]]]:
    """Each delta and ``your_turn`` frame of seeded games, with the map it stands for."""
    game = GAMES[game_id]
    frames = []
    for number in range(games):
        rng = random.Random(f"{game_id}/{number}")
        state: State[Any] = game.new(None, f"codec-bytes/{game_id}/{number}")
        audience = [*range(game.players), None]
        streams = {r: Recipient() for r in audience}
        for r in audience:
            streams[r].snapshot(state.view(r))
        while (seat := state.to_move) is not None:
            actions = state.legal_actions(seat)
            legal = [a.to_data() for a in actions]
            deadline = rng.choice([None, 30.0, 1_765_000_000.5])
            turn = {"type": "your_turn", "seq": streams[seat].seq, "legal": legal}
            if deadline is not None:
                turn["deadline"] = deadline
            frames.append((encode_your_turn(streams[seat].seq, legal, deadline), turn))
            state, events = state.apply(actions[rng.randrange(len(actions))], seat=seat)
            for r in audience:
                update = streams[r].update(state.view(r))
                if update is None:
                    continue
                seq, ops = update
                data: dict[str, Any] = {"type": "delta", "seq": seq, "ops": ops}
                if events:
                    data["events"] = events
                frames.append((encode_delta(seq, ops, events), data))
    return frames


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_deltas_and_turns_of_seeded_games_are_the_same_bytes(game_id: str) -> None:
    frames = _seeded_frames(game_id, 3)
    assert len(frames) > 50
    for frame, data in frames:
        assert frame == reference(data)


# ------------------------------------------------------------------ depth


def plain_depth(data: Any) -> int:
    """The definition: a scalar is one level, a container one more than its deepest item."""
    if isinstance(data, dict):
        data = list(data.values())
    if isinstance(data, list):
        return 1 + max((plain_depth(item) for item in data), default=0)
    return 1


shapes = st.recursive(
    st.none() | st.integers(0, 9) | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=30,
)


@given(st.dictionaries(st.text(max_size=2), shapes, max_size=4))
@example({})
@example({"a": []})
@example({"a": [[[[[[["7D"]]]]]]]})
@example({"a": [[[[[[[]]]]]]], "b": 1})
@example({"a": [{}, [[[[[[1]]]]]]]})
def test_depth_counts_levels_as_the_definition_does(data: dict[str, Any]) -> None:
    expected = plain_depth(data)
    for limit in range(1, MAX_DEPTH + 3):
        found = _depth(data, limit)
        if expected <= limit:
            assert found == expected, limit
        else:
            assert found > limit, limit
