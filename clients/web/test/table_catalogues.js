// The catalogues and names the table tests read: the real message files, formatted as the page does.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { createTranslator } from "../src/protocol/i18n.js";
import { Names } from "../src/ui/names.js";

const CATALOGUES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "protocol", "catalogues");

/**
 * Every message of a language by its full key, English filling the gaps, as the server serves them.
 * @param {string} lang
 */
export function messages(lang) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const which of lang === "en" ? ["en"] : ["en", lang]) {
    for (const file of readdirSync(CATALOGUES).filter((f) => f.endsWith(`.${which}.json`))) {
      const area = file.slice(0, -`.${which}.json`.length);
      const data = JSON.parse(readFileSync(join(CATALOGUES, file), "utf8"));
      for (const [key, text] of Object.entries(data)) {
        if (!key.startsWith("_")) out[`${area}.${key}`] = /** @type {string} */ (text);
      }
    }
  }
  return out;
}

/**
 * A translator that fails the test on a missing key or a message it cannot format.
 * @param {string} [lang]
 */
export function translator(lang = "en") {
  const { t } = createTranslator({ lang, messages: messages(lang) }, {
    onProblem: (problem) => {
      throw new Error(`catalogue problem: ${JSON.stringify(problem)}`);
    },
  });
  return t;
}

/** Card names as the served catalogue gives them ("Hearts · King"), for the cards the tests use. */
const SUITS = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10" };

/** @param {string} code */
export function cardName(code) {
  if (code === "BJ") return "Black joker";
  if (code === "RJ") return "Red joker";
  const suit = /** @type {Record<string, string>} */ (SUITS)[code[1]];
  if (!suit) return code;
  return `${suit} · ${/** @type {Record<string, string>} */ (RANKS)[code[0]] || code[0]}`;
}

/**
 * @param {string[]} [players]
 * @param {number | null} [seat]
 * @param {string} [lang]
 */
export function names(players = ["Anna", "Bot"], seat = 0, lang = "en") {
  return new Names(translator(lang), cardName, players, seat);
}
