"""The frames a live server sends over real WebSockets show nobody a hidden card, nor the seed.

``test_frame_secrecy.py`` checks the frames a ``Room`` hands to stand-in connections; this
checks what clients really read from the socket. A real server plays, for each game,
``ROOMS`` private rooms of ``MATCHES_PER_ROOM`` matches each (18 seeded matches a game: the
first, then rematches every seated player asks for), with the human seats played by test
clients that answer each fresh ``your_turn`` with a random legal move (a seeded
``random.Random``), the server's basic bots in the other seats, and a spectator watching from
before the start to the last result. Every other room has bots; in each room's first match one
player drops mid-match and resumes with its token, from room to room with ``last_seq`` (the
missed deltas come from the seat's buffer) or without (a snapshot).

The server's ``Connection.send`` is watched, so each frame a client reads is paired with the
one the server wrote to that socket (the bytes must be the same) and with the room's state at
that moment; the checks of ``test_frame_secrecy.Table`` then run on the frame as read:

* no string in it is the code of a card its recipient may not know when it was sent (a delta
  sent again on a resume is held to the state that made it, and the closing part of a deal's
  last delta to the end of that deal);
* the recipient's view, rebuilt from the snapshots and deltas it read, is the engine's view;
* no seed of any match played so far is in it, in a string or in its bytes: not before the
  match's ``match_result`` nor after (the record, which names the seed, is only sent on request,
  and nothing here asks for it).

About 10 s on a 2-core machine for the four games (a handful of matches a second each), in two
files that two test processes share: this one and test_frame_secrecy_live_rest.py, both playing
the routine of live_frames.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.games.briscola import BriscolaState
from cardavia.games.engine import State, View
from tests.server.live_frames import (
    FIRST_GAMES,
    Wire,
    no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed,
    play_room,
)
from tests.support.servers import own_server


@pytest.mark.slow
@pytest.mark.parametrize("game_id", FIRST_GAMES)
async def test_no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed(
    game_id: str, wire: Wire, tmp_path: Path
) -> None:
    """What clients read off real sockets, through rematches and resumes, tells them no card
    they may not know and no seed; the checks of the frames a room hands over, end to end."""
    await no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed(game_id, wire, tmp_path)


async def test_a_hidden_card_in_a_live_frame_is_caught(
    wire: Wire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks can fail end to end: a view that, from the third action on, shows one card its
    seat may not know is reported from the deltas the clients read, card and place."""
    honest = BriscolaState.view

    def leaky(self: BriscolaState, seat: int | None) -> View:
        view = honest(self, seat)
        hidden = sorted(self.secret_cards(seat))
        return {**view, "peek": hidden[0].code} if len(self.history()) >= 3 and hidden else view

    monkeypatch.setattr(BriscolaState, "view", leaky)
    monkeypatch.setattr(BriscolaState, "view_update", State.view_update)  # every delta from the leaky view
    async with own_server(tmp_path, grace_seconds=5.0) as (_server, url):
        await play_room(wire, url, "briscola", 0)
    first = wire.problems[0]
    assert (first.kind, first.frame[:13]) == ("card", "a delta frame")
    assert "at /ops/" in first.detail
