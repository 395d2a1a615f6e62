// Schnapsen's table: trump, the turned card and the talon, closing, marriages, and game points.

import { signed, whole } from "../names.js";
import { trick } from "./briscola.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("./index.js").Event} Event
 * @typedef {import("./scopa.js").Breakdown} Breakdown
 */

/** Why a deal ended as it did, by the score's `reason`. */
const WHY = {
  66: "summary.schnapsen.why.reached",
  last_trick: "summary.schnapsen.why.last_trick",
  closer_66: "summary.schnapsen.why.closer_reached",
  opponent_66: "summary.schnapsen.why.opponent_reached",
  closer_failed: "summary.schnapsen.why.closer_failed",
};

/** What a deal won by reaching 66 was worth, by its game points. */
const WORTH = {
  3: "summary.schnapsen.worth.no_trick",
  2: "summary.schnapsen.worth.under_33",
  1: "summary.schnapsen.worth.over_33",
};

/**
 * A `deal_end` event (or deal result) with its score `detail` read into it. In
 * the detail `totals` are the deal's card points; the event's own `totals` are
 * the match's game points, which `counts` shows already.
 * @param {Event} event
 * @returns {Event}
 */
export function scored(event) {
  const detail = event.detail;
  return detail && typeof detail === "object" ? { ...event, ...detail } : event;
}

/**
 * @param {Names} names
 * @param {Event} event
 */
function why(names, event) {
  const e = scored(event);
  const key = /** @type {Record<string, string>} */ (WHY)[String(e.reason)] || "summary.schnapsen.why.won";
  return names.t(key, { winner: names.who(e.winner), closer: names.who(e.closed_by) });
}

/**
 * @param {Names} names
 * @param {Event} event
 */
function worth(names, event) {
  const e = scored(event);
  const points = whole(e.game_points);
  if (e.reason === "66" || e.reason === "closer_66") {
    const key = /** @type {Record<number, string>} */ (WORTH)[points] || "summary.schnapsen.worth.points";
    return names.t(key, { count: points });
  }
  if (e.reason === "last_trick") return names.t("summary.schnapsen.worth.points", { count: 1 });
  // counted as things stood at the close only when the stock was closed; a reason this
  // client does not know says the points alone
  if (e.reason === "opponent_66" || e.reason === "closer_failed") {
    return names.t("summary.schnapsen.worth.at_close", { count: points });
  }
  return names.t("summary.schnapsen.worth.points", { count: points });
}

export default {
  game: "schnapsen",
  scoreLabel: "summary.row.game_points",

  /**
   * A lead that announces a marriage says so, with what it is worth; other plays are the frame's.
   * @param {Names} names
   * @param {View} view
   * @param {import("../moves.js").Action} action
   */
  moveLabel(names, view, action) {
    if (!action.marriage) return null;
    const suit = String(action.play).slice(-1);
    const points = suit === view.trump ? 40 : 20;
    return names.t("moves.marriage", { card: names.card(action.play), suit: names.suitWord(suit), points });
  },

  /**
   * The exchange of the trump jack and the close, each a button with its key; and each lead
   * that announces a marriage, a button of its own beside the cards (keys 1, 2…), so that
   * announcing is as plain as playing the card (the card itself still offers both).
   * @param {Names} names
   * @param {View} view
   * @param {import("../moves.js").Action} action
   * @param {import("../moves.js").Action[]} [legal] the turn's moves, which number the marriages
   * @returns {import("../moves.js").Extra | null}
   */
  extra(names, view, action, legal) {
    const t = names.t;
    if (action.marriage) {
      const marriages = (legal || []).filter((a) => a.marriage);
      const at = marriages.indexOf(action);
      if (at < 0) return null; // a move named alone (a replay): its label is the card's (`moveLabel`)
      const label = this.moveLabel(names, view, action) || "";
      return { id: "marriage", key: String(at + 1), label, action };
    }
    if ("exchange" in action) {
      const jack = names.card(action.exchange);
      const turned = view.indicator ? names.card(view.indicator) : t("moves.the_trump_card");
      return { id: "exchange", key: "x", label: t("moves.exchange", { jack, card: turned }), action };
    }
    if (action.close) return { id: "close", key: "c", label: t("moves.close"), action };
    return null;
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {number} seat
   * @param {string[]} facts
   */
  seatFacts(names, view, seat, facts) {
    trick.seatFacts(names, view, seat, facts);
    const shown = view.shown || [];
    if (seat !== names.seat && seat < shown.length && shown[seat] && shown[seat].length) {
      facts.push(names.t("table.schnapsen.holds", { cards: names.cards(shown[seat]) }));
    }
    return facts;
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {import("../table/draw.js").DrawKit} draw
   */
  board(names, view, draw) {
    const t = names.t;
    const trump = String(view.trump || "");
    const talonText = names.count("table.count.cards", view.talon || 0);
    const fields = [
      { label: t("table.trick"), node: trick.trick(names, view, draw), main: true },
      { label: t("table.schnapsen.trumps"), node: trump ? draw.suit(trump, names.suit(trump)) : draw.text("—") },
    ];
    if (view.indicator && !view.closed) {
      fields.push({
        label: t("table.schnapsen.talon"),
        node: draw.talon(view.talon, talonText, view.indicator, t("table.schnapsen.turned_up")),
      });
    } else {
      fields.push({ label: t("table.schnapsen.talon"), node: draw.pile(view.talon, talonText) });
    }
    if (view.closed) {
      fields.push({ label: t("table.schnapsen.closed_by"), node: draw.text(names.who(view.closed_by)) });
    } else if (view.strict) {
      fields.push({ label: t("table.schnapsen.talon_gone"), node: draw.text(t("table.schnapsen.strict")) });
    }
    const marriages = view.marriages || [];
    if (marriages.length) {
      const said = marriages
        .map((/** @type {Event} */ m) => `${names.who(m.seat)} ${names.suit(m.suit)} (${m.points})`)
        .join(", ");
      fields.push({ label: t("table.schnapsen.marriages"), node: draw.text(said) });
    }
    return fields;
  },

  /**
   * @param {Names} names
   * @param {View} view
   */
  scores(names, view) {
    const target = whole(view.target) || 7;
    const won = (view.counts || []).map((/** @type {number} */ c) => target - whole(c));
    return names.t("table.schnapsen.scores", { scores: names.perSeat(won), target });
  },

  /**
   * @param {Names} names
   * @param {Event} event
   * @param {Event | null} following
   * @param {string[]} lines
   */
  describe(names, event, following, lines) {
    const t = names.t;
    const who = names.who(event.seat);
    switch (event.type) {
      case "marriage":
        lines.push(t("log.schnapsen.marriage", { who, suit: names.suitWord(event.suit), points: whole(event.points) }));
        return true;
      case "exchange":
        lines.push(t("log.schnapsen.exchange", { who, jack: names.card(event.card), card: names.card(event.indicator) }));
        return true;
      case "close":
        lines.push(t("log.schnapsen.close", { who }));
        return true;
      case "deal_end":
        lines.push(t("log.schnapsen.deal_end", { why: why(names, event), worth: worth(names, event) }));
        return true;
      case "deal":
        lines.push(
          t("log.schnapsen.deal", {
            number: whole(event.deal) + 1,
            dealer: names.who(event.dealer),
            card: names.card(event.indicator),
          }),
        );
        return true;
      default:
        return trick.describe(names, event, following, lines);
    }
  },

  /**
   * Card and marriage points, tricks, and the game points with why.
   * @param {Names} names
   * @param {Event} raw
   * @param {number} number
   * @param {View} view
   * @returns {Breakdown}
   */
  dealSummary(names, raw, number, view) {
    const t = names.t;
    const event = scored(raw);
    /** @type {Breakdown} */
    const out = { title: t("summary.deal_scored", { number }), players: [...names.players], rows: [], notes: [] };
    for (const [key, label] of [
      ["card_points", "summary.row.card_points"],
      ["marriage_points", "summary.row.marriages"],
      ["totals", "summary.row.total"],
      ["tricks", "summary.row.tricks"],
    ]) {
      if (Array.isArray(event[key])) out.rows.push({ label: t(label), cells: event[key].map(String) });
    }
    out.rows.push({ label: t("summary.row.game_points"), cells: (event.points || []).map(signed) });
    if (Array.isArray(raw.counts)) {
      const target = whole(view.target) || 7;
      out.rows.push({
        label: t("summary.row.match"),
        cells: raw.counts.map((/** @type {number} */ c) => t("summary.of_target", { points: target - whole(c), target })),
      });
    }
    if (event.reason) {
      out.notes.push(t("summary.schnapsen.why_note", { why: why(names, event), worth: worth(names, event) }));
    }
    if (event.closed_by !== null && event.closed_by !== undefined) {
      out.notes.push(
        t("summary.schnapsen.at_close", {
          points: whole(event.closed_opponent_points),
          trick: event.closed_opponent_trick ? "yes" : "no",
        }),
      );
    }
    (event.uncredited || []).forEach((/** @type {number} */ points, /** @type {number} */ seat) => {
      if (points) out.notes.push(t("summary.schnapsen.uncredited", { name: names.who(seat), points: whole(points) }));
    });
    return out;
  },
};
