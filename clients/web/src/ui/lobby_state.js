/**
 * The lobby's state, as plain data: the server's game catalogue, the open
 * rooms, the game and deck chosen, the bot level chosen for each game, the
 * player's name, whether the server answers, and the status line. `reduce`
 * is the only way it changes, from a server message (`catalogue`, `rooms`) or
 * a choice the player made (a `LobbyAction`); the render modules read it.
 *
 * Nothing here touches the page (eslint gives this module no browser
 * global), so the tests run it under Node; the same goes for the pure parts
 * the lobby's forms use (`decksFor`, `levelsFor`, `pickLevel`,
 * `previewCards`, `roomFields`) and the names the lobby shows (`gameName`,
 * `deckTexts`, `levelTexts`).
 */

import { LEVELS } from "../protocol/names.js";

export const MIN_TURN_SECONDS = 5;
export const MAX_TURN_SECONDS = 600;
export const ROOMS_LIMIT = 50;
/** Seconds between two refreshes of the open rooms while the lobby shows. */
export const ROOMS_REFRESH = 5;

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {import("../protocol/messages.js").GameInfo} GameInfo
 * @typedef {import("../protocol/messages.js").DeckInfo} DeckInfo
 * @typedef {import("../protocol/messages.js").BotInfo} BotInfo
 * @typedef {import("../protocol/messages.js").ServerCatalogue} ServerCatalogue
 * @typedef {import("../protocol/messages.js").RoomInfo} RoomInfo
 * @typedef {import("../protocol/messages.js").Catalogue} Catalogue
 * @typedef {import("../protocol/messages.js").Rooms} Rooms
 * @typedef {{ name: string, place?: string, description?: string, suit_system: string, rank_scheme?: string, cards: Record<string, string> }} DeckTexts
 * @typedef {{ lang: string, messages: Record<string, string>, games?: Record<string, string>, decks?: Record<string, DeckTexts>, language_names?: Record<string, string>, languages?: string[] }} TextCatalogue
 *
 * @typedef {{ key: string, args: Record<string, unknown>, alert: boolean }} StatusLine
 *
 * @typedef {object} LobbyState
 * @property {ServerCatalogue | null} catalogue null until the server's first answer
 * @property {RoomInfo[] | null} rooms null until the first answer
 * @property {string} game the game chosen
 * @property {string} deck the deck chosen for it
 * @property {Readonly<Record<string, string>>} levels the bot level chosen, by game
 * @property {string} name the name the player chose ("" while they have none: a guest)
 * @property {number | null} guest the guest number the player is named by while they have no name
 * @property {boolean} online the server answers
 * @property {StatusLine | null} status what the lobby is doing, or what went wrong
 * @property {boolean} profile the session holds a profile: rated play is offered
 * @property {boolean} rated play now and quick match are rated (with a profile; as the server's
 *   quick match is by default)
 *
 * @typedef {{ type: "online", online: boolean }
 *   | { type: "status", status: StatusLine | null }
 *   | { type: "choose_game", game: string }
 *   | { type: "choose_deck", deck: string }
 *   | { type: "choose_level", game: string, level: string }
 *   | { type: "name", name: string }
 *   | { type: "profile", profile: boolean }
 *   | { type: "rated", rated: boolean }} LobbyAction
 *
 * @typedef {Catalogue | Rooms | LobbyAction} LobbyMessage
 */

/**
 * The lobby before the server has said anything.
 * @param {{ name: string | null, guest?: number | null, levels?: Record<string, string> }} player
 * @returns {LobbyState}
 */
export function initialState(player) {
  return {
    catalogue: null,
    rooms: null,
    game: "",
    deck: "",
    levels: { ...player.levels },
    name: player.name ?? "",
    guest: player.guest ?? null,
    online: false,
    status: null,
    profile: false,
    rated: true,
  };
}

/**
 * The game catalogue a `catalogue` message carries (a field that is not a list reads as empty).
 * @param {Catalogue} message
 * @returns {ServerCatalogue}
 */
export function catalogueOf(message) {
  return {
    games: Array.isArray(message.games) ? message.games : [],
    decks: Array.isArray(message.decks) ? message.decks : [],
    bots: Array.isArray(message.bots) ? message.bots : [],
  };
}

/**
 * The lobby after one message; the state passed in is never changed.
 * @param {LobbyState} state
 * @param {LobbyMessage} message
 * @returns {LobbyState}
 */
export function reduce(state, message) {
  switch (message.type) {
    case "catalogue": {
      const catalogue = catalogueOf(message);
      const games = catalogue.games.map((g) => g.id);
      const game = games.includes(state.game) ? state.game : (games[0] ?? "");
      const kept = game === state.game ? state.deck : "";
      const decks = decksFor(catalogue, game);
      return { ...state, catalogue, game, deck: decks.includes(kept) ? kept : (decks[0] ?? "") };
    }
    case "rooms":
      return { ...state, rooms: Array.isArray(message.rooms) ? message.rooms : [] };
    case "online":
      return { ...state, online: message.online };
    case "status":
      return { ...state, status: message.status };
    case "choose_game":
      if (message.game === state.game) {
        return state;
      }
      return { ...state, game: message.game, deck: decksFor(state.catalogue, message.game)[0] ?? "" };
    case "choose_deck":
      return { ...state, deck: message.deck };
    case "choose_level":
      return { ...state, levels: { ...state.levels, [message.game]: message.level } };
    case "name":
      return { ...state, name: message.name };
    case "profile":
      return message.profile === state.profile ? state : { ...state, profile: message.profile };
    case "rated":
      return message.rated === state.rated ? state : { ...state, rated: message.rated };
    default:
      return state;
  }
}

/**
 * Whether the lobby's buttons that ask the server something can be used.
 * @param {LobbyState} state
 */
export function canAsk(state) {
  return state.online && state.catalogue !== null;
}

/**
 * The bot level to offer first for `game`.
 * @param {LobbyState} state
 * @param {string} game
 */
export function chosenLevel(state, game) {
  return pickLevel(levelsFor(state.catalogue, game), state.levels[game]);
}

/**
 * Whether the lobby's play now and quick match ask for a rated match: only with a profile.
 * @param {LobbyState} state
 */
export function ratedPlay(state) {
  return state.profile && state.rated;
}

/**
 * Whether a room of the list has a seat a person can take now.
 * @param {RoomInfo} room
 */
export function joinable(room) {
  const open = (room.seats ?? []).some((seat) => !seat.name && seat.kind !== "bot");
  return open && room.state === "waiting";
}

// ------------------------------------------------------------------ names

/**
 * A game's name: the served catalogue's, else the server's, else its id.
 * @param {LobbyState} state
 * @param {TextCatalogue} texts
 * @param {string} game
 */
export function gameName(state, texts, game) {
  return texts.games?.[game] ?? state.catalogue?.games.find((g) => g.id === game)?.name ?? game;
}

/**
 * What the lobby says about a deck, from the served catalogue and the server's.
 * @param {LobbyState} state
 * @param {TextCatalogue} texts
 * @param {string | null | undefined} deck
 */
export function deckTexts(state, texts, deck) {
  const own = deck ? texts.decks?.[deck] : undefined;
  const server = state.catalogue?.decks.find((d) => d.id === deck);
  return {
    name: own?.name ?? server?.name ?? deck ?? "",
    place: own?.place ?? "",
    description: own?.description ?? "",
    suitSystem: own?.suit_system ?? server?.suit_system ?? "french",
    rankScheme: own?.rank_scheme,
    cards: own?.cards ?? {},
    count: server?.cards ?? Object.keys(own?.cards ?? {}).length,
  };
}

/** @typedef {ReturnType<typeof deckTexts>} Deck */

/**
 * A bot level's name and what it plays like in `game`.
 * @param {LobbyState} state
 * @param {{ t: Translate, has: (key: string) => boolean }} words
 * @param {string} game
 * @param {string} level
 */
export function levelTexts(state, words, game, level) {
  const { t, has } = words;
  const bot = state.catalogue?.bots.find((b) => b.level === level && (b.game === undefined || b.game === game));
  return {
    name: has(`bots.level.${level}`) ? t(`bots.level.${level}`) : bot?.name ?? level,
    about: has(`bots.about.${game}.${level}`) ? t(`bots.about.${game}.${level}`) : bot?.description ?? "",
  };
}

// ------------------------------------------------------------------ the forms' pure parts

/**
 * The deck traditions that serve `game`, the game's usual one first.
 * @param {ServerCatalogue | null} catalogue
 * @param {string} game
 * @returns {string[]}
 */
export function decksFor(catalogue, game) {
  if (!catalogue) {
    return [];
  }
  const serving = catalogue.decks.filter((deck) => (deck.games ?? []).some((g) => (typeof g === "string" ? g : g.id) === game));
  const usual = serving.filter((deck) => (deck.default_for ?? []).includes(game));
  return [...usual, ...serving.filter((deck) => !usual.includes(deck))].map((deck) => deck.id);
}

/**
 * The bot levels `game` has, weakest first (`LEVELS`, the protocol's order).
 * @param {ServerCatalogue | null} catalogue
 * @param {string} game
 * @returns {string[]}
 */
export function levelsFor(catalogue, game) {
  if (!catalogue) {
    return [];
  }
  /** @type {string[]} */
  const levels = [];
  for (const bot of catalogue.bots) {
    if ((bot.game === undefined || bot.game === game) && !levels.includes(bot.level)) {
      levels.push(bot.level);
    }
  }
  const order = /** @type {readonly string[]} */ (LEVELS); // a level this page does not know goes last
  return levels.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
}

/**
 * The level to offer first: the one chosen before if the game still has it, else `basic`.
 * @param {string[]} levels
 * @param {string | undefined} chosen
 */
export function pickLevel(levels, chosen) {
  if (chosen && levels.includes(chosen)) {
    return chosen;
  }
  return levels.includes("basic") ? "basic" : (levels[0] ?? "basic");
}

/**
 * A few cards that show what a pack looks like: an ace, a card its games
 * prize (the settebello, a ten, a joker) and a court card, among the cards it has.
 * @param {string[]} codes every card of the pack
 * @returns {string[]}
 */
export function previewCards(codes) {
  const have = new Set(codes);
  const pick = (/** @type {string[]} */ wanted) => wanted.find((code) => have.has(code));
  return [
    pick(["AD", "AH", "AS", "AC"]),
    pick(["7D", "RJ", "TH", "9H"]),
    pick(["KC", "KS", "QH", "JS"]),
  ].filter((code) => code !== undefined);
}

/**
 * A problem with what was typed in the create-room form: a catalogue key and
 * its arguments, and the field it is about.
 */
export class FormProblem extends Error {
  /**
   * @param {string} field
   * @param {string} key
   * @param {Record<string, unknown>} [args]
   */
  constructor(field, key, args = {}) {
    super(key);
    this.field = field;
    this.key = key;
    this.args = args;
  }
}

/**
 * The fields of a `create_room` request from the form's values; `FormProblem`
 * says what is wrong. An option left empty takes the game's default (the
 * server's), so it is not sent.
 * @param {{
 *   game: string,
 *   deck: string | null,
 *   options: Record<string, string>,
 *   defaults: Record<string, unknown>,
 *   humans: number,
 *   botLevel: string | null,
 *   private: boolean,
 *   timer: string,
 *   optionName?: (option: string) => string,
 * }} form
 */
export function roomFields(form) {
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [name, typed] of Object.entries(form.options)) {
    const text = typed.trim();
    if (!text) {
      continue;
    }
    const fallback = form.defaults[name];
    if (typeof fallback === "boolean") {
      options[name] = ["1", "yes", "true", "on"].includes(text.toLowerCase());
    } else if (typeof fallback === "number") {
      if (!/^-?\d+$/.test(text)) {
        throw new FormProblem(`option-${name}`, "forms.problem.whole_number", {
          option: form.optionName ? form.optionName(name) : name,
          text,
        });
      }
      options[name] = Number(text);
    } else {
      options[name] = text;
    }
  }
  let turnSeconds = null;
  const timer = form.timer.trim().replace(",", ".");
  if (timer) {
    const seconds = Number(timer);
    if (!Number.isFinite(seconds) || !/^\d+(\.\d+)?$/.test(timer)) {
      throw new FormProblem("timer", "forms.problem.timer_number", { text: form.timer.trim() });
    }
    if (seconds < MIN_TURN_SECONDS || seconds > MAX_TURN_SECONDS) {
      throw new FormProblem("timer", "web.create.timer_range", { least: MIN_TURN_SECONDS, most: MAX_TURN_SECONDS });
    }
    turnSeconds = seconds;
  }
  return {
    game: form.game,
    deck: form.deck,
    options,
    public: !form.private,
    humans: form.humans,
    bot_level: form.botLevel,
    turn_seconds: turnSeconds,
  };
}
