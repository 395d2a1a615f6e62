// The profile screens' state: the profile held, a transfer code and its
// countdown, history and leaderboard answers (hostile fields dropped), rating
// changes, refusals, and the pure readings the screens show.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  HISTORY_PAGE, changeFor, codeLeft, groupedCode, initialState, isMine, opponents, outcome, provisional, reduce,
  signedChange, typedCode,
} from "../src/ui/profile_state.js";

const ANNA = { id: "p-5c0a9e1f2b3d4c6e", name: "Anna", bot: false };
const ENTRY = {
  record: "r-7f3a-1", game: "scopa", ended: 1796000000.0, rated: true, seat: 0,
  players: [{ name: "Anna", bot: false, player: ANNA.id }, { name: "Bot (basic)", bot: true, player: null }],
  scores: [11, 7], winner: 0, rating_before: 1548, rating_after: 1562,
};

/** @param {Record<string, unknown>} [fields] */
function signedIn(fields = {}) {
  return reduce(initialState("briscola"), { type: "welcome", player: ANNA, player_error: null, ...fields });
}

test("a welcome names the profile held, or none; an unrecognised key is told once", () => {
  assert.deepEqual(signedIn().player, ANNA);
  const lost = reduce(initialState(), { type: "welcome", player: null, player_error: "unknown_player" });
  assert.equal(lost.player, null);
  assert.equal(lost.keyLost, true);
  assert.equal(reduce(lost, { type: "key_lost_told" }).keyLost, false);
  const away = reduce(initialState(), { type: "welcome", player: null, player_error: "storage_unavailable" });
  assert.equal(away.keyLost, false, "a database away is no reason to say the key is gone");
  assert.equal(reduce(initialState(), { type: "welcome", player: { name: "no id" } }).player, null);
});

test("another profile in a welcome forgets the last one's history and code, keeps the board's game", () => {
  let state = reduce(signedIn(), { type: "history", player: ANNA, ratings: [], matches: [ENTRY] });
  state = reduce(state, { type: "transfer_code", code: "K7MQ2XPR4T", expires_in: 600, now: 0 });
  const other = reduce(state, { type: "welcome", player: { id: "p-2", name: "Bo", bot: false } });
  assert.equal(other.matches, null);
  assert.equal(other.code, null);
  assert.equal(other.boardGame, "briscola");
  const same = reduce(state, { type: "welcome", player: ANNA });
  assert.equal(same.matches?.length, 1, "a reconnection keeps what was shown");
});

test("profile answers: created, taken with a transfer code, renamed", () => {
  const created = reduce(initialState(), { type: "profile", player: ANNA, key: "secret" });
  assert.deepEqual(created.player, ANNA);
  assert.equal(created.status?.key, "profile.status.created");
  assert.equal(JSON.stringify(created).includes("secret"), false, "the key is the session's, never the screen's");
  const renamed = reduce(created, { type: "profile", player: { ...ANNA, name: "Anna B." }, key: null });
  assert.equal(renamed.player?.name, "Anna B.");
  assert.equal(renamed.status?.key, "profile.status.renamed");
  const taken = reduce(initialState(), { type: "profile", player: ANNA, key: null });
  assert.equal(taken.status?.key, "profile.status.signed_in");
  assert.equal(reduce(created, { type: "profile", player: null }), created);
});

test("a transfer code counts down on the page clock and runs out", () => {
  const state = reduce(signedIn(), { type: "transfer_code", code: "K7MQ2XPR4T", expires_in: 600, now: 5000 });
  assert.equal(codeLeft(state, 5000), 600);
  assert.equal(codeLeft(state, 5000 + 59_500), 541);
  assert.equal(codeLeft(state, 5000 + 600_000), 0);
  assert.equal(codeLeft(state, 10_000_000), 0);
  assert.equal(codeLeft(signedIn(), 0), null);
  assert.equal(reduce(signedIn(), { type: "transfer_code", code: 7, expires_in: 600, now: 0 }).code, null);
});

test("profile_deleted leaves nothing of the profile but a word that it is gone", () => {
  let state = reduce(signedIn(), { type: "history", player: ANNA, ratings: [{ game: "scopa", rating: 1562, deviation: 88, games: 14 }], matches: [ENTRY] });
  state = reduce(state, { type: "profile_deleted" });
  assert.equal(state.player, null);
  assert.deepEqual(state.ratings, []);
  assert.equal(state.matches, null);
  assert.equal(state.status?.key, "profile.status.deleted");
});

test("history: ratings and matches read, malformed rows dropped, a next page appended", () => {
  const page = [ENTRY, { record: 7 }, { ...ENTRY, record: "r-2", winner: null, rating_before: null, rating_after: null, rated: false }];
  let state = reduce(signedIn(), {
    type: "history", player: ANNA, page: "first",
    ratings: [{ game: "scopa", rating: 1562.4, deviation: 88, games: 14 }, { game: "briscola" }],
    matches: page,
  });
  assert.deepEqual(state.ratings, [{ game: "scopa", rating: 1562, deviation: 88, games: 14 }]);
  assert.deepEqual(state.matches?.map((m) => m.record), ["r-7f3a-1", "r-2"]);
  assert.equal(state.more, false);
  const full = Array.from({ length: HISTORY_PAGE }, (_, i) => ({ ...ENTRY, record: `r-more-${i}` }));
  state = reduce(state, { type: "history", player: ANNA, ratings: [], matches: full, page: "more" });
  assert.equal(state.matches?.length, 2 + HISTORY_PAGE);
  assert.equal(state.more, true);
  const others = reduce(state, { type: "history", player: { id: "p-other", name: "Bo" }, ratings: [], matches: [] });
  assert.equal(others, state, "another player's history is not this screen's");
});

test("leaderboard: rows read, the player's own found, a game changed clears the board", () => {
  const top = [
    { rank: 1, player: "bot:strong", name: "Bot (strong)", rating: 1710, deviation: 60, games: 0, bot: true, level: "strong" },
    { rank: 2, player: ANNA.id, name: "Anna", rating: 1562, deviation: 88, games: 14, bot: false, level: null },
    { rank: "3", player: "p-x", name: "Broken" },
  ];
  const state = reduce(signedIn(), { type: "leaderboard", game: "scopa", top, me: top[1] });
  assert.equal(state.board?.top.length, 2);
  assert.equal(state.board?.top[0].level, "strong");
  assert.deepEqual(state.board?.me, top[1]);
  assert.equal(state.boardGame, "scopa");
  assert.deepEqual(state.board?.top.map((row) => isMine(state, row)), [false, true]);
  const other = reduce(state, { type: "board_game", game: "briscola" });
  assert.equal(other.board, null);
  assert.equal(reduce(other, { type: "board_game", game: "briscola" }), other);
});

test("a rating change is kept by match and moves the game's rating", () => {
  let state = reduce(signedIn(), { type: "history", player: ANNA, ratings: [{ game: "scopa", rating: 1548, deviation: 90, games: 13 }], matches: [] });
  state = reduce(state, { type: "rating_change", record: "r-7f3a-1", game: "scopa", before: 1548, after: 1562, deviation: 88 });
  assert.deepEqual(changeFor(state, "r-7f3a-1"), { record: "r-7f3a-1", game: "scopa", before: 1548, after: 1562, deviation: 88 });
  assert.deepEqual(state.ratings, [{ game: "scopa", rating: 1562, deviation: 88, games: 14 }]);
  state = reduce(state, { type: "rating_change", record: "r-b-1", game: "briscola", before: 1500, after: 1480, deviation: 300 });
  assert.deepEqual(state.ratings.map((r) => r.game), ["scopa", "briscola"]);
  assert.equal(changeFor(state, "r-none"), null);
  assert.equal(reduce(state, { type: "rating_change", record: "r-x", game: "scopa", before: "a", after: 1 }), state);
});

test("refusals: profile_required drops the profile; others are worded from the error's key", () => {
  const state = reduce(signedIn(), { type: "refused", code: "profile_required" });
  assert.equal(state.player, null);
  assert.equal(state.status?.key, "errors.profile_required");
  assert.equal(reduce(signedIn(), { type: "refused", code: "unknown_code" }).status?.key, "errors.unknown_code");
});

test("provisional above a deviation of 110", () => {
  assert.equal(provisional(350), true);
  assert.equal(provisional(111), true);
  assert.equal(provisional(110), false);
  assert.equal(provisional(60), false);
});

test("codes are read as the server reads them and shown in groups", () => {
  assert.equal(typedCode(" k7mq2-xpr4t "), "K7MQ2XPR4T");
  assert.equal(typedCode("K7 MQ 2X PR 4T"), "K7MQ2XPR4T");
  assert.equal(typedCode("ab"), null);
  assert.equal(typedCode("ÄÖÜ12345"), null);
  assert.equal(groupedCode("K7MQ2XPR4T"), "K7MQ2-XPR4T");
});

test("a match's outcome for the player, its opponents and the signed change", () => {
  assert.equal(outcome(ENTRY), "won");
  assert.equal(outcome({ ...ENTRY, winner: 1 }), "lost");
  assert.equal(outcome({ ...ENTRY, winner: null }), "shared");
  // Dou Dizhu's peasants score alike: the partner of the winning peasant won too
  assert.equal(outcome({ ...ENTRY, seat: 2, players: [...ENTRY.players, ENTRY.players[1]], scores: [-4, 2, 2], winner: 1 }), "won");
  assert.deepEqual(opponents(ENTRY).map((p) => p.name), ["Bot (basic)"]);
  assert.equal(signedChange(1548, 1562), "+14");
  assert.equal(signedChange(1562, 1548), "\u221214");
  assert.equal(signedChange(1500, 1500), "\u00b10");
});
