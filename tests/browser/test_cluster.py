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
from tests.support.waiting import wait_until_sync

pytestmark = BROWSER


def _sees_both(running: ServerThread) -> bool:
    """Whether ``running``'s lobby lists both nodes and its page allows the other node's origin
    (``peer_sources`` names the cluster's other nodes, not the node itself)."""
    nodes = asyncio.run_coroutine_threadsafe(running.server.lobby.nodes(), running.loop).result(10)
    return len(nodes) == 2 and len(running.server.web.peer_sources) == 1


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
        # each node has seen the other's heartbeat
        wait_until_sync(lambda: all(map(_sees_both, nodes)), "each node seeing the other", interval=0.05)
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
