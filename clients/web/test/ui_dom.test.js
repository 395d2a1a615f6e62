// The page's pure text helpers: showing other people's text safely, room codes and room links.

import assert from "node:assert/strict";
import { test } from "node:test";

import { REPLACEMENT, displaySafe, normalizeCode, roomFromHash, roomLink, stepIndex } from "../src/ui/dom.js";

test("text others wrote keeps every script, emoji joiners included", () => {
  for (const name of ["Åsa", "Łukasz", "张伟", "محمد", "יעל", "👨\u200d👩\u200d👧", "می\u200cخواهم"]) {
    assert.equal(displaySafe(name), name);
  }
});

test("control, bidirectional and invisible characters show as U+FFFD", () => {
  assert.equal(displaySafe("a\u001b[31mb"), `a${REPLACEMENT}[31mb`);
  assert.equal(displaySafe("abc\u202edef"), `abc${REPLACEMENT}def`);
  assert.equal(displaySafe("x\u200by\u2066z\u2028w\ufeff"), `x${REPLACEMENT}y${REPLACEMENT}z${REPLACEMENT}w${REPLACEMENT}`);
  assert.equal(displaySafe("\ud800lone"), `${REPLACEMENT}lone`);
  assert.equal(displaySafe(null), "");
});

test("a room code is read whatever its case, spaces and dashes", () => {
  assert.equal(normalizeCode("kx4p-7mq2"), "KX4P7MQ2");
  assert.equal(normalizeCode(" KX4P 7MQ2 "), "KX4P7MQ2");
  assert.equal(normalizeCode("KX4P7MQ"), null, "too short");
  assert.equal(normalizeCode("KX4P7MQ0"), null, "0 is not in the alphabet");
  assert.equal(normalizeCode("KX4P7MQI"), null, "I is not in the alphabet");
  assert.equal(normalizeCode(undefined), null);
});

test("a page address names a room by its fragment", () => {
  assert.deepEqual(roomFromHash("#/room/KX4P7MQ2"), { code: "KX4P7MQ2", valid: true });
  assert.deepEqual(roomFromHash("#/room/kx4p-7mq2/"), { code: "KX4P7MQ2", valid: true });
  assert.deepEqual(roomFromHash("#/room/nope"), { code: "nope", valid: false });
  assert.equal(roomFromHash(""), null);
  assert.equal(roomFromHash("#/"), null);
  assert.equal(roomFromHash("#/rules/scopa"), null);
});

test("a room's link is this page with the room in its fragment", () => {
  const location = { origin: "https://cards.example", pathname: "/", search: "" };
  assert.equal(roomLink(location, "KX4P7MQ2"), "https://cards.example/#/room/KX4P7MQ2");
  assert.deepEqual(roomFromHash(new URL(roomLink(location, "KX4P7MQ2")).hash), { code: "KX4P7MQ2", valid: true });
});

test("arrow keys step through a list and wrap; Home and End jump", () => {
  assert.equal(stepIndex("ArrowDown", 0, 3, "vertical"), 1);
  assert.equal(stepIndex("ArrowDown", 2, 3, "vertical"), 0);
  assert.equal(stepIndex("ArrowUp", 0, 3, "vertical"), 2);
  assert.equal(stepIndex("ArrowRight", 0, 3, "vertical"), null);
  assert.equal(stepIndex("ArrowLeft", 1, 3, "both"), 0);
  assert.equal(stepIndex("Home", 2, 3), 0);
  assert.equal(stepIndex("End", 0, 3), 2);
  assert.equal(stepIndex("Enter", 0, 3), null);
  assert.equal(stepIndex("ArrowDown", 0, 0), null);
});

test("invisible fillers and stacks of more than four marks show as U+FFFD, as the server refuses them", () => {
  for (const filler of ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"]) {
    assert.equal(displaySafe(`An${filler}na`), `An${REPLACEMENT}na`);
  }
  const stack = "a" + "\u0301".repeat(150);
  assert.equal(displaySafe(stack), "a" + "\u0301".repeat(4) + REPLACEMENT.repeat(146));
  assert.equal(displaySafe("Việt Nam"), "Việt Nam");
  assert.equal(displaySafe("e\u0301\u200d\u0302\u0303\u0304\u0305"), `e\u0301\u200d\u0302\u0303\u0304${REPLACEMENT}`);
});
