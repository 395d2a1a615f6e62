"""A PostgreSQL server of one test's own, which the test may stop and start again (the shared one
of ``tests/support/postgres.py`` serves every test at once and must stay up).

Made by ``scripts/ensure-postgres`` under a base path of its own (``CARDAVIA_POSTGRES_BASE``):
a private data directory under /tmp, trust auth on 127.0.0.1, a free port kept across restarts.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not found:
        raise RuntimeError("no pg_ctl under /usr/lib/postgresql (scripts/ensure-postgres installs it)")
    return found[-1].parent


def _as_postgres(command: list[str]) -> list[str]:
    """The server refuses to run as root: run its tools as the postgres user when we are root."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class PostgresServer:
    """A private PostgreSQL: ``url`` (its ``postgres`` database), ``stop`` (at once, as a crash
    or a pulled cable looks to its clients), ``start`` (on the same port, same data), ``remove``."""

    def __init__(self, base: Path) -> None:
        self._base = base
        run = subprocess.run(
            [str(ROOT / "scripts" / "ensure-postgres")],
            env=os.environ | {"CARDAVIA_POSTGRES_BASE": str(base)},
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if run.returncode != 0:
            raise RuntimeError(f"scripts/ensure-postgres failed: {run.stderr.strip()}")
        self.url = run.stdout.strip().splitlines()[-1]
        port, folder = Path(f"{base}.state").read_text(encoding="utf-8").split()
        self.port, self._dir = int(port), Path(folder)

    def _ctl(self, *args: str) -> None:
        command = [str(_bin() / "pg_ctl"), "-D", str(self._dir / "data"), *args]
        subprocess.run(_as_postgres(command), check=True, capture_output=True, timeout=60)

    def stop(self) -> None:
        """Down: every connection cut, none taken until ``start``. A fast shutdown, not an
        immediate one: the server runs with ``synchronous_commit=off``, so a crash would lose
        the last commits it had acknowledged, which no real database of the nodes may do."""
        self._ctl("stop", "-m", "fast", "-w")

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self._dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        self._ctl("-l", str(self._dir / "server.log"), "-w", "-t", "30", "-o", options, "start")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already down
            self._ctl("stop", "-m", "immediate", "-w")
        shutil.rmtree(self._dir, ignore_errors=True)
        for suffix in (".state", ".lock"):
            Path(f"{self._base}{suffix}").unlink(missing_ok=True)
