// The lobby's state and choices and the create-room form, without a page.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  FormProblem,
  canAsk,
  chosenLevel,
  deckTexts,
  decksFor,
  gameName,
  initialState,
  joinable,
  levelsFor,
  pickLevel,
  previewCards,
  reduce,
  roomFields,
} from "../src/ui/lobby_state.js";
import { seatText } from "../src/ui/lobby_render.js";
import { serverUrl } from "../src/ui/dom.js";
import { validName } from "../src/ui/settings.js";
import { closeKey, errorKey } from "../src/ui/refusals.js";

const CATALOGUE = {
  games: [
    { id: "scopa", players: 2, options: { target: 11 } },
    { id: "doudizhu", players: 3, options: { deals: 1 } },
  ],
  decks: [
    { id: "trevisane", cards: 40, games: [{ id: "scopa" }], default_for: [] },
    { id: "bolognese", cards: 40, games: [{ id: "scopa" }, { id: "briscola" }], default_for: ["scopa", "briscola"] },
    { id: "french54", cards: 54, games: [{ id: "doudizhu" }], default_for: ["doudizhu"] },
  ],
  bots: [
    { id: "scopa-strong", game: "scopa", level: "strong" },
    { id: "scopa-random", game: "scopa", level: "random" },
    { id: "scopa-basic", game: "scopa", level: "basic" },
    { id: "doudizhu-basic", game: "doudizhu", level: "basic" },
  ],
};

/** @param {string} key @param {Record<string, unknown>} [args] */
const t = (key, args = {}) => `${key}${Object.keys(args).length ? JSON.stringify(args) : ""}`;

test("a game's decks, its usual one first", () => {
  assert.deepEqual(decksFor(CATALOGUE, "scopa"), ["bolognese", "trevisane"]);
  assert.deepEqual(decksFor(CATALOGUE, "doudizhu"), ["french54"]);
  assert.deepEqual(decksFor(CATALOGUE, "chess"), []);
  assert.deepEqual(decksFor(null, "scopa"), []);
});

test("a game's bot levels, weakest first; basic unless chosen otherwise", () => {
  assert.deepEqual(levelsFor(CATALOGUE, "scopa"), ["random", "basic", "strong"]);
  assert.deepEqual(levelsFor(CATALOGUE, "doudizhu"), ["basic"]);
  assert.equal(pickLevel(["random", "basic", "strong"], undefined), "basic");
  assert.equal(pickLevel(["random", "basic", "strong"], "strong"), "strong");
  assert.equal(pickLevel(["basic"], "strong"), "basic");
  assert.equal(pickLevel(["random"], undefined), "random");
});

test("a pack's picture shows cards it has", () => {
  const italian = ["AC", "2C", "7D", "KC", "JS", "AD"];
  assert.deepEqual(previewCards(italian), ["AD", "7D", "KC"]);
  assert.deepEqual(previewCards(["AS", "TH", "KS", "RJ", "BJ"]), ["AS", "RJ", "KS"]);
  assert.deepEqual(previewCards(["AH", "TH", "KS", "QH", "JS"]), ["AH", "TH", "KS"]);
});

test("seats read as names, made safe, or as what waits there", () => {
  assert.equal(seatText({ name: "Anna\u202e", kind: "human" }, t), "Anna\ufffd");
  assert.equal(seatText({ kind: "bot" }, t), "lobby.seat.bot");
  assert.equal(seatText({ kind: "open" }, t), "lobby.seat.open");
  assert.equal(seatText({}, t), "lobby.seat.open");
});

const FORM = {
  game: "scopa",
  deck: "bolognese",
  options: { target: "" },
  defaults: { target: 11 },
  humans: 2,
  botLevel: "strong",
  private: true,
  timer: "",
};

test("the create-room form gives the request's fields", () => {
  assert.deepEqual(roomFields(FORM), {
    game: "scopa",
    deck: "bolognese",
    options: {},
    public: false,
    humans: 2,
    bot_level: "strong",
    turn_seconds: null,
  });
  const fields = roomFields({ ...FORM, options: { target: " 21 " }, timer: "30", private: false });
  assert.deepEqual(fields.options, { target: 21 });
  assert.equal(fields.turn_seconds, 30);
  assert.equal(fields.public, true);
  assert.equal(roomFields({ ...FORM, timer: "7,5" }).turn_seconds, 7.5);
});

test("the create-room form says what is wrong, and where", () => {
  assert.throws(() => roomFields({ ...FORM, options: { target: "eleven" } }), (error) => {
    assert.ok(error instanceof FormProblem);
    assert.equal(error.field, "option-target");
    assert.equal(error.key, "forms.problem.whole_number");
    assert.deepEqual(error.args, { option: "target", text: "eleven" });
    return true;
  });
  for (const [timer, key] of [["soon", "forms.problem.timer_number"], ["4", "web.create.timer_range"], ["601", "web.create.timer_range"], ["-5", "forms.problem.timer_number"]]) {
    assert.throws(() => roomFields({ ...FORM, timer }), (error) => error instanceof FormProblem && error.key === key && error.field === "timer", timer);
  }
});

test("the page connects to its own host", () => {
  assert.equal(serverUrl({ protocol: "http:", host: "127.0.0.1:8765", search: "" }), "ws://127.0.0.1:8765/");
  assert.equal(serverUrl({ protocol: "https:", host: "cards.example", search: "" }), "wss://cards.example/");
  // no query parameter can send the page (and its resume token) to another server
  const elsewhere = { protocol: "http:", host: "a:1", search: "?server=ws://127.0.0.1:8799/" };
  assert.equal(serverUrl(elsewhere), "ws://a:1/");
});

test("a name is checked as the server checks it", () => {
  assert.equal(validName("  Åsa "), "Åsa");
  assert.equal(validName("e\u0301"), "é");
  assert.equal(validName(""), null);
  assert.equal(validName("x".repeat(33)), null);
  assert.equal(validName("a\u202eb"), null);
  assert.equal(validName("\u3164"), null, "a Hangul filler shows nothing");
  assert.equal(validName("👨\u200d👩\u200d👧"), "👨\u200d👩\u200d👧");
});

test("error codes read as catalogue sentences, never as codes", () => {
  const has = (/** @type {string} */ key) => ["errors.room_full", "errors.close.1008"].includes(key);
  assert.equal(errorKey(has, "room_full"), "errors.room_full");
  assert.equal(errorKey(has, "brand_new_code"), "errors.unknown");
  assert.equal(errorKey(has, undefined), "errors.unknown");
  assert.equal(closeKey(has, 1008), "errors.close.1008");
  assert.equal(closeKey(has, 4000), "web.connection.lost");
  assert.equal(closeKey(has, null), "web.connection.lost");
});

/** @typedef {import("../src/protocol/messages.js").Catalogue} Catalogue */

/** @returns {Catalogue} */
const catalogueMessage = () => ({ type: "catalogue", ...structuredClone(CATALOGUE) });

test("the lobby waits for the catalogue, then offers its first game and that game's usual deck", () => {
  const before = initialState({ name: "Anna", levels: { scopa: "strong" } });
  assert.equal(before.catalogue, null);
  assert.equal(canAsk(before), false);
  assert.equal(canAsk(reduce(before, { type: "online", online: true })), false, "nothing to ask for before the catalogue");
  const state = reduce(before, catalogueMessage());
  assert.equal(state.game, "scopa");
  assert.equal(state.deck, "bolognese");
  assert.equal(before.catalogue, null, "the state passed in is never changed");
  assert.equal(canAsk(state), false, "not before the server answers");
  assert.equal(canAsk(reduce(state, { type: "online", online: true })), true);
  assert.deepEqual(reduce(before, /** @type {Catalogue} */ (/** @type {unknown} */ ({ type: "catalogue", games: "?", decks: null, bots: 3 }))).catalogue, { games: [], decks: [], bots: [] });
});

test("a new catalogue keeps the game and deck chosen while it still has them", () => {
  let state = reduce(initialState({ name: "Anna" }), catalogueMessage());
  state = reduce(state, { type: "choose_deck", deck: "trevisane" });
  assert.equal(reduce(state, catalogueMessage()).deck, "trevisane");
  state = reduce(state, { type: "choose_game", game: "doudizhu" });
  assert.equal(state.deck, "french54");
  const without = catalogueMessage();
  without.games = without.games.filter((g) => g.id !== "doudizhu");
  const again = reduce(state, without);
  assert.equal(again.game, "scopa");
  assert.equal(again.deck, "bolognese");
  // a game gone: the next one offered takes its usual deck, even where the deck chosen would serve it
  const both = catalogueMessage();
  both.games = [{ id: "scopa", players: 2 }, { id: "briscola", players: 2 }];
  both.decks = [
    { id: "bolognese", games: ["scopa", "briscola"], default_for: ["scopa", "briscola"] },
    { id: "trevisane", games: ["scopa", "briscola"], default_for: [] },
  ];
  const briscola = reduce(reduce(reduce(initialState({ name: "Anna" }), both), { type: "choose_game", game: "briscola" }), { type: "choose_deck", deck: "trevisane" });
  both.games = [{ id: "scopa", players: 2 }];
  assert.deepEqual([reduce(briscola, both).game, reduce(briscola, both).deck], ["scopa", "bolognese"]);
});

test("choosing the game chosen already changes nothing; another one takes its usual deck", () => {
  const state = reduce(initialState({ name: "Anna" }), catalogueMessage());
  assert.equal(reduce(state, { type: "choose_game", game: "scopa" }), state);
  const chosen = reduce(reduce(state, { type: "choose_deck", deck: "trevisane" }), { type: "choose_game", game: "doudizhu" });
  assert.deepEqual([chosen.game, chosen.deck], ["doudizhu", "french54"]);
});

test("a bot level is chosen per game and kept; the rooms, the name and the status line are the last given", () => {
  const levels = { doudizhu: "basic" };
  let state = reduce(initialState({ name: "Anna", levels }), catalogueMessage());
  assert.equal(chosenLevel(state, "scopa"), "basic");
  state = reduce(state, { type: "choose_level", game: "scopa", level: "strong" });
  assert.equal(chosenLevel(state, "scopa"), "strong");
  assert.equal(chosenLevel(state, "doudizhu"), "basic");
  assert.deepEqual(levels, { doudizhu: "basic" }, "the levels passed in are never changed");
  assert.equal(state.rooms, null);
  const room = { room: "r-1", code: "KX4P7MQ2", game: "scopa", state: "waiting", seats: [{ kind: "human", name: "Bo" }, { kind: "open" }] };
  state = reduce(state, { type: "rooms", rooms: [room] });
  assert.deepEqual(state.rooms, [room]);
  assert.deepEqual(reduce(state, /** @type {import("../src/protocol/messages.js").Rooms} */ (/** @type {unknown} */ ({ type: "rooms", rooms: "?" }))).rooms, []);
  state = reduce(state, { type: "name", name: "Åsa" });
  assert.equal(state.name, "Åsa");
  const status = { key: "lobby.doing.join", args: {}, alert: false };
  assert.deepEqual(reduce(state, { type: "status", status }).status, status);
  assert.equal(reduce(reduce(state, { type: "status", status }), { type: "status", status: null }).status, null);
});

test("a room can be joined while it waits with a seat no bot or person holds", () => {
  const seats = [{ kind: "human", name: "Bo" }, { kind: "open" }];
  assert.equal(joinable({ room: "r", game: "scopa", state: "waiting", seats }), true);
  assert.equal(joinable({ room: "r", game: "scopa", state: "playing", seats }), false);
  assert.equal(joinable({ room: "r", game: "scopa", state: "waiting", seats: [{ kind: "human", name: "Bo" }, { kind: "bot" }] }), false);
  assert.equal(joinable({ room: "r", game: "scopa", state: "waiting" }), false);
});

test("names come from the served catalogue, else the server's, else the id", () => {
  const state = reduce(initialState({ name: "Anna" }), catalogueMessage());
  const texts = { lang: "it", messages: {}, games: { scopa: "Scopa!" }, decks: { bolognese: { name: "Bolognesi", place: "Bologna", suit_system: "italian", cards: { AD: "Asso di denari" } } } };
  assert.equal(gameName(state, texts, "scopa"), "Scopa!");
  assert.equal(gameName(state, texts, "doudizhu"), "doudizhu");
  const deck = deckTexts(state, texts, "bolognese");
  assert.deepEqual([deck.name, deck.place, deck.suitSystem, deck.count], ["Bolognesi", "Bologna", "italian", 40]);
  assert.deepEqual([deckTexts(state, texts, "french54").name, deckTexts(state, texts, "french54").suitSystem], ["french54", "french"]);
});
