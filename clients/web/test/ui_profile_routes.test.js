// The page's new addresses, rated play in the lobby's state, where the profile's
// and the replay's refusals go, and a match summary's rating change.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pageFromHash } from "../src/ui/dom.js";
import { initialState as lobbyState, ratedPlay, reduce as lobbyReduce } from "../src/ui/lobby_state.js";
import { routeRefusal } from "../src/ui/refusals.js";
import { initialState as tableState, reduce as tableReduce } from "../src/ui/table/state.js";

test("the profile's screens and a replay have addresses; anything else is not theirs", () => {
  assert.deepEqual(pageFromHash("#/profile"), { page: "profile" });
  assert.deepEqual(pageFromHash("#/leaderboard/"), { page: "leaderboard" });
  assert.deepEqual(pageFromHash("/history"), { page: "history" });
  assert.deepEqual(pageFromHash("#/replay/r-7f3a-1"), { page: "replay", record: "r-7f3a-1" });
  assert.deepEqual(pageFromHash("#/replay/r%2D1"), { page: "replay", record: "r-1" });
  assert.equal(pageFromHash("#/replay/"), null);
  assert.equal(pageFromHash("#/replay/%E0%A4%A"), null, "a broken escape is no address");
  assert.equal(pageFromHash("#/replay/<script>"), null);
  assert.equal(pageFromHash(`#/replay/${"r".repeat(65)}`), null);
  assert.equal(pageFromHash("#/room/KX4P7MQ2"), null);
  assert.equal(pageFromHash("#/profiles"), null);
  assert.equal(pageFromHash(""), null);
});

test("rated play is offered only with a profile, rated by default, casual on request", () => {
  let state = lobbyState({ name: "Anna" });
  assert.equal(state.profile, false);
  assert.equal(ratedPlay(state), false, "no profile: never rated");
  state = lobbyReduce(state, { type: "profile", profile: true });
  assert.equal(ratedPlay(state), true, "as the server's quick match is with a profile");
  const casual = lobbyReduce(state, { type: "rated", rated: false });
  assert.equal(ratedPlay(casual), false);
  assert.equal(lobbyReduce(casual, { type: "rated", rated: false }), casual);
  assert.equal(ratedPlay(lobbyReduce(state, { type: "profile", profile: false })), false);
});

test("the profile's and the replay's refusals show on their own screens, at a table too", () => {
  const has = (/** @type {string} */ key) => key === "errors.unknown_code" || key === "errors.unknown_record";
  const error = (/** @type {string} */ code) => ({ type: /** @type {const} */ ("error"), id: 3, code, message: code });
  const redeem = { owner: /** @type {const} */ ("profile"), message: { type: "redeem_transfer_code", code: "X" }, retries: 0 };
  const replay = { owner: /** @type {const} */ ("replay"), message: { type: "get_replay", record: "r-1" }, retries: 0 };
  for (const tableOpen of [false, true]) {
    const routed = routeRefusal(error("unknown_code"), redeem, { tableOpen, has });
    assert.equal(routed.screen, "profile");
    assert.equal(routed.key, "errors.unknown_code");
    assert.equal(routeRefusal(error("unknown_record"), replay, { tableOpen, has }).screen, "replay");
  }
});

test("a rating change is the table's for its own match only, and a new match forgets it", () => {
  const room = { room: "r-1", game: "briscola", state: "playing", seats: [{ name: "Anna" }, { name: "Bot" }] };
  let state = tableState({ game: "briscola", seat: 0, room });
  state = tableReduce(state, { type: "match_result", result: { type: "match_result", winner: 0, scores: [70, 50], reason: "points", record: "r-1-1" } });
  const other = tableReduce(state, { type: "rating_change", change: { record: "r-9-1", before: 1500, after: 1510, deviation: 300 } });
  assert.equal(other.rating, null);
  state = tableReduce(state, { type: "rating_change", change: { record: "r-1-1", before: 1500, after: 1531, deviation: 290 } });
  assert.deepEqual(state.rating, { record: "r-1-1", before: 1500, after: 1531, deviation: 290 });
  state = tableReduce(state, { type: "snapshot", snapshot: { type: "snapshot", seq: 0, seat: 0, room, view: { to_move: 0 } }, now: 0 });
  assert.equal(state.rating, null, "a rematch starts without the last match's change");
});
