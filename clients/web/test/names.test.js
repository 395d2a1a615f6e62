// How the page names bots, guests and named people, in the reader's language; the guest number
// it keeps; and the table's reducer keeping the guest numbers the server sends.

import assert from "node:assert/strict";
import { test } from "node:test";

import { botLevel, displayName, drawGuest, guestNumber } from "../src/protocol/names.js";
import { seatText } from "../src/ui/lobby_render.js";
import { readChatMessage, readRoom } from "../src/ui/table/messages.js";
import { initialState, reduce } from "../src/ui/table/state.js";
import { defaultSettings, readSettings, withGuest, writeSettings } from "../src/ui/settings.js";
import { translator } from "./table_catalogues.js";

/** @param {string} lang */
const words = (lang) => ({ t: translator(lang), lang });

test("a bot is named by its seat and its level's word, in the reader's language", () => {
  const seat = { kind: "bot", name: "Bot 2 (basic)", bot: "basic" };
  assert.equal(displayName(seat, words("en"), 1), "Bot 2 (basic)");
  assert.equal(displayName(seat, words("pl"), 1), "Bot 2 (podstawowy)");
  assert.equal(displayName(seat, words("es"), 1), "Bot 2 (básico)");
  assert.equal(displayName({ kind: "bot", bot: "strong" }, words("sv"), 2), "Dator 3 (stark)");
  // history and leaderboard rows: bot: true with its level; a level without a seat
  assert.equal(displayName({ name: "Bot 2 (basic)", bot: true, level: "random" }, words("it"), 1), "Bot 2 (casuale)");
  assert.equal(displayName({ name: "Bot (strong)", bot: true, level: "strong" }, words("pl")), "Bot (silny)");
});

test("a guest is named by its number, whatever English name the server wrote", () => {
  const guest = { kind: "human", name: "Player 563", guest: 563 };
  assert.equal(displayName(guest, words("en"), 0), "Player 563");
  assert.equal(displayName(guest, words("sv"), 0), "Spelare 563");
  assert.equal(displayName(guest, words("pl")), "Gracz 563");
  assert.equal(displayName({ seat: 0, name: "Player 563", text: "ciao", guest: 563 }, words("it")), "Giocatore 563");
});

test("a named person keeps their name in every language; a program's profile too", () => {
  assert.equal(displayName({ kind: "human", name: "Anna", guest: null }, words("sv"), 0), "Anna");
  assert.equal(displayName({ name: "Zoë", bot: false, player: "p-1" }, words("pl"), 1), "Zoë");
  assert.equal(displayName({ name: "Ladder bot", bot: true, level: null }, words("es")), "Ladder bot");
  assert.equal(displayName({ kind: "bot", name: "Bot", bot: "hard" }, words("en"), 1), "Bot"); // a level no catalogue names
  assert.equal(displayName({ kind: "open" }, words("en"), 0), "");
  assert.equal(displayName(null, words("en")), "");
});

test("only whole numbers from 100 to 999 are guest numbers", () => {
  assert.deepEqual([100, 563, 999].map(guestNumber), [100, 563, 999]);
  assert.deepEqual([99, 1000, 563.5, "563", true, null, undefined].map(guestNumber), [null, null, null, null, null, null, null]);
  assert.equal(botLevel({ kind: "human", bot: "basic" }), null);
  assert.equal(botLevel({ kind: "bot", bot: "basic" }), "basic");
});

test("the guest number is drawn from the crypto source, in range, and kept with the settings", () => {
  let calls = 0;
  const values = [0xffffffff, 7]; // the first lies past the last whole span of 900 and is drawn again
  const crypto = { getRandomValues: (/** @type {Uint32Array} */ array) => { array[0] = values[calls++]; return array; } };
  assert.equal(drawGuest(crypto), 107);
  assert.equal(calls, 2);
  /** @type {Map<string, string>} */
  const items = new Map();
  const storage = { getItem: (/** @type {string} */ k) => items.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void items.set(k, v), removeItem: (/** @type {string} */ k) => void items.delete(k) };
  const fixed = { getRandomValues: (/** @type {Uint32Array} */ array) => { array[0] = 463; return array; } };
  const first = withGuest(readSettings(storage), fixed);
  assert.equal(first.guest, 563);
  assert.equal(first.name, null);
  writeSettings(storage, first);
  const never = { getRandomValues: () => { throw new Error("a reload draws no new number"); } };
  assert.equal(withGuest(readSettings(storage), never).guest, 563);
});

test("a default name an earlier page stored is read back as that guest", () => {
  /** @type {Map<string, string>} */
  const items = new Map([["cardavia.settings", JSON.stringify({ ...defaultSettings(), name: "Spelare 417", guest: undefined })]]);
  const storage = { getItem: (/** @type {string} */ k) => items.get(k) ?? null, setItem: () => {}, removeItem: () => {} };
  const settings = readSettings(storage);
  assert.deepEqual([settings.name, settings.guest], [null, 417]);
  items.set("cardavia.settings", JSON.stringify({ ...defaultSettings(), name: "Anna", guest: 563 }));
  assert.deepEqual([readSettings(storage).name, readSettings(storage).guest], ["Anna", 563]);
});

test("the rooms list names a guest's and a bot's seat in the reader's language", () => {
  const t = translator("pl");
  assert.equal(seatText({ kind: "human", name: "Player 563", guest: 563 }, t, 0, "pl"), "Gracz 563");
  assert.equal(seatText({ kind: "bot", name: "Bot 2 (basic)", bot: "basic" }, t, 1, "pl"), "Bot 2 (podstawowy)");
  assert.equal(seatText({ kind: "open", name: null }, t, 1, "pl"), t("lobby.seat.open"));
});

test("the table keeps the guest numbers of seats and chat lines", () => {
  const room = readRoom({ game: "scopa", seats: [{ kind: "human", name: "Player 563", guest: 563 }, { kind: "bot", name: "Bot 2 (basic)", bot: "basic", guest: null }] });
  assert.deepEqual(room?.seats, [{ kind: "human", name: "Player 563", bot: undefined, guest: 563 }, { kind: "bot", name: "Bot 2 (basic)", bot: "basic" }]);
  const line = readChatMessage({ type: "chat_message", seat: 0, name: "Player 563", text: "ciao", guest: 563 });
  const state = reduce(initialState({ game: "scopa" }), { type: "chat_message", line });
  assert.deepEqual(state.chat, [{ seat: 0, name: "Player 563", text: "ciao", guest: 563 }]);
  assert.equal(displayName(state.chat[0], words("nb")), "Spiller 563");
});
