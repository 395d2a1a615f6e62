/**
 * The small fans of cards that picture each deck in the lobby, drawn in the
 * deck's own ranks (the catalogue's `rank_scheme`).
 *
 * Drawing every pack's cards was about 45 ms of a cold load's path to an
 * interactive lobby, so a pack not drawn yet is drawn just after the frame
 * that shows the lobby, and kept: the lobby draws itself again on every
 * choice, and a clone is all that costs then.
 */
import { backSvg, cardSvg } from "../cards/cards.js";
import { h, svgFragment } from "./dom.js";
import { previewCards } from "./lobby_state.js";

/** @typedef {import("./lobby_state.js").Deck} Deck */

export class Packs {
  /** @param {Document} document */
  constructor(document) {
    this.document = document;
    /** @type {Map<string, DocumentFragment>} pack pictures drawn, by language, name, suits and ranks */
    this.drawn = new Map();
    /** @type {{ key: string, deck: Deck, fan: HTMLElement }[]} */
    this.toDraw = [];
  }

  /**
   * A pack's picture: drawn at once when kept, else just after the next frame.
   * @param {Deck} deck
   * @param {string} lang
   * @param {string} label the picture's accessible name
   */
  picture(deck, lang, label) {
    const fan = h("span", { className: "pack", attrs: { role: "img", "aria-label": label } });
    // the cards carry their names in the player's language (hidden from assistive technology,
    // but still the page's words): a pack is kept per language
    const key = `${lang}|${deck.name}|${deck.suitSystem}|${deck.rankScheme ?? ""}`;
    const drawn = this.drawn.get(key);
    if (drawn) {
      fan.append(drawn.cloneNode(true));
      return fan;
    }
    const view = this.document.defaultView;
    if (!view) {
      fan.append(this.draw(key, deck).cloneNode(true));
      return fan;
    }
    this.toDraw.push({ key, deck, fan });
    if (this.toDraw.length === 1) {
      // a timeout set from an animation frame runs once that frame is on the screen
      view.requestAnimationFrame(() => view.setTimeout(() => this.drawWaiting(), 0));
    }
    return fan;
  }

  /** Draws the packs the last renders left empty (those still on the page or not). */
  drawWaiting() {
    const waiting = this.toDraw;
    this.toDraw = [];
    for (const { key, deck, fan } of waiting) {
      fan.append((this.drawn.get(key) ?? this.draw(key, deck)).cloneNode(true));
    }
  }

  /**
   * A pack's cards, drawn once and kept under `key`.
   * @param {string} key
   * @param {Deck} deck
   * @returns {DocumentFragment}
   */
  draw(key, deck) {
    const cards = this.document.createDocumentFragment();
    const codes = previewCards(Object.keys(deck.cards));
    const look = deck.rankScheme ? { rankScheme: deck.rankScheme } : {}; // the served catalogue's, else the suit system's own
    try {
      if (codes.length === 0) {
        cards.append(svgFragment(backSvg({ className: "pack-card" })));
      }
      for (const code of codes) {
        cards.append(svgFragment(cardSvg(code, deck.suitSystem, { className: "pack-card", ...look, label: deck.cards[code] ?? code })));
      }
    } catch {
      cards.replaceChildren(svgFragment(backSvg({ className: "pack-card" })));
    }
    for (const svg of cards.querySelectorAll("svg")) {
      svg.setAttribute("aria-hidden", "true");
      svg.removeAttribute("role");
    }
    this.drawn.set(key, cards);
    return cards;
  }
}
