// Dou Dizhu's play: the combinations by their rules, and picking one by selecting cards.
//
// A play is picked by selecting cards: the selection's ranks are matched
// against every legal combination of the `your_turn` list (suits never matter
// there), and when they read as more than one combination the player chooses
// the reading. `classify` reads a selection as the engine does
// (`doudizhu_moves.classify`), only to explain why a selection is refused:
// what may be played is always the `your_turn` list. Plain data and text, with
// no page around it, so that it runs (and is tested) in Node as in the browser.

/**
 * @typedef {import("../names.js").Names} Names
 * @typedef {import("../names.js").Translate} Translate
 * @typedef {import("../moves.js").Action} Action
 * @typedef {import("../moves.js").Option} Option
 * @typedef {import("../moves.js").View} View
 */

/**
 * The rank part of a card code ("T" of "TS", "B" of the black joker "BJ").
 * @param {string} code
 */
function rankOf(code) {
  return code.charAt(0);
}

/**
 * How many cards of each rank.
 * @param {string[]} codes
 * @returns {Map<string, number>}
 */
function rankCounts(codes) {
  const counts = new Map();
  for (const code of codes) {
    counts.set(rankOf(code), (counts.get(rankOf(code)) || 0) + 1);
  }
  return counts;
}

/**
 * @param {Map<string, number>} a
 * @param {Map<string, number>} b
 */
function sameCounts(a, b) {
  if (a.size !== b.size) return false;
  for (const [rank, n] of a) {
    if (b.get(rank) !== n) return false;
  }
  return true;
}

/**
 * The cards selected so far, matched against the legal combinations: what the
 * move menu of a game played by selection holds.
 */
export class Selection {
  /**
   * @param {Action[]} legal the `your_turn` actions
   * @param {View} view
   * @param {Names} names
   */
  constructor(legal, view, names) {
    this.view = view;
    this.names = names;
    this.t = names.t;
    /** @type {[Action, Map<string, number>][]} */
    this.comboRanks = legal
      .filter((a) => "combo" in a && Array.isArray(a.cards))
      .map((a) => [a, rankCounts(a.cards)]);
    /** @type {Set<string>} */
    this.playableRanks = new Set();
    for (const [, ranks] of this.comboRanks) {
      for (const rank of ranks.keys()) this.playableRanks.add(rank);
    }
  }

  /**
   * Whether the card's rank takes part in some legal combination.
   * @param {string} code
   */
  playable(code) {
    return this.playableRanks.has(rankOf(code));
  }

  /**
   * Every legal combination the selected cards form, played with exactly those cards.
   * @param {string[]} selected
   * @returns {Option[]}
   */
  readings(selected) {
    const want = rankCounts(selected);
    const cards = [...selected];
    return this.comboRanks
      .filter(([, ranks]) => sameCounts(ranks, want))
      .map(([a]) => ({
        label: this.t("moves.reading", { combo: this.combo(a.combo), cards: this.names.cards(cards) }),
        action: { combo: a.combo, cards },
      }));
  }

  /**
   * The cards of every legal combination, in the server's order, without repeats.
   * @returns {string[][]}
   */
  suggestions() {
    /** @type {string[][]} */
    const out = [];
    const seen = new Set();
    for (const [a] of this.comboRanks) {
      const key = [...a.cards].sort().join(" ");
      if (!seen.has(key)) {
        seen.add(key);
        out.push([...a.cards]);
      }
    }
    return out;
  }

  /**
   * The suggestion after the one selected now (the first when the selection is none of them).
   * @param {string[]} selected
   * @returns {string[] | null}
   */
  nextSuggestion(selected) {
    const plays = this.suggestions();
    if (!plays.length) return null;
    const now = [...selected].sort().join(" ");
    const index = plays.findIndex((p) => [...p].sort().join(" ") === now);
    return plays[(index + 1) % plays.length];
  }

  /**
   * Why the selected cards are no legal play now, in the game's words.
   * @param {string[]} selected
   */
  whyNot(selected) {
    if (!selected.length) return this.t("webtable.why_not.nothing_selected");
    const shown = this.names.cards(selected);
    const kinds = classify(selected);
    if (!kinds.length) return this.t("moves.why_not.no_combination", { cards: shown });
    const either = this.names.either(kinds.map((k) => this.combo(k)));
    const table = this.view.table;
    if (table && typeof table === "object" && table.combo) {
      return this.t("moves.why_not.does_not_beat", {
        cards: shown,
        kinds: either,
        combo: this.combo(table.combo),
        table: this.names.cards(table.cards || []),
      });
    }
    return this.t("moves.why_not.not_now", { cards: shown, kinds: either });
  }

  /** @param {unknown} combo */
  combo(combo) {
    return comboName(this.t, combo);
  }
}

/**
 * The selection of Dou Dizhu's play phase; none while bidding.
 * @param {Action[]} legal
 * @param {View} view
 * @param {Names} names
 */
export function selection(legal, view, names) {
  return legal.some((a) => "combo" in a || "pass" in a) ? new Selection(legal, view, names) : null;
}

/**
 * A Dou Dizhu combination by its record name (`pair`, `airplane1`) as players
 * call it; a combination the catalogue does not know is shown by its record name.
 * @param {Translate} t
 * @param {unknown} combo
 */
export function comboName(t, combo) {
  const name = String(combo ?? "");
  if (!COMBOS.includes(name)) return name;
  return t(`combo.${name}`);
}

/** Rank characters from low to high: 3 .. K, A, 2, black joker B, red joker R. */
const RANKS = "3456789TJQKA2BR";
const ACE = 11;
const BLACK = 13;
const RED = 14;

/** The combination types by their record names, in the order the engine lists moves. */
export const COMBOS = [
  "single", "pair", "triple", "triple1", "triple2", "straight", "pairs", "airplane",
  "airplane1", "airplane2", "four2", "four22", "bomb", "rocket",
];

/**
 * Every combination a set of cards forms, by its record name (empty when none),
 * read from the cards' ranks as the engine reads them (`doudizhu_moves.classify`).
 * It only explains why a selection is refused: what may be played is always the
 * `your_turn` list.
 * @param {string[]} codes
 * @returns {string[]}
 */
export function classify(codes) {
  /** @type {number[]} */
  const c = new Array(RANKS.length).fill(0);
  for (const code of codes) {
    const r = RANKS.indexOf(rankOf(code));
    if (r < 0) return [];
    c[r] += 1;
  }
  const n = codes.length;
  const present = c.map((k, r) => (k ? r : -1)).filter((r) => r >= 0);
  if (!present.length) return [];
  const shape = present.map((r) => c[r]).sort((a, b) => b - a).join(",");
  const top = present[present.length - 1];
  const low = present[0];
  /** @type {Set<string>} */
  const found = new Set();
  const consecutive = top - low + 1 === present.length && top <= ACE;
  if (n === 1) found.add("single");
  else if (shape === "2") found.add("pair");
  else if (shape === "3") found.add("triple");
  else if (shape === "3,1") found.add("triple1");
  else if (shape === "3,2") found.add("triple2");
  if (consecutive && present.every((r) => c[r] === 1) && n >= 5) found.add("straight");
  if (consecutive && present.every((r) => c[r] === 2) && present.length >= 3) found.add("pairs");
  if (consecutive && present.every((r) => c[r] === 3) && present.length >= 2) found.add("airplane");
  if (n % 4 === 0 && n / 4 >= 2) {
    for (const key of cores(c, n / 4)) {
      const rest = minusCore(c, key, n / 4);
      if (rest && Math.max(...rest) <= 2 && !(rest[BLACK] && rest[RED])) found.add("airplane1");
    }
  }
  if (n % 5 === 0 && n / 5 >= 2) {
    for (const key of cores(c, n / 5)) {
      const rest = minusCore(c, key, n / 5);
      if (rest && rest.every((x) => x === 0 || x === 2)) found.add("airplane2");
    }
  }
  const fours = present.filter((r) => c[r] === 4);
  if (shape === "4" && n === 4) found.add("bomb");
  if (n === 6 && fours.length === 1 && !(c[BLACK] && c[RED])) found.add("four2");
  if (n === 8 && fours.length === 1 && shape === "4,2,2") found.add("four22");
  if (n === 2 && c[BLACK] && c[RED]) found.add("rocket");
  return COMBOS.filter((name) => found.has(name));
}

/**
 * Top ranks (3..A) of the runs of `k` consecutive triples.
 * @param {number[]} c
 * @param {number} k
 */
function cores(c, k) {
  const out = [];
  let run = 0;
  for (let top = 0; top <= ACE; top++) {
    run = c[top] >= 3 ? run + 1 : 0;
    if (run >= k) out.push(top);
  }
  return out;
}

/**
 * Counts left after an airplane core of `k` triples ending at `top`; null when a
 * core rank has a fourth card (wings never use a core rank).
 * @param {number[]} c
 * @param {number} top
 * @param {number} k
 */
function minusCore(c, top, k) {
  const rest = [...c];
  for (let r = top - k + 1; r <= top; r++) {
    if (rest[r] !== 3) return null;
    rest[r] = 0;
  }
  return rest;
}
