"""When a bot answers a person's move: in the same step when it has nothing to wait for (no bot
delay, a level that decides inline), else from a task of its own after the delay."""

from __future__ import annotations

from typing import Any

import pytest

from cardavia.bots.registry import make_bot
from cardavia.games.errors import IllegalAction
from cardavia.protocol import messages as m
from cardavia.server.bot_runner import BotRunner
from tests.support.sinks import Person, lone_room
from tests.support.waiting import wait_until


async def _turn_after(person: Person, count: int) -> m.YourTurn:
    """The person's turn after the first ``count``, waited for (a bot may move first, from a task)."""
    await wait_until(lambda: len(person.turns()) > count, f"the person's turn after {count}", timeout=2.0)
    return person.turns()[-1]


@pytest.mark.parametrize("game_id", ["briscola", "doudizhu"])
async def test_a_bot_with_nothing_to_wait_for_answers_before_the_move_returns(game_id: str) -> None:
    runner = BotRunner(0)
    room, person = lone_room(game_id, runner, bot_delay=0.0), Person()
    try:
        room.sit(0, person, "Anna")
        await room.start("seed-answers")
        for _ in range(6):
            turn = await _turn_after(person, 0)
            before = len(person.turns())
            await room.act(0, turn.legal[0])
            if room.state is None or room.state.is_over:
                break
            # every bot between this move and the person's next turn has already moved
            assert room.state.to_move == 0
            assert len(person.turns()) == before + 1
            assert room.task_count() == 0
    finally:
        room.close()
        runner.close()


async def test_with_a_bot_delay_the_bot_answers_later_from_a_task() -> None:
    runner = BotRunner(0)
    room, person = lone_room("briscola", runner, bot_delay=0.05), Person()
    try:
        room.sit(0, person, "Anna")
        await room.start("seed-answers")
        turn = await _turn_after(person, 0)
        before = len(person.turns())
        await room.act(0, turn.legal[0])
        assert room.state is not None
        if room.state.to_move != 0:  # the bot is to answer: not yet
            assert room.task_count() >= 1  # the bot's, waiting out its delay
            assert len(person.turns()) == before
            await _turn_after(person, before)
    finally:
        room.close()
        runner.close()


@pytest.mark.parametrize("level", ["random", "basic"])
async def test_a_bot_is_handed_its_seats_view_unless_it_reads_none(level: str) -> None:
    """A bot that reads the view gets its seat's (never another's); the random level reads none,
    and no view is built for it."""
    shown: list[dict[str, Any]] = []

    def watched_bot(game: str, asked: str, seed: str) -> Any:
        bot = make_bot(game, level, seed)
        choose = bot.choose

        def recording(view: Any, legal: Any, budget: Any = None) -> Any:
            shown.append(view)
            return choose(view, legal, budget)

        bot.choose = recording  # type: ignore[method-assign]
        return bot

    runner = BotRunner(0)
    room, person = lone_room("briscola", runner, bot_delay=0.0, bots=watched_bot), Person()
    try:
        room.sit(0, person, "Anna")
        await room.start("seed-views")
        for _ in range(4):
            turn = await _turn_after(person, 0)
            await room.act(0, turn.legal[0])
    finally:
        room.close()
        runner.close()
    assert shown
    if level == "random":
        assert all(view == {} for view in shown)
    else:
        assert all(view["seat"] == 1 and view["hand"] for view in shown)


async def test_a_play_of_the_right_ranks_in_suits_not_held_is_refused_and_changes_nothing() -> None:
    """A Dou Dizhu play equals any play of the same ranks, whatever its suits: one naming cards
    the seat does not hold must still be refused with the engine's reason, not played."""
    runner = BotRunner(0)
    room, person = lone_room("doudizhu", runner, bot_delay=0.0), Person()
    try:
        room.sit(0, person, "Anna")
        await room.start("seed-suits")
        state = room.state
        assert state is not None
        while True:  # bid until the person's first play (bots answer inside each act)
            turn = await _turn_after(person, len(person.turns()) - 1)
            singles = (a for a in turn.legal if a.get("combo") == "single")
            play = next((a for a in singles if a["cards"][0][-1] in "SHDC"), None)  # not a joker
            if play is not None:
                break
            await room.act(0, turn.legal[-1])
        held = set(room.state.view(0)["hand"])
        code = play["cards"][0]
        other = next(code[:-1] + suit for suit in "SHDC" if code[:-1] + suit not in held and code[-1] != suit)
        before, accepted = room.state, room.accepted
        with pytest.raises(IllegalAction, match="not in") as refused:
            await room.act(0, {"combo": "single", "cards": [other]})
        assert refused.value.code == "illegal_action"
        assert room.state is before
        assert room.accepted == accepted
    finally:
        room.close()
        runner.close()
