"""The protocol's machine-readable documents, generated from the models.

``cardavia schema`` writes them to ``protocol/schema/``; a test checks that the
checked-in files equal what the code generates, so they never drift.
"""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import TypeAdapter

from cardavia.protocol import messages as m
from cardavia.protocol.codec import MAX_CLIENT_FRAME
from cardavia.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES

SCHEMA_FILES: Final = ("messages.schema.json", "asyncapi.json")

ANSWERS: Final[dict[str, tuple[str, bool]]] = {
    "hello": ("welcome", True),
    "get_catalogue": ("catalogue", True),
    "list_rooms": ("rooms", True),
    "create_room": ("snapshot", False),
    "join_room": ("snapshot", False),
    "quick_match": ("snapshot", False),
    "play_now": ("snapshot", False),
    "leave": ("left", True),
    "start": ("snapshot", False),
    "rematch": ("rematch_votes", True),
    "act": ("delta", False),
    "resync": ("snapshot", False),
    "spectate": ("snapshot", False),
    "chat": ("chat_message", False),
    "get_rules": ("rules", True),
    "get_record": ("record", True),
    "create_profile": ("profile", True),
    "rename_profile": ("profile", True),
    "new_transfer_code": ("transfer_code", True),
    "redeem_transfer_code": ("profile", True),
    "delete_profile": ("profile_deleted", True),
    "get_leaderboard": ("leaderboard", True),
    "get_history": ("history", True),
    "get_replay": ("replay", True),
}
"""Request type → (the type of the message that answers it when it succeeds, whether that message
carries the request's ``id``), as protocol/README.md says under each request. Snapshots, deltas
and chat lines go to a whole room and never carry an id, so clients settle those by kind; an
``error`` always carries the id. ``join_room`` and ``quick_match`` may also be answered by a
``redirect`` with the id, and the ``rematch`` that completes the votes by the new match's snapshot."""

NEVER_NUMBERED: Final = frozenset(
    {"snapshot", "delta", "your_turn", "deal_result", "match_result", "chat_message", "rating_change"}
)
"""Server message types that never carry a request id."""


def json_schema() -> dict[str, Any]:
    """One JSON Schema (2020-12) with both directions' message unions."""
    client = TypeAdapter[m.ClientMessage](m.ClientMessage).json_schema(ref_template="#/$defs/{model}")
    server = TypeAdapter[m.ServerMessage](m.ServerMessage).json_schema(ref_template="#/$defs/{model}")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardavia.example/protocol/v{m.PROTOCOL_VERSION}/messages.schema.json",
        "title": f"Cardavia protocol version {m.PROTOCOL_VERSION}",
        "description": "Every frame is one msgpack map; this schema describes it as JSON data.",
        "$defs": {**defs, "ClientMessage": client, "ServerMessage": server},
    }


def asyncapi() -> dict[str, Any]:
    """An AsyncAPI 3.0 document: one WebSocket channel, a message per type, both directions."""
    schema = json_schema()
    defs = schema["$defs"]
    messages: dict[str, Any] = {}
    for example in [*CLIENT_EXAMPLES, *SERVER_EXAMPLES]:
        model = type(example)
        name = model.model_fields["type"].default
        payload = example.model_dump(mode="json")
        if name in NEVER_NUMBERED:
            payload["id"] = None  # as the server sends it, whatever request it answers
        messages[name] = {
            "name": name,
            "title": model.__name__,
            "summary": (model.__doc__ or name).strip().splitlines()[0],
            "contentType": "application/msgpack",
            "payload": {"$ref": f"#/components/schemas/{model.__name__}"},
            "examples": [{"name": f"{name}-example", "payload": payload}],
        }
        if name in ANSWERS:
            reply, numbered = ANSWERS[name]
            carried = "with the request's `id`" if numbered else "no `id`"
            messages[name]["description"] = (
                f"Answer: `{reply}` ({carried}); an `error` refusing it carries the request's `id`."
            )
    client_names = [t.model_fields["type"].default for t in m.CLIENT_TYPES]
    server_names = [t.model_fields["type"].default for t in m.SERVER_TYPES]
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Cardavia game server",
            "version": str(m.PROTOCOL_VERSION),
            "description": (
                "Binary WebSocket frames, each one msgpack map with a `type` field. Client requests "
                "carry an `id`. Errors carry it back, and so do the replies only the asker gets; "
                "snapshots, deltas and chat lines go to a whole room and never carry one, also when "
                "they answer a request (each request's description names what answers it), so "
                "clients settle those by kind. Null fields, `id` among them, are left out of frames. "
                "Card codes in actions are read in any case. Clients send at most "
                f"{MAX_CLIENT_FRAME} bytes per frame by default. See protocol/README.md."
            ),
        },
        "servers": {
            "local": {"host": "localhost:8765", "protocol": "ws", "description": "cardavia serve"},
        },
        "channels": {
            "game": {
                "address": "/",
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
            }
        },
        "operations": {
            "sendRequest": {
                "action": "receive",
                "summary": "What clients send to the server.",
                "channel": {"$ref": "#/channels/game"},
                "messages": [{"$ref": f"#/channels/game/messages/{n}"} for n in client_names],
            },
            "sendServerMessage": {
                "action": "send",
                "summary": "What the server sends to clients.",
                "channel": {"$ref": "#/channels/game"},
                "messages": [{"$ref": f"#/channels/game/messages/{n}"} for n in server_names],
            },
        },
        "components": {
            "messages": messages,
            "schemas": _rebase(defs),
        },
    }


def _rebase(defs: dict[str, Any]) -> dict[str, Any]:
    text = json.dumps(defs).replace('"#/$defs/', '"#/components/schemas/')
    result: dict[str, Any] = json.loads(text)
    return result


def render() -> dict[str, str]:
    """File name → the text that belongs in ``protocol/schema/``."""
    docs = {"messages.schema.json": json_schema(), "asyncapi.json": asyncapi()}
    return {
        name: json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        for name, doc in docs.items()
    }
