// The table's words: log sentences of each game, deal and match summaries, turn and score lines,
// and the page's own catalogue of table words.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { buttonLabel, dealBreakdown, describeEvents, matchBreakdown, scoresText, seatFacts, turnText } from "../src/ui/table/words.js";
import { messages, names, translator } from "./table_catalogues.js";

const HERE = dirname(fileURLToPath(import.meta.url));

test("Scopa: a capture says it all, a scopa is added to its line", () => {
  const lines = describeEvents("scopa", names(), [
    { type: "play", seat: 0, card: "7D" },
    { type: "capture", seat: 0, card: "7D", cards: ["3C", "4C"] },
    { type: "scopa", seat: 0 },
    { type: "play", seat: 1, card: "KC" },
    { type: "deal_round", stock: 24 },
  ], {});
  assert.deepEqual(lines, [
    "Anna takes Clubs · 3 + Clubs · 4 with Diamonds · 7 — scopa!",
    "Bot lays Clubs · King on the table",
    "Three more cards each; 24 cards left in the stock",
  ]);
});

test("Briscola and Schnapsen: tricks, the trump card drawn, marriages, exchanges", () => {
  const n = names();
  assert.deepEqual(describeEvents("briscola", n, [
    { type: "play", seat: 1, card: "AS" },
    { type: "trick", winner: 1, cards: ["4C", "AS"], points: 11 },
    { type: "draw", seat: 1 },
    { type: "draw", seat: 0, card: "7S" },
  ], {}), [
    "Bot plays Spades · Ace",
    "Bot wins the trick (Clubs · 4 + Spades · Ace): 11 points",
    "Anna draws the trump card Spades · 7",
  ]);
  assert.deepEqual(describeEvents("schnapsen", n, [
    { type: "marriage", seat: 0, suit: "H", points: 20 },
    { type: "exchange", seat: 1, card: "JS", indicator: "AS" },
    { type: "close", seat: 1 },
    { type: "deal", deal: 1, dealer: 0, indicator: "TH" },
  ], {}), [
    "Anna announces a marriage in hearts: 20 points",
    "Bot exchanges Spades · Jack for the trump card Spades · Ace",
    "Bot closes the stock",
    "Deal 2, dealt by Anna; trump card Hearts · 10",
  ]);
});

test("Dou Dizhu: the auction, plays and the peasants' shared win", () => {
  const n = names(["Anna", "Bo", "Cy"], 0);
  /** @type {Record<string, unknown>} */
  const memo = {};
  const lines = describeEvents("doudizhu", n, [
    { type: "bid", seat: 1, bid: 0 },
    { type: "bid", seat: 2, bid: 3 },
    { type: "landlord", seat: 2, bid: 3, kitty: ["8S", "9H", "AD"] },
    { type: "play", seat: 2, combo: "pair", cards: ["5C", "5D"] },
    { type: "pass", seat: 0 },
    { type: "round_over", leader: 2 },
    { type: "deal_end", winner: "peasants", points: [3, 3, -6] },
    { type: "game_over", scores: [3, 3, -6], winner: null, reason: "shared" },
  ], memo);
  assert.deepEqual(lines, [
    "Bo: no bid",
    "Cy: bid 3",
    "Cy becomes the landlord with a bid of 3 and takes the kitty: Spades · 8, Hearts · 9, Diamonds · Ace",
    "Cy plays Clubs · 5, Diamonds · 5 (pair)",
    "Anna passes",
    "Cy wins the round and leads",
    "The peasants win the deal: Anna +3 · Bo +3 · Cy -6",
    "Match over: you and Bo win as the peasants (scores 3, 3, -6)",
  ]);
  assert.equal(memo.landlord, 2);
  const watcher = names(["Anna", "Bo", "Cy"], null);
  assert.deepEqual(describeEvents("doudizhu", watcher, [{ type: "game_over", scores: [3, 3, -6], winner: null }], { landlord: 2 }),
    ["Match over: Anna and Bo win as the peasants (scores 3, 3, -6)"]);
});

test("an unknown game still logs plays and the end of the match", () => {
  assert.deepEqual(describeEvents("newgame", names(), [
    { type: "play", seat: 0, card: "AS" },
    { type: "mystery" },
    { type: "game_over", scores: [5, 2], winner: 0 },
  ], {}), ["Anna plays Spades · Ace", "Match over: Anna wins (scores 5, 2)"]);
});

test("the log reads in the player's language, with plural forms", () => {
  const pl = names(["Anna", "Bot"], 0, "pl");
  const [line] = describeEvents("scopa", pl, [{ type: "deal_round", stock: 22 }], {});
  assert.match(line, /22 karty/);
  const [five] = describeEvents("scopa", pl, [{ type: "deal_round", stock: 25 }], {});
  assert.match(five, /25 kart\b/);
});

test("Scopa's deal summary shows each point with who scored it", () => {
  const event = {
    points: [4, 1],
    detail: { cards: [22, 18], coins: [6, 4], primiera: [78, 70], scopas: [1, 0], awards: { cards: 0, coins: 0, settebello: 1, primiera: null } },
    totals: [9, 4],
  };
  const out = dealBreakdown("scopa", names(), event, 2, {});
  assert.equal(out.title, "Deal 2 scored");
  const rows = Object.fromEntries(out.rows.map((r) => [r.label, r.cells]));
  assert.deepEqual(rows.cards, ["22 +1", "18"]);
  assert.deepEqual(rows.settebello, ["—", "+1"]);
  assert.deepEqual(rows.primiera, ["78", "70"]);
  assert.deepEqual(rows.scopas, ["+1", "0"]);
  assert.deepEqual(rows["points this deal"], ["+4", "+1"]);
  assert.deepEqual(rows["match totals"], ["9", "4"]);
  assert.deepEqual(out.notes, ["primiera: tied, no point"]);
});

test("Schnapsen's deal summary says why and what the deal was worth", () => {
  const event = {
    points: [0, 3],
    detail: { winner: 1, reason: "closer_failed", game_points: 3, card_points: [54, 38], marriage_points: [0, 0], uncredited: [20, 0], totals: [54, 38], tricks: [4, 4], closed_by: 0, closed_opponent_points: 0, closed_opponent_trick: false },
    totals: [5, 3],
    counts: [2, 4],
  };
  const out = dealBreakdown("schnapsen", names(), event, 3, { target: 7 });
  const rows = Object.fromEntries(out.rows.map((r) => [r.label, r.cells]));
  assert.deepEqual(rows["game points"], ["0", "+3"]);
  assert.deepEqual(rows.match, ["5 of 7", "3 of 7"]);
  assert.deepEqual(out.notes, [
    "Why: Anna closed the stock but did not reach 66; 3 game points (as things stood when the stock was closed)",
    "When the stock was closed, the opponent had 0 points and no trick",
    "Anna's marriage of 20 never counted (no trick won)",
  ]);
});

test("Dou Dizhu's summaries: the stake, and the peasants' title", () => {
  const n = names(["Anna", "Bo", "Cy"], 1);
  const deal = dealBreakdown("doudizhu", n, {
    winner: "peasants", points: [2, 2, -4], totals: [2, 2, -4],
    detail: { landlord: 2, bid: 1, bombs: 1, rockets: 0, spring: false, reverse_spring: false, multiplier: 2 },
  }, 1, {});
  assert.equal(deal.title, "Deal 1: the peasants win");
  assert.deepEqual(deal.rows[0].cells, ["peasant", "peasant", "landlord"]);
  assert.equal(deal.notes[0], "Bid 1 × multiplier 2 (1 bomb)");
  const match = matchBreakdown("doudizhu", n, { scores: [2, 2, -4], winner: null, reason: "shared", record: "rec-1" }, { landlord: 2, deals: 1 });
  assert.equal(match.title, "You and Anna win as the peasants!");
  assert.deepEqual(match.rows[0].cells, ["2", "2", "-4"]);
  assert.equal(match.notes[1], "Record: rec-1");
});

test("the match summary names the winner and the reason", () => {
  const won = matchBreakdown("briscola", names(), { scores: [70, 50], winner: 0, reason: "points" }, {});
  assert.equal(won.title, "You win!");
  assert.equal(won.rows[0].label, "card points");
  assert.deepEqual(won.notes, ["Why: Anna has the most points"]);
  const lost = matchBreakdown("scopa", names(), { scores: [8, 11], winner: 1, reason: "target" }, { target: 11 });
  assert.equal(lost.title, "Bot wins");
  assert.deepEqual(lost.notes, ["Why: Bot reached the target of 11"]);
  const odd = matchBreakdown("scopa", names(), { scores: [1, 1], winner: null, reason: "timeout" }, {});
  assert.deepEqual(odd.notes, ["Why: timeout"]);
});

test("seat facts, scores and the turn line", () => {
  const n = names();
  assert.deepEqual(seatFacts("scopa", n, { hand_counts: [3, 1], captured: [["AS"], []], scopas: [2, 0] }, 0),
    ["3 cards", "1 taken", "2 scopas"]);
  assert.deepEqual(seatFacts("briscola", n, { hand_counts: [3, 3], tricks: [1, 0], points: [11, 0] }, 0),
    ["3 cards", "1 trick", "11 points"]);
  assert.deepEqual(seatFacts("schnapsen", n, { hand_counts: [5, 5], tricks: [0, 0], points: [0, 0], shown: [[], ["QH"]] }, 1),
    ["5 cards", "0 tricks", "0 points", "holds Hearts · Queen"]);
  assert.deepEqual(seatFacts("doudizhu", names(["A", "B", "C"]), { hand_counts: [20, 17, 17], landlord: 0 }, 0),
    ["landlord", "20 cards"]);
  assert.equal(scoresText("scopa", n, { totals: [3, 1], target: 11 }), "totals: Anna 3 · Bot 1 (to 11)");
  assert.equal(scoresText("schnapsen", n, { counts: [7, 5], target: 7 }), "game points: Anna 0 · Bot 2 (to 7)");
  assert.equal(turnText(n, { to_move: 0 }), "your turn");
  assert.equal(turnText(n, { to_move: 1 }), "Bot to play");
  assert.equal(turnText(n, { to_move: null, result: { winner: 0 } }), "match over");
});

test("every word the table page adds is used by its code and reads in every language", () => {
  const english = messages("en");
  const keys = Object.keys(english).filter((k) => k.startsWith("webtable."));
  assert.ok(keys.length > 10);
  const sources = [join(HERE, "..", "src", "ui", "table.js"), join(HERE, "..", "src", "ui", "moves.js")];
  for (const folder of ["tables", "table"]) {
    const dir = join(HERE, "..", "src", "ui", folder);
    for (const file of readdirSync(dir)) sources.push(join(dir, file));
  }
  const code = sources.map((p) => readFileSync(p, "utf8")).join("\n");
  for (const key of keys) assert.ok(code.includes(`"${key}"`), `${key} is not used`);
  for (const key of code.match(/"webtable\.[a-z_.]+"/g) || []) {
    assert.ok(key.slice(1, -1) in english, `${key} has no English text`);
  }
  for (const lang of ["en", "it", "sv", "nb", "es", "pl"]) {
    const t = translator(lang);
    for (const count of [1, 2, 5, 22]) {
      const text = t("webtable.opponent_hand", { name: "Ola", count });
      assert.ok(text.includes(String(count)) && text.includes("Ola"), `${lang}: ${text}`);
    }
  }
  assert.equal(translator("pl")("webtable.opponent_hand", { name: "Ola", count: 5 }), "Ręka gracza Ola: 5 kart");
});

test("Dou Dizhu: each seat's play or pass in the round on the table", () => {
  const n = names(["Anna", "Bo", "Cy"], 0);
  const history = [
    { seat: 0, bid: 3 },
    { seat: 0, combo: "single", cards: ["3C"] },
    { seat: 1, pass: true },
    { seat: 2, pass: true },
    { seat: 0, combo: "pair", cards: ["5C", "5D"] },
    { seat: 1, combo: "pair", cards: ["9C", "9D"] },
    { seat: 2, pass: true },
  ];
  const view = { phase: "play", landlord: 0, hand_counts: [14, 15, 17], history };
  assert.deepEqual(seatFacts("doudizhu", n, view, 0), ["landlord", "14 cards", "played Clubs · 5, Diamonds · 5 (pair)"]);
  assert.deepEqual(seatFacts("doudizhu", n, view, 1), ["peasant", "15 cards", "played Clubs · 9, Diamonds · 9 (pair)"]);
  assert.deepEqual(seatFacts("doudizhu", n, view, 2), ["peasant", "17 cards", "passed this round"]);
  const cleared = { ...view, history: [...history, { seat: 0, pass: true }] };
  assert.deepEqual(seatFacts("doudizhu", n, cleared, 2), ["peasant", "17 cards"], "two passes close the round");
});

test("a move's label starts with a capital on a button, as every other button does", () => {
  assert.equal(buttonLabel("passa"), "Passa");
  assert.equal(buttonLabel("lead Hearts · King and announce a marriage in hearts (20)"),
    "Lead Hearts · King and announce a marriage in hearts (20)");
  assert.equal(buttonLabel("ściągnij"), "Ściągnij");
  assert.equal(buttonLabel(""), "");
});
