"""The bot SDK: write a bot in a few lines and run it on a Cardavia server as a network client.

    import asyncio
    from cardavia.clients.cli.sdk import Turn, run_bot

    def greedy(turn: Turn) -> dict:
        # take as many cards as possible; the legal actions are in the protocol's data form
        return max(turn.legal, key=lambda action: len(action.get("capture", [])))

    results = asyncio.run(run_bot("ws://127.0.0.1:8765/", greedy, game="scopa", games=3))

A bot is any of:

- a callable taking a ``Turn`` and returning one of ``turn.legal`` (or an
  engine ``Action``); it may be ``async``;
- a ``ClientBot`` subclass, which adds hooks for the start and end of a match;
- a ``cardavia.bots`` bot (``Bot.choose(view, legal, budget)``): the very
  objects the server runs for its own seats, given the same view and the same
  legal actions, so one bot plays inside the server and as a headless client
  alike. Search bots think in a thread, so the connection stays answered.

``run_bot`` (or ``BotClient`` for more control) connects, takes a seat (play
now against the server's bots, a quick match, a room by code or id, or a room
it creates for several people), answers every turn, asks for a rematch until
``games`` matches are over, reconnects by itself when the connection drops
(the ``Session`` resumes the seat), and returns one ``GameResult`` per match.
The server decides legality: an action it refuses raises ``BotError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from cardavia.bots.base import Bot
from cardavia.clients.cli.session import ClientRequestError, Item, Reconnected, Session, SessionInterrupted
from cardavia.games.engine import Action
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m

log = logging.getLogger("cardavia.sdk")

INLINE_LEVELS = frozenset({"random", "basic"})
"""Engine bots of these levels decide in well under a millisecond: no thread needed."""
FULL_ROOM_POLL = 0.25
"""Seconds between looks at the room list while an owner waits for people to take its seats."""
BURST = 30
"""Actions a bot may send at once before its ``rate`` applies."""
RATE_LIMITED_PAUSE = 1.0
"""After a ``rate_limited`` refusal (the server dropped a message), wait this long, then resync."""


class Pacer:
    """A token bucket: how long to wait before each message to stay under ``rate`` a second."""

    def __init__(self, rate: float | None, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self._clock = rate, float(burst), clock
        self._tokens, self._stamp = float(burst), clock()

    def delay(self) -> float:
        """Take a token; the seconds until it is really there (0: send now)."""
        if not self.rate:
            return 0.0
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate) - 1
        self._stamp = now
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate


@dataclass(frozen=True, slots=True)
class Turn:
    """What a bot is shown when its seat is to move: exactly what the server's own bots see."""

    game: str
    seat: int
    view: dict[str, Any]
    """This seat's view, the engine's ``view(seat)``: own hand, table, counts, scores, history."""
    legal: list[dict[str, Any]]
    """The legal actions in the protocol's data form, e.g. ``{"play": "7D", "capture": ["3S", "4C"]}``."""
    deadline: float | None = None
    """Unix time the turn timer runs out, when the room has one."""
    room: m.RoomInfo | None = None

    def actions(self) -> list[Action]:
        """The legal actions as engine objects (``str(action)`` is the text form, like ``7D:3S+4C``)."""
        game = get_game(self.game)
        return [game.action_from_data(data) for data in self.legal]


class ClientBot(ABC):
    """Base class for a bot of your own: override ``play``; the hooks are optional."""

    name: str = "bot"

    @abstractmethod
    def play(self, turn: Turn) -> dict[str, Any] | Action | Awaitable[dict[str, Any] | Action]:
        """One of ``turn.legal`` (or the engine action for it)."""

    def on_match_start(self, snapshot: m.Snapshot) -> None:  # noqa: B027 - an optional hook
        """A match begins (``snapshot.view`` is the seat's first view)."""

    def on_match_end(self, result: GameResult) -> None:  # noqa: B027 - an optional hook
        """A match is over."""


Policy: TypeAlias = Callable[[Turn], Any]
AnyBot: TypeAlias = Bot | ClientBot | Policy


class BotError(RuntimeError):
    """The server refused the bot's action (a bug in the bot): ``code`` and ``reason`` say why."""

    def __init__(self, action: dict[str, Any], error: m.Error) -> None:
        super().__init__(f"the server refused {action}: {error.code} ({error.reason or error.message})")
        self.action, self.code, self.reason = action, error.code, error.reason


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished match, as the bot's seat saw it."""

    number: int
    game: str
    room: str
    seat: int
    scores: list[int]
    winner: int | None
    reason: str
    record: str | None
    reconnects: int = 0

    @property
    def outcome(self) -> str:
        if self.winner is None:
            return "no single winner"
        return "won" if self.winner == self.seat else "lost"

    def line(self, who: str) -> str:
        """One results line, as ``cardavia bot`` prints it."""
        scores = " ".join(str(s) for s in self.scores)
        return (
            f"{who}: game {self.number} {self.game} room {self.room} seat {self.seat}: scores {scores}, "
            f"{self.outcome} ({self.reason}), record {self.record}, reconnects {self.reconnects}"
        )


def decider(bot: AnyBot) -> Callable[[Turn], Awaitable[dict[str, Any]]]:
    """Turn any kind of bot into one async function: ``Turn`` → action in data form."""
    if isinstance(bot, Bot):
        engine_bot = bot

        async def choose(turn: Turn) -> dict[str, Any]:
            actions = turn.actions()
            if engine_bot.level in INLINE_LEVELS:
                return engine_bot.choose(turn.view, actions).to_data()
            chosen = await asyncio.to_thread(engine_bot.choose, turn.view, actions)
            return chosen.to_data()

        return choose
    policy: Policy = bot.play if isinstance(bot, ClientBot) else bot
    if not callable(policy):
        raise TypeError(f"a bot is a cardavia Bot, a ClientBot or a callable taking a Turn, not {bot!r}")

    async def decide(turn: Turn) -> dict[str, Any]:
        chosen = policy(turn)
        if inspect.isawaitable(chosen):
            chosen = await chosen
        if isinstance(chosen, Action):
            data: dict[str, Any] = chosen.to_data()
            return data
        if isinstance(chosen, dict):
            return chosen
        raise TypeError(f"the bot returned {chosen!r}: return one of turn.legal or an engine action")

    return decide


@dataclass
class BotClient:
    """One bot on one connection, playing ``games`` matches; ``run()`` returns their results.

    Where it sits: ``play_now`` (the default) against the server's bots;
    ``quick`` match; ``code`` or ``room`` to join a room someone made; or
    ``humans`` to create a room for that many people (``public`` ones are
    started as soon as every seat for people is taken; ``start_after``
    seconds starts it anyway, bots taking the empty seats).
    """

    url: str
    bot: AnyBot
    game: str
    name: str = "bot"
    code: str | None = None
    room: str | None = None
    quick: bool = False
    play_now: bool = False
    humans: int | None = None
    public: bool = True
    bot_level: str | None = None
    """Level of the server's bots in the other seats (None: the game's default)."""
    start_after: float | None = None
    games: int = 1
    rate: float | None = 16.0
    """Most actions a second (in bursts of up to ``BURST``): bots playing bots would otherwise outrun
    the server's per-connection limit (20 messages a second, bursts of 40, by default). None: no limit."""
    lang: str = "en"
    reconnect: bool = True
    player_key: str | None = None
    """The player key of the bot's profile, sent in each ``hello`` (None: an anonymous bot)."""
    rated: bool = False
    """Ask for rated matches (``quick`` and ``play_now``; needs ``player_key``)."""
    after_match: Callable[[Session, GameResult], Coroutine[Any, Any, None]] | None = None
    """Run as a task of its own after each match (the bot plays on meanwhile); ``run()`` waits for
    every one before it closes the session, so a last look at the leaderboard still has it."""
    on_result: Callable[[GameResult], None] | None = None
    on_message: Callable[[Item], None] | None = None
    """Sees every server message and reconnection notice first (for logs and displays)."""
    results: list[GameResult] = field(default_factory=list, init=False)
    rating_changes: dict[str, m.RatingChange] = field(default_factory=dict, init=False)
    """Each rated match's ``rating_change`` by record id, as the server pushes them."""
    session: Session | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        get_game(self.game)  # an unknown game is refused here, with the list of games
        modes = [
            self.code is not None,
            self.room is not None,
            self.quick,
            self.play_now,
            self.humans is not None,
        ]
        if sum(modes) > 1:
            raise ValueError("choose one of code=, room=, quick=, play_now= and humans=")
        if not any(modes):
            self.play_now = True
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")
        if self.humans is not None and self.humans > 1 and not self.public and self.start_after is None:
            raise ValueError(
                "a private room for several people needs start_after=: its owner cannot see who joined"
            )
        self._decide = decider(self.bot)
        self._seated: asyncio.Future[m.RoomInfo] | None = None
        self._acted_at: int | None = None
        self._acts: dict[int, dict[str, Any]] = {}
        self._quiet: set[int] = set()
        """Requests whose refusal is expected (a rematch asked for while the room was already
        starting the next match)."""
        self._records: set[str | None] = set()
        self._starter: asyncio.Task[None] | None = None
        self._after: list[asyncio.Task[None]] = []
        self._in_match = False
        self.waiting = False
        """Seated in a room that has not started: it waits for people (quick match, a public room)."""
        self._pacer = Pacer(self.rate, BURST)
        self._rating_seen = asyncio.Event()

    async def seated(self) -> m.RoomInfo:
        """The room, once the bot has a seat in it (its code lets others join)."""
        return await asyncio.shield(self._seat_future())

    def _seat_future(self) -> asyncio.Future[m.RoomInfo]:
        if self._seated is None:
            self._seated = asyncio.get_running_loop().create_future()
        return self._seated

    async def run(self) -> list[GameResult]:
        async with Session(
            self.url, self.name, lang=self.lang, reconnect=self.reconnect, player=self.player_key
        ) as session:
            self.session = session
            session.observers.append(self._observe)
            try:
                await self._enter(session)
                async for item in session.messages():
                    if self.on_message is not None:
                        self.on_message(item)
                    if await self._on(session, item):
                        break
                if self._after:
                    await asyncio.gather(*self._after)
                with_leave = session.connected and session.room is not None
                if with_leave:
                    # leaving is a courtesy: the seat goes to a bot either way
                    with contextlib.suppress(ClientRequestError, ConnectionError, TimeoutError):
                        await session.request(session.requests.leave(), timeout=5.0)
            finally:
                if self._starter is not None:
                    self._starter.cancel()
                for task in self._after:
                    task.cancel()
                if self._seated is not None and not self._seated.done():  # someone waits in seated()
                    self._seated.set_exception(ConnectionError(f"{self.name} never got a seat"))
        if len(self.results) < self.games:
            raise ConnectionError(
                f"{self.name}: the session ended after {len(self.results)} of {self.games} games"
            )
        return self.results

    def _observe(self, message: m.Reply) -> None:
        """Every message as the session reads it: a ``rating_change`` may come while nobody reads."""
        if isinstance(message, m.RatingChange):
            self.rating_changes[message.record] = message
            self._rating_seen.set()

    async def rating_change(self, record: str | None, timeout: float) -> m.RatingChange | None:
        """The rating change of the match ``record`` once the server has written it; None when it
        does not come within ``timeout`` seconds (a casual match, or the database is away)."""
        if record is None:
            return None
        try:
            async with asyncio.timeout(timeout):
                while record not in self.rating_changes:
                    self._rating_seen.clear()
                    await self._rating_seen.wait()
        except TimeoutError:
            return None
        return self.rating_changes[record]

    async def _enter(self, session: Session) -> None:
        req = session.requests
        if self.code is not None or self.room is not None:
            await session.request(req.join(room=self.room, code=self.code))
        elif self.quick:
            await session.request(req.quick_match(self.game, rated=self.rated))
        elif self.humans is not None:
            create = req.create_room(
                self.game,
                humans=self.humans,
                public=self.public,
                bot_level=self.bot_level,
                fill_after=self.start_after,
            )
            snapshot = await session.request(create)
            assert isinstance(snapshot, m.Snapshot)
            if self.public and self.humans > 1:
                self._starter = asyncio.get_running_loop().create_task(
                    self._start_when_full(session, snapshot)
                )
            elif self.humans <= 1:
                await session.request(req.start())
        else:
            await session.request(req.play_now(self.game, bot_level=self.bot_level, rated=self.rated))

    async def _start_when_full(self, session: Session, made: m.Snapshot) -> None:
        """The owner starts its public room once no seat for people is open (the room leaves the list)."""
        while True:
            await asyncio.sleep(FULL_ROOM_POLL)
            try:
                listed = await session.request(
                    m.ListRooms(id=session.requests.next_id(), game=made.room.game)
                )
                assert isinstance(listed, m.Rooms)
                if any(r.room == made.room.room for r in listed.rooms):
                    continue
                await session.request(session.requests.start())
                return
            except ClientRequestError as exc:
                if exc.code == "room_started":  # start_after started it
                    return
                raise
            except SessionInterrupted:
                continue

    async def _on(self, session: Session, item: Item) -> bool:
        """Handle one stream item; True when the bot is done."""
        if isinstance(item, m.Snapshot):
            if item.room.game != self.game:
                raise ValueError(
                    f"{self.name}: room {item.room.code} plays {item.room.game}, not {self.game}"
                )
            if item.seat is not None and not self._seat_future().done():
                self._seat_future().set_result(item.room)
            self.waiting = item.seat is not None and item.room.state == "waiting"
            if item.room.state == "playing" and item.view and not self._in_match:
                self._in_match = True
                if isinstance(self.bot, ClientBot):
                    self.bot.on_match_start(item)
        elif isinstance(item, m.YourTurn):
            await self._turn(session, item)
        elif isinstance(item, m.MatchResult):
            return await self._match_over(session, item)
        elif isinstance(item, m.Error):
            await self._refused(session, item)
        elif isinstance(item, Reconnected):
            self._acted_at = None  # an action in flight may be lost: the turn comes again
            if not item.resumed and len(self.results) < self.games:
                await self._room_lost(session)
        return False

    async def _turn(self, session: Session, turn: m.YourTurn) -> None:
        store = session.store
        fresh = turn.seq == store.seq and not store.needs_resync and store.view is not None
        if not fresh or turn.seq == self._acted_at or store.seat is None:
            return  # stale, a repeat for a turn already answered, or a resync is on its way
        assert store.view is not None
        shown = Turn(self.game, store.seat, dict(store.view), list(turn.legal), turn.deadline, session.room)
        action = await self._decide(shown)
        wait = self._pacer.delay()
        if wait > 0:
            await asyncio.sleep(wait)
        if store.seq != turn.seq:
            return  # the game moved on while the bot thought (a turn timer): its answer is stale
        rid = session.requests.next_id()
        act = m.Act(id=rid, action=action)
        self._acts[rid] = action
        self._acted_at = turn.seq
        try:
            await session.send(act)
        except SessionInterrupted:
            self._acted_at = None  # the resumed seat gets its turn again

    async def _refused(self, session: Session, error: m.Error) -> None:
        if error.code == "rate_limited":  # the message was dropped unread: ask for the turn again
            log.warning("event=rate_limited name=%s pause=%s", self.name, RATE_LIMITED_PAUSE)
            await asyncio.sleep(RATE_LIMITED_PAUSE)
            self._acted_at = None
            with contextlib.suppress(SessionInterrupted):
                await session.send(session.requests.resync())
            return
        if error.id in self._acts:
            if error.code == "not_your_turn":  # a timer moved for us first: the game goes on
                return
            raise BotError(self._acts[error.id], error)
        if error.id in self._quiet:
            return
        log.warning("event=server_error name=%s code=%s message=%s", self.name, error.code, error.message)

    async def _match_over(self, session: Session, result: m.MatchResult) -> bool:
        if result.record in self._records:  # told again after a resume
            return len(self.results) >= self.games
        self._records.add(result.record)
        done = GameResult(
            number=len(self.results) + 1,
            game=self.game,
            room=session.room.room if session.room else "",
            seat=session.store.seat if session.store.seat is not None else -1,
            scores=list(result.scores),
            winner=result.winner,
            reason=result.reason,
            record=result.record,
            reconnects=session.reconnects,
        )
        self.results.append(done)
        self._in_match = False
        self._acted_at = None
        self._acts.clear()
        if isinstance(self.bot, ClientBot):
            self.bot.on_match_end(done)
        if self.on_result is not None:
            self.on_result(done)
        if self.after_match is not None:
            self._after.append(asyncio.get_running_loop().create_task(self.after_match(session, done)))
        if len(self.results) >= self.games:
            return True
        if self.quick:
            # Quick match again rather than a rematch: the room's people meet whoever waits now,
            # so bots of one command that are more than a room seats all get their games.
            with contextlib.suppress(SessionInterrupted):
                await session.request(session.requests.leave(), timeout=5.0)
                await self._enter(session)
            return False
        rid = session.requests.next_id()
        rematch = m.Rematch(id=rid)
        self._quiet.add(rid)  # answered by who has asked so far, or by the new match
        with contextlib.suppress(SessionInterrupted):
            await session.send(rematch)
        return False

    async def _room_lost(self, session: Session) -> None:
        """Back without the seat (the server lost the room): sit down again where that makes sense."""
        if self.code is not None or self.room is not None:
            raise ConnectionError(f"{self.name}: the room is gone (the server did not keep it)")
        log.warning("event=room_lost name=%s action=sit_again", self.name)
        await self._enter(session)


async def run_bot(
    url: str,
    bot: AnyBot,
    *,
    game: str,
    name: str = "bot",
    room: str | None = None,
    code: str | None = None,
    quick: bool = False,
    play_now: bool = False,
    humans: int | None = None,
    bot_level: str | None = None,
    games: int = 1,
    lang: str = "en",
    rate: float | None = 16.0,
    on_result: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` matches with ``bot`` on the server at ``url``; see ``BotClient`` for the options."""
    client = BotClient(
        url, bot, game, name=name, room=room, code=code, quick=quick, play_now=play_now, humans=humans,
        bot_level=bot_level, games=games, lang=lang, rate=rate, on_result=on_result,
    )  # fmt: skip
    return await client.run()
