// What the table knows, and how each message changes it: `reduce(state, message) → state`.
//
// Theory of operation. The table's state is plain data: the room, this seat,
// the view (already brought up to date by the view store), the moves offered,
// the cards selected, the log and chat, the status line, the open choice and
// the summaries waiting to be shown. `reduce` takes a state and one message —
// a server message read by `messages.js`, or an intent of the player's from
// `input.js` — and returns the next state, never changing the one passed in.
// Nothing here is in words: the log, the status and the summaries are kept as
// the data they are worded from (`Say`), so the page words them again in
// another language, and the tests read the state without a page. Clocks are
// passed in with the messages that start a turn timer.
//
// The sequence of snapshots and deltas is not checked here: the session
// delivers each once, in order, and a `your_turn` about a view the table no
// longer has never reaches it.

import { rememberEvents } from "./words.js";

/**
 * @typedef {import("../moves.js").View} View
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../moves.js").Option} Option
 * @typedef {import("../tables/index.js").Event} Event
 * @typedef {import("./messages.js").Room} Room
 * @typedef {import("./messages.js").Snapshot} Snapshot
 * @typedef {import("./messages.js").Delta} Delta
 * @typedef {import("./messages.js").YourTurn} YourTurn
 * @typedef {import("./messages.js").DealResult} DealResult
 * @typedef {import("./messages.js").MatchResult} MatchResult
 * @typedef {import("./messages.js").RematchVotes} RematchVotes
 * @typedef {import("./messages.js").ChatMessage} ChatMessage
 * @typedef {import("./messages.js").Refusal} Refusal
 *
 * @typedef {{say: "text", key: string}
 *   | {say: "opening"}
 *   | {say: "begins"}
 *   | {say: "events", game: string, events: Event[], memo: Record<string, unknown>}
 *   | {say: "rematch_asked", asked: number[]}
 *   | {say: "rematch_waiting", waiting: number[]}
 *   | {say: "cannot_play", card: string}
 *   | {say: "why_not", cards: string[]}
 *   | {say: "refused", code: string, message: string}
 *   | {say: "match_over", winner: number | null}} Say
 *   words to be: the page words each in the player's language when it draws it
 * @typedef {{kind: string, say: Say}} LogEntry  one entry of the log (events: all the lines of one delta)
 * @typedef {{seat: number | null, name: string, text: string, guest?: number | null}} ChatLine  (`guest`: the sender's guest number)
 * @typedef {{deadline: number, total: number, mine: boolean}} Timer  the running turn timer (page clock, ms)
 * @typedef {{kind: "deal", event: Event, number: number} | {kind: "match", result: MatchResult}} Summary
 * @typedef {{title: string, options: Option[]}} Choice  the ways a card or a selection can be played
 * @typedef {{
 *   game: string, seat: number | null, room: Room, view: View, result: MatchResult | null,
 *   lastDealEnd: Event | null, memo: Record<string, unknown>, log: LogEntry[], chat: ChatLine[],
 *   legal: Action[], sent: Action[] | null, selected: string[], focus: string | null,
 *   status: Say | null, rematch: Say | null, timer: Timer | null, summaries: Summary[], choice: Choice | null,
 *   rating: RatingMove | null, announce: Say | null,
 * }} TableState
 *   `announce`: what the screen reader's live region says now (a new object each time it is to be
 *   read out, also when the words are the same as the last ones); null: nothing
 * @typedef {{record: string, before: number, after: number, deviation: number}} RatingMove
 *   the player's rating before and after the match just over (a rated match, once written)
 *
 * @typedef {{type: "snapshot", snapshot: Snapshot, now: number}
 *   | {type: "delta", delta: Delta, view: View, now: number}
 *   | {type: "your_turn", turn: YourTurn, now: number, wall: number}
 *   | {type: "deal_result", result: DealResult}
 *   | {type: "match_result", result: MatchResult}
 *   | {type: "rematch_votes", votes: RematchVotes}
 *   | {type: "chat_message", line: ChatMessage}
 *   | {type: "refused", error: Refusal}
 *   | {type: "toggle", code: string}
 *   | {type: "select", cards: string[]}
 *   | {type: "clear"}
 *   | {type: "focus", code: string | null}
 *   | {type: "status", status: Say | null}
 *   | {type: "only_pass"}
 *   | {type: "choose", choice: Choice}
 *   | {type: "choice_closed"}
 *   | {type: "summary_closed"}
 *   | {type: "sent"}
 *   | {type: "rematch_asked"}
 *   | {type: "rating_change", change: RatingMove}
 *   | {type: "restore_log", log: LogEntry[], memo: Record<string, unknown>}} TableMessage
 *   `restore_log`: the log this room's table had before the page was loaded again
 */

/** How many log entries the table keeps (the oldest go first). */
export const LOG_LINES = 300;
/** How many chat lines the table keeps. */
export const CHAT_LINES = 100;
/** Refusals after which a move can be tried again: the moves offered are given back. */
export const RETRY_CODES = ["illegal_action", "not_your_turn", "bad_action", "bad_card", "rate_limited", "internal_error"];

/**
 * The table of a room just opened: nothing seen yet but the opening line.
 * @param {{game?: string, seat?: number | null, room?: Room | null}} start
 * @returns {TableState}
 */
export function initialState(start) {
  const room = start.room || { seats: [] };
  return {
    game: start.game || room.game || "",
    seat: start.seat ?? null,
    room,
    view: {},
    result: null,
    lastDealEnd: null,
    memo: {},
    log: [{ kind: "event", say: { say: "opening" } }],
    chat: [],
    legal: [],
    sent: null,
    selected: [],
    focus: null,
    status: null,
    rematch: null,
    timer: null,
    summaries: [],
    choice: null,
    rating: null,
    announce: null,
  };
}

/**
 * @param {LogEntry[]} log
 * @param {LogEntry} entry
 */
function logged(log, entry) {
  const out = [...log, entry];
  return out.length > LOG_LINES ? out.slice(out.length - LOG_LINES) : out;
}

/**
 * The turn timer of another seat's turn, when the room has one; ours runs on,
 * and none runs when the match is over or no one is to move.
 * @param {TableState} state
 * @param {number} now the page clock, ms
 * @returns {Timer | null}
 */
export function otherTimer(state, now) {
  const seconds = Number(state.room.turn_seconds) || 0;
  const mover = state.view.to_move;
  if (!seconds || state.result || mover === null || mover === undefined || mover === state.seat) {
    return state.timer && state.timer.mine && mover === state.seat ? state.timer : null;
  }
  return { deadline: now + seconds * 1000, total: seconds, mine: false };
}

/**
 * Our turn's timer from the server's deadline (wall clock, s), kept within the room's turn length.
 * @param {Room} room
 * @param {number | null} deadline
 * @param {number} now the page clock, ms
 * @param {number} wall the wall clock, s
 * @returns {Timer | null}
 */
function ourTimer(room, deadline, now, wall) {
  if (deadline === null) return null;
  const turnSeconds = Number(room.turn_seconds) || 0;
  let left = deadline - wall;
  // the two clocks may disagree: the room's turn length bounds what is left
  if (turnSeconds && (left > turnSeconds || left < -1)) left = turnSeconds;
  return { deadline: now + Math.max(0, left) * 1000, total: turnSeconds || Math.max(left, 1), mine: true };
}

/**
 * The cards of the hand in the view.
 * @param {View} view
 * @returns {string[]}
 */
export function handOf(view) {
  return Array.isArray(view.hand) ? view.hand : [];
}

/**
 * @param {TableState} state
 * @param {Snapshot} msg
 * @param {number} now
 * @returns {TableState}
 */
function snapshot(state, msg, now) {
  const incoming = msg.room;
  const newMatch = state.result !== null && incoming !== null && incoming.state === "playing";
  const started = state.room.state === "waiting" && incoming !== null && incoming.state === "playing";
  const room = incoming || state.room;
  /** @type {TableState} */
  let next = {
    ...state,
    room,
    game: room.game || state.game,
    seat: msg.seat,
    view: msg.view,
    legal: [],
    sent: null,
    timer: null,
    selected: [],
    announce: null,
  };
  if (newMatch) {
    next = {
      ...next, result: null, lastDealEnd: null, memo: {}, rematch: null, status: null, rating: null,
      log: logged(next.log, { kind: "event", say: { say: "text", key: "table.match.new" } }),
    };
  } else if (started) {
    next = { ...next, log: logged(next.log, { kind: "event", say: { say: "begins" } }) };
  }
  return { ...next, timer: otherTimer(next, now) };
}

/**
 * @param {TableState} state
 * @param {Delta} msg
 * @param {View} view the view with the delta applied
 * @param {number} now
 * @returns {TableState}
 */
function delta(state, msg, view, now) {
  const mover = state.view.to_move;
  const hand = handOf(view);
  /** @type {TableState} */
  let next = {
    ...state,
    view,
    legal: [], // a move was made: ours, or the timer's
    sent: null,
    status: null,
    announce: null, // "your turn" is said no more once the move is made
    selected: state.selected.filter((c) => hand.includes(c)),
  };
  const events = msg.events;
  for (const event of events) {
    if (event.type === "deal_end") next.lastDealEnd = { ...event };
  }
  if (events.length) {
    // the sentences are worded from the events and what the log remembered before them
    next.log = logged(next.log, { kind: "event", say: { say: "events", game: state.game, events, memo: state.memo } });
    next.memo = rememberEvents(state.game, state.memo, events);
  }
  if (view.to_move !== mover || state.timer?.mine) next.timer = otherTimer(next, now);
  return next;
}

/**
 * The next state after one message; the state passed in is left as it was.
 * @param {TableState} state
 * @param {TableMessage} message
 * @returns {TableState}
 */
export function reduce(state, message) {
  switch (message.type) {
    case "snapshot":
      return snapshot(state, message.snapshot, message.now);
    case "delta":
      return delta(state, message.delta, message.view, message.now);
    case "your_turn":
      return {
        ...state, legal: message.turn.legal.map((a) => ({ ...a })), sent: null, status: null,
        announce: { say: "text", key: "table.your_turn" },
        timer: ourTimer(state.room, message.turn.deadline, message.now, message.wall),
      };
    case "deal_result": {
      // the deal_end event came just before, with fields a deal_result leaves out
      // (Dou Dizhu's winning side, Schnapsen's counts)
      const r = message.result;
      const event = { points: r.points, detail: r.detail, totals: r.totals, ...(state.lastDealEnd || {}) };
      return { ...state, lastDealEnd: null, summaries: [...state.summaries, { kind: "deal", event, number: r.deal + 1 }] };
    }
    case "match_result":
      return {
        ...state, result: message.result, legal: [], timer: null,
        announce: { say: "match_over", winner: message.result.winner },
        summaries: [...state.summaries, { kind: "match", result: message.result }],
      };
    case "rematch_votes": {
      const players = state.room.seats.length;
      const asked = message.votes.asked.filter((s) => s < players);
      const waiting = message.votes.waiting.filter((s) => s < players);
      if (state.seat !== null && waiting.includes(state.seat)) {
        /** @type {Say} */
        const say = { say: "rematch_asked", asked };
        return { ...state, rematch: say, log: logged(state.log, { kind: "event", say }) };
      }
      return { ...state, rematch: { say: "rematch_waiting", waiting } };
    }
    case "chat_message": {
      const { seat, name, text, guest } = message.line;
      const chat = [...state.chat, { seat, name, text, guest }];
      return { ...state, chat: chat.length > CHAT_LINES ? chat.slice(chat.length - CHAT_LINES) : chat };
    }
    case "refused": {
      const { code, message: text } = message.error;
      // a refused move: the same moves are offered again
      const retry = state.sent !== null && RETRY_CODES.includes(code);
      return {
        ...state,
        legal: retry && state.sent ? state.sent : state.legal,
        sent: retry ? null : state.sent,
        status: { say: "refused", code, message: text },
      };
    }
    case "toggle": {
      const has = state.selected.includes(message.code);
      const selected = has ? state.selected.filter((c) => c !== message.code) : [...state.selected, message.code];
      return { ...state, selected, status: null };
    }
    case "select":
      return { ...state, selected: [...message.cards], focus: message.cards[0] ?? state.focus, status: null };
    case "clear":
      return { ...state, selected: [] };
    case "focus":
      return { ...state, focus: message.code };
    case "status":
      return { ...state, status: message.status };
    case "only_pass":
      return { ...state, selected: [], status: { say: "text", key: "webtable.only_pass" } };
    case "choose":
      return { ...state, choice: message.choice };
    case "choice_closed":
      return { ...state, choice: null };
    case "summary_closed":
      return { ...state, summaries: state.summaries.slice(1) };
    case "sent":
      return { ...state, sent: state.legal, legal: [], selected: [], status: null, choice: null, announce: null };
    case "rematch_asked":
      return { ...state, rematch: { say: "text", key: "table.rematch.asking" } };
    case "restore_log":
      // only into a table that has seen nothing yet but its opening line
      if (state.log.length > 1) return state;
      return { ...state, log: message.log.slice(-LOG_LINES), memo: { ...message.memo } };
    case "rating_change":
      // only the match this table shows: a change of another room's match is not this table's
      if (state.result && state.result.record && state.result.record !== message.change.record) return state;
      return { ...state, rating: { ...message.change } };
    default:
      return state;
  }
}
