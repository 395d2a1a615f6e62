// delta.js against real games (fixtures/deltas.json, written by
// tests/web/make_delta_fixtures.py from the engines) and against the malformed
// ops protocol/delta.py refuses (tests/protocol/test_delta.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { decode, encode } from "@msgpack/msgpack";

import { applyDelta, compareCodePoints, keyOrder } from "../src/protocol/delta.js";
import { ProtocolError } from "../src/protocol/errors.js";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * @typedef {{ game: string, seed: string, recipient: number | null, first: unknown, steps: [unknown[], unknown][] }} Stream
 * @type {{ streams: Stream[] }}
 */
const FIXTURE = JSON.parse(readFileSync(join(here, "fixtures/deltas.json"), "utf8"));

test("the fixture holds streams of all four games", () => {
  const games = new Set(FIXTURE.streams.map((s) => s.game));
  assert.deepEqual([...games].sort(), ["briscola", "doudizhu", "schnapsen", "scopa"]);
});

for (const stream of FIXTURE.streams) {
  const who = stream.recipient === null ? "a spectator" : `seat ${stream.recipient}`;
  test(`${stream.game} (${stream.seed}) for ${who}: every delta gives the recorded view`, () => {
    let view = stream.first;
    stream.steps.forEach(([ops, after], index) => {
      const before = structuredClone(view);
      // the ops as a client gets them: through msgpack
      const next = applyDelta(view, decode(encode(ops)));
      assert.deepEqual(next, after, `delta ${index + 1}`);
      assert.deepEqual(view, before, `delta ${index + 1} changed the view it was applied to`);
      view = next;
    });
  });
}

test("the documented example delta fits the example snapshot", () => {
  const view = { game: "scopa", seat: 0, hand: ["7D", "3S", "KC"], table: ["3C", "4C"], to_move: 0 };
  const after = applyDelta(view, [3, 1, [0], 0, 3, [], 0, 4, 1]);
  assert.deepEqual(after, { game: "scopa", seat: 0, hand: ["3S", "KC"], table: [], to_move: 1 });
  assert.deepEqual(view.hand, ["7D", "3S", "KC"]);
});

test("a row is a map with the keys of the element it names, in sorted order", () => {
  const view = { history: [{ seat: 0, play: "7D", capture: ["3C"] }] };
  const after = applyDelta(view, [4, "history", [[0, [], "KC", 1], { seat: 0, pass: true }, [1, ["4C"], "2S", 0]]]);
  assert.deepEqual(after, {
    history: [
      { seat: 0, play: "7D", capture: ["3C"] },
      { capture: [], play: "KC", seat: 1 },
      { seat: 0, pass: true },
      { capture: ["4C"], play: "2S", seat: 0 },
    ],
  });
});

test("every op kind at work, by key position and by name", () => {
  const view = { b: [1, 2, 3], a: { y: 1, x: 2 }, c: "keep" };
  const ops = [
    0, ["a", 0], 9, // a.x (x sorts before y)
    1, "c", null,
    2, 1, [4], // b
    3, ["b"], [0, 2],
    5, [], ["d", {}, 0, { z: 1 }], // d is new; position 0 is then a
    5, "d", ["k", "v"],
  ];
  assert.deepEqual(applyDelta(view, ops), { b: [2, 4], a: { z: 1 }, d: { k: "v" } });
  assert.deepEqual(view, { b: [1, 2, 3], a: { y: 1, x: 2 }, c: "keep" });
});

test("set with an empty path replaces the whole view", () => {
  assert.deepEqual(applyDelta({ a: 1 }, [0, [], { b: 2 }, 0, "c", 3]), { b: 2, c: 3 });
});

test("keys sort by code point, as Python sorts them", () => {
  const keys = ["\u{1F600}", "\uFF01", "b", "B", "a", "é"];
  assert.deepEqual([...keys].sort(compareCodePoints), ["B", "a", "b", "é", "\uFF01", "\u{1F600}"]);
  assert.deepEqual(keyOrder({ to_move: 0, game: 1, seat: 2, hand: 3, table: 4 }), ["game", "hand", "seat", "table", "to_move"]);
  // U+FF01 comes before U+1F600 by code point, though its UTF-16 unit sorts after the surrogate
  assert.deepEqual(applyDelta({ "\u{1F600}": 1, "\uFF01": 2 }, [0, 1, 9]), { "\u{1F600}": 9, "\uFF01": 2 });
});

test("a key named __proto__ stays an ordinary key", () => {
  const after = /** @type {Record<string, unknown>} */ (applyDelta({ a: 1 }, [0, "__proto__", { polluted: true }]));
  assert.equal(Object.getPrototypeOf(after), Object.prototype);
  assert.deepEqual(Object.keys(after), ["a", "__proto__"]);
  assert.equal(/** @type {Record<string, unknown>} */ ({}).polluted, undefined);
});

// The cases of tests/protocol/test_delta.py::test_malformed_ops_are_refused, and a few more.
const MALFORMED = [
  [9, ["a"], 1],
  [0, ["missing", "deeper"], 1],
  [2, ["a"], [1]],
  [3, "a", [0]],
  [0],
  [0, "a"],
  [1, "b", null],
  [0, 5, 1],
  [0, -1, 1],
  [0, true, 1],
  [5, [], [0]],
  [5, "a", [0, 1]],
  [4, "l", [[0, 1]]],
  [4, "l", [[3, 1, 2]]],
  [4, "l", [[0, 1, 2, 3]]],
  [4, "l", ["x"]],
  [3, "l", ["x"]],
  [0, ["l", "x"], 1],
  "nonsense",
  ["nonsense", 0, 1],
  [0, { a: 1 }, 1],
  // and more: each op must fit, and an earlier op that fitted is undone too
  [0, "a", 2, 0, ["l", 5], 1],
  [1, [], null],
  [1, "toString", null],
  [0, ["toString", "x"], 1],
  [0, 1.5, 1],
  [3, "l", [1]],
  [3, "l", [true]],
  [4, "l", [[-1, 1, 2]]],
  [2, "l", "x"],
  [5, "l", [0, 1, 1, 2]],
  [5, "a", ["x", 1]],
  [0, ["a", "x"], 1],
  [2, "a", [1], 0, "a", 5],
  null,
  { 0: 0, 1: "a", 2: 1 },
];

for (const ops of MALFORMED) {
  test(`malformed ops ${JSON.stringify(ops)} are refused, the view unchanged`, () => {
    const view = { a: 1, l: [{ p: 1, q: 2 }] };
    assert.throws(
      () => applyDelta(view, ops),
      (error) => error instanceof ProtocolError && error.code === "bad_frame",
    );
    assert.deepEqual(view, { a: 1, l: [{ p: 1, q: 2 }] });
  });
}

test("remove drops each index once, counting negative ones from the end as Python does", () => {
  assert.deepEqual(applyDelta({ l: [1, 2, 3, 4] }, [3, "l", [0, 0, 2]]), { l: [2, 4] });
  assert.deepEqual(applyDelta({ l: [1, 2, 3, 4] }, [3, "l", [-1]]), { l: [1, 2, 3] });
});

test("random ops either apply or are refused as bad frames, never changing the view", () => {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = (/** @type {unknown[]} */ items) => items[Math.floor(next() * items.length)];
  const values = [null, true, 0, 1, 2, -1, "a", "l", "m", "k", "p", [], [0], [1, 2], ["a"], ["l", 0], ["m", "k"], { p: 1, q: 2 }, [[0, 5, 6]], [0, 1, 1, 2]];
  for (let round = 0; round < 3000; round++) {
    const view = { a: 1, l: [{ p: 1, q: 2 }, [3]], m: { k: "v" } };
    const ops = Array.from({ length: Math.floor(next() * 10) }, () => pick([0, 1, 2, 3, 4, 5, 6, ...values]));
    try {
      applyDelta(view, ops);
    } catch (error) {
      assert.ok(error instanceof ProtocolError && error.code === "bad_frame", String(error));
    }
    assert.deepEqual(view, { a: 1, l: [{ p: 1, q: 2 }, [3]], m: { k: "v" } });
  }
});

test("random ops do what the Python apply does with them (fixtures/apply_cases.json)", () => {
  /** @type {{ view: unknown, ops: unknown, result?: unknown, refused?: true }[]} */
  const cases = JSON.parse(readFileSync(join(here, "fixtures/apply_cases.json"), "utf8"));
  assert.ok(cases.length >= 1000);
  let applied = 0;
  cases.forEach(({ view, ops, result, refused }, index) => {
    const before = structuredClone(view);
    const where = `case ${index}: ${JSON.stringify(ops)} on ${JSON.stringify(view)}`;
    if (refused) {
      assert.throws(() => applyDelta(view, ops), (error) => error instanceof ProtocolError && error.code === "bad_frame", where);
    } else {
      assert.deepEqual(applyDelta(view, ops), result, where);
      applied++;
    }
    assert.deepEqual(view, before, where);
  });
  assert.ok(applied > 200);
});
