// Card faces, backs and the kit a game module draws its board with.

import { backSvg, cardSvg, suitSvg } from "../../cards/cards.js";
import { h, svgFragment } from "../dom.js";
import { whole } from "../names.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {{
 *   names: Names, suitSystem: string, rankScheme?: string, nothing: string, indices?: Record<string, string>,
 *   ranks?: Record<string, string>, rankWords?: Record<string, string>,
 * }} Pack
 *   how the table's cards are drawn and named: the deck's suit system and corner letters (`indices`:
 *   the language's own letters of a French pack, "Kn" for a Swedish knekt), and the names of its
 *   ace and courts, the pack's own (`ranks`) and the language's (`rankWords`), for the legend
 * @typedef {ReturnType<typeof drawKit>} DrawKit
 */

/**
 * One card face as an element (a code the card module cannot draw is shown as its name).
 * @param {string} code
 * @param {string} suitSystem
 * @param {string} label
 * @param {string} [rankScheme] the pack's corner letters and court figures (the catalogue's `rank_scheme`)
 * @param {string} [index] the corner letter, where the language has its own for the pack's
 */
export function face(code, suitSystem, label, rankScheme, index) {
  const holder = h("span", { className: "tv-face" });
  try {
    /** @type {{label: string, rankScheme?: string, index?: string}} */
    const options = { label };
    if (rankScheme) options.rankScheme = rankScheme;
    if (index) options.index = index;
    holder.append(svgFragment(cardSvg(code, suitSystem, options)));
  } catch {
    holder.classList.add("tv-face-text");
    holder.textContent = label;
  }
  return holder;
}

/** @param {string} label */
export function back(label) {
  const holder = h("span", { className: "tv-face tv-back" });
  holder.append(svgFragment(backSvg({ label })));
  return holder;
}

/**
 * Hides an element's drawing from assistive technology (its owner names it).
 * @template {Element} E
 * @param {E} element
 * @returns {E}
 */
export function silence(element) {
  for (const svg of element.querySelectorAll("svg")) svg.setAttribute("aria-hidden", "true");
  return element;
}

/**
 * A card of the pack as an element, named in the player's language.
 * @param {Pack} pack
 * @param {string} code
 * @param {string} [label] words read out in place of the card's name
 */
export function packFace(pack, code, label) {
  const own = pack.indices ? pack.indices[code.charAt(0)] : undefined;
  return face(code, pack.suitSystem, label ?? pack.names.card(code), pack.rankScheme, typeof own === "string" ? own : undefined);
}

/**
 * The kit a game module draws its board with.
 * @param {Pack} pack
 */
export function drawKit(pack) {
  /** @param {string} code @param {string} [caption] */
  const card = (code, caption) => h("figure", { className: "tv-table-card" },
    packFace(pack, code),
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
      if (!codes.length) row.append(h("span", { className: "visually-hidden", text: pack.nothing }));
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
        h("span", { className: "tv-indicator" }, packFace(pack, indicator, `${turned} ${pack.names.card(indicator)}`)),
        whole(count) ? silence(back(text)) : null),
      h("span", { className: "tv-value", text })),
    /** @param {string} letter @param {string} name */
    suit: (letter, name) => {
      const span = h("span", { className: "tv-suit" });
      try {
        span.append(silence(h("span", { className: "tv-suit-sign" }, svgFragment(suitSvg(letter, pack.suitSystem, { label: name })))));
      } catch {
        // a suit the drawings do not know is named only
      }
      span.append(h("span", { className: "tv-value", text: name }));
      return span;
    },
  };
}
