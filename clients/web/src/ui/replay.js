/**
 * A finished match's replay (`#/replay/<record id>`): shareable, and open to
 * anyone, with a profile or without. The followed seat's view is drawn by the
 * game's own table (a `TableView` that is only ever given snapshots, so it
 * offers no move), every other seat's hand is shown face up beside it, the
 * move just played is worded with the table's own log sentences, and a
 * person's move carries the strong bot's view of it: the move it would have
 * played when it differs (marked as lichess marks an inaccuracy), a quiet mark
 * when it agrees, "only move" when nothing else was legal.
 *
 * `replay_state.js` holds the replay and `reduce`s each step; this module
 * draws the state and turns buttons and the arrow keys into steps.
 */
import { displaySafe, h, uid } from "./dom.js";
import { Names } from "./names.js";
import { displayName } from "../protocol/names.js";
import { BadReplay, dealNow, fromReplay, mark, reduce, stepEvents, stepNow, tally, viewsNow } from "./replay_state.js";
import { drawKit } from "./table/draw.js";
import { describeEvents } from "./table/words.js";
import { TableView } from "./table.js";
import { gameModule } from "./tables/index.js";

/**
 * @typedef {import("./replay_state.js").ReplayState} ReplayState
 * @typedef {import("./replay_state.js").ReplayMessage} ReplayMessage
 * @typedef {import("../protocol/codec.js").Message} Message
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 *
 * @typedef {object} ReplayContext
 * @property {Document} document
 * @property {() => { t: Translate, has: (key: string) => boolean, lang: string, catalogue: TextCatalogue }} words
 * @property {(game: string) => string} gameName
 * @property {(message: Message) => number | null} send
 * @property {() => boolean} online
 * @property {() => boolean} tableOpen
 * @property {() => string} tableLink
 * @property {(game: string) => void} openRules
 * @property {() => string | null} playerId the profile the session holds, to follow its seat first
 * @property {(record: string) => number | null} seatIn the player's seat in a match, when the page knows it
 *   (the history's entry, the table just played), to follow first
 * @property {(key: string, args: Record<string, unknown>, kind: "error" | "info", options?: { sticky?: boolean }) => void} notify
 * @property {() => Promise<void>} copyLink
 */

/** Keys that step through the replay, and the step each takes. */
const KEYS = /** @type {Readonly<Record<string, ReplayMessage>>} */ (Object.freeze({
  ArrowLeft: { type: "back" },
  ArrowRight: { type: "forward" },
  Home: { type: "first" },
  End: { type: "last" },
}));

export class ReplayScreen {
  /**
   * @param {HTMLElement} root
   * @param {ReplayContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {string | null} the record asked for */
    this.record = null;
    /** @type {ReplayState | null} */
    this.state = null;
    /** @type {"loading" | "failed" | "shown"} */
    this.phase = "loading";
    /** @type {string | null} the catalogue key of why it failed */
    this.problem = null;
    /** @type {TableView | null} */
    this.table = null;
    /** @type {number | null} the seat the table was made for */
    this.tableSeat = null;
    this.onKey = (/** @type {KeyboardEvent} */ event) => this.key(event);
  }

  /**
   * Opens the replay of a record (asking the server for it).
   * @param {string} record
   */
  open(record) {
    this.hide();
    this.record = record;
    this.state = null;
    this.phase = "loading";
    this.problem = null;
    this.ctx.document.addEventListener("keydown", this.onKey);
    this.ask();
    this.render();
    /** @type {HTMLElement | null} */ (this.root.querySelector("h1"))?.focus({ preventScroll: true });
  }

  /** Asks for the replay while it is still not in (again after a reconnection). */
  ask() {
    if (this.record && this.phase !== "shown" && this.ctx.online()) {
      this.ctx.send({ type: "get_replay", record: this.record });
    }
  }

  hide() {
    this.ctx.document.removeEventListener("keydown", this.onKey);
    this.table?.destroy();
    this.table = null;
    this.tableSeat = null;
    this.record = null;
  }

  get shown() {
    return this.record !== null;
  }

  /** @param {Message} message a `replay` */
  replay(message) {
    if (!this.record || message.record_id !== this.record) return;
    try {
      this.state = fromReplay(message, { follow: this.ownSeat(message) });
      this.phase = "shown";
    } catch (error) {
      if (!(error instanceof BadReplay)) throw error;
      this.ctx.document.defaultView?.console?.warn?.("replay:", error.message);
      this.phase = "failed";
      this.problem = "profile.replay.failed";
    }
    this.render();
  }

  /**
   * The seat the profile held played in the replay's match, when the record names it: followed first.
   * @param {Message} message
   * @returns {number | null}
   */
  ownSeat(message) {
    const known = this.ctx.seatIn(String(message.record_id));
    if (known !== null) return known;
    const mine = this.ctx.playerId();
    const record = message.record && typeof message.record === "object" ? /** @type {Record<string, unknown>} */ (message.record) : {};
    const seats = Array.isArray(record.seats) ? record.seats : [];
    const own = mine ? seats.findIndex((s) => !!s && typeof s === "object" && /** @type {Record<string, unknown>} */ (s).player === mine) : -1;
    return own >= 0 ? own : null;
  }

  /** @param {string} code the error code of a refused `get_replay` */
  refused(code) {
    if (!this.record || this.phase === "shown") return;
    this.phase = "failed";
    this.problem = code === "unknown_record" ? "profile.replay.unknown" : `errors.${code}`;
    this.render();
  }

  /** @param {ReplayMessage} message */
  dispatch(message) {
    if (!this.state) return;
    const next = reduce(this.state, message);
    if (next === this.state) return;
    this.state = next;
    this.render();
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (!this.state || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
    const step = KEYS[event.key];
    if (!step) return;
    event.preventDefault();
    this.dispatch(step);
  }

  /** Words the screen again in the language chosen. */
  setLanguage() {
    if (this.table) {
      this.table.destroy();
      this.table = null;
      this.tableSeat = null;
    }
    if (this.record) this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    const { t, has } = this.ctx.words();
    // back where the player came from: the table, the history (with a profile), else the lobby
    const [href, label] = this.ctx.tableOpen() ? [this.ctx.tableLink(), "profile.back_table"]
      : this.ctx.playerId() ? ["#/history", "profile.replay.back"] : ["#/", "profile.back"];
    const back = h("a", { className: "page-back link-button", attrs: { href }, text: t(label) });
    const state = this.state;
    if (!state || this.phase !== "shown") {
      const problem = this.problem && (has(this.problem) ? this.problem : "errors.unknown");
      this.table?.destroy();
      this.table = null;
      this.tableSeat = null;
      this.root.replaceChildren(h("div", { className: "page page-replay" }, back,
        h("section", { className: "panel page-panel" },
          h("h1", { className: "page-title", attrs: { tabindex: -1 }, text: t("profile.replay.title_plain") }),
          problem
            ? h("p", { className: "page-status page-alert", attrs: { role: "alert" }, text: t(problem) })
            : h("p", { className: "muted", attrs: { role: "status" }, text: t("profile.replay.loading") }),
          problem ? h("button", { attrs: { type: "button" }, text: t("profile.replay.retry"), on: { click: () => this.open(this.record ?? "") } }) : null)));
      return;
    }
    let page = /** @type {HTMLElement | null} */ (this.root.querySelector(".page-replay.ready"));
    if (!page) {
      page = this.build(back);
    }
    this.fill(page, state);
  }

  /**
   * The screen's lasting parts: the heading, the controls, the table's root and the side.
   * @param {HTMLElement} back
   */
  build(back) {
    const { t } = this.ctx.words();
    const state = /** @type {ReplayState} */ (this.state);
    const control = (/** @type {string} */ focusKey, /** @type {string} */ label, /** @type {string} */ sign, /** @type {ReplayMessage} */ step, /** @type {string} */ keys) =>
      h("button", {
        className: "replay-step",
        attrs: { type: "button", "aria-label": label, title: label, "aria-keyshortcuts": keys },
        dataset: { focusKey, step: step.type },
        text: sign,
        on: { click: () => this.dispatch(step) },
      });
    const followId = uid("replay-follow");
    const dealId = uid("replay-deal");
    const game = this.ctx.gameName(state.game);
    const tableRoot = h("div", { className: "table-root replay-table" });
    const page = h("div", { className: "page page-replay ready" },
      back,
      h("div", { className: "replay-head" },
        h("h1", { className: "page-title", attrs: { tabindex: -1 }, text: t("profile.replay.title", { game }) }),
        h("button", { className: "link-button", attrs: { type: "button" }, text: t("profile.replay.copy_link"), on: { click: () => void this.ctx.copyLink() } })),
      h("div", { className: "replay-controls", attrs: { role: "toolbar", "aria-label": t("profile.replay.controls") } },
        control("first", t("profile.replay.first"), "|◀", { type: "first" }, "Home"),
        control("back", t("profile.replay.back_step"), "◀", { type: "back" }, "ArrowLeft"),
        h("span", { className: "replay-where", attrs: { "aria-live": "polite" } }),
        control("forward", t("profile.replay.forward"), "▶", { type: "forward" }, "ArrowRight"),
        control("last", t("profile.replay.last"), "▶|", { type: "last" }, "End"),
        h("button", { className: "replay-note", attrs: { type: "button" }, dataset: { step: "next_note" }, text: t("profile.replay.next_note"), on: { click: () => this.dispatch({ type: "next_note" }) } }),
        state.deals.length > 1
          ? h("span", { className: "field inline" },
            h("label", { attrs: { for: dealId }, text: t("profile.replay.deal") }),
            h("select", { className: "replay-deal", attrs: { id: dealId }, on: { change: (/** @type {Event} */ e) => this.dispatch({ type: "deal", deal: Number(/** @type {HTMLSelectElement} */ (e.target).value) }) } },
              state.deals.map((deal) => h("option", { attrs: { value: deal }, text: t("profile.replay.deal_number", { number: deal + 1 }) }))))
          : null,
        h("span", { className: "field inline" },
          h("label", { attrs: { for: followId }, text: t("profile.replay.follow") }),
          h("select", { className: "replay-follow", attrs: { id: followId }, on: { change: (/** @type {Event} */ e) => this.dispatch({ type: "follow", seat: Number(/** @type {HTMLSelectElement} */ (e.target).value) }) } },
            state.seats.map((_, seat) => h("option", { attrs: { value: seat }, text: this.seatName(seat) }))))),
      h("p", { className: "muted replay-keys", text: t("profile.replay.keys") }),
      h("div", { className: "replay-body" },
        tableRoot,
        h("aside", { className: "replay-side" },
          h("section", { className: "replay-move", attrs: { "aria-live": "polite" } }),
          h("section", { className: "replay-hands" }),
          h("section", { className: "replay-tally" }))));
    this.table?.destroy();
    this.table = null;
    this.tableSeat = null;
    this.root.replaceChildren(page);
    return page;
  }

  /** @param {number} seat */
  seatName(seat) {
    const { t, has, lang } = this.ctx.words();
    const info = this.state?.seats[seat];
    if (!info) return t("table.seat", { number: seat + 1 });
    if (info.deleted) return t("profile.deleted_player");
    return displaySafe(displayName(info, { t, has, lang }, seat)) || t("profile.deleted_player");
  }

  /**
   * Draws the position shown into the screen's parts.
   * @param {HTMLElement} page
   * @param {ReplayState} state
   */
  fill(page, state) {
    const { t, catalogue } = this.ctx.words();
    const views = viewsNow(state);
    const players = state.seats.map((_, seat) => this.seatName(seat));
    const deck = state.deck && catalogue.decks?.[state.deck] ? catalogue.decks[state.deck] : null;
    const cardName = (/** @type {string} */ code) => deck?.cards?.[code] ?? code;
    const names = new Names(t, cardName, players, null);
    const over = state.at === state.steps.length;
    const room = {
      room: state.record, code: "", game: state.game, deck: state.deck ?? undefined, public: false,
      state: "playing",
      seats: state.seats.map((seat, i) => ({ name: players[i], kind: seat.kind, bot: seat.bot ?? undefined })),
    };
    const tableRoot = /** @type {HTMLElement} */ (page.querySelector(".replay-table"));
    if (!this.table || this.tableSeat !== state.follow) {
      this.table?.destroy();
      this.table = new TableView(tableRoot, {
        t, lang: this.ctx.words().lang, catalogue, game: state.game, deck: state.deck ?? undefined,
        suitSystem: deck?.suit_system || "french", seat: state.follow, room,
        send: () => null, cardName, onLeave: () => {}, openRules: (game) => this.ctx.openRules(game), sessionId: null,
        replay: true,
      });
      this.tableSeat = state.follow;
    }
    this.table.snapshot({ type: "snapshot", room, seat: state.follow, seq: state.at, view: views[state.follow] });
    // the hand drawn is the followed seat's, not the viewer's own
    const handLabel = tableRoot.querySelector(".tv-hand-label");
    if (handLabel) handLabel.textContent = t("profile.replay.hand_of", { name: players[state.follow] });
    tableRoot.dataset.at = String(state.at);

    const where = /** @type {HTMLElement} */ (page.querySelector(".replay-where"));
    where.textContent = state.at === 0 ? t("profile.replay.start") : t("profile.replay.step", { at: state.at, count: state.steps.length });
    for (const button of page.querySelectorAll("button.replay-step")) {
      const kind = /** @type {HTMLElement} */ (button).dataset.step;
      /** @type {HTMLButtonElement} */ (button).disabled = (kind === "first" || kind === "back") ? state.at === 0 : over;
    }
    const deal = /** @type {HTMLSelectElement | null} */ (page.querySelector("select.replay-deal"));
    if (deal) deal.value = String(dealNow(state));
    /** @type {HTMLSelectElement} */ (page.querySelector("select.replay-follow")).value = String(state.follow);

    // the move just played, in the log's words, and what the strong bot made of it
    const move = /** @type {HTMLElement} */ (page.querySelector(".replay-move"));
    const now = stepNow(state);
    move.replaceChildren(h("h2", { text: t("profile.replay.move") }));
    if (!now) {
      move.append(h("p", { className: "muted", text: t("profile.replay.start") }));
    } else {
      const lines = describeEvents(state.game, names, stepEvents(state.game, now.step, now.before[now.step.seat]), {});
      move.append(h("p", { className: "replay-sentence", text: lines.join(" ") || t("profile.replay.move_of", { name: players[now.step.seat] }) }));
      move.append(this.analysisNote(now, names, state));
    }
    if (over) move.append(h("p", { className: "replay-over", text: t("profile.replay.over") }));

    // every other seat's hand, face up
    const hands = /** @type {HTMLElement} */ (page.querySelector(".replay-hands"));
    const pack = { names, suitSystem: deck?.suit_system || "french", rankScheme: deck?.rank_scheme, nothing: t("table.cards.nothing") };
    const kit = drawKit(pack);
    hands.replaceChildren(h("h2", { text: t("profile.replay.hands") }),
      ...state.seats.flatMap((_, seat) => {
        if (seat === state.follow) return [];
        const hand = Array.isArray(views[seat]?.hand) ? /** @type {string[]} */ (views[seat].hand) : [];
        return [h("div", { className: "replay-hand", dataset: { seat: String(seat) } },
          h("h3", { text: t("profile.replay.hand_of", { name: players[seat] }) }),
          kit.cards(hand, { small: true, empty: true }))];
      }));

    // how the people's moves went beside the strong bot's choices
    const tallies = /** @type {HTMLElement} */ (page.querySelector(".replay-tally"));
    const rows = state.seats.flatMap((seat, i) => {
      const counted = tally(state, i);
      return seat.kind === "human" && counted.analysed
        ? [h("p", { text: t("profile.replay.tally", { name: players[i], differs: counted.differs, count: counted.analysed }) })]
        : [];
    });
    tallies.replaceChildren(...(rows.length ? [h("h2", { text: t("profile.replay.analysis") }), ...rows] : []));
  }

  /**
   * The strong bot's view of a person's move.
   * @param {NonNullable<ReturnType<typeof stepNow>>} now
   * @param {Names} names
   * @param {ReplayState} state
   */
  analysisNote(now, names, state) {
    const { t } = this.ctx.words();
    const kind = mark(now.analysis);
    if (kind === null) {
      return h("p", { className: "analysis analysis-none muted", text: t("profile.replay.not_analysed") });
    }
    if (kind === "forced") {
      return h("p", { className: "analysis analysis-forced", dataset: { mark: kind } }, h("span", { className: "analysis-sign", attrs: { "aria-hidden": "true" }, text: "□" }), " ", t("profile.replay.forced"));
    }
    if (kind === "agrees") {
      return h("p", { className: "analysis analysis-agrees", dataset: { mark: kind } }, h("span", { className: "analysis-sign", attrs: { "aria-hidden": "true" }, text: "✓" }), " ", t("profile.replay.agrees"));
    }
    const best = /** @type {NonNullable<typeof now.analysis>} */ (now.analysis).best;
    const bestStep = { ...now.step, action: best };
    const said = moveWords(state.game, names, bestStep.action, now.before[now.step.seat]);
    return h("p", { className: "analysis analysis-differs", dataset: { mark: kind } },
      h("span", { className: "analysis-sign", attrs: { "aria-hidden": "true" }, text: "?!" }), " ",
      t("profile.replay.differs", { move: said }));
  }
}

/**
 * A move as the move menu names it ("play the 7 of coins", "take 3 + 4 with 7", "bid 2").
 * @param {string} game
 * @param {Names} names
 * @param {Record<string, unknown>} action
 * @param {Record<string, unknown>} view the mover's view before it
 */
export function moveWords(game, names, action, view) {
  const module = gameModule(game);
  const extra = module.extra ? module.extra(names, view, action) : null;
  if (extra) return extra.label;
  const label = module.moveLabel ? module.moveLabel(names, view, action) : null;
  if (label) return label;
  if (Array.isArray(action.cards)) return names.cards(action.cards);
  return names.t("moves.play", { card: names.card(action.play) });
}
