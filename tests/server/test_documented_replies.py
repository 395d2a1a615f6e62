"""Each request gets the answer protocol/README.md documents for it, on a live server.

The README says under every client request which message answers it ("Answer:
`snapshot` (no `id`)") and which error codes refuse it ("Errors: ..."); clients
that settle requests by kind rely on both. One table here holds the answers;
the tests check that it covers every client message type, that the README and
the AsyncAPI document say the same, and that a real server answers so, down to
whether the frame carries the request's id.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from cardavia.protocol import messages as m
from cardavia.protocol.errors import ERROR_CODES
from cardavia.protocol.schema import ANSWERS, asyncapi
from tests.support.clients import Client, client, seated_pair

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"

DOCUMENTED: dict[str, tuple[type[m.Reply], bool]] = {
    # request type: (the message that answers it when it succeeds, whether that carries the request's id)
    "hello": (m.Welcome, True),
    "get_catalogue": (m.Catalogue, True),
    "list_rooms": (m.Rooms, True),
    "create_room": (m.Snapshot, False),
    "join_room": (m.Snapshot, False),
    "quick_match": (m.Snapshot, False),
    "play_now": (m.Snapshot, False),
    "leave": (m.Left, True),
    "start": (m.Snapshot, False),
    "rematch": (m.RematchVotes, True),
    "act": (m.Delta, False),
    "resync": (m.Snapshot, False),
    "spectate": (m.Snapshot, False),
    "chat": (m.ChatMessage, False),
    "get_rules": (m.Rules, True),
    "get_record": (m.RecordMessage, True),
    "get_replay": (m.Replay, True),
    "create_profile": (m.Profile, True),
    "rename_profile": (m.Profile, True),
    "new_transfer_code": (m.TransferCode, True),
    "redeem_transfer_code": (m.Profile, True),
    "delete_profile": (m.ProfileDeleted, True),
    "get_leaderboard": (m.Leaderboard, True),
    "get_history": (m.History, True),
}

ANSWER = re.compile(r"^Answer: `(\w+)` \((with the request's `id`|no `id`)\)", re.MULTILINE)
ID_WORDS = {True: "with the request's `id`", False: "no `id`"}
FOR_ANY_REQUEST = "Any request can also be refused"


def _type(model: type[m.Message]) -> str:
    name: str = model.model_fields["type"].default
    return name


def readme_requests() -> dict[str, str]:
    """The README's text about each client request, by type."""
    text = README.read_text(encoding="utf-8")
    part = text.split("### Client → server", 1)[1].split("### Server → client", 1)[0]
    sections = re.split(r"^#### `(\w+)`$", part, flags=re.MULTILINE)
    return dict(zip(sections[1::2], sections[2::2], strict=True))


def documented_errors(request: str) -> set[str]:
    """The error codes the README lists for ``request``, and those it lists for any request."""
    sections = readme_requests()
    text = sections[request]
    codes = set()
    for line in text.splitlines():
        if "Errors:" in line:
            codes |= set(re.findall(r"`(\w+)`", line.split("Errors:", 1)[1]))
    general = next(s for s in sections.values() if FOR_ANY_REQUEST in s)
    codes |= set(re.findall(r"`(\w+)`", general.split(FOR_ANY_REQUEST, 1)[1]))
    return codes & set(ERROR_CODES)


# ------------------------------------------------------------------- the table against the docs
def test_the_table_covers_every_client_message_type() -> None:
    assert set(DOCUMENTED) == {_type(t) for t in m.CLIENT_TYPES}


def test_the_readme_names_the_same_answer_for_every_request() -> None:
    sections = readme_requests()
    assert set(sections) == set(DOCUMENTED)
    for request, (reply, numbered) in DOCUMENTED.items():
        found = ANSWER.search(sections[request])
        assert found is not None, f"the README does not say what answers {request}"
        assert found.groups() == (_type(reply), ID_WORDS[numbered]), request


def test_the_asyncapi_document_names_the_same_answers() -> None:
    assert {k: (v[0], v[1]) for k, v in ANSWERS.items()} == {
        k: (_type(reply), numbered) for k, (reply, numbered) in DOCUMENTED.items()
    }
    messages = asyncapi()["components"]["messages"]
    for request, (reply, numbered) in DOCUMENTED.items():
        assert messages[request]["description"].startswith(f"Answer: `{_type(reply)}` ({ID_WORDS[numbered]})")


# --------------------------------------------------------------------------- live answers
async def ready(url: str, name: str = "Anna") -> Client:
    c = await client(url, name)
    await c.hello()
    return c


async def answer(c: Client, request: m.Request, kind: type[m.Reply]) -> tuple[m.Reply, dict[str, Any]]:
    """The first message of ``kind`` after sending ``request``, and its frame as sent."""
    await c.send(request)
    while True:
        message = await c.recv()
        if isinstance(message, m.Error):
            raise AssertionError(f"{_type(type(request))} was refused: {message}")
        if isinstance(message, kind):
            return message, msgpack.unpackb(c.frames[-1])


def room_of(c: Client) -> m.RoomInfo:
    """The room of the last snapshot ``c`` has read."""
    return next(x for x in reversed(c.received) if isinstance(x, m.Snapshot)).room


async def finished_match(url: str) -> tuple[Client, Client]:
    """Anna and Bo have played a whole Briscola match against each other."""
    anna, bo = await seated_pair(url, "briscola")
    await anna.send(anna.req.start())
    await asyncio.gather(anna.play_until_over(random.Random(1)), bo.play_until_over(random.Random(2)))
    return anna, bo


async def _hello(url: str) -> tuple[Client, m.Request]:
    c = await client(url)
    return c, c.req.hello(c.name)


async def _get_catalogue(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.get_catalogue()


async def _list_rooms(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.list_rooms("scopa")


async def _create_room(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.create_room("scopa")


async def _join_room(url: str) -> tuple[Client, m.Request]:
    anna, bo = await ready(url), await ready(url, "Bo")
    await anna.send(anna.req.create_room("scopa", humans=2))
    room: m.Snapshot = await anna.expect(m.Snapshot)
    return bo, bo.req.join(room=room.room.room)


async def _quick_match(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.quick_match("briscola")


async def _play_now(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.play_now("scopa")


async def _leave(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.create_room("scopa"))
    await c.expect(m.Snapshot)
    return c, c.req.leave()


async def _start(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.create_room("scopa"))
    await c.expect(m.Snapshot)
    return c, c.req.start()


async def _rematch(url: str) -> tuple[Client, m.Request]:
    anna, _ = await finished_match(url)
    return anna, anna.req.rematch()


async def _act(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.play_now("scopa"))
    turn: m.YourTurn = await c.expect(m.YourTurn)
    return c, c.req.act(turn.legal[0])


async def _resync(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.play_now("scopa"))
    await c.expect(m.Snapshot)
    return c, c.req.resync()


async def _spectate(url: str) -> tuple[Client, m.Request]:
    anna, bo = await ready(url), await ready(url, "Bo")
    await anna.send(anna.req.create_room("scopa", humans=2))
    room: m.Snapshot = await anna.expect(m.Snapshot)
    return bo, bo.req.spectate(room=room.room.room)


async def _chat(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.create_room("scopa"))
    await c.expect(m.Snapshot)
    return c, c.req.chat("Bella scopa!")


async def _get_rules(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.get_rules("schnapsen")


async def _get_record(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.play_now("briscola"))
    result = await c.play_until_over(random.Random(3))
    assert result.record is not None
    return c, c.req.get_record(result.record)


async def _get_replay(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.play_now("briscola"))
    result = await c.play_until_over(random.Random(3))
    assert result.record is not None
    return c, c.req.get_replay(result.record)


async def _rated_room_without_a_profile(url: str) -> tuple[Client, m.Request]:
    """Anna, who has a profile, makes a rated public room; Bo, who has none, tries to join it."""
    anna, bo = await ready(url), await ready(url, "Bo")
    await anna.send(anna.req.create_profile("Anna"))
    await anna.expect(m.Profile)
    await anna.send(anna.req.create_room("scopa", humans=2, rated=True))
    room: m.Snapshot = await anna.expect(m.Snapshot)
    assert room.room.rated
    return bo, bo.req.join(room=room.room.room)


async def with_profile(url: str, name: str = "Anna") -> Client:
    c = await ready(url, name)
    await c.send(c.req.create_profile(name))
    await c.expect(m.Profile)
    return c


async def _create_profile(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.create_profile("Anna")


async def _rename_profile(url: str) -> tuple[Client, m.Request]:
    c = await with_profile(url)
    return c, c.req.rename_profile("Anna B.")


async def _new_transfer_code(url: str) -> tuple[Client, m.Request]:
    c = await with_profile(url)
    return c, c.req.new_transfer_code()


async def _redeem_transfer_code(url: str) -> tuple[Client, m.Request]:
    anna = await with_profile(url)
    await anna.send(anna.req.new_transfer_code())
    code: m.TransferCode = await anna.expect(m.TransferCode)
    phone = await ready(url, "Phone")
    return phone, phone.req.redeem_transfer_code(code.code)


async def _delete_profile(url: str) -> tuple[Client, m.Request]:
    c = await with_profile(url)
    return c, c.req.delete_profile()


async def _get_leaderboard(url: str) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, c.req.get_leaderboard("scopa")


async def _get_history(url: str) -> tuple[Client, m.Request]:
    c = await with_profile(url)
    return c, c.req.get_history()


Scenario = Callable[[str], Awaitable[tuple[Client, m.Request]]]
SCENARIOS: dict[str, Scenario] = {
    "hello": _hello,
    "get_catalogue": _get_catalogue,
    "list_rooms": _list_rooms,
    "create_room": _create_room,
    "join_room": _join_room,
    "quick_match": _quick_match,
    "play_now": _play_now,
    "leave": _leave,
    "start": _start,
    "rematch": _rematch,
    "act": _act,
    "resync": _resync,
    "spectate": _spectate,
    "chat": _chat,
    "get_rules": _get_rules,
    "get_record": _get_record,
    "get_replay": _get_replay,
    "create_profile": _create_profile,
    "rename_profile": _rename_profile,
    "new_transfer_code": _new_transfer_code,
    "redeem_transfer_code": _redeem_transfer_code,
    "delete_profile": _delete_profile,
    "get_leaderboard": _get_leaderboard,
    "get_history": _get_history,
}


def test_every_request_has_a_live_scenario() -> None:
    assert set(SCENARIOS) == set(DOCUMENTED)


@pytest.mark.parametrize("request_type", sorted(DOCUMENTED))
async def test_each_request_gets_its_documented_answer(url: str, request_type: str) -> None:
    c, request = await SCENARIOS[request_type](url)
    assert _type(type(request)) == request_type
    kind, numbered = DOCUMENTED[request_type]
    reply, frame = await answer(c, request, kind)
    if numbered:
        assert reply.id == request.id
        assert frame["id"] == request.id
    else:
        assert reply.id is None
        assert "id" not in frame, "a null id is left out of the frame"


async def test_the_vote_that_completes_a_rematch_is_answered_by_the_new_snapshot(url: str) -> None:
    anna, bo = await finished_match(url)
    votes, _ = await answer(anna, anna.req.rematch(), m.RematchVotes)
    assert isinstance(votes, m.RematchVotes)
    assert votes.waiting == [1]
    snapshot, frame = await answer(bo, bo.req.rematch(), m.Snapshot)
    assert isinstance(snapshot, m.Snapshot)
    assert snapshot.view
    assert "id" not in frame
    assert "answered by the new match's\n`snapshot`" in readme_requests()["rematch"]


def test_join_and_quick_match_may_be_answered_by_a_redirect_with_the_id() -> None:
    # A redirect needs a second node; the README still has to say it for both requests.
    sections = readme_requests()
    for request in ("join_room", "quick_match"):
        assert "or `redirect` (with the request's `id`)" in sections[request]


# ------------------------------------------------------------------------------ errors
async def _not_in_room(url: str, request: Callable[[Client], m.Request]) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, request(c)


async def _unsupported_version(url: str) -> tuple[Client, m.Request]:
    c = await client(url)
    return c, c.req.hello(c.name).model_copy(update={"version": 1})


async def _before_hello(url: str) -> tuple[Client, m.Request]:
    c = await client(url)
    return c, c.req.get_catalogue()


async def _in_running_match(url: str, request: Callable[[Client], m.Request]) -> tuple[Client, m.Request]:
    c = await ready(url)
    await c.send(c.req.play_now("scopa"))
    await c.expect(m.YourTurn)
    return c, request(c)


async def _watching(url: str, request: Callable[[Client], m.Request]) -> tuple[Client, m.Request]:
    anna, _ = await seated_pair(url)
    await anna.send(anna.req.start())
    await anna.expect(m.Snapshot)
    watcher = await ready(url, "Cy")
    await watcher.send(watcher.req.spectate(room=room_of(anna).room))
    await watcher.expect(m.Snapshot)
    return watcher, request(watcher)


async def _not_the_owner(url: str) -> tuple[Client, m.Request]:
    _, bo = await seated_pair(url)
    return bo, bo.req.start()


async def _not_your_turn(url: str) -> tuple[Client, m.Request]:
    anna, bo = await seated_pair(url)
    await anna.send(anna.req.start())
    first: m.Snapshot = await anna.expect(m.Snapshot)
    while not first.view:  # the snapshot of the waiting room Bo arrived in
        first = await anna.expect(m.Snapshot)
    waiting = bo if first.view["to_move"] == 0 else anna
    other = anna if waiting is bo else bo
    turn: m.YourTurn = await other.expect(m.YourTurn)
    return waiting, waiting.req.act(turn.legal[0])


async def _full_room(url: str) -> tuple[Client, m.Request]:
    anna, _ = await seated_pair(url)
    cy = await ready(url, "Cy")
    return cy, cy.req.join(room=room_of(anna).room)


async def _started_room(url: str) -> tuple[Client, m.Request]:
    anna = await ready(url)
    await anna.send(anna.req.create_room("briscola", humans=1))
    room: m.Snapshot = await anna.expect(m.Snapshot)
    await anna.send(anna.req.start())
    await anna.expect(m.Snapshot)
    bo = await ready(url, "Bo")
    return bo, bo.req.join(code=room.room.code)


async def _seated_twice(url: str) -> tuple[Client, m.Request]:
    anna = await ready(url)
    await anna.send(anna.req.create_room("scopa", humans=2))
    room: m.Snapshot = await anna.expect(m.Snapshot)
    return anna, anna.req.join(room=room.room.room)


async def _fresh(url: str, request: Callable[[Client], m.Request]) -> tuple[Client, m.Request]:
    c = await ready(url)
    return c, request(c)


async def _signed_in(url: str, request: Callable[[Client], m.Request]) -> tuple[Client, m.Request]:
    c = await with_profile(url)
    return c, request(c)


ERRORS: list[tuple[str, Scenario, str]] = [
    # (the request the README documents the error under, how to provoke it, the error's code)
    ("hello", _unsupported_version, "unsupported_version"),
    ("hello", _before_hello, "handshake_required"),
    (
        "create_room",
        lambda u: _fresh(u, lambda c: c.req.create_room("scopa", options={"target": 0})),
        "bad_options",
    ),
    (
        "create_room",
        lambda u: _fresh(u, lambda c: c.req.create_room("scopa", deck="nowhere")),
        "unknown_deck",
    ),
    ("create_room", lambda u: _fresh(u, lambda c: c.req.create_room("scopa", humans=3)), "invalid_field"),
    ("create_room", lambda u: _in_running_match(u, lambda c: c.req.create_room("scopa")), "already_in_room"),
    ("join_room", lambda u: _fresh(u, lambda c: c.req.join(code="ZZZZ2222")), "unknown_room"),
    ("join_room", _full_room, "room_full"),
    ("join_room", _started_room, "room_started"),
    ("join_room", _seated_twice, "already_in_room"),
    (
        "join_room",
        lambda u: _fresh(u, lambda c: m.JoinRoom(id=c.req.next_id(), reservation="rsv-nothing")),
        "bad_reservation",
    ),
    ("leave", lambda u: _not_in_room(u, lambda c: c.req.leave()), "not_in_room"),
    ("start", lambda u: _not_in_room(u, lambda c: c.req.start()), "not_in_room"),
    ("start", _not_the_owner, "not_room_owner"),
    ("start", lambda u: _in_running_match(u, lambda c: c.req.start()), "room_started"),
    ("rematch", lambda u: _not_in_room(u, lambda c: c.req.rematch()), "not_in_room"),
    ("rematch", lambda u: _watching(u, lambda c: c.req.rematch()), "spectator"),
    ("rematch", lambda u: _in_running_match(u, lambda c: c.req.rematch()), "illegal_action"),
    ("act", lambda u: _not_in_room(u, lambda c: c.req.act({"play": "7D"})), "not_in_room"),
    ("act", lambda u: _watching(u, lambda c: c.req.act({"play": "7D"})), "spectator"),
    ("act", _not_your_turn, "not_your_turn"),
    ("act", lambda u: _in_running_match(u, lambda c: c.req.act({"play": "ZZ"})), "bad_card"),
    ("act", lambda u: _in_running_match(u, lambda c: c.req.act({"throw": "7D"})), "bad_action"),
    (
        "act",
        lambda u: _in_running_match(u, lambda c: c.req.act({"play": "7D", "capture": ["KS"]})),
        "illegal_action",
    ),
    ("resync", lambda u: _not_in_room(u, lambda c: c.req.resync()), "not_in_room"),
    ("spectate", lambda u: _fresh(u, lambda c: c.req.spectate(code="ZZZZ2222")), "unknown_room"),
    ("chat", lambda u: _not_in_room(u, lambda c: c.req.chat("hello")), "not_in_room"),
    ("get_record", lambda u: _fresh(u, lambda c: c.req.get_record("r-0000000000000000-1")), "unknown_record"),
    ("get_replay", lambda u: _fresh(u, lambda c: c.req.get_replay("r-0000000000000000-1")), "unknown_record"),
    (
        "create_room",
        lambda u: _fresh(u, lambda c: c.req.create_room("scopa", rated=True)),
        "profile_required",
    ),
    ("play_now", lambda u: _fresh(u, lambda c: c.req.play_now("scopa", rated=True)), "profile_required"),
    ("join_room", _rated_room_without_a_profile, "profile_required"),
    (
        "quick_match",
        lambda u: _fresh(u, lambda c: c.req.quick_match("scopa", rated=True)),
        "profile_required",
    ),
    ("create_profile", lambda u: _signed_in(u, lambda c: c.req.create_profile("Anna")), "profile_exists"),
    ("rename_profile", lambda u: _fresh(u, lambda c: c.req.rename_profile("Bo")), "profile_required"),
    ("new_transfer_code", lambda u: _fresh(u, lambda c: c.req.new_transfer_code()), "profile_required"),
    (
        "redeem_transfer_code",
        lambda u: _fresh(u, lambda c: c.req.redeem_transfer_code("23456789AB")),
        "unknown_code",
    ),
    (
        "redeem_transfer_code",
        lambda u: _signed_in(u, lambda c: c.req.redeem_transfer_code("23456789AB")),
        "profile_exists",
    ),
    ("delete_profile", lambda u: _fresh(u, lambda c: c.req.delete_profile()), "profile_required"),
    ("get_history", lambda u: _fresh(u, lambda c: c.req.get_history()), "profile_required"),
    (
        "get_history",
        lambda u: _fresh(u, lambda c: c.req.get_history("p-0000000000000000")),
        "unknown_player",
    ),
]


@pytest.mark.parametrize(
    ("request_type", "provoke", "code"), ERRORS, ids=[f"{r}-{code}" for r, _, code in ERRORS]
)
async def test_each_documented_error_carries_the_request_id(
    url: str, request_type: str, provoke: Scenario, code: str
) -> None:
    assert code in documented_errors(request_type), f"the README does not list {code} for {request_type}"
    c, request = await provoke(url)
    await c.send(request)
    error: m.Error = await c.expect(m.Error)
    assert (error.code, error.id) == (code, request.id), error


def test_every_request_documents_its_errors() -> None:
    sections = readme_requests()
    for request in DOCUMENTED:
        if request not in ("get_catalogue", "list_rooms"):  # only the errors any request can get
            assert "Errors:" in sections[request], request


def _documented_hello_versions() -> list[int]:
    """The `version` of every `hello` the README shows: the session diagram's and the example frame's."""
    text = README.read_text(encoding="utf-8")
    diagram = text.split("## A session", 1)[1].split("```", 2)[1]
    shown = re.findall(r"^\s*hello \{.*\bversion: (\d+)\b", diagram, re.MULTILINE)
    assert len(shown) == 1, diagram
    example = re.findall(r'\{[^\n]*"type": "hello"[^\n]*"version": (\d+)', text)
    assert example, "the README shows no hello frame"
    return [int(v) for v in shown + example]


async def test_the_hello_the_readme_shows_speaks_the_servers_version(url: str) -> None:
    """A client written from the README's session diagram copies its `hello`; when the protocol
    version moves on and the diagram does not, that client is refused with
    `unsupported_version` on its first frame. So the version shown is the one a live server
    welcomes and names in its `welcome`."""
    for version in _documented_hello_versions():
        assert version == m.PROTOCOL_VERSION
        assert version in m.SUPPORTED_VERSIONS
        c = await client(url)
        await c.send(c.req.hello(c.name).model_copy(update={"version": version}))
        welcome: m.Welcome = await c.expect(m.Welcome)
        assert welcome.version == version
        await c.ws.close()
