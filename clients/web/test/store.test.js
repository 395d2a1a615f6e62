// The view store, as tests/protocol/test_delta.py holds ViewStore to it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ViewStore } from "../src/protocol/store.js";

test("a gap asks for resync and a repeat is ignored", () => {
  const store = new ViewStore();
  store.onSnapshot({ seq: 5, seat: 0, view: { a: 1 } });
  assert.equal(store.onDelta({ seq: 6, ops: [0, "a", 2] }), true);
  assert.equal(store.onDelta({ seq: 6, ops: [0, "a", 3] }), true); // repeat: ignored
  assert.deepEqual(store.view, { a: 2 });
  assert.equal(store.onDelta({ seq: 8, ops: [0, ["a"], 4] }), false);
  assert.equal(store.needsResync, true);
  assert.equal(store.onDelta({ seq: 9, ops: [] }), false);
  store.onSnapshot({ seq: 9, seat: 0, view: { a: 9 } });
  assert.equal(store.needsResync, false);
  assert.equal(store.onDelta({ seq: 10, ops: [1, 0, null] }), true);
  assert.deepEqual(store.view, {});
  assert.equal(store.seq, 10);
});

test("a delta before any snapshot needs a resync", () => {
  const store = new ViewStore();
  assert.equal(store.onDelta({ seq: 1, ops: [] }), false);
  assert.equal(store.needsResync, true);
});

test("a delta that does not fit leaves the view and asks for a resync", () => {
  const store = new ViewStore();
  store.onSnapshot({ seq: 1, seat: null, view: { a: 1, l: [1] } });
  assert.equal(store.onDelta({ seq: 2, ops: [0, "a", 2, 3, "l", [5]] }), false);
  assert.equal(store.needsResync, true);
  assert.deepEqual(store.view, { a: 1, l: [1] });
  assert.equal(store.seq, 1);
  assert.equal(store.lastError?.code, "bad_frame");
});

test("events of applied deltas are kept in order", () => {
  const store = new ViewStore();
  store.onSnapshot({ seq: 1, view: {} });
  store.onDelta({ seq: 2, ops: [0, "x", 1], events: [{ type: "play", seat: 0, card: "7D" }] });
  store.onDelta({ seq: 3, ops: [0, "x", 2] });
  assert.deepEqual(store.events, [{ type: "play", seat: 0, card: "7D" }]);
  assert.equal(store.seat, null);
});
