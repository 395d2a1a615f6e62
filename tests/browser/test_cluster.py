"""A room's link opened on another node of a cluster: the page follows the server's redirect
to the node that runs the room, which is another origin (another port), and plays there.

The page's Content-Security-Policy names the WebSocket origins it may connect to; a cluster's
nodes are added from the lobby, so following the redirect is allowed (any refusal would show
up in ``Player.errors``)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, PersonFactory, Player, ServerThread, server_config
from tests.support.redis import REDIS_URL, delete_redis_keys

pytestmark = BROWSER


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[ServerThread, ServerThread]]:
    """Two nodes on one Redis lobby (a prefix of the test's own), each on its own port."""
    prefix = f"cardavia-test:{uuid.uuid4().hex}:"
    nodes: list[ServerThread] = []
    try:
        for node in ("node-a", "node-b"):
            config = server_config(
                tmp_path / node, redis_url=REDIS_URL, redis_prefix=prefix, node_id=node, heartbeat_seconds=0.2
            )
            nodes.append(ServerThread(config))
        for running in nodes:  # each node has seen the other's heartbeat
            future = asyncio.run_coroutine_threadsafe(running.server.lobby.nodes(), running.loop)
            for _ in range(100):
                if len(future.result(10)) == 2 and len(running.server.web.peer_sources) == 2:
                    break
                asyncio.run_coroutine_threadsafe(asyncio.sleep(0.05), running.loop).result(10)
                future = asyncio.run_coroutine_threadsafe(running.server.lobby.nodes(), running.loop)
        yield nodes[0], nodes[1]
    finally:
        for running in nodes:
            running.stop()
        delete_redis_keys(REDIS_URL, prefix)


def test_a_room_link_opened_on_another_node_follows_the_redirect_to_the_rooms_node(
    person: PersonFactory, cluster: tuple[ServerThread, ServerThread]
) -> None:
    a, b = cluster
    assert a.url != b.url  # two origins: the page of B may connect to A only because A is a peer
    anna: Player = person(base=a.url)
    anna.open()
    code = anna.create_room("briscola", humans=2)
    room = anna.last(m.Snapshot).room.room
    assert room in a.server.rooms

    bo: Player = person(base=b.url)
    bo.open(f"#/room/{code}")
    bo.wait_table("briscola")
    redirect = bo.last(m.Redirect)
    assert redirect is not None
    assert redirect.url == a.server.public_url
    seated = bo.last(m.Snapshot)
    assert (seated.room.room, seated.seat) == (room, 1)
    assert room not in b.server.rooms  # the room stayed on its node; Bo plays there

    anna.page.get_by_role("button", name=anna.t("webtable.start")).click()
    for player in (anna, bo):
        player.page.locator(".table-root.tv:not(.tv-waiting)").wait_for()
        assert player.hand(), "each player's hand is drawn"
    assert bo.errors == []
    assert anna.errors == []
