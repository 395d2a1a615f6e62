"""Screenshots of the lobby and of each game's table on a phone (360x740) and a laptop
(1280x800), written to ``$CARDAVIA_ARTIFACTS`` (else a folder of the test run) for people to
look at; the page must fit the phone's width at every step."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.browser import BROWSER, NARROW, WIDE, PersonFactory

pytestmark = BROWSER

GAMES = ["scopa", "briscola", "schnapsen", "doudizhu"]


@pytest.mark.parametrize("size", ["360x740", "1280x800"])
def test_screenshots_of_the_lobby_and_every_table(person: PersonFactory, artifacts: Path, size: str) -> None:
    anna = person(viewport=NARROW if size == "360x740" else WIDE)
    anna.open()
    page = anna.page
    width = NARROW["width"] if size == "360x740" else WIDE["width"]
    overflow = "() => document.documentElement.scrollWidth"

    def shoot(name: str) -> None:
        assert page.evaluate(overflow) <= width, f"the {name} is wider than the screen"
        path = artifacts / f"{name}-{size}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000

    # the packs' pictures are drawn just after the lobby's first frame
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pack')].every((pack) => pack.querySelector('svg'))"
    )
    assert page.locator(".pack svg").count() >= 4 * 3, "a few cards of each game's usual pack"
    shoot("lobby")
    for game in GAMES:
        anna.play_now(game)
        assert anna.state() == "turn"
        # our turn: the hand is in sight, also where it lies below the board (on the phone)
        expect(page.locator(".tv-hand button.tv-card").first).to_be_in_viewport()
        shoot(game)
        page.get_by_role("button", name=anna.t("webtable.leave")).click()
        page.locator(".lobby:not([hidden])").wait_for()
        # a room left to its bots counts against the connection that made it until its match
        # ends (max_rooms_per_connection): a new connection starts afresh
        page.reload()
        anna.wait_online()
