"""A live server refuses names and chat lines that carry control or bidi characters, and passes
clean ones on NFC-normalised."""

from __future__ import annotations

from cardavia.protocol import messages as m
from cardavia.protocol.codec import pack
from cardavia.server.app import CardaviaServer
from tests.support.clients import client, seated_pair


async def test_a_name_with_an_escape_sequence_gets_invalid_field_and_no_session(
    server: CardaviaServer, url: str
) -> None:
    evil = await client(url, "evil")
    await evil.ws.send(pack({"type": "hello", "id": 1, "version": 2, "name": "\x1b[2J\x1b[31mAnna"}))
    error = await evil.recv()
    assert isinstance(error, m.Error)
    assert (error.id, error.code) == (1, "invalid_field")
    assert error.message == "name: U+001B (a control character) at position 1 is not allowed"
    assert evil.session is None
    assert not server.sessions
    await evil.send(m.ListRooms(id=2))  # still no session: the handshake did not happen
    after = await evil.recv()
    assert isinstance(after, m.Error)
    assert after.code == "handshake_required"
    welcome = await evil.hello()  # the same connection may try again with a clean name
    assert welcome.session in server.sessions


async def test_a_chat_line_with_a_bidi_override_reaches_nobody(url: str) -> None:
    anna, bo = await seated_pair(url)
    await bo.ws.send(pack({"type": "chat", "id": 50, "text": "gg \u202eexe.txt"}))
    error: m.Error = await bo.expect(m.Error)
    assert (error.id, error.code) == (50, "invalid_field")
    assert error.message.startswith("text: U+202E RIGHT-TO-LEFT OVERRIDE")
    # Bo's frames are handled in order: the next line Anna hears is the clean one sent after
    await bo.send(m.Chat(id=51, text="sorry"))
    line: m.ChatMessage = await anna.expect(m.ChatMessage)
    assert (line.seat, line.name, line.text) == (1, "Bo", "sorry")
    mine: m.ChatMessage = await bo.expect(m.ChatMessage)
    assert mine.text == "sorry"
    assert not [r for r in anna.received + bo.received if isinstance(r, m.ChatMessage) and "\u202e" in r.text]


async def test_a_clean_line_and_name_reach_the_others_nfc_normalised(url: str) -> None:
    anna = await client(url, "Anna")
    await anna.hello()
    await anna.send(anna.req.create_room("scopa", humans=2))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    zoe = await client(url)
    await zoe.ws.send(pack({"type": "hello", "id": 1, "version": 2, "name": " Zoe\u0308 "}))
    await zoe.expect(m.Welcome)
    await zoe.send(zoe.req.join(room=snapshot.room.room))
    joined: m.Snapshot = await zoe.expect(m.Snapshot)
    assert [seat.get("name") for seat in joined.room.seats] == ["Anna", "Zo\u00eb"]
    await zoe.ws.send(pack({"type": "chat", "id": 9, "text": "Che\u0301 bella scopa! 张伟 שלום"}))
    line: m.ChatMessage = await anna.expect(m.ChatMessage)
    assert line.name == "Zo\u00eb"
    assert line.text == "Ch\u00e9 bella scopa! 张伟 שלום"


async def test_a_name_with_a_hangul_filler_or_a_chat_line_of_stacked_marks_changes_nothing(
    server: CardaviaServer, url: str
) -> None:
    filler = await client(url, "filler")
    await filler.ws.send(pack({"type": "hello", "id": 1, "version": 2, "name": "\u3164\u3164"}))
    error = await filler.recv()
    assert isinstance(error, m.Error)
    assert (error.id, error.code) == (1, "invalid_field")
    assert (
        error.message
        == "name: U+3164 HANGUL FILLER (a character that shows nothing) at position 1 is not allowed"
    )
    assert filler.session is None
    anna, bo = await seated_pair(url)
    sessions = set(server.sessions)
    await bo.ws.send(pack({"type": "chat", "id": 60, "text": "gg" + "\u0353\u033d" * 75}))
    refused: m.Error = await bo.expect(m.Error)
    assert (refused.id, refused.code) == (60, "invalid_field")
    assert refused.message == (
        "text: 150 combining marks on the character at position 2; at most 4 are allowed on one character"
    )
    await bo.ws.send(pack({"type": "chat", "id": 61, "text": "g\u034fg"}))
    joiner: m.Error = await bo.expect(m.Error)
    assert joiner.message.startswith("text: U+034F COMBINING GRAPHEME JOINER")
    await bo.send(m.Chat(id=62, text="sorry"))
    line: m.ChatMessage = await anna.expect(m.ChatMessage)
    assert line.text == "sorry"
    assert set(server.sessions) == sessions
    assert [r.text for r in anna.received if isinstance(r, m.ChatMessage)] == ["sorry"]
