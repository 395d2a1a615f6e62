"""scripts/ensure-postgres: one private server however many test processes ask at once, reused
while it runs, replaced (and its old folder removed) once it is gone. Run with a state file of
its own, so the tests' shared server is never touched."""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.postgres import ROOT

SCRIPT = ROOT / "scripts" / "ensure-postgres"

pytestmark = pytest.mark.slow


def ensure(base: Path) -> str:
    run = subprocess.run(
        [str(SCRIPT)],
        env={**os.environ, "CARDAVIA_POSTGRES_BASE": str(base)},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return run.stdout.strip()


def state(base: Path) -> tuple[int, Path]:
    port, folder = Path(f"{base}.state").read_text().split()
    return int(port), Path(folder)


def stop(folder: Path) -> None:
    pg_ctl = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))[-1]
    command = [str(pg_ctl), "-D", str(folder / "data"), "-m", "immediate", "-w", "stop"]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, capture_output=True, check=True, timeout=60)


def answers(url: str) -> bool:
    psql = shutil.which("psql")
    assert psql is not None
    run = subprocess.run(
        [psql, url, "-tAc", "SELECT 1"], capture_output=True, text=True, timeout=60, check=False
    )
    return run.stdout.strip() == "1"


def test_two_runs_at_once_share_one_server_which_later_runs_reuse_until_it_is_gone(tmp_path: Path) -> None:
    base = tmp_path / "pg"
    with ThreadPoolExecutor(2) as pool:
        urls = list(pool.map(ensure, [base, base]))
    port, folder = state(base)
    try:
        assert urls == [f"postgresql://postgres@127.0.0.1:{port}/postgres"] * 2
        assert port != 5432
        assert answers(urls[0])
        assert ensure(base) == urls[0]  # still up: reused
        stop(folder)
        again = ensure(base)  # gone: a new one, and the old folder with it
        assert answers(again)
        assert not folder.exists()
        port, folder = state(base)
        assert again == f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        stop(folder)
        shutil.rmtree(folder, ignore_errors=True)
