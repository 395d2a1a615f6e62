// The game table: one room, from waiting for players to the match summary and rematches.
//
// What the table shows comes from the recipient's view (the snapshot, then each
// delta already applied by the view store) and the public events of each
// delta; a move can only be one of the `your_turn` list. The frame here is the
// same for every game: seats with names, bot levels and card counts, whose
// turn it is and the turn timer, the scores, the running log, deal and match
// summaries, rematch votes and chat. Each game's module (`tables/*.js`) words
// its board, its log sentences and its scoring.
//
// Playing: click or tap a card to play it; a choice follows when the card can
// be played several ways. In Dou Dizhu cards are selected and then played
// together. By keyboard: the arrow keys (and Home/End) move among the hand's
// cards, Enter plays the card (Dou Dizhu: plays the selection), Space selects
// in Dou Dizhu, and the actions that play no card have keys of their own (shown
// on their buttons); in a choice, the number keys pick and Escape closes.

import { backSvg, cardSvg, suitSvg } from "../cards/cards.js";
import { displaySafe, h, replaceChildren, svgFragment } from "./dom.js";
import { MoveMenu, Names, signed, whole } from "./moves.js";
import briscola from "./tables/briscola.js";
import doudizhu from "./tables/doudizhu.js";
import schnapsen from "./tables/schnapsen.js";
import scopa from "./tables/scopa.js";

/**
 * @typedef {import("./moves.js").Translate} Translate
 * @typedef {import("./moves.js").Option} Option
 * @typedef {Record<string, any>} View
 * @typedef {Record<string, any>} Event
 * @typedef {import("./tables/scopa.js").Breakdown} Breakdown
 * @typedef {{label: string, node: Node, main?: boolean}} Field
 * @typedef {{
 *   game: string,
 *   scoreLabel: string,
 *   seatFacts?: (names: Names, view: View, seat: number, facts: string[]) => string[],
 *   seatRole?: (names: Names, view: View, seat: number) => ({text: string, landlord: boolean} | null),
 *   board?: (names: Names, view: View, draw: any) => Field[],
 *   scores?: (names: Names, view: View, totals: string) => string,
 *   describe?: (names: Names, event: Event, following: Event | null, lines: string[], memo: Record<string, unknown>) => boolean,
 *   dealSummary?: (names: Names, event: Event, number: number, view: View) => Breakdown,
 *   matchSummary?: (names: Names, result: Event, view: View, out: Breakdown) => Breakdown,
 * }} GameModule
 * @typedef {{
 *   t: Translate, lang?: string, catalogue: any, game: string, deck?: string, suitSystem?: string,
 *   seat: number | null, room: any, send: (message: Record<string, unknown>) => unknown,
 *   cardName: (code: string) => string, onLeave: () => void, openRules: (game: string) => void,
 *   sessionId?: string | null,
 * }} TableContext
 */

/** @type {Record<string, GameModule>} */
const GAMES = { scopa, briscola, schnapsen, doudizhu };

/** @type {GameModule} */
const GENERIC = { game: "", scoreLabel: "summary.row.final_score" };

/** How many log lines the table keeps (the oldest go first). */
const LOG_LINES = 300;
/** How many chat lines the table keeps. */
const CHAT_LINES = 100;
/** The longest chat line the server takes. */
const CHAT_LENGTH = 200;
/** Refusals after which a move can be tried again: the moves offered are given back. */
const RETRY_CODES = ["illegal_action", "not_your_turn", "bad_action", "bad_card", "rate_limited", "internal_error"];
/** From how many cards a hand is drawn in two rows on a narrow screen. */
const MANY_CARDS = 12;
/** Seconds left on the turn timer from which it is shown as urgent. */
const URGENT_SECONDS = 5;

/**
 * The module of a game; a game this page does not know gets the generic table.
 * @param {string} game
 * @returns {GameModule}
 */
export function gameModule(game) {
  return GAMES[game] || GENERIC;
}

// ------------------------------------------------------------- the words

/**
 * The facts shown beside a seat's name: cards in hand, then the game's own.
 * @param {string} game
 * @param {Names} names
 * @param {View} view
 * @param {number} seat
 */
export function seatFacts(game, names, view, seat) {
  const counts = view.hand_counts || [];
  const facts = seat < counts.length ? [names.count("table.count.cards", counts[seat])] : [];
  const module = gameModule(game);
  return module.seatFacts ? module.seatFacts(names, view, seat, facts) : facts;
}

/**
 * The match standing, for the table's header.
 * @param {string} game
 * @param {Names} names
 * @param {View} view
 */
export function scoresText(game, names, view) {
  const totals = Array.isArray(view.totals) ? names.t("table.totals", { scores: names.perSeat(view.totals) }) : "";
  const module = gameModule(game);
  return module.scores ? module.scores(names, view, totals) : totals;
}

/**
 * Whose turn it is, in words.
 * @param {Names} names
 * @param {View} view
 */
export function turnText(names, view) {
  const mover = view.to_move;
  if (mover === null || mover === undefined) return view.result ? names.t("table.turn.over") : "";
  if (mover === names.seat) return names.t("table.your_turn");
  return names.t("table.turn.other", { name: names.who(mover) });
}

/**
 * Log sentences for the events of one delta.
 * @param {string} game
 * @param {Names} names
 * @param {Event[]} events
 * @param {Record<string, unknown>} memo what the game's log remembers from one delta to the next
 */
export function describeEvents(game, names, events, memo) {
  const module = gameModule(game);
  /** @type {string[]} */
  const lines = [];
  events.forEach((event, index) => {
    const following = index + 1 < events.length ? events[index + 1] : null;
    if (module.describe && module.describe(names, event, following, lines, memo)) return;
    if (event.type === "play" && "card" in event) {
      lines.push(names.t("log.play", { who: names.who(event.seat), card: names.card(event.card) }));
    } else if (event.type === "game_over") {
      lines.push(matchLine(names, event));
    }
  });
  return lines;
}

/**
 * @param {Names} names
 * @param {Event} event
 */
function matchLine(names, event) {
  const scores = (event.scores || []).join(", ");
  if (event.winner === null || event.winner === undefined) return names.t("log.match_over.shared", { scores });
  return names.t("log.match_over.winner", { who: names.who(event.winner), scores });
}

/**
 * The breakdown of a scored deal, from its `deal_end` event merged with the `deal_result`.
 * @param {string} game
 * @param {Names} names
 * @param {Event} event
 * @param {number} number the deal's number, counted from 1
 * @param {View} view
 * @returns {Breakdown}
 */
export function dealBreakdown(game, names, event, number, view) {
  const module = gameModule(game);
  if (module.dealSummary) return module.dealSummary(names, event, number, view);
  const t = names.t;
  /** @type {Breakdown} */
  const out = { title: t("summary.deal_scored", { number }), players: [...names.players], rows: [], notes: [] };
  out.rows.push({ label: t("summary.row.points"), cells: (event.points || []).map(signed) });
  if (Array.isArray(event.totals)) out.rows.push({ label: t("summary.row.match_totals"), cells: event.totals.map(String) });
  return out;
}

/**
 * The breakdown of the match: who won, the scores, why, and the record.
 * @param {string} game
 * @param {Names} names
 * @param {Event} result the `match_result` message
 * @param {View} view
 * @returns {Breakdown}
 */
export function matchBreakdown(game, names, result, view) {
  const t = names.t;
  const winner = result.winner;
  let title;
  if (winner === null || winner === undefined) title = t("summary.title.shared");
  else if (winner === names.seat) title = t("summary.title.you_win");
  else title = t("summary.title.wins", { name: names.who(winner) });
  const module = gameModule(game);
  /** @type {Breakdown} */
  const out = { title, players: [...names.players], rows: [], notes: [] };
  out.rows.push({ label: t(module.scoreLabel), cells: (result.scores || []).map(String) });
  const reason = String(result.reason ?? "");
  const target = typeof view.target === "number" ? view.target : String(view.target ?? "");
  const known = ["target", "points", "shared"].includes(reason);
  // a reason this page has no words for (a newer server) is shown as the server names it
  const why = known ? t(`summary.reason.${reason}`, { winner: names.who(winner), target }) : reason;
  out.notes.push(t("summary.why", { reason: why }));
  if (result.record) out.notes.push(t("summary.record", { record: String(result.record) }));
  return module.matchSummary ? module.matchSummary(names, result, view, out) : out;
}

// ------------------------------------------------------------ the page

/**
 * One card face as an element (a code the card module cannot draw is shown as its name).
 * @param {string} code
 * @param {string} suitSystem
 * @param {string} label
 * @param {string} [rankScheme] the pack's corner letters and court figures (the catalogue's `rank_scheme`)
 */
function face(code, suitSystem, label, rankScheme) {
  const holder = h("span", { className: "tv-face" });
  try {
    holder.append(svgFragment(cardSvg(code, suitSystem, rankScheme ? { label, rankScheme } : { label })));
  } catch {
    holder.classList.add("tv-face-text");
    holder.textContent = label;
  }
  return holder;
}

/** @param {string} label */
function back(label) {
  const holder = h("span", { className: "tv-face tv-back" });
  holder.append(svgFragment(backSvg({ label })));
  return holder;
}

/**
 * Hides an element's drawing from assistive technology (its owner names it).
 * @param {Element} element
 */
function silence(element) {
  for (const svg of element.querySelectorAll("svg")) svg.setAttribute("aria-hidden", "true");
  return element;
}

/**
 * Whether a keydown is typing into a field (the table's keys leave it alone).
 * @param {EventTarget | null} target
 */
function typing(target) {
  const element = /** @type {HTMLElement | null} */ (target);
  if (!element || !element.tagName) return false;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName) || element.isContentEditable;
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {TableContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.t = ctx.t;
    this.catalogue = ctx.catalogue;
    this.room = ctx.room || {};
    this.game = ctx.game || this.room.game || "";
    this.seat = ctx.seat ?? null;
    /** @type {View} */
    this.view = {};
    /** @type {number | null} */
    this.seq = null;
    /** @type {Event | null} */
    this.result = null;
    /** @type {Event | null} */
    this.lastDealEnd = null;
    /** @type {Record<string, unknown>} */
    this.memo = {};
    /** @type {{text: () => string, kind: string}[]} the log, as sentences to word again in another language */
    this.logLines = [];
    /** @type {{seat: number | null, name: string, text: string}[]} */
    this.chatLines = [];
    /** @type {Set<string>} Dou Dizhu: the cards selected to play together */
    this.selected = new Set();
    /** @type {string | null} the hand card the keyboard is on */
    this.focusCode = null;
    /** @type {(() => string) | null} */
    this.statusText = null;
    /** @type {(() => string) | null} */
    this.rematchText = null;
    /** @type {{deadline: number, total: number, mine: boolean} | null} the running turn timer (page clock, ms) */
    this.timer = null;
    /** @type {(() => HTMLElement)[]} summaries waiting for the one shown to close */
    this.summaryQueue = [];
    /** @type {(() => HTMLElement) | null} the summary on screen, to word again in another language */
    this.summaryShown = null;
    /** @type {MoveMenu | null} the moves offered when we last acted, given back if the server refuses */
    this.sent = null;
    this.names = this.makeNames();
    this.menu = this.noMoves();
    this.handKey = "";
    // the page's parts, made once; what they show changes with every message
    this.root.classList.add("tv");
    this.root.dataset.game = this.game;
    this.titleEl = h("h2", { className: "tv-title" });
    this.scoresEl = h("p", { className: "tv-scores" });
    this.timerText = h("span", { className: "tv-timer-text" });
    this.timerBar = h("span", { className: "tv-timer-bar" });
    this.timerEl = h("div", { className: "tv-timer", attrs: { hidden: true } }, this.timerText,
      h("span", { className: "tv-timer-track" }, this.timerBar));
    this.rulesButton = h("button", { className: "tv-button", attrs: { type: "button" }, on: { click: () => this.ctx.openRules(this.game) } });
    this.leaveButton = h("button", { className: "tv-button", attrs: { type: "button" }, on: { click: () => this.ctx.onLeave() } });
    this.bar = h("header", { className: "tv-bar" },
      h("div", { className: "tv-heading" }, this.titleEl, this.scoresEl),
      this.timerEl,
      h("div", { className: "tv-bar-buttons" }, this.rulesButton, this.leaveButton));

    this.seatsEl = h("ol", { className: "tv-seats" });
    this.boardEl = h("section", { className: "tv-board" });
    this.promptEl = h("p", { className: "tv-prompt" });
    this.statusEl = h("p", { className: "tv-status", attrs: { role: "status" } });
    this.actionsEl = h("div", { className: "tv-actions" });
    this.handLabel = h("span", { className: "tv-hand-label" });
    this.handEl = h("div", {
      className: "tv-hand",
      attrs: { role: "group" },
      on: { keydown: (/** @type {KeyboardEvent} */ e) => this.handKeys(e), click: (/** @type {MouseEvent} */ e) => this.handClick(e) },
    });
    this.handArea = h("section", { className: "tv-hand-area" }, this.handLabel, this.handEl);
    this.playArea = h("section", { className: "tv-play" },
      this.seatsEl, this.boardEl, this.promptEl, this.statusEl, this.actionsEl, this.handArea);

    this.logTitle = h("h3", { className: "tv-side-title" });
    this.logEl = h("ol", { className: "tv-log", attrs: { role: "log", "aria-live": "polite", tabindex: 0 } });
    this.chatTitle = h("h3", { className: "tv-side-title" });
    this.chatList = h("ol", { className: "tv-chat-lines", attrs: { "aria-live": "polite" } });
    this.chatInput = h("input", {
      className: "tv-chat-input",
      attrs: { type: "text", maxlength: CHAT_LENGTH, autocomplete: "off", enterkeyhint: "send" },
    });
    this.chatSend = h("button", { className: "tv-button", attrs: { type: "submit" } });
    this.chatForm = h("form", { className: "tv-chat-form", on: { submit: (/** @type {Event} */ e) => this.sendChat(e) } },
      this.chatInput, this.chatSend);
    this.side = h("aside", { className: "tv-side" },
      h("section", { className: "tv-log-box" }, this.logTitle, this.logEl),
      h("section", { className: "tv-chat" }, this.chatTitle, this.chatList, this.chatForm));

    this.announcer = h("p", { className: "visually-hidden", attrs: { "aria-live": "assertive" } });
    this.choiceDialog = h("dialog", { className: "tv-dialog tv-choice" });
    this.summaryDialog = h("dialog", { className: "tv-dialog tv-summary" });
    this.summaryDialog.addEventListener("close", () => this.nextSummary());
    this.choiceDialog.addEventListener("close", () => this.focusHand());

    this.onKey = (/** @type {KeyboardEvent} */ e) => this.tableKeys(e);
    this.root.addEventListener("keydown", this.onKey);
    replaceChildren(this.root, this.bar, h("div", { className: "tv-body" }, this.playArea, this.side),
      this.announcer, this.choiceDialog, this.summaryDialog);
    this.labels();
    this.addLog(() => this.t("table.opening", {
      game: this.gameName(),
      deck: this.deckName(),
      code: this.room.code || "?",
    }));
    this.render();
    this.ticker = setInterval(() => this.tick(), 250);
  }

  // ------------------------------------------------------------ naming

  makeNames() {
    const seats = this.room.seats || [];
    const players = seats.map((/** @type {any} */ s, /** @type {number} */ i) =>
      displaySafe(s && s.name ? s.name : this.t("table.seat", { number: i + 1 })));
    return new Names(this.t, (code) => this.cardName(code), players, this.seat);
  }

  /** @param {string} code */
  cardName(code) {
    const deck = this.deckData();
    const own = deck && deck.cards ? deck.cards[code] : undefined;
    if (typeof own === "string") return own;
    return (this.ctx.cardName && this.ctx.cardName(code)) || code;
  }

  deckData() {
    const deck = this.room.deck || this.ctx.deck;
    return (this.catalogue && this.catalogue.decks && deck && this.catalogue.decks[deck]) || null;
  }

  suitSystem() {
    const deck = this.deckData();
    return (deck && deck.suit_system) || this.ctx.suitSystem || "french";
  }

  /** @returns {string | undefined} */
  rankScheme() {
    const deck = this.deckData();
    return (deck && deck.rank_scheme) || undefined;
  }

  gameName() {
    const games = (this.catalogue && this.catalogue.games) || {};
    return games[this.game] || this.game;
  }

  deckName() {
    const deck = this.deckData();
    return (deck && deck.name) || this.t("table.cards.any");
  }

  /**
   * The words of a message key built from server data, when the catalogue has it.
   * @param {string} key
   */
  has(key) {
    const messages = (this.catalogue && this.catalogue.messages) || {};
    return Object.prototype.hasOwnProperty.call(messages, key);
  }

  /** @param {any} seat the room's seat entry */
  botLevel(seat) {
    if (!seat || seat.kind !== "bot") return "";
    const level = String(seat.bot || "");
    return level && this.has(`bots.level.${level}`) ? this.t(`bots.level.${level}`) : level;
  }

  noMoves() {
    return new MoveMenu(this.game, [], this.view, this.names);
  }

  /** The words of the table that do not change with the play. */
  labels() {
    const t = this.t;
    this.rulesButton.textContent = t("webtable.rules");
    this.leaveButton.textContent = t("webtable.leave");
    this.logTitle.textContent = t("webtable.log");
    this.logEl.setAttribute("aria-label", t("webtable.log"));
    this.chatTitle.textContent = t("webtable.chat");
    this.chatInput.setAttribute("placeholder", t("webtable.chat_placeholder"));
    this.chatInput.setAttribute("aria-label", t("webtable.chat_placeholder"));
    this.chatSend.textContent = t("webtable.chat_send");
    this.handLabel.textContent = t("webtable.hand");
    this.handEl.setAttribute("aria-label", t("webtable.hand"));
    this.seatsEl.setAttribute("aria-label", t("webtable.seats"));
    this.boardEl.setAttribute("aria-label", t("webtable.board"));
  }

  // ---------------------------------------------------------- messages

  /** @param {Record<string, any>} msg a `snapshot` */
  snapshot(msg) {
    const before = this.room.state;
    const newMatch = this.result !== null && msg.room && msg.room.state === "playing";
    const started = before === "waiting" && msg.room && msg.room.state === "playing";
    if (msg.room) this.room = msg.room;
    this.game = this.room.game || this.game;
    this.root.dataset.game = this.game;
    this.seat = msg.seat ?? null;
    this.view = msg.view && typeof msg.view === "object" ? msg.view : {};
    this.seq = typeof msg.seq === "number" ? msg.seq : null;
    this.names = this.makeNames();
    this.menu = this.noMoves();
    this.sent = null;
    this.timer = null;
    this.selected.clear();
    if (newMatch) {
      this.result = null;
      this.lastDealEnd = null;
      this.memo = {};
      this.rematchText = null;
      this.statusText = null;
      this.addLog(() => this.t("table.match.new"));
    } else if (started) {
      this.addLog(() => this.t("table.match.begins", { players: this.names.players.join(", ") }));
    }
    this.otherTimer();
    this.render();
  }

  /**
   * @param {Record<string, any>} msg a `delta`
   * @param {View} view the view with the delta applied
   */
  delta(msg, view) {
    const mover = this.view.to_move;
    this.view = view || {};
    if (typeof msg.seq === "number") this.seq = msg.seq;
    this.menu = this.noMoves(); // a move was made: ours, or the timer's
    this.sent = null;
    this.statusText = null;
    const events = Array.isArray(msg.events) ? msg.events : [];
    for (const event of events) {
      if (event.type === "deal_end") this.lastDealEnd = { ...event };
    }
    if (events.length) {
      const memo = this.memo;
      const names = () => this.names;
      // the sentences are written once and worded again if the language changes
      const snapshotMemo = { ...memo };
      const lines = describeEvents(this.game, this.names, events, memo);
      lines.forEach((_, i) => this.addLog(() => describeEvents(this.game, names(), events, { ...snapshotMemo })[i] || ""));
    }
    if (this.view.to_move !== mover || this.timer?.mine) this.otherTimer();
    this.render();
  }

  /** @param {Record<string, any>} msg a `your_turn` */
  yourTurn(msg) {
    if (this.seq !== null && typeof msg.seq === "number" && msg.seq !== this.seq) return; // about a view we no longer have
    this.menu = new MoveMenu(this.game, msg.legal || [], this.view, this.names);
    this.sent = null;
    this.statusText = null;
    const turnSeconds = Number(this.room.turn_seconds) || 0;
    if (typeof msg.deadline === "number") {
      let left = msg.deadline - Date.now() / 1000;
      // the two clocks may disagree: the room's turn length bounds what is left
      if (turnSeconds && (left > turnSeconds || left < -1)) left = turnSeconds;
      this.timer = { deadline: performance.now() + Math.max(0, left) * 1000, total: turnSeconds || Math.max(left, 1), mine: true };
    } else {
      this.timer = null;
    }
    this.announce(this.t("table.your_turn"));
    this.render();
    // the hand takes the focus unless the player is busy elsewhere (typing a chat line, in the page's menus)
    const active = document.activeElement;
    if (!active || active === document.body || active.contains(this.root) || this.playArea.contains(active)) {
      this.focusHand();
    }
  }

  /** @param {Record<string, any>} msg a `deal_result` */
  dealResult(msg) {
    // the deal_end event came just before, with fields a deal_result leaves out
    // (Dou Dizhu's winning side, Schnapsen's counts)
    const event = { points: msg.points, detail: msg.detail, totals: msg.totals, ...(this.lastDealEnd || {}) };
    this.lastDealEnd = null;
    const number = whole(msg.deal) + 1;
    this.showSummary(() => this.summaryBody(dealBreakdown(this.game, this.names, event, number, this.view), "deal"));
  }

  /** @param {Record<string, any>} msg a `match_result` */
  matchResult(msg) {
    this.result = msg;
    this.menu = this.noMoves();
    this.timer = null;
    this.showSummary(() => this.summaryBody(matchBreakdown(this.game, this.names, msg, this.view), "match"));
    this.render();
  }

  /** @param {Record<string, any>} msg a `rematch_votes` */
  rematchVotes(msg) {
    const asked = (msg.asked || []).filter((/** @type {number} */ s) => s < this.names.players.length);
    const waiting = (msg.waiting || []).filter((/** @type {number} */ s) => s < this.names.players.length);
    const list = (/** @type {number[]} */ seats) => seats.map((s) => this.names.who(s)).join(", ");
    if (this.seat !== null && waiting.includes(this.seat)) {
      this.rematchText = () => this.t("table.rematch.asked", { names: list(asked), count: asked.length });
      this.addLog(this.rematchText);
    } else {
      this.rematchText = () => this.t("table.rematch.waiting", { names: list(waiting) });
    }
    this.render();
  }

  /** @param {Record<string, any>} msg a `chat_message` */
  chatMessage(msg) {
    this.chatLines.push({ seat: msg.seat ?? null, name: displaySafe(msg.name || ""), text: displaySafe(msg.text || "") });
    if (this.chatLines.length > CHAT_LINES) this.chatLines.shift();
    this.renderChat();
  }

  /** @param {Record<string, any>} error an `error` refusing one of our requests */
  refused(error) {
    if (this.sent && RETRY_CODES.includes(String(error.code))) {
      // the move was refused: the same moves are offered again
      this.menu = this.sent;
      this.sent = null;
    }
    const code = String(error.code || "");
    const message = String(error.message || "");
    this.statusText = () => {
      const reason = this.has(`errors.${code}`) ? this.t(`errors.${code}`) : displaySafe(message);
      return this.t("table.status.refused", { reason });
    };
    this.render();
  }

  /**
   * @param {Translate} t
   * @param {any} catalogue
   */
  setLanguage(t, catalogue) {
    this.t = t;
    this.ctx = { ...this.ctx, t, catalogue };
    this.catalogue = catalogue;
    const legal = this.menu.legal;
    this.names = this.makeNames();
    this.menu = new MoveMenu(this.game, legal, this.view, this.names);
    this.handKey = "";
    this.labels();
    this.renderLog();
    this.render();
    if (this.summaryDialog.open && this.summaryShown) replaceChildren(this.summaryDialog, this.summaryShown());
  }

  destroy() {
    clearInterval(this.ticker);
    this.root.removeEventListener("keydown", this.onKey);
    for (const dialog of [this.choiceDialog, this.summaryDialog]) {
      if (dialog.open) dialog.close();
    }
    this.summaryQueue = [];
    this.root.textContent = "";
    this.root.classList.remove("tv");
  }

  // ----------------------------------------------------------- drawing

  render() {
    const waiting = this.room.state === "waiting" || !Object.keys(this.view).length;
    this.root.classList.toggle("tv-waiting", waiting);
    this.root.classList.toggle("tv-spectator", this.seat === null);
    this.titleEl.textContent = [
      this.gameName(),
      this.deckName(),
      this.t("table.title.room", { code: this.room.code || "?" }),
    ].join(" · ");
    this.scoresEl.textContent = waiting ? "" : scoresText(this.game, this.names, this.view);
    this.renderSeats(waiting);
    if (waiting) this.renderWaiting();
    else this.renderBoard();
    this.renderPrompt(waiting);
    this.statusEl.textContent = this.statusText ? this.statusText() : this.rematchText ? this.rematchText() : "";
    this.renderActions(waiting);
    this.renderHand();
    this.tick();
  }

  /** @param {boolean} waiting */
  renderSeats(waiting) {
    const seats = this.room.seats || [];
    const view = this.view;
    const module = gameModule(this.game);
    const items = [];
    const order = seats.map((/** @type {any} */ _, /** @type {number} */ i) => i);
    // the player's own seat last, next to the hand
    if (this.seat !== null) order.push(...order.splice(0, this.seat + 1));
    for (const i of order) {
      const seat = seats[i] || {};
      const mine = i === this.seat;
      const name = this.names.who(i);
      const active = !waiting && view.to_move === i;
      const level = this.botLevel(seat);
      const facts = waiting ? [] : seatFacts(this.game, this.names, view, i);
      const role = !waiting && module.seatRole ? module.seatRole(this.names, view, i) : null;
      if (role) facts.shift(); // shown as a badge
      const count = whole((view.hand_counts || [])[i]);
      const fan = !mine && !waiting && count ? this.fan(name, count) : null;
      const badges = [];
      if (level) {
        // the level alone in sight, the whole phrase for a screen reader and on hover
        const full = this.t("webtable.bot", { level });
        badges.push(h("span", { className: "tv-badge tv-bot", attrs: { title: full } },
          h("span", { className: "visually-hidden", text: full }),
          h("span", { attrs: { "aria-hidden": "true" }, text: `⚙ ${level}` })));
      }
      if (role) badges.push(h("span", { className: `tv-badge ${role.landlord ? "tv-landlord" : "tv-peasant"}`, text: role.text }));
      items.push(h("li", {
        className: `tv-seat${mine ? " tv-mine" : ""}${active ? " tv-active" : ""}`,
        attrs: { "aria-current": active ? "true" : null },
      },
      h("div", { className: "tv-seat-head" },
        h("strong", { className: "tv-seat-name" },
          active ? h("span", { className: "tv-turn-mark", attrs: { "aria-hidden": "true" }, text: "▶ " }) : null,
          mine ? this.t("table.you", { name }) : name),
        ...badges),
      facts.length ? h("span", { className: "tv-seat-facts", text: facts.join(" · ") }) : null,
      active ? h("span", { className: "visually-hidden", text: turnText(this.names, view) }) : null,
      fan));
    }
    replaceChildren(this.seatsEl, items);
  }

  /**
   * A seat's hidden hand as a small fan of card backs.
   * @param {string} name
   * @param {number} count
   */
  fan(name, count) {
    const label = this.t("webtable.opponent_hand", { name, count });
    const fan = h("span", { className: "tv-fan", attrs: { role: "img", "aria-label": label } });
    for (let i = 0; i < Math.min(count, 20); i++) fan.append(silence(back(label)));
    return fan;
  }

  renderWaiting() {
    const t = this.t;
    const seats = this.room.seats || [];
    const lines = seats.map((/** @type {any} */ seat, /** @type {number} */ i) => {
      const empty = seat && seat.kind === "bot" ? t("table.waiting.bot") : t("table.waiting.empty");
      const who = seat && seat.name ? displaySafe(seat.name) : empty;
      return h("li", { text: t("table.waiting.seat", { number: i + 1, who }) });
    });
    let how;
    if (this.canStart()) how = t("webtable.start_hint");
    else if (this.room.owner === null || this.room.owner === undefined) how = t("table.waiting.starts_when_full");
    else how = t("table.waiting.owner_starts");
    replaceChildren(this.boardEl,
      h("div", { className: "tv-waiting-box" },
        h("p", { className: "tv-waiting-title", text: t("table.waiting.title", { code: this.room.code || "?", public: this.room.public === false ? "no" : "yes" }) }),
        h("ul", { className: "tv-waiting-seats" }, lines),
        h("p", { text: how })));
  }

  canStart() {
    if (this.room.state !== "waiting" || !this.room.owner) return false;
    const me = this.ctx.sessionId;
    // without the session id the owner cannot be told: the button is offered and the server decides
    return me === undefined || me === null || me === this.room.owner;
  }

  /** The kit a game module draws its board with. */
  drawKit() {
    const system = this.suitSystem();
    /** @param {string} code @param {string} [caption] */
    const card = (code, caption) => h("figure", { className: "tv-table-card" },
      face(code, system, this.names.card(code), this.rankScheme()),
      caption ? h("figcaption", { text: caption }) : null);
    return {
      /** @param {string} text @param {string} [cls] */
      text: (text, cls) => h("span", { className: `tv-value${cls ? ` tv-${cls}` : ""}`, text }),
      /**
       * @param {string[]} codes
       * @param {{captions?: string[], small?: boolean, empty?: boolean, heading?: string}} [options]
       */
      cards: (codes, options = {}) => {
        const row = h("div", { className: `tv-cards${options.small ? " tv-small" : ""}` });
        codes.forEach((code, i) => row.append(card(code, options.captions ? options.captions[i] : "")));
        if (!codes.length && options.empty) row.append(h("span", { className: "tv-empty-spot", attrs: { "aria-hidden": "true" } }));
        if (!codes.length) row.append(h("span", { className: "visually-hidden", text: this.t("table.cards.nothing") }));
        if (options.heading) return h("div", { className: "tv-stack" }, h("span", { className: "tv-value", text: options.heading }), row);
        return row;
      },
      /** @param {unknown} count @param {string} text */
      pile: (count, text) => h("div", { className: "tv-pile" },
        whole(count) ? silence(back(text)) : null,
        h("span", { className: "tv-value", text })),
      /** @param {unknown} count @param {string} text @param {string} indicator @param {string} turned */
      talon: (count, text, indicator, turned) => h("div", { className: "tv-pile tv-talon" },
        h("span", { className: "tv-talon-cards" },
          h("span", { className: "tv-indicator" }, face(indicator, system, `${turned} ${this.names.card(indicator)}`, this.rankScheme())),
          whole(count) ? silence(back(text)) : null),
        h("span", { className: "tv-value", text })),
      /** @param {string} letter @param {string} name */
      suit: (letter, name) => {
        const span = h("span", { className: "tv-suit" });
        try {
          span.append(silence(/** @type {any} */ (h("span", { className: "tv-suit-sign" }, svgFragment(suitSvg(letter, system, { label: name }))))));
        } catch {
          // a suit the drawings do not know is named only
        }
        span.append(h("span", { className: "tv-value", text: name }));
        return span;
      },
    };
  }

  renderBoard() {
    const module = gameModule(this.game);
    const fields = module.board ? module.board(this.names, this.view, this.drawKit()) : [];
    replaceChildren(this.boardEl, fields.map((f) => h("div", { className: `tv-field${f.main ? " tv-main" : ""}` },
      h("span", { className: "tv-field-label", text: f.label }), f.node)));
  }

  /** @param {boolean} waiting */
  renderPrompt(waiting) {
    const t = this.t;
    let text;
    if (this.result) text = t("webtable.over");
    else if (waiting) text = t("webtable.waiting");
    else if (this.seat === null) text = [t("webtable.spectating"), turnText(this.names, this.view)].filter(Boolean).join(" · ");
    else if (!this.menu.active) text = this.view.to_move === null || this.view.to_move === undefined ? "" : `${turnText(this.names, this.view)}…`;
    else if (this.menu.multi) text = t("table.prompt.your_turn", { moves: t("webtable.prompt.select") });
    else if ((this.view.hand || []).some((/** @type {string} */ c) => this.menu.playable(c))) {
      text = t("table.prompt.your_turn", { moves: t("webtable.prompt.pick") });
    } else if (this.menu.extras.some((e) => "bid" in e.action)) {
      text = t("table.prompt.your_turn", { moves: t("webtable.prompt.bid") });
    } else text = t("table.prompt.your_turn", { moves: this.names.either(this.menu.extras.map((e) => e.label)) });
    this.promptEl.textContent = text;
    this.promptEl.classList.toggle("tv-yours", this.menu.active);
    this.root.classList.toggle("tv-my-turn", this.menu.active);
  }

  /**
   * @param {string} label
   * @param {() => void} action
   * @param {{key?: string, primary?: boolean, disabled?: boolean}} [options]
   */
  button(label, action, options = {}) {
    /** @type {(string | Node)[]} */
    const children = [label];
    const key = options.key;
    if (key) children.push(" ", h("kbd", { text: key.toUpperCase(), attrs: { "aria-hidden": "true" } }));
    return h("button", {
      className: `tv-button${options.primary ? " tv-primary" : ""}`,
      attrs: { type: "button", "aria-keyshortcuts": key ? key.toUpperCase() : null, disabled: options.disabled || null },
      on: { click: action },
    }, ...children);
  }

  /** @param {boolean} waiting */
  renderActions(waiting) {
    const t = this.t;
    const buttons = [];
    if (waiting && this.canStart()) {
      buttons.push(this.button(t("webtable.start"), () => this.ctx.send({ type: "start" }), { primary: true }));
    }
    if (this.result) {
      if (this.seat !== null) buttons.push(this.button(t("webtable.rematch"), () => this.askRematch(), { primary: true }));
      buttons.push(this.button(t("webtable.lobby"), () => this.ctx.onLeave()));
    }
    /** @type {HTMLButtonElement[]} */
    this.selectionButtons = [];
    if (this.menu.multi) {
      const play = this.button(t("webtable.play_selected"), () => this.playSelection(), { primary: true, disabled: !this.selected.size });
      const clear = this.button(t("webtable.clear"), () => this.clearSelection(), { disabled: !this.selected.size });
      buttons.push(play, this.button(t("webtable.hint"), () => this.hint(), { key: "h" }), clear);
      this.selectionButtons = [play, clear];
    }
    for (const extra of this.menu.extras) {
      buttons.push(this.button(extra.label, () => this.sendAction(extra.action), { key: extra.key }));
    }
    replaceChildren(this.actionsEl, buttons);
  }

  renderHand() {
    const hand = this.seat === null ? [] : (Array.isArray(this.view.hand) ? this.view.hand : []);
    this.handArea.hidden = this.seat === null || this.root.classList.contains("tv-waiting");
    const key = `${this.suitSystem()}|${hand.join(" ")}`;
    if (key !== this.handKey) {
      this.handKey = key;
      for (const code of [...this.selected]) if (!hand.includes(code)) this.selected.delete(code);
      const cards = hand.map((/** @type {string} */ code) => silence(h("button", {
        className: "tv-card",
        attrs: { type: "button", "aria-label": this.names.card(code), tabindex: -1 },
        dataset: { code },
      }, face(code, this.suitSystem(), this.names.card(code), this.rankScheme()))));
      cards[cards.length - 1]?.classList.add("tv-last");
      // a long hand comes in two rows, which lie side by side where the screen is wide
      // enough (the stylesheet unwraps them) and one above the other on a phone
      const many = cards.length > MANY_CARDS;
      const half = Math.ceil(cards.length / 2);
      const rows = many
        ? [h("div", { className: "tv-hand-row" }, cards.slice(0, half)), h("div", { className: "tv-hand-row" }, cards.slice(half))]
        : cards;
      replaceChildren(this.handEl, cards.length ? rows : h("span", { className: "tv-empty-hand", text: this.t("table.hand.empty") }));
      this.handEl.classList.toggle("tv-many", many);
    }
    this.updateHand();
  }

  /** The hand's states: playable, selected, and which card the keyboard is on. */
  updateHand() {
    const buttons = this.cardButtons();
    if (!buttons.length) return;
    const codes = buttons.map((b) => b.dataset.code || "");
    if (!this.focusCode || !codes.includes(this.focusCode) || !this.usable(this.focusCode)) {
      this.focusCode = codes.find((c) => this.menu.active && this.menu.playable(c)) || this.focusCode || codes[0];
      if (!codes.includes(this.focusCode)) this.focusCode = codes[0];
    }
    // cards are dimmed only when some card can be played: while bidding none is, and none is dimmed
    const dimming = this.menu.active && codes.some((c) => this.menu.playable(c));
    for (const button of buttons) {
      const code = button.dataset.code || "";
      const playable = this.menu.active && this.menu.playable(code);
      button.classList.toggle("tv-playable", playable);
      button.classList.toggle("tv-unplayable", dimming && !playable);
      button.classList.toggle("tv-selected", this.selected.has(code));
      if (this.menu.multi) button.setAttribute("aria-pressed", String(this.selected.has(code)));
      else button.removeAttribute("aria-pressed");
      if (dimming && !playable) button.setAttribute("aria-disabled", "true");
      else button.removeAttribute("aria-disabled");
      button.tabIndex = code === this.focusCode ? 0 : -1;
    }
    // the selection's buttons follow the selection without drawing the row again
    for (const b of this.selectionButtons || []) b.disabled = !this.selected.size;
  }

  /**
   * Whether the keyboard stops on a card: while it is our turn, only on cards some move
   * uses (unless none is: then on every card, to read the hand).
   * @param {string} code
   */
  usable(code) {
    if (!this.menu.active || this.menu.playable(code)) return true;
    const hand = Array.isArray(this.view.hand) ? this.view.hand : [];
    return !hand.some((/** @type {string} */ c) => this.menu.playable(c));
  }

  cardButtons() {
    return /** @type {HTMLButtonElement[]} */ ([...this.handEl.querySelectorAll("button.tv-card")]);
  }

  focusHand() {
    const button = this.cardButtons().find((b) => b.dataset.code === this.focusCode);
    if (!button) return;
    button.focus({ preventScroll: true });
    // on a phone the hand lies below the board: bring it into sight, moving the page no more than needed
    const box = button.getBoundingClientRect();
    const height = button.ownerDocument.defaultView?.innerHeight ?? 0;
    if (height && (box.bottom > height || box.top < 0)) this.handEl.scrollIntoView({ block: "nearest" });
  }

  renderLog() {
    replaceChildren(this.logEl, this.logLines.map((l) => h("li", { className: `tv-log-${l.kind}`, text: l.text() })));
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  /**
   * @param {() => string} text
   * @param {string} [kind]
   */
  addLog(text, kind = "event") {
    this.logLines.push({ text, kind });
    if (this.logLines.length > LOG_LINES) {
      this.logLines.shift();
      this.logEl.firstElementChild?.remove();
    }
    this.logEl.append(h("li", { className: `tv-log-${kind}`, text: text() }));
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  renderChat() {
    replaceChildren(this.chatList, this.chatLines.map((line) => h("li", { className: "tv-chat-line" },
      h("strong", { text: line.name || this.names.who(line.seat) }), " ", line.text)));
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }

  /** @param {string} text */
  announce(text) {
    this.announcer.textContent = "";
    // a fresh text node is read out even when the words are the same as the last ones
    setTimeout(() => { this.announcer.textContent = text; }, 30);
  }

  /** Starts the turn timer of another seat's turn, when the room has one. */
  otherTimer() {
    const seconds = Number(this.room.turn_seconds) || 0;
    const mover = this.view.to_move;
    if (!seconds || this.result || mover === null || mover === undefined || mover === this.seat) {
      if (!this.timer || !this.timer.mine || mover !== this.seat) this.timer = null;
      return;
    }
    this.timer = { deadline: performance.now() + seconds * 1000, total: seconds, mine: false };
  }

  tick() {
    const timer = this.timer;
    if (!timer || this.result) {
      this.timerEl.hidden = true;
      return;
    }
    const left = Math.max(0, (timer.deadline - performance.now()) / 1000);
    const seconds = Math.ceil(left);
    this.timerEl.hidden = false;
    const text = this.t("table.title.left", { seconds });
    if (this.timerText.textContent !== text) this.timerText.textContent = text;
    this.timerEl.classList.toggle("tv-urgent", timer.mine && left <= URGENT_SECONDS);
    this.timerEl.classList.toggle("tv-mine", timer.mine);
    this.timerBar.style.width = `${Math.min(100, (left / timer.total) * 100)}%`;
  }

  // ------------------------------------------------------------ playing

  /** @param {MouseEvent} event */
  handClick(event) {
    const button = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest("button.tv-card"));
    if (!button) return;
    this.focusCode = button.dataset.code || null;
    this.activate(this.focusCode, false);
  }

  /** @param {KeyboardEvent} event */
  handKeys(event) {
    const buttons = this.cardButtons();
    const index = buttons.findIndex((b) => b.dataset.code === this.focusCode);
    const n = buttons.length;
    const code = (/** @type {number} */ i) => buttons[i].dataset.code || "";
    /** @type {number | null} */
    let next = null;
    /** @param {number} from @param {number} step the first usable card from `from` on, going by `step` */
    const seek = (from, step) => {
      for (let k = 0, i = from; k < n; k++, i = (i + step + n) % n) if (this.usable(code(i))) return i;
      return from;
    };
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = seek((index - 1 + n) % n, -1);
    else if (event.key === "ArrowRight" || event.key === "ArrowDown") next = seek((index + 1) % n, 1);
    else if (event.key === "Home") next = seek(0, 1);
    else if (event.key === "End") next = seek(n - 1, -1);
    if (next !== null && n) {
      event.preventDefault();
      this.focusCode = buttons[next].dataset.code || null;
      this.updateHand();
      buttons[next].focus();
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && index >= 0) {
      event.preventDefault();
      event.stopPropagation();
      this.activate(this.focusCode, event.key === "Enter");
    }
  }

  /**
   * A card was clicked or its key pressed.
   * @param {string | null} code
   * @param {boolean} enter the Enter key (Dou Dizhu: play the selection)
   */
  activate(code, enter) {
    if (!code) return;
    if (!this.menu.active) {
      this.status(() => (this.result ? this.t("webtable.over") : this.t("table.status.not_your_turn")));
      return;
    }
    if (this.menu.multi) {
      if (enter && this.selected.size) {
        this.playSelection();
        return;
      }
      if (this.selected.has(code)) this.selected.delete(code);
      else this.selected.add(code);
      this.statusText = null;
      this.statusEl.textContent = this.rematchText ? this.rematchText() : "";
      this.updateHand();
      return;
    }
    const options = this.menu.options(code);
    if (!options.length) {
      const card = this.names.card(code);
      const extras = this.menu.extras.map((e) => e.label);
      this.status(() => (extras.length
        ? this.t("webtable.cannot_play_or", { card, moves: this.names.either(extras) })
        : this.t("table.status.cannot_play", { card })));
      return;
    }
    this.choose(this.t("table.choose.way", { card: this.names.card(code) }), options);
  }

  /** @param {() => string} text */
  status(text) {
    this.statusText = text;
    this.statusEl.textContent = text();
  }

  playSelection() {
    const hand = Array.isArray(this.view.hand) ? this.view.hand : [];
    const chosen = hand.filter((/** @type {string} */ c) => this.selected.has(c));
    const options = this.menu.readings(chosen);
    if (!options.length) {
      const why = this.menu.whyNot(chosen);
      this.status(() => why);
      return;
    }
    this.choose(this.t("table.choose.reading"), options);
  }

  hint() {
    if (!this.menu.multi) return;
    const hand = Array.isArray(this.view.hand) ? this.view.hand : [];
    const next = this.menu.nextSuggestion(hand.filter((/** @type {string} */ c) => this.selected.has(c)));
    if (!next) {
      if (this.menu.extras.some((e) => e.action.pass)) {
        this.selected.clear();
        this.status(() => this.t("webtable.only_pass"));
        this.updateHand();
      }
      return;
    }
    this.selected = new Set(next);
    this.focusCode = next[0];
    this.statusText = null;
    this.statusEl.textContent = "";
    this.updateHand();
    this.focusHand();
  }

  clearSelection() {
    this.selected.clear();
    this.updateHand();
  }

  /**
   * One option is played at once; several open a choice.
   * @param {string} title
   * @param {Option[]} options
   */
  choose(title, options) {
    if (options.length === 1) {
      this.sendAction(options[0].action);
      return;
    }
    const dialog = this.choiceDialog;
    const titleId = `tv-choice-${Math.random().toString(36).slice(2, 8)}`;
    const list = h("ol", { className: "tv-options" }, options.map((option, i) => h("li", {},
      h("button", {
        className: "tv-button tv-option",
        attrs: { type: "button", "aria-keyshortcuts": i < 9 ? String(i + 1) : null },
        on: { click: () => { dialog.close(); this.sendAction(option.action); } },
      }, h("kbd", { text: String(i + 1), attrs: { "aria-hidden": "true" } }), " ",
      h("span", { className: "tv-option-label", text: option.label }),
      this.optionCards(option.action)))));
    replaceChildren(dialog,
      h("h2", { className: "tv-dialog-title", text: title, attrs: { id: titleId } }),
      list,
      h("p", { className: "tv-dialog-hint", text: this.t("webtable.choice_hint") }),
      h("div", { className: "tv-dialog-buttons" }, this.button(this.t("webtable.cancel"), () => dialog.close())));
    dialog.setAttribute("aria-labelledby", titleId);
    dialog.onkeydown = (event) => {
      const n = Number(event.key);
      if (Number.isInteger(n) && n >= 1 && n <= options.length) {
        event.preventDefault();
        dialog.close();
        this.sendAction(options[n - 1].action);
      }
    };
    this.openDialog(dialog);
    /** @type {HTMLElement | null} */ (list.querySelector("button"))?.focus();
  }

  /**
   * The cards a Scopa capture takes, drawn small beside its words, so that two
   * captures that differ by one card are told apart at a glance.
   * @param {Record<string, any>} action
   */
  optionCards(action) {
    const taken = Array.isArray(action.capture) ? action.capture : [];
    if (!taken.length) return null;
    const row = h("span", { className: "tv-option-cards", attrs: { "aria-hidden": "true" } });
    for (const code of taken) row.append(silence(face(code, this.suitSystem(), this.names.card(code), this.rankScheme())));
    return row;
  }

  /** @param {HTMLDialogElement} dialog */
  openDialog(dialog) {
    if (dialog.open) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  /** @param {Record<string, unknown>} action */
  sendAction(action) {
    this.sent = this.menu;
    this.menu = this.noMoves();
    this.selected.clear();
    this.statusText = null;
    this.render();
    this.ctx.send({ type: "act", action: { ...action } });
  }

  askRematch() {
    this.rematchText = () => this.t("table.rematch.asking");
    this.ctx.send({ type: "rematch" });
    this.render();
  }

  /** @param {Event} event */
  sendChat(event) {
    event.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text) return;
    this.ctx.send({ type: "chat", text: text.slice(0, CHAT_LENGTH) });
    this.chatInput.value = "";
  }

  /** @param {KeyboardEvent} event */
  tableKeys(event) {
    if (event.defaultPrevented || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.choiceDialog.open || this.summaryDialog.open) return;
    const key = event.key.toLowerCase();
    const extra = this.menu.extraFor(key);
    if (extra) {
      event.preventDefault();
      this.sendAction(extra.action);
    } else if (key === "h" && this.menu.multi) {
      event.preventDefault();
      this.hint();
    } else if (key === "escape" && this.selected.size) {
      event.preventDefault();
      this.clearSelection();
    }
  }

  // ---------------------------------------------------------- summaries

  /** @param {() => HTMLElement} body */
  showSummary(body) {
    this.summaryQueue.push(body);
    if (!this.summaryDialog.open) this.nextSummary();
  }

  nextSummary() {
    const body = this.summaryQueue.shift();
    if (!body) {
      this.focusHand();
      return;
    }
    this.summaryShown = body;
    replaceChildren(this.summaryDialog, body());
    this.openDialog(this.summaryDialog);
    /** @type {HTMLElement | null} */ (this.summaryDialog.querySelector(".tv-primary"))?.focus();
  }

  /**
   * A summary's body: title, scoring table, notes and what to do next.
   * @param {Breakdown} breakdown
   * @param {"deal" | "match"} kind
   */
  summaryBody(breakdown, kind) {
    const t = this.t;
    const dialog = this.summaryDialog;
    const titleId = `tv-summary-${Math.random().toString(36).slice(2, 8)}`;
    dialog.setAttribute("aria-labelledby", titleId);
    const table = h("table", { className: "tv-breakdown" },
      h("thead", {}, h("tr", {}, h("td", {}), breakdown.players.map((p) => h("th", { text: p, attrs: { scope: "col" } })))),
      h("tbody", {}, breakdown.rows.map((row) => h("tr", {},
        h("th", { text: row.label, attrs: { scope: "row" } }),
        row.cells.map((cell) => h("td", { text: cell }))))));
    const buttons = [];
    if (kind === "deal") {
      buttons.push(this.button(t("webtable.continue"), () => dialog.close(), { primary: true }));
    } else {
      if (this.seat !== null) buttons.push(this.button(t("webtable.rematch"), () => { dialog.close(); this.askRematch(); }, { primary: true }));
      buttons.push(this.button(t("webtable.lobby"), () => { dialog.close(); this.ctx.onLeave(); }, { primary: this.seat === null }));
      buttons.push(this.button(t("webtable.look"), () => dialog.close()));
    }
    return h("div", { className: "tv-summary-body" },
      h("h2", { className: "tv-dialog-title", text: breakdown.title, attrs: { id: titleId } }),
      h("div", { className: "tv-breakdown-wrap" }, table),
      breakdown.notes.map((note) => h("p", { className: "tv-note", text: note })),
      h("div", { className: "tv-dialog-buttons" }, buttons));
  }
}
