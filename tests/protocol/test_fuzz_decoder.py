"""The decoder under fuzzing: whatever the bytes, a message or a ``ProtocolError`` with a wire code.

A seeded corpus of malformed and hostile frames (``tests/fuzz_frames.py``),
then Hypothesis with arbitrary bytes and arbitrary msgpack structures. The
server hands every frame a client sends to ``decode_client``; anything else
escaping it would be answered as ``internal_error``, or worse.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cardavia.games.cards import Card
from cardavia.games.errors import CardaviaError
from cardavia.protocol import messages as m
from cardavia.protocol.codec import MAX_CLIENT_FRAME, decode_client, encode
from cardavia.protocol.errors import ERROR_CODES, ProtocolError
from tests import fuzz_frames
from tests.fuzz_frames import FAMILIES, SERVER_ACCEPTS, corpus, pack_any

CORPUS_SEED = 20261201
CORPUS_SIZE = 40_000
DECODER_CODES = {"bad_frame", "too_large", "too_deep", "unknown_type", "invalid_field"}
"""The codes decoding can give; the others come from what the server does with a request."""


def outcome(frame: bytes | str, max_size: int | None = MAX_CLIENT_FRAME) -> str:
    """``decoded`` or the code of the ``ProtocolError``; any other exception fails the test."""
    refused: ProtocolError | None = None
    try:
        message = decode_client(frame, max_size)
    except ProtocolError as exc:
        refused = exc
    if refused is None:
        assert isinstance(message, m.CLIENT_TYPES)
        return "decoded"
    assert refused.code in ERROR_CODES
    assert refused.code in DECODER_CODES
    assert refused.message
    assert refused.request_id is None or 0 <= refused.request_id < 2**31
    return refused.code


def test_the_corpus_is_the_same_for_the_same_seed() -> None:
    assert list(corpus("a", 300)) == list(corpus("a", 300))
    assert list(corpus("a", 300)) != list(corpus("b", 300))


@pytest.mark.slow
def test_a_seeded_corpus_decodes_or_is_refused_with_a_wire_code() -> None:
    codes: Counter[str] = Counter()
    by_family: dict[str, Counter[str]] = {name: Counter() for name in FAMILIES}
    for item in corpus(CORPUS_SEED, CORPUS_SIZE):
        try:
            code = outcome(item.frame)
        except Exception as exc:  # named with its frame, to reproduce it
            frame = item.frame.encode() if isinstance(item.frame, str) else item.frame
            raise AssertionError(f"{item.family} frame {frame.hex()} raised {exc!r}") from exc
        codes[code] += 1
        by_family[item.family][code] += 1
    assert sum(codes.values()) == CORPUS_SIZE
    assert set(codes) == DECODER_CODES | {"decoded"}  # every refusal is reached
    for name, found in by_family.items():
        assert sum(found.values()) > CORPUS_SIZE // (2 * len(FAMILIES)), name
    # what each family is for, it does
    assert set(by_family["oversize"]) == {"too_large"}
    assert set(by_family["text"]) == {"bad_frame"}
    assert set(by_family["truncated"]) == {"bad_frame"}
    assert set(by_family["wrong_top_level"]) == {"bad_frame"}
    assert set(by_family["unknown_type"]) == {"unknown_type"}
    assert by_family["nesting"]["too_deep"] > 0
    assert by_family["hostile_request"]["decoded"] > 0
    for name in set(FAMILIES) - SERVER_ACCEPTS - {"hostile_request"}:
        assert by_family[name]["decoded"] < sum(by_family[name].values()) // 2, name


def test_hostile_requests_are_well_formed() -> None:
    """They reach the server's handlers: only the values in them are hostile."""
    for item in corpus(CORPUS_SEED, 2000, families=("hostile_request",)):
        assert outcome(item.frame) == "decoded", item


def test_unknown_card_codes_name_no_card() -> None:
    for code in fuzz_frames._UNKNOWN_CODES:
        with pytest.raises(CardaviaError):
            Card.parse(code)


def _act_of_size(size: int) -> bytes:
    """An ``act`` frame of exactly ``size`` bytes (an action's values have no length limit)."""
    for pad in range(size - 40, size):
        frame = encode(m.Act(id=7, action={"play": "p" * pad}))
        if len(frame) == size:
            return frame
    raise AssertionError(size)


def test_frames_at_the_limit_decode_and_just_over_it_are_too_large() -> None:
    assert isinstance(decode_client(_act_of_size(MAX_CLIENT_FRAME)), m.Act)
    for extra in range(1, 65):
        with pytest.raises(ProtocolError) as error:
            decode_client(_act_of_size(MAX_CLIENT_FRAME + extra))
        assert error.value.code == "too_large"
        assert error.value.request_id == 7  # the id is read from an oversized frame too


# --------------------------------------------------------------- Hypothesis
@given(st.binary(max_size=6000))
@example(b"")
@example(b"\xc1")
@example(b"\x91" * 5000)
@example(b"\xdf\xff\xff\xff\xff")
def test_arbitrary_bytes(frame: bytes) -> None:
    outcome(frame)
    outcome(frame, None)


@given(st.text(max_size=200))
def test_arbitrary_text_frames_are_bad_frames(frame: str) -> None:
    assert outcome(frame) == "bad_frame"


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.floats(width=32)
    | st.text(max_size=40)
    | st.binary(max_size=20)
    | st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=16))
    | st.builds(msgpack.Timestamp, st.integers(-(2**34), 2**34 - 1), st.integers(0, 10**9 - 1))
    | st.sampled_from(["7D", "KC", "BJ", "1D", "", "scopa", "doudizhu", "play", "capture"])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=40,
)
_FIELD_NAMES = sorted({name for t in m.CLIENT_TYPES for name in t.model_fields} | {"x", ""})


@st.composite
def _requests(draw: st.DrawFn) -> dict[str, Any]:
    """A map that looks like a request: a real type, real field names, values of any kind."""
    data: dict[str, Any] = draw(st.dictionaries(st.sampled_from(_FIELD_NAMES), _VALUES, max_size=6))
    data["type"] = draw(st.sampled_from(fuzz_frames.CLIENT_TYPE_NAMES) | _VALUES)
    if draw(st.booleans()):
        data["id"] = draw(st.integers(-(2**63), 2**64 - 1) | _VALUES)
    return data


@given(_VALUES)
def test_arbitrary_msgpack_values(value: Any) -> None:
    frame = pack_any(value)
    code = outcome(frame)
    if not isinstance(value, dict):
        assert code in {"bad_frame", "too_large"}


@pytest.mark.slow
@given(_requests())
def test_arbitrary_request_like_maps(data: dict[str, Any]) -> None:
    outcome(pack_any(data))
    outcome(pack_any(data), None)


@given(st.sampled_from(fuzz_frames.valid_requests()), st.data())
def test_valid_requests_with_one_field_replaced(request: m.Request, data: st.DataObject) -> None:
    wire = msgpack.unpackb(encode(request))
    wire[data.draw(st.sampled_from(sorted(wire)))] = data.draw(_VALUES)
    outcome(pack_any(wire))


@given(st.sampled_from(fuzz_frames.valid_requests()), st.data())
def test_valid_requests_with_bytes_mutated(request: m.Request, data: st.DataObject) -> None:
    frame = bytearray(encode(request))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(frame) - 1))
        frame[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(frame)))
    outcome(bytes(frame[:cut]))
    outcome(bytes(frame))
