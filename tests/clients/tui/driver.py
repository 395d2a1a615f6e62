"""Driving the terminal client the way a person does: by pressing keys, and waiting for the screen."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer, Label, Static
from textual.widgets._footer import FooterKey

from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.dialogs import ChoiceScreen
from cardavia.clients.cli.tui.hand import HandWidget
from cardavia.clients.cli.tui.summaries import DealSummaryScreen, MatchSummaryScreen
from cardavia.clients.cli.tui.table import TableScreen
from cardavia.clients.cli.tui.tables.base import plain
from tests.support.waiting import wait_until

HANG = 30.0
"""Seconds after which a wait is a hang: a guard against a stuck test, never a speed check."""


async def until(pilot: Pilot[Any], condition: Callable[[], object], what: str, limit: float = HANG) -> None:
    """Let the app run until ``condition`` holds (sleeping, not forcing a repaint at every look)."""
    await wait_until(condition, what, timeout=limit, interval=0.005)


async def screen_ready(pilot: Pilot[Any], app: CardaviaApp, kind: type[Screen[Any]], what: str) -> None:
    """Wait until a screen of ``kind`` is on top *and mounted*: composed, its widgets there to query.

    Waiting on the screen's type alone races its compose: the screen is pushed
    a frame before its children exist, and a query in that frame finds nothing.
    """
    await until(pilot, lambda: isinstance(app.screen, kind) and app.screen.is_mounted, what)


SIZE = (110, 36)
"""The terminal size of the screen tests."""


def text_of(widget: Static | Label) -> str:
    """What a line or panel shows, as plain text."""
    content = widget.content
    if isinstance(content, str):
        return content
    if isinstance(content, Text):
        return content.plain
    return plain(content)


def screen_text(app: CardaviaApp) -> str:
    """Every character the top screen shows, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def footer_keys(screen: Screen[Any]) -> dict[str, str]:
    return {k.key: k.description for k in screen.query_one(Footer).query(FooterKey)}


async def footer_key(pilot: Any, screen: Screen[Any], key: str) -> str:
    """What the footer of ``screen`` says ``key`` does, once it says it: a footer draws its keys
    a moment after its screen is shown, so reading it at once may find none yet."""
    await until(pilot, lambda: key in footer_keys(screen), f"the footer's {key!r} key")
    return footer_keys(screen)[key]


async def catalogue_ready(pilot: Any, app: CardaviaApp) -> None:
    """Wait until the lobby has the server's catalogue and a game chosen."""
    await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the catalogue")


def table_of(app: CardaviaApp) -> TableScreen:
    assert app.table is not None, "no table is open"
    return app.table


async def cursor_to(pilot: Pilot[Any], hand: HandWidget, card: str) -> None:
    """Press → until the cursor is on ``card``."""
    for _ in range(len(hand.cards) + 1):
        if hand.current() == card:
            return
        await pilot.press("right")
    raise AssertionError(f"the cursor never reached {card} in {hand.cards}")


async def choose_option(pilot: Pilot[Any], app: CardaviaApp, index: int) -> None:
    await screen_ready(pilot, app, ChoiceScreen, "the choice of moves")
    if index < 9:
        await pilot.press(str(index + 1))
    else:
        await pilot.press(*["down"] * index, "enter")


async def play_by_keys(pilot: Pilot[Any], app: CardaviaApp, action: dict[str, Any]) -> None:
    """Play one of the offered actions with the keys a person would press."""
    table = table_of(app)
    menu = table.menu
    assert action in menu.legal, f"{action} is not offered"
    hand = table.query_one(HandWidget)
    extra = next((e for e in menu.extras if e.action == action), None)
    if extra is not None:
        await pilot.press(extra.key)
    elif menu.multi:
        await pilot.press("backspace")
        for card in action["cards"]:
            await cursor_to(pilot, hand, card)
            await pilot.press("space")
        await pilot.press("enter")
        readings = menu.readings(hand.selected_cards() or action["cards"])
        if len(readings) > 1:
            await choose_option(pilot, app, [o.action["combo"] for o in readings].index(action["combo"]))
    else:
        card = action["play"]
        await cursor_to(pilot, hand, card)
        options = [o.action for o in menu.options(card)]
        await pilot.press("enter")
        if len(options) > 1:
            await choose_option(pilot, app, options.index(action))


async def play_match(
    pilot: Pilot[Any],
    app: CardaviaApp,
    rng: random.Random,
    *,
    limit: float = HANG,
    stop: type[Screen[Any]] = MatchSummaryScreen,
    look: Callable[[], None] | None = None,
    read: Callable[[Screen[Any]], None] | None = None,
) -> tuple[Screen[Any], int, int]:
    """Answer every turn with a random offered action, closing deal summaries, until a ``stop``
    screen shows (the match summary). Returns that screen, the moves made and the deal summaries seen.
    ``look`` is called at each turn before the move, to check what the screen shows then; ``read``
    with each deal summary before it is closed."""
    moves = deals = 0
    played: int | None = None

    def ready() -> bool:
        table = app.table
        turn = table is not None and table.menu.active and table.turn_seq != played
        return isinstance(app.screen, (DealSummaryScreen, MatchSummaryScreen)) or (
            turn and app.screen is table
        )

    while True:
        await until(pilot, ready, "a turn or a summary", limit)
        screen = app.screen
        if isinstance(screen, stop):
            return screen, moves, deals
        if isinstance(screen, DealSummaryScreen):
            deals += 1
            if read is not None:
                await until(pilot, lambda s=screen: s.is_mounted, "the deal summary drawn")  # type: ignore[misc]
                read(screen)
            await pilot.press("enter")
            await until(pilot, lambda s=screen: app.screen is not s, "the deal summary to close")  # type: ignore[misc]
            continue
        table = table_of(app)
        played = table.turn_seq
        if look is not None:
            await pilot.pause()  # the turn's layout is drawn
            look()
        await play_by_keys(pilot, app, rng.choice(table.menu.legal))
        moves += 1
