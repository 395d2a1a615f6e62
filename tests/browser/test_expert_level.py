"""The lobby offers the expert level in a game whose catalogue lists it, after strong, named and
described in the reader's language, and a match against it names the bot so; a game without one
offers no such choice. The expert is a stand-in registered for the test; a screenshot of the
lobby with it chosen is written to ``$CARDAVIA_ARTIFACTS`` for people to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.protocol.i18n import own_messages
from tests.support.browser import BROWSER, PersonFactory
from tests.support.experts import list_quick_expert

pytestmark = BROWSER


@pytest.fixture
def briscola_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    list_quick_expert(monkeypatch)


@pytest.mark.usefixtures("briscola_expert")
def test_the_lobby_offers_expert_where_the_game_has_one(person: PersonFactory, artifacts: Path) -> None:
    anna = person()
    anna.open()
    page = anna.page
    levels = page.locator(".level-group input[name='lobby-level']")
    anna.choose_game("scopa")
    assert "expert" not in levels.evaluate_all("inputs => inputs.map(i => i.value)")
    anna.choose_game("briscola")
    assert levels.evaluate_all("inputs => inputs.map(i => i.value)") == [
        "random",
        "basic",
        "strong",
        "expert",
    ]

    anna.choose_language("pl")
    polish = own_messages("pl")
    expert = page.locator(".level-group label", has=page.locator("input[value='expert']"))
    assert expert.inner_text().strip() == polish["bots.level.expert"] == "Ekspert"
    expert.click()
    page.locator(".level-about", has_text=polish["bots.about.briscola.expert"]).wait_for()
    page.screenshot(path=str(artifacts / "lobby-expert-pl.png"))

    page.locator('[data-focus-key="play-now"]').click()
    anna.wait_table("briscola")
    seats = page.locator(".tv-seat-name").all_inner_texts()
    assert "Bot 2 (ekspert)" in seats
    page.screenshot(path=str(artifacts / "table-expert-pl.png"))
