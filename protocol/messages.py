"""Every protocol message, as frozen pydantic models validated strictly.

Client requests carry an ``id`` the client chooses, or none: a request without
one is answered without one (the server never makes one up). Every error carries it
back, and so do the replies only the asker gets (welcome, catalogue, rooms,
record, redirect, left, the asker's rematch votes). Snapshots, deltas and chat
lines go to a whole room and never carry one, even when they answer a request
(``protocol.schema.ANSWERS`` says what answers each request); clients settle
those by kind. Turn notices and results answer nothing and have ``id`` null.

Compatibility rules (also in protocol/README.md): within one protocol version
the server may add optional fields to server messages and new message types;
clients ignore fields and types they do not know. A client message never gains
a required field within a version. Unknown fields in client messages are
refused (``invalid_field``), so a typo never silently does nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardavia.protocol.text import PlayerText

PROTOCOL_VERSION = 2
SUPPORTED_VERSIONS = frozenset({2})

Name = Annotated[str, PlayerText(max_length=32, strip=True)]
"""A player's name: NFC, one line, no control, bidi or invisible format characters (``protocol.text``)."""
Lang = Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Za-z]{2})?$")]
RoomRef = Annotated[str, StringConstraints(min_length=1, max_length=64)]
GameId = Literal["scopa", "briscola", "schnapsen", "doudizhu"]
BotLevel = Literal["random", "basic", "strong", "expert"]
"""The bot levels, weakest first: the one list ``protocol.names.LEVELS``, the commands and the
page's ``names.js`` take theirs from (a server offers a game only the levels it has a bot for)."""
PlayerKey = Annotated[str, StringConstraints(max_length=128)]
"""A player key as the client keeps it; the server checks its form (``player_error``) and never logs it."""
PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=40)]
RecordRef = Annotated[str, StringConstraints(min_length=1, max_length=64)]
RequestId = Annotated[int, Field(ge=0, le=2**31 - 1)]
Guest = Annotated[int, Field(ge=100, le=999)]
"""A guest's number: a person who chose no name is "Player 563", rendered by each client in its
reader's language (``protocol.names``)."""
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5.0, 600.0
Plain = dict[str, Any]


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Request(Message):
    id: RequestId | None = None


# ------------------------------------------------------------ client → server
class Hello(Request):
    """The handshake: the first message of every connection."""

    type: Literal["hello"] = "hello"
    version: int
    name: Name | None = None
    """The name the player chose; null: a guest, named by ``guest`` (a name given wins over it)."""
    guest: Guest | None = None
    """The guest number the client keeps for a player who chose no name (100-999), so the player
    is the same "Player 563" on every visit; null with no name: the server draws one."""
    lang: Lang = "en"
    resume: Annotated[str, StringConstraints(max_length=128)] | None = None
    last_seq: int | None = Field(default=None, ge=0)
    player: PlayerKey | None = None
    """The player key a profile was given (``profile.key``); null: play without a profile.

    Sent only here, never in a URL. A key the server does not know starts an anonymous session
    (``welcome.player_error`` says why) and changes nothing else."""


class GetCatalogue(Request):
    type: Literal["get_catalogue"] = "get_catalogue"


class ListRooms(Request):
    type: Literal["list_rooms"] = "list_rooms"
    game: GameId | None = None
    limit: int = Field(default=50, ge=1, le=200)


class CreateRoom(Request):
    type: Literal["create_room"] = "create_room"
    game: GameId
    deck: Annotated[str, StringConstraints(max_length=32)] | None = None
    options: dict[str, int | bool | str] = Field(default_factory=dict, max_length=8)
    public: bool = True
    humans: int = Field(default=1, ge=0, le=3)
    bot_level: BotLevel | None = None
    """Level of the bots in empty seats; null: the game's default (basic where it has one)."""
    turn_seconds: float | None = Field(default=None, ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)
    """Seconds each move may take before a bot moves for the player (5 s to 10 min); null: no timer."""
    fill_after: float | None = Field(default=None, ge=0, le=3600)
    rated: bool = False
    """A rated room changes its players' ratings; every person seated in it needs a profile."""


class JoinRoom(Request):
    type: Literal["join_room"] = "join_room"
    room: RoomRef | None = None
    code: Annotated[str, StringConstraints(min_length=4, max_length=12)] | None = None
    reservation: Annotated[str, StringConstraints(max_length=128)] | None = None


class QuickMatch(Request):
    type: Literal["quick_match"] = "quick_match"
    game: GameId
    rated: bool | None = None
    """Rated rooms pair players by rating; null: rated when the player has a profile."""


class PlayNow(Request):
    """One message to play at once against bots in every other seat."""

    type: Literal["play_now"] = "play_now"
    game: GameId
    bot_level: BotLevel | None = None
    """Level of the bots in empty seats; null: the game's default (basic where it has one)."""
    deck: Annotated[str, StringConstraints(max_length=32)] | None = None
    options: dict[str, int | bool | str] = Field(default_factory=dict, max_length=8)
    rated: bool = False
    """Rated against the bots' published ratings; needs a profile."""


class Leave(Request):
    type: Literal["leave"] = "leave"


class Start(Request):
    type: Literal["start"] = "start"


class Rematch(Request):
    type: Literal["rematch"] = "rematch"


class Act(Request):
    """An action in the engine's data form, e.g. ``{"play": "7D", "capture": ["3S", "4C"]}``.

    Card codes in it are read in any case (``"7d"`` is ``7D``), as ``Card.parse`` reads them."""

    type: Literal["act"] = "act"
    action: dict[str, int | bool | str | list[str]] = Field(max_length=8)


class Resync(Request):
    type: Literal["resync"] = "resync"


class Spectate(Request):
    type: Literal["spectate"] = "spectate"
    room: RoomRef | None = None
    code: Annotated[str, StringConstraints(min_length=4, max_length=12)] | None = None


class Chat(Request):
    type: Literal["chat"] = "chat"
    text: Annotated[str, PlayerText(max_length=200)]


class GetRules(Request):
    """A game's rules for players, as Markdown; ``lang`` null: the language of the hello."""

    type: Literal["get_rules"] = "get_rules"
    game: GameId
    lang: Lang | None = None


class GetRecord(Request):
    type: Literal["get_record"] = "get_record"
    record: RecordRef


class CreateProfile(Request):
    """A profile for this player: a lasting name, ratings and history, reached with a key."""

    type: Literal["create_profile"] = "create_profile"
    name: Name
    bot: bool = False
    """True for a program's profile (a ladder bot): marked as a bot wherever it is listed."""


class RenameProfile(Request):
    type: Literal["rename_profile"] = "rename_profile"
    name: Name


class NewTransferCode(Request):
    """A one-time code that brings this profile to another device (``redeem_transfer_code``)."""

    type: Literal["new_transfer_code"] = "new_transfer_code"


class RedeemTransferCode(Request):
    type: Literal["redeem_transfer_code"] = "redeem_transfer_code"
    code: Annotated[str, StringConstraints(min_length=4, max_length=16)]


class DeleteProfile(Request):
    """Delete this profile and everything tied to it: keys, ratings, history."""

    type: Literal["delete_profile"] = "delete_profile"


class GetLeaderboard(Request):
    type: Literal["get_leaderboard"] = "get_leaderboard"
    game: GameId
    limit: int = Field(default=20, ge=1, le=100)


class GetHistory(Request):
    """A player's ratings and recent matches, newest first; ``player`` null: this session's profile."""

    type: Literal["get_history"] = "get_history"
    player: PlayerId | None = None
    limit: int = Field(default=20, ge=1, le=50)
    before: RecordRef | None = None
    """The record id of the last match of the previous page: the page starts after it."""


class GetReplay(Request):
    """A finished match step by step, every hand shown, with the strong bot's view of each person's moves."""

    type: Literal["get_replay"] = "get_replay"
    record: RecordRef


ClientMessage = Annotated[
    Hello
    | GetCatalogue
    | ListRooms
    | CreateRoom
    | JoinRoom
    | QuickMatch
    | PlayNow
    | Leave
    | Start
    | Rematch
    | Act
    | Resync
    | Spectate
    | Chat
    | GetRules
    | GetRecord
    | CreateProfile
    | RenameProfile
    | NewTransferCode
    | RedeemTransferCode
    | DeleteProfile
    | GetLeaderboard
    | GetHistory
    | GetReplay,
    Field(discriminator="type"),
]


# ------------------------------------------------------------ server → client
class Reply(Message):
    # A client ignores fields it does not know: within a version, servers may add
    # optional fields (README "Versioning"), and an older client must still read them.
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    id: RequestId | None = None


class PlayerInfo(Message):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)  # server-written: as ``Reply``

    id: str
    """Public: shown on leaderboards and in history (never the key)."""
    name: str
    bot: bool = False


class Welcome(Reply):
    type: Literal["welcome"] = "welcome"
    session: str
    resume: str
    server: str
    version: int = PROTOCOL_VERSION
    room: str | None = None
    player: PlayerInfo | None = None
    """The profile the hello's player key names; null: an anonymous session."""
    player_error: str | None = None
    """Why a hello's player key was not taken (``unknown_player``, ``malformed_player_key``,
    ``storage_unavailable``); the session is anonymous and nothing else changed."""
    guest: int | None = None
    """The guest number the session was seated under (the hello's, or one the server drew for a
    hello with neither name nor guest); null: the player chose a name."""


class Catalogue(Reply):
    type: Literal["catalogue"] = "catalogue"
    games: list[Plain]
    decks: list[Plain]
    bots: list[Plain]


class RoomInfo(Message):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)  # server-written: as ``Reply``

    room: str
    code: str | None = None
    game: GameId
    deck: str
    options: Plain
    public: bool
    state: Literal["waiting", "playing", "finished", "closed"]
    seats: list[Plain]
    """Per seat: ``{"kind": "open" | "human" | "bot", "name", "bot": level or null, "guest"}`` (and
    ``connected`` for the room's members). A bot's ``name`` is the English fallback "Bot 2
    (basic)", a guest's (``guest``: its number, else null) "Player 563": clients name them from
    ``bot`` and the seat's number, or from ``guest``, in their reader's language."""
    owner: str | None = None
    node: str | None = None
    turn_seconds: float | None = None
    rated: bool = False


class Rooms(Reply):
    type: Literal["rooms"] = "rooms"
    rooms: list[RoomInfo]


class Snapshot(Reply):
    """A recipient's whole view; deltas that follow are numbered from ``seq``.

    Never carries a request id, also when it answers one (create, join, quick match, play now,
    start, rematch, resync, spectate): clients settle those requests by kind."""

    type: Literal["snapshot"] = "snapshot"
    room: RoomInfo
    seat: int | None = None
    seq: int
    view: Plain


class Delta(Reply):
    """The change from the recipient's view at ``seq - 1`` to its view at ``seq``.

    Never carries a request id: the mover's own delta answers its ``act``."""

    type: Literal["delta"] = "delta"
    seq: int
    ops: list[Any]
    """Flat triples ``kind, path, arg`` (see ``cardavia.protocol.delta``)."""
    events: list[Plain] = Field(default_factory=list)


class YourTurn(Reply):
    type: Literal["your_turn"] = "your_turn"
    seq: int
    legal: list[Plain]
    deadline: float | None = None


class DealResult(Reply):
    type: Literal["deal_result"] = "deal_result"
    deal: int
    points: list[int]
    detail: Plain
    totals: list[int] | None = None


class MatchResult(Reply):
    type: Literal["match_result"] = "match_result"
    scores: list[int]
    winner: int | None = None
    reason: str
    record: str | None = None


class Rules(Reply):
    """A game's rules in ``lang`` (English when the language asked for has no text)."""

    type: Literal["rules"] = "rules"
    game: GameId
    lang: str
    markdown: str


class RecordMessage(Reply):
    type: Literal["record"] = "record"
    record_id: str
    record: Plain


class Profile(Reply):
    """This session's profile; ``key`` is set only when a new key was made for this device."""

    type: Literal["profile"] = "profile"
    player: PlayerInfo
    key: str | None = None
    """The player key: shown once, kept by the client (never in a URL), sent in each ``hello``."""


class TransferCode(Reply):
    type: Literal["transfer_code"] = "transfer_code"
    code: str
    expires_in: float
    """Seconds the code stays valid; it works once."""


class ProfileDeleted(Reply):
    type: Literal["profile_deleted"] = "profile_deleted"


class Standing(Message):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    rank: int
    player: str
    """A profile's id, or ``bot:<level>`` for a built-in bot level (its published, fixed rating)."""
    name: str
    rating: int
    deviation: int
    games: int
    bot: bool = False
    level: BotLevel | None = None
    """A built-in bot level's row: its level, which clients name ("Bot (basic)") in their reader's
    language; ``name`` is the English fallback."""


class Leaderboard(Reply):
    type: Literal["leaderboard"] = "leaderboard"
    game: GameId
    top: list[Standing]
    me: Standing | None = None


class GameRatingInfo(Message):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    game: GameId
    rating: int
    deviation: int
    games: int


class HistoryEntry(Message):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    record: str
    game: GameId
    ended: float
    """Seconds since the Unix epoch."""
    rated: bool
    seat: int
    players: list[Plain]
    """Per seat: ``{"name", "bot", "player"}`` (``player``: a profile's id or null), and ``level``
    for a built-in bot (its level) and ``guest`` for a guest (its number), so a client names them
    in its reader's language; ``name`` is then the English fallback ("Bot 2 (basic)")."""
    scores: list[int]
    winner: int | None = None
    rating_before: int | None = None
    rating_after: int | None = None


class History(Reply):
    type: Literal["history"] = "history"
    player: PlayerInfo
    ratings: list[GameRatingInfo]
    matches: list[HistoryEntry]


class Replay(Reply):
    """A finished match, every hand shown: every seat's view at the start, then each action with
    every seat's delta ops from its previous view, and the analysis of each person's move."""

    type: Literal["replay"] = "replay"
    record_id: str
    record: Plain
    views: list[Plain]
    steps: list[Plain]
    """Per action: ``{"deal", "seat", "action", "ops": [ops per seat]}``."""
    analysis: list[Plain | None]
    """Per step: ``{"best": action, "differs": bool, "forced"?: true}`` for a person's move, else null."""


class RatingChange(Reply):
    """Pushed to a profile's connection once its rated match is written: the rating moved exactly once."""

    type: Literal["rating_change"] = "rating_change"
    record: str
    game: GameId
    before: int
    after: int
    deviation: int


class Redirect(Reply):
    type: Literal["redirect"] = "redirect"
    url: str
    room: str
    reservation: str | None = None


class ChatMessage(Reply):
    """A chat line, to everyone in the room; the sender's own copy answers its ``chat`` (no id)."""

    type: Literal["chat_message"] = "chat_message"
    seat: int | None = None
    name: str
    """The sender's name; for a guest the English fallback ("Player 563")."""
    text: str
    guest: int | None = None
    """The sender's guest number when it chose no name: the client names it "Player 563" in its
    reader's language."""


class RematchVotes(Reply):
    """Who has asked for a rematch: it starts once every seat in ``waiting`` has asked too.

    Sent to everyone in the room at each request; the asker's copy answers its request."""

    type: Literal["rematch_votes"] = "rematch_votes"
    asked: list[int]
    waiting: list[int]


class Left(Reply):
    type: Literal["left"] = "left"
    reason: str = "requested"


class Error(Reply):
    type: Literal["error"] = "error"
    code: str
    message: str
    reason: str | None = None
    retry_after: float | None = None
    """Seconds after which the same request may succeed (``node_unavailable``); null: no hint."""


ServerMessage = Annotated[
    Welcome
    | Catalogue
    | Rooms
    | Snapshot
    | Delta
    | YourTurn
    | DealResult
    | MatchResult
    | RecordMessage
    | Rules
    | Redirect
    | ChatMessage
    | RematchVotes
    | Left
    | Error
    | Profile
    | TransferCode
    | ProfileDeleted
    | Leaderboard
    | History
    | Replay
    | RatingChange,
    Field(discriminator="type"),
]

CLIENT_TYPES: tuple[type[Request], ...] = (
    Hello, GetCatalogue, ListRooms, CreateRoom, JoinRoom, QuickMatch, PlayNow, Leave, Start,
    Rematch, Act, Resync, Spectate, Chat, GetRules, GetRecord, CreateProfile, RenameProfile,
    NewTransferCode, RedeemTransferCode, DeleteProfile, GetLeaderboard, GetHistory, GetReplay,
)  # fmt: skip
SERVER_TYPES: tuple[type[Reply], ...] = (
    Welcome, Catalogue, Rooms, Snapshot, Delta, YourTurn, DealResult, MatchResult, RecordMessage, Rules,
    Redirect, ChatMessage, RematchVotes, Left, Error, Profile, TransferCode, ProfileDeleted, Leaderboard,
    History, Replay, RatingChange,
)  # fmt: skip
