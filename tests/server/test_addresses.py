"""Which address a connection is counted under, and what an address may do (server/limits.py)."""

from __future__ import annotations

import pytest
from websockets.datastructures import Headers

from cardavia.server import limits as limits_module
from cardavia.server.limits import (
    REFUSALS_AT_ONCE,
    UNKNOWN_ADDRESS,
    AddressLimits,
    client_address,
    parse_networks,
)

PROXIES = parse_networks("10.0.0.0/8, 127.0.0.1, fd00::/8")


def test_without_trusted_proxies_the_peer_is_the_client_whatever_the_headers_say() -> None:
    headers = Headers({"X-Forwarded-For": "203.0.113.9"})
    assert client_address("198.51.100.4", headers, ()) == "198.51.100.4"
    assert client_address("198.51.100.4", headers, PROXIES) == "198.51.100.4"  # an untrusted peer


@pytest.mark.parametrize(
    ("forwarded_for", "client"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("198.51.100.1, 203.0.113.9", "203.0.113.9"),  # the client wrote the first hop itself
        ("203.0.113.9, 10.1.2.3", "203.0.113.9"),  # a second trusted proxy in the chain
        ("10.9.9.9, 10.1.2.3", "10.9.9.9"),  # nothing but proxies: the farthest one
        ("203.0.113.9:51000", "203.0.113.9"),
        ("not-an-address, 203.0.113.9", "203.0.113.9"),
        ("203.0.113.9, garbage", "10.0.0.2"),  # an unreadable hop: the last trusted address
    ],
)
def test_behind_trusted_proxies_the_chain_is_read_from_the_right(forwarded_for: str, client: str) -> None:
    assert client_address("10.0.0.2", Headers({"X-Forwarded-For": forwarded_for}), PROXIES) == client


def test_repeated_forwarded_for_headers_are_one_chain() -> None:
    headers = Headers()
    headers["X-Forwarded-For"] = "198.51.100.1"
    headers["X-Forwarded-For"] = "203.0.113.9"
    assert client_address("127.0.0.1", headers, PROXIES) == "203.0.113.9"


def test_the_standard_forwarded_header_is_read_when_there_is_no_x_forwarded_for() -> None:
    headers = Headers({"Forwarded": 'for=198.51.100.1;proto=https, for="[2001:db8:cafe:1::17]:4711"'})
    assert client_address("127.0.0.1", headers, PROXIES) == "2001:db8:cafe:1::/64"


def test_ipv6_clients_are_counted_by_their_64_and_mapped_ipv4_as_ipv4() -> None:
    assert client_address("2001:db8:1:2:aaaa::1", Headers(), ()) == "2001:db8:1:2::/64"
    assert client_address("2001:db8:1:2:bbbb::9", Headers(), ()) == "2001:db8:1:2::/64"
    assert client_address("::ffff:203.0.113.9", Headers(), ()) == "203.0.113.9"
    assert client_address(None, Headers(), ()) == UNKNOWN_ADDRESS


def test_a_bad_trusted_proxy_entry_is_named() -> None:
    with pytest.raises(ValueError, match=r"'10\.0\.0\.300' is not an IP address or network"):
        parse_networks("127.0.0.1,10.0.0.300")


def test_connections_are_counted_while_open_and_the_table_forgets_an_idle_address() -> None:
    limits = AddressLimits(max_connections=2, sessions_per_minute=0, lookups_per_minute=0)
    assert limits.connect("a")
    assert limits.connect("a")
    assert not limits.connect("a")
    assert limits.connect("b")
    limits.disconnect("a")
    assert limits.connect("a")
    for _ in range(2):
        limits.disconnect("a")
    limits.disconnect("b")
    assert limits.sizes()["address_connections"] == 0


def test_refusals_are_bounded_per_address_and_forgotten_when_they_end() -> None:
    limits = AddressLimits(max_connections=1, sessions_per_minute=0, lookups_per_minute=0)
    assert [limits.begin_refusal("a") for _ in range(REFUSALS_AT_ONCE + 1)] == [True] * REFUSALS_AT_ONCE + [
        False
    ]
    assert limits.begin_refusal("b")  # another address has refusals of its own
    limits.end_refusal("a")
    assert limits.begin_refusal("a")
    for _ in range(REFUSALS_AT_ONCE):
        limits.end_refusal("a")
    limits.end_refusal("b")
    assert limits.sizes()["address_refusals"] == 0


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_session_and_lookup_budgets_are_per_address_and_swept_once_refilled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _Clock()
    monkeypatch.setattr(limits_module, "time", clock)
    limits = AddressLimits(max_connections=0, sessions_per_minute=2, lookups_per_minute=3, codes_per_minute=2)
    assert [limits.code_attempt("c") for _ in range(3)] == [True, True, False]
    assert limits.new_session("a")
    assert limits.new_session("a")
    assert not limits.new_session("a")
    assert limits.new_session("b")  # another address has its own budget
    assert [limits.failed_lookup("a") for _ in range(4)] == [True, True, True, False]
    assert not limits.lookups_left("a")
    clock.now += 20  # one lookup's worth refilled
    assert limits.lookups_left("a")
    assert limits.sizes() == {
        "address_connections": 0,
        "address_refusals": 0,
        "address_session_buckets": 2,
        "address_lookup_buckets": 1,
        "address_code_buckets": 1,
    }
    clock.now += 60  # every budget full again: as good as never used, so forgotten
    assert limits.sizes() == {
        "address_connections": 0,
        "address_refusals": 0,
        "address_session_buckets": 0,
        "address_lookup_buckets": 0,
        "address_code_buckets": 0,
    }
