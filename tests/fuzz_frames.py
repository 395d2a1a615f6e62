"""Malformed and hostile client frames, deterministic from a seed: the fuzz corpus.

Clients are hostile, so the decoder (``protocol.codec.decode_client``) and the
server's read loop are fed what no well-behaved client sends. ``corpus(seed,
count)`` yields ``count`` frames as ``Fuzzed(family, frame)``; the same seed
always gives the same frames in the same order, so a failure is reproduced
from its seed and index alone (``python -m bench.fuzz`` prints both).

Families (``FAMILIES``, drawn with equal weight):

- ``random_bytes``: random bytes, often opening like a msgpack map.
- ``truncated``, ``bit_flip``, ``byte_edit``: valid frames of every request
  type (built with ``protocol.client.Requests``, encoded with ``codec.encode``)
  cut short, with bits flipped, or with bytes inserted, deleted, replaced by
  msgpack markers, repeated, spliced from two frames or followed by another.
- ``wrong_top_level``: one msgpack value that is not a map, or several values.
- ``wrong_type``: a field (``type`` and ``id`` too, in an action or options as
  well) set to a value of another type: binary, ext types, timestamps, maps,
  lists, floats, nil...
- ``extreme_value``: a field set to an extreme of its own kind: 64-bit bounds,
  negative ids, integers wider than 64 bits (which msgpack cannot carry: they
  travel as an ext value or as an integer marker with too many bytes), NaN and
  infinities (float32 and float64), long, empty, control, bidi and invalid
  UTF-8 strings, binary where a string is expected.
- ``nesting``: lists and maps nested around the depth limit, far past it, and
  past msgpack's own stack limit.
- ``raw_map``: maps msgpack's packer would never write: keys of every other
  type (integers, nil, floats, binary, ext, lists, maps), duplicate keys, and
  map headers that promise more or fewer entries than follow.
- ``unknown_type``: server types, near misses and nonsense in ``type``.
- ``fields``: unknown fields added, required fields taken away.
- ``text``: text frames (``str``), of JSON, nonsense or nothing.
- ``tiny``: the empty frame and one- or two-byte frames.
- ``oversize``: frames from 1 to 64 bytes over ``max_frame``.
- ``hostile_request``: well-formed requests with hostile values that the
  server refuses on a connection before ``hello``, in the lobby, seated in a
  game under way (of ``game``) or watching it: unknown card codes, actions of
  another game, lists of 1,000 cards, rooms and reservations that do not
  exist, record ids that are not one, table options out of range, decks of
  other games...
- ``hostile_hello``: well-formed handshakes with hostile values (versions at
  the 64-bit bounds, huge ``last_seq``, unknown resume tokens, odd names);
  some of them the server accepts, so they are kept out of read-loop runs
  that expect only errors.

Most frames of every family but the two last are refused by the decoder; a
few mutations happen to stay valid (a flipped bit in a name), which is fine:
the decoder must then return a message, never raise anything else.
``refused_corpus`` keeps only what a server must refuse on any connection,
and ``NO_LIMITS`` are the server settings under which it answers every one of
them instead of closing the connection.
"""

from __future__ import annotations

import functools
import json
import random
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import msgpack

from cardavia.games.cards import ALL_CARDS, Card
from cardavia.games.errors import CardaviaError
from cardavia.games.registry import GAMES
from cardavia.games.traditions import TRADITIONS
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import MAX_CLIENT_FRAME, MAX_DEPTH, decode_client, encode
from cardavia.protocol.errors import ProtocolError


class Fuzzed(NamedTuple):
    """One frame of the corpus and the family that made it."""

    family: str
    frame: bytes | str


@dataclass(frozen=True, slots=True)
class Raw:
    """Bytes spliced into a frame as they are: msgpack that ``msgpack.packb`` would never write."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Pairs:
    """A map written pair by pair, so that keys may be of any type and may repeat."""

    items: tuple[tuple[Any, Any], ...]


_PACKER: Final = msgpack.Packer(use_bin_type=True, autoreset=True, datetime=False)


def pack_any(value: Any) -> bytes:
    """``value`` as msgpack, with ``Raw`` bytes and ``Pairs`` maps written as they are."""
    try:
        return msgpack.packb(value, use_bin_type=True)
    except (TypeError, ValueError, OverflowError):
        out = bytearray()
        _emit(value, out)
        return bytes(out)


def _emit(value: Any, out: bytearray) -> None:
    if isinstance(value, Raw):
        out += value.data
    elif isinstance(value, Pairs | dict):
        items = value.items if isinstance(value, Pairs) else tuple(value.items())
        out += _PACKER.pack_map_header(len(items))
        for key, item in items:
            _emit(key, out)
            _emit(item, out)
    elif isinstance(value, list):
        out += _PACKER.pack_array_header(len(value))
        for item in value:
            _emit(item, out)
    else:
        out += _PACKER.pack(value)


# ------------------------------------------------------------ valid requests
CLIENT_TYPE_NAMES: Final = tuple(t.model_fields["type"].default for t in m.CLIENT_TYPES)
SERVER_TYPE_NAMES: Final = tuple(t.model_fields["type"].default for t in m.SERVER_TYPES)


@functools.cache
def game_actions() -> dict[str, tuple[dict[str, Any], ...]]:
    """Real actions of every game, in data form: the legal actions along a few seeded random games."""
    found: dict[str, tuple[dict[str, Any], ...]] = {}
    for game_id, game in GAMES.items():
        seen: dict[str, dict[str, Any]] = {}
        for number in range(3):
            rng = random.Random(f"fuzz-actions/{game_id}/{number}")
            state = game.new(None, f"fuzz/{game_id}/{number}")
            for _ in range(40):
                seat = state.to_move
                if seat is None:
                    break
                legal = state.legal_actions(seat)
                for action in rng.sample(legal, min(len(legal), 6)):
                    data = action.to_data()
                    seen.setdefault(json.dumps(data, sort_keys=True), data)
                state, _ = state.apply(legal[rng.randrange(len(legal))], seat=seat)
        found[game_id] = tuple(seen.values())
    return found


@functools.cache
def valid_requests() -> tuple[m.Request, ...]:
    """Valid requests of every client type, with the variety of values real clients send."""
    req = Requests()
    games = sorted(GAMES)
    requests: list[m.Request] = [
        req.hello("Anna"),
        req.hello("Bo", lang="sv", resume="Zt0q9V3cMx2Jm1yQ"),
        req.hello("Łukasz Żółć", lang="pl"),
        req.hello("王小明", lang="zh-TW").model_copy(update={"last_seq": 17}),
        req.hello("n" * 32, lang="nb"),
        req.get_catalogue(),
        req.list_rooms(),
        req.list_rooms("briscola", limit=1),
        req.list_rooms("doudizhu", limit=200),
        req.join(room="r-7f3a9c0b1d"),
        req.join(code="KX4PQ7MZ"),
        m.JoinRoom(id=req.next_id(), reservation="rsv-" + "a" * 24),
        req.start(),
        req.leave(),
        req.rematch(),
        req.resync(),
        req.spectate(room="r-7f3a9c0b1d"),
        req.spectate(code="KX4P-Q7MZ"),
        req.get_record("r-7f3a9c0b1d-1"),
        req.chat("Bella scopa!"),
        req.chat("ok"),
        req.chat("ß" * 200),
        req.hello("Anna", player="q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u"),
        req.hello("Bo", player="x" * 128),
        req.create_profile("Anna"),
        req.create_profile("Ladder bot", bot=True),
        req.rename_profile("Åsa"),
        req.new_transfer_code(),
        req.redeem_transfer_code("k7mq-2xpr-4t"),
        req.delete_profile(),
        req.get_history(),
        req.get_history("p-5c0a9e1f2b3d4c6e", limit=50, before="r-7f3a9c0b1d-1"),
        req.get_replay("r-7f3a9c0b1d-1"),
    ]
    for game_id in games:
        game = GAMES[game_id]
        decks = [t.id for t in TRADITIONS.values() if game_id in t.games]
        requests += [
            req.quick_match(game_id),
            req.quick_match(game_id, rated=False),
            req.get_leaderboard(game_id),
            req.get_leaderboard(game_id, limit=100),
            req.play_now(game_id),
            req.play_now(game_id, rated=True),
            req.play_now(game_id, "random"),
            m.PlayNow.model_validate(
                {
                    "id": req.next_id(),
                    "game": game_id,
                    "deck": decks[-1],
                    "options": dict(game.default_options),
                }
            ),
            req.create_room(game_id),
            req.create_room(
                game_id,
                deck=decks[0],
                options=dict(game.default_options),
                public=False,
                humans=game.players,
                bot_level="random",
                turn_seconds=30.0,
                fill_after=10.0,
            ),
        ]
        requests += [req.act(action) for action in game_actions()[game_id][:12]]
    return tuple(requests)


@functools.cache
def _bases() -> tuple[tuple[dict[str, Any], ...], tuple[bytes, ...]]:
    """Every valid request as its wire map and as its frame."""
    frames = tuple(encode(r) for r in valid_requests())
    return tuple(msgpack.unpackb(f) for f in frames), frames


# ----------------------------------------------------------- hostile values
_UNKNOWN_CODES: Final = (
    "1D", "ZZ", "", " ", "7X", "11H", "AA", "BJJ", "7D7D", "10", "D7", "??", "\x00", "7\x00D",
    "🂡", "\uff17\uff24", "XJ", "0S", "1" * 40, "7D,3S", "null", "[]",
)  # fmt: skip
"""Strings that name no card, whatever case or spacing (``Card.parse`` refuses each)."""

_STRINGS: Final = (
    "", " ", "\t\n", "\x00", "\x1b[2J", "\u202e", "\u200b", "\ufeff", "\u2028", "\ud7ff", "\U0010ffff",
    "🂡" * 8, "é" * 64, "Ω", "NaN", "null", "-1", "9" * 40, "__class__", "model_config",
    "\u034f", "a\u034fb", "\u115f", "\u1160", "\u3164", "\uffa0", "a" + "\u0301" * 150,
    "e\u0301\u0302\u0303\u0304\u0305",
)  # fmt: skip
"""Values for any field: controls, direction and zero-width marks, invisible fillers (U+034F, the
Hangul fillers), stacked combining marks, long and four-byte text, and names of Python internals."""

_INTS: Final = (
    -1, -2, -(2**31), -(2**63), 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 0, 1, 3, 4,
    127, 128, 255, 256, 65535, 65536,
)  # fmt: skip

_FLOATS: Final = (
    float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 5e-324, 1.7976931348623157e308, -1e308, 0.5, 1e-9,
    2.0**64,
)  # fmt: skip

_FLOAT32: Final = (
    *(Raw(b"\xca" + struct.pack(">f", x)) for x in (float("nan"), float("inf"), float("-inf"), -0.0)),
    Raw(b"\xca\x7f\xa0\x00\x01"),  # NaNs with a payload, as 32 and 64 bits
    Raw(b"\xcb\x7f\xf0\x00\x00\x00\x00\x00\x01"),
)
"""NaN and infinities as 32-bit floats, and NaNs with payloads: the packer writes none of them."""

_BAD_UTF8: Final = (
    Raw(b"\xa3\xed\xa0\x80"),  # a UTF-8 encoded surrogate
    Raw(b"\xa2\xc0\xaf"),  # an overlong '/'
    Raw(b"\xa1\xff"),
    Raw(b"\xa4\xf4\x90\x80\x80"),  # past U+10FFFF
    Raw(b"\xa2\xe2\x82"),  # a cut sequence
    Raw(b"\xd9\x03ab"),  # str 8 whose length runs past the end
)


def big_int(rng: random.Random) -> Raw:
    """An integer wider than 64 bits, as a client could try to send one in msgpack (which has none)."""
    value = rng.choice((2**64, 2**64 + 1, 2**100, 10**30, -(2**63) - 1, -(2**80)))
    body = value.to_bytes((value.bit_length() + 8) // 8 + 1, "big", signed=True)
    style = rng.randrange(3)
    if style == 0:  # the uint64 marker with more bytes than 8: what follows is garbage
        return Raw(b"\xcf" + body)
    if style == 1:  # a "bigint" ext, as some msgpack libraries write them
        return Raw(pack_any(msgpack.ExtType(rng.choice((0, 1, 2, 0x7F)), body)))
    return Raw(pack_any(str(value).encode()))  # its digits as binary


def _ext(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        data = rng.randbytes(rng.choice((0, 1, 2, 4, 8, 16, 40)))
        code = rng.randrange(-128, 128)  # negative codes are reserved (-1: timestamps)
        return Raw(b"\xc7" + bytes((len(data), code & 0xFF)) + data)
    if kind == 1:
        return msgpack.Timestamp(rng.choice((0, -1, 2**31, 2**34 - 1, 2**62, -(2**62))), rng.randrange(10**9))
    if kind == 2:  # timestamps of sizes the format does not have, or nanoseconds out of range
        return Raw(rng.choice((b"\xd4\xff\x00", b"\xd5\xff\x00\x00", b"\xc7\x05\xff" + bytes(5))))
    if kind == 3:
        return Raw(b"\xd7\xff" + b"\xff" * 8)
    if kind == 4:
        return Raw(b"\xc7\x0c\xff" + (2**31).to_bytes(4, "big") + bytes(8))
    return Raw(b"\xc9" + (rng.randrange(2**32)).to_bytes(4, "big") + b"\x05")  # ext 32 running past the end


def hostile_value(rng: random.Random, depth: int = 0) -> Any:
    """A value of any msgpack type, leaning to the ones a field never holds."""
    kind = rng.randrange(16)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice(_INTS)
    if kind == 3:
        return big_int(rng)
    if kind == 4:
        return rng.choice(_FLOATS)
    if kind == 5:
        return rng.choice(_FLOAT32)
    if kind == 6:
        return rng.choice(_STRINGS)
    if kind == 7:
        return rng.choice(_BAD_UTF8)
    if kind == 8:
        return rng.randbytes(rng.choice((0, 1, 2, 8, 32)))
    if kind == 9:
        return rng.choice(_UNKNOWN_CODES).encode()  # binary where a string is expected
    if kind == 10:
        return _ext(rng)
    if kind == 11 and depth < 3:
        return [hostile_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 12 and depth < 3:
        return {rng.choice(("play", "type", "id", "", "x")): hostile_value(rng, depth + 1)}
    if kind == 13:
        return [rng.choice(ALL_CARDS).code] * rng.choice((2, 100, 1000))
    if kind == 14:
        return "x" * rng.choice((33, 65, 129, 201, 1000, 3000))
    return rng.choice(_UNKNOWN_CODES)


def extreme_value(rng: random.Random, current: Any) -> Any:
    """A value of the same kind as ``current`` (or a related one) at or past its limits."""
    if isinstance(current, bool):
        return rng.choice((0, 1, "true", None, Raw(b"\xc1")))
    if isinstance(current, int):
        return big_int(rng) if rng.random() < 0.2 else rng.choice(_INTS)
    if isinstance(current, float):
        return rng.choice(_FLOAT32) if rng.random() < 0.3 else rng.choice(_FLOATS)
    if isinstance(current, str):
        pick = rng.randrange(6)
        if pick == 0:
            return current.encode()  # binary where a string is expected
        if pick == 1:
            return rng.choice(_BAD_UTF8)
        if pick == 2:
            return rng.choice("x🂡\u202e\x00é ") * rng.choice((0, 33, 65, 129, 201, 1300))
        if pick == 3:
            return current + rng.choice(_STRINGS)
        return rng.choice(_STRINGS)
    if isinstance(current, list):
        return [rng.choice(ALL_CARDS).code for _ in range(rng.choice((0, 1000, 1300)))]
    if isinstance(current, dict):
        return {f"k{i}": i for i in range(rng.choice((0, 9, 50, 300)))}
    return hostile_value(rng)


# ----------------------------------------------------------------- mutations
def _base(rng: random.Random) -> dict[str, Any]:
    """A valid request's wire map (a copy, with nested maps copied too) with a random id."""
    maps, _ = _bases()
    base = {k: dict(v) if isinstance(v, dict) else v for k, v in rng.choice(maps).items()}
    base["id"] = rng.randrange(2**31)
    return base


def _frame(rng: random.Random) -> bytes:
    _, frames = _bases()
    return rng.choice(frames)


def _field_path(rng: random.Random, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A map and one of its keys: a top-level field, or one in the action or options map."""
    nested = [v for v in data.values() if isinstance(v, dict) and v]
    if nested and rng.random() < 0.4:
        inner: dict[str, Any] = rng.choice(nested)
        return inner, rng.choice(sorted(inner))
    return data, rng.choice(sorted(data))


def random_bytes(rng: random.Random, ctx: _Context) -> bytes:
    size = rng.choice((1, 2, 3, 5, 8, 16, 32, 64, 200, 1000))
    data = bytearray(rng.randbytes(rng.randrange(1, size + 1)))
    if rng.random() < 0.5:
        data[0] = 0x80 | rng.randrange(16)  # a fixmap header, so the parser goes further
    return bytes(data)


def truncated(rng: random.Random, ctx: _Context) -> bytes:
    frame = _frame(rng)
    return frame[: rng.randrange(len(frame))]


def bit_flip(rng: random.Random, ctx: _Context) -> bytes:
    data = bytearray(_frame(rng))
    for _ in range(rng.choice((1, 1, 1, 2, 3, 8))):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


_MARKERS: Final = bytes(
    (0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC7, 0xC9, 0xCA, 0xCB, 0xCF, 0xD3, 0xD4, 0xD8, 0xD9, 0xDB, 0xDC, 0xDD,
     0xDE, 0xDF, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xFF, 0x7F, 0x00)
)  # fmt: skip
"""msgpack type bytes: nil, the never-used 0xc1, containers, 32-bit lengths, ext, floats..."""


def byte_edit(rng: random.Random, ctx: _Context) -> bytes:
    frame = _frame(rng)
    at = rng.randrange(len(frame) + 1)
    edit = rng.randrange(6)
    if edit == 0:
        return frame[:at] + rng.randbytes(rng.randrange(1, 9)) + frame[at:]
    if edit == 1:
        return frame[:at] + frame[at + rng.randrange(1, 9) :]
    if edit == 2:
        return frame[:at] + bytes((rng.choice(_MARKERS),)) + frame[at + 1 :]
    if edit == 3:
        span = frame[at : at + rng.randrange(1, 17)]
        return frame[:at] + span * rng.randrange(2, 5) + frame[at:]
    if edit == 4:
        other = _frame(rng)
        return frame[:at] + other[rng.randrange(len(other)) :]
    return frame + rng.choice((_frame(rng), b"\xc0", b"\x00", frame))  # extra values after the map


def wrong_top_level(rng: random.Random, ctx: _Context) -> bytes:
    kind = rng.randrange(10)
    if kind == 0:
        return pack_any([_base(rng)])
    if kind == 1:
        return pack_any(rng.choice((None, True, False, 0, -1, 2**64 - 1, 1.5, float("nan"))))
    if kind == 2:
        return pack_any(rng.choice(("hello", "", '{"type": "hello"}', "\x81\xa4type")))
    if kind == 3:
        return pack_any(_frame(rng))  # a valid frame wrapped as binary
    if kind == 4:
        return pack_any(_ext(rng))
    if kind == 5:
        return pack_any([])
    if kind == 6:
        return pack_any(big_int(rng))
    if kind == 7:
        return pack_any([_frame(rng), _frame(rng)])
    if kind == 8:
        return pack_any(rng.choice(_FLOAT32))
    return pack_any(list(_base(rng).items()))  # the map's pairs as a list


def wrong_type(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    where, key = _field_path(rng, data)
    where[key] = hostile_value(rng)
    return pack_any(data)


def extreme(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    where, key = _field_path(rng, data)
    where[key] = extreme_value(rng, where[key])
    return pack_any(data)


def _nested(rng: random.Random, depth: int) -> Any:
    value: Any = rng.choice((None, 1, "7D", []))
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {rng.choice(("a", "play", "type")): value}
    return value


def nesting(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    kind = rng.randrange(4)
    if kind == 3:  # past msgpack's own stack limit, inside a map
        depth = rng.choice((1025, 2000, 3000))
        where, key = _field_path(rng, data)
        where[key] = Raw(rng.choice((b"\x91", b"\x81\xa1a")) * depth + b"\xc0")
        return pack_any(data)
    depth = rng.choice((MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 4, 30, 200))
    if kind == 0:
        where, key = _field_path(rng, data)
        where[key] = _nested(rng, depth)
        return pack_any(data)
    if kind == 1:
        return pack_any(_nested(rng, depth))
    data[rng.choice(("x", "action", "options"))] = _nested(rng, depth)
    return pack_any(data)


_ODD_KEYS: Final = (
    0, 1, -1, 2**64 - 1, None, True, False, 1.5, float("nan"), b"type", b"id", b"", msgpack.ExtType(1, b"t"),
    msgpack.Timestamp(0, 0), Raw(b"\x91\xa4type"), Raw(b"\x81\xa4type\xa5hello"), Raw(b"\x90"), Raw(b"\x80"),
    Raw(b"\xa3\xed\xa0\x80"),
)  # fmt: skip


def raw_map(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    items: list[tuple[Any, Any]] = list(data.items())
    kind = rng.randrange(5)
    if kind == 0:  # a key of another type, added or in place of a real one
        key = rng.choice(_ODD_KEYS)
        if rng.random() < 0.5:
            at = rng.randrange(len(items))
            items[at] = (key, items[at][1])
        else:
            items.insert(rng.randrange(len(items) + 1), (key, hostile_value(rng)))
        return pack_any(Pairs(tuple(items)))
    if kind == 1:  # a key twice, the second time with another value
        key = rng.choice(items)[0]
        value: Any = rng.choice((hostile_value(rng), rng.choice(CLIENT_TYPE_NAMES), rng.randrange(2**31)))
        items.insert(rng.randrange(len(items) + 1), (key, value))
        return pack_any(Pairs(tuple(items)))
    if kind == 2:  # the whole message twice over, or two messages' fields in one map
        other = list(_base(rng).items())
        return pack_any(Pairs(tuple(items + (items if rng.random() < 0.5 else other))))
    body = b"".join(pack_any(k) + pack_any(v) for k, v in items)
    declared = len(items) + rng.choice((-2, -1, 1, 2, 100))
    if kind == 3 and declared >= 0:
        return _PACKER.pack_map_header(declared) + body
    header = rng.choice((b"\xde\xff\xff", b"\xdf\xff\xff\xff\xff", b"\xdf\x00\x00\x00\x01", b"\xde\x00\x00"))
    return header + body


def unknown_type(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    name = str(data["type"])
    kind = rng.randrange(6)
    if kind == 0:
        data["type"] = rng.choice(SERVER_TYPE_NAMES)
    elif kind == 1:
        data["type"] = rng.choice(
            (name.upper(), name.title(), " " + name, name + " ", name + "\x00", name[:-1])
        )
    elif kind == 2:
        data["type"] = rng.choice(("", "Hello", "HELLO", "get-catalogue", "getCatalogue", "ping", "__init__"))
    elif kind == 3:
        data["type"] = "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 50)))
    elif kind == 4:
        data["type"] = name * rng.choice((2, 100))
    else:
        data["type"] = rng.choice(("act", "chat", "hello")) + rng.choice(("_", "s", "2", "\u200b"))
    return pack_any(data)


_FIELD_NAMES: Final = (
    "x", "", " ", "Type", "ID", "id ", "__class__", "__dict__", "model_config", "model_fields", "action",
    "game", "text", "name", "version", "options", "seat", "room", "resume", "🂡", "a" * 200,
)  # fmt: skip


def fields(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng)
    if rng.random() < 0.3:
        required = [k for k in sorted(data) if k != "id"]
        data.pop(rng.choice(required))
        return pack_any(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        where, _ = _field_path(rng, data)
        name = rng.choice(_FIELD_NAMES)
        if name not in where:
            where[name] = hostile_value(rng) if rng.random() < 0.5 else rng.choice((1, "x", None, True))
    return pack_any(data)


def text(rng: random.Random, ctx: _Context) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return json.dumps(_base(rng))
    if kind == 1:
        return ""
    if kind == 2:
        return _frame(rng).decode("latin-1")
    if kind == 3:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 200)))
    return rng.choice(("hello", "{}", "null", "\x81\xa4type\xa6resync"))


def tiny(rng: random.Random, ctx: _Context) -> bytes:
    kind = rng.randrange(3)
    if kind == 0:
        return rng.choice(
            (b"", b"\x80", b"\xc0", b"\x90", b"\xa0", b"\xc1", b"\x00", b"\xff", b"\x81", b"\x81\xa4")
        )
    return rng.randbytes(kind)


def oversize(rng: random.Random, ctx: _Context) -> bytes:
    size = ctx.max_frame + rng.randint(1, 64)
    kind = rng.randrange(4)
    if kind == 0:  # a well-formed map padded to the size with an unknown field
        data = _base(rng)
        head = pack_any({**data, "pad": ""})
        pad = size - len(head)
        for extra in range(4):  # a longer string needs a longer length header
            frame = pack_any({**data, "pad": "p" * (pad - extra)})
            if len(frame) == size:
                return frame
        return frame
    if kind == 1:
        return rng.randbytes(size)
    if kind == 2:  # too big and too deep
        return b"\x91" * (size - 1) + b"\xc0"
    data = _base(rng)  # a valid map followed by padding
    frame = pack_any(data)
    return frame + bytes(max(0, size - len(frame)))


# ---------------------------------------------------------- hostile requests
class _Context:
    """What families share in one corpus: the frame limit and the game a seated client plays."""

    __slots__ = ("foreign", "game", "max_frame", "own")

    def __init__(self, max_frame: int, game: str) -> None:
        self.max_frame = max_frame
        self.game = game
        actions = game_actions()
        self.own = actions[game]
        refused: list[dict[str, Any]] = []
        for other, found in actions.items():
            if other != game:
                refused += [a for a in found if _refused(game, a)]
        self.foreign = tuple(refused)
        """Actions of other games that ``game`` refuses whatever its state (its form differs)."""


def _refused(game: str, action: dict[str, Any]) -> bool:
    try:
        GAMES[game].action_from_data(action)
    except CardaviaError:
        return True
    return False


def _is_card(code: str) -> bool:
    try:
        Card.parse(code)
    except CardaviaError:
        return False
    return True


def _unknown_code(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(_UNKNOWN_CODES)
    while True:
        code = "".join(
            rng.choice("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ?* ") for _ in range(rng.randrange(1, 5))
        )
        if not _is_card(code):
            return code


def _bad_card_action(rng: random.Random, ctx: _Context) -> dict[str, Any]:
    """One of the game's own actions with a card code replaced by one that names no card."""
    with_cards = [a for a in ctx.own if any(isinstance(v, str | list) and v for v in a.values())]
    action = dict(rng.choice(with_cards))
    key = rng.choice(sorted(k for k, v in action.items() if isinstance(v, str | list) and v))
    value = action[key]
    if isinstance(value, list):
        cards = list(value)
        cards[rng.randrange(len(cards))] = _unknown_code(rng)
        action[key] = cards
    elif _is_card(value):
        action[key] = _unknown_code(rng)
    else:  # a combination's name (Dou Dizhu): an unknown one
        action[key] = rng.choice(("", "straight_flush", "PAIR", "bomb " * 3, "🂡"))
    return action


def _long_list_action(rng: random.Random, ctx: _Context) -> dict[str, Any]:
    """One of the game's own actions with a field made a list of 1,000 card codes (the whole deck over)."""
    action = dict(rng.choice(ctx.own))
    codes = [c.code for c in ALL_CARDS]
    start = rng.randrange(len(codes))
    action[rng.choice(sorted(action))] = [codes[(start + i) % len(codes)] for i in range(1000)]
    return action


def _odd_action(rng: random.Random, ctx: _Context) -> dict[str, Any]:
    """One of the game's own actions with a field of the wrong kind, a field too many, or none."""
    for _ in range(20):
        action = dict(rng.choice(ctx.own))
        kind = rng.randrange(4)
        if kind == 0:
            action[rng.choice(sorted(action))] = rng.choice((2**64 - 1, -(2**63), -1, True, False, [], ""))
        elif kind == 1:
            action[rng.choice(("chicken", "seat", "capture_all", "Play", "bid", "pass", "cards"))] = "7D"
        elif kind == 2:
            action = {}
        else:
            action = {rng.choice(("play", "bid", "pass", "combo", "exchange", "close")): rng.choice(_INTS)}
        if _refused(ctx.game, action):
            return action
    return {"chicken": "7D"}


_ROOM_REFS: Final = (
    "r-", "r-zzzzzzzzzz", "r-0000000000000000", "../r-1", "R-7F3A", "r-7f3a\x00", "🂡", " ", "%s%s",
    "r-" + "g" * 62, "null", "*",
)  # fmt: skip
_CODES: Final = ("0000", "1111", "IOIO", "kx4p0", "🂡🂡🂡🂡", "----", "    ", "0" * 12, "ABCD-EFG1", "o0o0o0")
"""Room codes none of which can name a room: each holds a character codes never have (0, 1, I, O)."""
_RECORD_IDS: Final = (
    "../../etc/passwd", "r-1-1.jsonl", "con", "nul", ".", "..", "-", "rec-0", "r-zz-99", "٣٣٣",
    "a/b", "a\\b", "%2e%2e", "x" * 64, "r-1 1", "\x00", "\u0663" * 64, "\U0001d7d8" * 64,
)  # fmt: skip
"""Record ids that name no record: paths, device names, digits of other scripts, and digits that
take four bytes each in UTF-8 (64 of them make a file name longer than file systems allow)."""
_DECKS: Final = ("poker", "BOLOGNESE", "french", "🂡", "x" * 32)


def _bad_table(rng: random.Random, game_id: str) -> dict[str, Any]:
    """Table settings ``game_id`` refuses: bad options, a deck it is not played with, too many people."""
    game = GAMES[game_id]
    kind = rng.randrange(3)
    if kind == 0:
        decks = [t.id for t in TRADITIONS.values() if game_id not in t.games]
        return {"deck": rng.choice((*_DECKS, *decks))}
    if kind == 1 and game.players < 3:
        return {"humans": rng.randint(game.players + 1, 3)}
    while True:
        name = rng.choice((*sorted(game.default_options), "target", "deals", "x", "", "__class__", "🂡"))
        options = {name: rng.choice((*_INTS, True, False, "11", "", "x" * 40))}
        try:
            game.options(options)
        except CardaviaError:
            return {"options": options}


def hostile_request(rng: random.Random, ctx: _Context) -> bytes:
    req = Requests(start=rng.randrange(2**31 - 10))
    kind = rng.randrange(11)
    message: m.Request
    if kind <= 3:
        make = (_bad_card_action, _long_list_action, _odd_action)[min(kind, 2)]
        action = rng.choice(ctx.foreign) if kind == 3 else make(rng, ctx)
        message = req.act(action)
    elif kind == 4:
        room = rng.choice(_ROOM_REFS) if rng.random() < 0.7 else None
        code = rng.choice(_CODES) if room is None or rng.random() < 0.3 else None
        message = req.join(room=room, code=code)
    elif kind == 5:
        message = m.JoinRoom(id=req.next_id(), reservation=rng.choice(("rsv-", "rsv-" + "x" * 24, "", "🂡")))
    elif kind == 6:
        room = rng.choice(_ROOM_REFS) if rng.random() < 0.7 else None
        message = req.spectate(room=room, code=rng.choice(_CODES) if room is None else None)
    elif kind == 7:
        message = req.get_record(rng.choice(_RECORD_IDS))
    elif kind == 8:
        game_id = rng.choice(sorted(GAMES))
        table = _bad_table(rng, game_id)
        if "humans" in table or rng.random() < 0.5:
            message = req.create_room(game_id, **table)
        else:
            message = m.PlayNow.model_validate({"id": req.next_id(), "game": game_id, **table})
    elif kind == 9:
        message = req.start()
    else:
        message = req.rematch()
    return encode(message)


_NAMES: Final = (
    "Anna", " Anna ", "a", "A" * 32, "\u202eannA", "Ω\u0301" * 16, "🂡", "x\u200db", "\u3164", "A\u034fnna",
)  # fmt: skip
"""Names for a hostile ``hello``: fine ones, and ones with marks a name may not carry."""


def hostile_hello(rng: random.Random, ctx: _Context) -> bytes:
    data = _base(rng) if rng.random() < 0.2 else {"type": "hello", "id": rng.randrange(2**31)}
    if data["type"] != "hello":
        data = {"type": "hello", "id": data["id"]}
    data["version"] = rng.choice((2, 2, 0, 1, 3, -1, 2**31, 2**63 - 1, 2**64 - 1, -(2**63)))
    data["name"] = rng.choice(_NAMES)
    if rng.random() < 0.5:
        data["last_seq"] = rng.choice((0, 2**31, 2**63 - 1, 2**64 - 1))
    if rng.random() < 0.5:
        data["resume"] = rng.choice(("", "x", "Zt0q9V3cMx2Jm1yQ", "r" * 128, "🂡" * 128, "\x00"))
    if rng.random() < 0.3:
        data["lang"] = rng.choice(("zz", "en-XX", "xx-yy", "EN", "e", "eng"))
    return pack_any(data)


Family = Callable[[random.Random, _Context], bytes | str]

FAMILIES: Final[dict[str, Family]] = {
    "random_bytes": random_bytes,
    "truncated": truncated,
    "bit_flip": bit_flip,
    "byte_edit": byte_edit,
    "wrong_top_level": wrong_top_level,
    "wrong_type": wrong_type,
    "extreme_value": extreme,
    "nesting": nesting,
    "raw_map": raw_map,
    "unknown_type": unknown_type,
    "fields": fields,
    "text": text,
    "tiny": tiny,
    "oversize": oversize,
    "hostile_request": hostile_request,
    "hostile_hello": hostile_hello,
}

SERVER_ACCEPTS: Final = frozenset({"hostile_hello"})
"""Families whose frames the server may accept (a handshake it answers with ``welcome``)."""

NO_LIMITS: Final[dict[str, Any]] = {
    "abuse_limit": 10**9,
    "rate_per_second": 1e9,
    "rate_burst": 10**9,
    "max_connections_per_ip": 0,
    "sessions_per_minute": 0,
    "failed_lookups_per_minute": 0,
}
"""``ServerConfig`` settings that put every per-connection and per-address limit out of reach, so
that a server answers a long run of bad frames from one connection instead of closing it."""


def corpus(
    seed: int | str,
    count: int,
    *,
    max_frame: int = MAX_CLIENT_FRAME,
    game: str = "scopa",
    families: tuple[str, ...] = tuple(FAMILIES),
) -> Iterator[Fuzzed]:
    """``count`` frames of the chosen families, the same for the same arguments.

    ``max_frame`` is the size limit the frames are made to cross (``oversize``);
    ``game`` is the game a seated client plays, whose own action form the
    ``hostile_request`` acts spoil (and whose refusal of the other games'
    forms is checked).
    """
    rng = random.Random(f"cardavia-fuzz/{seed}")
    ctx = _Context(max_frame, game)
    makers = [(name, FAMILIES[name]) for name in families]
    for _ in range(count):
        name, make = makers[rng.randrange(len(makers))]
        yield Fuzzed(name, make(rng, ctx))


def refusal(frame: bytes | str, max_frame: int = MAX_CLIENT_FRAME) -> tuple[str, int | None] | None:
    """The decoder's code and request id for a frame it refuses; None for a valid request."""
    try:
        decode_client(frame, max_frame)
    except ProtocolError as exc:
        return exc.code, exc.request_id
    return None


def refused_corpus(
    seed: int | str, count: int, *, max_frame: int = MAX_CLIENT_FRAME, game: str = "scopa"
) -> Iterator[Fuzzed]:
    """``count`` frames a server must refuse on any connection: those the decoder refuses, and
    the hostile requests. Mutations that happen to make a valid request are skipped (they are
    requests, not malformed frames), and so are the hostile handshakes (``SERVER_ACCEPTS``)."""
    families = tuple(name for name in FAMILIES if name not in SERVER_ACCEPTS)
    found = 0
    for item in corpus(seed, 2**62, max_frame=max_frame, game=game, families=families):
        if item.family == "hostile_request" or refusal(item.frame, max_frame) is not None:
            yield item
            found += 1
            if found == count:
                return
