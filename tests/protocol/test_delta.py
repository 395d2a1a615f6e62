"""Deltas over real games: snapshot + deltas == view, for every recipient at every step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.games.cards import ALL_CARDS
from cardavia.games.engine import State
from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.protocol.client import ViewStore
from cardavia.protocol.codec import decode_server, encode, encode_delta
from cardavia.protocol.delta import Recipient, apply, diff
from cardavia.protocol.errors import ProtocolError

CODES = {c.code for c in ALL_CARDS}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=3), children, max_size=5)
    ),
    max_leaves=25,
)


@given(json_values, json_values)
def test_apply_of_diff_gives_the_new_value(old: Any, new: Any) -> None:
    assert apply(old, diff(old, new)) == new


@given(json_values, json_values)
def test_apply_leaves_the_old_value_alone(old: Any, new: Any) -> None:
    before = repr(old)
    apply(old, diff(old, new))
    assert repr(old) == before


def test_shrinking_lists_become_remove_ops() -> None:
    old = {"hand": ["7D", "3S", "KC"], "table": ["3C", "4C", "5C", "6C"]}
    new = {"hand": ["7D", "KC"], "table": ["4C", "6C"]}
    ops = diff(old, new)
    assert ops == [[3, "hand", [1]], [3, "table", [0, 2]]]
    assert apply(old, ops) == new


def test_growing_lists_become_add_ops() -> None:
    old = {"captured": [["7D"], []], "table": ["3C"]}
    new = {"captured": [["7D", "3C", "4C"], []], "table": []}
    ops = diff(old, new)
    assert [2, ["captured", 0], ["3C", "4C"]] in ops
    assert [0, "table", []] in ops
    assert apply(old, ops) == new


@pytest.mark.parametrize(
    "ops",
    [
        [[9, ["a"], 1]],
        [[0, ["missing", "deeper"], 1]],
        [[2, ["a"], [1]]],
        [[3, "a", [0]]],
        [[0]],
        [[1, "a", 5]],
        [[0, 5, 1]],
        ["nonsense"],
    ],
)
def test_malformed_ops_are_refused(ops: list[Any]) -> None:
    with pytest.raises(ProtocolError):
        apply({"a": 1}, ops)


def _cards_in(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data} if data in CODES else set()
    if isinstance(data, dict):
        return set().union(*(_cards_in(v) for v in data.values()), *(_cards_in(k) for k in data))
    if isinstance(data, list):
        return set().union(*(_cards_in(v) for v in data))
    return set()


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=25)
@given(seed=st.text(max_size=6), moves=st.integers(0, 2**32))
def test_snapshot_plus_deltas_rebuild_every_view(game_id: str, seed: str, moves: int) -> None:
    game = GAMES[game_id]
    choices = random.Random(moves)
    state: State[Any] = game.new(None, seed)
    audience = [*range(game.players), None]
    senders = {r: Recipient() for r in audience}
    stores = {r: ViewStore() for r in audience}
    room = m.RoomInfo(
        room="r", code=None, game=game_id, deck="d", options={}, public=True, state="playing", seats=[]
    )
    for r in audience:
        view = state.view(r)
        seq = senders[r].snapshot(view)
        stores[r].on_snapshot(decode_server(encode(m.Snapshot(room=room, seat=r, seq=seq, view=view))))  # type: ignore[arg-type]
    dropped: dict[Any, bool] = {}
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        state, _ = state.apply(legal[choices.randrange(len(legal))], seat=seat)
        for r in audience:
            update = senders[r].update(state.view(r))
            if update is None:
                continue
            seq, ops = update
            hidden = {c.code for c in state.secret_cards(r)}
            assert not (_cards_in(ops) & hidden), "a delta carries a card hidden from its recipient"
            frame = encode(m.Delta(seq=seq, ops=ops))
            if choices.random() < 0.02 and not dropped.get(r):
                dropped[r] = True  # lose this frame on the way
                continue
            store = stores[r]
            if not store.on_delta(decode_server(frame)):  # type: ignore[arg-type]
                assert store.needs_resync
                view = state.view(r)
                seq = senders[r].snapshot(view)
                store.on_snapshot(m.Snapshot(room=room, seat=r, seq=seq, view=view))
            assert store.view == state.view(r)
    for r in audience:
        if stores[r].seq != senders[r].seq:  # the very last delta was lost: the next message shows the gap
            view = state.view(r)
            stores[r].on_snapshot(m.Snapshot(room=room, seat=r, seq=senders[r].snapshot(view), view=view))
        assert stores[r].view == state.view(r)


def test_a_gap_asks_for_resync_and_a_repeat_is_ignored() -> None:
    store = ViewStore()
    room = m.RoomInfo(
        room="r", code=None, game="scopa", deck="d", options={}, public=True, state="playing", seats=[]
    )
    store.on_snapshot(m.Snapshot(room=room, seat=0, seq=5, view={"a": 1}))
    assert store.on_delta(m.Delta(seq=6, ops=[[0, "a", 2]]))
    assert store.on_delta(m.Delta(seq=6, ops=[[0, "a", 3]]))  # repeat: ignored
    assert store.view == {"a": 2}
    assert not store.on_delta(m.Delta(seq=8, ops=[[0, ["a"], 4]]))
    assert store.needs_resync
    assert not store.on_delta(m.Delta(seq=9, ops=[]))
    store.on_snapshot(m.Snapshot(room=room, seat=0, seq=9, view={"a": 9}))
    assert not store.needs_resync
    assert store.on_delta(m.Delta(seq=10, ops=[[1, "a"]]))
    assert store.view == {}


@given(
    st.integers(min_value=1, max_value=2**31 - 1),
    json_values,
    st.lists(st.dictionaries(st.text(), json_values)),
)
def test_the_servers_delta_fast_path_matches_the_model(seq: int, value: Any, events: list[Any]) -> None:
    ops = diff({"a": None}, {"a": value})
    assert encode_delta(seq, ops, events) == encode(m.Delta(seq=seq, ops=ops, events=events))
