/**
 * The table of the room the player is in, and what goes with it on the
 * page: the room's address (`#/room/CODE`), the bar that shares it, the
 * window's title, and the lobby hidden behind it.
 *
 * The room and the player's seat are the session's (protocol/room.js); the
 * screen only opens a table for a current snapshot, gives it the rest of the
 * room's stream (app.js), and closes it.
 */
import { roomFromHash, roomLink } from "./dom.js";
import { closeRules, openRules } from "./rules.js";
import { TableView } from "./table.js";

/**
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("./lobby_state.js").Translate} Translate
 * @typedef {import("../protocol/messages.js").RoomInfo} RoomInfo
 * @typedef {import("../protocol/messages.js").Snapshot} Snapshot
 * @typedef {import("../protocol/messages.js").Left} Left
 * @typedef {import("../protocol/codec.js").Message} Message
 * @typedef {import("../protocol/session.js").Session} Session
 * @typedef {import("./frame.js").Frame} Frame
 * @typedef {import("./lobby.js").Lobby} Lobby
 *
 * @typedef {object} ScreenPort what the room's screen needs of the page
 * @property {Window & typeof globalThis} win
 * @property {Frame} frame
 * @property {() => Session | null} session
 * @property {() => Lobby | null} lobby
 * @property {() => { t: Translate, lang: string, catalogue: TextCatalogue }} words
 * @property {(game: string) => string} gameName
 * @property {(message: Message, owner: "table" | "leave") => unknown} send
 * @property {(key: string, args: Record<string, unknown>, kind: "error" | "info", options?: { sticky?: boolean }) => void} notify
 */

export class RoomScreen {
  /** @param {ScreenPort} page */
  constructor(page) {
    this.page = page;
    /** @type {TableView | null} */
    this.table = null;
  }

  /** The open table's room code, or "" with no table open. */
  code() {
    const code = this.table ? this.page.session()?.room?.code : null;
    return typeof code === "string" ? code : "";
  }

  /**
   * Shows a current snapshot: on the open table when it is of the same room, else on a new table.
   * @param {Snapshot} snapshot
   * @param {boolean} joined of another room than the table open, if any, shows
   */
  open(snapshot, joined) {
    const { win, frame } = this.page;
    const session = this.page.session();
    const room = session?.room ?? /** @type {RoomInfo} */ ({});
    const seat = session?.roomState.seat ?? null;
    if (this.table && !joined) {
      this.table.snapshot(snapshot);
      this.showRoomBar();
      return;
    }
    this.table?.destroy();
    closeRules();
    const { t, lang, catalogue } = this.page.words();
    const deck = typeof room.deck === "string" ? room.deck : undefined;
    const el = frame.el;
    el.table.replaceChildren();
    this.table = new TableView(el.table, {
      t,
      lang,
      catalogue,
      game: String(room.game ?? ""),
      deck,
      suitSystem: (deck && catalogue.decks?.[deck]?.suit_system) || "french",
      seat,
      room,
      send: (message) => this.page.send(/** @type {Message} */ (message), "table"),
      cardName: (code) => (deck && this.page.words().catalogue.decks?.[deck]?.cards?.[code]) || code,
      onLeave: () => this.leave(),
      openRules,
      sessionId: typeof session?.welcome?.session === "string" ? session.welcome.session : null,
    });
    this.table.snapshot(snapshot);
    const lobby = this.page.lobby();
    lobby?.hidden();
    lobby?.status(null);
    // over a profile screen or a replay (a seat resumed after a reload there) the table waits
    // behind it, and the address stays the screen's until the player goes back to the table
    const onPage = !el.pages.hidden;
    el.lobby.hidden = true;
    el.table.hidden = onPage;
    this.showRoomBar();
    if (typeof room.code === "string" && room.code && !onPage) {
      this.setHash(`#/room/${room.code}`);
    }
    win.document.title = `${this.page.gameName(String(room.game ?? ""))} · Cardavia`;
    el.main.focus({ preventScroll: true });
    win.scrollTo?.(0, 0);
  }

  /** The table's leave button: out of the room and back to the lobby at once. */
  leave() {
    if (this.page.session()?.connected) {
      this.page.send({ type: "leave" }, "leave"); // the session does not show the room's late messages
    }
    this.close();
  }

  /**
   * The server took the player out of the room.
   * @param {Left} left
   */
  left(left) {
    if (!this.table) {
      return;
    }
    this.close();
    if (typeof left.id !== "number") {
      const replaced = String(left.reason ?? "").includes("replaced");
      const t = this.page.words().t;
      this.page.notify(replaced ? "app.left" : "web.room.removed", replaced ? { reason: t("app.left.replaced") } : {}, "error");
    }
  }

  close() {
    const { win, frame } = this.page;
    this.table?.destroy();
    this.table = null;
    const el = frame.el;
    el.table.hidden = true;
    el.table.replaceChildren();
    this.showRoomBar();
    this.forgetHash();
    if (!el.pages.hidden) {
      return; // a profile screen or a replay is on show: the lobby comes back when it is left
    }
    el.lobby.hidden = false;
    win.document.title = "Cardavia";
    this.page.lobby()?.shown();
    el.main.focus({ preventScroll: true });
  }

  showRoomBar() {
    this.page.frame.showRoomBar(this.code(), this.page.session()?.roomState.seat === null);
  }

  async copyLink() {
    const code = this.code();
    if (!code) {
      return;
    }
    const win = this.page.win;
    const link = roomLink(win.location, code);
    try {
      await win.navigator.clipboard.writeText(link);
      this.page.notify("web.room.link_copied", {}, "info");
    } catch {
      this.page.notify("web.room.link_shown", { url: link }, "info", { sticky: true });
    }
  }

  /** @param {string} hash */
  setHash(hash) {
    const win = this.page.win;
    if (win.location.hash !== hash) {
      win.history.replaceState(null, "", hash);
    }
  }

  /** Takes the room's address out of the address bar. */
  forgetHash() {
    const win = this.page.win;
    if (roomFromHash(win.location.hash)) {
      const { pathname, search } = win.location;
      win.history.replaceState(null, "", `${pathname}${search}`);
    }
  }
}
