"""Profiles: a lasting identity without a password, its transfer to another device, its deletion,
and what players look up about each other (leaderboards, history).

A profile is reached with a player key, a secret the server makes
(``secrets.token_urlsafe(24)``: 192 bits) and shows its owner once; the client
keeps it (never in a URL) and sends it in each ``hello``. The archive keeps
only its SHA-256, so a copy of the database signs in as nobody, and a key
is looked up by that hash alone. A key that is not of that form is refused
before anything is looked up. Another device gets a key of its own through a
transfer code: ten characters from an alphabet without look-alikes, valid for
``transfer_code_seconds``, usable once, also kept hashed; every address may try
only ``transfer_codes_per_minute`` codes, so the code's 50 bits cannot be
guessed in its ten minutes. Deleting a profile deletes every key, the code,
the ratings and the history rows (the archive's ``delete_player``), and every
connection of it on this node goes on anonymous.

Every handler here answers ``storage_unavailable`` (with ``retry_after``)
while the database is away: the archive raises ``StorageUnavailable`` and the
read loop answers it. Play needs no profile and never waits for one.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Final

from cardavia.bots.ratings import BOT_DEVIATION, bot_ratings
from cardavia.bots.registry import levels_for
from cardavia.protocol import messages as m
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.names import fallback_level_name
from cardavia.server.connection import Connection
from cardavia.server.lobby import DEFAULT_RATING, LobbyUnavailable
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper
from cardavia.server.store import (
    PLAYER_ID,
    RECORD_ID,
    GameRating,
    HistoryEntry,
    Player,
    Standing,
    StorageUnavailable,
)

log = logging.getLogger("cardavia.server")

KEY_FORM: Final = re.compile(r"[A-Za-z0-9_-]{32}")
"""A player key as the server gives it out: ``secrets.token_urlsafe(24)``, 32 URL-safe characters."""
CODE_ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Transfer codes' characters: digits and capitals without the look-alikes 0, 1, I, L and O."""
CODE_LENGTH: Final = 10
"""31**10 ≈ 8e14 codes (about 50 bits): at ``transfer_codes_per_minute`` (10) tries a minute an
address would need over a billion years on average to hit one code in its ten minutes."""


def key_hash(secret: str) -> str:
    """What the archive keeps of a player key or a transfer code: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_player_key() -> str:
    """A new player key: 192 bits from the operating system's CSPRNG."""
    return secrets.token_urlsafe(24)


def is_player_key(key: str) -> bool:
    """Whether ``key`` is of the form the server gives out (else it is not even looked up)."""
    return KEY_FORM.fullmatch(key) is not None


def new_transfer_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_transfer_code(code: str) -> str | None:
    """A transfer code as typed or read aloud (any case, spaces and dashes anywhere) in the form
    it was given in; None when it cannot be one (wrong length or a character codes never hold)."""
    code = code.upper().replace(" ", "").replace("-", "")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def player_info(player: Player) -> m.PlayerInfo:
    return m.PlayerInfo(id=player.id, name=player.name, bot=player.bot)


def _rounded(value: float) -> int:
    return round(value)


def standing_info(standing: Standing, rank: int) -> m.Standing:
    return m.Standing(
        rank=rank,
        player=standing.player,
        name=standing.name,
        rating=_rounded(standing.rating),
        deviation=_rounded(standing.deviation),
        games=standing.games,
        bot=standing.bot,
        level=None,
    )


def bot_standings(game: str) -> list[Standing]:
    """The built-in bot levels of ``game`` as leaderboard rows, at their published fixed ratings
    (``player`` is ``bot:<level>``; rank to be given by the merge). A level listed before it has a
    published rating (a new expert, until ``cardavia arena --calibrate`` rates it) has no row."""
    rows = []
    published = bot_ratings(game)
    for level in levels_for(game):
        if level not in published:
            continue
        name = fallback_level_name(level)  # clients name the level in their reader's language
        rows.append(Standing(0, f"bot:{level}", name, float(published[level]), BOT_DEVIATION, 0, True))
    return rows


def _order(standing: Standing) -> tuple[float, int, str]:
    """The leaderboard's order: rating descending, then more games, then the id."""
    return (-standing.rating, -standing.games, standing.player)


def merged_leaderboard(
    profiles: list[Standing], bots: list[Standing], limit: int, me: Standing | None
) -> tuple[list[m.Standing], m.Standing | None]:
    """The profiles' top ``limit`` and the bot levels as one board, ranked again; ``me`` (a
    profile's standing among profiles only) ranked on that board: behind every bot level
    above it."""

    def row(standing: Standing, rank: int) -> m.Standing:
        info = standing_info(standing, rank)
        if standing.player.startswith("bot:"):
            level = standing.player.removeprefix("bot:")
            return info.model_copy(update={"level": level})
        return info

    board = sorted([*profiles, *bots], key=_order)[:limit]
    top = [row(s, rank) for rank, s in enumerate(board, start=1)]
    mine = None
    if me is not None:
        above = sum(1 for b in bots if _order(b) < _order(me))
        mine = row(me, me.rank + above)
    return top, mine


def rating_info(rating: GameRating) -> m.GameRatingInfo:
    return m.GameRatingInfo.model_validate(
        {
            "game": rating.game,
            "rating": _rounded(rating.rating),
            "deviation": _rounded(rating.deviation),
            "games": rating.games,
        }
    )


def history_info(entry: HistoryEntry) -> m.HistoryEntry:
    return m.HistoryEntry.model_validate(
        {
            "record": entry.record,
            "game": entry.game,
            "ended": float(entry.ended),
            "rated": entry.rated,
            "seat": entry.seat,
            "players": [dict(p) for p in entry.players],
            "scores": list(entry.scores),
            "winner": entry.winner,
            "rating_before": None if entry.rating_before is None else _rounded(entry.rating_before),
            "rating_after": None if entry.rating_after is None else _rounded(entry.rating_after),
        }
    )


class ProfileHandlers:
    """The profile requests: create, rename, transfer codes, delete, leaderboard, history."""

    def __init__(
        self, shared: NodeServices, *, sessions: SessionKeeper, clock: Callable[[], float] = time.time
    ) -> None:
        self._shared = shared
        self._sessions = sessions
        self.clock = clock
        """Wall-clock seconds, for transfer codes' expiry (a test sets a clock it steps)."""

    # ------------------------------------------------------------------ the session's profile
    def _held(self, conn: Connection) -> m.PlayerInfo:
        if conn.player is None:
            raise ProtocolError("profile_required", "create a profile (or sign in with its key) first")
        return conn.player

    async def _sign_in(self, conn: Connection, player: m.PlayerInfo | None) -> None:
        """``conn`` plays as ``player`` (None: anonymous) from now on, and its session remembers
        it, so a resume keeps it.

        A lobby that cannot be reached does not undo what the archive has done (a profile made,
        a code taken): the answer still goes out, and only a resume without the key would miss
        the profile (clients send their key in every hello)."""
        self._sessions.set_player(conn, player)
        seat_room = conn.room.id if conn.room is not None and conn.seat is not None else None
        entry = conn.session_entry(seat_room, conn.seat if seat_room else None)
        try:
            await self._shared.lobby.save_session(entry)
        except LobbyUnavailable:
            log.warning("event=session_profile_unsaved session=%s reason=lobby_unavailable", conn.session)

    async def _gone(self, conn: Connection) -> None:
        """The profile ``conn`` held was deleted meanwhile (on another device or node)."""
        await self._sign_in(conn, None)
        raise ProtocolError("profile_required", "that profile was deleted; create a new one")

    async def on_create_profile(self, conn: Connection, msg: m.CreateProfile) -> None:
        if conn.player is not None:
            raise ProtocolError("profile_exists", "this session already has a profile")
        key = new_player_key()
        player = await self._shared.archive.create_player(msg.name, key_hash(key), bot=msg.bot)
        info = player_info(player)
        await self._sign_in(conn, info)
        self._shared.metrics.profiles.labels("created").inc()
        conn.send(m.Profile(id=msg.id, player=info, key=key))

    async def on_rename_profile(self, conn: Connection, msg: m.RenameProfile) -> None:
        held = self._held(conn)
        player = await self._shared.archive.rename_player(held.id, msg.name)
        if player is None:
            await self._gone(conn)
            return
        info = player_info(player)
        for other in self._sessions.of_player(held.id):  # every device here shows the new name
            self._sessions.set_player(other, info)
        self._shared.metrics.profiles.labels("renamed").inc()
        conn.send(m.Profile(id=msg.id, player=info, key=None))

    async def on_new_transfer_code(self, conn: Connection, msg: m.NewTransferCode) -> None:
        held = self._held(conn)
        archive = self._shared.archive
        if await archive.player(held.id) is None:
            await self._gone(conn)
            return
        code = new_transfer_code()
        seconds = self._shared.config.transfer_code_seconds
        await archive.put_transfer_code(held.id, key_hash(code), self.clock() + seconds)
        self._shared.metrics.profiles.labels("code_issued").inc()
        conn.send(m.TransferCode(id=msg.id, code=code, expires_in=seconds))

    async def on_redeem_transfer_code(self, conn: Connection, msg: m.RedeemTransferCode) -> None:
        if conn.player is not None:
            raise ProtocolError("profile_exists", "this session already has a profile")
        if not self._shared.limits.code_attempt(conn.address):
            self._shared.metrics.limited.labels("codes").inc()
            raise ProtocolError(
                "rate_limited", "too many transfer codes tried from your address; wait a minute"
            )
        code = normal_transfer_code(msg.code)
        archive = self._shared.archive
        taken = await archive.take_transfer_code(key_hash(code), self.clock()) if code else None
        player = await archive.player(taken) if taken else None
        if player is None:
            raise ProtocolError("unknown_code", "that transfer code is wrong, already used or expired")
        key = new_player_key()
        await archive.add_key(player.id, key_hash(key))
        info = player_info(player)
        await self._sign_in(conn, info)
        self._shared.metrics.profiles.labels("code_redeemed").inc()
        conn.send(m.Profile(id=msg.id, player=info, key=key))

    async def on_delete_profile(self, conn: Connection, msg: m.DeleteProfile) -> None:
        held = self._held(conn)
        await self._shared.archive.delete_player(held.id)
        for other in self._sessions.of_player(held.id):
            if other is not conn:
                self._sessions.set_player(other, None)  # its key is gone too: anonymous from now on
        await self._sign_in(conn, None)
        self._shared.metrics.profiles.labels("deleted").inc()
        conn.send(m.ProfileDeleted(id=msg.id))

    # ------------------------------------------------------------------ looking players up
    async def on_get_leaderboard(self, conn: Connection, msg: m.GetLeaderboard) -> None:
        archive = self._shared.archive
        profiles = await archive.leaderboard(msg.game, limit=msg.limit)
        me = await archive.standing(conn.player.id, msg.game) if conn.player is not None else None
        top, mine = merged_leaderboard(profiles, bot_standings(msg.game), msg.limit, me)
        conn.send(m.Leaderboard(id=msg.id, game=msg.game, top=top, me=mine))

    async def on_get_history(self, conn: Connection, msg: m.GetHistory) -> None:
        if msg.player is None:
            wanted = self._held(conn).id
        elif PLAYER_ID.fullmatch(msg.player) is None:
            raise ProtocolError("unknown_player", "no profile has that id")
        else:
            wanted = msg.player
        archive = self._shared.archive
        player = await archive.player(wanted)
        if player is None:
            if msg.player is None:
                await self._gone(conn)
            raise ProtocolError("unknown_player", "no profile has that id")
        ratings = await archive.ratings(wanted)
        if msg.before is not None and RECORD_ID.fullmatch(msg.before) is None:
            matches = []  # after a match that cannot exist: nothing, and no database asked
        else:
            matches = await archive.history(wanted, limit=msg.limit, before=msg.before)
        conn.send(
            m.History(
                id=msg.id,
                player=player_info(player),
                ratings=[rating_info(r) for r in ratings],
                matches=[history_info(e) for e in matches],
            )
        )

    async def rating_of(self, player: str, game: str) -> float:
        """A profile's rating in ``game`` for pairing: its archived rating, else (no rated match
        yet, or the database away: play goes on, and the match's end is rated when it is
        written, from the ratings then) the default."""
        try:
            ratings = await self._shared.archive.ratings(player)
        except StorageUnavailable:
            self._shared.storage_failed()
            return DEFAULT_RATING
        return next((r.rating for r in ratings if r.game == game), DEFAULT_RATING)
