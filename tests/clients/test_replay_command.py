"""`cardavia replay --server`: a finished match step by step, every hand, the strong bot's other choices.

The replay answers here are made the way the server makes them (every seat's
view at the start, then each action with each seat's delta ops), from real
engine matches, and served by a small scripted server, so the command is
checked end to end on its own; the live server's ``get_replay`` is tested in
``tests/server/``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from cardavia.cli import main
from cardavia.clients.cli.replay import ReplayText
from cardavia.clients.cli.tui.moves import MoveMenu
from cardavia.clients.cli.tui.names import CardNames
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, encode
from cardavia.protocol.i18n import Texts
from tests.clients.replays import played
from tests.support.ports import free_port


def hand_line(texts: Texts, names: CardNames, who: str, view: dict[str, Any]) -> str:
    return "   " + texts("profile.cli.replay.hand", name=who, cards=names.cards(view["hand"]))


@pytest.mark.parametrize("game_id", ["scopa", "briscola"])
def test_every_step_is_told_with_every_hand_as_the_engine_had_it(game_id: str) -> None:
    replay, after = played(game_id, "replay")
    texts = Texts("en")
    shown = ReplayText(replay, texts)
    names = shown.names
    header = shown.header()
    assert header[0] == f"Replay of {names.game(game_id)}, match r-test-1"
    assert "Anna" in header[1]
    assert header[2] == hand_line(texts, names, "Anna", replay.views[0])
    judged = 0
    for number, lines in enumerate(shown.steps(), start=1):
        step = replay.steps[number - 1]
        mover = "Anna" if step["seat"] == 0 else f"Bot {step['seat'] + 1} (basic)"  # named by seat and level
        assert any(line.startswith(f"{number}. {mover}: ") for line in lines)
        hands = lines[-len(after[number - 1]) :]
        for seat, view in enumerate(after[number - 1]):  # rebuilt from the ops: the engine's own views
            who = "Anna" if seat == 0 else f"Bot {seat + 1} (basic)"
            assert hands[seat] == hand_line(texts, names, who, view)
        note = replay.analysis[number - 1]
        best = [line for line in lines if "the strong bot would play" in line]
        if note is not None and note.get("differs"):
            judged += 1
            before = replay.views[0] if number == 1 else after[number - 2][0]
            label = MoveMenu(game_id, [], before, names).label(note["best"])
            assert best == ["   " + texts("profile.cli.replay.best", move=label)]
        else:
            assert not best  # a bot's move and a forced move are not judged
    assert judged > 0
    assert number == len(replay.steps)
    result = replay.record["result"]
    assert isinstance(result, dict)
    final = shown.footer()[0]
    assert final.startswith("Final scores")
    winner = result["winner"]
    if winner is not None:
        assert f"{'Anna' if winner == 0 else f'Bot {winner + 1} (basic)'} won" in final


def test_the_replay_speaks_the_players_language() -> None:
    replay, _ = played("scopa", "lingua")
    lines = list(ReplayText(replay, Texts("it")).lines())
    assert lines[0].startswith("Replay di Scopa")
    assert lines[4] == "Smazzata 1"
    assert any(line.startswith("Smazzata 2") for line in lines)
    assert any("il bot forte giocherebbe" in line for line in lines)


class ReplayServer:
    """Answers ``get_replay`` for one record, and ``unknown_record`` for any other."""

    def __init__(self, replay: m.Replay) -> None:
        self.replay = replay
        self.hellos: list[m.Hello] = []

    async def handle(self, ws: ServerConnection) -> None:
        async for frame in ws:
            message = decode_client(frame)
            reply: m.Reply
            if isinstance(message, m.Hello):
                self.hellos.append(message)
                reply = m.Welcome(id=message.id, session="s-1", resume="t", server="fake")
            elif isinstance(message, m.GetReplay) and message.record == self.replay.record_id:
                reply = self.replay.model_copy(update={"id": message.id})
            else:
                reply = m.Error(id=message.id, code="unknown_record", message="no finished match has that id")
            await ws.send(encode(reply))


@pytest.fixture
async def replay_server() -> AsyncIterator[tuple[ReplayServer, str, m.Replay]]:
    replay, _ = played("briscola", "served")
    server = ReplayServer(replay)
    async with serve(server.handle, "127.0.0.1", 0) as listening:
        port = next(iter(listening.sockets)).getsockname()[1]
        yield server, f"ws://127.0.0.1:{port}/", replay


async def test_the_command_prints_a_served_match_and_sends_no_player_key(
    replay_server: tuple[ReplayServer, str, m.Replay], capsys: pytest.CaptureFixture[str]
) -> None:
    server, url, replay = replay_server
    code = await asyncio.to_thread(main, ["replay", "--server", url, "r-test-1", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines == list(ReplayText(replay, Texts("en")).lines())
    assert sum(1 for line in lines if line.split(".")[0].isdigit()) == len(replay.steps)
    assert "the strong bot would play" in out
    assert [h.player for h in server.hellos] == [None]


async def test_an_unknown_record_and_an_absent_server_are_said_in_words(
    replay_server: tuple[ReplayServer, str, m.Replay], capsys: pytest.CaptureFixture[str]
) -> None:
    _, url, _ = replay_server
    code = await asyncio.to_thread(main, ["replay", "--server", url, "r-nothing-1", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 1
    assert not out
    assert err.strip() == f"cardavia replay: {Texts('en').error('unknown_record')}"
    nowhere = f"ws://127.0.0.1:{free_port()}/"
    assert await asyncio.to_thread(main, ["replay", "--server", nowhere, "r-test-1"]) == 1
    assert nowhere in capsys.readouterr().err
    assert await asyncio.to_thread(main, ["replay", "--server", "http://example.invalid/", "r-test-1"]) == 2
    assert "ws://host:port/" in capsys.readouterr().err


async def test_a_match_played_on_a_live_server_is_replayed_move_by_move(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardavia.bots.registry import make_bot
    from cardavia.clients.cli.sdk import run_bot

    (result,) = await run_bot(
        url, make_bot("briscola", "random", "r"), game="briscola", name="Anna", rate=None
    )
    assert result.record is not None
    code = await asyncio.to_thread(main, ["replay", "--server", url, result.record, "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"Replay of Briscola, match {result.record}"
    moves = [line for line in lines if line.split(".")[0].isdigit()]
    assert len(moves) == 40  # briscola: every card of the deck is played
    assert sum(line.startswith(f"{n}. ") for n, line in enumerate(moves, start=1)) == 40
    assert sum("Anna: play" in line for line in moves) == 20
    judged = [line for line in lines if "strong bot" in line]
    assert judged  # Anna's moves are judged: the same as the strong bot's, or another
    assert lines[-1].startswith(f"Final scores {' - '.join(str(s) for s in result.scores)}")
    assert all(line.endswith(": nothing") for line in lines[-3:-1])  # every hand played out


async def test_a_replay_that_does_not_read_is_said_not_shown_half(capsys: pytest.CaptureFixture[str]) -> None:
    replay, _ = played("briscola", "hostile")
    steps = [dict(s) for s in replay.steps]
    steps[3] = {**steps[3], "ops": [[[9, ["no", "such", "path"], 1]], []]}  # ops that fit no view
    broken = replay.model_copy(update={"steps": steps})
    server = ReplayServer(broken)
    async with serve(server.handle, "127.0.0.1", 0) as listening:
        port = next(iter(listening.sockets)).getsockname()[1]
        url = f"ws://127.0.0.1:{port}/"
        code = await asyncio.to_thread(main, ["replay", "--server", url, "r-test-1", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "cannot be read (step 4" in err
    assert "Final scores" not in out
