"""Client-side helpers shared by the terminal client, headless bots and third-party Python bots.

``Requests`` numbers requests so replies can be matched to them; ``ViewStore``
keeps a recipient's view from a snapshot and the deltas that follow, and says
when a gap in sequence numbers means the client must ask for a resync.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import Any

from cardavia.protocol import messages as m
from cardavia.protocol.delta import apply


class Requests:
    """Builds client requests with fresh ids: ``req.act({"play": "7D"})``."""

    def __init__(self, start: int = 1) -> None:
        self._ids = count(start)

    def next_id(self) -> int:
        return next(self._ids)

    def hello(
        self,
        name: str | None,
        *,
        lang: str = "en",
        resume: str | None = None,
        player: str | None = None,
        guest: int | None = None,
    ) -> m.Hello:
        """The handshake; ``name`` None: a guest, numbered ``guest`` (None: the server draws one)."""
        return m.Hello(
            id=self.next_id(),
            version=m.PROTOCOL_VERSION,
            name=name,
            guest=guest,
            lang=lang,
            resume=resume,
            player=player,
        )

    def get_catalogue(self) -> m.GetCatalogue:
        return m.GetCatalogue(id=self.next_id())

    def list_rooms(self, game: str | None = None, *, limit: int = 50) -> m.ListRooms:
        return m.ListRooms.model_validate({"id": self.next_id(), "game": game, "limit": limit})

    def act(self, action: dict[str, Any]) -> m.Act:
        return m.Act(id=self.next_id(), action=action)

    def resync(self) -> m.Resync:
        return m.Resync(id=self.next_id())

    def create_room(self, game: str, **fields: Any) -> m.CreateRoom:
        return m.CreateRoom.model_validate({"id": self.next_id(), "game": game, **fields})

    def join(self, *, room: str | None = None, code: str | None = None) -> m.JoinRoom:
        return m.JoinRoom(id=self.next_id(), room=room, code=code)

    def quick_match(self, game: str, *, rated: bool | None = None) -> m.QuickMatch:
        return m.QuickMatch.model_validate({"id": self.next_id(), "game": game, "rated": rated})

    def play_now(self, game: str, bot_level: str | None = None, *, rated: bool = False) -> m.PlayNow:
        return m.PlayNow.model_validate(
            {"id": self.next_id(), "game": game, "bot_level": bot_level, "rated": rated}
        )

    def start(self) -> m.Start:
        return m.Start(id=self.next_id())

    def leave(self) -> m.Leave:
        return m.Leave(id=self.next_id())

    def rematch(self) -> m.Rematch:
        return m.Rematch(id=self.next_id())

    def spectate(self, *, room: str | None = None, code: str | None = None) -> m.Spectate:
        return m.Spectate(id=self.next_id(), room=room, code=code)

    def get_record(self, record: str) -> m.GetRecord:
        return m.GetRecord(id=self.next_id(), record=record)

    def get_rules(self, game: str, lang: str | None = None) -> m.GetRules:
        return m.GetRules.model_validate({"id": self.next_id(), "game": game, "lang": lang})

    def chat(self, text: str) -> m.Chat:
        return m.Chat(id=self.next_id(), text=text)

    def create_profile(self, name: str, *, bot: bool = False) -> m.CreateProfile:
        return m.CreateProfile(id=self.next_id(), name=name, bot=bot)

    def rename_profile(self, name: str) -> m.RenameProfile:
        return m.RenameProfile(id=self.next_id(), name=name)

    def new_transfer_code(self) -> m.NewTransferCode:
        return m.NewTransferCode(id=self.next_id())

    def redeem_transfer_code(self, code: str) -> m.RedeemTransferCode:
        return m.RedeemTransferCode(id=self.next_id(), code=code)

    def delete_profile(self) -> m.DeleteProfile:
        return m.DeleteProfile(id=self.next_id())

    def get_leaderboard(self, game: str, *, limit: int = 20) -> m.GetLeaderboard:
        return m.GetLeaderboard.model_validate({"id": self.next_id(), "game": game, "limit": limit})

    def get_history(
        self, player: str | None = None, *, limit: int = 20, before: str | None = None
    ) -> m.GetHistory:
        return m.GetHistory(id=self.next_id(), player=player, limit=limit, before=before)

    def get_replay(self, record: str) -> m.GetReplay:
        return m.GetReplay(id=self.next_id(), record=record)


@dataclass(slots=True)
class ViewStore:
    """One recipient's view, rebuilt from a snapshot and the deltas after it."""

    seq: int | None = None
    view: dict[str, Any] | None = None
    seat: int | None = None
    needs_resync: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)

    def on_snapshot(self, message: m.Snapshot) -> None:
        self.seq = message.seq
        self.view = dict(message.view)
        self.seat = message.seat
        self.needs_resync = False

    def on_delta(self, message: m.Delta) -> bool:
        """Apply a delta; False (and ``needs_resync``) when one was missed."""
        if self.seq is None or self.view is None or self.needs_resync:
            self.needs_resync = True
            return False
        if message.seq <= self.seq:
            return True  # a repeat of what we have: harmless
        if message.seq != self.seq + 1:
            self.needs_resync = True
            return False
        self.view = apply(self.view, message.ops)
        self.seq = message.seq
        self.events.extend(message.events)
        return True
