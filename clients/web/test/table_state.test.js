// The table's state: each message reduced into plain data, with no page; and the player's intents.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MoveMenu } from "../src/ui/moves.js";
import { activate, handKey, hint, tableKey } from "../src/ui/table/input.js";
import { readDealResult, readRoom, readSnapshot, readYourTurn } from "../src/ui/table/messages.js";
import { LOG_KEY, keepLog, keptLog } from "../src/ui/table/kept_log.js";
import { CHAT_LINES, LOG_LINES, initialState, reduce } from "../src/ui/table/state.js";
import { sayLines } from "../src/ui/table/words.js";
import { names } from "./table_catalogues.js";

/**
 * @typedef {import("../src/ui/table/state.js").TableState} TableState
 * @typedef {import("../src/ui/table/state.js").TableMessage} TableMessage
 */

const ROOM = { room: "r1", code: "ABCDEFGH", game: "scopa", state: "playing", turn_seconds: 30, seats: [{ name: "Anna" }, { name: "Bot", kind: "bot" }] };

/**
 * Freezes a value and everything in it, so that a reducer that changes its input throws.
 * @template T
 * @param {T} value
 * @returns {T}
 */
function frozen(value) {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Reduces the messages in turn, each from a frozen state.
 * @param {TableState} state
 * @param {TableMessage[]} messages
 */
function run(state, ...messages) {
  return messages.reduce((s, m) => reduce(frozen(s), m), state);
}

/**
 * A seated player's table with a snapshot of `view`.
 * @param {Record<string, unknown>} view
 * @param {Record<string, unknown>} [room]
 */
function seated(view, room = ROOM) {
  const start = initialState({ game: String(room.game), seat: 0, room: readRoom(room) });
  return run(start, { type: "snapshot", snapshot: readSnapshot({ type: "snapshot", seq: 1, seat: 0, room, view }), now: 0 });
}

/**
 * The wording of a state, as the page builds it.
 * @param {TableState} state
 */
function wording(state) {
  const n = names(["Anna", "Bot", "Cleo"].slice(0, state.room.seats.length), state.seat);
  return {
    t: n.t, names: n, has: () => true, gameName: "Scopa", deckName: "Piacentine", code: state.room.code || "?",
    menu: new MoveMenu(state.game, state.legal, state.view, n),
  };
}

test("a new table holds only its opening line; a start is logged once", () => {
  const start = initialState({ game: "scopa", seat: 0, room: readRoom({ ...ROOM, state: "waiting" }) });
  assert.deepEqual(start.log.map((e) => e.say.say), ["opening"]);
  const playing = run(start, { type: "snapshot", snapshot: readSnapshot({ seat: 0, room: ROOM, view: { to_move: 0 } }), now: 0 });
  assert.deepEqual(playing.log.map((e) => e.say.say), ["opening", "begins"]);
  assert.deepEqual(playing.view, { to_move: 0 });
  const again = run(playing, { type: "snapshot", snapshot: readSnapshot({ seat: 0, room: ROOM, view: { to_move: 1 } }), now: 0 });
  assert.equal(again.log.length, 2, "a resync's snapshot logs nothing");
  assert.deepEqual(start.log.length, 1, "the state passed in is left as it was");
});

test("a snapshot after the match's result starts a new match", () => {
  let state = seated({ to_move: 0 });
  state = run(state,
    { type: "your_turn", turn: readYourTurn({ legal: [{ play: "7D", capture: [] }] }), now: 0, wall: 0 },
    { type: "toggle", code: "7D" },
    { type: "match_result", result: { type: "match_result", winner: 0, scores: [11, 4], reason: "target", record: null } },
    { type: "rematch_asked" });
  assert.equal(state.legal.length, 0, "no move is offered once the match is over");
  assert.ok(state.result);
  assert.equal(state.summaries[0].kind, "match");
  state = run(state, { type: "snapshot", snapshot: readSnapshot({ seat: 0, room: ROOM, view: { to_move: 1 } }), now: 0 });
  assert.equal(state.result, null);
  assert.equal(state.rematch, null);
  assert.deepEqual(state.selected, []);
  assert.deepEqual(state.log.at(-1)?.say, { say: "text", key: "table.match.new" });
});

test("the live region says our turn, then nothing once a move is made, and the match's end once it ends", () => {
  let state = seated({ to_move: 0 });
  assert.equal(state.announce, null);
  const turn = readYourTurn({ legal: [{ play: "7D", capture: [] }] });
  state = run(state, { type: "your_turn", turn, now: 0, wall: 0 });
  /** @param {TableState} s */
  const said = (s) => (s.announce ? sayLines(wording(s), s.announce) : []);
  assert.deepEqual(said(state), ["your turn"]);
  const again = run(state, { type: "your_turn", turn, now: 0, wall: 0 });
  assert.notEqual(again.announce, state.announce, "a second turn in a row is said again");
  assert.deepEqual(said(run(state, { type: "sent" })), [], "our move is sent: it is no longer our turn");
  state = run(state, { type: "delta", delta: { type: "delta", seq: 2, events: [] }, view: { to_move: null }, now: 0 });
  assert.deepEqual(said(state), []);
  state = run(state, { type: "your_turn", turn, now: 0, wall: 0 },
    { type: "match_result", result: { type: "match_result", winner: 1, scores: [4, 11], reason: "target", record: null } });
  assert.deepEqual(said(state), ["The match is over", "Bot wins"], "the match's end, never our turn");
  const mine = run(state, { type: "match_result", result: { type: "match_result", winner: 0, scores: [11, 4], reason: "target", record: null } });
  assert.deepEqual(said(mine), ["The match is over", "You win!"]);
});

test("a table opened again for its room takes back the log it had, before its first snapshot", () => {
  const room = { ...ROOM, state: "waiting" };
  let before = initialState({ game: "scopa", seat: 0, room: readRoom(room) });
  before = run(before,
    { type: "snapshot", snapshot: readSnapshot({ seat: 0, room: ROOM, view: { to_move: 1 } }), now: 0 },
    { type: "delta", delta: { type: "delta", seq: 2, events: [{ type: "play", seat: 1, card: "7D" }] }, view: { to_move: 0 }, now: 0 });
  assert.deepEqual(before.log.map((e) => e.say.say), ["opening", "begins", "events"]);
  /** @type {Map<string, string>} */
  const stored = new Map();
  const keeper = {
    getItem: (/** @type {string} */ k) => stored.get(k) ?? null,
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => { stored.set(k, v); },
    removeItem: (/** @type {string} */ k) => { stored.delete(k); },
  };
  keepLog(keeper, before);
  assert.equal(keptLog(keeper, "another room"), null, "another room's table starts afresh");
  const kept = keptLog(keeper, "r1");
  assert.ok(kept);
  // the page is loaded again: a new table for the same room, the room already playing
  let after = initialState({ game: "scopa", seat: 0, room: readRoom(ROOM) });
  after = run(after,
    { type: "restore_log", log: kept.log, memo: kept.memo },
    { type: "snapshot", snapshot: readSnapshot({ seat: 0, room: ROOM, view: { to_move: 0 } }), now: 0 });
  /** @param {TableState} s */
  const lines = (s) => s.log.flatMap((e) => sayLines(wording(s), e.say));
  assert.deepEqual(lines(after), lines(before));
  assert.deepEqual(lines(after), ["Scopa, Piacentine: room ABCDEFGH", "The match begins: Anna, Bot", "Bot lays Diamonds · 7 on the table"]);
  assert.equal(run(before, { type: "restore_log", log: [], memo: {} }).log, before.log, "a table that has logged keeps its own");
  stored.set(LOG_KEY, "{not json");
  assert.equal(keptLog(keeper, "r1"), null);
});

test("a delta logs its events with what the log remembered before them, and remembers on", () => {
  const room = { ...ROOM, game: "doudizhu", seats: [{ name: "A" }, { name: "B" }, { name: "C" }] };
  let state = seated({ hand: ["3C", "4C"], to_move: 0 }, room);
  const landlord = [{ type: "landlord", seat: 2, bid: 3, kitty: ["5C", "6C", "7C"] }];
  state = run(state, { type: "delta", delta: { type: "delta", seq: 2, events: landlord }, view: { hand: ["3C", "4C"], to_move: 2 }, now: 0 });
  const entry = state.log.at(-1)?.say;
  assert.equal(entry?.say, "events");
  assert.deepEqual(entry?.say === "events" && entry.memo, {}, "the entry keeps the memo from before its events");
  assert.deepEqual(state.memo, { landlord: 2 });
  const over = [{ type: "game_over", winner: null, scores: [-6, 3, 3] }];
  state = run(state, { type: "delta", delta: { type: "delta", seq: 3, events: over }, view: { to_move: null }, now: 0 });
  const w = wording(state);
  const last = state.log.at(-1)?.say;
  assert.ok(last);
  assert.deepEqual(sayLines(w, last), ["Match over: a tie (scores -6, 3, 3)"],
    "seat 2 was landlord: the two leaders are no side");
  state = run(seated({ to_move: 0 }, room),
    { type: "delta", delta: { type: "delta", seq: 2, events: [{ ...landlord[0], seat: 0 }] }, view: { to_move: 1 }, now: 0 },
    { type: "delta", delta: { type: "delta", seq: 3, events: over }, view: { to_move: null }, now: 0 });
  const shared = state.log.at(-1)?.say;
  assert.ok(shared);
  assert.deepEqual(sayLines(wording(state), shared), ["Match over: Bot and Cleo win as the peasants (scores -6, 3, 3)"]);
});

test("a delta ends the offered moves, keeps the selection to cards still in hand, and keeps the deal's end", () => {
  let state = seated({ hand: ["3C", "4C", "5C"], to_move: 0 }, { ...ROOM, game: "doudizhu", seats: [{}, {}, {}] });
  state = run(state,
    { type: "your_turn", turn: readYourTurn({ legal: [{ combo: "single", cards: ["3C"] }, { pass: true }] }), now: 0, wall: 0 },
    { type: "toggle", code: "3C" }, { type: "toggle", code: "4C" }, { type: "toggle", code: "5C" }, { type: "toggle", code: "5C" });
  assert.deepEqual(state.selected, ["3C", "4C"]);
  const end = { type: "deal_end", winner: "landlord", points: [6, -3, -3] };
  state = run(state, { type: "delta", delta: { type: "delta", seq: 2, events: [end] }, view: { hand: ["4C", "5C"], to_move: 1 }, now: 1000 });
  assert.deepEqual(state.legal, []);
  assert.deepEqual(state.selected, ["4C"]);
  assert.deepEqual(state.lastDealEnd, end);
  assert.deepEqual(state.timer, { deadline: 31000, total: 30, mine: false }, "another seat's turn runs the room's timer");
  state = run(state, { type: "deal_result", result: readDealResult({ deal: 0, points: [6, -3, -3], totals: [6, -3, -3] }) });
  assert.deepEqual(state.summaries, [{ kind: "deal", number: 1, event: { ...end, detail: undefined, totals: [6, -3, -3] } }]);
  assert.equal(state.lastDealEnd, null);
  assert.equal(run(state, { type: "summary_closed" }).summaries.length, 0);
});

test("our turn's timer comes from the server's deadline, bounded by the room's turn length", () => {
  const state = seated({ to_move: 0 });
  const turn = (/** @type {number} */ deadline) => run(state, { type: "your_turn", turn: readYourTurn({ legal: [{ play: "7D" }], deadline }), now: 500, wall: 100 }).timer;
  assert.deepEqual(turn(110), { deadline: 10500, total: 30, mine: true });
  assert.deepEqual(turn(1000), { deadline: 30500, total: 30, mine: true }, "a clock far ahead is bounded");
  assert.deepEqual(turn(50), { deadline: 30500, total: 30, mine: true }, "a clock far behind is bounded");
  assert.equal(run(state, { type: "your_turn", turn: readYourTurn({ legal: [] }), now: 0, wall: 0 }).timer, null);
});

test("a refused move gives the same moves back; another refusal only says why", () => {
  const legal = [{ play: "7D", capture: [] }];
  let state = run(seated({ to_move: 0 }), { type: "your_turn", turn: readYourTurn({ legal }), now: 0, wall: 0 }, { type: "sent" });
  assert.deepEqual(state.legal, []);
  const refused = run(state, { type: "refused", error: { type: "error", code: "illegal_action", message: "no" } });
  assert.deepEqual(refused.legal, legal);
  assert.equal(refused.sent, null);
  assert.deepEqual(refused.status, { say: "refused", code: "illegal_action", message: "no" });
  const other = run(state, { type: "refused", error: { type: "error", code: "room_full", message: "" } });
  assert.deepEqual(other.legal, []);
  const w = wording(refused);
  assert.equal(sayLines({ ...w, has: () => false }, { say: "refused", code: "x", message: "bad\u202emove" })[0].includes("\ufffd"), true);
});

test("rematch votes: the player who asked sees who asked; the others see who waits", () => {
  const state = seated({ to_move: null });
  const asked = run(state, { type: "rematch_votes", votes: { type: "rematch_votes", asked: [1, 7], waiting: [0] } });
  assert.deepEqual(asked.rematch, { say: "rematch_asked", asked: [1] }, "a seat the room does not have is left out");
  assert.deepEqual(asked.log.at(-1)?.say, asked.rematch);
  const waiting = run(state, { type: "rematch_votes", votes: { type: "rematch_votes", asked: [0], waiting: [1] } });
  assert.deepEqual(waiting.rematch, { say: "rematch_waiting", waiting: [1] });
  assert.equal(waiting.log.length, state.log.length);
});

test("the log and the chat keep their newest lines", () => {
  let state = seated({ to_move: 0 });
  for (let i = 0; i < LOG_LINES + 5; i++) {
    state = reduce(state, { type: "delta", delta: { type: "delta", seq: i, events: [{ type: "play", seat: 0, card: "7D" }] }, view: { to_move: 1 }, now: 0 });
  }
  assert.equal(state.log.length, LOG_LINES);
  assert.equal(state.log[0].say.say, "events");
  for (let i = 0; i < CHAT_LINES + 3; i++) {
    state = reduce(state, { type: "chat_message", line: { type: "chat_message", seat: 1, name: "", text: `line ${i}` } });
  }
  assert.equal(state.chat.length, CHAT_LINES);
  assert.equal(state.chat[0].text, "line 3");
});

test("the room's fields are read with their types", () => {
  const room = readRoom({ code: 7, game: "briscola", owner: 3, public: "yes", turn_seconds: 20, seats: [null, { name: "Ola", kind: "bot", bot: "hard" }] });
  assert.deepEqual(room, { game: "briscola", owner: null, turn_seconds: 20, seats: [{ kind: undefined, name: undefined, bot: undefined }, { kind: "bot", name: "Ola", bot: "hard" }] });
  assert.equal(readRoom("x"), null);
  assert.deepEqual(readYourTurn({ legal: [{ play: "AS" }, 3, null], deadline: "soon" }), { type: "your_turn", legal: [{ play: "AS" }], deadline: null });
});

test("a click plays a card's one move, offers a choice of several, or says why not", () => {
  const legal = [{ play: "KS", capture: ["2C", "JH"] }, { play: "KS", capture: ["2C", "JS"] }, { play: "6S", capture: [] }];
  const state = run(seated({ hand: ["KS", "6S", "QS"], to_move: 0 }), { type: "your_turn", turn: readYourTurn({ legal }), now: 0, wall: 0 });
  const w = wording(state);
  assert.deepEqual(activate(state, w, "6S", false), [{ do: "act", action: { play: "6S", capture: [] } }]);
  const [choice] = activate(state, w, "KS", false);
  assert.equal(choice.do === "state" && choice.message.type === "choose" && choice.message.choice.options.length, 2);
  assert.deepEqual(activate(state, w, "QS", false), [{ do: "state", message: { type: "status", status: { say: "cannot_play", card: "QS" } } }]);
  const idle = seated({ hand: ["KS"], to_move: 1 });
  assert.deepEqual(activate(idle, wording(idle), "KS", false),
    [{ do: "state", message: { type: "status", status: { say: "text", key: "table.status.not_your_turn" } } }]);
});

test("Dou Dizhu: clicks select, Enter plays the selection, H hints, Escape clears", () => {
  const room = { ...ROOM, game: "doudizhu", seats: [{}, {}, {}] };
  const legal = [{ combo: "pair", cards: ["5C", "5D"] }, { combo: "single", cards: ["5C"] }, { pass: true }];
  let state = run(seated({ hand: ["5C", "5H", "9S"], to_move: 0, table: null }, room),
    { type: "your_turn", turn: readYourTurn({ legal }), now: 0, wall: 0 });
  let w = wording(state);
  assert.deepEqual(activate(state, w, "5H", false), [{ do: "state", message: { type: "toggle", code: "5H" } }]);
  state = run(state, { type: "toggle", code: "5H" }, { type: "toggle", code: "5C" });
  assert.deepEqual(activate(state, w, "5H", true), [{ do: "act", action: { combo: "pair", cards: ["5C", "5H"] } }],
    "the selection is played in the hand's order");
  assert.deepEqual(tableKey(state, w, "escape"), [{ do: "state", message: { type: "clear" } }]);
  assert.deepEqual(tableKey(state, w, "p"), [{ do: "act", action: { pass: true } }]);
  assert.equal(tableKey(state, w, "z"), null);
  state = run(state, { type: "clear" }, { type: "toggle", code: "9S" });
  assert.deepEqual(activate(state, w, "9S", true), [{ do: "state", message: { type: "status", status: { say: "why_not", cards: ["9S"] } } }]);
  assert.deepEqual(hint(state, w), [{ do: "state", message: { type: "select", cards: ["5C", "5D"] } }, { do: "focus" }]);
  const hinted = run(state, { type: "select", cards: ["5C"] });
  assert.deepEqual([hinted.selected, hinted.focus], [["5C"], "5C"]);
  state = run(seated({ hand: ["3C"], to_move: 0 }, room), { type: "your_turn", turn: readYourTurn({ legal: [{ pass: true }] }), now: 0, wall: 0 });
  w = wording(state);
  assert.deepEqual(hint(state, w), [{ do: "state", message: { type: "only_pass" } }]);
  assert.deepEqual(run(state, { type: "toggle", code: "3C" }, { type: "only_pass" }).selected, []);
});

test("the arrow keys move among the cards the keyboard stops on, round the hand", () => {
  const legal = [{ play: "AS" }, { play: "7D" }];
  const state = run(seated({ hand: ["AS", "KS", "7D"], to_move: 0 }, { ...ROOM, game: "briscola" }),
    { type: "your_turn", turn: readYourTurn({ legal }), now: 0, wall: 0 });
  const w = wording(state);
  const codes = ["AS", "KS", "7D"];
  const usable = (/** @type {string} */ c) => c !== "KS";
  assert.deepEqual(handKey(state, w, "ArrowRight", codes, "AS", usable), [{ do: "move", code: "7D" }]);
  assert.deepEqual(handKey(state, w, "ArrowRight", codes, "7D", usable), [{ do: "move", code: "AS" }]);
  assert.deepEqual(handKey(state, w, "ArrowLeft", codes, "AS", usable), [{ do: "move", code: "7D" }]);
  assert.deepEqual(handKey(state, w, "End", codes, "AS", usable), [{ do: "move", code: "7D" }]);
  assert.deepEqual(handKey(state, w, "Enter", codes, "AS", usable), [{ do: "act", action: { play: "AS" } }]);
  assert.equal(handKey(state, w, "x", codes, "AS", usable), null);
});
