// The lobby offers the expert level in a game whose catalogue lists it, after strong, in the
// reader's language; a game without one keeps its own levels.

import assert from "node:assert/strict";
import { test } from "node:test";

import { LEVELS } from "../src/protocol/names.js";
import { chosenLevel, initialState, levelTexts, levelsFor, reduce } from "../src/ui/lobby_state.js";
import { messages, translator } from "./table_catalogues.js";

const CATALOGUE = {
  games: [
    { id: "briscola", players: 2, options: {} },
    { id: "scopa", players: 2, options: {} },
  ],
  decks: [],
  bots: [ // the server lists a game's levels weakest first; the page orders them all the same
    { id: "briscola-expert", game: "briscola", level: "expert", name: "Expert (Briscola)", description: "Reads the opponent." },
    { id: "briscola-random", game: "briscola", level: "random" },
    { id: "briscola-basic", game: "briscola", level: "basic" },
    { id: "briscola-strong", game: "briscola", level: "strong" },
    { id: "scopa-basic", game: "scopa", level: "basic" },
    { id: "scopa-strong", game: "scopa", level: "strong" },
  ],
};

/** @param {string} lang */
const words = (lang) => {
  const known = messages(lang);
  return { t: translator(lang), has: (/** @type {string} */ key) => key in known };
};

test("expert is the strongest level, after strong, where the game has one", () => {
  assert.equal(LEVELS.at(-1), "expert");
  assert.deepEqual(levelsFor(CATALOGUE, "briscola"), ["random", "basic", "strong", "expert"]);
  assert.deepEqual(levelsFor(CATALOGUE, "scopa"), ["basic", "strong"]);
});

test("a chosen expert stays chosen in its game; a game without one offers basic", () => {
  let state = reduce(initialState({ name: "Anna" }), { type: "catalogue", ...CATALOGUE });
  state = reduce(state, { type: "choose_level", game: "briscola", level: "expert" });
  assert.equal(chosenLevel(state, "briscola"), "expert");
  state = reduce(state, { type: "choose_level", game: "scopa", level: "expert" });
  assert.equal(chosenLevel(state, "scopa"), "basic");
});

test("the expert level is named and described in every language", () => {
  const state = reduce(initialState({ name: "Anna" }), { type: "catalogue", ...CATALOGUE });
  const names = { en: "Expert", sv: "Expert", nb: "Ekspert", es: "Experto", pl: "Ekspert", it: "Esperto" };
  for (const [lang, name] of Object.entries(names)) {
    const texts = levelTexts(state, words(lang), "briscola", "expert");
    assert.equal(texts.name, name, lang);
    assert.notEqual(texts.about, levelTexts(state, words(lang), "briscola", "strong").about, lang);
    assert.notEqual(texts.about, "Reads the opponent.", lang); // the catalogue's words, not the server's English
  }
});
