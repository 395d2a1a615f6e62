/**
 * The player's profile as plain data: the profile the session holds, its
 * ratings per game and recent matches (`history`), the transfer code on show
 * and when it runs out, the leaderboard of one game, the rating changes heard
 * at match ends, and the status line of the profile screens. `reduce` is the
 * only way it changes, from a server message (`welcome`, `profile`,
 * `transfer_code`, `profile_deleted`, `history`, `leaderboard`,
 * `rating_change`, a refusal) or a choice the player made; the render module
 * (`profile.js`) reads it.
 *
 * Nothing here touches the page (eslint gives this module no browser global):
 * the clock comes in with the messages that need it, so the tests run it
 * under Node. The words are catalogue keys and their arguments, worded when
 * drawn, so another language words the same state.
 */

/** A rating whose deviation is above this is provisional (Glicko's 110: a few games in). */
export const PROVISIONAL_DEVIATION = 110;
/** How many rows a leaderboard asks for. */
export const BOARD_ROWS = 20;
/** How many matches the history asks for at a time. */
export const HISTORY_PAGE = 20;
/** How many rating changes heard at match ends are kept. */
export const CHANGES_KEPT = 10;

/**
 * @typedef {{ id: string, name: string, bot: boolean }} PlayerInfo
 * @typedef {{ game: string, rating: number, deviation: number, games: number }} GameRating
 * @typedef {{ rank: number, player: string, name: string, rating: number, deviation: number, games: number,
 *   bot: boolean, level: string | null }} Standing
 * @typedef {{ name: string, bot: boolean, player: string | null, level?: string | null, guest?: number | null }} MatchPlayer
 *   (`level`: a built-in bot's, `guest`: a guest's number; `displayName` names them)
 * @typedef {{ record: string, game: string, ended: number, rated: boolean, seat: number, players: MatchPlayer[],
 *   scores: number[], winner: number | null, rating_before: number | null, rating_after: number | null }} HistoryEntry
 * @typedef {{ record: string, game: string, before: number, after: number, deviation: number }} RatingChange
 * @typedef {{ game: string, top: Standing[], me: Standing | null }} Board
 * @typedef {{ key: string, args: Record<string, unknown>, alert: boolean }} StatusLine
 *
 * @typedef {object} ProfileState
 * @property {PlayerInfo | null} player the profile the session holds (null: playing without one)
 * @property {GameRating[]} ratings per game played rated (from the last `history`)
 * @property {HistoryEntry[] | null} matches newest first; null until the first `history`
 * @property {boolean} more the last page of history was full: there may be older matches
 * @property {{ code: string, expires: number } | null} code the transfer code on show; `expires` on the page clock (ms)
 * @property {Board | null} board the leaderboard on show
 * @property {string} boardGame the game whose leaderboard is asked for
 * @property {RatingChange[]} changes rating changes heard at match ends, newest first
 * @property {StatusLine | null} status what the profile screens are doing, or what went wrong
 * @property {boolean} keyLost the last hello's key was not recognised (told once, then cleared)
 *
 * @typedef {{ type: "welcome", player?: unknown, player_error?: unknown }
 *   | { type: "profile", player?: unknown, key?: unknown }
 *   | { type: "transfer_code", code?: unknown, expires_in?: unknown, now: number }
 *   | { type: "profile_deleted" }
 *   | { type: "history", player?: unknown, ratings?: unknown, matches?: unknown, page?: "first" | "more" }
 *   | { type: "leaderboard", game?: unknown, top?: unknown, me?: unknown }
 *   | { type: "rating_change", record?: unknown, game?: unknown, before?: unknown, after?: unknown, deviation?: unknown }
 *   | { type: "refused", code: string }
 *   | { type: "status", status: StatusLine | null }
 *   | { type: "board_game", game: string }
 *   | { type: "key_lost_told" }} ProfileMessage
 */

/**
 * The profile screens before the server has said anything.
 * @param {string} [boardGame]
 * @returns {ProfileState}
 */
export function initialState(boardGame = "") {
  return {
    player: null,
    ratings: [],
    matches: null,
    more: false,
    code: null,
    board: null,
    boardGame,
    changes: [],
    status: null,
    keyLost: false,
  };
}

/**
 * The next state after one message; the state passed in is never changed.
 * @param {ProfileState} state
 * @param {ProfileMessage} message
 * @returns {ProfileState}
 */
export function reduce(state, message) {
  switch (message.type) {
    case "welcome": {
      const player = playerOf(message.player);
      const lost = message.player_error === "unknown_player" || message.player_error === "malformed_player_key";
      return samePlayer(state.player, player)
        ? { ...state, player, keyLost: lost || state.keyLost }
        : { ...initialState(state.boardGame), player, changes: state.changes, keyLost: lost };
    }
    case "profile": {
      const player = playerOf(message.player);
      if (!player) {
        return state;
      }
      const fresh = state.player?.id !== player.id;
      const base = fresh ? { ...initialState(state.boardGame), changes: state.changes } : state;
      const key = fresh ? (typeof message.key === "string" && message.key ? "profile.status.created" : "profile.status.signed_in") : "profile.status.renamed";
      return { ...base, player, status: { key, args: { name: player.name }, alert: false } };
    }
    case "transfer_code": {
      const seconds = typeof message.expires_in === "number" && Number.isFinite(message.expires_in) ? message.expires_in : 0;
      if (typeof message.code !== "string" || !message.code) {
        return state;
      }
      return { ...state, code: { code: message.code, expires: message.now + seconds * 1000 }, status: null };
    }
    case "profile_deleted":
      return { ...initialState(state.boardGame), status: { key: "profile.status.deleted", args: {}, alert: false } };
    case "history": {
      const player = playerOf(message.player);
      if (!player || (state.player && player.id !== state.player.id)) {
        return state; // another player's history: not this screen's
      }
      const page = listOf(message.matches).map(entryOf).filter(isEntry);
      const matches = message.page === "more" && state.matches ? [...state.matches, ...page] : page;
      return {
        ...state,
        player: state.player ?? player,
        ratings: listOf(message.ratings).map(ratingOf).filter(isRating),
        matches,
        more: page.length >= HISTORY_PAGE,
        status: null,
      };
    }
    case "leaderboard": {
      if (typeof message.game !== "string") {
        return state;
      }
      const top = listOf(message.top).map(standingOf).filter(isStanding);
      const me = standingOf(message.me);
      return { ...state, board: { game: message.game, top, me }, boardGame: message.game, status: null };
    }
    case "rating_change": {
      const change = changeOf(message);
      if (!change) {
        return state;
      }
      const changes = [change, ...state.changes.filter((c) => c.record !== change.record)].slice(0, CHANGES_KEPT);
      const ratings = state.ratings.some((r) => r.game === change.game)
        ? state.ratings.map((r) => (r.game === change.game ? { ...r, rating: change.after, deviation: change.deviation, games: r.games + 1 } : r))
        : [...state.ratings, { game: change.game, rating: change.after, deviation: change.deviation, games: 1 }];
      return { ...state, changes, ratings };
    }
    case "refused":
      if (message.code === "profile_required") {
        // the server holds no profile for this session: the page stops offering one
        return { ...state, player: null, code: null, status: { key: "errors.profile_required", args: {}, alert: true } };
      }
      return { ...state, status: { key: `errors.${message.code}`, args: {}, alert: true } };
    case "status":
      return { ...state, status: message.status };
    case "board_game":
      return message.game === state.boardGame ? state : { ...state, boardGame: message.game, board: null };
    case "key_lost_told":
      return { ...state, keyLost: false };
    default:
      return state;
  }
}

// ------------------------------------------------------------------ what the screens show

/**
 * Whether a rating is still provisional: too few games for the number to mean much.
 * @param {number} deviation
 */
export function provisional(deviation) {
  return deviation > PROVISIONAL_DEVIATION;
}

/**
 * Whole seconds the transfer code on show is still good for (0: run out), or null without one.
 * @param {ProfileState} state
 * @param {number} now the page clock, ms
 */
export function codeLeft(state, now) {
  if (!state.code) {
    return null;
  }
  return Math.max(0, Math.ceil((state.code.expires - now) / 1000));
}

/**
 * A transfer code as people read it aloud: groups of five.
 * @param {string} code
 */
export function groupedCode(code) {
  return code.match(/.{1,5}/g)?.join("-") ?? code;
}

/**
 * What a player typed as a transfer code, as the server reads it (any case, spaces
 * and dashes ignored); null when it cannot be one.
 * @param {string} typed
 */
export function typedCode(typed) {
  const code = typed.replace(/[\s-]+/g, "").toUpperCase();
  return /^[A-Z0-9]{4,16}$/.test(code) ? code : null;
}

/**
 * A rating's change, signed: "+12", "−3", "±0" (the minus sign, not a hyphen).
 * @param {number} before
 * @param {number} after
 */
export function signedChange(before, after) {
  const change = Math.round(after - before);
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return "\u00b10";
}

/**
 * How a match of the history went for the player: "won", "lost" or "shared". A
 * seat that scored what the winner scored won with them (Dou Dizhu's peasants).
 * @param {HistoryEntry} entry
 * @returns {"won" | "lost" | "shared"}
 */
export function outcome(entry) {
  const winner = entry.winner;
  if (winner === null || winner < 0 || winner >= entry.scores.length) return "shared";
  if (winner === entry.seat || entry.scores[entry.seat] === entry.scores[winner]) return "won";
  return "lost";
}

/**
 * The other seats of a match of the history, in seat order.
 * @param {HistoryEntry} entry
 * @returns {MatchPlayer[]}
 */
export function opponents(entry) {
  return entry.players.filter((_, seat) => seat !== entry.seat);
}

/**
 * Whether a leaderboard row is the player's own.
 * @param {ProfileState} state
 * @param {Standing} row
 */
export function isMine(state, row) {
  return state.player !== null && row.player === state.player.id;
}

/**
 * The rating change heard for one match, if any.
 * @param {ProfileState} state
 * @param {string} record
 */
export function changeFor(state, record) {
  return state.changes.find((c) => c.record === record) ?? null;
}

// ------------------------------------------------------------------ reading the network's data

/**
 * @param {unknown} value
 * @returns {unknown[]}
 */
function listOf(value) {
  return Array.isArray(value) ? value : [];
}

/** @param {unknown} value */
function whole(value) {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;
}

/**
 * @param {unknown} value
 * @returns {PlayerInfo | null}
 */
export function playerOf(value) {
  if (!value || typeof value !== "object") return null;
  const p = /** @type {Record<string, unknown>} */ (value);
  if (typeof p.id !== "string" || typeof p.name !== "string") return null;
  return { id: p.id, name: p.name, bot: p.bot === true };
}

/**
 * @param {PlayerInfo | null} a
 * @param {PlayerInfo | null} b
 */
function samePlayer(a, b) {
  return (a === null && b === null) || (a !== null && b !== null && a.id === b.id);
}

/**
 * @param {unknown} value
 * @returns {GameRating | null}
 */
function ratingOf(value) {
  if (!value || typeof value !== "object") return null;
  const r = /** @type {Record<string, unknown>} */ (value);
  const rating = whole(r.rating);
  const deviation = whole(r.deviation);
  if (typeof r.game !== "string" || rating === null || deviation === null) return null;
  return { game: r.game, rating, deviation, games: whole(r.games) ?? 0 };
}

/**
 * @param {GameRating | null} r
 * @returns {r is GameRating}
 */
function isRating(r) {
  return r !== null;
}

/**
 * @param {unknown} value
 * @returns {Standing | null}
 */
function standingOf(value) {
  if (!value || typeof value !== "object") return null;
  const s = /** @type {Record<string, unknown>} */ (value);
  const rank = whole(s.rank);
  const rating = whole(s.rating);
  const deviation = whole(s.deviation);
  if (rank === null || rating === null || deviation === null || typeof s.player !== "string" || typeof s.name !== "string") return null;
  return {
    rank, player: s.player, name: s.name, rating, deviation, games: whole(s.games) ?? 0,
    bot: s.bot === true, level: typeof s.level === "string" ? s.level : null,
  };
}

/**
 * @param {Standing | null} s
 * @returns {s is Standing}
 */
function isStanding(s) {
  return s !== null;
}

/**
 * @param {unknown} value
 * @returns {HistoryEntry | null}
 */
function entryOf(value) {
  if (!value || typeof value !== "object") return null;
  const e = /** @type {Record<string, unknown>} */ (value);
  const seat = whole(e.seat);
  if (typeof e.record !== "string" || typeof e.game !== "string" || seat === null) return null;
  const players = listOf(e.players).map((p) => {
    const o = p && typeof p === "object" ? /** @type {Record<string, unknown>} */ (p) : {};
    return {
      name: typeof o.name === "string" ? o.name : "", bot: o.bot === true, player: typeof o.player === "string" ? o.player : null,
      level: typeof o.level === "string" ? o.level : null, guest: typeof o.guest === "number" ? o.guest : null,
    };
  });
  return {
    record: e.record,
    game: e.game,
    ended: typeof e.ended === "number" ? e.ended : 0,
    rated: e.rated === true,
    seat,
    players,
    scores: listOf(e.scores).map((n) => whole(n) ?? 0),
    winner: whole(e.winner),
    rating_before: whole(e.rating_before),
    rating_after: whole(e.rating_after),
  };
}

/**
 * @param {HistoryEntry | null} e
 * @returns {e is HistoryEntry}
 */
function isEntry(e) {
  return e !== null;
}

/**
 * @param {{ record?: unknown, game?: unknown, before?: unknown, after?: unknown, deviation?: unknown }} m
 * @returns {RatingChange | null}
 */
function changeOf(m) {
  const before = whole(m.before);
  const after = whole(m.after);
  if (typeof m.record !== "string" || typeof m.game !== "string" || before === null || after === null) return null;
  return { record: m.record, game: m.game, before, after, deviation: whole(m.deviation) ?? 0 };
}
