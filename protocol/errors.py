"""The table of wire error codes.

Every error a client can receive has a stable ``code`` from this table and a
human-readable message. Clients branch on the code; messages may change.
``fault`` says whose fault it is: ``client`` (fix the request) or ``server``
(retry later). Engine errors (``games.errors``) keep their own codes, which are
listed here too so that the table is the one reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardavia.games.errors import CardaviaError, ClientError, ServerError


@dataclass(frozen=True, slots=True)
class ErrorCode:
    code: str
    fault: str
    meaning: str


_TABLE: Final = [
    # framing and decoding
    ErrorCode("bad_frame", "client", "the frame is not one msgpack map (or is a text frame)"),
    ErrorCode("too_large", "client", "the frame is larger than the server accepts"),
    ErrorCode("too_deep", "client", "the message nests deeper than the protocol allows"),
    ErrorCode("unknown_type", "client", "the message type is not one the protocol has"),
    ErrorCode("invalid_field", "client", "a field is missing, unknown, of the wrong type or out of range"),
    ErrorCode("unsupported_version", "client", "the protocol version in the handshake is not supported"),
    ErrorCode("handshake_required", "client", "the first message of a connection must be hello"),
    # sessions and rooms
    ErrorCode(
        "bad_resume_token",
        "client",
        "the resume token is unknown, expired or already replaced; the welcome that follows starts a "
        "new session",
    ),
    ErrorCode("not_in_room", "client", "the request needs a room and the connection is in none"),
    ErrorCode("already_in_room", "client", "the connection is already seated in a room"),
    ErrorCode("unknown_room", "client", "no room has that id or code"),
    ErrorCode("room_full", "client", "every seat of the room is taken"),
    ErrorCode("room_started", "client", "the room's game has already started"),
    ErrorCode("not_room_owner", "client", "only the room's owner may do that"),
    ErrorCode(
        "too_many_rooms",
        "client",
        "the connection holds as many open rooms as it may (finished ones do not count)",
    ),
    ErrorCode("unknown_record", "client", "no record has that id"),
    ErrorCode(
        "bad_reservation", "client", "the seat reservation is unknown, already used, expired or not yours"
    ),
    ErrorCode(
        "node_unavailable",
        "server",
        "the node that runs the room is not reachable (another node is taking the room over); retry after "
        "`retry_after` seconds",
    ),
    # profiles
    ErrorCode("profile_required", "client", "a rated room, and every profile request, needs a profile"),
    ErrorCode("profile_exists", "client", "this session already has a profile"),
    ErrorCode("unknown_code", "client", "the transfer code is wrong, already used or expired"),
    ErrorCode("unknown_player", "client", "no profile has that id (or that player key)"),
    ErrorCode("malformed_player_key", "client", "the player key is not in the form the server gives out"),
    ErrorCode("spectator", "client", "spectators may watch and chat but not act or ask for a rematch"),
    # game play
    ErrorCode("not_your_turn", "client", "it is another seat's turn"),
    ErrorCode("illegal_action", "client", "the rules do not allow that action now; `reason` says why"),
    ErrorCode("bad_action", "client", "the action is not in the game's action form"),
    ErrorCode("bad_card", "client", "a card code does not name a card"),
    ErrorCode("bad_options", "client", "the table options are not valid for the game"),
    ErrorCode("unknown_game", "client", "no game has that id"),
    ErrorCode("unknown_deck", "client", "no deck tradition has that id, or it does not serve the game"),
    ErrorCode("game_over", "client", "the game has ended"),
    # limits
    ErrorCode(
        "rate_limited",
        "client",
        "too many messages, new sessions or room codes that named no room; slow down",
    ),
    # ours
    ErrorCode("lobby_unavailable", "server", "the lobby store cannot be reached; games go on, retry later"),
    ErrorCode(
        "storage_unavailable",
        "server",
        "the database of profiles, ratings and records cannot be reached; games go on, retry after "
        "`retry_after` seconds",
    ),
    ErrorCode("shutting_down", "server", "the server is shutting down"),
    ErrorCode("internal_error", "server", "something failed on the server; the request may be retried"),
]

ERROR_CODES: Final[dict[str, ErrorCode]] = {e.code: e for e in _TABLE}


class ProtocolError(ClientError):
    """A request the protocol refuses; ``code`` is one of ``ERROR_CODES``.

    ``request_id`` is the refused request's ``id`` when the decoder could read
    one, so the error reply carries it back as every reply does.
    """

    def __init__(self, code: str, message: str, *, request_id: int | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown wire error code {code!r}")
        super().__init__(message, code=code)
        self.request_id = request_id


def wire_code(error: BaseException) -> str:
    """The wire code for any exception: ours keep theirs, anything else is internal."""
    if isinstance(error, CardaviaError) and error.code in ERROR_CODES:
        return error.code
    if isinstance(error, ClientError):
        return "invalid_field"
    if isinstance(error, ServerError):
        return "internal_error"
    return "internal_error"
