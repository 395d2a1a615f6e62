/**
 * How the page names a person: a bot by its seat and level, a guest by its number, anyone else
 * by the name they chose. The one owner of a shown name: seats, chat, history, replays, the
 * leaderboard and result summaries all name people through `displayName` (the terminal
 * client's twin is `cardavia.protocol.names.display_name`).
 *
 * On the wire a bot seat is `kind: "bot"` with its level in `bot` (a room's seats, a record's
 * seats), or `bot: true` with `level` (history players, leaderboard rows); a guest, a person
 * who chose no name, carries `guest`, a number from 100 to 999. `name` stays beside them as the
 * server's English fallback ("Bot 2 (basic)", "Player 563"), read only when neither says more.
 * The result is plain text: callers still pass it through `displaySafe` or `textContent`.
 */

export const GUEST_MIN = 100;
export const GUEST_MAX = 999;
export const LEVELS = /** @type {const} */ (["random", "basic", "strong", "expert"]); // weakest first, as protocol/messages.py BotLevel

/**
 * @typedef {(key: string, args?: Record<string, string | number | boolean | null | undefined>) => string} Translate
 * @typedef {{ t: Translate, lang?: string, has?: (key: string) => boolean }} NameWords
 * @typedef {{ name?: unknown, kind?: unknown, bot?: unknown, level?: unknown, guest?: unknown, [field: string]: unknown }} Person
 */

/**
 * `value` when it is a guest's number (a whole number from 100 to 999), else null.
 * @param {unknown} value
 * @returns {number | null}
 */
export function guestNumber(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= GUEST_MIN && value <= GUEST_MAX ? value : null;
}

/**
 * A guest number drawn from the browser's cryptographic random source.
 * @param {{ getRandomValues(array: Uint32Array<ArrayBuffer>): unknown }} crypto
 */
export function drawGuest(crypto) {
  const span = GUEST_MAX - GUEST_MIN + 1;
  const limit = Math.floor(0x100000000 / span) * span; // no number more likely than another
  const word = new Uint32Array(1);
  do {
    crypto.getRandomValues(word);
  } while (word[0] >= limit);
  return GUEST_MIN + (word[0] % span);
}

/**
 * A bot's level from either form a person comes in, or null for people and unknown levels.
 * @param {Person} person
 * @returns {string | null}
 */
export function botLevel(person) {
  let level = person.level;
  if ((level === undefined || level === null) && person.kind === "bot") {
    level = person.bot;
  }
  return typeof level === "string" && /** @type {readonly string[]} */ (LEVELS).includes(level) ? level : null;
}

/**
 * A bot level as it reads inside a bot's name: the bots catalogue's word, in lower case.
 * @param {string} level
 * @param {NameWords} words
 */
export function levelName(level, words) {
  const key = `bots.level.${level}`;
  const word = !words.has || words.has(key) ? words.t(key) : level;
  return word.toLocaleLowerCase(words.lang || undefined);
}

/**
 * `person` named in the reader's language: "Bot 2 (basic)" for a bot at `seat` (0-based),
 * "Bot (basic)" for a bot level with no seat, "Player 563" for a guest, else its own name
 * ("" when it has none: the caller says what stands there instead).
 * @param {Person | null | undefined} person
 * @param {NameWords} words
 * @param {number | null} [seat]
 */
export function displayName(person, words, seat = null) {
  if (!person) {
    return "";
  }
  const guest = guestNumber(person.guest);
  if (guest !== null) {
    return words.t("names.guest", { number: guest });
  }
  const level = botLevel(person);
  if (level !== null) {
    return seat === null || seat === undefined
      ? words.t("names.bot_level", { level: levelName(level, words) })
      : words.t("names.bot", { number: seat + 1, level: levelName(level, words) });
  }
  return typeof person.name === "string" ? person.name : "";
}
