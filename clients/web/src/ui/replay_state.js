/**
 * A finished match step by step, as plain data: the `replay` answer read once
 * into every seat's view at every step (the start, then one frame per action,
 * built by applying each step's ops with the page's own `delta.js`, as the
 * table applies a live match's deltas), the position shown, the seat
 * followed, and for each person's move what the strong bot made of it.
 *
 * `reduce` moves the position (first, back, forward, last, a deal's start, any
 * step) and changes the seat followed; the render module (`replay.js`) draws
 * the followed seat's view with the game's own table and every other seat's
 * hand face up. Nothing here touches the page: the tests step through a replay
 * built from a real record under Node.
 */
import { applyDelta } from "../protocol/delta.js";

/**
 * @typedef {Record<string, any>} View
 * @typedef {{ name: string, kind: string, bot: string | null, deleted: boolean, guest: number | null }} ReplaySeat  (`guest`: a guest's number)
 * @typedef {{ deal: number, seat: number, action: Record<string, unknown> }} ReplayStep
 * @typedef {{ best: Record<string, unknown>, differs: boolean, forced: boolean }} Analysis
 *
 * @typedef {object} ReplayState
 * @property {string} record the record's id
 * @property {string} game
 * @property {string | null} deck
 * @property {ReplaySeat[]} seats
 * @property {View[][]} frames every seat's view after each number of steps (`frames[0]`: the start)
 * @property {ReplayStep[]} steps
 * @property {(Analysis | null)[]} analysis per step: the strong bot's view of a person's move, else null
 * @property {number[]} deals the deals in order
 * @property {number} at how many steps have been played (0: the start)
 * @property {number} follow the seat whose view the table shows
 *
 * @typedef {{ type: "first" } | { type: "last" } | { type: "forward" } | { type: "back" }
 *   | { type: "goto", at: number } | { type: "deal", deal: number } | { type: "follow", seat: number }
 *   | { type: "next_note" } | { type: "previous_note" }} ReplayMessage
 */

/** A replay the page cannot step through: its views or ops do not fit together. */
export class BadReplay extends Error {}

/**
 * The replay of a `replay` answer; throws `BadReplay` for one that does not step through.
 * @param {Record<string, unknown>} message
 * @param {{ follow?: number | null }} [options] the seat to follow first (the player's own, when known)
 * @returns {ReplayState}
 */
export function fromReplay(message, options = {}) {
  const record = /** @type {Record<string, unknown>} */ (isObject(message.record) ? message.record : {});
  const views = Array.isArray(message.views) ? message.views : [];
  const seatsData = Array.isArray(record.seats) ? record.seats : [];
  const players = views.length;
  if (!players || !views.every(isObject)) throw new BadReplay("a replay has every seat's view at the start");
  const seats = Array.from({ length: players }, (_, i) => seatOf(seatsData[i]));
  const rawSteps = Array.isArray(message.steps) ? message.steps : [];
  /** @type {View[][]} */
  const frames = [views.map((v) => /** @type {View} */ (v))];
  /** @type {ReplayStep[]} */
  const steps = [];
  for (const [index, raw] of rawSteps.entries()) {
    if (!isObject(raw)) throw new BadReplay(`step ${index + 1} is not a step`);
    const step = /** @type {Record<string, unknown>} */ (raw);
    const ops = Array.isArray(step.ops) ? step.ops : [];
    if (ops.length !== players) throw new BadReplay(`step ${index + 1} has no ops for every seat`);
    const before = frames[frames.length - 1];
    try {
      frames.push(before.map((view, seat) => /** @type {View} */ (applyDelta(view, /** @type {unknown[]} */ (ops[seat])))));
    } catch (error) {
      throw new BadReplay(`step ${index + 1} does not apply: ${error instanceof Error ? error.message : String(error)}`);
    }
    steps.push({
      deal: typeof step.deal === "number" ? step.deal : 0,
      seat: typeof step.seat === "number" ? step.seat : 0,
      action: isObject(step.action) ? /** @type {Record<string, unknown>} */ (step.action) : {},
    });
  }
  const notes = Array.isArray(message.analysis) ? message.analysis : [];
  const analysis = steps.map((_, i) => analysisOf(notes[i]));
  const deals = [...new Set(steps.map((s) => s.deal))];
  const preferred = options.follow;
  const follow = typeof preferred === "number" && preferred >= 0 && preferred < players
    ? preferred
    : Math.max(0, seats.findIndex((s) => s.kind === "human"));
  return {
    record: typeof message.record_id === "string" ? message.record_id : "",
    game: typeof record.game === "string" ? record.game : String(frames[0][0].game ?? ""),
    deck: typeof record.deck === "string" ? record.deck : null,
    seats,
    frames,
    steps,
    analysis,
    deals,
    at: 0,
    follow,
  };
}

/**
 * The replay after one move of the player's; the state passed in is never changed.
 * @param {ReplayState} state
 * @param {ReplayMessage} message
 * @returns {ReplayState}
 */
export function reduce(state, message) {
  const last = state.steps.length;
  /** @param {number} at */
  const to = (at) => {
    const clamped = Math.max(0, Math.min(last, Math.trunc(at)));
    return clamped === state.at ? state : { ...state, at: clamped };
  };
  switch (message.type) {
    case "first":
      return to(0);
    case "last":
      return to(last);
    case "forward":
      return to(state.at + 1);
    case "back":
      return to(state.at - 1);
    case "goto":
      return Number.isFinite(message.at) ? to(message.at) : state;
    case "deal": {
      const first = state.steps.findIndex((s) => s.deal === message.deal);
      return first < 0 ? state : to(first);
    }
    case "next_note": {
      const next = state.analysis.findIndex((a, i) => i >= state.at && a !== null && a.differs);
      return next < 0 ? state : to(next + 1);
    }
    case "previous_note": {
      let found = -1;
      state.analysis.forEach((a, i) => {
        if (i + 1 < state.at && a !== null && a.differs) found = i;
      });
      return found < 0 ? state : to(found + 1);
    }
    case "follow":
      return message.seat >= 0 && message.seat < state.seats.length && message.seat !== state.follow
        ? { ...state, follow: message.seat }
        : state;
    default:
      return state;
  }
}

/**
 * Every seat's view at the position shown.
 * @param {ReplayState} state
 */
export function viewsNow(state) {
  return state.frames[state.at];
}

/**
 * The step just played at the position shown (null at the start), its analysis, and
 * every seat's view just before it.
 * @param {ReplayState} state
 */
export function stepNow(state) {
  if (state.at === 0) return null;
  const index = state.at - 1;
  return { index, step: state.steps[index], analysis: state.analysis[index], before: state.frames[index] };
}

/**
 * The deal the position shown belongs to: the step just played's, else the first step's.
 * @param {ReplayState} state
 */
export function dealNow(state) {
  const step = state.steps[Math.max(0, state.at - 1)];
  return step ? step.deal : 0;
}

/**
 * How a person's move stands beside the strong bot's choice: "differs" (the bot would
 * have played another move, marked as lichess marks an inaccuracy), "agrees", "forced"
 * (the only legal move), or null for a move nobody analysed (a bot's).
 * @param {Analysis | null} analysis
 * @returns {"differs" | "agrees" | "forced" | null}
 */
export function mark(analysis) {
  if (!analysis) return null;
  if (analysis.forced) return "forced";
  return analysis.differs ? "differs" : "agrees";
}

/**
 * How many of a seat's moves the strong bot would have played otherwise, and how many were analysed.
 * @param {ReplayState} state
 * @param {number} seat
 */
export function tally(state, seat) {
  let analysed = 0;
  let differs = 0;
  state.steps.forEach((step, i) => {
    const a = state.analysis[i];
    if (step.seat !== seat || !a || a.forced) return;
    analysed += 1;
    if (a.differs) differs += 1;
  });
  return { analysed, differs };
}

/**
 * The public events a step's action makes, in the engines' form, so that the
 * table's own log sentences (table/words.js) word it: a card played, Scopa's
 * capture, Schnapsen's marriage, exchange and close, Dou Dizhu's bid, pass and play.
 * @param {string} game
 * @param {ReplayStep} step
 * @param {View} before the mover's view before the step
 * @returns {Record<string, unknown>[]}
 */
export function stepEvents(game, step, before) {
  const { seat, action } = step;
  if (game === "doudizhu") {
    if ("bid" in action) return [{ type: "bid", seat, bid: action.bid }];
    if (action.pass) return [{ type: "pass", seat }];
    return [{ type: "play", seat, combo: action.combo, cards: Array.isArray(action.cards) ? action.cards : [] }];
  }
  if (game === "schnapsen") {
    if ("exchange" in action) return [{ type: "exchange", seat, card: action.exchange, indicator: before.indicator }];
    if (action.close) return [{ type: "close", seat }];
    if (action.marriage && typeof action.play === "string") {
      const suit = action.play.slice(-1);
      return [{ type: "marriage", seat, suit, points: suit === before.trump ? 40 : 20 }, { type: "play", seat, card: action.play }];
    }
  }
  if (game === "scopa" && Array.isArray(action.capture) && action.capture.length) {
    return [{ type: "play", seat, card: action.play }, { type: "capture", seat, card: action.play, cards: action.capture }];
  }
  return "play" in action ? [{ type: "play", seat, card: action.play }] : [];
}

// ------------------------------------------------------------------ reading the network's data

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/**
 * @param {unknown} value
 * @returns {ReplaySeat}
 */
function seatOf(value) {
  const s = isObject(value) ? value : {};
  return {
    name: typeof s.name === "string" ? s.name : "",
    kind: s.kind === "human" ? "human" : "bot",
    bot: typeof s.bot === "string" ? s.bot : null,
    deleted: s.deleted === true,
    guest: typeof s.guest === "number" ? s.guest : null,
  };
}

/**
 * @param {unknown} value
 * @returns {Analysis | null}
 */
function analysisOf(value) {
  if (!isObject(value) || !isObject(value.best)) return null;
  return { best: value.best, differs: value.differs === true, forced: value.forced === true };
}
