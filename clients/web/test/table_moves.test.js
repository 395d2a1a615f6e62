// The move menu: legal actions grouped by card, choices, Dou Dizhu readings and hints.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MoveMenu } from "../src/ui/moves.js";
import { signed, whole } from "../src/ui/names.js";
import { classify, comboName } from "../src/ui/tables/doudizhu_play.js";
import { names } from "./table_catalogues.js";

/**
 * The selection of a menu whose cards are selected and played together.
 * @param {MoveMenu} menu
 */
function selection(menu) {
  assert.ok(menu.selection, "the menu plays cards by selection");
  return menu.selection;
}

test("Scopa: a card that captures two ways is one card with a choice of two", () => {
  const legal = [
    { play: "KS", capture: ["2C", "JH"] },
    { play: "KS", capture: ["2C", "JS"] },
    { play: "6S", capture: [] },
  ];
  const menu = new MoveMenu("scopa", legal, { hand: ["KS", "6S", "QS"] }, names());
  assert.equal(menu.active, true);
  assert.equal(menu.multi, false);
  assert.equal(menu.playable("KS"), true);
  assert.equal(menu.playable("QS"), false);
  const options = menu.options("KS");
  assert.equal(options.length, 2);
  assert.equal(options[0].label, "take Clubs · 2 + Hearts · Jack with Spades · King");
  assert.deepEqual(options[1].action, { play: "KS", capture: ["2C", "JS"] });
  assert.deepEqual(menu.options("6S").map((o) => o.label), ["lay Spades · 6 on the table"]);
  assert.deepEqual(menu.extras, []);
});

test("no moves offered: nothing is playable", () => {
  const menu = new MoveMenu("briscola", [], {}, names());
  assert.equal(menu.active, false);
  assert.equal(menu.playable("AS"), false);
  assert.deepEqual(menu.options("AS"), []);
});

test("Schnapsen: a lead with or without the marriage, the exchange and the close", () => {
  const legal = [
    { play: "QH", marriage: false },
    { play: "QH", marriage: true },
    { play: "AS" },
    { exchange: "JS" },
    { close: true },
  ];
  const menu = new MoveMenu("schnapsen", legal, { trump: "S", indicator: "AS" }, names());
  assert.deepEqual(menu.options("QH").map((o) => o.label), [
    "play Hearts · Queen",
    "lead Hearts · Queen and announce a marriage in hearts (20)",
  ]);
  const trumpMarriage = new MoveMenu("schnapsen", [{ play: "KS", marriage: true }], { trump: "S" }, names());
  assert.match(trumpMarriage.options("KS")[0].label, /\(40\)$/);
  assert.deepEqual(menu.extras.map((e) => [e.key, e.label]), [
    ["1", "lead Hearts · Queen and announce a marriage in hearts (20)"],
    ["x", "exchange Spades · Jack for Spades · Ace"],
    ["c", "close the stock"],
  ]);
  assert.deepEqual(menu.extraFor("c")?.action, { close: true });
  assert.equal(menu.extraFor("p"), null);
});

test("Schnapsen: every lead that announces a marriage is a button of its own, numbered, besides its card's choice", () => {
  const legal = [
    { play: "KH", marriage: false },
    { play: "KH", marriage: true },
    { play: "QH", marriage: false },
    { play: "QH", marriage: true },
    { play: "KS", marriage: false },
    { play: "KS", marriage: true },
    { play: "AC" },
  ];
  const menu = new MoveMenu("schnapsen", legal, { trump: "S" }, names());
  assert.deepEqual(menu.extras.map((e) => [e.key, e.label]), [
    ["1", "lead Hearts · King and announce a marriage in hearts (20)"],
    ["2", "lead Hearts · Queen and announce a marriage in hearts (20)"],
    ["3", "lead Spades · King and announce a marriage in spades (40)"],
  ]);
  assert.deepEqual(menu.extraFor("2")?.action, { play: "QH", marriage: true });
  // the card still offers both ways, and a card of no marriage plays at once
  assert.deepEqual(menu.options("KH").map((o) => o.action), [{ play: "KH", marriage: false }, { play: "KH", marriage: true }]);
  assert.equal(menu.options("AC").length, 1);
  // a follow (no marriage to announce) has no such button
  assert.deepEqual(new MoveMenu("schnapsen", [{ play: "KH" }, { play: "QH" }], { trump: "S" }, names()).extras, []);
});

test("Dou Dizhu: bids are extras with their number as key", () => {
  const menu = new MoveMenu("doudizhu", [{ bid: 1 }, { bid: 2 }, { bid: 3 }, { bid: 0 }], { phase: "bidding" }, names(["A", "B", "C"]));
  assert.equal(menu.multi, false);
  assert.deepEqual(menu.extras.map((e) => [e.key, e.label]), [
    ["1", "bid 1"], ["2", "bid 2"], ["3", "bid 3"], ["0", "no bid"],
  ]);
});

test("Dou Dizhu: a selection is matched by rank, whatever its suits", () => {
  const legal = [
    { combo: "pair", cards: ["5C", "5D"] },
    { combo: "single", cards: ["5C"] },
    { combo: "triple1", cards: ["8C", "8D", "8H", "5C"] },
    { combo: "bomb", cards: ["8C", "8D", "8H", "8S"] },
    { combo: "four2", cards: ["8C", "8D", "8H", "8S", "5C", "5D"] },
    { combo: "airplane", cards: ["8C", "8D", "8H", "9C", "9D", "9H"] },
    { pass: true },
  ];
  const view = { hand: ["5C", "5H", "8C", "8D", "8H", "8S"], table: null };
  const menu = new MoveMenu("doudizhu", legal, view, names(["A", "B", "C"]));
  assert.equal(menu.multi, true);
  assert.equal(menu.playable("5H"), true, "a five of another suit plays the same pair");
  assert.equal(menu.playable("KS"), false);
  const pair = selection(menu).readings(["5C", "5H"]);
  assert.equal(pair.length, 1);
  assert.deepEqual(pair[0].action, { combo: "pair", cards: ["5C", "5H"] });
  assert.equal(pair[0].label, "pair: Clubs · 5, Hearts · 5");
  assert.deepEqual(selection(menu).readings(["8C", "8D", "8H", "8S"]).map((o) => o.action.combo), ["bomb"]);
  assert.deepEqual(selection(menu).readings(["5C", "5H", "8C"]), []);
  assert.deepEqual(menu.extras.map((e) => [e.key, e.label]), [["p", "pass"]]);
});

test("Dou Dizhu: a selection that reads two ways offers both readings", () => {
  // 333444555666 reads as an airplane of four triples or as a three-triple airplane with singles
  const cards = ["3C", "3D", "3H", "4C", "4D", "4H", "5C", "5D", "5H", "6C", "6D", "6H"];
  const legal = [
    { combo: "airplane", cards },
    { combo: "airplane1", cards },
  ];
  const menu = new MoveMenu("doudizhu", legal, { hand: cards }, names(["A", "B", "C"]));
  const readings = selection(menu).readings(cards);
  assert.deepEqual(readings.map((o) => o.action.combo), ["airplane", "airplane1"]);
  assert.match(readings[1].label, /^airplane with singles: /);
});

test("Dou Dizhu: the hint steps through the legal plays and starts over", () => {
  const legal = [
    { combo: "single", cards: ["5C"] },
    { combo: "single", cards: ["8C"] },
    { combo: "pair", cards: ["8C", "8D"] },
    { pass: true },
  ];
  const menu = new MoveMenu("doudizhu", legal, {}, names(["A", "B", "C"]));
  assert.deepEqual(selection(menu).suggestions(), [["5C"], ["8C"], ["8C", "8D"]]);
  assert.deepEqual(selection(menu).nextSuggestion([]), ["5C"]);
  assert.deepEqual(selection(menu).nextSuggestion(["5C"]), ["8C"]);
  assert.deepEqual(selection(menu).nextSuggestion(["8D", "8C"]), ["5C"]);
  assert.equal(selection(new MoveMenu("doudizhu", [{ pass: true }], {}, names())).nextSuggestion([]), null);
});

test("Dou Dizhu: why a selection cannot be played, in the game's words", () => {
  const legal = [{ combo: "pair", cards: ["9C", "9D"] }, { pass: true }];
  const view = { table: { seat: 1, combo: "pair", cards: ["7C", "7D"] } };
  const menu = new MoveMenu("doudizhu", legal, view, names(["A", "B", "C"]));
  assert.match(selection(menu).whyNot([]), /^Select cards first/);
  assert.equal(selection(menu).whyNot(["3C", "5D"]), "Clubs · 3, Diamonds · 5 do not make a Dou Dizhu combination");
  assert.equal(
    selection(menu).whyNot(["5C", "5D"]),
    "Clubs · 5, Diamonds · 5 (pair) cannot beat the pair (Clubs · 7, Diamonds · 7) on the table",
  );
  const leading = new MoveMenu("doudizhu", [{ combo: "single", cards: ["3C"] }], { table: null }, names(["A", "B", "C"]));
  assert.equal(selection(leading).whyNot(["4C", "4D", "4H"]), "Clubs · 4, Diamonds · 4, Hearts · 4 (triple) cannot be played now");
});

test("classify reads combinations as the engine does", () => {
  assert.deepEqual(classify(["3C"]), ["single"]);
  assert.deepEqual(classify(["BJ", "RJ"]), ["rocket"]);
  assert.deepEqual(classify(["3C", "4C", "5C", "6C", "7C"]), ["straight"]);
  assert.deepEqual(classify(["TC", "JC", "QC", "KC", "AC", "2C"]), [], "a two never ends a straight");
  assert.deepEqual(classify(["3C", "3D", "4C", "4D", "5C", "5D"]), ["pairs"]);
  assert.deepEqual(classify(["3C", "3D", "3H", "9S"]), ["triple1"]);
  assert.deepEqual(classify(["3C", "3D", "3H", "9S", "9H"]), ["triple2"]);
  assert.deepEqual(classify(["7C", "7D", "7H", "7S"]), ["bomb"]);
  assert.deepEqual(classify(["7C", "7D", "7H", "7S", "3C", "4C"]), ["four2"]);
  assert.deepEqual(classify(["7C", "7D", "7H", "7S", "3C", "3D", "4C", "4D"]), ["four22"]);
  assert.deepEqual(classify(["3C", "3D", "3H", "4C", "4D", "4H", "8C", "9C"]), ["airplane1"]);
  assert.deepEqual(classify(["3C", "3D", "3H", "4C", "4D", "4H", "8C", "8D", "9C", "9D"]), ["airplane2"]);
  assert.deepEqual(classify(["3C", "3D", "3H", "4C", "4D", "4H", "BJ", "RJ"]), [], "the jokers are never two wings together");
  assert.deepEqual(classify(["3C", "5D"]), []);
  assert.deepEqual(classify(["3C", "3D", "3H", "3S", "4C", "4D", "4H", "5C"]), [], "a wing never uses a core rank");
});

test("signs, whole numbers and combination names", () => {
  assert.equal(signed(3), "+3");
  assert.equal(signed(0), "0");
  assert.equal(signed(-6), "-6");
  assert.equal(whole("7"), 7);
  assert.equal(whole(null), 0);
  assert.equal(whole("x"), 0);
  const t = names().t;
  assert.equal(comboName(t, "four22"), "four with two pairs");
  assert.equal(comboName(t, "newcombo"), "newcombo");
});

test("a suit is named by the name of one of its cards", () => {
  const n = names();
  assert.equal(n.suit("H"), "Hearts");
  assert.equal(n.suit("KH"), "Hearts");
  assert.equal(n.who(1), "Bot");
  assert.equal(n.who(null), "nobody");
  assert.equal(n.who(5), "Seat 6");
  assert.equal(n.either(["a", "b", "c"]), "a or b or c");
  assert.equal(n.cards([]), "nothing");
});
