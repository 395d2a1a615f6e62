// The room and its view, as the session holds them: which messages of the
// room's stream are current (about the view held now), which ask for a resync,
// and a room being left.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RoomState } from "../src/protocol/room.js";

const CURRENT = { current: true, resync: false, joined: false };
const JOINED = { current: true, resync: false, joined: true };
const STALE = { current: false, resync: false, joined: false };
const LOST = { current: false, resync: true, joined: false };

const ROOM = { room: "r-1", code: "KX4P7MQ2", game: "scopa", state: "playing", seats: [] };

test("a snapshot sets the room, the seat and the view", () => {
  const state = new RoomState();
  assert.deepEqual(state.take({ type: "snapshot", room: ROOM, seat: 1, seq: 3, view: { a: 1 } }), JOINED);
  assert.deepEqual(state.room, ROOM);
  assert.equal(state.seat, 1);
  assert.equal(state.inGame, true);
  assert.equal(state.store.seq, 3);
  assert.deepEqual(state.take({ type: "snapshot", room: { ...ROOM, state: "waiting" }, seat: null, seq: 4, view: {} }), CURRENT);
  assert.equal(state.seat, null);
  assert.equal(state.inGame, false);
});

test("only a delta applied now is current; a repeat is not, a gap asks once for a resync", () => {
  const state = new RoomState();
  state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: { a: 1 } });
  assert.deepEqual(state.take({ type: "delta", seq: 2, ops: [0, "a", 2] }), CURRENT);
  assert.deepEqual(state.take({ type: "delta", seq: 2, ops: [0, "a", 3] }), STALE);
  assert.deepEqual(state.store.view, { a: 2 });
  assert.deepEqual(state.take({ type: "delta", seq: 4, ops: [0, "a", 4] }), LOST);
  assert.deepEqual(state.take({ type: "delta", seq: 3, ops: [0, "a", 3] }), STALE, "a resync is asked for once");
  assert.deepEqual(state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 4, view: { a: 4 } }), CURRENT);
  assert.deepEqual(state.take({ type: "delta", seq: 5, ops: [0, "a", 5] }), CURRENT);
  assert.deepEqual(state.take({ type: "delta", seq: 7, ops: [0, "a", 7] }), LOST, "the snapshot allowed asking again");
});

test("a turn is current only for the view held now; one counted past it asks for a resync", () => {
  const state = new RoomState();
  assert.deepEqual(state.take({ type: "your_turn", seq: 9, legal: [] }), CURRENT);
  state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 5, view: {} });
  assert.deepEqual(state.take({ type: "your_turn", seq: 5, legal: [] }), CURRENT);
  assert.deepEqual(state.take({ type: "your_turn", seq: 4, legal: [] }), STALE);
  assert.deepEqual(state.take({ type: "your_turn", seq: 6, legal: [] }), LOST);
  assert.equal(state.store.needsResync, true);
});

test("the room being left shows none of its late snapshots; being out ends that", () => {
  const state = new RoomState();
  state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: {} });
  state.leave(5);
  assert.deepEqual(state.leaving, { room: "r-1", id: 5 });
  assert.deepEqual(state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 2, view: { late: true } }), STALE);
  assert.equal(state.store.seq, 1);
  const other = { ...ROOM, room: "r-2" };
  assert.deepEqual(state.take({ type: "snapshot", room: other, seat: 0, seq: 1, view: {} }), JOINED);
  state.take({ type: "left" });
  assert.equal(state.leaving, null);
  assert.equal(state.room, null);
  assert.equal(state.inGame, false);
  assert.deepEqual(state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 7, view: {} }), JOINED);
  state.leave(6);
  assert.deepEqual(state.take({ type: "error", id: 2, code: "bad_card", message: "" }), CURRENT);
  assert.deepEqual(state.leaving, { room: "r-1", id: 6 }, "a refusal of another request");
  state.take({ type: "error", id: 6, code: "not_in_room", message: "" });
  assert.equal(state.leaving, null, "the leave refused: out already");
  assert.deepEqual(state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 8, view: {} }), CURRENT);
});

test("a match's end ends the game; a lost room forgets the view", () => {
  const state = new RoomState();
  state.take({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: { a: 1 } });
  state.take({ type: "match_result", scores: [1, 0], reason: "target" });
  assert.equal(state.inGame, false);
  assert.deepEqual(state.room, ROOM);
  state.lost();
  assert.equal(state.room, null);
  assert.equal(state.store.view, null);
  assert.equal(state.store.seq, null);
});
