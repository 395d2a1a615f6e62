// Dou Dizhu's table: the auction, the landlord and kitty, the combination to beat, the stakes.
//
// Cards are played by selecting several: `doudizhu_play.js` holds the
// selection and the combinations' rules; this module words the table, the
// bids and pass as keys, the log and the results.

import { signed, whole } from "../names.js";
import { comboName, selection } from "./doudizhu_play.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("./index.js").Event} Event
 * @typedef {import("./scopa.js").Breakdown} Breakdown
 * @typedef {{landlord?: unknown, deals?: unknown}} Memo
 *   what the log remembers between events: the last deal's landlord and the highest deal number
 */

/**
 * @param {Names} names
 * @param {boolean} landlord
 */
function role(names, landlord) {
  return names.t(landlord ? "table.doudizhu.landlord" : "table.doudizhu.peasant");
}

/**
 * @param {Names} names
 * @param {unknown} bid
 */
export function bidText(names, bid) {
  if (!bid) return names.t("table.doudizhu.no_bid");
  return names.t("table.doudizhu.bid", { bid: typeof bid === "number" ? bid : String(bid) });
}

/**
 * What doubled the stake: bombs and rockets played (and, in a deal's score, springs).
 * @param {Names} names
 * @param {View} scored
 */
function doubled(names, scored) {
  const out = [];
  if (scored.bombs) out.push(names.count("summary.doudizhu.bombs", scored.bombs));
  if (scored.rockets) out.push(names.count("summary.doudizhu.rockets", scored.rockets));
  if (scored.spring) out.push(names.t("summary.doudizhu.spring"));
  if (scored.reverse_spring) out.push(names.t("summary.doudizhu.reverse_spring"));
  return out;
}

/**
 * The peasants' two seats when they share the top score of a one-deal match:
 * their side won (the engine names no single winner then).
 * @param {number[]} scores
 * @param {unknown} landlord
 * @param {unknown} deals
 * @returns {number[] | null}
 */
export function peasantsWon(scores, landlord, deals) {
  if (!scores.length || landlord === null || landlord === undefined) return null;
  if (!(deals === null || deals === undefined || deals === 1)) return null;
  const top = Math.max(...scores);
  const leaders = scores.map((s, i) => (s === top ? i : -1)).filter((i) => i >= 0);
  const peasants = scores.map((_, i) => i).filter((i) => i !== landlord);
  return leaders.join() === peasants.join() ? leaders : null;
}

/**
 * @param {Names} names
 * @param {number[]} seats
 */
function partner(names, seats) {
  if (names.seat === null || !seats.includes(names.seat)) return null;
  return names.who(seats.find((s) => s !== names.seat));
}

/**
 * What each seat has done in the round on the table: its play or its pass, from
 * the deal's history (two passes in a row close a round and clear the table).
 * @param {View} view
 * @returns {Map<number, Event>}
 */
export function roundMoves(view) {
  /** @type {Map<number, Event>} */
  let moves = new Map();
  let passes = 0;
  for (const entry of view.history || []) {
    if (!entry || typeof entry !== "object" || "bid" in entry) continue;
    if (entry.pass) {
      passes += 1;
      moves.set(entry.seat, entry);
      if (passes === 2) {
        moves = new Map();
        passes = 0;
      }
    } else if ("combo" in entry) {
      passes = 0;
      moves.set(entry.seat, entry);
    }
  }
  return moves;
}

export default {
  game: "doudizhu",
  scoreLabel: "summary.row.final_score",
  selection,

  /**
   * The bids and the pass, each a button with its key (a bid's key is its number).
   * @param {Names} names
   * @param {View} _view
   * @param {import("../moves.js").Action} action
   * @returns {import("../moves.js").Extra | null}
   */
  extra(names, _view, action) {
    const t = names.t;
    if ("bid" in action) {
      const bid = whole(action.bid);
      const label = bid ? t("moves.bid", { bid }) : t("moves.no_bid");
      return { id: `bid${bid}`, key: String(bid), label, action };
    }
    if (action.pass) return { id: "pass", key: "p", label: t("moves.pass"), action };
    return null;
  },

  /**
   * What the log keeps from one event for later ones: the last deal's landlord and
   * the highest deal number, for the match's last line, which has no view to read.
   * @param {Memo} memo
   * @param {Event} event
   */
  remember(memo, event) {
    if (event.type === "landlord") memo.landlord = event.seat;
    else if (event.type === "deal" && typeof event.deal === "number" && event.deal > 1) memo.deals = event.deal;
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {number} seat
   * @param {string[]} facts
   */
  seatFacts(names, view, seat, facts) {
    if (view.landlord !== null && view.landlord !== undefined) facts.unshift(role(names, view.landlord === seat));
    if (view.phase !== "bidding") {
      const move = roundMoves(view).get(seat);
      if (move && move.pass) facts.push(names.t("webtable.round_pass"));
      else if (move) facts.push(names.t("webtable.round_play", { combo: comboName(names.t, move.combo), cards: names.cards(move.cards) }));
    }
    return facts;
  },

  /**
   * The seat's role, shown as a badge beside its name.
   * @param {Names} names
   * @param {View} view
   * @param {number} seat
   */
  seatRole(names, view, seat) {
    if (view.landlord === null || view.landlord === undefined) return null;
    return { text: role(names, view.landlord === seat), landlord: view.landlord === seat };
  },

  /**
   * @param {Names} names
   * @param {View} view
   * @param {import("../table/draw.js").DrawKit} draw
   */
  board(names, view, draw) {
    const t = names.t;
    const fields = [];
    if (view.phase === "bidding") {
      const said = (view.bids || []).map((/** @type {Event} */ b) => `${names.who(b.seat)} ${bidText(names, b.bid)}`);
      fields.push({
        label: t("table.doudizhu.bids"),
        node: draw.text(said.join(", ") || t("table.doudizhu.no_bids")),
        main: true,
      });
    } else {
      const table = view.table;
      if (table && typeof table === "object" && table.cards && table.cards.length) {
        const beat = t("table.doudizhu.combo_of", { who: names.who(table.seat), combo: comboName(t, table.combo) });
        fields.push({ label: t("table.doudizhu.to_beat"), node: draw.cards(table.cards, { heading: beat }), main: true });
      } else {
        fields.push({ label: t("table.doudizhu.to_beat"), node: draw.text(t("table.doudizhu.new_round"), "muted"), main: true });
      }
      let stakes = t("table.doudizhu.stakes", { bid: whole(view.bid), multiplier: whole(view.multiplier) || 1 });
      const extra = doubled(names, view);
      if (extra.length) stakes = t("table.doudizhu.stakes_why", { stakes, why: extra.join(", ") });
      fields.push({ label: t("table.doudizhu.stakes_label"), node: draw.text(stakes) });
      if (view.kitty && view.kitty.length) {
        fields.push({ label: t("table.doudizhu.kitty"), node: draw.cards(view.kitty, { small: true }) });
      }
    }
    const deal = t("table.doudizhu.deal_value", { number: whole(view.deal) || 1, count: whole(view.deals) || 1 });
    fields.push({ label: t("table.deal"), node: draw.text(deal) });
    return fields;
  },

  /**
   * @param {Names} names
   * @param {Event} event
   * @param {Event | null} _following
   * @param {string[]} lines
   * @param {Memo} memo
   */
  describe(names, event, _following, lines, memo) {
    const t = names.t;
    const who = names.who(event.seat);
    switch (event.type) {
      case "bid":
        lines.push(t("log.doudizhu.bid", { who, bid: bidText(names, event.bid) }));
        return true;
      case "landlord":
        lines.push(
          t("log.doudizhu.landlord", {
            who,
            bid: typeof event.bid === "number" ? event.bid : String(event.bid),
            cards: names.cards(event.kitty),
          }),
        );
        return true;
      case "redeal":
        lines.push(t("log.doudizhu.redeal", { number: whole(event.deal), dealer: names.who(event.dealer) }));
        return true;
      case "pass":
        lines.push(t("log.doudizhu.pass", { who }));
        return true;
      case "round_over":
        lines.push(t("log.doudizhu.round_over", { who: names.who(event.leader) }));
        return true;
      case "play":
        lines.push(t("log.doudizhu.play", { who, combo: comboName(t, event.combo), cards: names.cards(event.cards) }));
        return true;
      case "deal_end": {
        const side = event.winner === "landlord" ? "landlord" : "peasants";
        lines.push(t("log.doudizhu.deal_end", { side, points: names.perSeat((event.points || []).map(signed)) }));
        return true;
      }
      case "deal":
        lines.push(t("log.doudizhu.deal", { number: whole(event.deal), dealer: names.who(event.dealer) }));
        return true;
      case "game_over": {
        const scores = (event.scores || []).map(whole);
        const side = event.winner === null || event.winner === undefined
          ? peasantsWon(scores, memo.landlord, memo.deals)
          : null;
        if (!side) return false;
        const shown = scores.join(", ");
        const mate = partner(names, side);
        if (mate !== null) lines.push(t("log.doudizhu.match_peasants_you", { partner: mate, scores: shown }));
        else lines.push(t("log.doudizhu.match_peasants", { names: names.both(names.who(side[0]), names.who(side[1])), scores: shown }));
        return true;
      }
      default:
        return false;
    }
  },

  /**
   * Who was landlord, the stakes and why they were multiplied, and the points.
   * @param {Names} names
   * @param {Event} event
   * @param {number} number
   * @param {View} view
   * @returns {Breakdown}
   */
  dealSummary(names, event, number, view) {
    const t = names.t;
    const detail = event.detail || {};
    const landlord = "landlord" in detail ? detail.landlord : view.landlord;
    const points = event.points || [];
    const winner = event.winner || ((points[landlord || 0] || 0) > 0 ? "landlord" : "peasants");
    const side = winner === "landlord" ? "landlord" : "peasants";
    const players = [...names.players];
    /** @type {Breakdown} */
    const out = { title: t("summary.doudizhu.title", { number, side }), players, rows: [], notes: [] };
    out.rows.push({ label: t("summary.row.role"), cells: players.map((_, s) => role(names, s === landlord)) });
    out.rows.push({ label: t("summary.row.points_this_deal"), cells: points.map(signed) });
    if (Array.isArray(event.totals)) out.rows.push({ label: t("summary.row.match_totals"), cells: event.totals.map(String) });
    if (Object.keys(detail).length) {
      const bid = detail.bid;
      let stake = t("summary.doudizhu.stake", {
        bid: typeof bid === "number" ? bid : String(bid),
        multiplier: whole(detail.multiplier) || 1,
      });
      const reasons = doubled(names, detail);
      if (reasons.length) stake = t("table.doudizhu.stakes_why", { stakes: stake, why: reasons.join(", ") });
      out.notes.push(stake, t("summary.doudizhu.rule"));
    }
    return out;
  },

  /**
   * The peasants' shared win gets its own title and reason.
   * @param {Names} names
   * @param {Event} result
   * @param {View} view
   * @param {Breakdown} out the shared match summary
   */
  matchSummary(names, result, view, out) {
    const scores = (result.scores || []).map(whole);
    const detail = (view.last_deal || {}).detail || {};
    const landlord = "landlord" in view ? view.landlord : detail.landlord;
    const deals = "deals" in view ? view.deals : 1;
    const side = result.winner === null || result.winner === undefined ? peasantsWon(scores, landlord, deals) : null;
    if (!side) return out;
    const mate = partner(names, side);
    if (mate !== null) {
      out.title = names.t("summary.doudizhu.peasants_you", { partner: mate });
      out.notes[0] = names.t("summary.doudizhu.why_peasants_you", { partner: mate });
    } else {
      const both = names.both(names.who(side[0]), names.who(side[1]));
      out.title = names.t("summary.doudizhu.peasants", { names: both });
      out.notes[0] = names.t("summary.doudizhu.why_peasants", { names: both });
    }
    return out;
  },
};
