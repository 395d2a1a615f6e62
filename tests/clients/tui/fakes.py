"""A scripted session for driving the terminal client without a network.

``FakeSession`` has the API of ``cardavia.clients.cli.session.Session`` that
the app uses: what the app sends is recorded, what a test pushes comes out of
``messages()`` after being applied to the view store, as the real session does.
``ScriptedTable`` plays a real engine behind it: our actions are applied, the
other seats play their first legal action, and each recipient-side message
(snapshot, delta with the engine's events, your_turn, deal and match results)
is pushed as the server would send it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from cardavia.bots.registry import catalogue as bot_catalogue
from cardavia.clients.cli.session import ClientRequestError, Reconnected, Reconnecting
from cardavia.games.engine import State
from cardavia.games.registry import GAMES, get_game
from cardavia.games.traditions import catalogue as deck_catalogue
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.delta import Recipient

Item = m.Reply | Reconnecting | Reconnected


def catalogue_message(lang: str = "en", request_id: int | None = None) -> m.Catalogue:
    """The catalogue a server sends, built from the same registries the server uses."""
    games = [
        {"id": g.id, "name": g.name, "players": g.players, "options": dict(g.default_options)}
        for g in GAMES.values()
    ]
    return m.Catalogue(id=request_id, games=games, decks=deck_catalogue(lang), bots=bot_catalogue())


def room_info(
    game: str,
    players: list[str],
    *,
    deck: str = "",
    state: str = "playing",
    code: str = "KX4P2",
    owner: str | None = "s-me",
    public: bool = True,
    room: str = "r-test",
) -> m.RoomInfo:
    seats = [{"name": name, "kind": "human" if i == 0 else "bot"} for i, name in enumerate(players)]
    return m.RoomInfo(
        room=room,
        code=code,
        game=game,
        deck=deck or _default_deck(game),
        options={},  # type: ignore[arg-type]
        public=public,
        state=state,
        seats=seats,
        owner=owner,
    )  # type: ignore[arg-type]


def _default_deck(game: str) -> str:
    from cardavia.games.traditions import default_tradition

    return default_tradition(game).id


class FakeSession:
    """Records requests; serves the catalogue and rooms; yields what tests push."""

    def __init__(self, lang: str = "en") -> None:
        self.url = "ws://fake.invalid/"
        self.lang = lang
        self.requests = Requests()
        self.store = ViewStore()
        self.welcome: m.Welcome | None = None
        self.sent: list[m.Request] = []
        self.rooms: list[m.RoomInfo] = []
        self.on_send: Callable[[m.Request], None] | None = None
        self._queue: asyncio.Queue[Item | None] = asyncio.Queue()
        self.closed = False
        self.player: m.PlayerInfo | None = None
        self.player_error: str | None = None
        self.player_key: str | None = None
        self.answers: dict[type[m.Request], Callable[[Any], m.Reply]] = {}
        """How the scripted server answers other requests (an ``Error`` answer is a refusal)."""

    async def connect(self) -> m.Welcome:
        self.welcome = m.Welcome(
            session="s-me",
            resume="token",
            server="fake/1",
            player=self.player,
            player_error=self.player_error,
        )
        return self.welcome

    async def send(self, request: m.Request) -> None:
        self.sent.append(request)
        if self.on_send is not None:
            self.on_send(request)

    async def request(self, request: m.Request, timeout: float = 10.0) -> m.Reply:
        self.sent.append(request)
        reply: m.Reply
        if isinstance(request, m.GetCatalogue):
            reply = catalogue_message(self.lang, request.id)
        elif isinstance(request, m.ListRooms):
            reply = m.Rooms(id=request.id, rooms=list(self.rooms))
        elif type(request) in self.answers:
            reply = self.answers[type(request)](request)
        else:
            raise AssertionError(f"the app asked {request!r} through request()")
        if isinstance(reply, m.Error):
            raise ClientRequestError(reply)
        if isinstance(reply, m.Profile):  # as the real session: the profile it holds from now on
            self.player = reply.player
        elif isinstance(reply, m.ProfileDeleted):
            self.player = None
        self.push(reply)
        return reply

    def use_player_key(self, key: str | None) -> None:
        self.player_key = key

    def push(self, item: Item) -> None:
        self._queue.put_nowait(item)

    def sent_of(self, kind: type[Any]) -> list[Any]:
        return [r for r in self.sent if isinstance(r, kind)]

    async def messages(self) -> AsyncIterator[Item]:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            if isinstance(item, m.Snapshot):
                self.store.on_snapshot(item)
            elif isinstance(item, m.Delta):
                assert self.store.on_delta(item), "a scripted delta was out of sequence"
            yield item

    async def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)


class ScriptedTable:
    """A real engine behind a fake session: we play seat ``seat``, the others their first legal move."""

    def __init__(
        self,
        session: FakeSession,
        state: State[Any],
        seat: int = 0,
        players: list[str] | None = None,
        *,
        deck: str = "",
    ) -> None:
        self.session = session
        self.state = state
        self.seat = seat
        self.game = get_game(state.view(None)["game"])
        self.players = players or ["Anna", *(f"Bot {i + 1}" for i in range(1, self.game.players))]
        self.deck = deck
        self.recipient = Recipient()
        self.deals = 0
        session.on_send = self._on_send

    def start(self) -> None:
        seq = self.recipient.snapshot(self.state.view(self.seat))
        room = room_info(self.game.id, self.players, deck=self.deck)
        self.session.push(m.Snapshot(room=room, seat=self.seat, seq=seq, view=self.state.view(self.seat)))
        self._others()

    def _on_send(self, request: m.Request) -> None:
        if isinstance(request, m.Act):
            self.apply(self.game.action_from_data(dict(request.action)), self.seat)
            self._others()

    def apply(self, action: Any, seat: int) -> None:
        self.state, events = self.state.apply(action, seat=seat)
        update = self.recipient.update(self.state.view(self.seat))
        if update is not None:
            self.session.push(m.Delta(seq=update[0], ops=update[1], events=events))
        for event in events:
            if event.get("type") == "deal_end":
                self.session.push(
                    m.DealResult(
                        deal=self.deals,
                        points=list(event["points"]),
                        detail=dict(event.get("detail", {})),
                        totals=event.get("totals"),
                    )
                )
                self.deals += 1
        result = self.state.result
        if result is not None:
            self.session.push(
                m.MatchResult(
                    scores=list(result.scores), winner=result.winner, reason=result.reason, record="rec-test"
                )
            )

    def _others(self) -> None:
        while not self.state.is_over and self.state.to_move != self.seat:
            mover = self.state.to_move
            assert mover is not None
            self.apply(self.state.legal_actions(mover)[0], mover)
        if not self.state.is_over:
            legal = [a.to_data() for a in self.state.legal_actions(self.seat)]
            self.session.push(m.YourTurn(seq=self.recipient.seq, legal=legal))
