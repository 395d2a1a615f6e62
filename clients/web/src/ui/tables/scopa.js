// Scopa's table: the cards on the table, the piles, the deck, and the deal's scoring.
//
// A game module is plain functions over the view, the events and the table's
// names (`moves.js` `Names`); it draws through the `draw` kit the frame passes
// in, so its sentences and summaries run in Node as in the page.

import { signed, whole } from "../names.js";

/** The deal's four points by the score's `awards` names, with the message key of each. */
const AWARDS = [
  ["cards", "summary.scopa.award.cards"],
  ["coins", "summary.scopa.award.coins"],
  ["settebello", "summary.scopa.award.settebello"],
  ["primiera", "summary.scopa.award.primiera"],
];

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("./index.js").Event} Event
 * @typedef {{label: string, cells: string[]}} Row
 * @typedef {{title: string, players: string[], rows: Row[], notes: string[]}} Breakdown
 */

export default {
  game: "scopa",
  /** The message key of the match summary's score row. */
  scoreLabel: "summary.row.match_points",

  /**
   * A card laid on the table, or the cards it takes.
   * @param {Names} names
   * @param {View} _view
   * @param {import("../moves.js").Action} action
   */
  moveLabel(names, _view, action) {
    const card = names.card(action.play);
    const taken = action.capture || [];
    if (!taken.length) return names.t("moves.lay", { card });
    return names.t("moves.capture", { cards: names.cards(taken, " + "), card });
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {number} seat
   * @param {string[]} facts the shared facts (cards in hand)
   */
  seatFacts(names, view, seat, facts) {
    const captured = view.captured || [];
    const scopas = view.scopas || [];
    if (seat < captured.length) facts.push(names.count("table.count.taken", (captured[seat] || []).length));
    if (seat < scopas.length && scopas[seat]) facts.push(names.count("table.count.scopas", scopas[seat]));
    return facts;
  },

  /**
   * The board: the table's cards in the middle, the deck beside them.
   * @param {Names} names
   * @param {View} view
   * @param {import("../table/draw.js").DrawKit} draw
   */
  board(names, view, draw) {
    const t = names.t;
    /** @type {import("./index.js").Field[]} */
    const fields = [
      { label: t("table.scopa.table"), node: draw.cards(view.table || [], { empty: true }), main: true },
      { label: t("table.scopa.deck"), node: draw.pile(view.stock, names.count("table.count.cards", view.stock || 0)) },
    ];
    if (view.last_capture !== null && view.last_capture !== undefined) {
      fields.push({ label: t("table.scopa.last_capture"), node: draw.text(names.who(view.last_capture)) });
    }
    const deal = t("table.scopa.deal_value", { number: whole(view.deal) + 1, dealer: names.who(view.dealer) });
    fields.push({ label: t("table.deal"), node: draw.text(deal) });
    return fields;
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {string} totals the match totals, as the frame words them
   */
  scores(names, view, totals) {
    const target = typeof view.target === "number" ? view.target : 11;
    return names.t("table.scopa.scores", { scores: totals, target });
  },

  /**
   * Log sentences for one event; false for an event this game leaves to the frame.
   * @param {Names} names
   * @param {Event} event
   * @param {Event | null} following
   * @param {string[]} lines
   */
  describe(names, event, following, lines) {
    const t = names.t;
    const who = names.who(event.seat);
    switch (event.type) {
      case "play":
        if (following && following.type === "capture" && following.seat === event.seat) {
          return true; // the capture line says it all
        }
        lines.push(t("log.scopa.lay", { who, card: names.card(event.card) }));
        return true;
      case "capture":
        lines.push(t("log.scopa.capture", { who, cards: names.cards(event.cards, " + "), card: names.card(event.card) }));
        return true;
      case "scopa":
        if (lines.length) lines[lines.length - 1] = t("log.scopa.scopa_after", { line: lines[lines.length - 1] });
        else lines.push(t("log.scopa.scopa", { who }));
        return true;
      case "deal_round":
        lines.push(t("log.scopa.deal_round", { count: whole(event.stock) }));
        return true;
      case "leftover": {
        const cards = names.cards(event.cards);
        if (event.seat === null || event.seat === undefined) lines.push(t("log.scopa.leftover_out", { cards }));
        else lines.push(t("log.scopa.leftover", { who, cards }));
        return true;
      }
      case "deal_end": {
        const points = names.perSeat((event.points || []).map(signed));
        const totals = names.perSeat(event.totals || []);
        lines.push(t("log.scopa.deal_end", { points, totals }));
        return true;
      }
      case "deal": {
        const number = whole(event.deal) + 1;
        const dealer = names.who(event.dealer);
        const cards = names.cards(event.table);
        const redeals = whole(event.redeals);
        if (redeals) lines.push(t("log.scopa.deal_again", { number, dealer, cards, count: redeals }));
        else lines.push(t("log.scopa.deal", { number, dealer, cards }));
        return true;
      }
      default:
        return false;
    }
  },

  /**
   * Cards, coins, settebello, primiera and scopas, each with who scored it.
   * @param {Names} names
   * @param {Event} event
   * @param {number} number
   * @returns {Breakdown}
   */
  dealSummary(names, event, number) {
    const t = names.t;
    const detail = event.detail || {};
    const awards = detail.awards || {};
    const players = [...names.players];
    /** @type {Breakdown} */
    const out = { title: t("summary.deal_scored", { number }), players, rows: [], notes: [] };
    /** @param {string} item */
    const won = (item) => players.map((_, seat) => (awards[item] === seat ? "+1" : ""));
    /** @param {unknown[]} values @param {string} item */
    const marked = (values, item) => values.map((v, i) => `${v} ${won(item)[i] || ""}`.trim());
    if ("cards" in detail) out.rows.push({ label: t("summary.row.cards"), cells: marked(detail.cards, "cards") });
    if ("coins" in detail) out.rows.push({ label: t("summary.row.coins"), cells: marked(detail.coins, "coins") });
    if ("awards" in detail) {
      out.rows.push({ label: t("summary.row.settebello"), cells: won("settebello").map((w) => w || "—") });
    }
    if ("primiera" in detail) {
      out.rows.push({ label: t("summary.row.primiera"), cells: marked(detail.primiera, "primiera") });
    }
    if ("scopas" in detail) {
      out.rows.push({ label: t("summary.row.scopas"), cells: detail.scopas.map((/** @type {number} */ s) => (s ? signed(s) : "0")) });
    }
    out.rows.push({ label: t("summary.row.points_this_deal"), cells: (event.points || []).map(signed) });
    if (Array.isArray(event.totals)) {
      out.rows.push({ label: t("summary.row.match_totals"), cells: event.totals.map(String) });
    }
    for (const [item, label] of AWARDS) {
      if (item in awards && awards[item] === null) out.notes.push(t("summary.scopa.tie", { item: t(label) }));
    }
    return out;
  },
};
