// The games the page has a table for, by their id, and what a game's module may say.
//
// A game module is plain functions over the view, the events and the table's
// names (`names.js`); it draws through the kit the frame passes in, so its
// sentences, move labels and summaries run in Node as in the page. Every
// field but `game` and `scoreLabel` is optional: the frame words what a game
// leaves out the same way for every game. A new game's table is a module here
// and a line in `GAMES`.

import briscola from "./briscola.js";
import doudizhu from "./doudizhu.js";
import schnapsen from "./schnapsen.js";
import scopa from "./scopa.js";

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../moves.js").View} View
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../moves.js").Extra} Extra
 * @typedef {import("./doudizhu_play.js").Selection} Selection
 * @typedef {Record<string, any>} GameData
 *   a view, an action or an event: each game's own fields, which only that game's module reads
 *   (the engines define them, `games/*.py`; the table's messages around them are typed in `table/messages.js`)
 * @typedef {GameData} Event  a public event of a delta
 * @typedef {import("./scopa.js").Breakdown} Breakdown
 * @typedef {{label: string, node: Node, main?: boolean}} Field
 * @typedef {import("../table/draw.js").DrawKit} DrawKit
 * @typedef {{
 *   game: string,
 *   scoreLabel: string,
 *   seatFacts?: (names: Names, view: View, seat: number, facts: string[]) => string[],
 *   seatRole?: (names: Names, view: View, seat: number) => ({text: string, landlord: boolean} | null),
 *   board?: (names: Names, view: View, draw: DrawKit) => Field[],
 *   scores?: (names: Names, view: View, totals: string) => string,
 *   remember?: (memo: Record<string, unknown>, event: Event) => void,
 *   describe?: (names: Names, event: Event, following: Event | null, lines: string[], memo: Record<string, unknown>) => boolean,
 *   dealSummary?: (names: Names, event: Event, number: number, view: View) => Breakdown,
 *   matchSummary?: (names: Names, result: Event, view: View, out: Breakdown) => Breakdown,
 *   moveLabel?: (names: Names, view: View, action: Action) => string | null,
 *   extra?: (names: Names, view: View, action: Action, legal?: Action[]) => Extra | null,
 *   selection?: (legal: Action[], view: View, names: Names) => Selection | null,
 * }} GameModule
 */

/** @type {Record<string, GameModule>} */
export const GAMES = { scopa, briscola, schnapsen, doudizhu };

/** @type {GameModule} */
const GENERIC = { game: "", scoreLabel: "summary.row.final_score" };

/**
 * The module of a game; a game this page does not know gets the generic table.
 * @param {string} game
 * @returns {GameModule}
 */
export function gameModule(game) {
  return Object.prototype.hasOwnProperty.call(GAMES, game) ? GAMES[game] : GENERIC;
}
