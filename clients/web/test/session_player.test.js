// The player key of a profile in the session: sent in every hello from storage,
// kept from a `profile` answer, forgotten on `profile_deleted` and on a welcome
// that says the server does not know it or cannot read it, kept when the
// database is only away.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PLAYER_KEY, RESUME_KEY, Session } from "../src/protocol/session.js";
import { FakeClock, FakeSocket, FakeStorage } from "./fakes.js";

/** @param {FakeStorage} storage */
function setUp(storage) {
  /** @type {FakeSocket[]} */
  const sockets = [];
  /** @type {Record<string, unknown>[]} */
  const events = [];
  const session = new Session({
    url: "ws://a.example:8765/",
    name: "Anna",
    lang: "sv",
    connect: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    timers: new FakeClock(),
    storage,
    onEvent: (event) => events.push(event),
    random: () => 0.5,
  });
  session.start();
  const socket = () => sockets[sockets.length - 1];
  socket().open();
  return { session, socket, events, storage };
}

/**
 * @param {ReturnType<typeof setUp>} t
 * @param {Record<string, unknown>} [fields]
 */
function welcome(t, fields = {}) {
  const hello = t.socket().last;
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-1", resume: "token-1", server: "cardavia/test", version: 2, ...fields });
  return hello;
}

const ANNA = { id: "p-5c0a9e1f2b3d4c6e", name: "Anna", bot: false };

test("without a stored key the hello carries no player", () => {
  const t = setUp(new FakeStorage());
  const hello = welcome(t);
  assert.equal("player" in hello, false);
  assert.equal(t.session.player, null);
  assert.equal(t.session.hasPlayerKey, false);
});

test("a stored key goes in the hello, and the welcome's profile is the one held", () => {
  const t = setUp(new FakeStorage({ [PLAYER_KEY]: "key-of-anna" }));
  const hello = welcome(t, { player: ANNA, player_error: null });
  assert.equal(hello.player, "key-of-anna");
  assert.deepEqual(t.session.player, ANNA);
});

test("a profile answer's key is stored at once and sent in the next hello; rename keeps the key", () => {
  const t = setUp(new FakeStorage());
  welcome(t);
  t.socket().receive({ id: 2, type: "profile", player: ANNA, key: "fresh-key" });
  assert.equal(t.storage.getItem(PLAYER_KEY), "fresh-key");
  assert.deepEqual(t.session.player, ANNA);
  t.socket().receive({ id: 3, type: "profile", player: { ...ANNA, name: "Anna B." }, key: null });
  assert.equal(t.storage.getItem(PLAYER_KEY), "fresh-key");
  assert.equal(t.session.player?.name, "Anna B.");
});

test("the next connection's hello carries the key a profile answer gave", () => {
  const storage = new FakeStorage();
  const t = setUp(storage);
  welcome(t);
  t.socket().receive({ id: 2, type: "profile", player: ANNA, key: "fresh-key" });
  const again = setUp(storage);
  assert.equal(welcome(again).player, "fresh-key");
});

test("profile_deleted forgets the key and the profile", () => {
  const t = setUp(new FakeStorage({ [PLAYER_KEY]: "key-of-anna" }));
  welcome(t, { player: ANNA });
  t.socket().receive({ id: 2, type: "profile_deleted" });
  assert.equal(t.storage.getItem(PLAYER_KEY), null);
  assert.equal(t.session.player, null);
  assert.equal(t.session.hasPlayerKey, false);
});

for (const error of ["unknown_player", "malformed_player_key"]) {
  test(`a welcome with player_error ${error} forgets the key and keeps the resume token`, () => {
    const t = setUp(new FakeStorage({ [PLAYER_KEY]: "stale" }));
    welcome(t, { player: null, player_error: error });
    assert.equal(t.storage.getItem(PLAYER_KEY), null);
    assert.equal(t.storage.getItem(RESUME_KEY), "token-1");
    assert.equal(t.session.player, null);
    assert.equal(t.events[0].player_error, error, "the page hears why, to tell the player");
  });
}

test("a welcome with player_error storage_unavailable keeps the key for the next hello", () => {
  const t = setUp(new FakeStorage({ [PLAYER_KEY]: "key-of-anna" }));
  welcome(t, { player: null, player_error: "storage_unavailable" });
  assert.equal(t.storage.getItem(PLAYER_KEY), "key-of-anna");
  assert.equal(t.session.hasPlayerKey, true);
});

test("a profile answer with a malformed player leaves none held", () => {
  const t = setUp(new FakeStorage());
  welcome(t);
  t.socket().receive({ id: 2, type: "profile", player: { name: 7 }, key: null });
  assert.equal(t.session.player, null);
  assert.equal(t.storage.getItem(PLAYER_KEY), null);
});
