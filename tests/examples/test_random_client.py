"""The examples in examples/ work against a live server."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


async def test_random_client_example_plays_a_match(server: CardaviaServer) -> None:
    spec = importlib.util.spec_from_file_location("random_client", EXAMPLES / "random_client.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = await module.play(f"ws://127.0.0.1:{server.port}/", "briscola")
    assert isinstance(result, m.MatchResult)
    assert result.record
