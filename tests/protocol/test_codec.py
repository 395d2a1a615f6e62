"""Bad input: every malformed frame gets its own error code, and nothing else escapes."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.protocol import messages as m
from cardavia.protocol.codec import (
    MAX_CLIENT_FRAME,
    decode_client,
    decode_server,
    encode,
    pack,
    request_id,
    unpack_frame,
)
from cardavia.protocol.errors import ERROR_CODES, ProtocolError
from cardavia.protocol.examples import SERVER_EXAMPLES

CLIENT_TYPE_NAMES = {t.model_fields["type"].default for t in m.CLIENT_TYPES}


def _code(frame: bytes | str) -> str:
    with pytest.raises(ProtocolError) as error:
        decode_client(frame)
    assert error.value.code in ERROR_CODES
    assert error.value.message
    return error.value.code


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"", "bad_frame"),
        (b"\xc1", "bad_frame"),  # never-used msgpack byte
        (pack({"type": "resync"})[:-2], "bad_frame"),  # truncated
        (pack({"type": "resync"}) + b"\x00", "bad_frame"),  # two values in one frame
        (pack([1, 2, 3]), "bad_frame"),
        (pack("hello"), "bad_frame"),
        (pack({1: "x"}), "bad_frame"),  # map keys must be strings
        (pack({"id": 1}), "invalid_field"),  # no type
        (pack({"type": 5}), "invalid_field"),
        (pack({"type": "fly"}), "unknown_type"),
        (pack({"type": "welcome", "session": "x"}), "unknown_type"),  # a server type from a client
        (pack({"type": "resync", "extra": 1}), "invalid_field"),
        (pack({"type": "resync", "id": "1"}), "invalid_field"),
        (pack({"type": "resync", "id": -1}), "invalid_field"),
        (pack({"type": "hello", "version": "1", "name": "a"}), "invalid_field"),
        (pack({"type": "hello", "version": 1, "name": ""}), "invalid_field"),
        (pack({"type": "hello", "version": 1, "name": "x" * 33}), "invalid_field"),
        (pack({"type": "chat", "text": "x" * 201}), "invalid_field"),
        (pack({"type": "create_room", "game": "poker"}), "invalid_field"),
        (pack({"type": "act", "action": {"play": {"deep": 1}}}), "invalid_field"),
        (pack({"type": "act", "action": "7D"}), "invalid_field"),
        (pack({"type": "chat", "text": "x" * 5000}), "too_large"),
        (b"\x81\xa4type" + b"\x91" * 30 + b"\xc0", "too_deep"),
        (b"\x91" * 3000 + b"\xc0", "bad_frame"),  # msgpack's own stack limit, still not a crash
        ("text frame", "bad_frame"),
    ],
)
def test_malformed_frames_get_the_right_code(frame: bytes | str, code: str) -> None:
    assert _code(frame) == code


def test_size_limit_is_configurable() -> None:
    frame = encode(m.Chat(id=1, text="x" * 150))
    assert decode_client(frame, max_size=len(frame)) == m.Chat(id=1, text="x" * 150)
    with pytest.raises(ProtocolError) as error:
        decode_client(frame, max_size=len(frame) - 1)
    assert error.value.code == "too_large"


def test_invalid_field_names_the_field() -> None:
    with pytest.raises(ProtocolError, match="name"):
        decode_client(pack({"type": "hello", "version": 1, "name": ""}))


def test_request_id_is_recovered_for_error_replies() -> None:
    for frame, code in [
        (pack({"type": "fly", "id": 9}), "unknown_type"),
        (pack({"type": "chat", "id": 9, "text": ""}), "invalid_field"),
        (pack({"type": "chat", "id": 9, "text": "x" * 5000}), "too_large"),
    ]:
        with pytest.raises(ProtocolError) as caught:
            decode_client(frame)
        assert (caught.value.code, caught.value.request_id) == (code, 9)
    with pytest.raises(ProtocolError) as caught:
        decode_client(b"\xc1")
    assert caught.value.request_id is None
    assert request_id(unpack_frame(pack({"type": "fly", "id": 9}))) == 9
    assert request_id({"id": True}) is None
    assert request_id({"id": "9"}) is None


@settings(max_examples=500)
@given(st.binary(max_size=MAX_CLIENT_FRAME + 10))
def test_random_bytes_never_escape_the_decoder(frame: bytes) -> None:
    assert _outcome(frame) in {*ERROR_CODES, *CLIENT_TYPE_NAMES}


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=500)
@given(
    kind=st.sampled_from([t.model_fields["type"].default for t in m.CLIENT_TYPES] + ["x"]),
    fields=st.dictionaries(st.text(max_size=10), json_like, max_size=5),
)
def test_wrong_types_and_extra_fields_never_escape(kind: str, fields: dict[str, object]) -> None:
    frame = msgpack.packb({**fields, "type": kind})
    outcome = _outcome(frame)
    assert outcome in ERROR_CODES or outcome == kind


def _outcome(frame: bytes) -> str:
    """The decoded message's type, or the error code; any other exception fails the test."""
    try:
        return decode_client(frame).type
    except ProtocolError as error:
        return error.code


def test_a_client_reads_server_messages_with_fields_it_does_not_know() -> None:
    # a newer server (same protocol version) may add optional fields; requests stay strict
    frame = pack({"type": "left", "reason": "bye", "farewell_card": "7D"})
    assert decode_server(frame) == m.Left(reason="bye")
    example = next(e for e in SERVER_EXAMPLES if isinstance(e, m.Snapshot))
    data = msgpack.unpackb(encode(example))
    data["mood"], data["room"]["node_zone"] = 3, "eu-1"  # new fields at the top and in a nested map
    assert decode_server(pack(data)) == example
    with pytest.raises(ProtocolError) as caught:
        decode_client(pack({"type": "resync", "id": 1, "mood": 3}))
    assert caught.value.code == "invalid_field"


def test_a_client_reads_a_replay_deeper_than_any_request_but_not_a_hostile_depth() -> None:
    from cardavia.protocol.codec import MAX_DEPTH, MAX_SERVER_DEPTH, decode_server, pack

    nested: object = "7D"
    for _ in range(MAX_DEPTH + 4):
        nested = [nested]
    frame = pack({"type": "record", "id": 1, "record_id": "r-1-1", "record": {"deep": nested}})
    assert decode_server(frame).type == "record"
    for _ in range(MAX_SERVER_DEPTH):
        nested = [nested]
    deep = pack({"type": "record", "id": 1, "record_id": "r-1-1", "record": {"deep": nested}})
    with pytest.raises(ProtocolError) as refused:
        decode_server(deep)
    assert refused.value.code == "too_deep"
