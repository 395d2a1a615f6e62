// The legend of the card letters: each pack's letters, named in the player's language.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cornerLetter, legendText as legend, packLetters } from "../src/ui/table/legend.js";
import { translator } from "./table_catalogues.js";

/**
 * The legend with its no-break spaces read as spaces (each entry is kept on one line).
 * @param {import("../src/ui/names.js").Translate} t
 * @param {import("../src/ui/table/legend.js").LegendPack} pack
 * @param {string} lang
 */
function legendText(t, pack, lang) {
  return legend(t, pack, lang).replace(/\u00a0/g, " ");
}

// the packs as the served catalogue describes them (protocol/i18n.py `served_catalogue`)
const ITALIAN = { suitSystem: "italian", rankScheme: "italian", ranks: { A: "Asso", J: "Fante", Q: "Cavallo", K: "Re" } };
const FRENCH_SV = {
  suitSystem: "french", rankScheme: "french", indices: { A: "E", J: "Kn", Q: "D", K: "K", T: "10" },
  ranks: { A: "Ess", J: "Knekt", Q: "Dam", K: "Kung" }, rankWords: { A: "Ess", J: "Knekt", Q: "Dam", K: "Kung" },
};

test("an Italian pack: F, C, R, with the language's word where it has its own", () => {
  const it = translator("it");
  assert.equal(legendText(it, { ...ITALIAN, rankWords: ITALIAN.ranks }, "it"), "Lettere delle carte: F = fante · C = cavallo · R = re");
  const en = translator("en");
  assert.equal(legendText(en, { ...ITALIAN, rankWords: { A: "Ace", J: "Jack", Q: "Knight", K: "King" } }, "en"),
    "Card letters: F = Fante (jack) · C = Cavallo (knight) · R = Re (king)");
});

test("a French pack in Swedish: the language's own letters, the ace among them", () => {
  assert.equal(cornerLetter(FRENCH_SV, "J"), "Kn");
  assert.equal(legendText(translator("sv"), FRENCH_SV, "sv"), "Kortens bokstäver: E = ess · Kn = knekt · D = dam · K = kung");
});

test("Spanish packs: the number in the corner and the initial in the medallion; the Wiener Bild", () => {
  const spanish = { suitSystem: "spanish", rankScheme: "spanish", ranks: { A: "As", J: "Sota", Q: "Caballo", K: "Rey" }, rankWords: { A: "As", J: "Sota", Q: "Caballo", K: "Rey" } };
  assert.deepEqual(packLetters(spanish, "es").map((l) => l.letter), ["1", "10/S", "11/C", "12/R"]);
  const schnapsen = {
    suitSystem: "french", rankScheme: "schnapsen", ranks: { A: "Ass", J: "Bube", Q: "Dame", K: "König" },
    rankWords: { A: "As", J: "Walet", Q: "Dama", K: "Król" },
  };
  assert.equal(legendText(translator("pl"), schnapsen, "pl"), "Litery na kartach: B = Bube (walet) · D = Dame (dama) · K = König (król)");
});

test("an entry is never broken across lines, only the list between entries", () => {
  const text = legend(translator("en"), { ...ITALIAN, rankWords: { A: "Ace", J: "Jack", Q: "Knight", K: "King" } }, "en");
  assert.ok(text.includes("R\u00a0=\u00a0Re\u00a0(king)"));
  assert.ok(text.includes("(jack) · C"));
});

test("a pack the catalogue does not describe has no legend", () => {
  assert.equal(legendText(translator("en"), { suitSystem: "french" }, "en"), "");
});
