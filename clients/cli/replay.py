"""``cardavia replay --server URL RECORD``: a finished match from a server, step by step, every hand shown.

The server's ``replay`` answer carries every seat's view at the start and,
for each recorded action, each seat's delta ops from its previous view: the
views are rebuilt here with ``protocol.delta.apply``, exactly as a player's
client rebuilds its own. Each step prints the move in words, and for a
person's move the strong bot's choice from that person's view when it was
another move (a bot's moves and forced moves are not judged); the hands of
every seat follow each move. ``--step`` waits for enter between moves.

Any node of a deployment answers for any finished match (records live in the
archive); a match still being played, or an unknown id, is said in the
player's language. The session sends no player key: a replay is public by
its record id, so no profile's secret needs to travel for it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from cardavia.clients.cli.session import ClientRequestError, Session
from cardavia.clients.cli.tui.moves import MoveMenu
from cardavia.clients.cli.tui.names import CardNames
from cardavia.games.errors import CardaviaError
from cardavia.protocol import messages as m
from cardavia.protocol.delta import apply
from cardavia.protocol.i18n import Texts
from cardavia.protocol.names import display_name
from cardavia.protocol.text import display_safe

LONG_HAND = 8
"""Hands longer than this are written with the cards' corner indices ("K♠") where the pack has them."""


async def fetch(url: str, record: str, *, lang: str = "en") -> m.Replay:
    """The replay of ``record`` from the server at ``url`` (``ClientRequestError`` when refused)."""
    async with Session(url, "replay", lang=lang, reconnect=False) as session:
        reply = await session.request(session.requests.get_replay(record), timeout=60.0)
    assert isinstance(reply, m.Replay)
    return reply


class ReplayUnreadable(ValueError):
    """The server's replay does not read as one (a step's ops or moves do not fit the views)."""


class ReplayText:
    """A replay in words, one step at a time."""

    def __init__(self, replay: m.Replay, texts: Texts) -> None:
        self.replay = replay
        self.texts = texts
        record = replay.record
        self.game = str(record.get("game", ""))
        self.names = CardNames(str(record.get("deck") or "") or None, texts.lang, self.game)
        seats = record.get("seats")
        self.seats = [self._seat_name(s, i) for i, s in enumerate(seats if isinstance(seats, list) else [])]
        self.views: list[Any] = [dict(v) for v in replay.views]
        self._deal: object = None

    def _seat_name(self, seat: object, index: int) -> str:
        data = seat if isinstance(seat, Mapping) else {}
        name = display_name(data, self.texts, index)  # a bot or a guest in the reader's words
        if data.get("bot"):
            level = self.texts.get(f"bots.level.{data['bot']}", str(data["bot"]))
            return display_safe(name or self.texts("profile.cli.replay.bot", level=level))
        return display_safe(name) if name else self.texts("profile.cli.replay.seat", seat=index + 1)

    def seat(self, index: int) -> str:
        return (
            self.seats[index]
            if 0 <= index < len(self.seats)
            else self.texts("profile.cli.replay.seat", seat=index + 1)
        )

    def header(self) -> list[str]:
        t = self.texts
        lines = [
            t(
                "profile.cli.replay.title",
                game=self.names.game(self.game),
                record=display_safe(self.replay.record_id),
            ),
            t("profile.cli.replay.players", players=", ".join(self.seats)),
        ]
        return lines + self.hands()

    def hands(self) -> list[str]:
        """Every seat's hand as it is now."""
        out = []
        for index, view in enumerate(self.views):
            hand = view.get("hand") if isinstance(view, Mapping) else None
            cards = [str(c) for c in hand] if isinstance(hand, list) else []
            out.append(
                "   " + self.texts("profile.cli.replay.hand", name=self.seat(index), cards=self._cards(cards))
            )
        return out

    def _cards(self, codes: Sequence[str]) -> str:
        if len(codes) > LONG_HAND and all(self.names.short(c) for c in codes):
            return " ".join(str(self.names.short(c)) for c in codes)
        return self.names.cards(codes)

    def steps(self) -> Iterator[list[str]]:
        """The lines of each step in turn, the views moved on past it; ``ReplayUnreadable`` when a
        step cannot be read (a server's answer is no more trusted than a client's)."""
        for number, step in enumerate(self.replay.steps, start=1):
            try:
                yield self._step(number, step)
            except (CardaviaError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
                raise ReplayUnreadable(f"step {number}: {type(exc).__name__}") from None

    def _step(self, number: int, step: Mapping[str, Any]) -> list[str]:
        lines: list[str] = []
        if step.get("deal") != self._deal:
            self._deal = step.get("deal")
            if isinstance(self._deal, int):  # numbered from 1, as records number deals
                lines.append(self.texts("profile.cli.replay.deal", deal=self._deal))
        seat = step.get("seat")
        seat = seat if isinstance(seat, int) else -1
        before = self.views[seat] if 0 <= seat < len(self.views) else {}
        action = step.get("action") if isinstance(step.get("action"), Mapping) else {}
        assert isinstance(action, Mapping)
        menu = MoveMenu(self.game, [], before, self.names)
        lines.append(
            self.texts(
                "profile.cli.replay.step", number=number, name=self.seat(seat), move=menu.label(action)
            )
        )
        note = self.replay.analysis[number - 1] if number - 1 < len(self.replay.analysis) else None
        if isinstance(note, Mapping) and not note.get("forced"):
            best = note.get("best")
            if note.get("differs") and isinstance(best, Mapping):
                lines.append("   " + self.texts("profile.cli.replay.best", move=menu.label(best)))
            else:
                lines.append("   " + self.texts("profile.cli.replay.agrees"))
        ops = step.get("ops")
        for index, seat_ops in enumerate(ops if isinstance(ops, list) else []):
            if index < len(self.views) and seat_ops:
                self.views[index] = apply(self.views[index], seat_ops)
        lines.extend(self.hands())
        return lines

    def footer(self) -> list[str]:
        result = self.replay.record.get("result")
        if not isinstance(result, Mapping):
            return []
        scores = result.get("scores")
        shown = " - ".join(str(s) for s in scores) if isinstance(scores, list) else ""
        winner = result.get("winner")
        if isinstance(winner, int):
            return [self.texts("profile.cli.replay.won", scores=shown, name=self.seat(winner))]
        return [self.texts("profile.cli.replay.no_winner", scores=shown)]

    def lines(self) -> Iterator[str]:
        """The whole replay."""
        yield from self.header()
        for step in self.steps():
            yield from step
        yield from self.footer()


def run(args: argparse.Namespace, *, out: Callable[[str], None] = print) -> int:
    """``cardavia replay --server URL RECORD``: 0 shown, 1 refused or unreachable, 2 bad input."""
    from cardavia.clients.cli.keys import server_id
    from cardavia.protocol.i18n import language_from_environment

    texts = Texts(args.lang or language_from_environment())

    def say(text: str) -> None:
        print(f"cardavia replay: {text}", file=sys.stderr)

    try:
        server_id(args.server)
    except ValueError:
        say(texts("app.play.bad_url", url=args.server, example="ws://host:port/"))
        return 2
    try:
        replay = asyncio.run(fetch(args.server, args.file, lang=texts.lang))
    except ClientRequestError as exc:
        say(texts.error(exc.code, exc.error.message))
        return 1
    except (OSError, TimeoutError, ConnectionError) as exc:
        say(texts("app.connect_failed", url=args.server, reason=str(exc) or type(exc).__name__))
        return 1
    shown = ReplayText(replay, texts)
    for line in shown.header():
        out(line)
    pause = args.step and sys.stdin.isatty()
    try:
        for step in shown.steps():
            for line in step:
                out(line)
            if pause:
                try:
                    input(texts("profile.cli.replay.next"))
                except (EOFError, KeyboardInterrupt):
                    return 0
    except ReplayUnreadable as exc:
        say(texts("profile.cli.replay.unreadable", problem=str(exc)))
        return 1
    for line in shown.footer():
        out(line)
    return 0
