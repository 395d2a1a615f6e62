/**
 * The page's frame around the lobby and the table: the top bar (brand,
 * connection state, language menu, display settings), the notices over the
 * page, and the bar that shares the open room's link.
 *
 * The frame draws what `App` (app.js) tells it and hands the player's input
 * back through the `FrameActions` it was given; it keeps no state of the
 * connection or the room, only the notices on screen.
 */
import { displaySafe, h, uid } from "./dom.js";

/** How long a notice that needs no answer stays, in milliseconds. */
export const NOTICE_MS = 7000;

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {{ state: string, attempt?: number, closeCode?: number | null }} Connection
 * @typedef {{ key: string, args: Record<string, unknown>, kind: "error" | "info", id: number }} Notice
 *
 * @typedef {object} FrameActions
 * @property {() => void} reconnect the connection's "reconnect" button
 * @property {(lang: string) => void} setLanguage
 * @property {(opener: HTMLElement) => void} openDisplay
 * @property {() => void} copyLink
 * @property {() => boolean} tableOpen
 * @property {() => boolean} home the brand was clicked: leaves a profile screen or a replay (false: none was shown)
 * @property {(callback: () => void, ms: number) => unknown} setTimeout
 */

export class Frame {
  /**
   * Builds the frame into the page's `#app` element (or its body).
   * @param {Document} document
   * @param {FrameActions} actions
   */
  constructor(document, actions) {
    this.actions = actions;
    /** @type {Translate} */
    this.t = () => "";
    /** @type {Notice[]} */
    this.notices = [];
    this.noticeCount = 0;
    const el = {};
    el.skip = h("a", { className: "skip-link", attrs: { href: "#main" } });
    el.skip.addEventListener("click", (event) => {
      event.preventDefault(); // the fragment names rooms: move focus without touching it
      el.main.focus();
    });
    el.connDot = h("span", { className: "conn-dot", attrs: { "aria-hidden": "true" } });
    el.connText = h("span", { className: "conn-text" });
    el.reconnect = h("button", {
      className: "link-button conn-retry",
      attrs: { type: "button", hidden: true },
      on: { click: () => actions.reconnect() },
    });
    el.conn = h("div", { className: "conn", attrs: { role: "status" } }, el.connDot, el.connText);
    const languageId = uid("language");
    el.languageLabel = h("label", { className: "visually-hidden", attrs: { for: languageId } });
    el.language = h("select", {
      className: "language-select",
      attrs: { id: languageId },
      on: { change: (/** @type {Event} */ event) => actions.setLanguage(/** @type {HTMLSelectElement} */ (event.target).value) },
    });
    el.displayButton = h("button", {
      className: "tool-button",
      attrs: { type: "button", "aria-haspopup": "dialog" },
      on: { click: () => actions.openDisplay(el.displayButton) },
    });
    el.brand = h("a", { className: "brand", attrs: { href: "#/" } }, h("span", { className: "brand-mark", attrs: { "aria-hidden": "true" } }, "♠"), "Cardavia");
    el.brand.addEventListener("click", (event) => {
      event.preventDefault();
      if (actions.home()) {
        return; // back from a profile screen or a replay
      }
      if (!actions.tableOpen()) {
        el.main.focus();
      }
    });
    el.tagline = h("span", { className: "tagline" });
    // the profile's screens: plain links, so each screen has an address to share or bookmark
    el.menuProfile = h("a", { className: "menu-link", attrs: { href: "#/profile" }, dataset: { page: "profile" } });
    el.menuBoard = h("a", { className: "menu-link", attrs: { href: "#/leaderboard" }, dataset: { page: "leaderboard" } });
    el.menuHistory = h("a", { className: "menu-link", attrs: { href: "#/history" }, dataset: { page: "history" } });
    el.menu = h("nav", { className: "topbar-menu" }, el.menuProfile, el.menuBoard, el.menuHistory);
    el.header = h("header", { className: "topbar" },
      h("div", { className: "topbar-brand" }, el.brand, el.tagline),
      el.menu,
      h("div", { className: "topbar-conn" }, el.conn, el.reconnect),
      h("div", { className: "topbar-tools" },
        h("div", { className: "language" }, el.languageLabel, el.language),
        el.displayButton));
    el.notices = h("div", { className: "notices" });
    el.roomWatching = h("span", { className: "badge", attrs: { hidden: true } });
    el.copyLink = h("button", {
      className: "link-button",
      attrs: { type: "button" },
      on: { click: () => actions.copyLink() },
    });
    // the table's heading shows the room's code; this bar only shares it
    el.roomBar = h("div", { className: "room-bar", attrs: { role: "group", hidden: true } },
      el.roomWatching, el.copyLink);
    el.lobby = h("div", { className: "lobby" });
    el.table = h("div", { className: "table-root", attrs: { hidden: true } });
    el.pages = h("div", { className: "pages", attrs: { hidden: true } });
    el.main = h("main", { attrs: { id: "main", tabindex: -1 } }, el.roomBar, el.lobby, el.table, el.pages);
    /** The frame's elements; `lobby` and `table` are the roots of the lobby and of the table, `pages`
     * of the profile's screens and the replay. */
    this.el = /** @type {Record<keyof typeof el, HTMLElement>} */ (el);
    const shell = h("div", { className: "shell" }, el.skip, el.header, el.notices, el.main);
    const mount = document.getElementById("app") ?? document.body;
    mount.replaceChildren(shell);
    mount.removeAttribute("aria-busy");
  }

  /**
   * Words the frame in the current language.
   * @param {Translate} t
   * @param {TextCatalogue | null} catalogue
   * @param {string} lang
   */
  label(t, catalogue, lang) {
    this.t = t;
    this.el.skip.textContent = t("web.skip");
    this.el.tagline.textContent = t("web.tagline");
    this.el.languageLabel.textContent = t("forms.language.title");
    this.el.displayButton.textContent = t("web.display.open");
    this.el.reconnect.textContent = t("web.connection.reconnect");
    this.el.copyLink.textContent = t("web.room.copy_link");
    this.el.menu.setAttribute("aria-label", t("profile.menu.label"));
    this.el.menuProfile.textContent = t("profile.menu.profile");
    this.el.menuBoard.textContent = t("profile.menu.leaderboard");
    this.el.menuHistory.textContent = t("profile.menu.history");
    this.el.roomWatching.textContent = t("web.room.watching");
    this.fillLanguages(catalogue, lang);
  }

  /**
   * @param {TextCatalogue | null} catalogue
   * @param {string} lang
   */
  fillLanguages(catalogue, lang) {
    const languages = catalogue?.languages ?? [lang];
    this.el.language.replaceChildren(...languages.map((code) => h("option", {
      attrs: { value: code, lang: code, selected: code === lang },
      text: catalogue?.language_names?.[code] ?? code,
    })));
    /** @type {HTMLSelectElement} */ (this.el.language).value = lang;
  }

  /**
   * Marks the menu's link of the screen on show (none: the lobby or the table).
   * @param {string | null} page
   */
  showPage(page) {
    for (const link of [this.el.menuProfile, this.el.menuBoard, this.el.menuHistory]) {
      if (link.dataset.page === page) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  /**
   * The menu's first link names the profile held, or offers one.
   * @param {string | null} name
   */
  showPlayer(name) {
    this.el.menuProfile.textContent = name ? displaySafe(name) : this.t("profile.menu.profile");
    this.el.menuProfile.classList.toggle("has-profile", !!name);
    this.el.menuProfile.setAttribute("aria-label", name ? this.t("profile.menu.yours", { name: displaySafe(name) }) : this.t("profile.menu.profile"));
  }

  /** @param {Connection} connection */
  showConnection(connection) {
    const { state, attempt } = connection;
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
   * The bar that shares the open room's link: hidden without a code.
   * @param {string} code
   * @param {boolean} watching
   */
  showRoomBar(code, watching) {
    this.el.roomBar.hidden = !code || !this.el.pages.hidden; // not over a profile screen or a replay
    if (code) {
      this.el.roomBar.setAttribute("aria-label", this.t("web.room.label", { code: displaySafe(code) }));
      this.el.roomWatching.hidden = !watching;
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
      this.actions.setTimeout(() => this.dismiss(notice.id), NOTICE_MS);
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
    const t = this.t;
    this.el.notices.replaceChildren(...this.notices.map((notice) => h("div", {
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
