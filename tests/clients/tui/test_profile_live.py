"""The terminal client's profile against a live server: made by keys, kept in the settings file,
played rated, and the same profile again at the next start."""

from __future__ import annotations

import random
import re
from pathlib import Path

from textual.widgets import Label, Static

from cardavia.clients.cli.keys import KeyStore
from cardavia.clients.cli.session import Session
from cardavia.clients.cli.tui.app import CardaviaApp
from cardavia.clients.cli.tui.profile import NameScreen, ProfileScreen
from cardavia.clients.cli.tui.summaries import MatchSummaryScreen
from cardavia.protocol import messages as m
from tests.clients.tui.driver import play_match, screen_ready, screen_text, table_of, text_of, until

SIZE = (120, 40)


async def test_a_profile_made_here_plays_rated_and_is_back_at_the_next_start(
    url: str, tmp_path: Path
) -> None:
    keys = KeyStore(tmp_path / "cardavia" / "play.json")
    app = CardaviaApp(Session(url, "Anna"), name="Anna", keys=keys)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.catalogue is not None and app.lobby.game_id, "the lobby")
        await pilot.press("i")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        await pilot.press("n")
        await screen_ready(pilot, app, NameScreen, "the name form")
        await pilot.press("enter")  # the name given at the start: Anna
        await until(pilot, lambda: keys.key(url) is not None, "the key kept")
        await screen_ready(pilot, app, ProfileScreen, "the profile screen")
        await until(pilot, lambda: "Anna" in text_of(app.screen.query_one("#title", Label)), "the profile")
        key = keys.key(url)
        assert key is not None
        assert key not in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")
        assert app.lobby.rated
        await pilot.press("down")  # Briscola: one deal
        await pilot.press("p")
        summary, _, _ = await play_match(pilot, app, random.Random(7))
        assert isinstance(summary, MatchSummaryScreen)
        changed = re.compile(r"Briscola rating: 1500 → (\d+) \(([+-]\d+)\)")
        await until(pilot, lambda: any(changed.search(line) for line in table_of(app).written), "the change")
        after = next(int(f.group(1)) for line in table_of(app).written if (f := changed.search(line)))
        await pilot.press("l")
        await until(pilot, lambda: app.screen is app.lobby, "the lobby")

    again = CardaviaApp(Session(url, "Someone", player=keys.key(url)), name="Someone", keys=keys)
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: again.lobby.catalogue is not None, "the lobby")
        assert again.session.player is not None
        assert again.session.player.name == "Anna"
        assert again.lobby.rated
        await pilot.press("i")
        await screen_ready(pilot, again, ProfileScreen, "the profile screen")
        ratings = again.screen.query_one("#ratings", Static)
        await until(pilot, lambda: f"Briscola: {after} ±" in text_of(ratings), "the rating kept")
        assert "1 rated match" in text_of(ratings)
    assert isinstance(again.session, Session)
    assert again.session.welcome is not None
    assert again.session.welcome.player == m.PlayerInfo(id=again.session.player.id, name="Anna")
