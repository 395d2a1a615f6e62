"""One error hierarchy for all of Cardavia.

Every error carries a stable wire ``code`` so that clients branch on the code,
never on the message. ``ClientError`` is a fault in what a client (or a test,
or a record file) sent us; ``ServerError`` is our own fault. The hierarchy sits
in the lowest layer so that engines, protocol and server all share it.
"""

from __future__ import annotations


class CardaviaError(Exception):
    """Root of every error Cardavia raises on purpose."""

    code: str = "internal_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.code


class ClientError(CardaviaError):
    """The request was wrong; retrying it unchanged fails again."""

    code = "bad_request"


class ServerError(CardaviaError):
    """Something on our side failed; the request itself may have been fine."""

    code = "internal_error"


class CardError(ClientError, ValueError):
    """A card code that does not name a card."""

    code = "bad_card"


class OptionsError(ClientError, ValueError):
    """Table options a game does not accept."""

    code = "bad_options"


class ActionFormatError(ClientError, ValueError):
    """An action that cannot be read at all (bad text or data form)."""

    code = "bad_action"


class PositionError(ClientError, ValueError):
    """A position text or data that does not describe a consistent position."""

    code = "bad_position"


class UnknownGameError(ClientError, LookupError):
    code = "unknown_game"


class UnknownTraditionError(ClientError, LookupError):
    code = "unknown_deck"


class IllegalAction(ClientError):
    """A well-formed action the rules do not allow here.

    ``reason`` is one of a small fixed set of codes (see ``REASONS``) so that
    clients and tests can branch on why the move was refused; the message says
    it in words. The state the action was offered to is never changed.
    """

    code = "illegal_action"
    REASONS = frozenset(
        {
            "game_over",
            "not_your_turn",
            "card_not_in_hand",
            "capture_required",
            "wrong_capture",
            "wrong_action",
            "must_follow_suit",
            "must_head_trick",
            "must_trump",
            "not_allowed_now",
            "bid_too_low",
            "not_a_combination",
            "does_not_beat",
            "must_lead",
        }
    )

    def __init__(self, reason: str, message: str) -> None:
        if reason not in self.REASONS:
            raise ValueError(f"unknown illegal-action reason {reason!r}")
        super().__init__(message)
        self.reason = reason


class ReplayMismatch(ClientError):
    """A game record that does not replay to what it claims."""

    code = "record_mismatch"
