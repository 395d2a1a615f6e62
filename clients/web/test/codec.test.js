// The codec against every golden frame of the Python encoder
// (tests/protocol/golden_frames.json: message name -> hex of the frame).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { decode, encode } from "@msgpack/msgpack";

import {
  CLIENT_TYPES,
  Float64,
  SERVER_TYPES,
  decodeFrame,
  decodeServer,
  encodeClient,
} from "../src/protocol/codec.js";
import { ProtocolError } from "../src/protocol/errors.js";

const here = dirname(fileURLToPath(import.meta.url));
/** @type {Record<string, string>} */
const GOLDEN = JSON.parse(readFileSync(join(here, "../../../tests/protocol/golden_frames.json"), "utf8"));

/** @param {string} hex */
const bytes = (hex) => Uint8Array.from(Buffer.from(hex, "hex"));
/** @param {Uint8Array} frame */
const hex = (frame) => Buffer.from(frame).toString("hex");

/** Frames of optional fields, named `<type>.<what>` (protocol/examples.py VARIANT_EXAMPLES). */
const VARIANTS = Object.keys(GOLDEN).filter((name) => name.includes("."));

test("the golden file has a frame for every message type, and only those and their variants", () => {
  assert.deepEqual(Object.keys(GOLDEN).filter((name) => !name.includes(".")).sort(), [...CLIENT_TYPES, ...SERVER_TYPES].sort());
  assert.deepEqual(VARIANTS.sort(), [
    "chat_message.guest", "error.no_id", "get_catalogue.no_id", "hello.guest", "history.level", "snapshot.guest", "welcome.guest",
  ]);
});

test("a request without an id encodes without one, and a reply to it decodes without one", () => {
  assert.equal(hex(encodeClient({ type: "get_catalogue" })), GOLDEN["get_catalogue.no_id"]);
  const refused = decodeServer(bytes(GOLDEN["error.no_id"]));
  assert.deepEqual([refused.type, refused.code, refused.id ?? null], ["error", "not_in_room", null]);
});

test("a guest's hello encodes byte for byte as the Python encoder does: no name, its number", () => {
  const hello = decodeFrame(bytes(GOLDEN["hello.guest"]));
  assert.deepEqual(Object.entries(hello), [["id", 1], ["type", "hello"], ["version", 2], ["guest", 563], ["lang", "pl"]]);
  assert.equal(hex(encodeClient({ id: 1, type: "hello", version: 2, name: null, guest: 563, lang: "pl" })), GOLDEN["hello.guest"]);
});

test("the guest number and the bot level come with the names the server writes", () => {
  assert.equal(decodeServer(bytes(GOLDEN["welcome.guest"])).guest, 563);
  const chat = decodeServer(bytes(GOLDEN["chat_message.guest"]));
  assert.deepEqual([chat.seat, chat.name, chat.guest], [0, "Player 563", 563]);
  const room = /** @type {{ seats: Record<string, unknown>[] }} */ (decodeServer(bytes(GOLDEN["snapshot.guest"])).room);
  assert.deepEqual(room.seats.map((s) => [s.kind, s.name, s.bot, s.guest]), [["human", "Player 563", null, 563], ["bot", "Bot 2 (basic)", "basic", null]]);
  const history = decodeServer(bytes(GOLDEN["history.level"]));
  const players = /** @type {{ players: Record<string, unknown>[] }[]} */ (history.matches)[0].players;
  assert.deepEqual(players.map((p) => [p.bot, p.level ?? null, p.guest ?? null]), [[false, null, 563], [true, "basic", null]]);
});

for (const type of CLIENT_TYPES) {
  test(`client message ${type} encodes byte for byte as the Python encoder does`, () => {
    const message = decodeFrame(bytes(GOLDEN[type]));
    assert.equal(message.type, type);
    assert.equal(hex(encodeClient(message)), GOLDEN[type]);
  });
}

for (const type of SERVER_TYPES) {
  test(`server message ${type} decodes`, () => {
    const message = decodeServer(bytes(GOLDEN[type]));
    assert.equal(message.type, type);
    assert.deepEqual(message, decode(bytes(GOLDEN[type])));
  });
}

test("server golden frames decode to the documented examples", () => {
  const snapshot = decodeServer(bytes(GOLDEN.snapshot));
  assert.deepEqual(snapshot.view, {
    game: "scopa",
    seat: 0,
    hand: ["7D", "3S", "KC"],
    table: ["3C", "4C"],
    to_move: 0,
  });
  assert.equal(snapshot.seq, 1);
  assert.equal(/** @type {{ turn_seconds: number }} */ (snapshot.room).turn_seconds, 30);
  const delta = decodeServer(bytes(GOLDEN.delta));
  assert.deepEqual(delta.ops, [3, 1, [0], 0, 3, [], 0, 4, 1]);
  assert.equal(delta.seq, 2);
  assert.equal(decodeServer(bytes(GOLDEN.welcome)).resume, "Zt0q9V3cMx2Jm1yQ");
  assert.equal(decodeServer(bytes(GOLDEN.your_turn)).deadline, 1795000000);
  assert.equal(decodeServer(bytes(GOLDEN.redirect)).reservation, "rsv-91c2");
  assert.equal(decodeServer(bytes(GOLDEN.error)).code, "illegal_action");
});

test("the documented hello decodes to its fields in order", () => {
  const hello = decodeFrame(bytes(GOLDEN.hello));
  assert.deepEqual(Object.entries(hello), [
    ["id", 1],
    ["type", "hello"],
    ["version", 2],
    ["name", "Anna"],
    ["lang", "sv"],
    ["player", "q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u"],
  ]);
});

test("turn_seconds goes as float64 even when whole, other numbers in their smallest form", () => {
  const frame = encodeClient({ id: 4, type: "create_room", game: "scopa", turn_seconds: 30, fill_after: 0 });
  const text = hex(frame);
  assert.ok(text.includes("cb403e000000000000"), "30.0 as float64");
  assert.ok(text.includes("cb0000000000000000"), "0.0 as float64");
  assert.ok(text.startsWith("85a2696404"), "id 4 as a positive fixint");
  assert.equal(hex(encodeClient({ id: 300, type: "resync" })), "82a26964cd012ca474797065a6726573796e63");
  // a Float64 anywhere in a message goes as float64
  assert.ok(hex(encodeClient({ type: "act", action: { bid: new Float64(2) } })).endsWith("a3626964cb4000000000000000"));
});

test("null and undefined top-level fields are left out, as the Python encoder leaves them out", () => {
  const full = encodeClient({
    id: 1,
    type: "hello",
    version: 2,
    name: "Anna",
    lang: "sv",
    resume: null,
    last_seq: undefined,
    player: "q8Zb1kR3vT0yWm5sXc2nLp7dHa4JfE9u",
  });
  assert.equal(hex(full), GOLDEN.hello);
});

test("a frame that is not one msgpack map with a string type is refused", () => {
  const refused = [
    [encode([1, 2]), "bad_frame"],
    [encode("hello"), "bad_frame"],
    [encode(null), "bad_frame"],
    [encode({ id: 1 }), "invalid_field"],
    [encode({ type: 7 }), "invalid_field"],
    [Uint8Array.of(0xc1), "bad_frame"],
    [Uint8Array.of(0x81, 0xa4), "bad_frame"],
    [Uint8Array.from([...encode({ type: "left" }), 0x00]), "bad_frame"],
    [new Uint8Array(0), "bad_frame"],
  ];
  for (const [frame, code] of refused) {
    assert.throws(
      () => decodeServer(/** @type {Uint8Array} */ (frame)),
      (error) => error instanceof ProtocolError && error.code === code,
      `${hex(/** @type {Uint8Array} */ (frame))} should be refused as ${code}`,
    );
  }
  assert.throws(() => decodeServer("{\"type\": \"welcome\"}"), /bad_frame/);
});

test("an ArrayBuffer frame (a browser's binaryType arraybuffer) decodes too", () => {
  const frame = bytes(GOLDEN.welcome);
  const buffer = frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength);
  assert.equal(decodeServer(buffer).type, "welcome");
});

test("unknown message types and fields from a newer server are kept for the caller to ignore", () => {
  const message = decodeServer(encode({ type: "weather", sky: "clear" }));
  assert.deepEqual(message, { type: "weather", sky: "clear" });
});

test("a message without a string type cannot be encoded", () => {
  assert.throws(() => encodeClient(/** @type {any} */ ({ id: 1 })), ProtocolError);
});
