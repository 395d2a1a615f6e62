"""`cardavia bot --ladder` against a live server: bot profiles made once, rated matches, standings printed."""

from __future__ import annotations

import asyncio
import re
import stat
from pathlib import Path

import pytest

from cardavia.cli import main
from cardavia.clients.cli.keys import LADDER_FORMAT, KeyStore
from cardavia.clients.cli.session import Session
from cardavia.protocol import messages as m

STANDING = re.compile(
    r"^(bot-\d): game (\d+) briscola: (won|lost|no single winner) \(\d+ \d+\), "
    r"rating (\d+) -> (\d+) \(([+-]\d+)\); rank (\d+), rating (\d+) ±(\d+) after (\d+) rated games",
    re.M,
)


def ladder(url: str, path: Path, games: int, seed: str) -> list[str]:
    return [
        "bot", "--server", url, "--game", "briscola", "--level", "random", "--opponents", "random",
        "--ladder", "--ladder-file", str(path), "--count", "2", "--games", str(games), "--seed", seed,
    ]  # fmt: skip


async def test_ladder_bots_play_rated_matches_as_their_own_profiles_and_say_where_they_stand(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ladder" / "ladder.json"
    code = await asyncio.to_thread(main, ladder(url, path, 2, "first"))
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("a new bot profile") == 2
    seen = STANDING.findall(out)
    assert sorted((bot, int(game)) for bot, game, *_ in seen) == [
        ("bot-1", 1),
        ("bot-1", 2),
        ("bot-2", 1),
        ("bot-2", 2),
    ]
    for _bot, game, _outcome, before, after, change, _rank, rating, _dev, played in seen:
        assert int(after) - int(before) == int(change)
        assert int(change) != 0  # a rated match against a bot moves a new profile's rating
        assert rating == after  # the leaderboard already has the match the rating change told of
        assert played == game  # one rated match more each time
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    keys = KeyStore(path, kind=LADDER_FORMAT)
    assert keys.owners(url) == ["bot-1", "bot-2"] or keys.owners(url) == ["bot-2", "bot-1"]
    for who in ("bot-1", "bot-2"):
        key = keys.key(url, who)
        assert key is not None
        assert key not in out  # never printed

    async with Session(url, "watcher") as session:
        board = await session.request(session.requests.get_leaderboard("briscola", limit=100))
    assert isinstance(board, m.Leaderboard)
    ours = {row.name: row for row in board.top if row.name in ("bot-1", "bot-2")}
    assert set(ours) == {"bot-1", "bot-2"}
    assert all(row.bot and row.level is None and row.games == 2 for row in ours.values())

    code = await asyncio.to_thread(main, ladder(url, path, 1, "again"))  # the same profiles play on
    out = capsys.readouterr().out
    assert code == 0, out
    assert "a new bot profile" not in out
    assert out.count("bot profile 'bot-") == 2
    again = STANDING.findall(out)
    assert sorted(bot for bot, *_ in again) == ["bot-1", "bot-2"]
    assert all(played == "3" for *_, played in again)  # the rating carried on from the first run


async def test_a_ladder_needs_a_file_it_can_read(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ladder.json"
    path.write_text("not json", encoding="utf-8")
    code = await asyncio.to_thread(main, ladder(url, path, 1, "x"))
    assert code == 2
    assert f"{path}: not JSON" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "not json"
    assert main(["bot", "--game", "scopa", "--ladder", "--room", "KX4PQ"]) == 2
    assert "not with --room" in capsys.readouterr().err
    assert main(["bot", "--game", "scopa", "--ladder-file", str(path)]) == 2
    assert "--ladder-file goes with --ladder" in capsys.readouterr().err


async def test_a_key_the_server_does_not_know_is_replaced_by_a_new_profile(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ladder.json"
    keys = KeyStore(path, kind=LADDER_FORMAT)
    stale = "x" * 32  # the key of a profile of a database since reset
    keys.remember(url, "old", stale, player="p-0000000000000000", name="old")
    keys.remember(url, "damaged", "not a key!", player="p-0000000000000001", name="damaged")
    keys.remember("ws://elsewhere.example:8765/", "old", "kept-elsewhere")
    argv = ["bot", "--server", url, "--game", "briscola", "--level", "random", "--opponents", "random",
            "--ladder", "--ladder-file", str(path), "--name", "old", "--games", "1"]  # fmt: skip
    damaged = [*argv[:-4], "--name", "damaged", "--games", "1"]
    code = await asyncio.to_thread(main, argv)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "old: a new bot profile 'old'" in out
    fresh = KeyStore(path, kind=LADDER_FORMAT).key(url, "old")
    assert fresh is not None
    assert fresh != stale
    assert KeyStore(path, kind=LADDER_FORMAT).key("ws://elsewhere.example:8765/", "old") == "kept-elsewhere"
    assert await asyncio.to_thread(main, damaged) == 0
    assert "damaged: a new bot profile 'damaged'" in capsys.readouterr().out
    assert KeyStore(path, kind=LADDER_FORMAT).key(url, "damaged") != "not a key!"
