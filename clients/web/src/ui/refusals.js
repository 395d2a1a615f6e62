/**
 * Where the server's refusals go: a typed table from who sent a request (and
 * the error code) to the screen that shows the refusal, with what else the
 * page does about it (send the request again, watch a full room instead, drop
 * the room address, ask for the catalogue again).
 *
 * Pure: `routeRefusal` decides, `App` (app.js) carries out the `Route` it
 * returns; the tests hold the decisions without a page.
 */

/** Requests remembered for routing their errors; older ones are forgotten. */
export const REMEMBERED_REQUESTS = 64;
/** How many times a request refused with `node_unavailable` is sent again. */
export const NODE_RETRIES = 5;

/**
 * @typedef {import("../protocol/codec.js").Message} Message
 * @typedef {import("../protocol/messages.js").ErrorMessage} ErrorMessage
 *
 * @typedef {"lobby" | "table" | "link" | "link-watch" | "leave" | "profile" | "replay"} Owner who sent a request:
 *   the lobby's forms, the table, a room address followed (to join, then to watch), the table's leave button,
 *   the profile's screens (profile, leaderboard, history), the replay
 * @typedef {{ message: Message, owner: Owner, retries: number }} Sent
 *
 * @typedef {"none" | "table" | "lobby" | "notice" | "watch" | "profile" | "replay"} Screen where a refusal shows:
 *   nowhere, the table's own line, the lobby's status line, a notice over the page, the
 *   lobby saying it watches the room instead (`Route.room`), the profile screens' status line,
 *   or the replay's
 *
 * @typedef {object} Rule what a refusal of one owner's request does
 * @property {"table" | "lobby" | "none" | "profile" | "replay"} screen the screen it belongs to (the table's falls
 *   back to the lobby when no table is open, the lobby's to a notice while a table is open; the profile's and
 *   the replay's always show on their own screens, which hold them even when not on show)
 * @property {boolean} [forgetLink] the room address in the address bar is dropped
 * @property {readonly string[]} [watchWhen] error codes on which the room is watched instead
 *
 * @typedef {object} Route what the page does with one refusal
 * @property {Screen} screen
 * @property {string} key the catalogue key that words it
 * @property {string | null} room the room code to watch (`screen` "watch")
 * @property {number | null} retryAfter seconds after which the same request is sent again
 * @property {boolean} forgetLink
 * @property {boolean} askCatalogue ask for the game catalogue again in a moment
 */

/**
 * Each owner's rule.
 * @type {Readonly<Record<Owner, Rule>>}
 */
export const BY_OWNER = Object.freeze({
  lobby: { screen: "lobby" },
  table: { screen: "table" },
  // a room address with no seat for us: watch the room instead
  link: { screen: "lobby", forgetLink: true, watchWhen: ["room_full", "room_started", "already_in_room"] },
  "link-watch": { screen: "lobby", forgetLink: true },
  // a refused leave: already out of the room
  leave: { screen: "none" },
  profile: { screen: "profile" },
  replay: { screen: "replay" },
});

/**
 * Error codes shown nowhere, whoever sent the request.
 * @type {ReadonlySet<string>}
 */
export const SILENT_CODES = new Set([
  // the welcome that follows starts afresh; a seat lost is told by `reconnected`
  "bad_resume_token",
]);

/**
 * Requests the page asks for again, a few seconds after a refusal, while it still lacks the answer.
 * @type {ReadonlySet<string>}
 */
export const ASKED_AGAIN = new Set([
  // without the catalogue the lobby has nothing to offer
  "get_catalogue",
]);

/**
 * The catalogue key that says what an error code means to a player.
 * @param {(key: string) => boolean} has
 * @param {unknown} code
 */
export function errorKey(has, code) {
  const key = `errors.${String(code)}`;
  return typeof code === "string" && has(key) ? key : "errors.unknown";
}

/**
 * The catalogue key that says why the server closed the connection.
 * @param {(key: string) => boolean} has
 * @param {number | null} code
 */
export function closeKey(has, code) {
  const key = `errors.close.${code}`;
  return code !== null && has(key) ? key : "web.connection.lost";
}

/**
 * What the page does with a refusal.
 * @param {ErrorMessage} error
 * @param {Sent | undefined} sent the request it refuses (undefined: not one the page remembers)
 * @param {{ tableOpen: boolean, has: (key: string) => boolean }} page
 * @returns {Route}
 */
export function routeRefusal(error, sent, page) {
  const code = String(error.code ?? "");
  /** @type {Route} */
  const route = { screen: "none", key: errorKey(page.has, code), room: null, retryAfter: null, forgetLink: false, askCatalogue: false };
  if (SILENT_CODES.has(code)) {
    return route;
  }
  if (sent && code === "node_unavailable" && sent.retries < NODE_RETRIES) {
    // the room is moving to another node: ask again once it should be there
    route.retryAfter = typeof error.retry_after === "number" ? Math.min(30, Math.max(0.5, error.retry_after)) : 2;
  }
  const rule = sent ? BY_OWNER[sent.owner] : BY_OWNER.table; // unasked-for refusals are about the room
  if (sent && rule.watchWhen?.includes(code)) {
    return { ...route, screen: "watch", room: String(sent.message.code) };
  }
  route.askCatalogue = sent !== undefined && ASKED_AGAIN.has(sent.message.type);
  route.forgetLink = rule.forgetLink ?? false;
  if (rule.screen === "none") {
    return route;
  }
  if (rule.screen === "table") {
    route.screen = page.tableOpen ? "table" : "lobby";
  } else if (rule.screen === "profile" || rule.screen === "replay") {
    route.screen = rule.screen;
  } else {
    route.screen = page.tableOpen ? "notice" : "lobby";
  }
  return route;
}

/** The requests sent lately, by id, so that a refusal reaches the part of the page that sent it. */
export class SentRequests {
  constructor() {
    /** @type {Map<number, Sent>} */
    this.sent = new Map();
  }

  /**
   * @param {number} id
   * @param {Message} message
   * @param {Owner} owner
   * @param {number} [retries] how many times it was sent again already
   */
  remember(id, message, owner, retries = 0) {
    this.sent.set(id, { message, owner, retries });
    if (this.sent.size > REMEMBERED_REQUESTS) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) {
        this.sent.delete(oldest);
      }
    }
  }

  /**
   * The request answered by `id`, forgotten now that it is answered.
   * @param {unknown} id
   * @returns {Sent | undefined}
   */
  take(id) {
    if (typeof id !== "number") {
      return undefined;
    }
    const sent = this.sent.get(id);
    this.sent.delete(id);
    return sent;
  }
}
