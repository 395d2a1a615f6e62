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
from cardavia.protocol.codec import decode_server, encode, encode_delta, encode_your_turn
from cardavia.protocol.delta import ADD, ROWS, Recipient, apply, diff, diff_fields
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.examples import SERVER_EXAMPLES

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


@given(st.dictionaries(st.text(max_size=3), json_values, max_size=8), st.data())
def test_a_map_that_keeps_its_keys_round_trips(old: dict[str, Any], data: st.DataObject) -> None:
    new = {k: data.draw(json_values) if data.draw(st.booleans()) else v for k, v in old.items()}
    ops = diff(old, new)
    assert apply(old, ops) == new


@given(st.dictionaries(st.text(max_size=3), json_values, min_size=1, max_size=8), st.data())
def test_diff_fields_gives_the_whole_diffs_ops_when_the_other_fields_kept_their_values(
    old: dict[str, Any], data: st.DataObject
) -> None:
    """A sender that names the changed fields (in the view's order) gets the same ops, byte for
    byte, as the diff of the whole new view; fields named but unchanged cost nothing."""
    named = [k for k in old if data.draw(st.booleans())]
    fields = {k: data.draw(json_values) if data.draw(st.booleans()) else old[k] for k in named}
    new = old | fields
    assert encode_delta(1, diff_fields(old, fields), []) == encode_delta(1, diff(old, new), [])


def test_recipient_patch_sends_what_update_would_and_keeps_the_merged_view() -> None:
    view = {"hand": ["Ac", "2d"], "to_move": 0, "history": [{"seat": 1, "play": "3h"}], "stock": 10}
    by_view, by_fields = Recipient(), Recipient()
    by_view.snapshot(view, 4)
    by_fields.snapshot(view, 4)
    after = {**view, "hand": ["Ac"], "to_move": 1, "history": [*view["history"], {"seat": 0, "play": "2d"}]}
    fields = {k: after[k] for k in ("hand", "to_move", "history")}
    assert by_fields.patch(fields, 5) == by_view.update(after, 5)
    assert (by_fields.view, by_fields.seq, by_fields.mark) == (after, 2, 5)
    assert by_fields.patch({"to_move": 1}, 6) is None  # nothing changed: no delta, the seq stays
    assert (by_fields.seq, by_fields.mark) == (2, 6)
    with pytest.raises(KeyError):  # a field the view lacks is the sender's mistake, never a guess
        by_fields.patch({"peek": "Ac"}, 7)


entry_values = st.none() | st.booleans() | st.integers(0, 300) | st.text(max_size=3) | st.lists(st.text())
entry_keys = st.sampled_from(["seat", "play", "pass", "cards"])
entries = st.dictionaries(entry_keys, entry_values, min_size=1, max_size=3)


@given(st.lists(entries, max_size=12), st.lists(entries, min_size=1, max_size=4))
def test_appended_maps_round_trip_as_rows(history: list[Any], added: list[Any]) -> None:
    old = {"history": history}
    new = {"history": history + added}
    ops = diff(old, new)
    assert ops[0] in (ADD, ROWS)
    assert apply(old, msgpack_round_trip(ops)) == new


def msgpack_round_trip(ops: list[Any]) -> list[Any]:
    """The ops as a client decodes them from the frame."""
    decoded = decode_server(encode_delta(1, ops, []))
    assert isinstance(decoded, m.Delta)
    return decoded.ops


def test_shrinking_lists_become_remove_ops_at_key_positions() -> None:
    old = {"hand": ["7D", "3S", "KC"], "table": ["3C", "4C", "5C", "6C"]}
    new = {"hand": ["7D", "KC"], "table": ["4C", "6C"]}
    ops = diff(old, new)
    # the keys stayed the same, so each is named by its place in sorted order
    assert ops == [3, 0, [1], 3, 1, [0, 2]]
    assert apply(old, ops) == new


def test_keys_are_named_by_string_when_the_maps_keys_change() -> None:
    old = {"b": 1, "c": [1]}
    new = {"a": 0, "c": [1, 2]}
    ops = diff(old, new)
    assert ops == [1, "b", None, 0, "a", 0, 2, "c", [2]]
    assert apply(old, ops) == new


def test_growing_lists_become_add_ops() -> None:
    old = {"captured": [["7D"], []], "table": ["3C"]}
    new = {"captured": [["7D", "3C", "4C"], []], "table": []}
    ops = diff(old, new)
    assert ops == [2, [0, 0], ["3C", "4C"], 0, 1, []]
    assert apply(old, ops) == new


def test_new_maps_with_the_keys_of_an_earlier_element_become_rows() -> None:
    old = {"history": [{"seat": 0, "play": "AS"}, {"seat": 1, "pass": True}]}
    new = {"history": [*old["history"], {"seat": 2, "play": "KC"}, {"seat": 0, "pass": True}, {"x": 1}]}
    ops = diff(old, new)
    # rows name an element `back` places before them and list its keys' values in sorted order
    assert ops == [4, 0, [[1, "KC", 2], [1, True, 0], {"x": 1}]]
    assert apply(old, ops) == new
    assert diff({"h": []}, {"h": [{"a": 1}]}) == [2, 0, [{"a": 1}]]  # nothing to refer to


def test_one_changed_element_of_a_long_list_is_set_alone() -> None:
    old = {"hand": ["AS", "2S", "3S", "4S", "5S"], "counts": [5, 5]}
    new = {"hand": ["AS", "2S", "9D", "4S", "5S"], "counts": [5, 4]}
    ops = diff(old, new)
    assert ops == [0, [1, 2], "9D", 0, 0, [5, 4]]  # a two-number list costs the same either way
    assert apply(old, ops) == new


def test_many_top_level_fields_become_one_set_several_op() -> None:
    old = {"a": 1, "b": 2, "c": 3, "d": 4, "e": [1]}
    new = {"a": 5, "b": 6, "c": 7, "d": 8, "e": [1, 2]}
    ops = diff(old, new)
    assert ops == [2, 4, [2], 5, [], [0, 5, 1, 6, 2, 7, 3, 8]]
    assert apply(old, ops) == new


steps = st.integers(-2, 6) | st.sampled_from(["a", "l", "x", ""]) | st.booleans() | st.none()
any_ops = (
    st.lists(st.integers(-1, 6) | steps | st.lists(steps, max_size=3) | json_values, max_size=12)
    | json_values
)


@given(any_ops)
def test_any_ops_either_apply_or_are_refused_as_bad_frames(ops: Any) -> None:
    view = {"a": 1, "l": [{"p": 1, "q": 2}, [3]], "m": {"k": "v"}}
    code = None
    try:
        apply(view, ops)
    except ProtocolError as exc:
        code = exc.code
    assert code in (None, "bad_frame")
    assert view == {"a": 1, "l": [{"p": 1, "q": 2}, [3]], "m": {"k": "v"}}


def test_the_documented_example_delta_fits_the_example_snapshot() -> None:
    snapshot = next(e for e in SERVER_EXAMPLES if isinstance(e, m.Snapshot))
    delta = next(e for e in SERVER_EXAMPLES if isinstance(e, m.Delta))
    after = {**snapshot.view, "hand": ["3S", "KC"], "table": [], "to_move": 1}
    assert diff(snapshot.view, after) == delta.ops
    assert apply(snapshot.view, delta.ops) == after


@pytest.mark.parametrize(
    "ops",
    [
        [9, ["a"], 1],
        [0, ["missing", "deeper"], 1],
        [2, ["a"], [1]],
        [3, "a", [0]],
        [0],
        [0, "a"],
        [1, "b", None],
        [0, 5, 1],
        [0, -1, 1],
        [0, True, 1],
        [5, [], [0]],
        [5, "a", [0, 1]],
        [4, "l", [[0, 1]]],
        [4, "l", [[3, 1, 2]]],
        [4, "l", [[0, 1, 2, 3]]],
        [4, "l", ["x"]],
        [3, "l", ["x"]],
        [0, ["l", "x"], 1],
        "nonsense",
        ["nonsense", 0, 1],
        [0, {"a": 1}, 1],
    ],
)
def test_malformed_ops_are_refused(ops: Any) -> None:
    view = {"a": 1, "l": [{"p": 1, "q": 2}]}
    with pytest.raises(ProtocolError):
        apply(view, ops)
    assert view == {"a": 1, "l": [{"p": 1, "q": 2}]}


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
    assert store.on_delta(m.Delta(seq=6, ops=[0, "a", 2]))
    assert store.on_delta(m.Delta(seq=6, ops=[0, "a", 3]))  # repeat: ignored
    assert store.view == {"a": 2}
    assert not store.on_delta(m.Delta(seq=8, ops=[0, ["a"], 4]))
    assert store.needs_resync
    assert not store.on_delta(m.Delta(seq=9, ops=[]))
    store.on_snapshot(m.Snapshot(room=room, seat=0, seq=9, view={"a": 9}))
    assert not store.needs_resync
    assert store.on_delta(m.Delta(seq=10, ops=[1, 0, None]))
    assert store.view == {}


@pytest.mark.slow
@given(
    st.integers(min_value=1, max_value=2**31 - 1),
    json_values,
    st.lists(st.dictionaries(st.text(), json_values)),
)
def test_the_servers_delta_fast_path_matches_the_model(seq: int, value: Any, events: list[Any]) -> None:
    ops = diff({"a": None}, {"a": value})
    assert encode_delta(seq, ops, events) == encode(m.Delta(seq=seq, ops=ops, events=events))


@pytest.mark.slow
@given(
    st.integers(min_value=0, max_value=2**31 - 1),
    st.lists(st.dictionaries(st.text(), json_values)),
    st.none() | st.floats(allow_nan=False, allow_infinity=False),
)
def test_the_servers_your_turn_fast_path_matches_the_model(
    seq: int, legal: list[dict[str, Any]], deadline: float | None
) -> None:
    model = m.YourTurn(seq=seq, legal=legal, deadline=deadline)
    assert encode_your_turn(seq, legal, deadline) == encode(model)


def test_your_turn_fast_path_on_every_games_real_moves() -> None:
    """The moves the engines list, as the server sends them, with and without a deadline."""
    for game_id, game in GAMES.items():
        state = game.new({}, f"your-turn/{game_id}")
        for step in range(30):
            if state.is_over:
                break
            seat = state.to_move
            assert seat is not None
            legal = [a.to_data() for a in state.legal_actions(seat)]
            for deadline in (None, 1_800_000_000.25):
                model = m.YourTurn(seq=step, legal=legal, deadline=deadline)
                assert encode_your_turn(step, legal, deadline) == encode(model)
            state, _ = state.apply(state.legal_actions(seat)[step % len(legal)], seat=seat)
