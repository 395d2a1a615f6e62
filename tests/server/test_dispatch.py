"""The dispatch table: every request a client may send after ``hello`` has its handler."""

from __future__ import annotations

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer


async def test_every_client_request_but_hello_has_a_handler(server: CardaviaServer) -> None:
    routes = server.handlers.routes
    assert set(routes) == set(m.CLIENT_TYPES) - {m.Hello}
    for kind, handler in routes.items():  # each row names the handler of its own type
        # RequestHandlers' own are _on_<type>; those it is given (ProfileHandlers') on_<type>
        assert handler.__name__.removeprefix("_") == f"on_{kind.model_fields['type'].default}"
