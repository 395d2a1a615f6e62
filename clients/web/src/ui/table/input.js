// What the player's clicks and keys ask for: intents, not changes.
//
// Each function reads the state and its wording and returns the intents a
// click or key makes: a move to send (`act`), a message for the state
// (`state`), or where the keyboard goes (`focus`, `move`). The table carries
// them out. Nothing here touches the page, so the tests run it in Node.

import { handOf } from "./state.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").TableMessage} TableMessage
 * @typedef {import("./words.js").Wording} Wording
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../moves.js").Option} Option
 * @typedef {{do: "act", action: Action}
 *   | {do: "state", message: TableMessage}
 *   | {do: "focus"}
 *   | {do: "move", code: string}} Intent
 *   a move to send; a message for the table's state; the keyboard to the hand; the keyboard to a card
 */

/**
 * One option is played at once; several open a choice.
 * @param {string} title
 * @param {Option[]} options
 * @returns {Intent[]}
 */
export function choose(title, options) {
  if (options.length === 1) return [{ do: "act", action: options[0].action }];
  return [{ do: "state", message: { type: "choose", choice: { title, options } } }];
}

/**
 * The selected cards in the hand's order.
 * @param {TableState} state
 */
function chosen(state) {
  return handOf(state.view).filter((c) => state.selected.includes(c));
}

/**
 * A card was clicked or its key pressed.
 * @param {TableState} state
 * @param {Wording} w
 * @param {string} code
 * @param {boolean} enter the Enter key (a game played by selection: play the selection)
 * @returns {Intent[]}
 */
export function activate(state, w, code, enter) {
  const menu = w.menu;
  if (!menu.active) {
    const key = state.result ? "webtable.over" : "table.status.not_your_turn";
    return [{ do: "state", message: { type: "status", status: { say: "text", key } } }];
  }
  if (menu.multi) {
    if (enter && state.selected.length) return playSelection(state, w);
    return [{ do: "state", message: { type: "toggle", code } }];
  }
  const options = menu.options(code);
  if (!options.length) return [{ do: "state", message: { type: "status", status: { say: "cannot_play", card: code } } }];
  return choose(w.t("table.choose.way", { card: w.names.card(code) }), options);
}

/**
 * Plays the selection: its one reading at once, a choice of several, or why it cannot be played.
 * @param {TableState} state
 * @param {Wording} w
 * @returns {Intent[]}
 */
export function playSelection(state, w) {
  const selection = w.menu.selection;
  if (!selection) return [];
  const cards = chosen(state);
  const options = selection.readings(cards);
  if (!options.length) return [{ do: "state", message: { type: "status", status: { say: "why_not", cards } } }];
  return choose(w.t("table.choose.reading"), options);
}

/**
 * Selects the next legal play (after the one selected now), or says that passing is all there is.
 * @param {TableState} state
 * @param {Wording} w
 * @returns {Intent[]}
 */
export function hint(state, w) {
  const selection = w.menu.selection;
  if (!selection) return [];
  const next = selection.nextSuggestion(chosen(state));
  if (!next) {
    return w.menu.extras.some((e) => e.action.pass) ? [{ do: "state", message: { type: "only_pass" } }] : [];
  }
  return [{ do: "state", message: { type: "select", cards: next } }, { do: "focus" }];
}

/**
 * A key pressed on the hand: the arrows (and Home/End) move among the cards the
 * keyboard stops on; Enter and Space play or select the card it is on.
 * @param {TableState} state
 * @param {Wording} w
 * @param {string} key
 * @param {string[]} codes the hand's cards, in order
 * @param {string | null} at the card the keyboard is on
 * @param {(code: string) => boolean} usable whether the keyboard stops on a card
 * @returns {Intent[] | null} null: a key the hand leaves alone
 */
export function handKey(state, w, key, codes, at, usable) {
  const n = codes.length;
  const index = at === null ? -1 : codes.indexOf(at);
  /** @param {number} from @param {number} step the first usable card from `from` on, going by `step` */
  const seek = (from, step) => {
    for (let k = 0, i = from; k < n; k++, i = (i + step + n) % n) if (usable(codes[i])) return i;
    return from;
  };
  /** @type {number | null} */
  let next = null;
  if (key === "ArrowLeft" || key === "ArrowUp") next = seek((index - 1 + n) % n, -1);
  else if (key === "ArrowRight" || key === "ArrowDown") next = seek((index + 1) % n, 1);
  else if (key === "Home") next = seek(0, 1);
  else if (key === "End") next = seek(n - 1, -1);
  if (next !== null) return n ? [{ do: "move", code: codes[next] }] : null;
  if ((key === "Enter" || key === " ") && index >= 0 && at !== null) return activate(state, w, at, key === "Enter");
  return null;
}

/**
 * A key pressed anywhere on the table (not while typing nor in a dialog): an
 * action's own key, H for a hint, Escape to clear the selection.
 * @param {TableState} state
 * @param {Wording} w
 * @param {string} key the key, in lower case
 * @returns {Intent[] | null} null: a key the table leaves alone
 */
export function tableKey(state, w, key) {
  const extra = w.menu.extraFor(key);
  if (extra) return [{ do: "act", action: extra.action }];
  if (key === "h" && w.menu.multi) return hint(state, w);
  if (key === "escape" && state.selected.length) return [{ do: "state", message: { type: "clear" } }];
  return null;
}
