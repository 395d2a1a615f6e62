"""The page in a real browser (Debian's Chromium through Playwright) against a real server.

Each test gets a server of its own, run in-process on a thread with its own
event loop (a free port, quick bots), so the page and the WebSocket share the
server's port as in production; and a fresh browser context (its own storage,
so its own resume token and settings) from one Chromium per module. The people
at those pages (``Player``) and the server thread are in tests/support/browser.py.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.support.browser import CHROMIUM, WIDE, PersonFactory, Player, ServerThread, server_config


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    running = ServerThread(server_config(tmp_path))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``$CARDAVIA_ARTIFACTS``, else a folder of the test run."""
    chosen = os.environ.get("CARDAVIA_ARTIFACTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def person(browser: Browser, server: ServerThread) -> Iterator[PersonFactory]:
    """Makes a person at a page of their own (``person()``, ``person(viewport=NARROW)``), in a
    browser context of their own; every context is closed after the test."""
    made: list[Player] = []

    def make(*, viewport: dict[str, int] | None = None, base: str | None = None) -> Player:
        size = viewport or WIDE
        context = browser.new_context(
            viewport={"width": size["width"], "height": size["height"]},
            locale="en-US",
            reduced_motion="reduce",  # cards that do not move are clicked at once
        )
        player = Player(context, base or server.url)
        made.append(player)
        return player

    yield make
    for player in made:
        with contextlib.suppress(Exception):
            player.context.close()
