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
 * to the screen of whoever sent the request (refusals.js), worded from the
 * catalogue's `errors.<code>`. The session owns the room and its view and
 * says which of the room's messages are current; the page shows only those,
 * and checks no sequence number of its own.
 *
 * Every word is looked up in the served catalogue of the chosen language
 * (`GET /i18n/<lang>.json`); choosing another language fetches it and words
 * the whole page again, table included, without a reload.
 *
 * A room's address is the page's with `#/room/CODE`: opening it joins the
 * room, or watches it when it is full or its game has begun. The profile's
 * screens have addresses of their own (`#/profile`, `#/leaderboard`,
 * `#/history`), and so has a finished match's replay (`#/replay/<record id>`,
 * shareable: it needs no profile); they show in place of the lobby or the
 * table, which stays open behind them.
 */
import { createTranslator, normalize, pickLanguage } from "../protocol/i18n.js";
import { Session, SessionInterrupted } from "../protocol/session.js";
import { displaySafe, pageFromHash, roomFromHash, serverUrl } from "./dom.js";
import { Frame } from "./frame.js";
import { Lobby } from "./lobby.js";
import { catalogueOf } from "./lobby_state.js";
import { ProfileScreens } from "./profile.js";
import { signedChange } from "./profile_state.js";
import { SentRequests, closeKey, routeRefusal } from "./refusals.js";
import { ReplayScreen } from "./replay.js";
import { RoomScreen } from "./room_screen.js";
import { configureRules, openRules } from "./rules.js";
import { DisplaySettings, applyDisplay, readSettings, validName, withGuest, writeSettings } from "./settings.js";
import { displayName } from "../protocol/names.js";
import { Texts, safeStorage } from "./texts.js";

/**
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("../protocol/messages.js").ServerCatalogue} ServerCatalogue
 * @typedef {import("../protocol/messages.js").ServerMessage} ServerMessage
 * @typedef {import("../protocol/messages.js").ErrorMessage} ErrorMessage
 * @typedef {import("../protocol/session.js").Notice} SessionNotice
 * @typedef {import("../protocol/room.js").Taken} Taken
 * @typedef {import("../protocol/codec.js").Message} Message
 * @typedef {import("./refusals.js").Owner} Owner
 * @typedef {import("./refusals.js").Route} Route
 * @typedef {import("./refusals.js").Screen} Screen
 * @typedef {import("./frame.js").Connection} Connection
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 */

/** Seconds before a refused `get_catalogue` is asked again. */
const CATALOGUE_AGAIN = 3;

// ------------------------------------------------------------------ the page

/**
 * The screens a refusal can show on (refusals.js decides which): each shows
 * the route's words in its own way.
 * @type {Readonly<Record<Screen, (app: App, error: ErrorMessage, route: Route) => void>>}
 */
const SCREENS = Object.freeze({
  none: () => {},
  table: (app, error) => app.table?.refused(error),
  lobby: (app, _error, route) => app.lobby?.status(route.key, {}, { alert: true }),
  notice: (app, _error, route) => app.notify(route.key, {}, "error"),
  watch: (app, _error, route) => {
    app.lobby?.status("lobby.doing.watch_code", { code: route.room });
    app.send({ type: "spectate", code: route.room }, "link-watch");
  },
  profile: (app, error) => app.profile?.dispatch({ type: "refused", code: String(error.code) }),
  replay: (app, error) => app.replays?.refused(String(error.code)),
});

/** `welcome.player_error`s after which the player is told their profile key was not recognised. */
const KEY_LOST = ["unknown_player", "malformed_player_key"];

export class App {
  /** @param {Window & typeof globalThis} win */
  constructor(win) {
    this.win = win;
    this.document = win.document;
    this.storage = safeStorage(win);
    // the guest number exists before the first hello, and is kept: the same "Player 563" after a reload
    this.settings = withGuest(readSettings(this.storage), win.crypto);
    writeSettings(this.storage, this.settings);
    this.texts = new Texts(win);
    /** @type {TextCatalogue | null} */
    this.catalogue = null;
    this.lang = "en";
    /** @type {Translate} */
    this.t = () => "";
    /** @type {(key: string) => boolean} */
    this.has = () => false;
    /** @type {Session | null} the connection, and the one owner of the room and its view */
    this.session = null;
    /** @type {ServerCatalogue | null} */
    this.serverCatalogue = null;
    this.sent = new SentRequests();
    /** @type {RoomScreen | null} the table of the room the player is in */
    this.screen = null;
    /** @type {{ code: string, valid: boolean } | null} a room link still to follow */
    this.link = roomFromHash(win.location.hash);
    /** @type {Connection} */
    this.connection = { state: "connecting" };
    /** @type {Frame | null} built once the texts are in */
    this.frame = null;
    /** @type {Lobby | null} */
    this.lobby = null;
    /** @type {DisplaySettings | null} */
    this.display = null;
    /** @type {[Message | SessionNotice, Taken | undefined][]} what the session said before the frame was built */
    this.early = [];
    /** @type {ReturnType<typeof pageFromHash>} the profile screen or replay the address names */
    this.route = pageFromHash(win.location.hash);
    /** @type {ProfileScreens | null} */
    this.profile = null;
    /** @type {ReplayScreen | null} */
    this.replays = null;
  }

  async start() {
    applyDisplay(this.document, this.settings);
    this.document.body.classList.add("loading");
    const lang = normalize(this.settings.lang) ?? pickLanguage(this.win.navigator.languages ?? [this.win.navigator.language]);
    // The texts and the connection are fetched side by side: the socket's handshake and
    // `welcome` arrive while the frame is being built, and what the session says before
    // the frame exists waits for it (see `onEvent`).
    const texts = this.texts.load(lang, true);
    this.lang = lang;
    this.connect();
    this.useTexts(await texts);
    this.build();
    this.document.body.classList.remove("loading");
    if (this.route) {
      this.showPage(this.route);
    }
    for (const [event, taken] of this.early.splice(0)) {
      this.onEvent(event, taken);
    }
    this.win.addEventListener("hashchange", () => this.followHash());
    this.document.addEventListener("visibilitychange", () => {
      if (this.document.visibilityState === "visible" && !this.table) {
        this.lobby?.refresh();
      }
    });
  }

  /** The open table, if any. */
  get table() {
    return this.screen?.table ?? null;
  }

  // -------------------------------------------------------------- texts

  /** @param {TextCatalogue} catalogue */
  useTexts(catalogue) {
    const translator = createTranslator(catalogue, {
      onProblem: (problem) => this.win.console?.warn?.("catalogue:", problem.kind, problem.key, problem.lang),
    });
    this.catalogue = catalogue;
    this.lang = translator.lang;
    this.t = (key, args = {}) => translator.t(key, args);
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
      catalogue = await this.texts.load(lang, false);
    } catch {
      this.notify("web.language.failed", {}, "error");
      this.frame?.fillLanguages(this.catalogue, this.lang);
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
    this.frame?.showPlayer(this.profile?.player?.name ?? null);
    this.profile?.render();
    this.replays?.setLanguage();
    this.frame?.renderNotices();
  }

  /** @param {string} game */
  gameName(game) {
    return this.catalogue?.games?.[game] ?? this.serverCatalogue?.games.find((g) => g.id === game)?.name ?? game;
  }

  // -------------------------------------------------------------- the frame

  build() {
    const document = this.document;
    const t = this.t;
    this.frame = new Frame(document, {
      reconnect: () => this.connect(),
      setLanguage: (lang) => void this.setLanguage(lang),
      openDisplay: (opener) => this.display?.open(opener),
      copyLink: () => void this.screen?.copyLink(),
      tableOpen: () => this.table !== null,
      home: () => this.home(),
      setTimeout: (callback, ms) => this.win.setTimeout(callback, ms),
    });
    this.screen = new RoomScreen({
      win: this.win,
      frame: this.frame,
      session: () => this.session,
      lobby: () => this.lobby,
      words: () => ({ t: this.t, lang: this.lang, catalogue: /** @type {TextCatalogue} */ (this.catalogue) }),
      gameName: (game) => this.gameName(game),
      send: (message, owner) => this.send(message, owner),
      notify: (key, args, kind, options) => this.notify(key, args, kind, options),
    });
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
    if (this.settings.name && !validName(this.settings.name)) {
      this.settings.name = null; // a stored name the server would refuse: a guest until one is typed
      writeSettings(this.storage, this.settings);
    }
    this.lobby = new Lobby(this.frame.el.lobby, {
      document,
      t: this.t,
      has: this.has,
      lang: this.lang,
      texts: /** @type {TextCatalogue} */ (this.catalogue),
      levels: this.settings.levels,
      name: this.settings.name,
      guest: this.settings.guest,
      send: (message) => this.send(message, "lobby"),
      openRules,
      onLevelChosen: (game, level) => {
        this.settings.levels[game] = level;
        writeSettings(this.storage, this.settings);
      },
      onNameChange: (name) => this.rename(name),
    });
    const pages = {
      document,
      words: () => ({ t: this.t, has: this.has, lang: this.lang, catalogue: /** @type {TextCatalogue} */ (this.catalogue) }),
      gameName: (/** @type {string} */ game) => this.gameName(game),
      send: (/** @type {Message} */ message) => this.send(message, "profile"),
      online: () => this.connection.state === "online",
      tableOpen: () => this.table !== null,
      tableLink: () => (this.screen?.code() ? `#/room/${this.screen.code()}` : "#/"),
    };
    this.profile = new ProfileScreens(this.frame.el.pages, {
      ...pages,
      games: () => this.serverCatalogue?.games.map((g) => g.id) ?? [],
      name: () => this.settings.name ?? "",
    });
    this.replays = new ReplayScreen(this.frame.el.pages, {
      ...pages,
      send: (message) => this.send(message, "replay"),
      openRules,
      playerId: () => this.profile?.player?.id ?? null,
      seatIn: (record) => {
        const entry = this.profile?.state.matches?.find((match) => match.record === record);
        if (entry) {
          return entry.seat;
        }
        const result = this.table?.state.result;
        return result && result.record === record ? this.table?.state.seat ?? null : null;
      },
      notify: (key, args, kind, options) => this.notify(key, args, kind, options),
      copyLink: () => this.copyPageLink(),
    });
    this.label();
  }

  /** The words a person's name is given in (`displayName`): the page's language. */
  nameWords() {
    return { t: this.t, has: this.has, lang: this.lang };
  }

  /** Words the frame in the current language. */
  label() {
    this.frame?.label(this.t, this.catalogue, this.lang);
    this.frame?.showPlayer(this.profile?.player?.name ?? null);
    this.showConnection();
    this.screen?.showRoomBar();
  }

  // -------------------------------------------------------------- connection

  connect() {
    const old = this.session;
    this.session = null;
    old?.close(); // its `closed` notice goes nowhere: this.session no longer names it
    /** @type {Session} */
    const session = new Session({
      url: serverUrl(this.win.location),
      name: this.settings.name,
      guest: this.settings.guest,
      lang: this.lang,
      connect: (url) => /** @type {import("../protocol/ports.js").SocketLike} */ (/** @type {unknown} */ (new this.win.WebSocket(url))),
      timers: {
        setTimeout: (callback, ms) => this.win.setTimeout(callback, ms),
        clearTimeout: (handle) => this.win.clearTimeout(handle),
      },
      storage: this.storage,
      // the game catalogue goes with the hello while the page has none: the lobby can offer
      // games as soon as the welcome is in, not a round trip later
      alongHello: () => {
        /** @type {Message[]} */
        const early = [];
        if (!this.serverCatalogue) {
          const id = session.nextId();
          early.push({ id, type: "get_catalogue" });
          this.sent.remember(id, early[0], "lobby");
        }
        return early;
      },
      onEvent: (event, taken) => {
        if (session === this.session) {
          this.onEvent(event, taken);
        }
      },
    });
    this.session = session;
    this.setConnection({ state: "connecting" });
    session.start();
  }

  /** @param {Connection} connection */
  setConnection(connection) {
    this.connection = connection;
    this.showConnection();
    this.lobby?.setOnline(connection.state === "online");
  }

  showConnection() {
    this.frame?.showConnection(this.connection); // shown once the frame is built
  }

  /**
   * Sends a request for the lobby, a room link or the table; null when the
   * connection is down (the player is told, and the session comes back by itself).
   * @param {Message} message
   * @param {Owner} owner
   * @param {number} [retries] how many times it was sent again already
   * @returns {number | null}
   */
  send(message, owner, retries = 0) {
    const session = this.session;
    if (!session) {
      return null;
    }
    let id;
    try {
      id = session.send(message);
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
    this.sent.remember(id, message, owner, retries);
    return id;
  }

  /**
   * A new name goes to the server with a fresh `hello`: the connection is
   * opened again (the resume token keeps the session). False for a name the
   * server would refuse.
   * @param {string} typed
   */
  rename(typed) {
    const blank = String(typed ?? "").trim() === ""; // no name: a guest again, "Player 563"
    const name = blank ? null : validName(typed);
    if (!blank && !name) {
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
    this.notify("web.name.saved", { name: name ?? displayName({ guest: this.settings.guest }, this.nameWords()) }, "info");
    return true;
  }

  /**
   * The profile's name becomes the name the player plays under (seats, chat), from the next
   * hello on: at once when no table is open (the connection is opened again, the resume token
   * keeping the session), else from the next connection.
   * @param {string} typed
   */
  adoptName(typed) {
    const name = validName(typed);
    if (!name || name === this.settings.name) {
      return;
    }
    this.settings.name = name;
    writeSettings(this.storage, this.settings);
    if (this.session) {
      this.session.name = name;
    }
    this.lobby?.dispatch({ type: "name", name });
    this.lobby?.render();
    if (!this.table) {
      this.connect();
    }
  }

  // -------------------------------------------------------------- events

  /**
   * @param {Message | SessionNotice} event
   * @param {Taken} [taken] what the message did to the session's room (absent: nothing)
   */
  onEvent(event, taken) {
    if (!this.frame) {
      this.early.push([event, taken]); // the frame is still being built: it hears this right after
      return;
    }
    const message = /** @type {ServerMessage | SessionNotice} */ (event);
    const current = taken?.current ?? true;
    switch (message.type) {
      case "welcome":
        this.welcomed(message);
        break;
      case "reconnecting":
        this.setConnection({ state: "reconnecting", attempt: message.attempt });
        break;
      case "reconnected":
        if (this.table && message.resumed) {
          this.notify("app.reconnected.seat", {}, "info");
        } else if (this.table) {
          this.screen?.close();
          this.notify("app.reconnected.seat_lost", {}, "error");
        }
        break;
      case "closed":
        this.setConnection({ state: "offline", closeCode: message.code ?? null });
        this.notify(closeKey(this.has, typeof message.code === "number" ? message.code : null), {}, "error");
        break;
      case "catalogue":
        this.serverCatalogue = catalogueOf(message);
        this.lobby?.setCatalogue(message);
        this.lobby?.setOnline(this.connection.state === "online");
        break;
      case "rooms":
        this.lobby?.setRooms(message);
        break;
      case "snapshot":
        if (current) {
          this.screen?.open(message, taken?.joined ?? true);
        }
        break;
      case "delta": {
        const view = this.session?.store.view;
        if (current && view) {
          this.table?.delta(message, view);
        }
        break;
      }
      case "your_turn":
        if (current) {
          this.table?.yourTurn(message);
        }
        break;
      case "deal_result":
        this.table?.dealResult(message);
        break;
      case "match_result":
        this.table?.matchResult(message);
        break;
      case "rematch_votes":
        this.table?.rematchVotes(message);
        break;
      case "chat_message":
        this.table?.chatMessage(message);
        break;
      case "left":
        this.screen?.left(message);
        break;
      case "error":
        this.refused(message);
        break;
      case "profile":
      case "profile_deleted":
        this.profile?.dispatch(/** @type {import("./profile_state.js").ProfileMessage} */ (/** @type {unknown} */ (message)));
        this.profileChanged();
        if (message.type === "profile") {
          this.adoptName(this.profile?.player?.name ?? "");
          if (this.route && this.route.page !== "replay") {
            this.profile?.ask(); // a profile new to this page: its ratings and matches
          }
        }
        break;
      case "transfer_code":
        this.profile?.dispatch({ ...message, type: "transfer_code", now: performance.now() });
        break;
      case "history":
        this.profile?.history(message);
        break;
      case "leaderboard":
        this.profile?.dispatch(/** @type {import("./profile_state.js").ProfileMessage} */ (/** @type {unknown} */ (message)));
        break;
      case "replay":
        this.replays?.replay(message);
        break;
      case "rating_change":
        this.ratingChange(message);
        break;
      default:
        break; // redirects are followed by the session; other messages need nothing here
    }
  }

  /** @param {import("../protocol/messages.js").Welcome} welcome */
  welcomed(welcome) {
    this.setConnection({ state: "online" });
    this.profile?.dispatch({ type: "welcome", player: welcome.player, player_error: welcome.player_error });
    if (typeof welcome.player_error === "string" && KEY_LOST.includes(welcome.player_error)) {
      this.notify("profile.key_lost", {}, "error");
      this.profile?.dispatch({ type: "key_lost_told" });
    }
    this.profileChanged();
    if (this.route?.page === "replay") {
      this.replays?.ask();
    } else if (this.route) {
      this.profile?.ask();
    }
    if (!this.table) {
      this.lobby?.refresh();
    }
    if (typeof welcome.room !== "string" && this.link) {
      this.followLink();
    } else if (typeof welcome.room === "string") {
      this.link = null; // the resumed room comes back by itself, with its own snapshot
    }
  }

  /** A room, profile screen or replay address typed or clicked while the page is open. */
  followHash() {
    const route = pageFromHash(this.win.location.hash);
    if (route) {
      this.showPage(route);
      return;
    }
    if (this.route) {
      this.hidePages();
    }
    const link = roomFromHash(this.win.location.hash);
    if (!link || (this.table && link.code === this.session?.room?.code)) {
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
      this.screen?.forgetHash();
      return;
    }
    this.lobby?.status("lobby.doing.join_code", { code: link.code });
    this.send({ type: "join_room", code: link.code }, "link");
  }

  /**
   * A refusal goes where `routeRefusal` says: the screen of whoever sent the request.
   * @param {ErrorMessage} error
   */
  refused(error) {
    const sent = this.sent.take(error.id);
    const route = routeRefusal(error, sent, { tableOpen: this.table !== null, has: this.has });
    if (sent && route.retryAfter !== null) {
      this.win.setTimeout(() => this.send(sent.message, sent.owner, sent.retries + 1), route.retryAfter * 1000);
    }
    if (route.askCatalogue) {
      this.win.setTimeout(() => {
        if (!this.serverCatalogue && this.connection.state === "online") {
          this.send({ type: "get_catalogue" }, "lobby");
        }
      }, CATALOGUE_AGAIN * 1000);
    }
    if (route.forgetLink) {
      this.screen?.forgetHash();
    }
    SCREENS[route.screen](this, error, route);
  }

  // -------------------------------------------------------------- the profile's screens and the replay

  /**
   * Shows a profile screen or a replay in place of the lobby (or of the table, which stays open behind it).
   * @param {NonNullable<ReturnType<typeof pageFromHash>>} route
   */
  showPage(route) {
    const frame = this.frame;
    if (!frame) {
      return;
    }
    const before = this.route;
    this.route = route;
    frame.el.lobby.hidden = true;
    frame.el.table.hidden = true;
    frame.el.pages.hidden = false;
    frame.el.roomBar.hidden = true; // the room's link is the table's; the pages have their own
    this.lobby?.hidden();
    frame.showPage(route.page === "replay" ? null : route.page);
    if (route.page === "replay") {
      this.profile?.hide();
      if (before?.page !== "replay" || before.record !== route.record || !this.replays?.shown) {
        this.replays?.open(route.record);
      }
      this.document.title = `${this.t("profile.replay.title_plain")} · Cardavia`;
    } else {
      this.replays?.hide();
      this.profile?.show(route.page);
      this.document.title = `${this.t(`profile.menu.${route.page}`)} · Cardavia`;
    }
    this.win.scrollTo?.(0, 0);
  }

  /** Leaves the profile screen or replay on show: back to the table, or the lobby. */
  hidePages() {
    const frame = this.frame;
    this.route = null;
    this.profile?.hide();
    this.replays?.hide();
    if (!frame) {
      return;
    }
    frame.el.pages.hidden = true;
    frame.el.pages.replaceChildren();
    frame.showPage(null);
    this.screen?.showRoomBar();
    if (this.table) {
      frame.el.table.hidden = false;
      this.document.title = `${this.gameName(String(this.session?.room?.game ?? ""))} · Cardavia`;
    } else {
      frame.el.lobby.hidden = false;
      this.document.title = "Cardavia";
      this.lobby?.shown();
    }
    frame.el.main.focus({ preventScroll: true });
  }

  /** The brand was clicked: a profile screen or replay gives way to the table or the lobby. */
  home() {
    if (!this.route) {
      return false;
    }
    const code = this.screen?.code();
    this.win.location.hash = this.table && code ? `#/room/${code}` : "#/";
    return true;
  }

  /** The profile held changed: the menu and the lobby's rated choice follow. */
  profileChanged() {
    const player = this.profile?.player ?? null;
    this.frame?.showPlayer(player?.name ?? null);
    this.lobby?.setProfile(player !== null);
  }

  /**
   * A rated match's end was written: the table's match summary shows it, else a notice does.
   * @param {Message} message
   */
  ratingChange(message) {
    this.profile?.dispatch(/** @type {import("./profile_state.js").ProfileMessage} */ (/** @type {unknown} */ (message)));
    const before = Number(message.before);
    const after = Number(message.after);
    if (!Number.isFinite(before) || !Number.isFinite(after)) {
      return;
    }
    // ratings read as plain numbers (1500), never grouped as amounts are
    const change = { game: this.gameName(String(message.game)), before: String(before), after: String(after), change: signedChange(before, after) };
    if (!this.table?.ratingChange({ record: String(message.record), before, after, deviation: Number(message.deviation) || 0 })) {
      this.notify("profile.rating_change", change, "info", { sticky: true });
    }
  }

  /** Copies the address of the page as it is (a replay's, to share). */
  async copyPageLink() {
    const link = this.win.location.href;
    try {
      await this.win.navigator.clipboard.writeText(link);
      this.notify("profile.replay.link_copied", {}, "info");
    } catch {
      this.notify("profile.replay.link_shown", { url: link }, "info", { sticky: true });
    }
  }

  /**
   * Tells the player something over the page (see `Frame.notify`).
   * @param {string} key
   * @param {Record<string, unknown>} args
   * @param {"error" | "info"} kind
   * @param {{ sticky?: boolean }} [options]
   */
  notify(key, args, kind, options = {}) {
    this.frame?.notify(key, args, kind, options);
  }
}
