"""What a match's end costs a node: the record made and written to a file as before the archive
(``RecordStore.save``), against the record made and written to the archive with the seats'
history rows and a rated profile's new rating (``MatchArchiver`` and ``Archive.record_match``),
on SQLite and on PostgreSQL, in the same run.

    python -m bench.match_end [--matches 200] [--rounds 5] [--postgres URL]

Each round writes ``--matches`` match ends through every variant in turn (a busy moment weighs
on all alike); the figures are medians over rounds of the per-match figure of each round:

- loop µs: what the event loop spends on one match end before it can go on (the room waits for
  this): making the record (``make_record``) and handing it over (``save`` / ``submit``);
- CPU µs: the node process's CPU per match end from hand-over to written, every thread counted
  (the database server's own CPU is not: PostgreSQL is another process);
- wall µs: from the first hand-over to the last write, per match end (one writer, in order).

The "file" variant is main's ``RecordStore`` path before the archive: ``dumps`` on the loop, a
thread writing a temporary file renamed into place, no fsync. The archive commits each match
durably (SQLite ``synchronous=FULL``: an fsync per match; PostgreSQL as configured). Then the
bytes per stored match: the record's JSON and the archive's growth per match (SQLite: pages in
use; PostgreSQL: ``pg_total_relation_size`` of its tables). Without ``--postgres`` the tests'
private PostgreSQL is started (``scripts/ensure-postgres``) and a fresh database made in it.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cardavia.bots.ratings import bot_rating
from cardavia.games import briscola
from cardavia.games.engine import State
from cardavia.games.records import Seat, dumps, make_record
from cardavia.server.archiver import MatchArchiver
from cardavia.server.store import Archive, MatchEnd, SeatEnd, open_archive

ROOT = Path(__file__).resolve().parents[1]
SEATS = [Seat("Anna", "human"), Seat("Bot 2 (basic)", "bot", "basic")]
PROFILES = 50
"""Distinct profiles the rated matches are spread over (each match rates one against a bot)."""


def finished_states(count: int) -> list[State[Any]]:
    """``count`` finished Briscola matches, played at random (made before any timing)."""
    states = []
    for number in range(count):
        rng = random.Random(number)
        state: State[Any] = briscola.GAME.new(None, f"bench/{number}")
        while (seat := state.to_move) is not None:
            state, _ = state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        states.append(state)
    return states


class FileRecords:
    """Main's ``RecordStore.save`` before the archive: the record's text made on the loop, written
    by one thread to a temporary file renamed into place."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")
        self._writes: set[asyncio.Future[None]] = set()

    def save(self, record_id: str, record: dict[str, Any]) -> None:
        text = dumps(record) + "\n"
        write = asyncio.get_running_loop().run_in_executor(self._pool, self._write, record_id, text)
        self._writes.add(write)
        write.add_done_callback(self._writes.discard)

    def _write(self, record_id: str, text: str) -> None:
        path = self.directory / f"{record_id}.jsonl"
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)

    async def drain(self) -> None:
        while self._writes:
            await asyncio.gather(*list(self._writes))

    def close(self) -> None:
        self._pool.shutdown(wait=True)


@dataclass
class Figures:
    loop: list[float]
    cpu: list[float]
    wall: list[float]


def match_end(state: State[Any], record_id: str, player: str) -> MatchEnd:
    """What ``RoomKeeper._record`` hands the archiver for a rated match of a profile against a bot."""
    record = make_record(state, seats=SEATS, seed=record_id, deck="piacentine")
    assert state.result is not None
    return MatchEnd(
        record_id=record_id,
        game="briscola",
        rated=True,
        ended=time.time(),
        seats=[
            SeatEnd(name="Anna", player=player, bot_level=None, fixed=None),
            SeatEnd(
                name="Bot 2 (basic)", player=None, bot_level="basic", fixed=bot_rating("briscola", "basic")
            ),
        ],
        scores=list(state.result.scores),
        winner=state.result.winner,
        record=record,
    )


async def file_round(states: list[State[Any]], directory: Path, figures: Figures) -> None:
    store = FileRecords(directory)
    loop_time = 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for state in states:
        started = time.perf_counter()
        record = make_record(state, seats=SEATS, seed="s", deck="piacentine")
        store.save(f"r-{uuid.uuid4().hex[:16]}-1", record)
        loop_time += time.perf_counter() - started
        await asyncio.sleep(0)  # the loop goes on to other rooms between two match ends
    await store.drain()
    figures.cpu.append((time.process_time() - cpu) / len(states) * 1e6)
    figures.wall.append((time.perf_counter() - wall) / len(states) * 1e6)
    figures.loop.append(loop_time / len(states) * 1e6)
    store.close()


async def archive_round(
    states: list[State[Any]], archive: Archive, players: list[str], figures: Figures
) -> None:
    archiver = MatchArchiver(archive)
    archiver.start()
    loop_time = 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for number, state in enumerate(states):
        started = time.perf_counter()
        end = match_end(state, f"r-{uuid.uuid4().hex[:16]}-1", players[number % len(players)])
        archiver.submit(end)
        loop_time += time.perf_counter() - started
        await asyncio.sleep(0)
    assert await archiver.drain(timeout=600)
    figures.cpu.append((time.process_time() - cpu) / len(states) * 1e6)
    figures.wall.append((time.perf_counter() - wall) / len(states) * 1e6)
    figures.loop.append(loop_time / len(states) * 1e6)
    await archiver.close()


def private_postgres() -> str:
    run = subprocess.run(
        [str(ROOT / "scripts" / "ensure-postgres")], capture_output=True, text=True, check=True, timeout=600
    )
    return run.stdout.strip().splitlines()[-1]


async def fresh_database(server: str) -> tuple[str, Callable[[], Any]]:
    import asyncpg

    name = "cardavia_bench_" + uuid.uuid4().hex[:12]
    admin = await asyncpg.connect(server)
    await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    await admin.close()

    async def drop() -> None:
        admin = await asyncpg.connect(server)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()

    return urlunsplit(urlsplit(server)._replace(path="/" + name)), drop


async def sqlite_bytes(path: Path) -> int:
    import sqlite3

    with sqlite3.connect(path) as db:
        pages = (
            db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]
        )
        size: int = pages * db.execute("PRAGMA page_size").fetchone()[0]
    return size


async def postgres_bytes(url: str) -> int:
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        await db.execute("VACUUM ANALYZE")
        size: int = await db.fetchval(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
    finally:
        await db.close()
    return size


async def run(matches: int, rounds: int, postgres: str | None) -> None:
    states = finished_states(matches)
    record_bytes = statistics.mean(
        len(dumps(make_record(s, seats=SEATS, seed="s" * 32, deck="piacentine"))) for s in states
    )
    server = postgres or private_postgres()
    pg_url, drop = await fresh_database(server)
    with tempfile.TemporaryDirectory(prefix="cardavia-bench-") as folder:
        sqlite_path = Path(folder) / "archive.db"
        archives = {"sqlite": open_archive(f"sqlite:///{sqlite_path}"), "postgresql": open_archive(pg_url)}
        players: dict[str, list[str]] = {}
        for name, archive in archives.items():
            await archive.open()
            players[name] = [
                (await archive.create_player(f"P{n}", uuid.uuid4().hex * 2)).id for n in range(PROFILES)
            ]
        sizes_before = {"sqlite": await sqlite_bytes(sqlite_path), "postgresql": await postgres_bytes(pg_url)}
        figures = {name: Figures([], [], []) for name in ("file", "sqlite", "postgresql")}
        records = Path(folder) / "records"
        records.mkdir()
        for _ in range(rounds):  # interleaved: a busy moment of the machine weighs on every variant
            await file_round(states, records, figures["file"])
            for name, archive in archives.items():
                await archive_round(states, archive, players[name], figures[name])
        sizes_after = {"sqlite": await sqlite_bytes(sqlite_path), "postgresql": await postgres_bytes(pg_url)}
        for archive in archives.values():
            await archive.close()
    await drop()
    base = {kind: statistics.median(getattr(figures["file"], kind)) for kind in ("loop", "cpu", "wall")}
    print(f"{matches} Briscola match ends x {rounds} rounds, medians per match end (vs the file):")
    for name, runs in figures.items():
        cells = []
        for kind in ("loop", "cpu", "wall"):
            value = statistics.median(getattr(runs, kind))
            cells.append(f"{kind} {value:8.0f} µs ({value / base[kind] - 1:+6.0%})")
        print(f"  {name:10s} " + "   ".join(cells))
    written = matches * rounds
    print(f"record JSON: {record_bytes:.0f} bytes a match (Briscola, 40 actions)")
    for name in ("sqlite", "postgresql"):
        grown = (sizes_after[name] - sizes_before[name]) / written
        print(f"{name}: {grown:.0f} bytes stored a match (record, match row, seat rows, rating row updates)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--postgres", default=None, help="a PostgreSQL server URL (a user that may create databases)"
    )
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.rounds, args.postgres))


if __name__ == "__main__":
    main()
