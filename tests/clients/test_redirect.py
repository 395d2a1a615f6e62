"""Two nodes on one Redis: the session follows redirects to the node that runs the room."""

from __future__ import annotations

import asyncio
import random

import pytest

from cardavia.bots.registry import make_bot
from cardavia.clients.cli.sdk import BotClient, run_bot
from cardavia.clients.cli.session import Item, Session
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from tests.support.nodes import follow, node_url, redirected


async def test_joining_by_code_on_another_node_follows_the_redirect_and_plays_there(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, b = nodes
    owner = BotClient(node_url(a), make_bot("briscola", "random", "a"), "briscola", name="Anna", humans=2)
    playing = asyncio.ensure_future(owner.run())
    room = await owner.seated()
    seen: list[Item] = []
    guest = BotClient(
        node_url(b),
        make_bot("briscola", "random", "b"),
        "briscola",
        name="Bo",
        code=room.code,
        on_message=seen.append,
    )
    [theirs] = await guest.run()
    [mine] = await playing
    assert any(isinstance(i, m.Redirect) and i.url == node_url(a) for i in seen)
    assert guest.session is not None
    assert (guest.session.url, guest.session.home_url) == (node_url(a), node_url(b))
    assert theirs.record == mine.record
    assert (theirs.room, theirs.seat) == (room.room, 1)


async def test_a_seat_taken_through_another_node_is_its_players_when_the_room_starts_first(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    """Bo's join on node b takes the seat in the lobby and sends him to node a; the owner starts
    the room before he is there. The seat waits for him (it is not a bot's), and he plays it."""
    anna, made, bo, redirect = await redirected(nodes)
    await bo.ws.close()

    await anna.send(anna.req.start())
    started: m.Snapshot = await anna.expect(m.Snapshot)
    assert started.room.state == "playing"
    assert started.room.seats[1]["kind"] == "human"
    assert started.room.seats[1]["name"] == "Bo"

    there = await follow(bo, redirect)
    seated: m.Snapshot = await there.expect(m.Snapshot)
    assert (seated.room.room, seated.seat) == (made.room.room, 1)
    rng = random.Random(7)
    mine, theirs = await asyncio.gather(anna.play_until_over(rng), there.play_until_over(rng))
    assert mine.record == theirs.record
    await anna.ws.close()
    await there.ws.close()


@pytest.mark.slow
async def test_a_quick_match_on_another_node_is_followed_too(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, b = nodes
    first = BotClient(node_url(a), make_bot("scopa", "random", "a"), "scopa", name="Anna", quick=True)
    playing = asyncio.ensure_future(first.run())
    await first.seated()
    [theirs] = await run_bot(
        node_url(b), make_bot("scopa", "random", "b"), game="scopa", name="Bo", quick=True
    )
    [mine] = await playing
    assert theirs.record == mine.record


async def test_resuming_on_another_node_is_sent_home_to_the_room(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, b = nodes
    first = Session(node_url(a), "Anna")
    await first.connect()
    made = await first.request(first.requests.play_now("briscola", "random"))
    assert isinstance(made, m.Snapshot)
    assert first.welcome is not None
    token = first.welcome.resume
    await first.close()  # the client goes away without leaving: its seat waits for it

    again = Session(node_url(b), "Anna", resume=token)
    welcome = await again.connect()  # node b does not run the room: it sends the session to node a
    assert welcome.room == made.room.room
    async for item in again.messages():
        if isinstance(item, m.Snapshot):  # where its seat was kept
            break
    assert again.url == node_url(a)
    assert again.room is not None
    assert again.room.room == made.room.room
    assert again.store.seat == 0
    await again.close()
