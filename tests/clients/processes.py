"""A `cardavia serve` process for the tests that kill a server and start it again on the same port."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.ports import port_open
from tests.support.waiting import wait_until


class ServerProcess:
    """One server process; ``restart`` starts a new one with the same settings and port."""

    def __init__(self, records: Path, port: int, settings: dict[str, str]) -> None:
        self.records, self.port, self.settings = records, port, settings
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> None:
        env = {
            **os.environ,
            "CARDAVIA_BOT_DELAY": "0",
            "CARDAVIA_BOT_WORKERS": "0",
            "CARDAVIA_RATE_PER_SECOND": "1000",
            "CARDAVIA_RATE_BURST": "1000",
            "CARDAVIA_GRACE_SECONDS": "30",
            "CARDAVIA_RECORDS_DIR": str(self.records),
            **self.settings,
        }
        self.starts += 1
        with (self.records / f"server-{self.starts}.log").open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardavia", "serve", "--port", str(self.port)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        proc = self.proc
        await wait_until(
            lambda: port_open(self.port) or proc.poll() is not None, "the server listening", timeout=15.0
        )
        if not port_open(self.port):
            raise RuntimeError(f"the server did not start: {self.log()}")

    def kill(self) -> None:
        """kill -9: no close frames, no goodbye; what a crash or a lost machine looks like."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def log(self) -> str:
        return "\n".join(
            p.read_text(errors="replace")[-2000:] for p in sorted(self.records.glob("server-*.log"))
        )
