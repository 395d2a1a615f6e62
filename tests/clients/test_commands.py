"""`cardavia bot` and `cardavia swarm` against a live server, run as the command line runs them."""

from __future__ import annotations

import asyncio
import re

import pytest

from cardavia.cli import main


async def test_bot_command_plays_every_game_and_prints_a_line_for_each(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = await asyncio.to_thread(
        main, ["bot", "--server", url, "--game", "briscola", "--quick", "--count", "2", "--games", "2",
               "--level", "random", "--seed", "s"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    lines = re.findall(r"^bot-(\d): game (\d) briscola room (\S+) seat (\d): .* record (\S+),", out, re.M)
    assert sorted((b, g) for b, g, *_ in lines) == [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")]
    for game in ("1", "2"):  # the two bots met in one room for each match
        assert len({room for _, g, room, *_ in lines if g == game}) == 1
    assert len({record for *_, record in lines}) == 2
    assert "4 of 4 games played by 2 random bot(s)" in out


async def test_three_quick_match_bots_of_a_game_that_seats_two_people_all_play(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Dou Dizhu quick room seats two people (the server's bot is the third): the odd bot out
    meets the others when they quick-match again, so every bot plays its games."""
    argv = ["bot", "--server", url, "--game", "doudizhu", "--quick", "--count", "3", "--games", "2",
            "--level", "random", "--seed", "s"]  # fmt: skip
    code = await asyncio.wait_for(asyncio.to_thread(main, argv), timeout=120)
    out = capsys.readouterr().out
    assert code == 0, out
    lines = re.findall(r"^bot-(\d): game (\d) doudizhu room (\S+) seat", out, re.M)
    assert sorted((b, g) for b, g, _ in lines) == [(b, g) for b in "123" for g in "12"]
    assert "6 of 6 games played by 3 random bot(s)" in out


async def test_a_quick_match_bot_nobody_can_join_any_more_says_so_and_the_command_ends(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bot", "--server", url, "--game", "doudizhu", "--quick", "--count", "3", "--games", "1",
            "--level", "random", "--seed", "s", "--wait-alone", "1"]  # fmt: skip
    code = await asyncio.wait_for(asyncio.to_thread(main, argv), timeout=120)
    out = capsys.readouterr().out
    assert code == 1, out
    assert "waiting in quick match for people to join (the other bots are done" in out
    left = re.findall(r"^bot-\d: left after 0 of 1 games: nobody came to its doudizhu quick", out, re.M)
    assert len(left) == 1, out
    assert "2 of 3 games played by 3 random bot(s)" in out


async def test_bot_command_refuses_a_level_the_game_lacks_and_a_game_of_another_room(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await asyncio.to_thread(main, ["bot", "--server", url, "--game", "scopa", "--count", "0"]) == 2
    assert "--count and --games must be at least 1" in capsys.readouterr().err


def test_bot_command_without_a_server_fails_with_a_line_per_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.ports import free_port

    code = main(["bot", "--server", f"ws://127.0.0.1:{free_port()}/", "--game", "scopa", "--count", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.count("failed:") == 2


async def test_swarm_command_runs_and_reports_no_errors(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = await asyncio.to_thread(
        main,
        ["swarm", "--server", url, "--clients", "6", "--rooms", "3", "--game", "scopa", "--duration", "2"],
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "swarm: 6 clients in 3 scopa rooms" in out
    assert "errors: none" in out


def test_swarm_command_refuses_more_people_than_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["swarm", "--clients", "9", "--rooms", "2", "--game", "briscola"]) == 2
    assert "use at least 5 rooms" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["bot", "play"])
def test_a_name_the_server_would_refuse_is_refused_with_one_line(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["--game", "scopa"] if command == "bot" else []
    assert main([command, "--name", "Eve\x1b[2J", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"cardavia {command}: --name U+001B (a control character) at position 4 is not allowed"
