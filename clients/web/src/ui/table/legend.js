// The legend of the card letters: what the letters on the pack in play stand for.
//
// A pack marks its ace and courts with letters of its own tradition (F, C, R on
// Italian packs; 10, 11, 12 with S, C, R on Spanish ones; B, D, K on the
// Wiener Bild; U, O, K on the German pack), and French packs with the letters of
// the player's language (the served catalogue's `indices`: E, Kn, D, K in
// Swedish). The legend names each letter the table draws, with the pack's name
// for the card and, when the language calls it otherwise, the language's word
// ("C = Cavallo (riddare)"). Plain text from plain data, so it runs in Node.

import { COURT_INITIALS, RANK_SCHEMES } from "../../cards/cards.js";

/**
 * @typedef {{
 *   rankScheme?: string, suitSystem: string, indices?: Record<string, string>,
 *   ranks?: Record<string, string>, rankWords?: Record<string, string>,
 * }} LegendPack  the pack as the served catalogue describes it
 * @typedef {{rank: string, letter: string, name: string, word: string | null}} Letter
 */

/** The ranks a pack marks with a letter, in the order the legend names them. */
const LETTERED = ["A", "J", "Q", "K"];

/**
 * The corner index the table draws for a rank of the pack: the language's own for the
 * French pack, else the pack's.
 * @param {LegendPack} pack
 * @param {string} rank
 */
export function cornerLetter(pack, rank) {
  const own = pack.indices ? pack.indices[rank] : undefined;
  if (typeof own === "string" && own) return own;
  const scheme = RANK_SCHEMES[pack.rankScheme || pack.suitSystem] || RANK_SCHEMES.french;
  return scheme[rank] ?? rank;
}

/**
 * The letters of the pack and what each stands for. An ace marked "A" needs no words.
 * @param {LegendPack} pack
 * @param {string} [lang] the player's language (its words are written in lower case)
 * @returns {Letter[]}
 */
export function packLetters(pack, lang) {
  const scheme = pack.rankScheme || pack.suitSystem;
  /** @type {Letter[]} */
  const out = [];
  for (const rank of LETTERED) {
    const corner = cornerLetter(pack, rank);
    const name = pack.ranks ? pack.ranks[rank] : undefined;
    if (!name || (rank === "A" && corner === "A")) continue;
    const initial = COURT_INITIALS[scheme]?.[rank];
    const letter = initial && initial !== corner ? `${corner}/${initial}` : corner;
    const own = pack.rankWords ? pack.rankWords[rank] : undefined;
    const lower = (/** @type {string} */ text) => {
      try {
        return text.toLocaleLowerCase(lang || undefined);
      } catch {
        return text.toLowerCase();
      }
    };
    if (!own || lower(own) === lower(name)) out.push({ rank, letter, name: lower(name), word: null });
    else out.push({ rank, letter, name, word: lower(own) });
  }
  return out;
}

/**
 * The legend in words ("Card letters: F = Fante (jack) · C = Cavallo (knight) · R = Re (king)"),
 * or "" for a pack with no letters to explain.
 * @param {import("../names.js").Translate} t
 * @param {LegendPack} pack
 * @param {string} [lang]
 */
export function legendText(t, pack, lang) {
  const letters = packLetters(pack, lang).map((l) => (l.word === null
    ? t("legend.entry", { letter: l.letter, name: l.name })
    : t("legend.entry_word", { letter: l.letter, name: l.name, word: l.word })));
  // an entry is not broken across lines ("R" at a line's end, "= Re" on the next): only between entries
  const whole = letters.map((entry) => entry.replace(/ /g, "\u00a0"));
  return whole.length ? t("legend.line", { letters: whole.join(" · ") }) : "";
}
