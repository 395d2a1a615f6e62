// The connection logic with a fake socket, fake timers and fake storage:
// hello, the resume token, reconnecting and resuming, a refused token,
// redirects, a moving room, the end on a policy close, resyncs and requests.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RESUME_KEY, RequestError, Session, SessionInterrupted } from "../src/protocol/session.js";
import { FakeClock, FakeSocket, FakeStorage } from "./fakes.js";

/**
 * A session on fakes, with everything it did kept for the test to look at.
 * @param {{ storage?: FakeStorage, lang?: string, url?: string, alongHello?: () => import("../src/protocol/codec.js").Message[] }} [options]
 */
function setUp(options = {}) {
  /** @type {FakeSocket[]} */
  const sockets = [];
  /** @type {Record<string, unknown>[]} */
  const events = [];
  /** @type {boolean[]} whether each event was current */
  const current = [];
  const clock = new FakeClock();
  const storage = options.storage ?? new FakeStorage();
  const session = new Session({
    url: options.url ?? "ws://a.example:8765/",
    name: "Anna",
    lang: options.lang ?? "pl",
    connect: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    timers: clock,
    storage,
    onEvent: (event, taken) => {
      events.push(event);
      current.push(taken.current);
    },
    random: () => 0.5,
    alongHello: options.alongHello,
  });
  const socket = () => sockets[sockets.length - 1];
  return { session, sockets, socket, events, current, clock, storage };
}

const ROOM = { room: "r-1", game: "scopa", state: "playing", seats: [] };

/**
 * Opens the current socket and welcomes the hello it sends.
 * @param {ReturnType<typeof setUp>} t
 * @param {Record<string, unknown>} [fields]
 */
function welcome(t, fields = {}) {
  t.socket().open();
  const hello = t.socket().last;
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-1", resume: "token-1", server: "cardavia/test", version: 2, ...fields });
  return hello;
}

test("hello carries the version, name and language; welcome's token is stored", () => {
  const t = setUp();
  t.session.start();
  assert.equal(t.socket().url, "ws://a.example:8765/");
  assert.equal(t.socket().binaryType, "arraybuffer");
  const hello = welcome(t);
  assert.deepEqual(hello, { id: 1, type: "hello", version: 2, name: "Anna", lang: "pl" });
  assert.equal(t.storage.getItem(RESUME_KEY), "token-1");
  assert.equal(t.session.resumeToken, "token-1");
  assert.equal(t.session.connected, true);
  assert.equal(t.events[0].type, "welcome");
});

test("a stored token is sent with the first hello", () => {
  const t = setUp({ storage: new FakeStorage({ [RESUME_KEY]: "kept" }) });
  t.session.start();
  t.socket().open();
  assert.equal(t.socket().last.resume, "kept");
});

test("requests asked for along with hello go in its flight, on every connection, before any welcome", () => {
  /** @type {Session | null} */
  let session = null;
  let asked = 0;
  const t = setUp({
    alongHello: () => {
      asked += 1;
      return asked > 2 ? [] : [{ id: /** @type {Session} */ (session).nextId(), type: "get_catalogue" }];
    },
  });
  session = t.session;
  t.session.start();
  t.socket().open();
  assert.deepEqual(
    t.socket().sent.map((frame) => [frame.type, frame.id]),
    [["hello", 1], ["get_catalogue", 2]],
  );
  t.socket().receive({ id: 1, type: "welcome", session: "s-1", resume: "token-1", server: "cardavia/test", version: 2 });
  assert.equal(t.session.send({ type: "list_rooms" }), 3);
  t.socket().drop(1006);
  t.clock.tick(10000);
  t.socket().open();
  assert.deepEqual(t.socket().sent.map((frame) => frame.type), ["hello", "get_catalogue"]);
  t.socket().receive({ id: 4, type: "welcome", session: "s-1", resume: "token-2", server: "cardavia/test", version: 2 });
  t.socket().drop(1006);
  t.clock.tick(10000);
  t.socket().open();
  assert.deepEqual(t.socket().sent.map((frame) => frame.type), ["hello"], "nothing more once the callback has nothing");
});

test("requests get fresh ids, in the protocol's field order", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  assert.equal(t.session.send({ type: "play_now", game: "scopa" }), 2);
  assert.equal(t.session.send({ type: "get_catalogue" }), 3);
  assert.deepEqual(Object.keys(t.socket().sent[1]), ["id", "type", "game"]);
});

test("a drop reconnects with backoff and resumes with the token and the last sequence number", () => {
  const t = setUp();
  t.session.start();
  welcome(t, { room: null });
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 3, view: { hand: ["7D"] } });
  const first = t.socket();
  first.drop(1006, "network");
  const notice = t.events.find((e) => e.type === "reconnecting");
  assert.deepEqual(notice, { type: "reconnecting", local: true, attempt: 1, delay: 0.15000000000000002, reason: "network" });
  assert.equal(t.session.connected, false);
  assert.throws(() => t.session.send({ type: "resync" }), SessionInterrupted);
  t.clock.tick(149);
  assert.equal(t.sockets.length, 1);
  t.clock.tick(2);
  assert.equal(t.sockets.length, 2);
  t.socket().open();
  const hello = t.socket().last;
  assert.equal(hello.resume, "token-1");
  assert.equal(hello.last_seq, 3);
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-1", resume: "token-2", server: "x", room: "r-1" });
  assert.deepEqual(t.events[t.events.length - 1], { type: "reconnected", local: true, resumed: true });
  assert.equal(t.storage.getItem(RESUME_KEY), "token-2");
  assert.deepEqual(t.session.store.view, { hand: ["7D"] });
  assert.equal(t.session.reconnects, 1);
});

test("failed attempts back off, doubling up to the longest wait, and alternate with the first node", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ id: 9, type: "redirect", url: "ws://b.example/", room: "r-1", reservation: null });
  assert.equal(t.socket().url, "ws://b.example/");
  welcome(t);
  t.socket().drop(1012, "restarting");
  /** @type {number[]} */
  const delays = [];
  /** @type {string[]} */
  const urls = [];
  for (let i = 0; i < 7; i++) {
    const notice = /** @type {{ delay: number }} */ (t.events[t.events.length - 1]);
    delays.push(Math.round(notice.delay * 1000));
    t.clock.tick(notice.delay * 1000);
    urls.push(t.socket().url);
    t.socket().drop(1006);
  }
  assert.deepEqual(delays, [150, 300, 600, 1200, 2400, 3750, 3750]);
  assert.deepEqual(urls.slice(0, 3), ["ws://b.example/", "ws://a.example:8765/", "ws://b.example/"]);
});

test("a refused resume token starts a fresh session from the welcome that follows", () => {
  const t = setUp({ storage: new FakeStorage({ [RESUME_KEY]: "expired" }) });
  t.session.start();
  t.socket().open();
  const hello = t.socket().last;
  assert.equal(hello.resume, "expired");
  t.socket().receive({ id: hello.id, type: "error", code: "bad_resume_token", message: "unknown token" });
  assert.equal(t.storage.getItem(RESUME_KEY), null);
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-2", resume: "fresh", server: "x" });
  assert.equal(t.storage.getItem(RESUME_KEY), "fresh");
  assert.deepEqual(t.events.map((e) => e.type), ["error", "welcome"]);
  assert.equal(t.session.connected, true);
});

test("a refused token on reconnecting forgets the old room", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: { a: 1 } });
  t.socket().drop(1006);
  t.clock.tick(1000);
  t.socket().open();
  const hello = t.socket().last;
  t.socket().receive({ id: hello.id, type: "error", code: "bad_resume_token", message: "expired" });
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-2", resume: "fresh", server: "x" });
  assert.deepEqual(t.events[t.events.length - 1], { type: "reconnected", local: true, resumed: false });
  assert.equal(t.session.store.view, null);
  assert.equal(t.session.room, null);
});

test("a redirect is followed: resume on the new node, then join with the reservation", async () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  const joined = t.session.request({ type: "join_room", code: "KX4P7MQ2" });
  const join = t.socket().last;
  t.socket().receive({ id: join.id, type: "redirect", url: "ws://b.example/", room: "r-7f3a", reservation: "rsv-1" });
  assert.equal(t.sockets[0].closedWith, 1000);
  assert.equal(t.socket().url, "ws://b.example/");
  t.socket().open();
  const hello = t.socket().last;
  assert.equal(hello.type, "hello");
  assert.equal(hello.resume, "token-1");
  t.socket().receive({ id: hello.id, type: "welcome", session: "s-1", resume: "token-b", server: "x" });
  const rejoin = t.socket().last;
  assert.deepEqual(rejoin, { id: rejoin.id, type: "join_room", room: "r-7f3a", reservation: "rsv-1" });
  t.socket().receive({ type: "snapshot", room: { ...ROOM, room: "r-7f3a" }, seat: 1, seq: 1, view: { a: 1 } });
  const answer = await joined;
  assert.equal(answer.type, "snapshot");
  assert.equal(t.session.url, "ws://b.example/");
  assert.ok(t.events.some((e) => e.type === "redirect"));
  // a drop now reconnects to the new node first
  t.socket().drop(1006);
  t.clock.tick(1000);
  assert.equal(t.socket().url, "ws://b.example/");
});

test("a room moving to another node: try again after the retry_after the server names", () => {
  const t = setUp({ storage: new FakeStorage({ [RESUME_KEY]: "kept" }) });
  t.session.start();
  const hello = welcome(t, { room: null });
  t.socket().receive({ id: hello.id, type: "error", code: "node_unavailable", message: "moving", retry_after: 3 });
  assert.equal(t.sockets[0].closedWith, 1000);
  const notice = t.events[t.events.length - 1];
  assert.deepEqual(notice, { type: "reconnecting", local: true, attempt: 1, delay: 3, reason: "the room is moving to another node" });
  t.clock.tick(2999);
  assert.equal(t.sockets.length, 1);
  t.clock.tick(1);
  assert.equal(t.sockets.length, 2);
});

test("a policy close (1008) ends the session without reconnecting", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().drop(1008, "replaced by a newer connection");
  t.clock.tick(60_000);
  assert.equal(t.sockets.length, 1);
  assert.deepEqual(t.events[t.events.length - 1], {
    type: "closed",
    local: true,
    code: 1008,
    reason: "the server closed the session: replaced by a newer connection",
  });
  assert.equal(t.session.state, "closed");
});

test("no welcome within the handshake timeout: the attempt is dropped and retried", () => {
  const t = setUp();
  t.session.start();
  t.socket().open();
  t.clock.tick(10_000);
  assert.equal(t.sockets[0].closedWith, 1000);
  assert.equal(t.events[t.events.length - 1].type, "reconnecting");
});

test("a gap in deltas sends one resync; the snapshot that answers allows another", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: { a: 1 } });
  t.socket().receive({ type: "delta", seq: 2, ops: [0, "a", 2] });
  assert.deepEqual(t.session.store.view, { a: 2 });
  t.socket().receive({ type: "delta", seq: 4, ops: [0, "a", 4] });
  t.socket().receive({ type: "delta", seq: 5, ops: [0, "a", 5] });
  assert.deepEqual(t.socket().sent.filter((m) => m.type === "resync").length, 1);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 5, view: { a: 5 } });
  t.socket().receive({ type: "your_turn", seq: 7, legal: [] });
  assert.deepEqual(t.socket().sent.filter((m) => m.type === "resync").length, 2);
  assert.equal(t.session.inGame, true);
});

test("requests are answered by id, by kind, or refused with the error that names them", async () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  const catalogue = t.session.request({ type: "get_catalogue" });
  const act = t.session.request({ type: "act", action: { play: "7D" } });
  const bad = t.session.request({ type: "act", action: { play: "ZZ" } });
  const [, catalogueRequest, actRequest, badRequest] = t.socket().sent;
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: {} });
  t.socket().receive({ id: badRequest.id, type: "error", code: "bad_card", message: "ZZ" });
  t.socket().receive({ type: "delta", seq: 2, ops: [0, "x", 1] });
  t.socket().receive({ id: catalogueRequest.id, type: "catalogue", games: [], decks: [], bots: [] });
  assert.equal((await catalogue).type, "catalogue");
  assert.equal((await act).seq, 2);
  await assert.rejects(bad, (error) => error instanceof RequestError && error.code === "bad_card");
  assert.equal(actRequest.type, "act");
});

test("a drop fails the requests still waiting", async () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  const waiting = t.session.request({ type: "get_catalogue" });
  t.socket().drop(1006);
  await assert.rejects(waiting, SessionInterrupted);
});

test("a request with no answer in time is given up", async () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  const waiting = t.session.request({ type: "list_rooms" }, { timeout: 2 });
  t.clock.tick(2000);
  await assert.rejects(waiting, /no answer to list_rooms/);
});

test("an unreadable frame is reported and skipped", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().onmessage?.({ data: "text frame" });
  t.socket().onmessage?.({ data: new Uint8Array([0x93, 1, 2, 3]) });
  assert.deepEqual(t.events.slice(-2).map((e) => e.type), ["unreadable_frame", "unreadable_frame"]);
  assert.equal(t.session.connected, true);
});

test("close ends the session for good", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.session.close();
  assert.equal(t.sockets[0].closedWith, 1000);
  t.sockets[0].drop(1000);
  t.clock.tick(60_000);
  assert.equal(t.sockets.length, 1);
  assert.equal(t.events[t.events.length - 1].type, "closed");
});

test("welcomed back without the room: a redirect that follows leads to it", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 4, view: { a: 1 } });
  t.socket().drop(1006);
  t.clock.tick(1000);
  const hello = welcome(t, { room: null });
  assert.equal(hello.last_seq, 4);
  assert.notEqual(t.events[t.events.length - 1].type, "reconnected"); // not yet: a redirect may follow
  t.socket().receive({ id: hello.id, type: "redirect", url: "ws://c.example/", room: "r-1" });
  assert.equal(t.socket().url, "ws://c.example/");
  const again = welcome(t, { room: "r-1" });
  assert.equal(again.last_seq, 4);
  assert.deepEqual(t.events[t.events.length - 1], { type: "reconnected", local: true, resumed: true });
  assert.deepEqual(t.session.store.view, { a: 1 });
  t.clock.tick(5000);
  assert.equal(t.events.filter((e) => e.type === "reconnected").length, 1);
});

test("welcomed back without the room and nothing follows: back without the seat", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 4, view: { a: 1 } });
  t.socket().drop(1006);
  t.clock.tick(1000);
  welcome(t, { room: null });
  t.clock.tick(999);
  assert.notEqual(t.events[t.events.length - 1].type, "reconnected");
  t.clock.tick(1);
  assert.deepEqual(t.events[t.events.length - 1], { type: "reconnected", local: true, resumed: false });
  assert.equal(t.session.store.view, null);
  assert.equal(t.session.room, null);
});

test("the page hears which of the room's messages are about the view it holds", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  const heard = () => t.events.map((event, i) => [event.type, event.seq, t.current[i]]).slice(-1)[0];
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: { a: 1 } });
  assert.deepEqual(heard(), ["snapshot", 1, true]);
  t.socket().receive({ type: "delta", seq: 2, ops: [0, "a", 2] });
  assert.deepEqual(heard(), ["delta", 2, true]);
  t.socket().receive({ type: "delta", seq: 2, ops: [0, "a", 2] });
  assert.deepEqual(heard(), ["delta", 2, false]);
  t.socket().receive({ type: "your_turn", seq: 1, legal: [] });
  assert.deepEqual(heard(), ["your_turn", 1, false]);
  t.socket().receive({ type: "your_turn", seq: 2, legal: [] });
  assert.deepEqual(heard(), ["your_turn", 2, true]);
  t.socket().receive({ type: "delta", seq: 4, ops: [0, "a", 4] });
  assert.deepEqual(heard(), ["delta", 4, false]);
  assert.equal(t.socket().sent.filter((m) => m.type === "resync").length, 1);
});

test("leaving: the room's late snapshot is not current, and the room is gone once the server says so", () => {
  const t = setUp();
  t.session.start();
  welcome(t);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 1, view: {} });
  const id = t.session.send({ type: "leave" });
  assert.deepEqual(t.socket().last, { id, type: "leave" });
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 2, view: {} });
  assert.equal(t.current[t.current.length - 1], false);
  t.socket().receive({ id, type: "left", reason: "requested" });
  assert.equal(t.session.room, null);
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 3, view: {} });
  assert.equal(t.current[t.current.length - 1], true);
  t.session.send({ type: "leave" });
  t.socket().receive({ id: t.socket().last.id, type: "error", code: "not_in_room", message: "no room" });
  t.socket().receive({ type: "snapshot", room: ROOM, seat: 0, seq: 4, view: {} });
  assert.equal(t.current[t.current.length - 1], true);
});
