// The table's two dialogs: the choice of how to play a card, and the deal and match summaries.

import { h, replaceChildren } from "../dom.js";
import { button } from "./render.js";
import { packFace, silence } from "./draw.js";
import { buttonLabel } from "./words.js";

/**
 * @typedef {import("./state.js").Choice} Choice
 * @typedef {import("./draw.js").Pack} Pack
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../tables/index.js").Breakdown} Breakdown
 */

/**
 * Opens a dialog as a modal (or as an open element where the browser has no modal dialogs).
 * @param {HTMLDialogElement} dialog
 */
export function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

/**
 * The cards a Scopa capture takes, drawn small beside its words, so that two
 * captures that differ by one card are told apart at a glance.
 * @param {Pack} pack
 * @param {Action} action
 */
function optionCards(pack, action) {
  const taken = Array.isArray(action.capture) ? action.capture : [];
  if (!taken.length) return null;
  const row = h("span", { className: "tv-option-cards", attrs: { "aria-hidden": "true" } });
  for (const code of taken) row.append(silence(packFace(pack, code)));
  return row;
}

/**
 * Fills and opens the choice: numbered options, picked by click or number key.
 * @param {HTMLDialogElement} dialog
 * @param {Choice} choice
 * @param {Pack} pack
 * @param {import("../names.js").Translate} t
 * @param {(action: Action) => void} pick
 */
export function showChoice(dialog, choice, pack, t, pick) {
  const options = choice.options;
  const titleId = `tv-choice-${Math.random().toString(36).slice(2, 8)}`;
  const list = h("ol", { className: "tv-options" }, options.map((option, i) => h("li", {},
    h("button", {
      className: "tv-button tv-option",
      attrs: { type: "button", "aria-keyshortcuts": i < 9 ? String(i + 1) : null },
      on: { click: () => { dialog.close(); pick(option.action); } },
    }, h("kbd", { text: String(i + 1), attrs: { "aria-hidden": "true" } }), " ",
    h("span", { className: "tv-option-label", text: buttonLabel(option.label) }),
    optionCards(pack, option.action)))));
  replaceChildren(dialog,
    h("h2", { className: "tv-dialog-title", text: choice.title, attrs: { id: titleId } }),
    list,
    h("p", { className: "tv-dialog-hint", text: t("webtable.choice_hint") }),
    h("div", { className: "tv-dialog-buttons" }, button(t("webtable.cancel"), () => dialog.close())));
  dialog.setAttribute("aria-labelledby", titleId);
  dialog.onkeydown = (event) => {
    const n = Number(event.key);
    if (Number.isInteger(n) && n >= 1 && n <= options.length) {
      event.preventDefault();
      dialog.close();
      pick(options[n - 1].action);
    }
  };
  openDialog(dialog);
  /** @type {HTMLElement | null} */ (list.querySelector("button"))?.focus();
}

/**
 * A summary's body: title, scoring table, notes and what to do next.
 * @param {HTMLDialogElement} dialog
 * @param {Breakdown} breakdown
 * @param {"deal" | "match"} kind
 * @param {import("../names.js").Translate} t
 * @param {{seated: boolean, rematch: () => void, leave: () => void, replay?: string | null}} next
 *   what the player may do next; `replay` the address of the match's replay
 */
export function summaryBody(dialog, breakdown, kind, t, next) {
  const titleId = `tv-summary-${Math.random().toString(36).slice(2, 8)}`;
  dialog.setAttribute("aria-labelledby", titleId);
  const table = h("table", { className: "tv-breakdown" },
    h("thead", {}, h("tr", {}, h("td", {}), breakdown.players.map((p) => h("th", { text: p, attrs: { scope: "col" } })))),
    h("tbody", {}, breakdown.rows.map((row) => h("tr", {},
      h("th", { text: row.label, attrs: { scope: "row" } }),
      row.cells.map((cell) => h("td", { text: cell }))))));
  const buttons = [];
  if (kind === "deal") {
    buttons.push(button(t("webtable.continue"), () => dialog.close(), { primary: true }));
  } else {
    if (next.seated) buttons.push(button(t("webtable.rematch"), () => { dialog.close(); next.rematch(); }, { primary: true }));
    buttons.push(button(t("webtable.lobby"), () => { dialog.close(); next.leave(); }, { primary: !next.seated }));
    buttons.push(button(t("webtable.look"), () => dialog.close()));
    if (next.replay) {
      buttons.push(h("a", {
        className: "tv-button tv-replay-link",
        attrs: { href: next.replay },
        text: t("profile.match.replay"),
        on: { click: () => dialog.close() },
      }));
    }
  }
  return h("div", { className: "tv-summary-body" },
    h("h2", { className: "tv-dialog-title", text: breakdown.title, attrs: { id: titleId } }),
    h("div", { className: "tv-breakdown-wrap" }, table),
    breakdown.notes.map((note) => h("p", { className: "tv-note", text: note })),
    h("div", { className: "tv-dialog-buttons" }, buttons));
}
