"""The same game after a reload of the page, and after the server was killed and started
again: the page comes back to the same room and the same hand through its resume token.

A node keeps its rooms in memory; with the Redis lobby it journals every accepted move
there, and a node started again under its id rebuilds its rooms from the journal before
it serves anyone (ARCHITECTURE.md, "Nodes, journals and failover"). The restart test runs
`cardavia serve` as a process on the Redis lobby, kills it with SIGKILL and starts it
again on the same port."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from tests.support.browser import BROWSER, PersonFactory, Player
from tests.support.ports import free_port, port_open
from tests.support.redis import REDIS_URL, delete_redis_keys
from tests.support.waiting import wait_until_sync

pytestmark = BROWSER


def play_turns(player: Player, turns: int) -> None:
    for _ in range(turns):
        assert player.state() == "turn"
        player.card(player.playable()[0]).click()


def table_now(player: Player) -> tuple[str, list[str]]:
    """The room's code and the hand, once it is our turn (the hand is then complete)."""
    assert player.state() == "turn"
    return player.room_code(), player.hand()


def test_a_reload_mid_game_resumes_the_same_game(person: PersonFactory) -> None:
    anna = person()
    anna.open()
    anna.play_now("briscola")
    play_turns(anna, 2)
    code, hand = table_now(anna)
    room = anna.last(m.Snapshot).room.room

    anna.page.reload()
    anna.wait_table("briscola")
    assert table_now(anna) == (code, hand)
    assert anna.last(m.Welcome).room == room
    assert anna.last(m.Snapshot).room.room == room
    play_turns(anna, 1)
    assert not anna.errors


class Node:
    """``cardavia serve`` on the Redis lobby, as a process of its own."""

    def __init__(self, port: int, prefix: str, records: Path) -> None:
        self.port = port
        self.env = {
            **os.environ,
            "CARDAVIA_REDIS_URL": REDIS_URL,
            "CARDAVIA_REDIS_PREFIX": prefix,
            "CARDAVIA_NODE_ID": "node-browser",
            "CARDAVIA_BOT_DELAY": "0.05",
            "CARDAVIA_BOT_WORKERS": "0",
            "CARDAVIA_GRACE_SECONDS": "30",
            "CARDAVIA_RECORDS_DIR": str(records),
        }
        self.log = records / "node.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardavia", "serve", "--port", str(self.port)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_until_sync(self._listening, "the node listening", timeout=30.0)

    def _listening(self) -> bool:
        assert self.proc is not None
        assert self.proc.poll() is None, self.log.read_text()
        return port_open(self.port)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def node(tmp_path: Path) -> Iterator[Node]:
    prefix = f"cardavia-test:{uuid.uuid4().hex}:"
    running = Node(free_port(), prefix, tmp_path)
    try:
        yield running
    finally:
        running.kill()
        delete_redis_keys(REDIS_URL, prefix)


def test_a_killed_and_restarted_server_resumes_the_game(person: PersonFactory, node: Node) -> None:
    node.start()
    anna = person(base=f"http://127.0.0.1:{node.port}/")
    anna.open()
    anna.play_now("briscola")
    play_turns(anna, 2)
    code, hand = table_now(anna)
    room = anna.last(m.Snapshot).room.room
    welcomes = anna.count(m.Welcome)

    node.kill()
    anna.page.locator('.conn[data-state="reconnecting"]').wait_for()
    node.start()
    anna.page.locator('.conn[data-state="online"]').wait_for(timeout=30_000)
    anna.page.get_by_text(anna.t("app.reconnected.seat")).wait_for()
    assert anna.count(m.Welcome) == welcomes + 1
    assert anna.last(m.Welcome).room == room
    assert table_now(anna) == (code, hand)
    play_turns(anna, 1)
    assert not anna.errors
