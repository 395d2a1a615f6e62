// Briscola's table: the trump card under the stock, the trick in progress, points and tricks.
//
// `trick` holds what Briscola and Schnapsen share: a two-card trick led by
// `leader`, the tricks and card points each seat has won, and the log of a
// trick and of the face-up trump card being drawn.

import { whole } from "../names.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("./index.js").Event} Event
 */

export const trick = {
  /**
   * @param {Names} names
   * @param {View} view
   * @param {number} seat
   * @param {string[]} facts
   */
  seatFacts(names, view, seat, facts) {
    const tricks = view.tricks || [];
    if (seat < tricks.length) facts.push(names.count("table.count.tricks", tricks[seat]));
    const points = view.points || [];
    if (seat < points.length) facts.push(names.count("table.count.points", points[seat]));
    return facts;
  },

  /**
   * The cards on the table, each captioned with who played it.
   * @param {Names} names
   * @param {View} view
   * @param {import("../table/draw.js").DrawKit} draw
   */
  trick(names, view, draw) {
    const cards = view.trick || [];
    const leader = whole(view.leader);
    const captions = cards.map((/** @type {string} */ _, /** @type {number} */ i) => names.who((leader + i) % 2));
    return draw.cards(cards, { captions, empty: true });
  },

  /**
   * @param {Names} names
   * @param {Event} event
   * @param {Event | null} _following
   * @param {string[]} lines
   */
  describe(names, event, _following, lines) {
    const t = names.t;
    if (event.type === "trick") {
      lines.push(
        t("log.trick", {
          winner: names.who(event.winner),
          cards: names.cards(event.cards, " + "),
          points: whole(event.points),
        }),
      );
      return true;
    }
    if (event.type === "draw") {
      if ("card" in event) {
        // the face-up trump card: everyone sees who takes it
        lines.push(t("log.draw_trump", { who: names.who(event.seat), card: names.card(event.card) }));
      }
      return true;
    }
    return false;
  },
};

export default {
  game: "briscola",
  scoreLabel: "summary.row.card_points",
  seatFacts: trick.seatFacts,
  describe: trick.describe,

  /**
   * @param {Names} names
   * @param {View} view
   * @param {import("../table/draw.js").DrawKit} draw
   */
  board(names, view, draw) {
    const t = names.t;
    const trump = String(view.trump || "");
    let stock = names.count("table.count.cards", view.stock || 0);
    if (view.trump_in_stock) stock = t("table.briscola.stock_with_trump", { cards: stock });
    return [
      { label: t("table.trick"), node: trick.trick(names, view, draw), main: true },
      {
        label: t("table.briscola.trump_card"),
        node: trump
          ? draw.cards([trump], { captions: [t("table.briscola.trumps", { suit: names.suit(trump) })], small: true })
          : draw.text("—"),
      },
      { label: t("table.briscola.stock"), node: draw.pile(view.stock, stock) },
    ];
  },

  /**
   * @param {Names} names
   * @param {View} view
   */
  scores(names, view) {
    return names.t("table.briscola.scores", { scores: names.perSeat(view.points || []) });
  },
};
