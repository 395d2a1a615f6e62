"""The bot SDK against a live server: engine bots, callables and ClientBots play whole matches."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardavia.bots.registry import make_bot
from cardavia.clients.cli.sdk import BotClient, BotError, ClientBot, GameResult, Turn, run_bot
from cardavia.games.errors import ClientError
from cardavia.protocol import messages as m


async def test_a_server_bot_object_plays_matches_as_a_network_client(url: str) -> None:
    bot = make_bot("scopa", "basic", "net")
    results = await run_bot(url, bot, game="scopa", games=2, bot_level="random", rate=None)
    assert [r.number for r in results] == [1, 2]
    assert len({r.record for r in results}) == 2
    assert all(r.seat == 0 and r.game == "scopa" for r in results)
    assert all(max(r.scores) >= 11 for r in results)


async def test_two_bot_clients_complete_a_match_in_one_room(url: str) -> None:
    owner = BotClient(url, make_bot("briscola", "basic", "a"), "briscola", name="Anna", humans=2)
    playing = asyncio.ensure_future(owner.run())
    room = await owner.seated()
    assert room.code
    joined = await run_bot(
        url, make_bot("briscola", "random", "b"), game="briscola", name="Bo", code=room.code
    )
    mine = await playing
    assert mine[0].record == joined[0].record
    assert (mine[0].room, joined[0].room) == (room.room, room.room)
    assert {mine[0].seat, joined[0].seat} == {0, 1}
    assert mine[0].scores == joined[0].scores


async def test_quick_match_bots_meet_and_play_several_games(url: str) -> None:
    first = BotClient(
        url, make_bot("scopa", "random", "a"), "scopa", name="A", quick=True, games=2, rate=None
    )
    playing = asyncio.ensure_future(first.run())
    await first.seated()
    bot = make_bot("scopa", "random", "b")
    second = await run_bot(url, bot, game="scopa", name="B", quick=True, games=2, rate=None)
    first_results = await playing
    assert [r.record for r in first_results] == [r.record for r in second]
    assert len({r.record for r in second}) == 2  # a rematch, not the same match told twice


@pytest.mark.slow
async def test_a_callable_an_async_callable_and_a_client_bot_all_play(url: str) -> None:
    def greedy(turn: Turn) -> dict[str, Any]:
        return max(turn.legal, key=lambda action: len(action.get("capture", [])))

    async def first_action(turn: Turn) -> Any:
        await asyncio.sleep(0)  # a coroutine that really awaits, as an async bot may
        return turn.actions()[0]  # an engine action is accepted too

    class Counting(ClientBot):
        def __init__(self) -> None:
            self.turns = 0
            self.starts: list[m.Snapshot] = []
            self.ends: list[GameResult] = []

        def play(self, turn: Turn) -> dict[str, Any]:
            assert turn.view["hand"], "a turn always shows the seat's own hand"
            self.turns += 1
            return turn.legal[-1]

        def on_match_start(self, snapshot: m.Snapshot) -> None:
            self.starts.append(snapshot)

        def on_match_end(self, result: GameResult) -> None:
            self.ends.append(result)

    counting = Counting()
    results = await asyncio.gather(
        run_bot(url, greedy, game="scopa", bot_level="random"),
        run_bot(url, first_action, game="briscola", bot_level="random"),
        run_bot(url, counting, game="briscola", bot_level="random"),
    )
    assert all(len(r) == 1 and r[0].record for r in results)
    assert counting.turns == 20  # 40 cards, two players: 20 tricks led or followed by each
    assert (len(counting.starts), counting.ends) == (1, results[2])


async def test_a_refused_action_stops_the_bot_with_the_servers_reason(url: str) -> None:
    def cheat(turn: Turn) -> dict[str, Any]:
        return {"play": "XX"}

    with pytest.raises(BotError) as refused:
        await run_bot(url, cheat, game="briscola")
    assert refused.value.code == "bad_card"


def test_where_to_sit_is_one_choice_and_the_game_must_exist() -> None:
    with pytest.raises(ValueError, match="choose one"):
        BotClient("ws://x/", make_bot("scopa", "random"), "scopa", quick=True, code="ABCDE")
    with pytest.raises(ValueError, match="needs start_after"):
        BotClient("ws://x/", make_bot("scopa", "random"), "scopa", humans=2, public=False)
    with pytest.raises(ValueError, match="at least 1"):
        BotClient("ws://x/", make_bot("scopa", "random"), "scopa", games=0)
    with pytest.raises(ClientError):
        BotClient("ws://x/", make_bot("scopa", "random"), "tressette")
    with pytest.raises(TypeError, match="a bot is"):
        BotClient("ws://x/", 42, "scopa")  # type: ignore[arg-type]
