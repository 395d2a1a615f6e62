"""The client-side request builders: one for every request type, numbered, valid on the wire."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import decode_client, encode


def every_request(req: Requests) -> list[m.Request]:
    return [
        req.hello("Anna", lang="sv"),
        req.get_catalogue(),
        req.list_rooms("scopa", limit=10),
        req.create_room("briscola", public=False, humans=2),
        req.join(code="KX4P"),
        req.quick_match("schnapsen"),
        req.play_now("doudizhu", bot_level="strong"),
        req.leave(),
        req.start(),
        req.rematch(),
        req.act({"play": "7D", "capture": ["3S", "4C"]}),
        req.resync(),
        req.spectate(room="r-7f3a"),
        req.chat("Bella scopa!"),
        req.get_rules("scopa", "pl"),
        req.get_record("r-7f3a-1"),
        req.create_profile("Anna"),
        req.rename_profile("Anna B."),
        req.new_transfer_code(),
        req.redeem_transfer_code("K7MQ2XPR4T"),
        req.delete_profile(),
        req.get_leaderboard("briscola", limit=5),
        req.get_history(limit=10),
        req.get_replay("r-7f3a-1"),
    ]


def test_every_request_type_has_a_builder_and_ids_count_up() -> None:
    built = every_request(Requests(start=10))
    assert {b.type for b in built} == {t.model_fields["type"].default for t in m.CLIENT_TYPES}
    assert [b.id for b in built] == list(range(10, 10 + len(built)))
    for message in built:
        assert decode_client(encode(message)) == message


def test_the_handshake_speaks_this_protocol_version() -> None:
    assert Requests().hello("Anna").version == m.PROTOCOL_VERSION


def test_profile_builders_carry_their_fields() -> None:
    req = Requests()
    assert req.hello("Anna", player="k" * 32).player == "k" * 32
    assert req.create_profile("Ladder", bot=True).bot is True
    assert req.quick_match("scopa", rated=True).rated is True
    assert req.play_now("briscola", rated=True).rated is True
    assert req.get_history("p-5c0a9e1f2b3d4c6e", before="r-1-2").before == "r-1-2"
    with pytest.raises(ValidationError):
        req.get_leaderboard("scopa", limit=0)
    with pytest.raises(ValidationError):
        req.redeem_transfer_code("K7")


def test_builders_validate_what_they_build() -> None:
    with pytest.raises(ValidationError):
        Requests().list_rooms("chess")
    with pytest.raises(ValidationError):
        Requests().chat("")
