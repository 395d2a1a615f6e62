"""The shared client session against a live server: requests, errors, resync, drops and resumes."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from cardavia.clients.cli.session import (
    ClientRequestError,
    Item,
    Reconnected,
    Reconnecting,
    Session,
    SessionClosed,
)
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_server, encode
from cardavia.server.app import CardaviaServer
from tests.support.clients import client
from tests.support.ports import free_port
from tests.support.servers import own_server
from tests.support.waiting import wait_until


async def play_out(session: Session, rng: random.Random) -> tuple[m.MatchResult, list[Item]]:
    """Answer every fresh turn with a random legal action until the match ends; returns what was seen."""
    seen: list[Item] = []
    async for item in session.messages():
        seen.append(item)
        if isinstance(item, m.YourTurn) and item.seq == session.store.seq:
            await session.send(session.requests.act(rng.choice(item.legal)))
        elif isinstance(item, m.MatchResult):
            return item, seen
        elif isinstance(item, m.Error):
            raise AssertionError(f"unexpected error {item}")
    raise AssertionError("the stream ended before the match did")


async def test_requests_are_answered_and_errors_carry_the_wire_code(url: str) -> None:
    async with Session(url, "Anna") as session:
        assert session.welcome is not None
        assert session.welcome.session.startswith("s-")
        catalogue = await session.request(m.GetCatalogue(id=session.requests.next_id()))
        assert isinstance(catalogue, m.Catalogue)
        assert {g["id"] for g in catalogue.games} >= {"scopa", "briscola"}
        with pytest.raises(ClientRequestError) as refused:
            await session.request(session.requests.join(code="ZZZZZ"))
        assert refused.value.code == "unknown_room"
        with pytest.raises(ClientRequestError) as illegal:
            await session.request(session.requests.act({"play": "7D"}))
        assert illegal.value.code == "not_in_room"


async def test_play_now_answers_with_the_snapshot_and_acts_with_their_delta(url: str) -> None:
    async with Session(url, "Anna") as session:
        snapshot = await session.request(session.requests.play_now("scopa", "random"))
        assert isinstance(snapshot, m.Snapshot)
        assert snapshot.seat == 0  # the seat first, then the game's snapshot as it starts
        async for item in session.messages():
            if isinstance(item, m.YourTurn) and item.seq == session.store.seq:
                assert session.in_game
                delta = await session.request(session.requests.act(item.legal[0]))
                assert isinstance(delta, m.Delta)
                assert session.store.seq is not None
                assert session.store.seq >= delta.seq  # the bot may have answered already
                with pytest.raises(ClientRequestError) as early:  # that card is gone
                    await session.request(session.requests.act(item.legal[0]))
                assert early.value.code in ("not_your_turn", "illegal_action")
                break


async def test_a_sequence_gap_asks_for_a_snapshot_by_itself(server: CardaviaServer, url: str) -> None:
    async with Session(url, "Anna") as session:
        assert session.welcome is not None
        conn = server.sessions[session.welcome.session]
        send, lost = conn.send, list[m.Reply | bytes]()

        def lossy(message: m.Reply | bytes) -> None:  # the server loses this player's first delta
            frame = message if isinstance(message, bytes) else encode(message)
            if isinstance(decode_server(frame), m.Delta) and not lost:
                lost.append(message)
                return
            send(message)

        conn.send = lossy  # type: ignore[method-assign]
        await session.request(session.requests.play_now("briscola", "random"))
        result, seen = await play_out(session, random.Random(3))
        assert lost
        in_game = [x for x in seen if isinstance(x, m.Snapshot) and x.room.state == "playing"]
        assert len(in_game) >= 2, "the gap was not repaired by a resync snapshot"
        assert result.record


async def test_a_dropped_connection_resumes_the_seat_and_the_game_finishes(
    server: CardaviaServer, url: str
) -> None:
    async with Session(url, "Anna") as session:
        snapshot = await session.request(session.requests.play_now("scopa", "random"))
        assert isinstance(snapshot, m.Snapshot)
        rng = random.Random(7)
        moves = 0
        seen: list[Item] = []
        async for item in session.messages():
            seen.append(item)
            if isinstance(item, m.YourTurn) and item.seq == session.store.seq:
                if moves == 3:
                    assert session.welcome is not None
                    server.sessions[session.welcome.session].wire.abort()  # the network drops
                    moves += 1
                    continue
                await session.send(session.requests.act(rng.choice(item.legal)))
                moves += 1
            elif isinstance(item, m.MatchResult):
                break
        notices = [i for i in seen if isinstance(i, Reconnecting | Reconnected)]
        assert isinstance(notices[0], Reconnecting)
        assert notices[-1] == Reconnected(resumed=True)
        assert session.room is not None
        assert session.room.room == snapshot.room.room
        assert session.reconnects == 1


async def test_a_newer_connection_of_the_same_player_ends_the_older_session(url: str) -> None:
    first = Session(url, "Anna")
    await first.connect()
    await first.request(first.requests.play_now("briscola", "random"))
    assert first.welcome is not None
    second = await client(url, "Anna")  # the same player, from another device
    second_welcome = await second.hello(resume=first.welcome.resume)
    assert second_welcome.session == first.welcome.session
    with pytest.raises(SessionClosed) as ended:
        async for _ in first.messages():
            pass
    assert ended.value.code == 1008
    await second.ws.close()
    await first.close()


async def test_closing_ends_the_stream_and_sending_after_it_fails(url: str) -> None:
    session = Session(url, "Anna")
    await session.connect()
    reader = asyncio.ensure_future(anext(session.messages(), None))
    await session.close()
    assert await reader is None
    with pytest.raises(SessionClosed):
        await session.send(session.requests.leave())


async def test_no_server_is_a_connection_error() -> None:
    with pytest.raises(ConnectionRefusedError):
        await Session(f"ws://127.0.0.1:{free_port()}/", "Anna").connect()


async def test_an_expired_resume_token_starts_a_fresh_session_without_a_room(tmp_path: Path) -> None:
    """A player back after its session ran out is refused its token (``bad_resume_token``): the
    client must take the fresh session the server welcomes it with, not fail or wait for a room."""
    async with own_server(tmp_path, session_seconds=0.2) as (server, url):
        async with Session(url, "Anna") as first:
            assert first.welcome is not None
            old = first.welcome
        # the session, holding no seat, expires with its token
        await wait_until(lambda: server.table_sizes()["lobby_tokens"] == 0, "the token expired")
        back = Session(url, "Anna", resume=old.resume)
        try:
            welcome = await back.connect()
            assert welcome.session != old.session
            assert welcome.room is None
            assert back.welcome == welcome
            assert back.room is None
            assert not back.in_game
            catalogue = await back.request(m.GetCatalogue(id=back.requests.next_id()))
            assert isinstance(catalogue, m.Catalogue)  # the fresh session is usable
        finally:
            await back.close()
