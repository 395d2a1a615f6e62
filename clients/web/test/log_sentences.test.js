// The page words the game log as the terminal client does: every case of
// fixtures/log_sentences.json (events of seeded matches of every game, with the
// Python lines in every language) worded again by the game modules.
// The fixture comes from tests/web/make_log_fixture.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Names } from "../src/ui/names.js";
import { describeEvents } from "../src/ui/table/words.js";
import { translator } from "./table_catalogues.js";

/**
 * @typedef {{
 *   game: string, seat: number | null, memo: Record<string, unknown>,
 *   events: Record<string, unknown>[], lines: Record<string, string[]>,
 * }} Case
 * @typedef {{
 *   players: string[], seats: Record<string, number>, decks: Record<string, string>,
 *   cards: Record<string, Record<string, Record<string, string>>>, cases: Case[],
 * }} Fixture
 */

/** @type {Fixture} */
const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/log_sentences.json", import.meta.url), "utf8"));
const LANGUAGES = ["en", "it", "sv", "nb", "es", "pl"];

test("the fixture holds every game in every language", () => {
  assert.deepEqual(new Set(FIXTURE.cases.map((c) => c.game)), new Set(["scopa", "briscola", "schnapsen", "doudizhu"]));
  for (const c of FIXTURE.cases) assert.deepEqual(Object.keys(c.lines).sort(), [...LANGUAGES].sort());
});

for (const lang of LANGUAGES) {
  test(`every event is worded as the terminal client words it (${lang})`, () => {
    const t = translator(lang);
    for (const [index, c] of FIXTURE.cases.entries()) {
      const cards = FIXTURE.cards[lang][FIXTURE.decks[c.game]];
      // the page names a card from the served catalogue's deck, or by its code
      const names = new Names(t, (code) => cards[code] || code, FIXTURE.players.slice(0, FIXTURE.seats[c.game]), c.seat);
      const lines = describeEvents(c.game, names, c.events, { ...c.memo });
      assert.deepEqual(lines, c.lines[lang], `case ${index} (${c.game}, seat ${c.seat}): ${JSON.stringify(c.events)}`);
    }
  });
}
