"""A person at a page in a real browser (Debian's Chromium through Playwright) against a
real server run in-process on a thread of its own.

A ``Player`` is one person at one browser page: it records every WebSocket
frame the page receives (decoded with the protocol's own decoder, so a frame
that is not the protocol's fails the test) and reads the page's state from the
DOM, waiting on the page rather than on the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, WebSocket

from cardavia.protocol import messages as m
from cardavia.protocol.client import ViewStore
from cardavia.protocol.codec import decode_server
from cardavia.protocol.i18n import own_messages
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from tests.support.clients import client
from tests.support.servers import server_config as server_test_config

CHROMIUM = Path("/usr/bin/chromium")

BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="no /usr/bin/chromium: install it with scripts/ensure-chromium"
    ),
]
"""The marks of every browser test module (``pytestmark = BROWSER``)."""

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "it", "sv", "nb", "es", "pl"]
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "sv": "Svenska",
    "nb": "Norsk bokmål",
    "es": "Español",
    "pl": "Polski",
}
WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 360, "height": 740}
TIMEOUT_MS = 15_000
"""The longest the page may take to reach any state a test waits for."""


def server_config(tmp_path: Path, **changes: Any) -> ServerConfig:
    """The server tests' settings, with quick bots (yet slow enough that a person's page sees
    each move) and no per-address limit in the way of several pages on one address."""
    page: dict[str, Any] = {
        "bot_delay": 0.05,
        "sessions_per_minute": 0,
        "failed_lookups_per_minute": 0,
        "grace_seconds": 30.0,
    }
    return server_test_config(tmp_path, **{**page, **changes})


class ServerThread:
    """A ``CardaviaServer`` on a thread of its own; ``stop`` always ends both."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.server = CardaviaServer(config)
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.server.start())
            except BaseException as exc:
                failure.append(exc)
                started.set()
                return
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, name="cardavia-server", daemon=True)
        self.thread.start()
        started.wait(30)
        if failure:
            raise failure[0]
        self.url = f"http://127.0.0.1:{self.server.port}/"

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        done = asyncio.run_coroutine_threadsafe(self.server.shutdown(), self.loop)
        with contextlib.suppress(Exception):
            done.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


# ---------------------------------------------------------------- the page's words


def words(text: str) -> set[str]:
    """Words of three letters or more, lower-cased (as tests/protocol/test_catalogues.py counts them)."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


def message_words(text: str) -> set[str]:
    """The words of a catalogue message, placeholders and ICU syntax left out."""
    plain = re.sub(r"\{[^{}]*\}", " ", text)
    plain = re.sub(r"\b(plural|select|one|few|many|other|number)\b", " ", plain)
    return words(plain)


def english_only_words(lang: str) -> set[str]:
    """Words English messages use that no message of ``lang`` does: seeing one on a page in
    ``lang`` means an English label was left."""
    english: set[str] = set()
    for text in own_messages("en").values():
        english |= message_words(text)
    own: set[str] = set()
    for text in own_messages(lang).values():
        own |= message_words(text)
    return english - own


RAW_KEY = re.compile(
    r"\b(app|bots|combo|errors|forms|lobby|log|moves|options|rules|summary|table|web|webtable)"
    r"\.[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\b"
)


# ---------------------------------------------------------------- one person at one page

STATE_JS = """
() => {
  const open = (selector) => document.querySelector(selector + '[open]');
  const summary = open('dialog.tv-summary');
  if (summary) return summary.querySelectorAll('button').length > 1 ? 'match' : 'deal';
  if (open('dialog.tv-choice')) return 'choice';
  const table = document.querySelector('.table-root.tv');
  if (!table || table.closest('[hidden]')) return 'lobby';
  if (table.classList.contains('tv-my-turn')) return 'turn';
  return null;
}
"""
"""What the page shows that a person acts on: a deal or match summary, a choice, their turn;
null while others move."""


@dataclass
class Views:
    """One recipient's views, rebuilt from the frames the page received."""

    store: ViewStore = field(default_factory=ViewStore)
    history: list[dict[str, Any]] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)


class Player:
    """One person at one browser page."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.context = context
        self.base = base
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.messages: list[m.Reply] = []
        self.views = Views()
        self.errors: list[str] = []
        """Errors the page threw, frames that were not the protocol's, and anything the page's
        Content-Security-Policy refused (an inline style or script would show up here)."""
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.errors.append(message.text)

    # -------------------------------------------------------------- frames

    def _socket(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        # an exception would be lost in the event's dispatch: it is kept for the test to find
        try:
            self._receive(payload)
        except Exception as exc:
            self.errors.append(f"frame: {exc!r}")

    def _receive(self, payload: str | bytes) -> None:
        if not isinstance(payload, bytes):
            raise TypeError(f"a text frame: {payload!r}")
        message = decode_server(payload)  # raises on anything that is not the protocol's
        self.messages.append(message)
        store = self.views.store
        if isinstance(message, m.Snapshot):
            store.on_snapshot(message)
        elif isinstance(message, m.Delta):
            if not store.on_delta(message):
                return  # the page asks for a snapshot, which follows
        else:
            return
        assert store.view is not None
        self.views.history.append(json.loads(json.dumps(store.view)))
        self.views.seats.append(store.seat)

    def last(self, kind: type[Any]) -> Any:
        return next((msg for msg in reversed(self.messages) if isinstance(msg, kind)), None)

    def count(self, kind: type[Any]) -> int:
        return sum(isinstance(msg, kind) for msg in self.messages)

    # -------------------------------------------------------------- the page

    def open(self, path: str = "") -> None:
        self.page.goto(self.base + path)
        self.wait_online()

    def wait_online(self) -> None:
        self.page.locator('.conn[data-state="online"]').wait_for()
        # the lobby has the server's catalogue once the games are offered
        self.page.wait_for_function(
            "() => !!document.querySelector('.games-list input') || !!document.querySelector('.tv')"
        )

    def rename(self, name: str) -> None:
        """Saves a name in the lobby's form; the page says hello again under it."""
        field = self.page.get_by_label(self.t("web.name.label"))
        field.fill(name)
        self.page.get_by_role("button", name=self.t("web.name.save")).click()
        self.page.get_by_text(name, exact=False).first.wait_for()
        self.wait_online()

    def choose_language(self, lang: str) -> None:
        self.page.locator("select.language-select").select_option(lang)
        self.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)

    def choose_game(self, game: str) -> None:
        # the radio button itself is visually hidden: a person clicks its label, the game's picture
        radio = self.page.locator(f'.games-list input[value="{game}"]')
        self.page.locator(".games-list label", has=self.page.locator(f'input[value="{game}"]')).click()
        assert radio.is_checked()

    def play_now(self, game: str) -> None:
        self.choose_game(game)
        self.page.locator('[data-focus-key="play-now"]').click()
        self.wait_table(game)

    def create_room(self, game: str, humans: int) -> str:
        """Creates a room through the lobby's form; its code."""
        self.page.get_by_role("button", name=self.t("web.lobby.create")).click()
        dialog = self.page.get_by_role("dialog", name=self.t("web.create.title"))
        dialog.get_by_label(self.t("forms.create.game")).select_option(game)
        dialog.get_by_label(self.t("forms.create.humans")).select_option(str(humans))
        dialog.get_by_role("button", name=self.t("forms.create.button.create")).click()
        self.wait_table(game)
        self.page.wait_for_function("() => location.hash.startsWith('#/room/')")
        return self.room_code()

    def wait_table(self, game: str) -> None:
        self.page.locator(f'.table-root.tv[data-game="{game}"]').wait_for()

    def state(self, timeout: float = TIMEOUT_MS) -> str:
        """Waits until the page asks something of the person; what it asks."""
        handle = self.page.wait_for_function(STATE_JS, timeout=timeout)
        value = handle.json_value()
        assert isinstance(value, str)
        return value

    def hand(self) -> list[str]:
        """The card codes of the hand, as the page draws it."""
        codes = self.page.locator(".tv-hand button.tv-card").evaluate_all(
            "buttons => buttons.map(b => b.dataset.code)"
        )
        return [str(c) for c in codes]

    def hand_group(self) -> Any:
        return self.page.get_by_role("group", name=self.t("webtable.hand"))

    def playable(self) -> list[str]:
        codes = self.page.locator(".tv-hand button.tv-card.tv-playable").evaluate_all(
            "buttons => buttons.map(b => b.dataset.code)"
        )
        return [str(c) for c in codes]

    def card(self, code: str) -> Any:
        return self.page.locator(f'.tv-hand button.tv-card[data-code="{code}"]')

    def legal(self) -> list[dict[str, Any]]:
        """The moves of the last ``your_turn`` the page received."""
        turn = self.last(m.YourTurn)
        return [dict(a) for a in turn.legal] if turn is not None else []

    def close_summary(self) -> None:
        self.page.locator("dialog.tv-summary[open] .tv-primary").click()

    def text(self) -> str:
        return self.page.inner_text("body")

    def lang(self) -> str:
        return str(self.page.evaluate("() => document.documentElement.lang"))

    def t(self, key: str) -> str:
        """A message as the page's current language words it (simple messages only)."""
        lang = self.lang()
        return own_messages(lang).get(key) or own_messages("en")[key]

    def room_code(self) -> str:
        code = self.page.evaluate("() => location.hash")
        match = re.fullmatch(r"#/room/([A-Z0-9]+)", str(code))
        assert match, f"no room in the address: {code!r}"
        return match.group(1)

    def room_codes(self) -> set[str]:
        """Every room code the server sent: the page shows them, and a code's letters may spell a word."""
        codes = {msg.room.code for msg in self.messages if isinstance(msg, m.Snapshot)}
        for msg in self.messages:
            if isinstance(msg, m.Rooms):
                codes |= {room.code for room in msg.rooms}
        return {code for code in codes if code}

    def seat_names(self) -> list[str]:
        snapshot = self.last(m.Snapshot)
        if snapshot is None:
            return []
        return [str(seat.get("name") or "") for seat in snapshot.room.seats]


PersonFactory = Callable[..., Player]


# ---------------------------------------------------------------- a player without a page


class Opponent:
    """A person playing over the protocol itself (the server's own test client), on the
    server's event loop: takes a seat by room code and answers each turn with ``policy``."""

    def __init__(
        self, server: ServerThread, code: str, policy: Callable[[list[dict[str, Any]]], Any]
    ) -> None:
        self.moves = 0

        async def play() -> None:
            bo = await client(server.url.replace("http://", "ws://"), "Bo")
            await bo.hello()
            await bo.send(bo.req.join(code=code))
            try:
                while True:
                    message = await bo.recv(timeout=60)
                    if isinstance(message, m.YourTurn):
                        await bo.send(bo.req.act(policy([dict(a) for a in message.legal])))
                        self.moves += 1
                    elif isinstance(message, m.MatchResult):
                        await bo.send(bo.req.rematch())
                    elif isinstance(message, m.Error):
                        raise AssertionError(f"Bo was refused: {message}")
            finally:
                await bo.ws.close()

        self.future = asyncio.run_coroutine_threadsafe(play(), server.loop)

    def stop(self) -> None:
        """Leaves the table; raises what went wrong with Bo's play, if anything did."""
        if self.future.done() and not self.future.cancelled() and self.future.exception():
            raise AssertionError("Bo stopped playing") from self.future.exception()
        self.future.cancel()


# ---------------------------------------------------------------- playing


def first_option(player: Player) -> None:
    player.page.locator("dialog.tv-choice[open] button.tv-option").first.click()


def any_card(player: Player) -> None:
    """Plays the first card the page offers, or else the first action that plays no card."""
    playable = player.playable()
    if playable:
        player.card(playable[0]).click()
    else:
        player.page.locator(".tv-actions button[aria-keyshortcuts]").first.click()


def play_on(
    player: Player,
    move: Callable[[Player], None] = any_card,
    choose: Callable[[Player], None] = first_option,
    stop: Callable[[str], bool] = lambda state: state == "match",
    turns: int = 500,
) -> str:
    """Plays (``move`` on each turn, ``choose`` in each choice, every deal summary closed)
    until ``stop`` says so of the page's state; that state. A ``stop`` that lets a match
    summary pass has asked for a rematch or closed it."""
    for _ in range(turns):
        state = player.state()
        if stop(state):
            return state
        if state == "deal":
            player.close_summary()
        elif state == "choice":
            choose(player)
        elif state == "turn":
            move(player)
        elif state != "match":  # a match summary ``stop`` let pass: it has acted on it
            raise AssertionError(f"the page shows {state!r}")
    raise AssertionError(f"no end after {turns} steps")
