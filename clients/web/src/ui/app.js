/**
 * The page: its frame (connection state, language menu, display settings,
 * notices), the lobby, and the table of the room the player is in.
 *
 * One `Session` (src/protocol/session.js) carries the connection: it resumes
 * the seat after a drop or a reload with the token it keeps in localStorage,
 * follows redirects to the node that runs a room, and reports every message
 * and its own notices to `onEvent` here, which routes them: the catalogue and
 * the open rooms to the lobby, a room's snapshot to a new table (or the one
 * open for that room), the rest of a room's stream to its table, and errors
 * to whoever sent the request, worded from the catalogue's `errors.<code>`.
 *
 * Every word is looked up in the served catalogue of the chosen language
 * (`GET /i18n/<lang>.json`); choosing another language fetches it and words
 * the whole page again, table included, without a reload.
 *
 * A room's address is the page's with `#/room/CODE`: opening it joins the
 * room, or watches it when it is full or its game has begun.
 */
import { createTranslator, normalize, pickLanguage } from "../protocol/i18n.js";
import { Session, SessionInterrupted } from "../protocol/session.js";
import { h, roomFromHash, roomLink, displaySafe, uid } from "./dom.js";
import { Lobby } from "./lobby.js";
import { closeRules, configureRules, openRules } from "./rules.js";
import { DisplaySettings, applyDisplay, readSettings, writeSettings } from "./settings.js";
import { TableView } from "./table.js";

/** How long a notice that needs no answer stays, in milliseconds. */
const NOTICE_MS = 7000;
/** Requests remembered for routing their errors; older ones are forgotten. */
const REMEMBERED_REQUESTS = 64;
/** Longest wait between two attempts to fetch the texts, in milliseconds. */
const LONGEST_TEXTS_WAIT = 15000;
/** How many times a request refused with `node_unavailable` is sent again. */
const NODE_RETRIES = 5;

/**
 * @typedef {import("./lobby.js").TextCatalogue} TextCatalogue
 * @typedef {import("./lobby.js").ServerCatalogue} ServerCatalogue
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {Record<string, any>} Message
 * @typedef {"lobby" | "table" | "link" | "link-watch" | "leave"} Owner
 * @typedef {{ message: Message, owner: Owner, retries: number }} Sent
 * @typedef {{ key: string, args: Record<string, unknown>, kind: "error" | "info", id: number }} Notice
 */

// ------------------------------------------------------------------ pure parts

/**
 * The server's WebSocket address: always the page's own host (`ws://` beside
 * `http://`, `wss://` beside `https://`). Nothing in the address bar can point
 * the page at another server: a link that could would hand that server the
 * player's resume token, which is their seat.
 * @param {{ protocol: string, host: string, search?: string }} location
 * @returns {string}
 */
export function serverUrl(location) {
  const secure = location.protocol === "https:";
  return `${secure ? "wss" : "ws"}://${location.host || "127.0.0.1:8765"}/`;
}

const REFUSED_IN_NAME = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const BLANK = /[\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * A name as the server will take it (NFC, trimmed, 1 to 32 characters, no
 * control or invisible format characters, something visible), or null.
 * @param {unknown} typed
 * @returns {string | null}
 */
export function validName(typed) {
  const name = String(typed ?? "").normalize("NFC").trim();
  const length = [...name].length;
  if (length < 1 || length > 32 || REFUSED_IN_NAME.test(name)) {
    return null;
  }
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(name.replace(BLANK, ""))) {
    return null;
  }
  return name;
}

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
 * Storage that never throws (a browser may refuse it in private windows).
 * @param {Window} win
 */
function safeStorage(win) {
  /** @type {Storage | null} */
  let storage = null;
  try {
    storage = win.localStorage;
  } catch {
    storage = null;
  }
  return {
    /** @param {string} key */
    getItem(key) {
      try {
        return storage?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    /**
     * @param {string} key
     * @param {string} value
     */
    setItem(key, value) {
      try {
        storage?.setItem(key, value);
      } catch {
        // full or refused: the page works on, it only forgets sooner
      }
    },
    /** @param {string} key */
    removeItem(key) {
      try {
        storage?.removeItem(key);
      } catch {
        // as above
      }
    },
  };
}

// ------------------------------------------------------------------ the page

export class App {
  /** @param {Window & typeof globalThis} win */
  constructor(win) {
    this.win = win;
    this.document = win.document;
    this.storage = safeStorage(win);
    this.settings = readSettings(this.storage);
    /** @type {Map<string, TextCatalogue>} */
    this.texts = new Map();
    /** @type {TextCatalogue | null} */
    this.catalogue = null;
    this.lang = "en";
    /** @type {Translate} */
    this.t = () => "";
    /** @type {(key: string) => boolean} */
    this.has = () => false;
    /** @type {Session | null} */
    this.session = null;
    /** @type {string | null} */
    this.sessionId = null;
    /** @type {ServerCatalogue | null} */
    this.serverCatalogue = null;
    /** @type {Map<number, Sent>} */
    this.sent = new Map();
    /** @type {TableView | null} */
    this.table = null;
    /** @type {Record<string, any> | null} the room of the open table */
    this.room = null;
    /** @type {number | null} the seat at the open table (null: watching) */
    this.seat = null;
    /** @type {string | null} the room just left, whose messages may still be on their way */
    this.leaving = null;
    /** The sequence number of the last snapshot or delta the table was given. */
    this.tableSeq = -1;
    /** @type {{ code: string, valid: boolean } | null} a room link still to follow */
    this.link = roomFromHash(win.location.hash);
    /** @type {Notice[]} */
    this.notices = [];
    this.noticeCount = 0;
    /** @type {{ state: string, attempt?: number, closeCode?: number | null }} */
    this.connection = { state: "connecting" };
    /** @type {Lobby | null} */
    this.lobby = null;
    /** @type {DisplaySettings | null} */
    this.display = null;
    /** @type {Record<string, HTMLElement>} */
    this.el = {};
    /** Whether the frame is built: until then the session's events wait in `early`. */
    this.built = false;
    /** @type {Message[]} */
    this.early = [];
  }

  async start() {
    applyDisplay(this.document, this.settings);
    this.document.body.classList.add("loading");
    const lang = normalize(this.settings.lang) ?? pickLanguage(this.win.navigator.languages ?? [this.win.navigator.language]);
    // The texts and the connection are fetched side by side: the socket's handshake and
    // `welcome` arrive while the frame is being built, and what the session says before
    // the frame exists waits for it (see `onEvent`).
    const texts = this.loadTexts(lang, true);
    this.lang = lang;
    this.connect();
    this.useTexts(await texts);
    this.build();
    this.document.body.classList.remove("loading");
    this.built = true;
    this.showConnection();
    for (const event of this.early.splice(0)) {
      this.onEvent(event);
    }
    this.win.addEventListener("hashchange", () => this.followHash());
    this.document.addEventListener("visibilitychange", () => {
      if (this.document.visibilityState === "visible" && !this.table) {
        this.lobby?.refresh();
      }
    });
  }

  // -------------------------------------------------------------- texts

  /**
   * The served catalogue of `lang`; with `patiently`, tries again (waiting
   * longer each time) until the server answers, since the page has no words
   * without it.
   * @param {string} lang
   * @param {boolean} patiently
   * @returns {Promise<TextCatalogue>}
   */
  async loadTexts(lang, patiently) {
    const known = this.texts.get(lang);
    if (known) {
      return known;
    }
    let wait = 500;
    for (;;) {
      try {
        const response = await this.win.fetch(`/i18n/${encodeURIComponent(lang)}.json`, { headers: { Accept: "application/json" } });
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        const catalogue = /** @type {TextCatalogue} */ (await response.json());
        if (!catalogue || typeof catalogue.messages !== "object") {
          throw new Error("not a catalogue");
        }
        this.texts.set(lang, catalogue);
        return catalogue;
      } catch (error) {
        if (!patiently) {
          throw error;
        }
        await new Promise((resolve) => this.win.setTimeout(resolve, wait));
        wait = Math.min(LONGEST_TEXTS_WAIT, wait * 2);
      }
    }
  }

  /** @param {TextCatalogue} catalogue */
  useTexts(catalogue) {
    const translator = createTranslator(catalogue, {
      onProblem: (problem) => this.win.console?.warn?.("catalogue:", problem.kind, problem.key, problem.lang),
    });
    this.catalogue = catalogue;
    this.lang = translator.lang;
    this.t = (key, args = {}) => translator.t(key, /** @type {Record<string, any>} */ (args));
    this.has = translator.has;
    this.document.documentElement.lang = this.lang;
    configureRules({
      document: this.document,
      fetch: (input, init) => this.win.fetch(input, init),
      t: this.t,
      lang: this.lang,
      gameName: (game) => this.gameName(game),
    });
  }

  /**
   * Words the whole page in another language, without a reload.
   * @param {string} lang
   */
  async setLanguage(lang) {
    let catalogue;
    try {
      catalogue = await this.loadTexts(lang, false);
    } catch {
      this.notify("web.language.failed", {}, "error");
      this.fillLanguages();
      return;
    }
    this.useTexts(catalogue);
    this.settings.lang = this.lang;
    writeSettings(this.storage, this.settings);
    if (this.session) {
      this.session.lang = this.lang; // names the server writes follow from the next connection
    }
    this.label();
    this.lobby?.setLanguage(this.t, this.has, this.lang, catalogue);
    this.table?.setLanguage(this.t, catalogue);
    this.display?.setLanguage(this.t, this.lang);
    this.renderNotices();
  }

  /** @param {string} game */
  gameName(game) {
    return this.catalogue?.games?.[game] ?? this.serverCatalogue?.games.find((g) => g.id === game)?.name ?? game;
  }

  // -------------------------------------------------------------- the frame

  build() {
    const document = this.document;
    const t = this.t;
    this.el.skip = h("a", { className: "skip-link", attrs: { href: "#main" } });
    this.el.skip.addEventListener("click", (event) => {
      event.preventDefault(); // the fragment names rooms: move focus without touching it
      this.el.main.focus();
    });
    this.el.connDot = h("span", { className: "conn-dot", attrs: { "aria-hidden": "true" } });
    this.el.connText = h("span", { className: "conn-text" });
    this.el.reconnect = h("button", {
      className: "link-button conn-retry",
      attrs: { type: "button", hidden: true },
      on: { click: () => this.connect() },
    });
    this.el.conn = h("div", { className: "conn", attrs: { role: "status" } }, this.el.connDot, this.el.connText);
    const languageId = uid("language");
    this.el.languageLabel = h("label", { className: "visually-hidden", attrs: { for: languageId } });
    this.el.language = h("select", {
      className: "language-select",
      attrs: { id: languageId },
      on: { change: (/** @type {Event} */ event) => void this.setLanguage(/** @type {HTMLSelectElement} */ (event.target).value) },
    });
    this.el.displayButton = h("button", {
      className: "tool-button",
      attrs: { type: "button", "aria-haspopup": "dialog" },
      on: { click: () => this.display?.open(this.el.displayButton) },
    });
    this.el.brand = h("a", { className: "brand", attrs: { href: "#/" } }, h("span", { className: "brand-mark", attrs: { "aria-hidden": "true" } }, "♠"), "Cardavia");
    this.el.brand.addEventListener("click", (event) => {
      event.preventDefault();
      if (!this.table) {
        this.el.main.focus();
      }
    });
    this.el.tagline = h("span", { className: "tagline" });
    this.el.header = h("header", { className: "topbar" },
      h("div", { className: "topbar-brand" }, this.el.brand, this.el.tagline),
      h("div", { className: "topbar-conn" }, this.el.conn, this.el.reconnect),
      h("div", { className: "topbar-tools" },
        h("div", { className: "language" }, this.el.languageLabel, this.el.language),
        this.el.displayButton));
    this.el.notices = h("div", { className: "notices" });
    this.el.roomWatching = h("span", { className: "badge", attrs: { hidden: true } });
    this.el.copyLink = h("button", {
      className: "link-button",
      attrs: { type: "button" },
      on: { click: () => void this.copyLink() },
    });
    // the table's heading shows the room's code; this bar only shares it
    this.el.roomBar = h("div", { className: "room-bar", attrs: { role: "group", hidden: true } },
      this.el.roomWatching, this.el.copyLink);
    this.el.lobby = h("div", { className: "lobby" });
    this.el.table = h("div", { className: "table-root", attrs: { hidden: true } });
    this.el.main = h("main", { attrs: { id: "main", tabindex: -1 } }, this.el.roomBar, this.el.lobby, this.el.table);
    const shell = h("div", { className: "shell" }, this.el.skip, this.el.header, this.el.notices, this.el.main);
    const mount = document.getElementById("app") ?? document.body;
    mount.replaceChildren(shell);
    mount.removeAttribute("aria-busy");

    this.display = new DisplaySettings({
      document,
      t,
      lang: this.lang,
      settings: this.settings,
      onChange: (settings) => {
        applyDisplay(this.document, settings);
        writeSettings(this.storage, settings);
      },
    });
    if (!this.settings.name || !validName(this.settings.name)) {
      this.settings.name = validName(t("web.name.default", { number: 100 + Math.floor(Math.random() * 900) })) ?? "Cardavia";
      writeSettings(this.storage, this.settings);
    }
    this.lobby = new Lobby(this.el.lobby, {
      document,
      t: this.t,
      has: this.has,
      lang: this.lang,
      texts: /** @type {TextCatalogue} */ (this.catalogue),
      levels: this.settings.levels,
      name: this.settings.name,
      send: (message) => this.send(message, "lobby"),
      openRules,
      onLevelChosen: () => writeSettings(this.storage, this.settings),
      onNameChange: (name) => this.rename(name),
    });
    this.label();
  }

  /** Words the frame in the current language. */
  label() {
    const t = this.t;
    this.el.skip.textContent = t("web.skip");
    this.el.tagline.textContent = t("web.tagline");
    this.el.languageLabel.textContent = t("forms.language.title");
    this.el.displayButton.textContent = t("web.display.open");
    this.el.reconnect.textContent = t("web.connection.reconnect");
    this.el.copyLink.textContent = t("web.room.copy_link");
    this.el.roomWatching.textContent = t("web.room.watching");
    this.fillLanguages();
    this.showConnection();
    this.showRoomBar();
  }

  fillLanguages() {
    const catalogue = this.catalogue;
    const languages = catalogue?.languages ?? [this.lang];
    this.el.language.replaceChildren(...languages.map((code) => h("option", {
      attrs: { value: code, lang: code, selected: code === this.lang },
      text: catalogue?.language_names?.[code] ?? code,
    })));
    /** @type {HTMLSelectElement} */ (this.el.language).value = this.lang;
  }

  // -------------------------------------------------------------- connection

  connect() {
    const old = this.session;
    this.session = null;
    old?.close(); // its `closed` notice goes nowhere: this.session no longer names it
    /** @type {Session} */
    const session = new Session({
      url: serverUrl(this.win.location),
      name: this.settings.name ?? "Cardavia",
      lang: this.lang,
      connect: (url) => /** @type {import("../protocol/session.js").SocketLike} */ (/** @type {unknown} */ (new this.win.WebSocket(url))),
      timers: {
        setTimeout: (callback, ms) => this.win.setTimeout(callback, ms),
        clearTimeout: (handle) => this.win.clearTimeout(handle),
      },
      storage: this.storage,
      // the game catalogue goes with the hello while the page has none: the lobby can offer
      // games as soon as the welcome is in, not a round trip later
      alongHello: () => {
        /** @type {import("../protocol/codec.js").Message[]} */
        const early = [];
        if (!this.serverCatalogue) {
          const id = session.nextId();
          early.push({ id, type: "get_catalogue" });
          this.remember(id, early[0], "lobby");
        }
        return early;
      },
      onEvent: (event) => {
        if (session === this.session) {
          this.onEvent(/** @type {Message} */ (event));
        }
      },
    });
    this.session = session;
    this.setConnection({ state: "connecting" });
    session.start();
  }

  /**
   * @param {{ state: string, attempt?: number, closeCode?: number | null }} connection
   */
  setConnection(connection) {
    this.connection = connection;
    this.showConnection();
    this.lobby?.setOnline(connection.state === "online");
  }

  showConnection() {
    if (!this.built) {
      return; // shown once the frame is built
    }
    const { state, attempt } = this.connection;
    const t = this.t;
    const text = state === "online" ? t("web.connection.online")
      : state === "reconnecting" ? t("web.connection.reconnecting", { attempt: attempt ?? 1 })
        : state === "offline" ? t("web.connection.offline")
          : t("web.connection.connecting");
    this.el.conn.dataset.state = state;
    this.el.connText.textContent = text;
    this.el.reconnect.hidden = state !== "offline";
  }

  /**
   * Sends a request for the lobby, a room link or the table; null when the
   * connection is down (the player is told, and the session comes back by itself).
   * @param {Message} message
   * @param {Owner} owner
   * @returns {number | null}
   */
  send(message, owner) {
    const session = this.session;
    if (!session) {
      return null;
    }
    let id;
    try {
      id = session.send(/** @type {import("../protocol/codec.js").Message} */ (message));
    } catch (error) {
      if (!(error instanceof SessionInterrupted)) {
        throw error;
      }
      this.notify("web.connection.not_sent", {}, "error");
      if (owner === "lobby") {
        this.lobby?.status(null);
      }
      return null;
    }
    this.remember(id, message, owner);
    return id;
  }

  /**
   * Keeps a sent request, so that its answer or refusal reaches the part of the page that sent it.
   * @param {number} id
   * @param {Message} message
   * @param {Owner} owner
   */
  remember(id, message, owner) {
    this.sent.set(id, { message, owner, retries: 0 });
    if (this.sent.size > REMEMBERED_REQUESTS) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) {
        this.sent.delete(oldest);
      }
    }
  }

  /**
   * A new name goes to the server with a fresh `hello`: the connection is
   * opened again (the resume token keeps the session). False for a name the
   * server would refuse.
   * @param {string} typed
   */
  rename(typed) {
    const name = validName(typed);
    if (!name) {
      return false;
    }
    this.settings.name = name;
    writeSettings(this.storage, this.settings);
    if (this.session) {
      this.session.name = name;
    }
    if (!this.table) {
      this.connect();
    }
    this.notify("web.name.saved", { name }, "info");
    return true;
  }

  // -------------------------------------------------------------- events

  /** @param {Message} event */
  onEvent(event) {
    if (!this.built) {
      this.early.push(event); // the frame is still being built: it hears this right after
      return;
    }
    switch (event.type) {
      case "welcome":
        this.welcomed(event);
        break;
      case "reconnecting":
        this.setConnection({ state: "reconnecting", attempt: event.attempt });
        break;
      case "reconnected":
        this.leaving = null;
        if (this.table && event.resumed) {
          this.notify("app.reconnected.seat", {}, "info");
        } else if (this.table) {
          this.closeTable();
          this.notify("app.reconnected.seat_lost", {}, "error");
        }
        break;
      case "closed":
        this.setConnection({ state: "offline", closeCode: event.code ?? null });
        this.notify(closeKey(this.has, typeof event.code === "number" ? event.code : null), {}, "error");
        break;
      case "catalogue":
        this.serverCatalogue = /** @type {ServerCatalogue} */ ({
          games: Array.isArray(event.games) ? event.games : [],
          decks: Array.isArray(event.decks) ? event.decks : [],
          bots: Array.isArray(event.bots) ? event.bots : [],
        });
        this.lobby?.setCatalogue(this.serverCatalogue);
        this.lobby?.setOnline(this.connection.state === "online");
        break;
      case "rooms":
        this.lobby?.setRooms(Array.isArray(event.rooms) ? event.rooms : []);
        break;
      case "snapshot":
        this.openTable(event);
        break;
      case "delta":
        this.forwardDelta(event);
        break;
      case "your_turn":
        this.table?.yourTurn(event);
        break;
      case "deal_result":
        this.table?.dealResult(event);
        break;
      case "match_result":
        this.table?.matchResult(event);
        break;
      case "rematch_votes":
        this.table?.rematchVotes(event);
        break;
      case "chat_message":
        this.table?.chatMessage(event);
        break;
      case "left":
        this.left(event);
        break;
      case "error":
        this.refused(event);
        break;
      default:
        break; // redirects are followed by the session; other messages need nothing here
    }
  }

  /**
   * Gives the table a delta the store has just applied: not one it could not
   * apply (the fresh snapshot the session asked for follows), nor a repeat.
   * @param {Message} delta
   */
  forwardDelta(delta) {
    const store = this.session?.store;
    if (!this.table || !store || store.needsResync || !store.view || store.seq !== delta.seq || delta.seq <= this.tableSeq) {
      return;
    }
    this.tableSeq = delta.seq;
    this.table.delta(delta, store.view);
  }

  /** @param {Message} welcome */
  welcomed(welcome) {
    this.sessionId = typeof welcome.session === "string" ? welcome.session : null;
    this.setConnection({ state: "online" });
    if (!this.table) {
      this.lobby?.refresh();
    }
    if (typeof welcome.room !== "string" && this.link) {
      this.followLink();
    } else if (typeof welcome.room === "string") {
      this.link = null; // the resumed room comes back by itself, with its own snapshot
    }
  }

  /** A room address typed or clicked while the page is open. */
  followHash() {
    const link = roomFromHash(this.win.location.hash);
    if (!link || (this.room && link.code === this.room.code)) {
      return;
    }
    this.link = link;
    if (this.connection.state === "online") {
      this.followLink();
    }
  }

  followLink() {
    const link = this.link;
    this.link = null;
    if (!link) {
      return;
    }
    if (!link.valid) {
      this.lobby?.status("web.link.bad_code", { code: displaySafe(link.code) }, { alert: true });
      this.forgetHash();
      return;
    }
    this.lobby?.status("lobby.doing.join_code", { code: link.code });
    this.send({ type: "join_room", code: link.code }, "link");
  }

  /** @param {Message} error */
  refused(error) {
    const id = typeof error.id === "number" ? error.id : null;
    const sent = id !== null ? this.sent.get(id) : undefined;
    if (id !== null) {
      this.sent.delete(id);
    }
    const code = String(error.code ?? "");
    if (code === "bad_resume_token") {
      return; // the welcome that follows starts afresh; a seat lost is told by `reconnected`
    }
    if (sent && code === "node_unavailable" && sent.retries < NODE_RETRIES) {
      // the room is moving to another node: ask again once it should be there
      const after = typeof error.retry_after === "number" ? Math.min(30, Math.max(0.5, error.retry_after)) : 2;
      this.win.setTimeout(() => {
        const again = this.send(sent.message, sent.owner);
        const entry = again !== null ? this.sent.get(again) : undefined;
        if (entry) {
          entry.retries = sent.retries + 1;
        }
      }, after * 1000);
    }
    if (sent?.owner === "link" && ["room_full", "room_started", "already_in_room"].includes(code)) {
      // the room has no seat for us: watch it instead
      const code_ = String(sent.message.code);
      this.lobby?.status("lobby.doing.watch_code", { code: code_ });
      this.send({ type: "spectate", code: code_ }, "link-watch");
      return;
    }
    if (sent?.owner === "leave") {
      this.leaving = null;
      return; // already out of the room
    }
    if (sent?.message.type === "get_catalogue") {
      // without the catalogue the lobby has nothing to offer: ask again in a moment
      this.win.setTimeout(() => {
        if (!this.serverCatalogue && this.connection.state === "online") {
          this.send({ type: "get_catalogue" }, "lobby");
        }
      }, 3000);
    }
    const key = errorKey(this.has, code);
    if (this.table && (sent?.owner === "table" || !sent)) {
      this.table.refused(error);
      return;
    }
    if (sent?.owner === "link" || sent?.owner === "link-watch") {
      this.forgetHash();
    }
    if (!this.table && this.lobby) {
      this.lobby.status(key, {}, { alert: true });
    } else {
      this.notify(key, {}, "error");
    }
  }

  // -------------------------------------------------------------- the table

  /** @param {Message} snapshot */
  openTable(snapshot) {
    const room = snapshot.room && typeof snapshot.room === "object" ? snapshot.room : {};
    const seat = typeof snapshot.seat === "number" ? snapshot.seat : null;
    if (this.leaving !== null && room.room === this.leaving) {
      return; // sent before the server had our `leave`
    }
    this.tableSeq = typeof snapshot.seq === "number" ? snapshot.seq : -1;
    if (this.table && this.room?.room === room.room) {
      this.room = room;
      this.seat = seat;
      this.table.snapshot(snapshot);
      this.showRoomBar();
      return;
    }
    this.table?.destroy();
    closeRules();
    this.room = room;
    this.seat = seat;
    const catalogue = /** @type {TextCatalogue} */ (this.catalogue);
    const deck = typeof room.deck === "string" ? room.deck : undefined;
    this.el.table.replaceChildren();
    this.table = new TableView(this.el.table, {
      t: this.t,
      lang: this.lang,
      catalogue,
      game: String(room.game ?? ""),
      deck,
      suitSystem: (deck && catalogue.decks?.[deck]?.suit_system) || "french",
      seat,
      room,
      send: (message) => this.send(message, "table"),
      cardName: (code) => (deck && this.catalogue?.decks?.[deck]?.cards?.[code]) || code,
      onLeave: () => this.leaveRoom(),
      openRules,
      sessionId: this.sessionId,
    });
    this.table.snapshot(snapshot);
    this.lobby?.hidden();
    this.lobby?.status(null);
    this.el.lobby.hidden = true;
    this.el.table.hidden = false;
    this.showRoomBar();
    if (typeof room.code === "string" && room.code) {
      this.setHash(`#/room/${room.code}`);
    }
    this.document.title = `${this.gameName(String(room.game ?? ""))} · Cardavia`;
    this.el.main.focus({ preventScroll: true });
    this.win.scrollTo?.(0, 0);
  }

  /** The table's leave button: out of the room and back to the lobby at once. */
  leaveRoom() {
    if (this.session?.connected && this.send({ type: "leave" }, "leave") !== null) {
      this.leaving = typeof this.room?.room === "string" ? this.room.room : null;
    }
    this.closeTable();
  }

  /** @param {Message} left */
  left(left) {
    this.leaving = null;
    if (!this.table) {
      return;
    }
    this.closeTable();
    if (typeof left.id !== "number") {
      const replaced = String(left.reason ?? "").includes("replaced");
      this.notify(replaced ? "app.left" : "web.room.removed", replaced ? { reason: this.t("app.left.replaced") } : {}, "error");
    }
  }

  closeTable() {
    this.table?.destroy();
    this.table = null;
    this.room = null;
    this.seat = null;
    this.el.table.hidden = true;
    this.el.table.replaceChildren();
    this.el.lobby.hidden = false;
    this.showRoomBar();
    this.forgetHash();
    this.document.title = "Cardavia";
    this.lobby?.shown();
    this.el.main.focus({ preventScroll: true });
  }

  showRoomBar() {
    const code = this.table && typeof this.room?.code === "string" ? this.room.code : "";
    this.el.roomBar.hidden = !code;
    if (code) {
      this.el.roomBar.setAttribute("aria-label", this.t("web.room.label", { code: displaySafe(code) }));
      this.el.roomWatching.hidden = this.seat !== null;
    }
  }

  async copyLink() {
    const code = typeof this.room?.code === "string" ? this.room.code : "";
    if (!code) {
      return;
    }
    const link = roomLink(this.win.location, code);
    try {
      await this.win.navigator.clipboard.writeText(link);
      this.notify("web.room.link_copied", {}, "info");
    } catch {
      this.notify("web.room.link_shown", { url: link }, "info", { sticky: true });
    }
  }

  /** @param {string} hash */
  setHash(hash) {
    if (this.win.location.hash !== hash) {
      this.win.history.replaceState(null, "", hash);
    }
  }

  forgetHash() {
    if (roomFromHash(this.win.location.hash)) {
      const { pathname, search } = this.win.location;
      this.win.history.replaceState(null, "", `${pathname}${search}`);
    }
  }

  // -------------------------------------------------------------- notices

  /**
   * Tells the player something over the page: an error stays until dismissed,
   * other notices go after a few seconds.
   * @param {string} key
   * @param {Record<string, unknown>} args
   * @param {"error" | "info"} kind
   * @param {{ sticky?: boolean }} [options]
   */
  notify(key, args, kind, options = {}) {
    this.noticeCount += 1;
    const notice = { key, args, kind, id: this.noticeCount };
    this.notices = [...this.notices.filter((n) => n.key !== key), notice].slice(-3);
    this.renderNotices();
    if (kind === "info" && !options.sticky) {
      this.win.setTimeout(() => this.dismiss(notice.id), NOTICE_MS);
    }
  }

  /** @param {number} id */
  dismiss(id) {
    const before = this.notices.length;
    this.notices = this.notices.filter((n) => n.id !== id);
    if (this.notices.length !== before) {
      this.renderNotices();
    }
  }

  renderNotices() {
    const container = this.el.notices;
    if (!container) {
      return;
    }
    const t = this.t;
    container.replaceChildren(...this.notices.map((notice) => h("div", {
      className: `notice notice-${notice.kind}`,
      attrs: { role: notice.kind === "error" ? "alert" : "status" },
    },
    h("p", { className: "notice-text", text: t(notice.key, notice.args) }),
    h("button", {
      className: "notice-close",
      attrs: { type: "button", "aria-label": t("web.notice.dismiss") },
      text: "×",
      on: { click: () => this.dismiss(notice.id) },
    }))));
  }
}
