"""Frames to messages and back: one WebSocket binary frame is one msgpack map.

Decoding never lets an exception other than ``ProtocolError`` escape, whatever
the bytes: size, msgpack syntax, nesting depth, message type and every field
are checked in that order, each failure with its own wire code.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final, TypeVar

import msgpack
import msgspec
from pydantic import BaseModel, TypeAdapter, ValidationError

from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.messages import (
    CLIENT_TYPES,
    SERVER_TYPES,
    ClientMessage,
    Message,
    ServerMessage,
)

T = TypeVar("T")

MAX_CLIENT_FRAME: Final = 4096
"""Default largest frame a client may send, as in other game servers."""

MAX_DEPTH: Final = 8
"""Deepest nesting a client message needs is 4 (act → action → list → card)."""
MAX_SERVER_DEPTH: Final = 64
"""Deepest nesting a client accepts from a server: a replay's ops (replay → steps → step → ops →
seat → op → value) nest past ``MAX_DEPTH``; a hostile server's thousand-deep frame stops here."""

_CLIENT: Final = TypeAdapter[ClientMessage](ClientMessage)
_SERVER: Final = TypeAdapter[ServerMessage](ServerMessage)
_CLIENT_NAMES: Final = frozenset(t.model_fields["type"].default for t in CLIENT_TYPES)
_SERVER_NAMES: Final = frozenset(t.model_fields["type"].default for t in SERVER_TYPES)


def encode(message: Message) -> bytes:
    """The frame for ``message``: a msgpack map with fields in declaration order.

    Top-level fields that are null, or an empty list where the field's default is
    an empty list, are left out (absent and default mean the same to a reader),
    which keeps the frames sent after every action small.
    """
    # Reads the validated fields directly instead of ``model_dump``: deltas and
    # views are plain data already, and walking them again cost the server an
    # eighth of its time per action. Nested models (room info) are still dumped.
    values = message.__dict__
    data: dict[str, Any] = {}
    empty_by_default = _empty_lists(type(message))
    for name in type(message).model_fields:
        value = values[name]
        if value is None or (value == [] and name in empty_by_default):
            continue
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="python")
        elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
            value = [item.model_dump(mode="python") for item in value]
        data[name] = value
    return pack(data)


def _empty_lists(cls: type[BaseModel]) -> frozenset[str]:
    """The fields of ``cls`` whose default is an empty list (cached per class)."""
    names = _EMPTY_LISTS.get(cls)
    if names is None:
        names = _EMPTY_LISTS[cls] = frozenset(
            name for name, info in cls.model_fields.items() if info.default_factory is list
        )
    return names


_EMPTY_LISTS: dict[type[BaseModel], frozenset[str]] = {}


def encode_delta(seq: int, ops: list[Any], events: list[dict[str, Any]]) -> bytes:
    """The frame ``encode(Delta(seq=seq, ops=ops, events=events))`` gives, without building
    the model: the server sends one per recipient per action, from ops it computed itself."""
    if not events:
        return pack({"type": "delta", "seq": seq, "ops": ops})
    return pack({"type": "delta", "seq": seq, "ops": ops, "events": events})


def encode_your_turn(seq: int, legal: list[dict[str, Any]], deadline: float | None) -> bytes:
    """The frame ``encode(YourTurn(seq=seq, legal=legal, deadline=deadline))`` gives, without
    building and checking the model: the server sends one per turn, from actions its engine
    listed itself (the model, and the schema made from it, stay the protocol's definition)."""
    if deadline is None:
        return pack({"type": "your_turn", "seq": seq, "legal": legal})
    return pack({"type": "your_turn", "seq": seq, "legal": legal, "deadline": deadline})


_ENCODER: Final = msgspec.msgpack.Encoder()
"""One encoder for every frame: it holds only its settings, so reusing it is safe and saves the
setup each call would make."""


def pack(data: Any) -> bytes:
    """``data`` as msgpack: for the plain values frames hold (maps, lists, str, bytes, int, float,
    bool, None) the very bytes ``msgpack.packb(data, use_bin_type=True)`` writes, which clients and
    the golden frames expect (tests/protocol/test_codec_bytes.py checks it). msgspec's encoder takes
    a quarter of msgpack's time on the server's deltas (BENCHMARKS.md, "Protocol: codec time").

    Unlike msgpack it also writes sets, dataclasses, enums and datetimes instead of refusing them,
    and refuses subclasses of str and float; a frame holds none of these."""
    return _ENCODER.encode(data)


def unpack_frame(
    frame: bytes | str, max_size: int | None = MAX_CLIENT_FRAME, *, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """The msgpack map in ``frame``, checked for size, syntax, shape and depth."""
    if isinstance(frame, str):
        raise ProtocolError("bad_frame", "send binary frames holding msgpack, not text frames")
    if max_size is not None and len(frame) > max_size:
        raise ProtocolError("too_large", f"frame of {len(frame)} bytes; the limit is {max_size}")
    try:
        data = msgpack.unpackb(
            frame,
            raw=False,
            strict_map_key=True,
        )
    except msgpack.ExtraData:
        raise ProtocolError("bad_frame", "one frame must hold exactly one msgpack value") from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ProtocolError("bad_frame", f"not valid msgpack: {type(exc).__name__}") from None
    except RecursionError:  # pragma: no cover - msgpack's own stack limit comes first
        raise ProtocolError("too_deep", "the frame nests too deeply") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_frame", f"a frame holds a map, not {type(data).__name__}")
    if _depth(data, max_depth) > max_depth:
        raise ProtocolError("too_deep", f"the message nests deeper than {max_depth} levels")
    return data


def _depth(data: dict[str, Any] | list[Any], limit: int, level: int = 1) -> int:
    """How many levels the container ``data`` at ``level`` reaches (a scalar is one level, a
    container one more than its deepest item), or a number past ``limit`` once it is passed.

    Only containers are visited, by recursion no deeper than ``limit``: the earlier walk stacked a
    tuple for every scalar and took three quarters of the time of reading a client's frame."""
    values = data.values() if isinstance(data, dict) else data
    if not values:
        return level
    child = level + 1
    if child > limit:
        return child
    deepest = child
    for value in values:
        if isinstance(value, _CONTAINERS):
            found = _depth(value, limit, child)
            if found > deepest:
                deepest = found
                if found > limit:
                    return found
    return deepest


_CONTAINERS: Final = (dict, list)


def request_id(data: dict[str, Any]) -> int | None:
    """The client's request id, if the map carries a usable one (for error replies)."""
    value = data.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31:
        return value
    return None


def decode_client(frame: bytes | str, max_size: int | None = MAX_CLIENT_FRAME) -> ClientMessage:
    """A validated client message, or ``ProtocolError`` with the right code.

    The error carries the request's id when the frame is a readable map with one
    (an oversized frame is read for it too: the connection's own limit bounds it).
    """
    try:
        data = unpack_frame(frame, max_size)
    except ProtocolError as exc:
        if exc.code == "too_large":
            with contextlib.suppress(ProtocolError):
                exc.request_id = request_id(unpack_frame(frame, None))
        raise
    try:
        _check_type(data, _CLIENT_NAMES)
        return _validate(_CLIENT, data)
    except ProtocolError as exc:
        exc.request_id = request_id(data)
        raise


def decode_server(frame: bytes) -> ServerMessage:
    """A validated server message (for clients); no size limit on what servers send, and a depth
    limit of its own (``MAX_SERVER_DEPTH``)."""
    data = unpack_frame(frame, None, max_depth=MAX_SERVER_DEPTH)
    _check_type(data, _SERVER_NAMES)
    return _validate(_SERVER, data)


def _check_type(data: dict[str, Any], names: frozenset[str]) -> None:
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("invalid_field", "a message needs a string field 'type'")
    if kind not in names:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")


def _validate(adapter: TypeAdapter[T], data: dict[str, Any]) -> T:
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError("invalid_field", f"{where}: {first['msg']}") from None
