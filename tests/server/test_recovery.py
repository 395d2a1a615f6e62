"""A node dies (kill -9) mid-game: another node adopts its rooms and the players play on."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from cardavia.games.records import replay
from cardavia.protocol import messages as m
from tests.support.clients import Client, client
from tests.support.ports import free_port, port_open
from tests.support.redis import delete_redis_keys, own_prefix
from tests.support.waiting import wait_until


class Node:
    def __init__(self, name: str, prefix: str, records: Path, lobby_url: str) -> None:
        self.name = name
        self.port = free_port()
        env = {
            **os.environ,
            "CARDAVIA_REDIS_URL": lobby_url,
            "CARDAVIA_REDIS_PREFIX": prefix,
            "CARDAVIA_NODE_ID": name,
            "CARDAVIA_HEARTBEAT_SECONDS": "0.2",
            "CARDAVIA_NODE_TTL": "1.0",
            "CARDAVIA_BOT_DELAY": "0",
            "CARDAVIA_BOT_WORKERS": "0",
            "CARDAVIA_RATE_PER_SECOND": "1000",
            "CARDAVIA_RATE_BURST": "1000",
            "CARDAVIA_GRACE_SECONDS": "30",
            "CARDAVIA_RECORDS_DIR": str(records),
        }
        self.log = records / f"{name}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardavia", "serve", "--port", str(self.port)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def ready(self) -> None:
        await wait_until(lambda: port_open(self.port), f"{self.name} listening", timeout=10.0)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def prefix(lobby_url: str) -> Iterator[str]:
    name = own_prefix()
    yield name
    delete_redis_keys(lobby_url, name)


async def _resume(urls: list[str], resume: str | None) -> Client:
    """What a client does after its node died: resume on a live node, follow a redirect
    to the room's node, and start over a little later while the dead node is not yet noticed."""

    async def attempt() -> Client | None:
        nonlocal resume  # rotated on every welcome
        for url in urls:
            try:
                fresh = await client(url, "Anna")
            except OSError:
                continue
            await fresh.hello(resume=resume)
            resume = fresh.resume
            try:
                first = await fresh.recv(timeout=2.0)
            except TimeoutError:
                continue
            if isinstance(first, m.Snapshot):
                return fresh
            if isinstance(first, m.Redirect):
                await fresh.ws.close()
                try:
                    home = await client(first.url, "Anna")
                except OSError:
                    continue
                await home.hello(resume=resume)
                return home
        return None

    return await wait_until(attempt, "the game back on a live node", timeout=60.0, interval=0.3)


@pytest.mark.slow
async def test_kill_minus_nine_mid_game_loses_and_doubles_no_move(
    prefix: str, tmp_path: Path, lobby_url: str
) -> None:
    a, b = Node("node-a", prefix, tmp_path, lobby_url), Node("node-b", prefix, tmp_path, lobby_url)
    try:
        await a.ready()
        await b.ready()
        rng = random.Random(5)
        anna = await client(a.url)
        await anna.hello()
        await anna.send(anna.req.play_now("scopa", "random"))
        sent = 0
        killed = False
        result: m.MatchResult | None = None
        while result is None:
            try:
                message = await anna.recv(timeout=15)
            except ConnectionClosed:
                anna = await _resume([b.url], anna.resume)
                continue
            if isinstance(message, m.YourTurn):
                if not killed and sent >= 10:
                    a.proc.send_signal(signal.SIGKILL)  # the node dies with the game in the middle
                    killed = True
                    continue
                await anna.send(anna.req.act(rng.choice(message.legal)))
                sent += 1
            elif isinstance(message, m.MatchResult):
                result = message
            elif isinstance(message, m.Error):
                raise AssertionError(f"unexpected error {message}")
        assert killed
        await anna.send(m.GetRecord(id=90, record=result.record or ""))
        record = (await anna.expect(m.RecordMessage)).record
        assert replay(record).ok
        mine = [x for d in record["deals"] for x in d["actions"] if x["seat"] == 0 and not x.get("auto")]
        assert len(mine) == sent  # every move Anna sent, once
    finally:
        a.stop()
        b.stop()
