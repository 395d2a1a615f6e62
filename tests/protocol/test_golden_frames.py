"""Golden frames: the exact bytes of one example of every message, checked both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, decode_server, encode, encode_delta
from cardavia.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES, VARIANT_EXAMPLES

GOLDEN_FILE = Path(__file__).parent / "golden_frames.json"
GOLDEN = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))


def golden_frames() -> dict[str, str]:
    """Every example's frame in hex, by type (and ``<type>.<what>`` for the variants)."""
    frames = {e.type: encode(e).hex() for e in [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]}
    frames.update({name: encode(e).hex() for name, e in VARIANT_EXAMPLES.items()})
    return frames


def test_every_message_type_has_an_example_and_a_golden_frame() -> None:
    client = {t.model_fields["type"].default for t in m.CLIENT_TYPES}
    server = {t.model_fields["type"].default for t in m.SERVER_TYPES}
    assert {e.type for e in CLIENT_EXAMPLES} == client
    assert {e.type for e in SERVER_EXAMPLES} == server
    assert set(GOLDEN) == client | server | set(VARIANT_EXAMPLES)
    assert {name.split(".")[0] for name in VARIANT_EXAMPLES} <= client | server


@pytest.mark.parametrize("name", sorted(VARIANT_EXAMPLES))
def test_variant_golden_frames(name: str) -> None:
    example = VARIANT_EXAMPLES[name]
    frame = bytes.fromhex(GOLDEN[name])
    assert encode(example) == frame
    decode = decode_client if isinstance(example, m.Request) else decode_server
    assert decode(frame) == example


@pytest.mark.parametrize("example", CLIENT_EXAMPLES, ids=lambda e: e.type)
def test_client_golden_frames(example: m.Request) -> None:
    frame = bytes.fromhex(GOLDEN[example.type])
    assert encode(example) == frame
    assert decode_client(frame) == example


@pytest.mark.parametrize("example", SERVER_EXAMPLES, ids=lambda e: e.type)
def test_server_golden_frames(example: m.Reply) -> None:
    frame = bytes.fromhex(GOLDEN[example.type])
    assert encode(example) == frame
    assert decode_server(frame) == example


def test_a_frame_assembled_by_hand() -> None:
    # fixmap(2) "id" 12 "type" "resync": what a client in any language would send
    frame = b"\x82\xa2id\x0c\xa4type\xa6resync"
    assert decode_client(frame) == m.Resync(id=12)
    assert encode(m.Resync(id=12)) == frame
    # key order does not matter on input
    assert decode_client(b"\x82\xa4type\xa6resync\xa2id\x0c") == m.Resync(id=12)
    # a delta with no events leaves the field out: fixmap(3) "type" "delta" "seq" 7 "ops" [0, 4, 1]
    delta = b"\x83\xa4type\xa5delta\xa3seq\x07\xa3ops\x93\x00\x04\x01"
    assert encode(m.Delta(seq=7, ops=[0, 4, 1])) == delta == encode_delta(7, [0, 4, 1], [])
    assert decode_server(delta) == m.Delta(seq=7, ops=[0, 4, 1], events=[])


def test_the_servers_delta_fast_path_gives_the_golden_frame() -> None:
    example = next(e for e in SERVER_EXAMPLES if isinstance(e, m.Delta))
    frame = encode_delta(example.seq, example.ops, example.events)
    assert frame == bytes.fromhex(GOLDEN["delta"])
    assert decode_server(frame) == example


if __name__ == "__main__":  # python -m tests.protocol.test_golden_frames: write the file anew
    fresh = golden_frames()
    ordered = {name: fresh[name] for name in GOLDEN if name in fresh} | fresh  # new names last
    GOLDEN_FILE.write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")
