// The room's messages as the table reads them: each field checked and typed once, here.
//
// The table is given the server's messages as the codec decodes them (a map of
// unknown fields); these readers keep what the table uses, with the protocol's
// types (`protocol/messages.py`), and drop a field of the wrong type as the
// protocol's versioning rules allow. A view and the events of a delta are
// each game's own data (`View`, `Event`): the game modules read them.

/**
 * @typedef {import("../moves.js").View} View
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../tables/index.js").Event} Event
 * @typedef {Record<string, unknown>} Incoming  a server message as the codec decodes it
 * @typedef {{kind?: string, name?: string, bot?: string, guest?: number | null}} Seat  a seat of the room (`guest`: a guest's number)
 * @typedef {{
 *   room?: string, code?: string, game?: string, deck?: string, state?: string,
 *   owner?: string | null, public?: boolean, turn_seconds?: number, seats: Seat[],
 * }} Room
 * @typedef {{type: "snapshot", seq: number | null, seat: number | null, room: Room | null, view: View}} Snapshot
 * @typedef {{type: "delta", seq: number | null, events: Event[]}} Delta
 * @typedef {{type: "your_turn", legal: Action[], deadline: number | null}} YourTurn
 * @typedef {{type: "deal_result", deal: number, points?: unknown[], detail?: Record<string, unknown>, totals?: unknown[]}} DealResult
 * @typedef {{
 *   type: "match_result", winner: number | null, scores: number[], reason: string, record: string | null,
 * }} MatchResult
 * @typedef {{type: "rematch_votes", asked: number[], waiting: number[]}} RematchVotes
 * @typedef {{type: "chat_message", seat: number | null, name: string, text: string, guest?: number | null}} ChatMessage
 * @typedef {{type: "error", code: string, message: string}} Refusal
 */

/** @param {unknown} v */
const number = (v) => (typeof v === "number" ? v : null);
/** @param {unknown} v */
const string = (v) => (typeof v === "string" ? v : undefined);
/** @param {unknown} v */
const record = (v) => (v && typeof v === "object" && !Array.isArray(v) ? /** @type {import("../tables/index.js").GameData} */ (v) : null);
/** @param {unknown} v @returns {import("../tables/index.js").GameData[]} */
const records = (v) => (Array.isArray(v) ? v.filter((x) => record(x) !== null) : []);
/** @param {unknown} v @returns {number[]} */
const numbers = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === "number") : []);

/**
 * @param {unknown} data
 * @returns {Room | null}
 */
export function readRoom(data) {
  const room = record(data);
  if (!room) return null;
  /** @type {Room} */
  const out = {
    seats: (Array.isArray(room.seats) ? room.seats : []).map((s) => {
      const seat = record(s) || {};
      const guest = number(seat.guest); // a guest's number: the page names the seat by it
      const read = { kind: string(seat.kind), name: string(seat.name), bot: string(seat.bot) };
      return guest === null ? read : { ...read, guest };
    }),
  };
  for (const key of /** @type {const} */ (["room", "code", "game", "deck", "state"])) {
    const value = string(room[key]);
    if (value !== undefined) out[key] = value;
  }
  if ("owner" in room) out.owner = string(room.owner) ?? null;
  if (typeof room.public === "boolean") out.public = room.public;
  if (typeof room.turn_seconds === "number") out.turn_seconds = room.turn_seconds;
  return out;
}

/**
 * @param {Incoming} msg
 * @returns {Snapshot}
 */
export function readSnapshot(msg) {
  return { type: "snapshot", seq: number(msg.seq), seat: number(msg.seat), room: readRoom(msg.room), view: record(msg.view) || {} };
}

/**
 * @param {Incoming} msg
 * @returns {Delta}
 */
export function readDelta(msg) {
  return { type: "delta", seq: number(msg.seq), events: records(msg.events) };
}

/**
 * @param {Incoming} msg
 * @returns {YourTurn}
 */
export function readYourTurn(msg) {
  return { type: "your_turn", legal: records(msg.legal), deadline: number(msg.deadline) };
}

/**
 * @param {Incoming} msg
 * @returns {DealResult}
 */
export function readDealResult(msg) {
  /** @type {DealResult} */
  const out = { type: "deal_result", deal: number(msg.deal) ?? 0 };
  if (Array.isArray(msg.points)) out.points = msg.points;
  const detail = record(msg.detail);
  if (detail) out.detail = detail;
  if (Array.isArray(msg.totals)) out.totals = msg.totals;
  return out;
}

/**
 * @param {Incoming} msg
 * @returns {MatchResult}
 */
export function readMatchResult(msg) {
  return {
    type: "match_result",
    winner: number(msg.winner),
    scores: numbers(msg.scores),
    reason: String(msg.reason ?? ""),
    record: msg.record ? String(msg.record) : null,
  };
}

/**
 * @param {Incoming} msg
 * @returns {RematchVotes}
 */
export function readRematchVotes(msg) {
  return { type: "rematch_votes", asked: numbers(msg.asked), waiting: numbers(msg.waiting) };
}

/**
 * @param {Incoming} msg
 * @returns {ChatMessage}
 */
export function readChatMessage(msg) {
  return { type: "chat_message", seat: number(msg.seat), name: string(msg.name) || "", text: string(msg.text) || "", guest: number(msg.guest) };
}

/**
 * @param {Incoming} msg
 * @returns {Refusal}
 */
export function readRefusal(msg) {
  return { type: "error", code: String(msg.code || ""), message: String(msg.message || "") };
}
