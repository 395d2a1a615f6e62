"""One example of every message type: for the golden-frame tests, the schema and the docs; and
``VARIANT_EXAMPLES``, a few more of types whose optional fields the first ones leave out."""

from __future__ import annotations

from typing import Final

from cardavia.protocol import messages as m

_ROOM: Final = m.RoomInfo(
    room="r-7f3a",
    code="KX4P7MQ2",
    game="scopa",
    deck="bolognese",
    options={"target": 11},
    public=True,
    state="playing",
    seats=[{"name": "Anna", "kind": "human"}, {"name": "Bot (basic)", "kind": "bot", "bot": "basic"}],
    owner="s-1",
    node="node-a",
    turn_seconds=30.0,
)

CLIENT_EXAMPLES: Final[list[m.Request]] = [
    m.Hello(
        id=1, version=m.PROTOCOL_VERSION, name="Anna", lang="sv", player="q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u"
    ),
    m.GetCatalogue(id=2),
    m.ListRooms(id=3, game="scopa", limit=20),
    m.CreateRoom(
        id=4,
        game="scopa",
        deck="bolognese",
        options={"target": 11},
        public=False,
        humans=1,
        bot_level="strong",
        turn_seconds=30.0,
    ),
    m.JoinRoom(id=5, code="KX4P7MQ2"),
    m.QuickMatch(id=6, game="briscola", rated=True),
    m.PlayNow(id=7, game="doudizhu", bot_level="basic"),
    m.Leave(id=8),
    m.Start(id=9),
    m.Rematch(id=10),
    m.Act(id=11, action={"play": "7D", "capture": ["3S", "4C"]}),
    m.Resync(id=12),
    m.Spectate(id=13, room="r-7f3a"),
    m.Chat(id=14, text="Bella scopa!"),
    m.GetRules(id=16, game="briscola", lang="it"),
    m.GetRecord(id=15, record="rec-20261130-0001"),
    m.CreateProfile(id=18, name="Anna"),
    m.RenameProfile(id=19, name="Anna B."),
    m.NewTransferCode(id=20),
    m.RedeemTransferCode(id=21, code="K7MQ2XPR4T"),
    m.DeleteProfile(id=22),
    m.GetLeaderboard(id=23, game="scopa", limit=10),
    m.GetHistory(id=24, limit=20),
    m.GetReplay(id=25, record="r-7f3a-1"),
]

SERVER_EXAMPLES: Final[list[m.Reply]] = [
    m.Welcome(
        id=1,
        session="s-1",
        resume="Zt0q9V3cMx2Jm1yQ",
        server="cardavia/0.1.0",
        player=m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna"),
    ),
    m.Catalogue(
        id=2,
        games=[{"id": "scopa", "name": "Scopa", "players": 2, "options": {"target": 11}}],
        decks=[
            {"id": "bolognese", "name": "Primiera Bolognese", "cards": 40, "games": ["scopa", "briscola"]}
        ],
        bots=[{"id": "basic", "level": "basic", "description": "Plays by a casual player's rules of thumb."}],
    ),
    m.Rooms(id=3, rooms=[_ROOM]),
    m.Snapshot(
        room=_ROOM,
        seat=0,
        seq=1,
        view={"game": "scopa", "seat": 0, "hand": ["7D", "3S", "KC"], "table": ["3C", "4C"], "to_move": 0},
    ),
    m.Delta(
        seq=2,
        # on the snapshot example's view, whose keys sorted are game 0, hand 1, seat 2,
        # table 3, to_move 4: drop hand[0], set table to [], set to_move to 1
        ops=[3, 1, [0], 0, 3, [], 0, 4, 1],
        events=[
            {"type": "play", "seat": 0, "card": "7D"},
            {"type": "capture", "seat": 0, "card": "7D", "cards": ["3C", "4C"]},
        ],
    ),
    m.YourTurn(
        seq=2, legal=[{"play": "3S", "capture": []}, {"play": "KC", "capture": []}], deadline=1795000000.0
    ),
    m.DealResult(deal=0, points=[3, 1], detail={"cards": [22, 18], "scopas": [1, 0]}, totals=[3, 1]),
    m.MatchResult(scores=[11, 7], winner=0, reason="target", record="rec-20261130-0001"),
    m.RecordMessage(
        id=15, record_id="rec-20261130-0001", record={"format": "cardavia-record/1", "game": "scopa"}
    ),
    m.Redirect(id=5, url="ws://node-b.example:8765/", room="r-7f3a", reservation="rsv-91c2"),
    m.ChatMessage(seat=1, name="Bot (basic)", text="Ben giocato."),
    m.Rules(id=16, game="briscola", lang="it", markdown="# Briscola\n\n## Scopo del gioco\n\n..."),
    m.RematchVotes(id=10, asked=[0], waiting=[1]),
    m.Left(id=8, reason="requested"),
    m.Profile(
        id=18,
        player=m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna"),
        key="q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u",
    ),
    m.TransferCode(id=20, code="K7MQ2XPR4T", expires_in=600.0),
    m.ProfileDeleted(id=22),
    m.Leaderboard(
        id=23,
        game="scopa",
        top=[
            m.Standing(
                rank=1,
                player="bot:strong",
                name="Bot (strong)",
                rating=1710,
                deviation=60,
                games=0,
                bot=True,
                level="strong",
            ),
            m.Standing(rank=2, player="p-5c0a9e1f2b3d4c6e", name="Anna", rating=1562, deviation=88, games=14),
        ],
        me=m.Standing(rank=2, player="p-5c0a9e1f2b3d4c6e", name="Anna", rating=1562, deviation=88, games=14),
    ),
    m.History(
        id=24,
        player=m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna"),
        ratings=[m.GameRatingInfo(game="scopa", rating=1562, deviation=88, games=14)],
        matches=[
            m.HistoryEntry(
                record="r-7f3a-1",
                game="scopa",
                ended=1796000000.0,
                rated=True,
                seat=0,
                players=[
                    {"name": "Anna", "bot": False, "player": "p-5c0a9e1f2b3d4c6e"},
                    {"name": "Bot (basic)", "bot": True, "player": None},
                ],
                scores=[11, 7],
                winner=0,
                rating_before=1548,
                rating_after=1562,
            )
        ],
    ),
    m.Replay(
        id=25,
        record_id="r-7f3a-1",
        record={"format": "cardavia-record/1", "game": "briscola"},
        views=[{"hand": ["AS", "3S", "KC"]}, {"hand": ["7D", "2C", "JH"]}],
        steps=[{"deal": 0, "seat": 0, "action": {"play": "KC"}, "ops": [[3, 0, [2]], []]}],
        analysis=[{"best": {"play": "3S"}, "differs": True}],
    ),
    m.RatingChange(record="r-7f3a-1", game="scopa", before=1548, after=1562, deviation=88),
    m.Error(
        id=11,
        code="illegal_action",
        message="7D can capture (7H): a possible capture is mandatory",
        reason="capture_required",
    ),
]

_GUEST_ROOM: Final = _ROOM.model_copy(
    update={
        "seats": [
            {"name": "Player 563", "kind": "human", "bot": None, "guest": 563, "connected": True},
            {"name": "Bot 2 (basic)", "kind": "bot", "bot": "basic", "guest": None, "connected": False},
        ]
    }
)

VARIANT_EXAMPLES: Final[dict[str, m.Message]] = {
    # a guest: no name, the number the client keeps (the server draws one when it is absent too)
    "hello.guest": m.Hello(id=1, version=m.PROTOCOL_VERSION, guest=563, lang="pl"),
    "welcome.guest": m.Welcome(
        id=1, session="s-2", resume="Qm4x8Rz1Vb7Kc0Ty", server="cardavia/0.1.0", guest=563
    ),
    # a guest's and a bot's seat: each client names them from "guest" and from "bot" with the seat
    "snapshot.guest": m.Snapshot(room=_GUEST_ROOM, seat=0, seq=1, view={"game": "scopa", "seat": 0}),
    "chat_message.guest": m.ChatMessage(seat=0, name="Player 563", text="Bella scopa!", guest=563),
    "history.level": m.History(
        id=24,
        player=m.PlayerInfo(id="p-5c0a9e1f2b3d4c6e", name="Anna"),
        ratings=[],
        matches=[
            m.HistoryEntry(
                record="r-7f3a-2",
                game="briscola",
                ended=1796000100.0,
                rated=False,
                seat=0,
                players=[
                    {"name": "Player 563", "bot": False, "player": "p-5c0a9e1f2b3d4c6e", "guest": 563},
                    {"name": "Bot 2 (basic)", "bot": True, "player": None, "level": "basic"},
                ],
                scores=[70, 50],
                winner=0,
            )
        ],
    ),
    # a request without ``id`` is answered without one (never ``id: 0``)
    "get_catalogue.no_id": m.GetCatalogue(),
    "error.no_id": m.Error(code="not_in_room", message="join or create a room first"),
}
"""Examples of optional fields, by ``<type>.<what>``: golden frames of their own."""
