"""The session's player key: in every hello (first, reconnection), nowhere else; kept from ``profile``.

A small scripted server stands in for the real one here, so that each hello the
client sends can be read as it arrived; the live tests of the profile requests
are in ``tests/server/``.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.server import ServerConnection, serve

from cardavia.clients.cli.session import Reconnected, Session
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, encode
from tests.support.waiting import wait_until

ANNA = m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna")


class ProfileServer:
    """Knows player keys, makes and deletes profiles, and records every frame it was sent."""

    def __init__(self) -> None:
        self.keys: dict[str, m.PlayerInfo] = {"key-anna": ANNA}
        self.frames: list[m.Request] = []
        self.connections: list[ServerConnection] = []

    @property
    def hellos(self) -> list[m.Hello]:
        return [f for f in self.frames if isinstance(f, m.Hello)]

    async def handle(self, ws: ServerConnection) -> None:
        self.connections.append(ws)
        holder: m.PlayerInfo | None = None
        async for frame in ws:
            message = decode_client(frame)
            self.frames.append(message)
            reply: m.Reply
            if isinstance(message, m.Hello):
                holder = self.keys.get(message.player) if message.player else None
                error = "unknown_player" if message.player and holder is None else None
                reply = m.Welcome(
                    id=message.id,
                    session="s-1",
                    resume="t-1",
                    server="fake",
                    player=holder,
                    player_error=error,
                )
            elif isinstance(message, m.CreateProfile):
                holder = m.PlayerInfo(id="p-" + secrets.token_hex(8), name=message.name, bot=message.bot)
                key = secrets.token_urlsafe(24)
                self.keys[key] = holder
                reply = m.Profile(id=message.id, player=holder, key=key)
            elif isinstance(message, m.DeleteProfile):
                self.keys = {k: p for k, p in self.keys.items() if p != holder}
                holder = None
                reply = m.ProfileDeleted(id=message.id)
            else:
                reply = m.Error(id=message.id, code="bad_message", message="not here")
            await ws.send(encode(reply))

    async def drop(self) -> None:
        """Close the newest connection the way a restarting node does (the client comes back)."""
        await self.connections[-1].close(1001)


@pytest.fixture
async def fake() -> AsyncIterator[tuple[ProfileServer, str]]:
    server = ProfileServer()
    async with serve(server.handle, "127.0.0.1", 0) as listening:
        port = next(iter(listening.sockets)).getsockname()[1]
        yield server, f"ws://127.0.0.1:{port}/"


async def reconnected(session: Session) -> None:
    async for item in session.messages():
        if isinstance(item, Reconnected):
            return


async def test_the_key_goes_in_every_hello_and_the_welcome_names_the_profile(
    fake: tuple[ProfileServer, str],
) -> None:
    server, url = fake
    async with Session(url, "Anna", player="key-anna", max_backoff=0.2) as session:
        assert session.player == ANNA
        assert session.player_error is None
        assert session.has_player_key
        await server.drop()
        await reconnected(session)
        assert session.player == ANNA
    assert [h.player for h in server.hellos] == ["key-anna", "key-anna"]


async def test_an_unknown_key_starts_an_anonymous_session_that_says_why(
    fake: tuple[ProfileServer, str],
) -> None:
    server, url = fake
    async with Session(url, "Anna", player="key-of-nobody") as session:
        assert session.player is None
        assert session.player_error == "unknown_player"
    assert server.hellos[0].player == "key-of-nobody"


async def test_a_new_profiles_key_goes_in_later_hellos_until_the_profile_is_deleted(
    fake: tuple[ProfileServer, str],
) -> None:
    server, url = fake
    async with Session(url, "Bea", max_backoff=0.2) as session:
        assert session.player is None
        assert not session.has_player_key
        made = await session.request(session.requests.create_profile("Bea"))
        assert isinstance(made, m.Profile)
        assert made.key is not None
        assert session.player == made.player
        await server.drop()
        await reconnected(session)
        assert session.player == made.player  # the server knew the key this hello carried
        deleted = await session.request(session.requests.delete_profile())
        assert isinstance(deleted, m.ProfileDeleted)
        assert session.player is None
        assert not session.has_player_key
        await server.drop()
        await reconnected(session)
        await wait_until(lambda: len(server.hellos) == 3, "the third hello")
    assert [h.player for h in server.hellos] == [None, made.key, None]
    others = [f for f in server.frames if not isinstance(f, m.Hello)]
    assert all(made.key not in f.model_dump_json() for f in others)  # the key travels in hellos only


async def test_a_key_set_by_the_owner_is_sent_from_the_next_hello(fake: tuple[ProfileServer, str]) -> None:
    server, url = fake
    async with Session(url, "Anna", max_backoff=0.2) as session:
        session.use_player_key("key-anna")
        await server.drop()
        await reconnected(session)
        assert session.player == ANNA
    assert [h.player for h in server.hellos] == [None, "key-anna"]
