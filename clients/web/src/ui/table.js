// The game table: one room, from waiting for players to the match summary and rematches.
//
// What the table shows comes from the recipient's view (the snapshot, then each
// delta already applied by the view store) and the public events of each
// delta; a move can only be one of the `your_turn` list. The frame here is the
// same for every game: seats with names, bot levels and card counts, whose
// turn it is and the turn timer, the scores, the running log, deal and match
// summaries, rematch votes and chat. Each game's module (`tables/*.js`) words
// its board, its log sentences, its moves and its scoring.
//
// The table is split as its parts change: `table/state.js` holds what it knows
// and `reduce`s each message into the next state; `table/render.js` and
// `table/dialogs.js` draw a state; `table/input.js` turns clicks and keys into
// intents; `table/words.js` words the shared sentences. `TableView` ties them
// to one room's page: it reads each message (`table/messages.js`), reduces it,
// draws the new state and carries out the player's intents.
//
// Playing: click or tap a card to play it; a choice follows when the card can
// be played several ways. In Dou Dizhu cards are selected and then played
// together. By keyboard: the arrow keys (and Home/End) move among the hand's
// cards, Enter plays the card (Dou Dizhu: plays the selection), Space selects
// in Dou Dizhu, and the actions that play no card have keys of their own (shown
// on their buttons); in a choice, the number keys pick and Escape closes.

import { displaySafe, replaceChildren } from "./dom.js";
import { MoveMenu } from "./moves.js";
import { Names } from "./names.js";
import { displayName } from "../protocol/names.js";
import { openDialog, showChoice, summaryBody } from "./table/dialogs.js";
import { activate, handKey, hint, playSelection, tableKey } from "./table/input.js";
import {
  readChatMessage, readDealResult, readDelta, readMatchResult, readRefusal, readRematchVotes, readRoom,
  readSnapshot, readYourTurn,
} from "./table/messages.js";
import {
  CHAT_LENGTH, appendLog, buildParts, cardButtons, focusedCard, render, renderChat, renderLabels, renderLog,
  statusText, tick, updateHand, usable,
} from "./table/render.js";
import { initialState, reduce } from "./table/state.js";
import { signedChange } from "./profile_state.js";
import { LOG_KEY, keepLog, keptLog, sessionStore } from "./table/kept_log.js";
import { dealBreakdown, matchBreakdown, sayLines } from "./table/words.js";

/**
 * @typedef {import("./names.js").Translate} Translate
 * @typedef {import("./moves.js").Action} Action
 * @typedef {import("./table/messages.js").Incoming} Incoming
 * @typedef {import("./table/messages.js").Seat} Seat
 * @typedef {import("./table/state.js").TableState} TableState
 * @typedef {import("./table/state.js").TableMessage} TableMessage
 * @typedef {import("./table/state.js").Summary} Summary
 * @typedef {import("./table/input.js").Intent} Intent
 * @typedef {import("./table/render.js").Look} Look
 * @typedef {{
 *   decks?: Record<string, {
 *     cards?: Record<string, string>, suit_system?: string, rank_scheme?: string, name?: string,
 *     ranks?: Record<string, string>, rank_words?: Record<string, string>, indices?: Record<string, string>,
 *   }>,
 *   games?: Record<string, string>, messages?: Record<string, unknown>,
 * }} Catalogue  what the table reads of the served catalogue
 * @typedef {{
 *   t: Translate, lang?: string, catalogue: Catalogue, game: string, deck?: string, suitSystem?: string,
 *   seat: number | null, room: unknown, send: (message: Record<string, unknown>) => unknown,
 *   cardName: (code: string) => string, onLeave: () => void, openRules: (game: string) => void,
 *   sessionId?: string | null, replay?: boolean,
 * }} TableContext  `replay`: a finished match seen from `seat`, which is not the viewer's own (replay.js)
 */

/** Messages that change only the hand's states and the status line: the rest of the page stays as drawn. */
const LIGHT = ["toggle", "select", "clear", "focus", "status", "only_pass", "choose", "choice_closed", "summary_closed"];

/**
 * Whether a keydown is typing into a field (the table's keys leave it alone).
 * @param {EventTarget | null} target
 */
function typing(target) {
  const element = /** @type {HTMLElement | null} */ (target);
  if (!element || !element.tagName) return false;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName) || element.isContentEditable;
}

/**
 * Lines read out as one text: each a sentence of its own.
 * @param {string[]} lines
 */
function sentences(lines) {
  return lines.reduce((out, line) => {
    if (!out) return line;
    return /[.!?…]$/.test(out) ? `${out} ${line}` : `${out}. ${line}`;
  }, "");
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {TableContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {TableState} */
    this.state = initialState({ game: ctx.game, seat: ctx.seat, room: readRoom(ctx.room) });
    /** @type {import("./table/state.js").LogEntry | null} the last log entry drawn */
    this.logDrawn = null;
    /** @type {TableState["chat"] | null} the chat lines drawn */
    this.chatDrawn = null;
    /** @type {Summary | null} the summary on screen */
    this.summaryShown = null;
    /** @type {import("./table/state.js").Say | null} what the live region was last given to say */
    this.announced = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} the live region's words about to be written */
    this.announcing = undefined;
    /** where the log is kept while the page is loaded again (a replay keeps none) */
    this.keeper = ctx.replay ? null : sessionStore(root.ownerDocument.defaultView);
    this.destroyed = false;
    /** @type {import("./table/render.js").Controls} */
    this.controls = {
      sendAction: (action) => this.sendAction(action),
      playSelection: () => this.perform(playSelection(this.state, this.look().wording)),
      hint: () => this.perform(hint(this.state, this.look().wording)),
      clearSelection: () => this.dispatch({ type: "clear" }),
      askRematch: () => this.askRematch(),
      start: () => this.ctx.send({ type: "start" }),
      leave: () => this.ctx.onLeave(),
      rules: () => this.ctx.openRules(this.state.game),
      sendChat: (event) => this.sendChat(event),
      handKeys: (event) => this.handKeys(event),
      handClick: (event) => this.handClick(event),
    };
    this.parts = buildParts(root, this.controls);
    this.parts.summaryDialog.addEventListener("close", () => this.dispatch({ type: "summary_closed" }));
    this.parts.choiceDialog.addEventListener("close", () => {
      if (this.state.choice) this.dispatch({ type: "choice_closed" });
      this.focusHand();
    });
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.tableKeys(e);
    this.root.addEventListener("keydown", this.onKey);
    renderLabels(this.parts, ctx.t);
    this.refresh(false);
    this.ticker = setInterval(() => tick(this.parts, this.state, this.ctx.t, performance.now()), 250);
  }

  // ------------------------------------------------------------ naming

  /** What drawing needs besides the state: the words, the names, the moves and the pack. */
  look() {
    const { t, catalogue } = this.ctx;
    const state = this.state;
    const deckId = state.room.deck || this.ctx.deck;
    const deck = (catalogue && catalogue.decks && deckId && catalogue.decks[deckId]) || null;
    /** @param {string} code */
    const cardName = (code) => {
      const own = deck && deck.cards ? deck.cards[code] : undefined;
      if (typeof own === "string") return own;
      return (this.ctx.cardName && this.ctx.cardName(code)) || code;
    };
    const players = state.room.seats.map((s, i) => displaySafe(displayName(s, { t, lang: this.ctx.lang }, i) || t("table.seat", { number: i + 1 })));
    const names = new Names(t, cardName, players, state.seat);
    const messages = (catalogue && catalogue.messages) || {};
    /** @param {string} key */
    const has = (key) => Object.prototype.hasOwnProperty.call(messages, key);
    const games = (catalogue && catalogue.games) || {};
    const me = this.ctx.sessionId;
    /** @type {Look} */
    const look = {
      wording: {
        t, names, has,
        menu: new MoveMenu(state.game, state.legal, state.view, names),
        gameName: games[state.game] || state.game,
        deckName: (deck && deck.name) || t("table.cards.any"),
        code: state.room.code || "?",
      },
      pack: {
        names,
        suitSystem: (deck && deck.suit_system) || this.ctx.suitSystem || "french",
        rankScheme: (deck && deck.rank_scheme) || undefined,
        indices: (deck && deck.indices) || undefined,
        ranks: (deck && deck.ranks) || undefined,
        rankWords: (deck && deck.rank_words) || undefined,
        nothing: t("table.cards.nothing"),
      },
      lang: this.ctx.lang,
      // without the session id the owner cannot be told: the button is offered and the server decides
      canStart: state.room.state === "waiting" && !!state.room.owner && (me === undefined || me === null || me === state.room.owner),
      replay: this.ctx.replay === true,
      botLevel: (/** @type {Seat} */ seat) => {
        if (seat.kind !== "bot") return "";
        const level = String(seat.bot || "");
        return level && has(`bots.level.${level}`) ? t(`bots.level.${level}`) : level;
      },
    };
    return look;
  }

  // ---------------------------------------------------------- messages

  /** @param {Incoming} msg a `snapshot` */
  snapshot(msg) {
    const snapshot = readSnapshot(msg);
    // the page loaded again at a table it had open: the log it showed comes back before the snapshot
    const kept = Object.keys(this.state.view).length ? null : keptLog(this.keeper, snapshot.room?.room);
    if (kept) this.dispatch({ type: "restore_log", log: kept.log, memo: kept.memo });
    this.dispatch({ type: "snapshot", snapshot, now: performance.now() });
  }

  /**
   * @param {Incoming} msg a `delta`
   * @param {import("./moves.js").View} view the view with the delta applied
   */
  delta(msg, view) {
    this.dispatch({ type: "delta", delta: readDelta(msg), view: view || {}, now: performance.now() });
  }

  /** @param {Incoming} msg a `your_turn` */
  yourTurn(msg) {
    this.dispatch({ type: "your_turn", turn: readYourTurn(msg), now: performance.now(), wall: Date.now() / 1000 });
    // the hand takes the focus unless the player is busy elsewhere (typing a chat line, in the page's menus)
    const active = document.activeElement;
    if (!active || active === document.body || active.contains(this.root) || this.parts.playArea.contains(active)) {
      this.focusHand();
    }
  }

  /** @param {Incoming} msg a `deal_result` */
  dealResult(msg) {
    this.dispatch({ type: "deal_result", result: readDealResult(msg) });
  }

  /** @param {Incoming} msg a `match_result` */
  matchResult(msg) {
    this.dispatch({ type: "match_result", result: readMatchResult(msg) });
  }

  /** @param {Incoming} msg a `rematch_votes` */
  rematchVotes(msg) {
    this.dispatch({ type: "rematch_votes", votes: readRematchVotes(msg) });
  }

  /** @param {Incoming} msg a `chat_message` */
  chatMessage(msg) {
    this.dispatch({ type: "chat_message", line: readChatMessage(msg) });
  }

  /**
   * The player's rating moved with the match just over: the match summary says so.
   * True when the summary on screen shows it (else the page tells the player another way).
   * @param {import("./table/state.js").RatingMove} change
   */
  ratingChange(change) {
    this.dispatch({ type: "rating_change", change });
    const shown = this.summaryShown;
    if (!this.state.rating || !shown || shown.kind !== "match" || !this.parts.summaryDialog.open) return false;
    this.fillSummary(shown);
    return true;
  }

  /** @param {Incoming} error an `error` refusing one of our requests */
  refused(error) {
    this.dispatch({ type: "refused", error: readRefusal(error) });
  }

  /**
   * @param {Translate} t
   * @param {Catalogue} catalogue
   */
  setLanguage(t, catalogue) {
    this.ctx = { ...this.ctx, t, catalogue };
    this.parts.handKey = "";
    renderLabels(this.parts, t);
    this.logDrawn = null;
    this.chatDrawn = null;
    this.refresh(false);
    if (this.parts.summaryDialog.open && this.summaryShown) this.fillSummary(this.summaryShown);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.ticker);
    clearTimeout(this.announcing);
    this.keeper?.removeItem(LOG_KEY); // the room is left (or another opened): its log goes with it
    this.root.removeEventListener("keydown", this.onKey);
    this.state = { ...this.state, summaries: [] };
    for (const dialog of [this.parts.choiceDialog, this.parts.summaryDialog]) {
      if (dialog.open) dialog.close();
    }
    this.root.textContent = "";
    this.root.classList.remove("tv");
  }

  // ----------------------------------------------------------- drawing

  /** @param {TableMessage} message */
  dispatch(message) {
    if (this.destroyed) return; // a dialog closed by `destroy` reports it after the page is gone
    const before = this.state;
    this.state = reduce(before, message);
    if (this.state.log !== before.log) keepLog(this.keeper, this.state);
    this.refresh(LIGHT.includes(message.type));
  }

  /**
   * Draws the state: the whole table, or (light) only the hand's states and the status line.
   * @param {boolean} light
   */
  refresh(light) {
    const look = this.look();
    const state = this.state;
    if (light) {
      this.parts.statusEl.textContent = statusText(state, look.wording);
      updateHand(this.parts, state, look);
    } else {
      render(this.parts, state, look, this.controls);
    }
    this.drawLog(look);
    if (this.chatDrawn !== state.chat) {
      this.chatDrawn = state.chat;
      renderChat(this.parts, state, look.wording);
    }
    this.drawDialogs(look);
    if (this.state.announce !== this.announced) {
      this.announced = this.state.announce;
      this.announce(this.announced ? sentences(sayLines(look.wording, this.announced)) : "");
    }
  }

  /** @param {Look} look */
  drawLog(look) {
    const log = this.state.log;
    const last = log[log.length - 1] || null;
    if (last === this.logDrawn) return;
    const at = this.logDrawn === null ? -1 : log.lastIndexOf(this.logDrawn);
    if (at < 0) renderLog(this.parts, this.state, look.wording);
    else appendLog(this.parts, log.slice(at + 1), look.wording);
    this.logDrawn = last;
  }

  /** @param {Look} look */
  drawDialogs(look) {
    const { choiceDialog, summaryDialog } = this.parts;
    const choice = this.state.choice;
    if (choice && !choiceDialog.open) {
      showChoice(choiceDialog, choice, look.pack, this.ctx.t, (action) => this.sendAction(action));
    } else if (!choice && choiceDialog.open) {
      choiceDialog.close();
    }
    const summary = this.state.summaries[0] || null;
    if (summary === this.summaryShown) return;
    this.summaryShown = summary;
    if (!summary) {
      this.focusHand();
      return;
    }
    if (summaryDialog.open) return; // shown when the one open now is closed
    this.fillSummary(summary);
    openDialog(summaryDialog);
    /** @type {HTMLElement | null} */ (summaryDialog.querySelector(".tv-primary"))?.focus();
  }

  /** @param {Summary} summary */
  fillSummary(summary) {
    const { wording } = this.look();
    const { t, names } = wording;
    const state = this.state;
    const breakdown = summary.kind === "deal"
      ? dealBreakdown(state.game, names, summary.event, summary.number, state.view)
      : matchBreakdown(state.game, names, summary.result, state.view);
    const record = summary.kind === "match" ? summary.result.record : null;
    const next = {
      seated: state.seat !== null, rematch: () => this.askRematch(), leave: () => this.ctx.onLeave(),
      replay: record ? `#/replay/${encodeURIComponent(record)}` : null,
    };
    const rating = state.rating;
    if (summary.kind === "match" && rating) {
      breakdown.notes.push(t("profile.rating_change", {
        game: wording.gameName, before: String(rating.before), after: String(rating.after), change: signedChange(rating.before, rating.after),
      }));
    }
    replaceChildren(this.parts.summaryDialog, summaryBody(this.parts.summaryDialog, breakdown, summary.kind, t, next));
  }

  /**
   * What the live region says ("" for nothing): a screen reader reads it out at once.
   * @param {string} text
   */
  announce(text) {
    const announcer = this.parts.announcer;
    clearTimeout(this.announcing); // words still waiting to be said are no longer true
    announcer.textContent = "";
    if (!text) return;
    // a fresh text node is read out even when the words are the same as the last ones
    this.announcing = setTimeout(() => { announcer.textContent = text; }, 30);
  }

  focusHand() {
    const code = focusedCard(this.state, this.look());
    const button = cardButtons(this.parts).find((b) => b.dataset.code === code);
    if (!button) return;
    button.focus({ preventScroll: true });
    // on a phone the hand lies below the board: bring it into sight, moving the page no more than needed
    const box = button.getBoundingClientRect();
    const height = button.ownerDocument.defaultView?.innerHeight ?? 0;
    if (height && (box.bottom > height || box.top < 0)) this.parts.handEl.scrollIntoView({ block: "nearest" });
  }

  // ------------------------------------------------------------ playing

  /**
   * Carries out the intents of a click or key.
   * @param {Intent[]} intents
   */
  perform(intents) {
    for (const intent of intents) {
      if (intent.do === "act") this.sendAction(intent.action);
      else if (intent.do === "state") this.dispatch(intent.message);
      else if (intent.do === "focus") this.focusHand();
      else if (intent.do === "move") {
        this.dispatch({ type: "focus", code: intent.code });
        cardButtons(this.parts).find((b) => b.dataset.code === intent.code)?.focus();
      }
    }
  }

  /** @param {MouseEvent} event */
  handClick(event) {
    const button = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest("button.tv-card"));
    const code = button?.dataset.code;
    if (!code) return;
    this.dispatch({ type: "focus", code });
    this.perform(activate(this.state, this.look().wording, code, false));
  }

  /** @param {KeyboardEvent} event */
  handKeys(event) {
    const look = this.look();
    const codes = cardButtons(this.parts).map((b) => b.dataset.code || "");
    const at = focusedCard(this.state, look);
    const intents = handKey(this.state, look.wording, event.key, codes, at, (code) => usable(this.state, look, code));
    if (!intents) return;
    event.preventDefault();
    if (event.key === "Enter" || event.key === " ") event.stopPropagation();
    this.perform(intents);
  }

  /** @param {KeyboardEvent} event */
  tableKeys(event) {
    if (event.defaultPrevented || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.parts.choiceDialog.open || this.parts.summaryDialog.open) return;
    const intents = tableKey(this.state, this.look().wording, event.key.toLowerCase());
    if (!intents) return;
    event.preventDefault();
    this.perform(intents);
  }

  /** @param {Action} action */
  sendAction(action) {
    this.dispatch({ type: "sent" });
    this.ctx.send({ type: "act", action: { ...action } });
  }

  askRematch() {
    this.dispatch({ type: "rematch_asked" });
    this.ctx.send({ type: "rematch" });
  }

  /** @param {Event} event */
  sendChat(event) {
    event.preventDefault();
    const input = this.parts.chatInput;
    const text = input.value.trim();
    if (!text) return;
    this.ctx.send({ type: "chat", text: text.slice(0, CHAT_LENGTH) });
    input.value = "";
  }
}
