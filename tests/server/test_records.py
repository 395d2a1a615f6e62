"""The record store: saved records load at once, reach the disk whole, and a failed write loses nothing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from cardavia.server.records import RecordStore


def _record(n: int) -> dict[str, object]:
    return {"game": "briscola", "seed": f"s{n}", "deals": [{"actions": [{"seat": 0, "card": "1D"}]}]}


async def test_a_saved_record_loads_at_once_and_then_from_its_file(tmp_path: Path) -> None:
    store = RecordStore(tmp_path)
    store.save("r1-1", _record(1))
    assert await store.load("r1-1") == _record(1)  # before the thread has written it, or after
    await store.drain()
    assert store.pending == 0
    assert json.loads((tmp_path / "r1-1.jsonl").read_text(encoding="utf-8")) == _record(1)
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
    store.close()
    again = RecordStore(tmp_path)  # a restarted node reads what the last one wrote
    assert await again.load("r1-1") == _record(1)
    again.close()


async def test_many_records_are_all_written(tmp_path: Path) -> None:
    store = RecordStore(tmp_path)
    for n in range(50):
        store.save(f"room{n}-1", _record(n))
    await store.drain()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"room{n}-1.jsonl" for n in range(50))
    assert [await store.load(f"room{n}-1") for n in range(50)] == [_record(n) for n in range(50)]
    store.close()


@pytest.mark.parametrize("record_id", ["", "nope", "../r1-1", "r1-1/../../etc", "r1 1"])
async def test_unknown_and_malformed_ids_find_nothing(tmp_path: Path, record_id: str) -> None:
    (tmp_path / "sub").mkdir()
    store = RecordStore(tmp_path / "sub")
    (tmp_path / "r1-1.jsonl").write_text(json.dumps(_record(1)), encoding="utf-8")  # outside the directory
    assert await store.load(record_id) is None
    store.close()


async def test_a_failed_write_is_logged_and_the_record_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = RecordStore(tmp_path / "missing")  # no such directory: the write fails
    with caplog.at_level(logging.ERROR, logger="cardavia.records"):
        store.save("r2-1", _record(2))
        await store.drain()
    assert "event=record_write_failed record=r2-1" in caplog.text
    assert store.pending == 1
    assert await store.load("r2-1") == _record(2)  # still served from memory
    store.close()
