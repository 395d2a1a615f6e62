// The replay's stepping, against replays built from real records
// (test/fixtures/replays.json, tests/web/make_replay_fixture.py): every view at
// every step is what the server's engine gave, forward and back, by deal, with
// the seat followed and the analysis of the person's moves.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { BadReplay, dealNow, fromReplay, mark, reduce, stepEvents, stepNow, tally, viewsNow } from "../src/ui/replay_state.js";
import { describeEvents } from "../src/ui/table/words.js";
import { Names } from "../src/ui/names.js";

/** @type {{ cases: { game: string, replay: Record<string, any>, after: unknown[][] }[] }} */
const FIXTURE = JSON.parse(readFileSync(new URL("./fixtures/replays.json", import.meta.url), "utf8"));
const briscola = FIXTURE.cases.find((c) => c.game === "briscola");
const scopa = FIXTURE.cases.find((c) => c.game === "scopa");
if (!briscola || !scopa) throw new Error("the fixture lacks a case");

test("every view after every step is the engine's, for every seat", () => {
  for (const { replay, after } of FIXTURE.cases) {
    let state = fromReplay(replay);
    assert.deepEqual(viewsNow(state), replay.views);
    for (let i = 0; i < after.length; i += 1) {
      state = reduce(state, { type: "forward" });
      assert.equal(state.at, i + 1);
      assert.deepEqual(viewsNow(state), after[i], `${replay.record.game}, step ${i + 1}`);
    }
    assert.equal(reduce(state, { type: "forward" }), state, "past the last step nothing moves");
  }
});

test("back, first and last land on the same views as stepping forward", () => {
  const start = fromReplay(briscola.replay);
  const end = reduce(start, { type: "last" });
  assert.equal(end.at, briscola.after.length);
  assert.deepEqual(viewsNow(end), briscola.after[briscola.after.length - 1]);
  const back = reduce(end, { type: "back" });
  assert.deepEqual(viewsNow(back), briscola.after[briscola.after.length - 2]);
  const first = reduce(back, { type: "first" });
  assert.equal(first.at, 0);
  assert.deepEqual(viewsNow(first), briscola.replay.views);
  assert.equal(reduce(first, { type: "back" }), first, "before the start nothing moves");
  assert.equal(reduce(start, { type: "goto", at: 999 }).at, briscola.after.length);
  assert.equal(reduce(start, { type: "goto", at: 7.6 }).at, 7);
  assert.equal(end.frames, start.frames, "stepping shares the frames read once");
});

test("the last view of the match shows its result", () => {
  const end = reduce(fromReplay(briscola.replay), { type: "last" });
  for (const view of viewsNow(end)) {
    assert.deepEqual(view.result?.scores, briscola.replay.record.result.scores);
  }
});

test("the step shown is the one just played, with its analysis and the views before it", () => {
  let state = fromReplay(briscola.replay);
  assert.equal(stepNow(state), null);
  state = reduce(state, { type: "goto", at: 3 });
  const now = stepNow(state);
  assert.ok(now);
  assert.equal(now.index, 2);
  assert.deepEqual(now.step.action, briscola.replay.steps[2].action);
  assert.equal(now.before, state.frames[2]);
  const note = briscola.replay.analysis[2];
  assert.equal(now.analysis === null, note === null);
});

test("a person's moves are marked as the strong bot saw them; a bot's are not marked", () => {
  const state = fromReplay(briscola.replay);
  const marks = state.analysis.map(mark);
  state.steps.forEach((step, i) => {
    const note = briscola.replay.analysis[i];
    if (step.seat !== 0) assert.equal(marks[i], null);
    else if (note.forced) assert.equal(marks[i], "forced");
    else assert.equal(marks[i], note.differs ? "differs" : "agrees");
  });
  assert.ok(marks.includes("differs") && marks.includes("agrees") && marks.includes("forced"));
  const counted = tally(state, 0);
  assert.equal(counted.differs, briscola.replay.analysis.filter((/** @type {any} */ a) => a && a.differs).length);
  assert.equal(counted.analysed, briscola.replay.analysis.filter((/** @type {any} */ a) => a && !a.forced).length);
  assert.deepEqual(tally(state, 1), { analysed: 0, differs: 0 });
});

test("the next and previous marked moves are found from the position shown", () => {
  const state = fromReplay(briscola.replay);
  const differing = state.analysis.flatMap((a, i) => (a && a.differs ? [i + 1] : []));
  const first = reduce(state, { type: "next_note" });
  assert.equal(first.at, differing[0]);
  const second = reduce(first, { type: "next_note" });
  assert.equal(second.at, differing[1]);
  assert.equal(reduce(second, { type: "previous_note" }).at, differing[0]);
  const end = reduce(state, { type: "last" });
  assert.equal(reduce(end, { type: "next_note" }), end);
});

test("a deal is jumped to at its start; the deal shown follows the steps", () => {
  const state = fromReplay(scopa.replay);
  assert.deepEqual(state.deals, [...new Set(scopa.replay.steps.map((/** @type {{deal: number}} */ s) => s.deal))]);
  for (const deal of state.deals) {
    const there = reduce(state, { type: "deal", deal });
    /** @type {number} */
    const start = scopa.replay.steps.findIndex((/** @type {{deal: number}} */ s) => s.deal === deal);
    assert.equal(there.at, start);
    if (start > 0) assert.equal(dealNow(reduce(there, { type: "forward" })), deal);
  }
  assert.equal(reduce(state, { type: "deal", deal: 99 }), state);
});

test("the seat followed is the person's by default, another on request, never one the match lacks", () => {
  const state = fromReplay(briscola.replay);
  assert.equal(state.follow, 0);
  assert.equal(fromReplay(briscola.replay, { follow: 1 }).follow, 1);
  assert.equal(fromReplay(briscola.replay, { follow: 7 }).follow, 0);
  assert.equal(reduce(state, { type: "follow", seat: 1 }).follow, 1);
  assert.equal(reduce(state, { type: "follow", seat: 2 }), state);
  assert.equal(state.seats[0].name, "Anna");
  assert.equal(state.seats[1].kind, "bot");
  assert.equal(state.game, "briscola");
  assert.equal(state.record, briscola.replay.record_id);
});

test("a replay whose ops do not fit, or that lacks views, is refused as a whole", () => {
  const broken = structuredClone(briscola.replay);
  broken.steps[4].ops[0] = [[0, ["nowhere", 9, 9], 1]];
  assert.throws(() => fromReplay(broken), BadReplay);
  assert.throws(() => fromReplay({ ...briscola.replay, views: [] }), BadReplay);
  const short = structuredClone(briscola.replay);
  short.steps[0].ops = [[]];
  assert.throws(() => fromReplay(short), BadReplay);
});

test("every step of the real replays is worded with the table's own log sentences", () => {
  /** @type {string[]} */
  const keys = [];
  const t = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ args = {}) => {
    keys.push(key);
    return `${key}(${Object.values(args).join("|")})`;
  };
  for (const { replay } of FIXTURE.cases) {
    const state = fromReplay(replay);
    const names = new Names(t, (code) => code, state.seats.map((s) => s.name), null);
    state.steps.forEach((step, i) => {
      const lines = describeEvents(state.game, names, stepEvents(state.game, step, state.frames[i][step.seat]), {});
      assert.equal(lines.length, 1, `${state.game} step ${i + 1}: ${JSON.stringify(step.action)}`);
      assert.match(lines[0], new RegExp(state.seats[step.seat].name));
    });
  }
  assert.ok(keys.includes("log.play"));
  assert.ok(keys.includes("log.scopa.capture"));
  assert.ok(keys.includes("log.scopa.lay"));
});

test("Schnapsen's and Dou Dizhu's moves make the events their logs word", () => {
  const step = (/** @type {Record<string, unknown>} */ action) => ({ deal: 0, seat: 1, action });
  assert.deepEqual(stepEvents("schnapsen", step({ close: true }), {}), [{ type: "close", seat: 1 }]);
  assert.deepEqual(stepEvents("schnapsen", step({ exchange: "JH" }), { indicator: "AH" }), [{ type: "exchange", seat: 1, card: "JH", indicator: "AH" }]);
  assert.deepEqual(stepEvents("schnapsen", step({ play: "QH", marriage: true }), { trump: "H" }).map((e) => e.type), ["marriage", "play"]);
  assert.equal(stepEvents("schnapsen", step({ play: "QS", marriage: true }), { trump: "H" })[0].points, 20);
  assert.deepEqual(stepEvents("doudizhu", step({ bid: 2 }), {}), [{ type: "bid", seat: 1, bid: 2 }]);
  assert.deepEqual(stepEvents("doudizhu", step({ pass: true }), {}), [{ type: "pass", seat: 1 }]);
  assert.deepEqual(stepEvents("doudizhu", step({ combo: "pair", cards: ["JC", "JH"] }), {}),
    [{ type: "play", seat: 1, combo: "pair", cards: ["JC", "JH"] }]);
});
