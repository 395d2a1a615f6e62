"""The archive: what lasts beyond a match and a node (profiles, ratings, finished matches).

Theory of operation. The lobby (``server/lobby.py``) holds what is live and may be lost with a
cluster; the archive holds what players come back for, in a real database: SQLite in a file for
one machine (``sqlite.py``, the embedded default) or PostgreSQL for a cluster (``postgres.py``).
Both backends implement :class:`Archive` with the same behaviour, and every test of the store
runs on both. A call that cannot reach its database raises :class:`StorageUnavailable`; the
caller retries later, and the same ``Archive`` object reconnects by itself (a call made while
it is not yet open opens it first).

The tables (``migrations/<backend>/NNNN_*.sql``, applied in order by ``migrate.py`` on ``open``):

- ``schema_migrations(version, applied)``: one row per migration applied, and the first table
  made; a database at a version newer than the code knows is refused (:class:`SchemaTooNew`).
- ``players(id, name, bot, created)``: a profile; ``id`` is ``p-`` and 16 hex digits from
  ``secrets`` and is public (leaderboards, history).
- ``player_keys(key_hash, player, created)``: the sha256 hex of each device's secret key; the
  secret itself never reaches the store.
- ``transfer_codes(code_hash, player, expires)``: at most one code per player, one use.
- ``ratings(player, game, rating, deviation, volatility, games)``: one Glicko-2 rating per
  profile and game, written only by ``record_match``.
- ``matches(record_id, game, rated, ended, players, scores, winner, record, analysis)``: a
  finished match; ``players`` is the JSON list of seats as history shows them, ``record`` the
  ``cardavia-record/1`` JSON text, ``analysis`` the strong bot's notes once computed.
- ``match_seats(record_id, seat, player, ended, rating_before, rating_after)``: one row per seat
  a profile sat in: a player's history, newest first by ``(ended, record_id)``.

``record_match`` is the one writer of ratings (``record_matches`` writes several match ends, in
order, in one transaction, each exactly as ``record_match`` would): in one transaction it
inserts the match (a record id already there means the match was written before: nothing
changes, ``None``), reads the ratings of the match's profiles (locked on PostgreSQL, under
SQLite's write lock), computes every seat's new rating with ``games.ratings.match_ratings`` and
writes them with the seats' rows. So a rating changes exactly once per match however often a
match end is retried, and two nodes ending matches of one player at once both count. Deleting a
profile removes its keys, code, ratings and history rows, and blanks its name (``""`` with
``"deleted": true``) in the records and seat lists of its matches; the matches themselves stay
for the other players.
"""

from __future__ import annotations

import copy
import json
import math
import re
import secrets
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias
from urllib.parse import urlsplit

from cardavia.games.errors import ServerError
from cardavia.games.ratings import Rating, match_ratings

HASH = re.compile(r"[0-9a-f]{64}")
"""A key or transfer code as the store sees it: the sha256 hex of the secret."""

PLAYER_ID: Final = re.compile(r"p-[0-9a-f]{16}")
"""A profile's public id, as ``new_player_id`` makes it; an id of any other form names no profile."""

RECORD_ID: Final = re.compile(r"[A-Za-z0-9-]{1,64}")
"""A record id as the server makes it (``<room id>-<match number>``); an id of any other form
names no record, so it need not reach the database."""

RECORD_ID_LENGTH: Final = 200
"""The longest record id the store takes (the server's are ``<room>-<n>``)."""


class StorageUnavailable(ServerError):
    """The archive's database cannot be reached; the caller retries later."""

    code = "storage_unavailable"


class SchemaTooNew(ServerError):
    """The database was migrated by a newer Cardavia than this one: refused, nothing touched."""

    code = "storage_schema_too_new"


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    bot: bool
    created: float


@dataclass(frozen=True, slots=True)
class GameRating:
    game: str
    rating: float
    deviation: float
    volatility: float
    games: int

    def as_rating(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    name: str
    rating: float
    deviation: float
    games: int
    bot: bool


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """One seat at a match's end. ``player``: the profile sitting there (None: an anonymous
    person or a built-in bot); ``fixed``: a built-in bot's fixed rating (None for people and
    profile bots)."""

    name: str
    player: str | None
    bot_level: str | None
    fixed: Rating | None
    guest: int | None = None
    """A guest's number (a person who chose no name; ``name`` is its English fallback)."""
    level: str | None = None
    """A built-in bot's seat: the level history names it by ("Bot 2 (basic)"); None for people,
    also those a bot stood in for (whose ``bot_level`` only rates the seat)."""


@dataclass(frozen=True, slots=True)
class MatchEnd:
    record_id: str
    game: str
    rated: bool
    ended: float
    seats: list[SeatEnd]
    scores: list[int]
    winner: int | None
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RatingChange:
    player: str
    seat: int
    game: str
    before: GameRating
    after: GameRating


Written: TypeAlias = list[RatingChange] | None
"""What writing one match end gives: its rating changes, or None when it was written before."""


class MatchesRefused(ValueError):
    """Some match ends of a batch were refused (``ValueError``); every other one is written.

    ``results`` holds one entry per end of the batch, in order: the refusal (a ``ValueError``)
    of each refused end, what ``record_match`` returned for each written one."""

    def __init__(self, results: list[Written | ValueError]) -> None:
        refused = [r for r in results if isinstance(r, ValueError)]
        super().__init__(f"{len(refused)} of {len(results)} match ends refused: {refused[0]}")
        self.results = results


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    record: str
    game: str
    ended: float
    rated: bool
    seat: int
    players: list[dict[str, Any]]  # [{"name", "bot": bool, "player": id | None, "level"?, "guest"?}] per seat
    scores: list[int]
    winner: int | None
    rating_before: float | None
    rating_after: float | None


class Archive(ABC):
    """Profiles, keys, transfer codes, ratings, finished matches and their analyses.

    Every method raises :class:`StorageUnavailable` when the database cannot be reached, and
    ``ValueError`` for an argument no caller should pass (a malformed hash, an inconsistent
    match end), before anything is changed."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and migrate; idempotent."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def ping(self) -> bool:
        """True when the database answers (never raises)."""

    @abstractmethod
    async def create_player(self, name: str, key_hash: str, *, bot: bool = False) -> Player: ...

    @abstractmethod
    async def player_by_key(self, key_hash: str) -> Player | None: ...

    @abstractmethod
    async def player(self, player_id: str) -> Player | None: ...

    @abstractmethod
    async def add_key(self, player_id: str, key_hash: str) -> None:
        """Another device's key for a profile; ``ValueError`` for an unknown profile or a key
        already in use."""

    @abstractmethod
    async def rename_player(self, player_id: str, name: str) -> Player | None: ...

    @abstractmethod
    async def delete_player(self, player_id: str) -> bool:
        """Remove the profile with its keys, code, ratings and history rows; its seats' names
        in the records become ``""`` with ``"deleted": true``. False: no such profile."""

    @abstractmethod
    async def put_transfer_code(self, player_id: str, code_hash: str, expires: float) -> None:
        """The profile's transfer code, replacing any earlier one."""

    @abstractmethod
    async def take_transfer_code(self, code_hash: str, now: float) -> str | None:
        """The profile a code names, used up atomically (one caller wins); None for an unknown,
        used or expired code. Every code expired by ``now`` is removed on the way."""

    @abstractmethod
    async def record_match(self, end: MatchEnd) -> list[RatingChange] | None:
        """Write a finished match in one transaction (see the module's theory of operation);
        the rating changes it made (empty for a casual match), or None when that record id was
        written before (and nothing changed)."""

    async def record_matches(self, ends: Sequence[MatchEnd]) -> list[Written]:
        """Write several finished matches in ONE transaction, in order: the same result as
        ``record_match`` on each in turn (an end already written, or repeated in the batch, is
        None and changes nothing; a profile in two ends is rated twice, in order), for one
        commit. A match end refused with ``ValueError`` (checked here, or refused by the
        database) rolls the batch back; then each end is written on its own, so only the bad
        one is refused: :class:`MatchesRefused` names it with what the others gave.
        ``StorageUnavailable``: nothing of the batch's transaction is written (ends already
        written on their own, after a refusal, stay written: a retry finds them there)."""
        ends = list(ends)
        if not ends:
            return []
        if len(ends) == 1:  # its own transaction, as record_match always was
            try:
                return [await self.record_match(ends[0])]
            except ValueError as exc:
                raise MatchesRefused([exc]) from exc
        try:
            for end in ends:
                check_end(end)
            return await self._record_checked(ends)
        except ValueError:
            pass
        results: list[Written | ValueError] = []
        for end in ends:
            try:
                results.append(await self.record_match(end))
            except ValueError as exc:
                results.append(exc)
        if any(isinstance(r, ValueError) for r in results):
            raise MatchesRefused(results)
        return [r for r in results if not isinstance(r, ValueError)]

    @abstractmethod
    async def _record_checked(self, ends: list[MatchEnd]) -> list[Written]:
        """``record_matches``'s one transaction, for ends that passed ``check_end``."""

    @abstractmethod
    async def load_record(self, record_id: str) -> dict[str, Any] | None: ...

    @abstractmethod
    async def history(
        self, player_id: str, *, limit: int = 20, before: str | None = None
    ) -> list[HistoryEntry]:
        """The profile's matches, newest first; ``before``: only those older than that record."""

    @abstractmethod
    async def ratings(self, player_id: str) -> list[GameRating]:
        """The profile's rating in each game it has played rated, by game id."""

    @abstractmethod
    async def leaderboard(self, game: str, *, limit: int = 20) -> list[Standing]:
        """Profiles only: rating descending, ties by games descending, then by id."""

    @abstractmethod
    async def standing(self, player_id: str, game: str) -> Standing | None: ...

    @abstractmethod
    async def load_analysis(self, record_id: str) -> list[Any] | None: ...

    @abstractmethod
    async def save_analysis(self, record_id: str, analysis: list[Any]) -> None:
        """Keep a match's analysis (replacing any earlier); an unknown or pruned record keeps
        nothing."""

    @abstractmethod
    async def prune(self, before: float) -> int:
        """Delete the casual matches that ended before ``before`` (records and rows); how many.
        Rated matches stay: they are the ratings' history."""


def open_archive(url: str) -> Archive:
    """The archive a URL names (not yet opened): ``sqlite:///abs/path.db``,
    ``sqlite:relative.db`` or ``postgresql://user@host:port/db`` (also ``postgres://``).
    ``ValueError`` with one line naming the problem for any other."""
    if not isinstance(url, str) or not url:
        raise ValueError("the database URL is empty")
    scheme, sep, _ = url.partition(":")
    if not sep:
        raise ValueError(f"the database URL {url!r} has no scheme (sqlite: or postgresql://)")
    scheme = scheme.lower()
    if scheme == "sqlite":
        from cardavia.server.store.sqlite import SqliteArchive

        return SqliteArchive(sqlite_path(url))
    if scheme in ("postgresql", "postgres"):
        check_postgres_url(url)
        from cardavia.server.store.postgres import PostgresArchive

        return PostgresArchive(url)
    raise ValueError(f"the database URL's scheme {scheme!r} is neither sqlite nor postgresql")


def sqlite_path(url: str) -> Path:
    """The file a ``sqlite:`` URL names: ``sqlite:///abs/path.db`` or ``sqlite:relative.db``."""
    rest = url.partition(":")[2]
    if rest.startswith("//"):
        if not rest.startswith("///"):
            raise ValueError(f"the SQLite URL {url!r} names a host: use sqlite:///absolute/path.db")
        path = "/" + rest.lstrip("/")  # sqlite:////abs/path.db as well
    else:
        path = rest
    if "?" in path or "#" in path:
        raise ValueError(f"the SQLite URL {url!r} has a query or fragment, which is not supported")
    if not path or path.endswith("/"):
        raise ValueError(f"the SQLite URL {url!r} names no file")
    if "\x00" in path:
        raise ValueError("the SQLite URL holds a NUL character")
    return Path(path)


def check_postgres_url(url: str) -> None:
    """``ValueError`` unless ``url`` is a PostgreSQL URL asyncpg can read."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError as exc:
        raise ValueError(f"the PostgreSQL URL is malformed: {exc}") from None
    if not parts.hostname and "host=" not in parts.query:  # ?host=/run/postgresql: a Unix socket
        raise ValueError("the PostgreSQL URL names no host (postgresql://user@host:port/db)")
    if parts.fragment:
        raise ValueError("the PostgreSQL URL has a fragment, which is not supported")


def new_player_id() -> str:
    return "p-" + secrets.token_hex(8)


def check_hash(value: str, what: str) -> None:
    if not isinstance(value, str) or not HASH.fullmatch(value):
        raise ValueError(f"{what} must be the sha256 hex digest of the secret")


def check_text(*values: str | None) -> None:
    """Ids and names as both backends keep them alike: ``ValueError`` for one that is not a
    string, holds a NUL character (PostgreSQL's text refuses it; SQLite would keep it) or is
    longer than 200 characters. None passes (an absent cursor)."""
    for value in values:
        if value is None:
            continue
        if not isinstance(value, str) or "\x00" in value or len(value) > RECORD_ID_LENGTH:
            raise ValueError(f"not an id or name the store keeps: {value!r:.80}")


def check_name(name: str) -> None:
    """The store's own guard; the protocol's text rules checked the name before it came here."""
    if not isinstance(name, str) or not name or len(name) > 64 or "\x00" in name:
        raise ValueError("a profile's name is 1 to 64 characters, without NUL")


def check_limit(limit: int, most: int = 1000) -> None:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= most:
        raise ValueError(f"limit must be 1..{most}")


def check_end(end: MatchEnd) -> None:
    """A match end the store can write, or ``ValueError`` naming what is wrong with it."""
    if not isinstance(end.record_id, str) or not 0 < len(end.record_id) <= RECORD_ID_LENGTH:
        raise ValueError("a record id is 1 to 200 characters")
    check_text(end.record_id, end.game, *(t for s in end.seats for t in (s.name, s.player, s.bot_level)))
    if not end.seats:
        raise ValueError("a match has seats")
    for seat in end.seats:
        if seat.guest is not None and (
            not isinstance(seat.guest, int) or isinstance(seat.guest, bool) or not 100 <= seat.guest <= 999
        ):
            raise ValueError(f"guest {seat.guest!r} is no guest number (100-999)")
    check_text(*(s.level for s in end.seats))
    if len(end.scores) != len(end.seats):
        raise ValueError(f"{len(end.seats)} seats but {len(end.scores)} scores")
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in end.scores):
        raise ValueError("scores are whole numbers")
    if end.winner is not None and (
        not isinstance(end.winner, int)
        or isinstance(end.winner, bool)
        or not 0 <= end.winner < len(end.seats)
    ):
        raise ValueError(f"winner {end.winner!r} is no seat")
    if isinstance(end.ended, bool) or not isinstance(end.ended, (int, float)) or not math.isfinite(end.ended):
        raise ValueError("a match's end is a time in seconds")
    if not isinstance(end.rated, bool):
        raise ValueError("rated is true or false")
    if not isinstance(end.record, dict):
        raise ValueError("the record is a JSON object")
    if end.rated:
        profiles = [s.player for s in end.seats if s.player is not None]
        if len(set(profiles)) != len(profiles):
            raise ValueError("a profile sits in two seats of one rated match")
        for i, seat in enumerate(end.seats):
            if seat.player is None and seat.fixed is None:
                raise ValueError(f"seat {i} of a rated match has neither a profile nor a fixed rating")


def seat_list(end: MatchEnd, profiles: dict[str, bool]) -> list[dict[str, Any]]:
    """Each seat as history shows it; ``profiles``: the seats' profiles that still exist and
    whether each is a bot. A seat whose profile was deleted before the match was written is
    blanked as a deleted profile's seats are."""
    seats: list[dict[str, Any]] = []
    for seat in end.seats:
        if seat.player is not None and seat.player not in profiles:
            seats.append({"name": "", "bot": False, "player": None, "deleted": True})
            continue
        bot = seat.bot_level is not None or (seat.player is not None and profiles[seat.player])
        shown: dict[str, Any] = {"name": seat.name, "bot": bot, "player": seat.player}
        if seat.level is not None:  # a built-in bot: clients name it by seat and level
            shown["level"] = seat.level
        if seat.guest is not None:  # a guest: clients name it by its number
            shown["guest"] = seat.guest
        seats.append(shown)
    return seats


def record_with_blanks(record: dict[str, Any], blanks: list[int]) -> dict[str, Any]:
    """The record with the names of the ``blanks`` seats removed (``""``, ``"deleted": true``)."""
    if not blanks:
        return record
    record = copy.deepcopy(record)
    seats = record.get("seats")
    if isinstance(seats, list):
        for i in blanks:
            if i < len(seats) and isinstance(seats[i], dict):
                seats[i]["name"] = ""
                seats[i]["deleted"] = True
    return record


def blank_seats(players: list[dict[str, Any]], record: dict[str, Any], player_id: str) -> list[int]:
    """Blank ``player_id``'s seats in a match's seat list and record, in place; which seats."""
    seats = [i for i, p in enumerate(players) if p.get("player") == player_id]
    for i in seats:
        players[i] = {"name": "", "bot": players[i].get("bot", False), "player": None, "deleted": True}
    blanked = record_with_blanks(record, seats)
    if blanked is not record:
        record.clear()
        record.update(blanked)
    return seats


def rate_match(
    end: MatchEnd, current: dict[str, GameRating], profiles: dict[str, bool]
) -> list[RatingChange]:
    """The rating changes of a rated match, from the profiles' ratings read in the match's
    transaction (``current``; a profile without one starts at the default rating). Seats of
    built-in bots keep their fixed ratings; a profile deleted before the match was written is
    taken as fixed at the default rating and changes nothing."""
    before: list[Rating] = []
    fixed: list[bool] = []
    for seat in end.seats:
        if seat.player is not None and seat.player in profiles:
            held = current.get(seat.player)
            before.append(held.as_rating() if held is not None else Rating())
            fixed.append(False)
        else:
            before.append(seat.fixed if seat.fixed is not None else Rating())
            fixed.append(True)
    after = match_ratings(end.game, end.scores, end.winner, before, fixed)
    changes = []
    for i, seat in enumerate(end.seats):
        if fixed[i] or seat.player is None:
            continue
        held = current.get(seat.player)
        start = held or GameRating(end.game, before[i].rating, before[i].deviation, before[i].volatility, 0)
        new = after[i]
        changes.append(
            RatingChange(
                seat.player,
                i,
                end.game,
                start,
                GameRating(end.game, new.rating, new.deviation, new.volatility, start.games + 1),
            )
        )
    return changes


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def history_entry(row: dict[str, Any]) -> HistoryEntry:
    """A history entry from a joined ``match_seats``/``matches`` row (JSON columns as text)."""
    return HistoryEntry(
        record=row["record_id"],
        game=row["game"],
        ended=float(row["ended"]),
        rated=bool(row["rated"]),
        seat=int(row["seat"]),
        players=json.loads(row["players"]),
        scores=json.loads(row["scores"]),
        winner=row["winner"],
        rating_before=row["rating_before"],
        rating_after=row["rating_after"],
    )
