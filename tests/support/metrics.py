"""What a node's /metrics says, read as a test reads it: every sample by name and labels."""

from __future__ import annotations

import asyncio
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from cardavia.server.app import CardaviaServer


async def metric_samples(server: CardaviaServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the node's /metrics, by name and labels."""

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=5) as response:
            body: bytes = response.read()
            return body.decode()

    text = await asyncio.to_thread(get)
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
