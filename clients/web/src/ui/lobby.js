/**
 * The lobby: the four games and their deck traditions, the ways into a game
 * (play now against bots, quick match with people, a room of one's own, a
 * room code) and the open rooms.
 *
 * Split as the table is: `lobby_state.js` holds the state as plain data and
 * `reduce`s every message into the next state; `lobby_render.js` draws it;
 * `lobby_input.js` turns what the player does into actions and requests;
 * `lobby_create.js` is the create-room form and `lobby_packs.js` the decks'
 * pictures. `Lobby` here holds the current state, draws again what a message
 * changed (keeping the focus across a redraw), and refreshes the open rooms
 * every few seconds while it shows.
 *
 * Games, decks, options and bot levels come from the server's `catalogue`;
 * their names and descriptions from the served message catalogue, in the
 * player's language (the server's own words only for what the catalogue does
 * not know).
 */
import { CreateRoomDialog } from "./lobby_create.js";
import { LobbyInput } from "./lobby_input.js";
import { Packs } from "./lobby_packs.js";
import { renderDeckAbout, renderLobby, renderOnline, renderRooms, renderStatus } from "./lobby_render.js";
import { ROOMS_LIMIT, ROOMS_REFRESH, initialState, reduce } from "./lobby_state.js";

/**
 * @typedef {import("./lobby_state.js").LobbyState} LobbyState
 * @typedef {import("./lobby_state.js").LobbyMessage} LobbyMessage
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("./lobby_state.js").Translate} Translate
 * @typedef {import("./lobby_render.js").Scene} Scene
 * @typedef {import("../protocol/codec.js").Message} Message
 *
 * @typedef {{
 *   document: Document,
 *   t: Translate,
 *   has: (key: string) => boolean,
 *   lang: string,
 *   texts: TextCatalogue,
 *   levels: Record<string, string>,
 *   send: (message: Message) => number | null,
 *   openRules: (game: string) => void,
 *   onLevelChosen: (game: string, level: string) => void,
 *   onNameChange: (name: string) => boolean,
 *   name: string | null,
 *   guest: number | null,
 * }} LobbyContext
 */

export class Lobby {
  /**
   * @param {HTMLElement} root
   * @param {LobbyContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {LobbyState} */
    this.state = initialState({ name: ctx.name, guest: ctx.guest, levels: ctx.levels });
    /** @type {ReturnType<typeof setInterval> | null} */
    this.refreshTimer = null;
    /** @type {CreateRoomDialog | null} */
    this.createDialog = null;
    this.packs = new Packs(ctx.document);
    this.input = new LobbyInput({
      state: () => this.state,
      texts: () => this.ctx.texts,
      dispatch: (message) => this.dispatch(message),
      send: (message) => this.ctx.send(message),
      status: (key, args) => this.status(key, args),
      refresh: () => this.refresh(),
      openCreate: () => this.openCreate(),
      openRules: (game) => this.ctx.openRules(game),
      onLevelChosen: (game, level) => this.ctx.onLevelChosen(game, level),
      onNameChange: (name) => this.ctx.onNameChange(name),
    });
    this.render();
  }

  /**
   * Takes a server message or a choice, and draws again what it changed.
   * @param {LobbyMessage} message
   */
  dispatch(message) {
    const before = this.state;
    const state = reduce(before, message);
    this.state = state;
    if (state === before) {
      return;
    }
    if (state.catalogue !== before.catalogue || state.game !== before.game || state.profile !== before.profile) {
      this.render();
      return;
    }
    if (state.rooms !== before.rooms) {
      this.keepingFocus(() => renderRooms(this.root, this.scene()));
    }
    if (state.deck !== before.deck) {
      renderDeckAbout(this.root, this.scene());
    }
    if (state.status !== before.status) {
      renderStatus(this.root, this.scene());
    }
    if (state.online !== before.online) {
      renderOnline(this.root, state);
    }
  }

  /** @returns {Scene} */
  scene() {
    const { t, has, lang, texts } = this.ctx;
    return {
      state: this.state,
      t,
      has,
      lang,
      texts,
      pack: (deck) => this.packs.picture(deck, lang, t("web.lobby.deck_picture", { deck: deck.name })),
      input: this.input,
    };
  }

  /**
   * @param {Translate} t
   * @param {(key: string) => boolean} has
   * @param {string} lang
   * @param {TextCatalogue} texts
   */
  setLanguage(t, has, lang, texts) {
    Object.assign(this.ctx, { t, has, lang, texts });
    this.render();
    this.createDialog?.setLanguage();
  }

  /** @param {import("../protocol/messages.js").Catalogue} catalogue */
  setCatalogue(catalogue) {
    this.dispatch(catalogue);
  }

  /** @param {import("../protocol/messages.js").Rooms} rooms */
  setRooms(rooms) {
    this.dispatch(rooms);
  }

  /**
   * Whether the session holds a profile: rated play is offered with one.
   * @param {boolean} profile
   */
  setProfile(profile) {
    this.dispatch({ type: "profile", profile });
  }

  /** @param {boolean} online */
  setOnline(online) {
    this.dispatch({ type: "online", online });
    this.keepRefreshing();
  }

  /**
   * The lobby's status line: what it is doing, or what went wrong (read out at once).
   * @param {string | null} key a catalogue key; null clears the line
   * @param {Record<string, unknown>} [args]
   * @param {{ alert?: boolean }} [options]
   */
  status(key, args = {}, options = {}) {
    this.dispatch({ type: "status", status: key ? { key, args, alert: options.alert ?? false } : null });
  }

  /** Shown again (after a table): refresh at once and every few seconds. */
  shown() {
    this.refresh();
    this.keepRefreshing();
  }

  /** Hidden behind a table: stop refreshing. */
  hidden() {
    this.stopRefreshing();
    this.createDialog?.close();
  }

  /** Refreshes the open rooms every few seconds while online and shown. */
  keepRefreshing() {
    if (!this.state.online) {
      this.stopRefreshing();
    } else if (this.refreshTimer === null && !this.root.hidden) {
      this.refreshTimer = setInterval(() => this.refresh(), ROOMS_REFRESH * 1000);
    }
  }

  stopRefreshing() {
    if (this.refreshTimer !== null) {
      clearInterval(this.refreshTimer);
      this.refreshTimer = null;
    }
  }

  refresh() {
    if (this.state.online && !this.root.hidden && this.ctx.document.visibilityState !== "hidden") {
      this.ctx.send({ type: "list_rooms", limit: ROOMS_LIMIT });
    }
  }

  destroy() {
    this.stopRefreshing();
    this.createDialog?.close();
  }

  openCreate() {
    if (!this.state.catalogue) {
      return;
    }
    if (!this.createDialog) {
      this.createDialog = new CreateRoomDialog({
        document: this.ctx.document,
        state: () => this.state,
        words: () => this.ctx,
        status: (key, args) => this.status(key, args),
        send: (message) => this.ctx.send(message),
      });
    }
    this.createDialog.open(/** @type {HTMLElement | null} */ (this.ctx.document.activeElement));
  }

  /** Draws the whole lobby, keeping the focus on the control it was on. */
  render() {
    this.keepingFocus(() => renderLobby(this.root, this.scene()));
  }

  /**
   * Runs a redraw and puts the focus back on the control (by its `data-focus-key`) it was on.
   * @param {() => void} redraw
   */
  keepingFocus(redraw) {
    const active = this.ctx.document.activeElement;
    const key = active && this.root.contains(active) ? /** @type {HTMLElement} */ (active).dataset.focusKey ?? null : null;
    redraw();
    if (key) {
      /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`))?.focus();
    }
  }
}
