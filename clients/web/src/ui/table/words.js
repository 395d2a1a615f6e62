// The table's words that every game shares: seat facts, scores, whose turn, log
// sentences and the deal and match summaries, each handing over to the game's
// module (`tables/*.js`) where it has words of its own.
//
// Plain text from plain data: no page, so that it runs in Node's tests as in the browser.

import { displaySafe } from "../dom.js";
import { signed } from "../names.js";
import { gameModule } from "../tables/index.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("../tables/index.js").Event} Event
 * @typedef {import("../tables/index.js").Breakdown} Breakdown
 */

/**
 * The facts shown beside a seat's name: cards in hand, then the game's own.
 * @param {string} game
 * @param {Names} names
 * @param {View} view
 * @param {number} seat
 */
export function seatFacts(game, names, view, seat) {
  const counts = view.hand_counts || [];
  const facts = seat < counts.length ? [names.count("table.count.cards", counts[seat])] : [];
  const module = gameModule(game);
  return module.seatFacts ? module.seatFacts(names, view, seat, facts) : facts;
}

/**
 * The match standing, for the table's header.
 * @param {string} game
 * @param {Names} names
 * @param {View} view
 */
export function scoresText(game, names, view) {
  const totals = Array.isArray(view.totals) ? names.t("table.totals", { scores: names.perSeat(view.totals) }) : "";
  const module = gameModule(game);
  return module.scores ? module.scores(names, view, totals) : totals;
}

/**
 * Whose turn it is, in words.
 * @param {Names} names
 * @param {View} view
 */
export function turnText(names, view) {
  const mover = view.to_move;
  if (mover === null || mover === undefined) return view.result ? names.t("table.turn.over") : "";
  if (mover === names.seat) return names.t("table.your_turn");
  return names.t("table.turn.other", { name: names.who(mover) });
}

/**
 * Log sentences for the events of one delta.
 * @param {string} game
 * @param {Names} names
 * @param {Event[]} events
 * @param {Record<string, unknown>} memo what the game's log remembers from one delta to the next
 */
export function describeEvents(game, names, events, memo) {
  const module = gameModule(game);
  /** @type {string[]} */
  const lines = [];
  events.forEach((event, index) => {
    const following = index + 1 < events.length ? events[index + 1] : null;
    if (module.remember) module.remember(memo, event);
    if (module.describe && module.describe(names, event, following, lines, memo)) return;
    if (event.type === "play" && "card" in event) {
      lines.push(names.t("log.play", { who: names.who(event.seat), card: names.card(event.card) }));
    } else if (event.type === "game_over") {
      lines.push(matchLine(names, event));
    }
  });
  return lines;
}

/**
 * What the log remembers after the events of one delta, from what it remembered before
 * (a new object: the one passed in is left as it was).
 * @param {string} game
 * @param {Record<string, unknown>} memo
 * @param {Event[]} events
 */
export function rememberEvents(game, memo, events) {
  const module = gameModule(game);
  const out = { ...memo };
  if (module.remember) for (const event of events) module.remember(out, event);
  return out;
}

/**
 * @param {Names} names
 * @param {Event} event
 */
function matchLine(names, event) {
  const scores = (event.scores || []).join(", ");
  if (event.winner === null || event.winner === undefined) return names.t("log.match_over.shared", { scores });
  return names.t("log.match_over.winner", { who: names.who(event.winner), scores });
}

/**
 * The breakdown of a scored deal, from its `deal_end` event merged with the `deal_result`.
 * @param {string} game
 * @param {Names} names
 * @param {Event} event
 * @param {number} number the deal's number, counted from 1
 * @param {View} view
 * @returns {Breakdown}
 */
export function dealBreakdown(game, names, event, number, view) {
  const module = gameModule(game);
  if (module.dealSummary) return module.dealSummary(names, event, number, view);
  const t = names.t;
  /** @type {Breakdown} */
  const out = { title: t("summary.deal_scored", { number }), players: [...names.players], rows: [], notes: [] };
  out.rows.push({ label: t("summary.row.points"), cells: (event.points || []).map(signed) });
  if (Array.isArray(event.totals)) out.rows.push({ label: t("summary.row.match_totals"), cells: event.totals.map(String) });
  return out;
}

/**
 * Who won the match, in words: the match summary's title.
 * @param {Names} names
 * @param {unknown} winner the winning seat; null when no one seat won
 */
export function matchTitle(names, winner) {
  if (winner === null || winner === undefined) return names.t("summary.title.shared");
  if (winner === names.seat) return names.t("summary.title.you_win");
  return names.t("summary.title.wins", { name: names.who(/** @type {number} */ (winner)) });
}

/**
 * The breakdown of the match: who won, the scores, why, and the record.
 * @param {string} game
 * @param {Names} names
 * @param {Event} result the `match_result` message
 * @param {View} view
 * @returns {Breakdown}
 */
export function matchBreakdown(game, names, result, view) {
  const t = names.t;
  const winner = result.winner;
  const title = matchTitle(names, winner);
  const module = gameModule(game);
  /** @type {Breakdown} */
  const out = { title, players: [...names.players], rows: [], notes: [] };
  out.rows.push({ label: t(module.scoreLabel), cells: (result.scores || []).map(String) });
  const reason = String(result.reason ?? "");
  const target = typeof view.target === "number" ? view.target : String(view.target ?? "");
  const known = ["target", "points", "shared"].includes(reason);
  // a reason this page has no words for (a newer server) is shown as the server names it
  const why = known ? t(`summary.reason.${reason}`, { winner: names.who(winner), target }) : reason;
  out.notes.push(t("summary.why", { reason: why }));
  if (result.record) out.notes.push(t("summary.record", { record: String(result.record) }));
  return module.matchSummary ? module.matchSummary(names, result, view, out) : out;
}

/**
 * What the table's words are read from: the language's messages, the served
 * catalogue's names for the game and its deck, and the table's names.
 * @typedef {{
 *   t: import("../names.js").Translate, names: Names, menu: import("../moves.js").MoveMenu,
 *   has: (key: string) => boolean, gameName: string, deckName: string, code: string,
 * }} Wording
 * @typedef {import("./state.js").Say} Say
 */

/**
 * The lines of a log entry or the status line, in the player's language.
 * @param {Wording} w
 * @param {Say} say
 * @returns {string[]}
 */
export function sayLines(w, say) {
  const { t, names } = w;
  /** @param {number[]} seats */
  const list = (seats) => seats.map((s) => names.who(s)).join(", ");
  switch (say.say) {
    case "text":
      return [t(say.key)];
    case "opening":
      return [t("table.opening", { game: w.gameName, deck: w.deckName, code: w.code })];
    case "begins":
      return [t("table.match.begins", { players: names.players.join(", ") })];
    case "events":
      return describeEvents(say.game, names, say.events, { ...say.memo });
    case "rematch_asked":
      return [t("table.rematch.asked", { names: list(say.asked), count: say.asked.length })];
    case "rematch_waiting":
      return [t("table.rematch.waiting", { names: list(say.waiting) })];
    case "cannot_play": {
      const card = names.card(say.card);
      const extras = w.menu.extras.map((e) => e.label);
      return [extras.length
        ? t("webtable.cannot_play_or", { card, moves: names.either(extras) })
        : t("table.status.cannot_play", { card })];
    }
    case "why_not":
      return [w.menu.selection ? w.menu.selection.whyNot(say.cards) : ""];
    case "match_over":
      return [t("webtable.over"), matchTitle(names, say.winner)];
    case "refused": {
      const reason = w.has(`errors.${say.code}`) ? t(`errors.${say.code}`) : displaySafe(say.message);
      return [t("table.status.refused", { reason })];
    }
    default:
      return [];
  }
}

/**
 * A move's label as a button or a choice shows it: its first letter in upper case. The
 * catalogues write move labels in lower case, to sit inside the terminal client's prompt
 * ("3: bid 3 · 0: pass"); on a button they start as every other button does ("Pass").
 * @param {string} label
 */
export function buttonLabel(label) {
  return label ? label.charAt(0).toLocaleUpperCase() + label.slice(1) : label;
}
