"""The SDK example bot plays whole matches against a live server."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cardavia.server.app import CardaviaServer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.slow
async def test_greedy_bot_example_plays_a_match(
    server: CardaviaServer, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = importlib.util.spec_from_file_location("greedy_bot", EXAMPLES / "greedy_bot.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    [result] = await module.play(f"ws://127.0.0.1:{server.port}/")
    assert result.game == "scopa"
    assert result.record
    assert max(result.scores) >= 11
    assert capsys.readouterr().out.startswith(f"greedy: game 1 scopa room {result.room}")
