"""The bot ladder: headless bots with profiles of their own play rated matches and say where they stand.

``cardavia bot --ladder`` runs each bot as a network client (``sdk.BotClient``)
that holds a profile made for it (``create_profile`` with ``bot: true``, so
leaderboards mark it as a program) the first time it plays on a server. Its
player key is kept in the ladder file (``keys.KeyStore``, 0600) under the
server and the bot's name, so the next run plays on as the same profile and
its rating carries on. The bot then plays rated matches in a loop (against
the server's bots, or by rated quick match against whoever waits: people and
other ladder bots), and after each one waits for the server's
``rating_change`` (written once the match is in the archive) and asks for the
leaderboard, printing the bot's rating, its change and its rank.

A key the server no longer knows (its database was reset, or the profile was
deleted) or that is damaged is replaced by a new profile, and the line says
so; any other refusal of the key (the database away) stops that bot without
touching the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardavia.clients.cli.keys import KeyStore
from cardavia.clients.cli.sdk import AnyBot, BotClient, GameResult
from cardavia.clients.cli.session import ClientRequestError, Session
from cardavia.protocol import messages as m

RATING_WAIT = 30.0
"""Seconds a bot waits after a match for its rating change before it reports its standing without it."""
BOARD_SIZE = 20


class LadderError(RuntimeError):
    """A ladder bot cannot play: its key was refused, or its profile could not be made."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a ladder bot stands after one match."""

    bot: str
    result: GameResult
    change: m.RatingChange | None
    me: m.Standing | None
    leader: m.Standing | None

    def line(self) -> str:
        """One line, as ``cardavia bot --ladder`` prints it after each match."""
        scores = " ".join(str(s) for s in self.result.scores)
        head = f"{self.bot}: game {self.result.number} {self.result.game}: {self.result.outcome} ({scores})"
        if self.change is not None:
            moved = self.change.after - self.change.before
            head += f", rating {self.change.before} -> {self.change.after} ({moved:+d})"
        else:
            head += ", rating change not written yet"
        if self.me is None:
            return f"{head}; not on the {self.result.game} leaderboard yet; record {self.result.record}"
        where = (
            f"; rank {self.me.rank}, rating {self.me.rating} ±{self.me.deviation} "
            f"after {self.me.games} rated games"
        )
        if self.leader is not None and self.leader.rank != self.me.rank:
            where += f" (first: {self.leader.name} {self.leader.rating})"
        return f"{head}{where}; record {self.result.record}"


async def enrol(url: str, name: str, keys: KeyStore, *, lang: str = "en") -> tuple[str, m.PlayerInfo, bool]:
    """The bot's player key on ``url`` and its profile; True when the profile was made just now."""
    key = keys.key(url, name)
    if key is not None:
        async with Session(url, name, lang=lang, reconnect=False, player=key) as session:
            if session.player is not None:
                return key, session.player, False
            if session.player_error not in ("unknown_player", "malformed_player_key"):
                raise LadderError(f"{name}: the server did not take its key ({session.player_error})")
    async with Session(url, name, lang=lang, reconnect=False) as session:
        try:
            reply = await session.request(session.requests.create_profile(name, bot=True))
        except ClientRequestError as exc:
            raise LadderError(f"{name}: the server made no profile ({exc.code})") from None
    assert isinstance(reply, m.Profile)
    assert reply.key is not None
    keys.remember(url, name, reply.key, player=reply.player.id, name=reply.player.name)
    return reply.key, reply.player, True


async def play_ladder(
    url: str,
    bot: AnyBot,
    game: str,
    *,
    name: str,
    keys: KeyStore,
    games: int,
    quick: bool = False,
    bot_level: str | None = None,
    lang: str = "en",
    rate: float | None = 16.0,
    say: Callable[[str], None] = print,
    rating_wait: float = RATING_WAIT,
) -> list[Standing]:
    """Play ``games`` rated matches as the ladder bot ``name``; each standing goes to ``say``."""
    key, player, made = await enrol(url, name, keys, lang=lang)
    say(f"{name}: {'a new bot profile' if made else 'bot profile'} {player.name!r} on {url}")
    standings: list[Standing] = []

    async def after_match(session: Session, result: GameResult) -> None:
        change = await client.rating_change(result.record, rating_wait)
        try:
            board = await session.request(session.requests.get_leaderboard(game, limit=BOARD_SIZE))
        except (ClientRequestError, ConnectionError, TimeoutError) as exc:
            say(f"{name}: game {result.number}: no leaderboard now ({exc})")
            return
        assert isinstance(board, m.Leaderboard)
        standing = Standing(name, result, change, board.me, board.top[0] if board.top else None)
        standings.append(standing)
        say(standing.line())

    client = BotClient(
        url, bot, game, name=name, quick=quick, play_now=not quick, bot_level=bot_level, games=games,
        lang=lang, rate=rate, player_key=key, rated=True, after_match=after_match,
    )  # fmt: skip
    await client.run()
    standings.sort(key=lambda s: s.result.number)
    return standings
