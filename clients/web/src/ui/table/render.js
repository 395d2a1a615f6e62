// The table's page: its parts, made once, and what they show, drawn from the state.
//
// `buildParts` makes the elements and wires them to the controls the table
// passes in (what a click or a key asks for); `render` writes what the state
// and its wording say into them. Drawing reads the state and never changes it.

import { displaySafe, h, replaceChildren } from "../dom.js";
import { whole } from "../names.js";
import { displayName } from "../../protocol/names.js";
import { gameModule } from "../tables/index.js";
import { back, drawKit, packFace, silence } from "./draw.js";
import { legendText } from "./legend.js";
import { handOf } from "./state.js";
import { buttonLabel, sayLines, scoresText, seatFacts, turnText } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./words.js").Wording} Wording
 * @typedef {import("./draw.js").Pack} Pack
 * @typedef {import("../moves.js").Action} Action
 * @typedef {{
 *   sendAction: (action: Action) => void, playSelection: () => void, hint: () => void,
 *   clearSelection: () => void, askRematch: () => void, start: () => void, leave: () => void,
 *   rules: () => void, sendChat: (event: Event) => void,
 *   handKeys: (event: KeyboardEvent) => void, handClick: (event: MouseEvent) => void,
 * }} Controls  what the table's buttons and keys ask for
 * @typedef {{
 *   wording: Wording, pack: Pack, canStart: boolean, botLevel: (seat: import("./messages.js").Seat) => string,
 *   replay?: boolean, lang?: string,
 * }} Look
 *   `replay`: a finished match seen from a seat (replay.js): the seat is not the viewer's own
 *   everything drawing needs besides the state
 * @typedef {ReturnType<typeof buildParts>} Parts
 */

/** The longest chat line the server takes. */
export const CHAT_LENGTH = 200;
/** From how many cards a hand is drawn in two rows on a narrow screen. */
const MANY_CARDS = 12;
/** Seconds left on the turn timer from which it is shown as urgent. */
const URGENT_SECONDS = 5;
/** How many log lines the page shows (the oldest go first). */
const LOG_LINES = 300;

/**
 * @param {string} label
 * @param {() => void} action
 * @param {{key?: string, primary?: boolean, disabled?: boolean}} [options]
 */
export function button(label, action, options = {}) {
  /** @type {(string | Node)[]} */
  const children = [buttonLabel(label)];
  const key = options.key;
  if (key) children.push(" ", h("kbd", { text: key.toUpperCase(), attrs: { "aria-hidden": "true" } }));
  return h("button", {
    className: `tv-button${options.primary ? " tv-primary" : ""}`,
    attrs: { type: "button", "aria-keyshortcuts": key ? key.toUpperCase() : null, disabled: options.disabled || null },
    on: { click: action },
  }, ...children);
}

/**
 * The page's parts, made once; what they show changes with every message.
 * @param {HTMLElement} root
 * @param {Controls} controls
 */
export function buildParts(root, controls) {
  const titleEl = h("h2", { className: "tv-title" });
  const scoresEl = h("p", { className: "tv-scores" });
  const timerText = h("span", { className: "tv-timer-text" });
  const timerBar = h("span", { className: "tv-timer-bar" });
  const timerEl = h("div", { className: "tv-timer", attrs: { hidden: true } }, timerText,
    h("span", { className: "tv-timer-track" }, timerBar));
  const rulesButton = h("button", { className: "tv-button", attrs: { type: "button" }, on: { click: () => controls.rules() } });
  const leaveButton = h("button", { className: "tv-button", attrs: { type: "button" }, on: { click: () => controls.leave() } });
  const bar = h("header", { className: "tv-bar" },
    h("div", { className: "tv-heading" }, titleEl, scoresEl),
    timerEl,
    h("div", { className: "tv-bar-buttons" }, rulesButton, leaveButton));

  const seatsEl = h("ol", { className: "tv-seats" });
  const boardEl = h("section", { className: "tv-board" });
  const promptEl = h("p", { className: "tv-prompt" });
  const statusEl = h("p", { className: "tv-status", attrs: { role: "status" } });
  const actionsEl = h("div", { className: "tv-actions" });
  const handLabel = h("span", { className: "tv-hand-label" });
  const handEl = h("div", {
    className: "tv-hand",
    attrs: { role: "group" },
    on: { keydown: (/** @type {KeyboardEvent} */ e) => controls.handKeys(e), click: (/** @type {MouseEvent} */ e) => controls.handClick(e) },
  });
  const handArea = h("section", { className: "tv-hand-area" }, handLabel, handEl);
  // what the letters on the pack stand for, in a line under the hand (read in turn by a screen reader)
  const legendEl = h("p", { className: "tv-legend" });
  const playArea = h("section", { className: "tv-play" }, seatsEl, boardEl, promptEl, statusEl, actionsEl, handArea, legendEl);

  const logTitle = h("h3", { className: "tv-side-title" });
  const logEl = h("ol", { className: "tv-log", attrs: { role: "log", "aria-live": "polite", tabindex: 0 } });
  const chatTitle = h("h3", { className: "tv-side-title" });
  const chatList = h("ol", { className: "tv-chat-lines", attrs: { "aria-live": "polite" } });
  const chatInput = /** @type {HTMLInputElement} */ (h("input", {
    className: "tv-chat-input",
    attrs: { type: "text", maxlength: CHAT_LENGTH, autocomplete: "off", enterkeyhint: "send" },
  }));
  const chatSend = h("button", { className: "tv-button", attrs: { type: "submit" } });
  const chatForm = h("form", { className: "tv-chat-form", on: { submit: (/** @type {Event} */ e) => controls.sendChat(e) } },
    chatInput, chatSend);
  const side = h("aside", { className: "tv-side" },
    h("section", { className: "tv-log-box" }, logTitle, logEl),
    h("section", { className: "tv-chat" }, chatTitle, chatList, chatForm));

  const announcer = h("p", { className: "visually-hidden", attrs: { "aria-live": "assertive" } });
  const choiceDialog = /** @type {HTMLDialogElement} */ (h("dialog", { className: "tv-dialog tv-choice" }));
  const summaryDialog = /** @type {HTMLDialogElement} */ (h("dialog", { className: "tv-dialog tv-summary" }));
  root.classList.add("tv");
  replaceChildren(root, bar, h("div", { className: "tv-body" }, playArea, side), announcer, choiceDialog, summaryDialog);
  return {
    root, titleEl, scoresEl, timerText, timerBar, timerEl, rulesButton, leaveButton, seatsEl, boardEl, promptEl,
    statusEl, actionsEl, handLabel, handEl, handArea, legendEl, playArea, logTitle, logEl, chatTitle, chatList, chatInput,
    chatSend, announcer, choiceDialog, summaryDialog,
    /** @type {HTMLButtonElement[]} the selection's buttons, which follow the selection */
    selectionButtons: [],
    /** the hand drawn last (suit system and cards), so that it is drawn again only when it changes */
    handKey: "",
  };
}

/**
 * The words of the table that do not change with the play.
 * @param {Parts} parts
 * @param {import("../names.js").Translate} t
 */
export function renderLabels(parts, t) {
  parts.rulesButton.textContent = t("webtable.rules");
  parts.leaveButton.textContent = t("webtable.leave");
  parts.logTitle.textContent = t("webtable.log");
  parts.logEl.setAttribute("aria-label", t("webtable.log"));
  parts.chatTitle.textContent = t("webtable.chat");
  parts.chatInput.setAttribute("placeholder", t("webtable.chat_placeholder"));
  parts.chatInput.setAttribute("aria-label", t("webtable.chat_placeholder"));
  parts.chatSend.textContent = t("webtable.chat_send");
  parts.handLabel.textContent = t("webtable.hand");
  parts.handEl.setAttribute("aria-label", t("webtable.hand"));
  parts.seatsEl.setAttribute("aria-label", t("webtable.seats"));
  parts.boardEl.setAttribute("aria-label", t("webtable.board"));
}

/**
 * Whether the room is still gathering players (or no view has come yet).
 * @param {TableState} state
 */
export function isWaiting(state) {
  return state.room.state === "waiting" || !Object.keys(state.view).length;
}

/**
 * Everything but the log, the chat and the dialogs.
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 * @param {Controls} controls
 */
export function render(parts, state, look, controls) {
  const { t, names } = look.wording;
  const waiting = isWaiting(state);
  parts.root.dataset.game = state.game;
  parts.root.classList.toggle("tv-waiting", waiting);
  parts.root.classList.toggle("tv-spectator", state.seat === null);
  parts.titleEl.textContent = [look.wording.gameName, look.wording.deckName, t("table.title.room", { code: look.wording.code })].join(" · ");
  parts.scoresEl.textContent = waiting ? "" : scoresText(state.game, names, state.view);
  renderSeats(parts, state, look, waiting);
  if (waiting) renderWaiting(parts, state, look);
  else renderBoard(parts, state, look);
  renderPrompt(parts, state, look, waiting);
  parts.statusEl.textContent = statusText(state, look.wording);
  renderActions(parts, state, look, controls, waiting);
  renderHand(parts, state, look);
  parts.legendEl.textContent = waiting ? "" : legendText(t, look.pack, look.lang);
  tick(parts, state, t, performance.now());
}

/**
 * The status line: what the player was just told, else the rematch's standing.
 * @param {TableState} state
 * @param {Wording} wording
 */
export function statusText(state, wording) {
  const status = state.status || state.rematch;
  return status ? sayLines(wording, status).join(" ") : "";
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 * @param {boolean} waiting
 */
function renderSeats(parts, state, look, waiting) {
  const { t, names } = look.wording;
  const seats = state.room.seats;
  const view = state.view;
  const module = gameModule(state.game);
  const items = [];
  const order = seats.map((_, i) => i);
  // the player's own seat last, next to the hand
  if (state.seat !== null) order.push(...order.splice(0, state.seat + 1));
  for (const i of order) {
    const mine = i === state.seat;
    const name = names.who(i);
    const active = !waiting && view.to_move === i;
    const level = look.botLevel(seats[i] || {});
    const facts = waiting ? [] : seatFacts(state.game, names, view, i);
    const role = !waiting && module.seatRole ? module.seatRole(names, view, i) : null;
    if (role) facts.shift(); // shown as a badge
    const count = whole((view.hand_counts || [])[i]);
    const fan = !mine && !waiting && count ? handFan(t, name, count) : null;
    const badges = [];
    if (level) {
      // the level alone in sight, the whole phrase for a screen reader and on hover
      const full = t("webtable.bot", { level });
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
        mine && !look.replay ? t("table.you", { name }) : name),
      ...badges),
    facts.length ? h("span", { className: "tv-seat-facts", text: facts.join(" · ") }) : null,
    active ? h("span", { className: "visually-hidden", text: turnText(names, view) }) : null,
    fan));
  }
  replaceChildren(parts.seatsEl, items);
}

/**
 * A seat's hidden hand as a small fan of card backs.
 * @param {import("../names.js").Translate} t
 * @param {string} name
 * @param {number} count
 */
function handFan(t, name, count) {
  const label = t("webtable.opponent_hand", { name, count });
  const fan = h("span", { className: "tv-fan", attrs: { role: "img", "aria-label": label } });
  for (let i = 0; i < Math.min(count, 20); i++) fan.append(silence(back(label)));
  return fan;
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 */
function renderWaiting(parts, state, look) {
  const t = look.wording.t;
  const room = state.room;
  const lines = room.seats.map((seat, i) => {
    const empty = seat.kind === "bot" ? t("table.waiting.bot") : t("table.waiting.empty");
    const who = displaySafe(displayName(seat, look.wording, i)) || empty;
    return h("li", { text: t("table.waiting.seat", { number: i + 1, who }) });
  });
  let how;
  if (look.canStart) how = t("webtable.start_hint");
  else if (room.owner === null || room.owner === undefined) how = t("table.waiting.starts_when_full");
  else how = t("table.waiting.owner_starts");
  replaceChildren(parts.boardEl,
    h("div", { className: "tv-waiting-box" },
      h("p", { className: "tv-waiting-title", text: t("table.waiting.title", { code: look.wording.code, public: room.public === false ? "no" : "yes" }) }),
      h("ul", { className: "tv-waiting-seats" }, lines),
      h("p", { text: how })));
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 */
function renderBoard(parts, state, look) {
  const module = gameModule(state.game);
  const fields = module.board ? module.board(look.wording.names, state.view, drawKit(look.pack)) : [];
  replaceChildren(parts.boardEl, fields.map((f) => h("div", { className: `tv-field${f.main ? " tv-main" : ""}` },
    h("span", { className: "tv-field-label", text: f.label }), f.node)));
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 * @param {boolean} waiting
 */
function renderPrompt(parts, state, look, waiting) {
  const { t, names, menu } = look.wording;
  const view = state.view;
  let text;
  if (state.result) text = t("webtable.over");
  else if (waiting) text = t("webtable.waiting");
  else if (state.seat === null) text = [t("webtable.spectating"), turnText(names, view)].filter(Boolean).join(" · ");
  else if (!menu.active) text = view.to_move === null || view.to_move === undefined ? "" : `${turnText(names, view)}…`;
  else if (menu.multi) text = t("table.prompt.your_turn", { moves: t("webtable.prompt.select") });
  else if (handOf(view).some((c) => menu.playable(c))) {
    text = t("table.prompt.your_turn", { moves: t("webtable.prompt.pick") });
  } else if (menu.extras.some((e) => "bid" in e.action)) {
    text = t("table.prompt.your_turn", { moves: t("webtable.prompt.bid") });
  } else text = t("table.prompt.your_turn", { moves: names.either(menu.extras.map((e) => e.label)) });
  parts.promptEl.textContent = text;
  parts.promptEl.classList.toggle("tv-yours", menu.active);
  parts.root.classList.toggle("tv-my-turn", menu.active);
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 * @param {Controls} controls
 * @param {boolean} waiting
 */
function renderActions(parts, state, look, controls, waiting) {
  const { t, menu } = look.wording;
  const buttons = [];
  if (waiting && look.canStart) buttons.push(button(t("webtable.start"), () => controls.start(), { primary: true }));
  if (state.result) {
    if (state.seat !== null) buttons.push(button(t("webtable.rematch"), () => controls.askRematch(), { primary: true }));
    buttons.push(button(t("webtable.lobby"), () => controls.leave()));
  }
  parts.selectionButtons = [];
  if (menu.multi) {
    const none = !state.selected.length;
    const play = button(t("webtable.play_selected"), () => controls.playSelection(), { primary: true, disabled: none });
    const clear = button(t("webtable.clear"), () => controls.clearSelection(), { disabled: none });
    buttons.push(play, button(t("webtable.hint"), () => controls.hint(), { key: "h" }), clear);
    parts.selectionButtons = [play, clear];
  }
  for (const extra of menu.extras) {
    buttons.push(button(extra.label, () => controls.sendAction(extra.action), { key: extra.key }));
  }
  replaceChildren(parts.actionsEl, buttons);
}

/**
 * The hand: drawn again only when its cards change, its states always.
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 */
function renderHand(parts, state, look) {
  const hand = state.seat === null ? [] : handOf(state.view);
  parts.handArea.hidden = state.seat === null || parts.root.classList.contains("tv-waiting");
  const key = `${look.pack.suitSystem}|${hand.join(" ")}`;
  if (key !== parts.handKey) {
    parts.handKey = key;
    const cards = hand.map((code) => silence(h("button", {
      className: "tv-card",
      attrs: { type: "button", "aria-label": look.wording.names.card(code), tabindex: -1 },
      dataset: { code },
    }, packFace(look.pack, code))));
    cards[cards.length - 1]?.classList.add("tv-last");
    // a long hand comes in two rows, which lie side by side where the screen is wide
    // enough (the stylesheet unwraps them) and one above the other on a phone
    const many = cards.length > MANY_CARDS;
    const half = Math.ceil(cards.length / 2);
    const rows = many
      ? [h("div", { className: "tv-hand-row" }, cards.slice(0, half)), h("div", { className: "tv-hand-row" }, cards.slice(half))]
      : cards;
    replaceChildren(parts.handEl, cards.length ? rows : h("span", { className: "tv-empty-hand", text: look.wording.t("table.hand.empty") }));
    parts.handEl.classList.toggle("tv-many", many);
  }
  updateHand(parts, state, look);
}

/**
 * The hand's card buttons, in order.
 * @param {Parts} parts
 */
export function cardButtons(parts) {
  return /** @type {HTMLButtonElement[]} */ ([...parts.handEl.querySelectorAll("button.tv-card")]);
}

/**
 * The hand's states: playable, selected, and which card the keyboard is on.
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Look} look
 */
export function updateHand(parts, state, look) {
  const menu = look.wording.menu;
  const focus = focusedCard(state, look);
  const dimming = menu.active && handOf(state.view).some((c) => menu.playable(c));
  for (const b of cardButtons(parts)) {
    const code = b.dataset.code || "";
    const playable = menu.active && menu.playable(code);
    const selected = state.selected.includes(code);
    // cards are dimmed only when some card can be played: while bidding none is, and none is dimmed
    b.classList.toggle("tv-playable", playable);
    b.classList.toggle("tv-unplayable", dimming && !playable);
    b.classList.toggle("tv-selected", selected);
    if (menu.multi) b.setAttribute("aria-pressed", String(selected));
    else b.removeAttribute("aria-pressed");
    if (dimming && !playable) b.setAttribute("aria-disabled", "true");
    else b.removeAttribute("aria-disabled");
    b.tabIndex = code === focus ? 0 : -1;
  }
  for (const b of parts.selectionButtons) b.disabled = !state.selected.length;
}

/**
 * Whether the keyboard stops on a card: while it is our turn, only on cards some move
 * uses (unless none is: then on every card, to read the hand).
 * @param {TableState} state
 * @param {Look} look
 * @param {string} code
 */
export function usable(state, look, code) {
  const menu = look.wording.menu;
  if (!menu.active || menu.playable(code)) return true;
  return !handOf(state.view).some((c) => menu.playable(c));
}

/**
 * The card the keyboard is on: the one last chosen while it is usable, else the
 * first playable card, else the first card.
 * @param {TableState} state
 * @param {Look} look
 * @returns {string | null}
 */
export function focusedCard(state, look) {
  const codes = state.seat === null ? [] : handOf(state.view);
  const menu = look.wording.menu;
  if (state.focus && codes.includes(state.focus) && usable(state, look, state.focus)) return state.focus;
  const found = codes.find((c) => menu.active && menu.playable(c)) || state.focus || codes[0];
  return found && codes.includes(found) ? found : codes[0] ?? null;
}

/**
 * The log, every line worded again (after a change of language).
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Wording} wording
 */
export function renderLog(parts, state, wording) {
  const lines = state.log.flatMap((entry) => sayLines(wording, entry.say).map((text) => ({ text, kind: entry.kind })));
  replaceChildren(parts.logEl, lines.slice(-LOG_LINES).map((l) => h("li", { className: `tv-log-${l.kind}`, text: l.text })));
  parts.logEl.scrollTop = parts.logEl.scrollHeight;
}

/**
 * The log's entries added since `before` (the entries the page has drawn).
 * @param {Parts} parts
 * @param {import("./state.js").LogEntry[]} added
 * @param {Wording} wording
 */
export function appendLog(parts, added, wording) {
  for (const entry of added) {
    for (const text of sayLines(wording, entry.say)) {
      parts.logEl.append(h("li", { className: `tv-log-${entry.kind}`, text }));
    }
  }
  while (parts.logEl.childElementCount > LOG_LINES) parts.logEl.firstElementChild?.remove();
  parts.logEl.scrollTop = parts.logEl.scrollHeight;
}

/**
 * @param {Parts} parts
 * @param {TableState} state
 * @param {Wording} wording
 */
export function renderChat(parts, state, wording) {
  replaceChildren(parts.chatList, state.chat.map((line) => h("li", { className: "tv-chat-line" },
    h("strong", { text: displaySafe(displayName(line, wording)) || wording.names.who(line.seat) }), " ", displaySafe(line.text))));
  parts.chatList.scrollTop = parts.chatList.scrollHeight;
}

/**
 * The turn timer, as time passes.
 * @param {Parts} parts
 * @param {TableState} state
 * @param {import("../names.js").Translate} t
 * @param {number} now the page clock, ms
 */
export function tick(parts, state, t, now) {
  const timer = state.timer;
  if (!timer || state.result) {
    parts.timerEl.hidden = true;
    return;
  }
  const left = Math.max(0, (timer.deadline - now) / 1000);
  const seconds = Math.ceil(left);
  parts.timerEl.hidden = false;
  const text = t("table.title.left", { seconds });
  if (parts.timerText.textContent !== text) parts.timerText.textContent = text;
  parts.timerEl.classList.toggle("tv-urgent", timer.mine && left <= URGENT_SECONDS);
  parts.timerEl.classList.toggle("tv-mine", timer.mine);
  parts.timerBar.style.width = `${Math.min(100, (left / timer.total) * 100)}%`;
}
