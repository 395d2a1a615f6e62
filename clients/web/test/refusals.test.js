// Where the server's refusals go: the screen of whoever sent the request,
// what else the page does about each, and the requests it remembers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { NODE_RETRIES, REMEMBERED_REQUESTS, SentRequests, routeRefusal } from "../src/ui/refusals.js";

/** @param {string} key */
const has = (key) => ["errors.room_full", "errors.node_unavailable", "errors.bad_card", "errors.unknown_game"].includes(key);
const LOBBY = { tableOpen: false, has };
const AT_TABLE = { tableOpen: true, has };

/**
 * @param {string} code
 * @param {Record<string, unknown>} [fields]
 * @returns {import("../src/protocol/messages.js").ErrorMessage}
 */
const error = (code, fields = {}) => ({ type: "error", id: 7, code, message: code, ...fields });

/**
 * @param {import("../src/ui/refusals.js").Owner} owner
 * @param {Record<string, unknown>} message
 * @param {number} [retries]
 * @returns {import("../src/ui/refusals.js").Sent}
 */
const sent = (owner, message, retries = 0) => ({ owner, message: { type: "join_room", ...message }, retries });

const QUIET = { room: null, retryAfter: null, forgetLink: false, askCatalogue: false };

test("the lobby's refusals show on its status line, or over the page while a table is open", () => {
  const request = sent("lobby", { type: "play_now", game: "chess" });
  assert.deepEqual(routeRefusal(error("unknown_game"), request, LOBBY), { ...QUIET, screen: "lobby", key: "errors.unknown_game" });
  assert.deepEqual(routeRefusal(error("unknown_game"), request, AT_TABLE), { ...QUIET, screen: "notice", key: "errors.unknown_game" });
});

test("the table's refusals, and those that name no request of ours, go to the table when one is open", () => {
  const act = sent("table", { type: "act" });
  assert.equal(routeRefusal(error("bad_card"), act, AT_TABLE).screen, "table");
  assert.equal(routeRefusal(error("bad_card"), undefined, AT_TABLE).screen, "table");
  assert.equal(routeRefusal(error("bad_card"), act, LOBBY).screen, "lobby");
  assert.equal(routeRefusal(error("bad_card"), undefined, LOBBY).screen, "lobby");
});

test("a room link without a seat for us watches the room instead", () => {
  for (const code of ["room_full", "room_started", "already_in_room"]) {
    assert.deepEqual(routeRefusal(error(code), sent("link", { code: "KX4P7MQ2" }), LOBBY),
      { ...QUIET, screen: "watch", room: "KX4P7MQ2", key: has(`errors.${code}`) ? `errors.${code}` : "errors.unknown" });
  }
  // from the lobby's own code form, a full room is only told
  assert.equal(routeRefusal(error("room_full"), sent("lobby", { code: "KX4P7MQ2" }), LOBBY).screen, "lobby");
});

test("a link that fails is dropped from the address bar, and told in the lobby", () => {
  assert.deepEqual(routeRefusal(error("no_such_room"), sent("link", { code: "KX4P7MQ2" }), LOBBY),
    { ...QUIET, screen: "lobby", key: "errors.unknown", forgetLink: true });
  assert.deepEqual(routeRefusal(error("no_such_room"), sent("link-watch", { type: "spectate", code: "KX4P7MQ2" }), LOBBY),
    { ...QUIET, screen: "lobby", key: "errors.unknown", forgetLink: true });
});

test("a refused leave and a refused resume token show nowhere", () => {
  assert.equal(routeRefusal(error("not_in_room"), sent("leave", { type: "leave" }), AT_TABLE).screen, "none");
  assert.deepEqual(routeRefusal(error("bad_resume_token"), undefined, AT_TABLE), { ...QUIET, screen: "none", key: "errors.unknown" });
  assert.equal(routeRefusal(error("bad_resume_token"), sent("lobby", {}), LOBBY).screen, "none");
});

test("a room moving to another node: sent again after the wait the server names, a few times, and told", () => {
  const request = sent("lobby", { type: "quick_match" });
  const route = routeRefusal(error("node_unavailable", { retry_after: 4 }), request, LOBBY);
  assert.equal(route.retryAfter, 4);
  assert.equal(route.screen, "lobby");
  assert.equal(routeRefusal(error("node_unavailable", { retry_after: 0.01 }), request, LOBBY).retryAfter, 0.5);
  assert.equal(routeRefusal(error("node_unavailable", { retry_after: 600 }), request, LOBBY).retryAfter, 30);
  assert.equal(routeRefusal(error("node_unavailable"), request, LOBBY).retryAfter, 2);
  assert.equal(routeRefusal(error("node_unavailable"), sent("lobby", {}, NODE_RETRIES - 1), LOBBY).retryAfter, 2);
  assert.equal(routeRefusal(error("node_unavailable"), sent("lobby", {}, NODE_RETRIES), LOBBY).retryAfter, null);
  assert.equal(routeRefusal(error("node_unavailable"), undefined, LOBBY).retryAfter, null);
  assert.equal(routeRefusal(error("node_unavailable"), sent("leave", { type: "leave" }), AT_TABLE).retryAfter, 2);
});

test("a refused catalogue is asked for again", () => {
  const route = routeRefusal(error("rate_limited"), sent("lobby", { type: "get_catalogue" }), LOBBY);
  assert.equal(route.askCatalogue, true);
  assert.equal(route.screen, "lobby");
  assert.equal(routeRefusal(error("rate_limited"), sent("lobby", { type: "list_rooms" }), LOBBY).askCatalogue, false);
});

test("a refusal finds its request once; the oldest requests are forgotten", () => {
  const requests = new SentRequests();
  requests.remember(1, { type: "play_now" }, "lobby");
  requests.remember(2, { type: "act" }, "table", 3);
  assert.deepEqual(requests.take(2), { message: { type: "act" }, owner: "table", retries: 3 });
  assert.equal(requests.take(2), undefined);
  assert.equal(requests.take(null), undefined);
  for (let id = 3; id < 3 + REMEMBERED_REQUESTS; id += 1) {
    requests.remember(id, { type: "list_rooms" }, "lobby");
  }
  assert.equal(requests.take(1), undefined);
  assert.equal(requests.take(3)?.owner, "lobby");
});
