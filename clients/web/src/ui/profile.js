/**
 * The profile screens: the profile itself (create, rename, ratings, a
 * transfer code to another device, redeeming one, deleting the profile), the
 * leaderboard of a game and the player's history of matches. They show in
 * the page's `pages` area in place of the lobby (`#/profile`,
 * `#/leaderboard`, `#/history`); `App` (app.js) routes the addresses and the
 * server's answers here.
 *
 * `profile_state.js` holds what the screens know and `reduce`s every message
 * into the next state; this module draws the state and sends what the player
 * asks for. The player key itself never reaches this module: the session
 * keeps it (protocol/session.js), and no screen shows it.
 */
import { displaySafe, h, uid } from "./dom.js";
import {
  BOARD_ROWS, HISTORY_PAGE, codeLeft, groupedCode, initialState, isMine, opponents, outcome, provisional, reduce,
  signedChange, typedCode,
} from "./profile_state.js";
import { validName } from "./settings.js";
import { displayName } from "../protocol/names.js";

/**
 * @typedef {import("./profile_state.js").ProfileState} ProfileState
 * @typedef {import("./profile_state.js").ProfileMessage} ProfileMessage
 * @typedef {import("./profile_state.js").HistoryEntry} HistoryEntry
 * @typedef {import("./profile_state.js").Standing} Standing
 * @typedef {import("../protocol/codec.js").Message} Message
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {"profile" | "leaderboard" | "history"} ProfileScreen
 *
 * @typedef {object} ProfileContext
 * @property {Document} document
 * @property {() => { t: Translate, has: (key: string) => boolean, lang: string }} words
 * @property {() => string[]} games the games of the server's catalogue, in its order
 * @property {(game: string) => string} gameName
 * @property {() => string} name the name the player plays under (the lobby's)
 * @property {(message: Message) => number | null} send
 * @property {() => boolean} online
 * @property {() => boolean} tableOpen
 * @property {() => string} tableLink the open table's address (`#/room/CODE`), or ""
 */

/** Milliseconds between two redraws of the transfer code's countdown. */
const COUNTDOWN_MS = 1000;

export class ProfileScreens {
  /**
   * @param {HTMLElement} root
   * @param {ProfileContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {ProfileState} */
    this.state = initialState();
    /** @type {ProfileScreen | null} the screen on show (null: none) */
    this.screen = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.countdown = null;
    /** Whether the history asked for last was a page of older matches (appended, not replacing). */
    this.askedOlder = false;
    this.confirm = /** @type {HTMLDialogElement} */ (h("dialog", { className: "dialog confirm-dialog grain-surface" }));
    ctx.document.body.appendChild(this.confirm);
  }

  /**
   * Takes a server message or a choice; redraws the screen on show.
   * @param {ProfileMessage} message
   */
  dispatch(message) {
    const before = this.state;
    this.state = reduce(before, message);
    if (this.state !== before && this.screen) {
      this.render();
    }
  }

  /**
   * A `history` answer: the first page, or the older matches asked for last.
   * @param {Message} message
   */
  history(message) {
    const page = this.askedOlder ? "more" : "first";
    this.askedOlder = false;
    this.dispatch({ ...message, type: "history", page });
  }

  /** @returns {import("./profile_state.js").PlayerInfo | null} */
  get player() {
    return this.state.player;
  }

  /**
   * Shows a screen and asks the server for what it shows.
   * @param {ProfileScreen} screen
   */
  show(screen) {
    this.screen = screen;
    this.ask();
    this.render();
    /** @type {HTMLElement | null} */ (this.root.querySelector("h1"))?.focus({ preventScroll: true });
  }

  hide() {
    this.screen = null;
    this.stopCountdown();
    if (this.confirm.open) this.confirm.close();
  }

  /** Asks the server for what the screen on show needs (again after a reconnection). */
  ask() {
    if (!this.ctx.online()) return;
    if (this.screen === "leaderboard") {
      const game = this.state.boardGame || this.ctx.games()[0] || "";
      if (game) this.ctx.send({ type: "get_leaderboard", game, limit: BOARD_ROWS });
    } else if (this.state.player) {
      this.askedOlder = false;
      this.ctx.send({ type: "get_history", limit: HISTORY_PAGE });
    }
  }

  /** @param {string} game */
  chooseGame(game) {
    this.dispatch({ type: "board_game", game });
    if (this.ctx.online()) this.ctx.send({ type: "get_leaderboard", game, limit: BOARD_ROWS });
    this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    const screen = this.screen;
    if (!screen) return;
    const active = this.ctx.document.activeElement;
    const focusKey = active && this.root.contains(active) ? /** @type {HTMLElement} */ (active).dataset.focusKey ?? null : null;
    const body = screen === "profile" ? this.profileScreen() : screen === "leaderboard" ? this.boardScreen() : this.historyScreen();
    this.root.replaceChildren(h("div", { className: `page page-${screen}` }, this.backLink(), body));
    if (focusKey) {
      /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-focus-key="${focusKey}"]`))?.focus();
    }
    if (screen === "profile" && this.state.code) this.keepCountingDown();
    else this.stopCountdown();
  }

  backLink() {
    const { t } = this.ctx.words();
    const table = this.ctx.tableOpen();
    return h("a", {
      className: "page-back link-button",
      attrs: { href: table ? this.ctx.tableLink() : "#/" },
      text: table ? t("profile.back_table") : t("profile.back"),
    });
  }

  /** @param {string} text */
  heading(text) {
    return h("h1", { className: "page-title", attrs: { tabindex: -1 }, text });
  }

  statusLine() {
    const { t, has } = this.ctx.words();
    const status = this.state.status;
    const key = status && (has(status.key) ? status.key : "errors.unknown");
    return h("p", {
      className: `page-status${status?.alert ? " page-alert" : ""}`,
      attrs: { role: status?.alert ? "alert" : "status" },
      text: status && key ? t(key, status.args) : "",
    });
  }

  // ------------------------------------------------------------ the profile

  profileScreen() {
    const { t } = this.ctx.words();
    const player = this.state.player;
    if (!player) {
      return h("section", { className: "panel page-panel" },
        this.heading(t("profile.title.none")),
        h("p", { className: "muted", text: t("profile.about") }),
        this.statusLine(),
        this.nameForm("create"),
        this.redeemForm());
    }
    return h("section", { className: "panel page-panel" },
      this.heading(t("profile.title", { name: displaySafe(player.name) })),
      this.statusLine(),
      this.ratingsTable(),
      h("p", { className: "page-links" },
        h("a", { className: "link-button", attrs: { href: "#/leaderboard" }, text: t("profile.menu.leaderboard") }),
        h("a", { className: "link-button", attrs: { href: "#/history" }, text: t("profile.menu.history") })),
      this.nameForm("rename"),
      this.transferPart(),
      this.deletePart());
  }

  /** @param {"create" | "rename"} how */
  nameForm(how) {
    const { t } = this.ctx.words();
    const id = uid("profile-name");
    const problemId = uid("profile-name-problem");
    const input = /** @type {HTMLInputElement} */ (h("input", {
      attrs: { id, type: "text", maxlength: 32, autocomplete: "nickname", "aria-describedby": problemId },
      dataset: { focusKey: `${how}-name` },
      props: { value: how === "create" ? this.ctx.name() : this.state.player?.name ?? "" },
    }));
    const problem = h("p", { className: "field-problem", attrs: { id: problemId, "aria-live": "polite" } });
    const submit = (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      const name = validName(input.value);
      if (!name) {
        problem.textContent = t("profile.name.problem");
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      this.dispatch({ type: "status", status: { key: how === "create" ? "profile.status.creating" : "profile.status.renaming", args: {}, alert: false } });
      this.ctx.send(how === "create" ? { type: "create_profile", name, bot: false } : { type: "rename_profile", name });
    };
    return h("form", { className: "page-form page-part", on: { submit } },
      h("h2", { text: how === "create" ? t("profile.create.title") : t("profile.rename.title") }),
      h("label", { attrs: { for: id }, text: t("profile.name.label") }),
      h("div", { className: "inline-field" }, input,
        h("button", {
          className: how === "create" ? "primary" : "",
          attrs: { type: "submit", "data-needs-server": true },
          dataset: { focusKey: `${how}-submit` },
          text: how === "create" ? t("profile.create.button") : t("profile.rename.button"),
        })),
      problem);
  }

  redeemForm() {
    const { t } = this.ctx.words();
    const id = uid("profile-code");
    const problemId = uid("profile-code-problem");
    const input = /** @type {HTMLInputElement} */ (h("input", {
      className: "code-input",
      attrs: { id, type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 20, "aria-describedby": problemId },
      dataset: { focusKey: "redeem-code" },
    }));
    const problem = h("p", { className: "field-problem", attrs: { id: problemId, "aria-live": "polite" } });
    const submit = (/** @type {SubmitEvent} */ event) => {
      event.preventDefault();
      const code = typedCode(input.value);
      if (!code) {
        problem.textContent = t("profile.redeem.problem");
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      this.dispatch({ type: "status", status: { key: "profile.status.redeeming", args: {}, alert: false } });
      this.ctx.send({ type: "redeem_transfer_code", code });
    };
    return h("form", { className: "page-form page-part", on: { submit } },
      h("h2", { text: t("profile.redeem.title") }),
      h("p", { className: "muted", text: t("profile.redeem.about") }),
      h("label", { attrs: { for: id }, text: t("profile.redeem.label") }),
      h("div", { className: "inline-field" }, input,
        h("button", { attrs: { type: "submit", "data-needs-server": true }, dataset: { focusKey: "redeem-submit" }, text: t("profile.redeem.button") })),
      problem);
  }

  ratingsTable() {
    const { t } = this.ctx.words();
    const ratings = this.state.ratings;
    const section = h("section", { className: "page-part" }, h("h2", { text: t("profile.ratings.title") }));
    if (this.state.matches === null && !ratings.length) {
      section.append(h("p", { className: "muted", text: t("profile.loading") }));
      return section;
    }
    if (!ratings.length) {
      section.append(h("p", { className: "muted", text: t("profile.ratings.none") }));
      return section;
    }
    section.append(h("table", { className: "page-table ratings-table" },
      h("thead", {}, h("tr", {},
        h("th", { attrs: { scope: "col" }, text: t("profile.column.game") }),
        h("th", { attrs: { scope: "col" }, text: t("profile.column.rating") }),
        h("th", { attrs: { scope: "col" }, text: t("profile.column.games") }))),
      h("tbody", {}, ratings.map((r) => h("tr", { dataset: { game: r.game } },
        h("th", { attrs: { scope: "row" }, text: this.ctx.gameName(r.game) }),
        h("td", {}, this.ratingCell(r.rating, r.deviation)),
        h("td", { text: t("profile.games", { count: r.games }) }))))));
    return section;
  }

  /**
   * A rating with its deviation, and the provisional mark when it is.
   * @param {number} rating
   * @param {number} deviation
   */
  ratingCell(rating, deviation) {
    const { t } = this.ctx.words();
    const cell = h("span", { className: "rating" }, t("profile.rating", { rating: String(rating), deviation: String(deviation) }));
    if (provisional(deviation)) {
      cell.append(" ", h("abbr", {
        className: "provisional",
        attrs: { title: t("profile.provisional.about") },
        text: t("profile.provisional"),
      }));
    }
    return cell;
  }

  transferPart() {
    const { t } = this.ctx.words();
    const part = h("section", { className: "page-part transfer" },
      h("h2", { text: t("profile.transfer.title") }),
      h("p", { className: "muted", text: t("profile.transfer.about") }));
    const code = this.state.code;
    if (code) {
      const left = codeLeft(this.state, performance.now()) ?? 0;
      part.append(
        h("p", { className: "transfer-code" },
          h("span", { className: "visually-hidden", text: t("profile.transfer.code_label") }),
          h("code", { text: groupedCode(code.code) })),
        h("p", { className: left ? "transfer-left" : "transfer-left page-alert", text: left ? t("profile.transfer.left", { time: clock(left) }) : t("profile.transfer.expired") }));
    }
    part.append(h("button", {
      attrs: { type: "button", "data-needs-server": true },
      dataset: { focusKey: "transfer" },
      text: code ? t("profile.transfer.again") : t("profile.transfer.button"),
      on: { click: () => this.ctx.send({ type: "new_transfer_code" }) },
    }));
    return part;
  }

  deletePart() {
    const { t } = this.ctx.words();
    return h("section", { className: "page-part danger" },
      h("h2", { text: t("profile.delete.title") }),
      h("p", { className: "muted", text: t("profile.delete.about") }),
      h("button", {
        className: "danger-button",
        attrs: { type: "button", "aria-haspopup": "dialog", "data-needs-server": true },
        dataset: { focusKey: "delete" },
        text: t("profile.delete.button"),
        on: { click: (/** @type {MouseEvent} */ event) => this.confirmDelete(/** @type {HTMLElement} */ (event.currentTarget)) },
      }));
  }

  /** @param {HTMLElement} opener */
  confirmDelete(opener) {
    const { t } = this.ctx.words();
    const player = this.state.player;
    if (!player) return;
    const titleId = uid("delete-title");
    const close = () => {
      this.confirm.close();
      opener.focus();
    };
    this.confirm.setAttribute("aria-labelledby", titleId);
    this.confirm.replaceChildren(
      h("h2", { className: "dialog-title", attrs: { id: titleId }, text: t("profile.delete.confirm_title", { name: displaySafe(player.name) }) }),
      h("p", { text: t("profile.delete.confirm_text") }),
      h("div", { className: "dialog-buttons" },
        h("button", { attrs: { type: "button" }, text: t("profile.delete.cancel"), on: { click: close } }),
        h("button", {
          className: "danger-button",
          attrs: { type: "button" },
          text: t("profile.delete.confirm"),
          on: {
            click: () => {
              this.confirm.close();
              this.ctx.send({ type: "delete_profile" });
            },
          },
        })));
    this.confirm.showModal();
    /** @type {HTMLElement | null} */ (this.confirm.querySelector("button"))?.focus();
  }

  keepCountingDown() {
    if (this.countdown !== null) return;
    this.countdown = setInterval(() => {
      const line = this.root.querySelector(".transfer-left");
      const left = codeLeft(this.state, performance.now());
      if (!line || left === null) return;
      const { t } = this.ctx.words();
      line.textContent = left ? t("profile.transfer.left", { time: clock(left) }) : t("profile.transfer.expired");
      line.classList.toggle("page-alert", !left);
      if (!left) this.stopCountdown();
    }, COUNTDOWN_MS);
  }

  stopCountdown() {
    if (this.countdown !== null) {
      clearInterval(this.countdown);
      this.countdown = null;
    }
  }

  // ------------------------------------------------------------ the leaderboard

  boardScreen() {
    const { t } = this.ctx.words();
    const games = this.ctx.games();
    const game = this.state.boardGame || games[0] || "";
    const gameId = uid("board-game");
    const picker = h("div", { className: "field board-game" },
      h("label", { attrs: { for: gameId }, text: t("profile.leaderboard.game") }),
      h("select", {
        attrs: { id: gameId },
        dataset: { focusKey: "board-game" },
        on: { change: (/** @type {Event} */ event) => this.chooseGame(/** @type {HTMLSelectElement} */ (event.target).value) },
      }, games.map((g) => h("option", { attrs: { value: g, selected: g === game }, text: this.ctx.gameName(g) }))));
    const section = h("section", { className: "panel page-panel" },
      this.heading(t("profile.leaderboard.title", { game: this.ctx.gameName(game) })),
      picker,
      this.statusLine());
    const board = this.state.board;
    if (!board || board.game !== game) {
      if (!this.state.status?.alert) section.append(h("p", { className: "muted", text: t("profile.loading") }));
      return section;
    }
    if (!board.top.length) {
      section.append(h("p", { className: "muted", text: t("profile.leaderboard.empty", { game: this.ctx.gameName(game) }) }));
      return section;
    }
    const rows = board.top.map((row) => this.boardRow(row));
    const me = board.me;
    if (me && !board.top.some((row) => row.player === me.player)) {
      rows.push(h("tr", { className: "board-gap", attrs: { "aria-hidden": "true" } }, h("td", { attrs: { colspan: 4 }, text: "⋯" })));
      rows.push(this.boardRow(me));
    }
    section.append(h("table", { className: "page-table board-table" },
      h("thead", {}, h("tr", {},
        h("th", { attrs: { scope: "col" }, text: t("profile.column.rank") }),
        h("th", { attrs: { scope: "col" }, text: t("profile.column.player") }),
        h("th", { attrs: { scope: "col" }, text: t("profile.column.rating") }),
        h("th", { attrs: { scope: "col" }, text: t("profile.column.games") }))),
      h("tbody", {}, rows)));
    if (this.state.player && !me) {
      section.append(h("p", { className: "muted", text: t("profile.leaderboard.me_none", { game: this.ctx.gameName(game) }) }));
    }
    return section;
  }

  /** @param {Standing} row */
  boardRow(row) {
    const { t, has } = this.ctx.words();
    const mine = isMine(this.state, row);
    // a built-in bot level is named by its level in the player's language (the server's
    // name for it is English); a program's own profile by the name it chose
    const builtIn = row.bot && row.level !== null && row.player.startsWith("bot:");
    const shown = builtIn ? row : { ...row, level: null }; // only a built-in level is named by it
    const name = h("th", { attrs: { scope: "row" } }, displaySafe(displayName(shown, { t, has, lang: this.ctx.words().lang })));
    if (row.bot) {
      name.append(" ", h("span", { className: "badge bot-badge", text: t("profile.leaderboard.bot") }));
    }
    if (mine) name.append(" ", h("span", { className: "badge you-badge", text: t("profile.leaderboard.you") }));
    return h("tr", { className: mine ? "mine" : "", attrs: { "aria-current": mine ? "true" : null }, dataset: { player: row.player } },
      h("td", { className: "rank", text: String(row.rank) }),
      name,
      h("td", {}, this.ratingCell(row.rating, row.deviation)),
      h("td", { text: row.bot && row.level ? "—" : t("profile.games", { count: row.games }) }));
  }

  // ------------------------------------------------------------ the history

  historyScreen() {
    const { t } = this.ctx.words();
    const section = h("section", { className: "panel page-panel" }, this.heading(t("profile.history.title")), this.statusLine());
    if (!this.state.player) {
      section.append(h("p", {}, t("profile.history.no_profile"), " ",
        h("a", { className: "link-button", attrs: { href: "#/profile" }, text: t("profile.create.title") })));
      return section;
    }
    const matches = this.state.matches;
    if (matches === null) {
      if (!this.state.status?.alert) section.append(h("p", { className: "muted", text: t("profile.loading") }));
      return section;
    }
    if (!matches.length) {
      section.append(h("p", { className: "muted", text: t("profile.history.empty") }));
      return section;
    }
    section.append(h("div", { className: "table-scroll" }, h("table", { className: "page-table history-table" },
      h("thead", {}, h("tr", {},
        ["when", "game", "opponents", "result", "rating"].map((c) => h("th", { attrs: { scope: "col" }, text: t(`profile.history.column.${c}`) })),
        h("th", { attrs: { scope: "col" } }, h("span", { className: "visually-hidden", text: t("profile.history.column.replay") })))),
      h("tbody", {}, matches.map((entry) => this.historyRow(entry))))));
    if (this.state.more) {
      section.append(h("button", {
        attrs: { type: "button", "data-needs-server": true },
        dataset: { focusKey: "older" },
        text: t("profile.history.more"),
        on: {
          click: () => {
            this.askedOlder = this.ctx.send({ type: "get_history", limit: HISTORY_PAGE, before: matches[matches.length - 1].record }) !== null;
          },
        },
      }));
    }
    return section;
  }

  /** @param {HistoryEntry} entry */
  historyRow(entry) {
    const { t, has, lang } = this.ctx.words();
    const when = new Date(entry.ended * 1000);
    const whenText = Number.isFinite(when.getTime())
      ? new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(when)
      : "";
    const who = opponents(entry)
      .map((p) => displaySafe(displayName(p, { t, has, lang }, entry.players.indexOf(p))) || t("profile.deleted_player"))
      .join(", ");
    const result = outcome(entry);
    const scores = entry.scores.join(" – ");
    const before = entry.rating_before;
    const after = entry.rating_after;
    const rating = entry.rated && before !== null && after !== null
      ? h("span", { className: `change ${after >= before ? "up" : "down"}`, text: t("profile.change", { before: String(before), after: String(after), change: signedChange(before, after) }) })
      : h("span", { className: "muted", text: entry.rated ? t("profile.rated") : t("profile.casual") });
    const game = this.ctx.gameName(entry.game);
    return h("tr", { dataset: { record: entry.record } },
      h("td", { text: whenText }),
      h("td", { text: game }),
      h("td", { text: who }),
      h("td", { className: `result ${result}`, text: t(`profile.history.${result}`, { scores }) }),
      h("td", {}, rating),
      h("td", {}, h("a", {
        className: "link-button",
        attrs: { href: `#/replay/${encodeURIComponent(entry.record)}`, "aria-label": t("profile.history.replay_label", { game, when: whenText }) },
        text: t("profile.history.replay"),
      })));
  }
}

/**
 * Seconds as minutes and seconds: 9:05.
 * @param {number} seconds
 */
function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
