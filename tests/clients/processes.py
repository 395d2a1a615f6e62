"""A `cardavia serve` process for the tests that kill a server and start it again on the same port."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path


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
        for _ in range(300):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.proc.poll() is not None:
                break
            await asyncio.sleep(0.05)
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
