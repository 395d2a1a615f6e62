"""Records older than ``records_keep_days`` are deleted from the records directory; 0 keeps them all."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cardavia.server.records import RecordStore

DAY = 86_400


def _write(directory: Path, name: str, age_days: float) -> Path:
    path = directory / name
    path.write_text("{}\n", encoding="utf-8")
    stamp = time.time() - age_days * DAY
    os.utime(path, (stamp, stamp))
    return path


def test_records_past_the_retention_period_are_deleted_when_the_store_starts(tmp_path: Path) -> None:
    old = _write(tmp_path, "r1-1.jsonl", age_days=31)
    recent = _write(tmp_path, "r2-1.jsonl", age_days=29)
    other = _write(tmp_path, "notes.txt", age_days=400)  # not a record: never the store's to delete
    store = RecordStore(tmp_path, keep_days=30)
    store.close()  # waits for the records thread, which prunes first
    assert not old.exists()
    assert recent.exists()
    assert other.exists()


def test_zero_days_keeps_every_record(tmp_path: Path) -> None:
    ancient = _write(tmp_path, "r1-1.jsonl", age_days=3650)
    store = RecordStore(tmp_path, keep_days=0)
    store.close()
    assert ancient.exists()


def test_a_missing_directory_is_nothing_to_prune(tmp_path: Path) -> None:
    store = RecordStore(tmp_path / "not-yet", keep_days=1)
    store.close()
    assert store._prune() == 0
