/**
 * The lobby: the four games and their deck traditions, the ways into a game
 * (play now against bots, quick match with people, a room of one's own, a
 * room code) and the open rooms.
 *
 * Games, decks, options and bot levels come from the server's `catalogue`;
 * their names and descriptions from the served message catalogue, in the
 * player's language (the server's own words only for what the catalogue does
 * not know). Games and decks are radio groups (arrow keys move and choose),
 * the open rooms a table whose rows arrow keys step through.
 *
 * The pure parts (`roomFields`, `decksFor`, `levelsFor`, `previewCards`,
 * `seatText`) are tested under Node.
 */
import { backSvg, cardSvg } from "../cards/cards.js";
import { displaySafe, h, normalizeCode, CODE_LENGTH, stepIndex, svgFragment, uid } from "./dom.js";

export const MIN_TURN_SECONDS = 5;
export const MAX_TURN_SECONDS = 600;
export const ROOMS_LIMIT = 50;
/** Seconds between two refreshes of the open rooms while the lobby shows. */
export const ROOMS_REFRESH = 5;

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {{ id: string, name?: string, players: number, options?: Record<string, unknown> }} GameInfo
 * @typedef {{ id: string, name?: string, cards?: number, suit_system?: string, games?: ({ id: string } | string)[], default_for?: string[] }} DeckInfo
 * @typedef {{ id: string, game?: string, level: string, name?: string, description?: string }} BotInfo
 * @typedef {{ games: GameInfo[], decks: DeckInfo[], bots: BotInfo[] }} ServerCatalogue
 * @typedef {{ name: string, place?: string, description?: string, suit_system: string, rank_scheme?: string, cards: Record<string, string> }} DeckTexts
 * @typedef {{ lang: string, messages: Record<string, string>, games?: Record<string, string>, decks?: Record<string, DeckTexts>, language_names?: Record<string, string>, languages?: string[] }} TextCatalogue
 * @typedef {{ room: string, code?: string | null, game: string, deck?: string | null, options?: Record<string, unknown>, public?: boolean, state?: string, seats?: { name?: string | null, kind?: string, bot?: string }[], turn_seconds?: number | null }} RoomInfo
 */

// ------------------------------------------------------------------ pure parts

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
 * The bot levels `game` has, in the server's order.
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
  const order = ["random", "basic", "strong"];
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
 * A seat of a room as the rooms list shows it: the player's name (made safe
 * to show), or what waits there.
 * @param {{ name?: string | null, kind?: string }} seat
 * @param {Translate} t
 */
export function seatText(seat, t) {
  if (seat.name) {
    return displaySafe(seat.name);
  }
  switch (seat.kind) {
    case "bot":
      return t("lobby.seat.bot");
    case "human":
      return t("lobby.seat.human");
    default:
      return t("lobby.seat.open");
  }
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

// ------------------------------------------------------------------ the page

/**
 * @typedef {{
 *   document: Document,
 *   t: Translate,
 *   has: (key: string) => boolean,
 *   lang: string,
 *   texts: TextCatalogue,
 *   levels: Record<string, string>,
 *   send: (message: Record<string, unknown>) => number | null,
 *   openRules: (game: string) => void,
 *   onLevelChosen: (game: string, level: string) => void,
 *   onNameChange: (name: string) => boolean,
 *   name: string,
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
    /** @type {ServerCatalogue | null} */
    this.catalogue = null;
    /** @type {RoomInfo[] | null} null until the first answer */
    this.rooms = null;
    this.game = "";
    this.deck = "";
    this.online = false;
    /** @type {{ key: string, args: Record<string, unknown>, alert: boolean } | null} */
    this.statusLine = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.refreshTimer = null;
    /** @type {CreateRoomDialog | null} */
    this.createDialog = null;
    /** @type {Map<string, DocumentFragment>} pack pictures drawn, by language, name, suits and ranks */
    this.packs = new Map();
    /** @type {{ key: string, deck: ReturnType<Lobby["deckTexts"]>, fan: HTMLElement }[]} */
    this.packsToDraw = [];
    this.render();
  }

  get t() {
    return this.ctx.t;
  }

  /**
   * @param {Translate} t
   * @param {(key: string) => boolean} has
   * @param {string} lang
   * @param {TextCatalogue} texts
   */
  setLanguage(t, has, lang, texts) {
    Object.assign(this.ctx, { t, has, lang, texts });
    const focused = this.focusKey();
    this.render();
    this.restoreFocus(focused);
    this.createDialog?.setLanguage();
  }

  /** @param {ServerCatalogue} catalogue */
  setCatalogue(catalogue) {
    this.catalogue = catalogue;
    const games = catalogue.games.map((g) => g.id);
    if (!games.includes(this.game)) {
      this.game = games[0] ?? "";
      this.deck = "";
    }
    const decks = decksFor(catalogue, this.game);
    if (!decks.includes(this.deck)) {
      this.deck = decks[0] ?? "";
    }
    const focused = this.focusKey();
    this.render();
    this.restoreFocus(focused);
  }

  /** @param {RoomInfo[]} rooms */
  setRooms(rooms) {
    this.rooms = rooms;
    const focused = this.focusKey();
    const section = this.root.querySelector(".rooms-section");
    if (section) {
      section.replaceWith(this.roomsSection());
    }
    this.restoreFocus(focused);
  }

  /** @param {boolean} online */
  setOnline(online) {
    this.online = online;
    for (const element of this.root.querySelectorAll("[data-needs-server]")) {
      /** @type {HTMLButtonElement} */ (element).disabled = !online || !this.catalogue;
    }
    if (online) {
      this.startRefreshing();
    } else {
      this.stopRefreshing();
    }
  }

  /**
   * The lobby's status line: what it is doing, or what went wrong (read out at once).
   * @param {string | null} key a catalogue key; null clears the line
   * @param {Record<string, unknown>} [args]
   * @param {{ alert?: boolean }} [options]
   */
  status(key, args = {}, options = {}) {
    this.statusLine = key ? { key, args, alert: options.alert ?? false } : null;
    const line = this.root.querySelector(".lobby-status");
    if (line) {
      this.fillStatus(/** @type {HTMLElement} */ (line));
    }
  }

  /** @param {HTMLElement} line */
  fillStatus(line) {
    const status = this.statusLine;
    line.textContent = status ? this.t(status.key, status.args) : "";
    line.classList.toggle("problem", Boolean(status?.alert));
  }

  /** Shown again (after a table): refresh at once and every few seconds. */
  shown() {
    this.refresh();
    this.startRefreshing();
  }

  /** Hidden behind a table: stop refreshing. */
  hidden() {
    this.stopRefreshing();
    this.createDialog?.close();
  }

  startRefreshing() {
    if (this.refreshTimer === null && this.online && !this.root.hidden) {
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
    if (this.online && !this.root.hidden && this.ctx.document.visibilityState !== "hidden") {
      this.ctx.send({ type: "list_rooms", limit: ROOMS_LIMIT });
    }
  }

  destroy() {
    this.stopRefreshing();
    this.createDialog?.close();
  }

  // -------------------------------------------------------------- names

  /** @param {string} game */
  gameName(game) {
    return this.ctx.texts.games?.[game] ?? this.catalogue?.games.find((g) => g.id === game)?.name ?? game;
  }

  /** @param {string | null | undefined} deck */
  deckTexts(deck) {
    const own = deck ? this.ctx.texts.decks?.[deck] : undefined;
    const server = this.catalogue?.decks.find((d) => d.id === deck);
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

  /**
   * A bot level's name and what it plays like in `game`.
   * @param {string} game
   * @param {string} level
   */
  levelTexts(game, level) {
    const { t, has } = this.ctx;
    const bot = this.catalogue?.bots.find((b) => b.level === level && (b.game === undefined || b.game === game));
    return {
      name: has(`bots.level.${level}`) ? t(`bots.level.${level}`) : bot?.name ?? level,
      about: has(`bots.about.${game}.${level}`) ? t(`bots.about.${game}.${level}`) : bot?.description ?? "",
    };
  }

  /** @param {string} game */
  level(game) {
    return pickLevel(levelsFor(this.catalogue, game), this.ctx.levels[game]);
  }

  // -------------------------------------------------------------- focus kept across a re-render

  /** An identifier of the focused control that survives a re-render. */
  focusKey() {
    const active = this.ctx.document.activeElement;
    if (!active || !this.root.contains(active)) {
      return null;
    }
    return /** @type {HTMLElement} */ (active).dataset.focusKey ?? null;
  }

  /** @param {string | null} key */
  restoreFocus(key) {
    if (!key) {
      return;
    }
    const again = /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`));
    again?.focus();
  }

  // -------------------------------------------------------------- rendering

  render() {
    const t = this.t;
    const name = this.nameForm();
    const content = this.catalogue
      ? [this.gamesSection(), this.decksSection(), this.playSection(), this.roomsSection()]
      : [h("p", { className: "lobby-waiting muted", attrs: { role: "status" }, text: t("web.lobby.waiting") })];
    this.root.replaceChildren(
      h("h1", { className: "visually-hidden", text: t("web.lobby.title") }),
      name,
      h("div", { className: "lobby-grid" }, ...content),
    );
    this.setOnline(this.online);
  }

  nameForm() {
    const t = this.t;
    const id = uid("name");
    const problemId = uid("name-problem");
    const input = h("input", {
      attrs: { id, type: "text", maxlength: 32, autocomplete: "nickname", spellcheck: "false", "aria-describedby": problemId },
      dataset: { focusKey: "name" },
      props: { value: this.ctx.name },
    });
    const problem = h("p", { className: "field-problem", attrs: { id: problemId, "aria-live": "polite" } });
    const form = h("form", {
      className: "name-form",
      on: {
        submit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          const typed = input.value.normalize("NFC").trim();
          if (typed === this.ctx.name) {
            return;
          }
          if (!this.ctx.onNameChange(typed)) {
            problem.textContent = t("web.name.problem");
            input.setAttribute("aria-invalid", "true");
            input.focus();
            return;
          }
          problem.textContent = "";
          input.removeAttribute("aria-invalid");
          this.ctx.name = typed;
        },
      },
    },
    h("label", { attrs: { for: id }, text: t("web.name.label") }),
    h("div", { className: "inline-field" }, input,
      h("button", { attrs: { type: "submit" }, dataset: { focusKey: "name-save" }, text: t("web.name.save") })),
    problem);
    return form;
  }

  gamesSection() {
    const t = this.t;
    const catalogue = /** @type {ServerCatalogue} */ (this.catalogue);
    const headingId = uid("games");
    const group = h("div", { className: "choice-list games-list", attrs: { role: "radiogroup", "aria-labelledby": headingId } });
    for (const game of catalogue.games) {
      const usual = decksFor(catalogue, game.id)[0];
      const deck = this.deckTexts(usual);
      const nameId = uid("game-name");
      const detailId = uid("game-detail");
      // named by the game alone, its player count as its description: the picture is not read
      const input = h("input", {
        className: "visually-hidden",
        attrs: { type: "radio", name: "lobby-game", value: game.id, "aria-labelledby": nameId, "aria-describedby": detailId },
        dataset: { focusKey: `game-${game.id}` },
        props: { checked: game.id === this.game },
        on: { change: () => this.chooseGame(game.id) },
      });
      group.append(h("label", { className: "choice game-choice" },
        input,
        this.pack(deck),
        h("span", { className: "choice-text" },
          h("span", { className: "choice-name", attrs: { id: nameId }, text: this.gameName(game.id) }),
          h("span", { className: "choice-detail", attrs: { id: detailId }, text: t("web.lobby.players", { count: game.players }) }))));
    }
    return h("section", { className: "panel games-section", attrs: { "aria-labelledby": headingId } },
      h("h2", { attrs: { id: headingId }, text: t("lobby.games") }),
      group);
  }

  decksSection() {
    const t = this.t;
    const headingId = uid("decks");
    const aboutId = uid("deck-about");
    const group = h("div", {
      className: "choice-list decks-list",
      attrs: { role: "radiogroup", "aria-labelledby": headingId, "aria-describedby": aboutId },
    });
    const decks = decksFor(this.catalogue, this.game);
    decks.forEach((id, index) => {
      const deck = this.deckTexts(id);
      const nameId = uid("deck-name");
      const detailId = uid("deck-detail");
      const input = h("input", {
        className: "visually-hidden",
        attrs: { type: "radio", name: "lobby-deck", value: id, "aria-labelledby": nameId, "aria-describedby": detailId },
        dataset: { focusKey: `deck-${id}` },
        props: { checked: id === this.deck },
        on: { change: () => this.chooseDeck(id) },
      });
      group.append(h("label", { className: "choice deck-choice" },
        input,
        this.pack(deck),
        h("span", { className: "choice-text" },
          h("span", { className: "choice-name", attrs: { id: nameId }, text: deck.name }),
          h("span", { className: "choice-text", attrs: { id: detailId } },
            h("span", { className: "choice-detail", text: deck.place }),
            h("span", { className: "choice-detail" },
              t("web.lobby.deck_cards", { count: deck.count }),
              index === 0 ? h("span", { className: "badge", text: t("web.lobby.deck_usual") }) : null)))));
    });
    const chosen = this.deckTexts(this.deck);
    return h("section", { className: "panel decks-section", attrs: { "aria-labelledby": headingId } },
      h("h2", { attrs: { id: headingId }, text: t("lobby.decks") }),
      group,
      h("p", { className: "deck-about muted", attrs: { id: aboutId }, text: chosen.description }));
  }

  /**
   * A small fan of a pack's cards, drawn in its own ranks (the catalogue's `rank_scheme`).
   *
   * Drawing every pack's cards was about 45 ms of a cold load's path to an interactive lobby,
   * so a pack not drawn yet is drawn just after the frame that shows the lobby, and kept:
   * the lobby draws itself again on every choice, and a clone is all that costs then.
   * @param {ReturnType<Lobby["deckTexts"]>} deck
   */
  pack(deck) {
    const fan = h("span", {
      className: "pack",
      attrs: { role: "img", "aria-label": this.t("web.lobby.deck_picture", { deck: deck.name }) },
    });
    // the cards carry their names in the player's language (hidden from assistive technology,
    // but still the page's words): a pack is kept per language
    const key = `${this.ctx.lang}|${deck.name}|${deck.suitSystem}|${deck.rankScheme ?? ""}`;
    const drawn = this.packs.get(key);
    if (drawn) {
      fan.append(drawn.cloneNode(true));
      return fan;
    }
    const view = this.ctx.document.defaultView;
    if (!view) {
      fan.append(this.drawPack(key, deck).cloneNode(true));
      return fan;
    }
    this.packsToDraw.push({ key, deck, fan });
    if (this.packsToDraw.length === 1) {
      // a timeout set from an animation frame runs once that frame is on the screen
      view.requestAnimationFrame(() => view.setTimeout(() => this.drawPacks(), 0));
    }
    return fan;
  }

  /** Draws the packs the last renders left empty (those still on the page or not). */
  drawPacks() {
    const waiting = this.packsToDraw;
    this.packsToDraw = [];
    for (const { key, deck, fan } of waiting) {
      fan.append((this.packs.get(key) ?? this.drawPack(key, deck)).cloneNode(true));
    }
  }

  /**
   * A pack's cards, drawn once and kept under `key`.
   * @param {string} key
   * @param {ReturnType<Lobby["deckTexts"]>} deck
   * @returns {DocumentFragment}
   */
  drawPack(key, deck) {
    const cards = this.ctx.document.createDocumentFragment();
    const codes = previewCards(Object.keys(deck.cards));
    const look = deck.rankScheme ? { rankScheme: deck.rankScheme } : {}; // the served catalogue's, else the suit system's own
    try {
      if (codes.length === 0) {
        cards.append(svgFragment(backSvg({ className: "pack-card" })));
      }
      for (const code of codes) {
        cards.append(svgFragment(cardSvg(code, deck.suitSystem, { className: "pack-card", ...look, label: deck.cards[code] ?? code })));
      }
    } catch {
      cards.replaceChildren(svgFragment(backSvg({ className: "pack-card" })));
    }
    for (const svg of cards.querySelectorAll("svg")) {
      svg.setAttribute("aria-hidden", "true");
      svg.removeAttribute("role");
    }
    this.packs.set(key, cards);
    return cards;
  }

  playSection() {
    const t = this.t;
    const game = this.game;
    const headingId = uid("play");
    const levels = levelsFor(this.catalogue, game);
    const chosenLevel = this.level(game);
    const aboutId = uid("level-about");
    const levelAbout = h("p", { className: "level-about muted", attrs: { id: aboutId }, text: this.levelTexts(game, chosenLevel).about });
    const levelGroup = h("fieldset", { className: "level-group", attrs: { "aria-describedby": aboutId } },
      h("legend", { text: t("web.lobby.bot_level") }),
      h("div", { className: "segmented" }, ...levels.map((level) => h("label", { className: "segment" },
        h("input", {
          attrs: { type: "radio", name: "lobby-level", value: level },
          dataset: { focusKey: `level-${level}` },
          props: { checked: level === chosenLevel },
          on: {
            change: () => {
              this.ctx.levels[game] = level;
              this.ctx.onLevelChosen(game, level);
              levelAbout.textContent = this.levelTexts(game, level).about;
            },
          },
        }),
        h("span", { text: this.levelTexts(game, level).name })))));

    const button = (/** @type {string} */ focusKey, /** @type {string} */ label, /** @type {string} */ about, /** @type {() => void} */ action, primary = false) => {
      const aboutTextId = uid("about");
      return h("div", { className: "action" },
        h("button", {
          className: primary ? "primary big" : "big",
          attrs: { type: "button", "aria-describedby": aboutTextId, "data-needs-server": true },
          dataset: { focusKey },
          text: label,
          on: { click: action },
        }),
        h("p", { className: "action-about muted", attrs: { id: aboutTextId }, text: about }));
    };

    const status = h("p", { className: "lobby-status", attrs: { role: "status", "aria-live": "polite" } });
    this.fillStatus(status);
    return h("section", { className: "panel play-section", attrs: { "aria-labelledby": headingId } },
      h("div", { className: "section-head" },
        h("h2", { attrs: { id: headingId }, text: t("web.lobby.play_game", { game: this.gameName(game) }) }),
        h("button", {
          className: "link-button",
          attrs: { type: "button", "aria-label": t("rules.title", { game: this.gameName(game) }) },
          dataset: { focusKey: "rules" },
          text: t("web.rules.open"),
          on: { click: () => this.ctx.openRules(game) },
        })),
      levelGroup,
      levelAbout,
      h("div", { className: "actions" },
        button("play-now", t("web.lobby.play_now"), t("web.lobby.play_now.about"), () => this.playNow(), true),
        button("quick-match", t("web.lobby.quick_match"), t("web.lobby.quick_match.about"), () => this.quickMatch()),
        button("create", t("web.lobby.create"), t("web.lobby.create.about"), () => this.openCreate())),
      this.codeForm(),
      status);
  }

  codeForm() {
    const t = this.t;
    const id = uid("code");
    const problemId = uid("code-problem");
    const input = h("input", {
      className: "code-input",
      attrs: {
        id,
        type: "text",
        inputmode: "text",
        autocomplete: "off",
        autocapitalize: "characters",
        spellcheck: "false",
        maxlength: 16,
        placeholder: t("forms.code.placeholder", { example: "KX4P-7MQ2" }),
        "aria-describedby": problemId,
      },
      dataset: { focusKey: "code" },
    });
    const problem = h("p", { className: "field-problem", attrs: { id: problemId, "aria-live": "polite" } });
    const go = (/** @type {"join" | "watch"} */ how) => {
      const code = normalizeCode(input.value);
      if (!code) {
        problem.textContent = t("forms.code.problem", { least: CODE_LENGTH, most: CODE_LENGTH });
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      problem.textContent = "";
      input.removeAttribute("aria-invalid");
      this.byCode(code, how);
    };
    return h("form", {
      className: "code-form",
      attrs: { "aria-labelledby": `${id}-legend` },
      on: {
        submit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          go(event.submitter?.dataset.how === "watch" ? "watch" : "join");
        },
      },
    },
    h("h3", { attrs: { id: `${id}-legend` }, text: t("web.lobby.code.title") }),
    h("label", { attrs: { for: id }, text: t("web.lobby.code.label") }),
    h("div", { className: "inline-field" },
      input,
      h("button", { attrs: { type: "submit", "data-needs-server": true }, dataset: { how: "join", focusKey: "code-join" }, text: t("web.lobby.join") }),
      h("button", { attrs: { type: "submit", "data-needs-server": true }, dataset: { how: "watch", focusKey: "code-watch" }, text: t("web.lobby.watch") })),
    problem);
  }

  roomsSection() {
    const t = this.t;
    const headingId = uid("rooms");
    const head = h("div", { className: "section-head" },
      h("h2", { attrs: { id: headingId }, text: t("web.lobby.rooms") }),
      h("button", {
        className: "link-button",
        attrs: { type: "button", "data-needs-server": true },
        dataset: { focusKey: "refresh" },
        text: t("web.lobby.refresh"),
        on: { click: () => this.refresh() },
      }));
    const section = h("section", { className: "panel rooms-section", attrs: { "aria-labelledby": headingId } }, head);
    const rooms = this.rooms;
    if (rooms === null) {
      section.append(h("p", { className: "muted", text: t("web.lobby.rooms_loading") }));
      return section;
    }
    if (rooms.length === 0) {
      section.append(h("p", { className: "rooms-empty", text: t("web.lobby.no_rooms") }));
      return section;
    }
    section.append(h("p", { className: "muted rooms-count", text: t("web.lobby.rooms_count", { count: rooms.length }) }));
    const columns = [
      t("lobby.column.code"), t("lobby.column.game"), t("lobby.column.deck"), t("lobby.column.seats"), t("lobby.column.state"),
    ];
    const body = h("tbody");
    for (const room of rooms) {
      const code = displaySafe(room.code ?? "");
      const deck = this.deckTexts(room.deck);
      const state = room.state && this.ctx.has(`lobby.state.${room.state}`) ? this.ctx.t(`lobby.state.${room.state}`) : displaySafe(room.state ?? "");
      const seats = (room.seats ?? []).map((seat) => seatText(seat, t)).join(", ");
      const open = (room.seats ?? []).some((seat) => !seat.name && seat.kind !== "bot");
      const joinable = open && room.state === "waiting";
      const timer = typeof room.turn_seconds === "number" ? t("web.lobby.timer", { count: Math.round(room.turn_seconds) }) : null;
      body.append(h("tr", {},
        h("th", { attrs: { scope: "row" }, className: "room-code", text: code }),
        h("td", { attrs: { "data-label": columns[1] } }, this.gameName(room.game), timer ? h("span", { className: "room-timer muted", text: timer }) : null),
        h("td", { attrs: { "data-label": columns[2] }, text: deck.name }),
        h("td", { attrs: { "data-label": columns[3] }, text: seats }),
        h("td", { attrs: { "data-label": columns[4] }, text: state }),
        h("td", { className: "room-actions" },
          joinable
            ? h("button", {
              className: "primary",
              attrs: { type: "button", "aria-label": t("web.lobby.join_room", { code }), "data-needs-server": true },
              dataset: { focusKey: `join-${room.room}` },
              text: t("web.lobby.join"),
              on: { click: () => this.joinRoom(room) },
            })
            : null,
          h("button", {
            attrs: { type: "button", "aria-label": t("web.lobby.watch_room", { code }), "data-needs-server": true },
            dataset: { focusKey: `watch-${room.room}` },
            text: t("web.lobby.watch"),
            on: { click: () => this.watchRoom(room) },
          }))));
    }
    body.addEventListener("keydown", (event) => this.stepRows(event));
    const table = h("table", { className: "rooms-table", attrs: { "aria-labelledby": headingId } },
      h("thead", {}, h("tr", {},
        ...columns.map((label) => h("th", { attrs: { scope: "col" }, text: label })),
        h("th", { attrs: { scope: "col" } }, h("span", { className: "visually-hidden", text: t("web.lobby.column.actions") })))),
      body);
    section.append(h("div", { className: "table-scroll" }, table));
    return section;
  }

  /**
   * Up and down arrows move between the rooms' rows, keeping the column (Join or Watch).
   * @param {KeyboardEvent} event
   */
  stepRows(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const row = target.closest("tr");
    const body = row?.parentElement;
    if (!row || !body) {
      return;
    }
    const rows = [...body.children];
    const next = stepIndex(event.key, rows.indexOf(row), rows.length, "vertical");
    if (next === null) {
      return;
    }
    const buttons = [...row.querySelectorAll("button")];
    const column = buttons.indexOf(/** @type {HTMLButtonElement} */ (target));
    const targets = [...rows[next].querySelectorAll("button")];
    const watch = column === buttons.length - 1;
    const goal = watch ? targets[targets.length - 1] : targets[0];
    if (goal) {
      event.preventDefault();
      goal.focus();
    }
  }

  // -------------------------------------------------------------- choices and requests

  /** @param {string} game */
  chooseGame(game) {
    if (game === this.game) {
      return;
    }
    this.game = game;
    this.deck = decksFor(this.catalogue, game)[0] ?? "";
    const focused = this.focusKey();
    this.render();
    this.restoreFocus(focused);
  }

  /** @param {string} deck */
  chooseDeck(deck) {
    this.deck = deck;
    const about = this.root.querySelector(".deck-about");
    if (about) {
      about.textContent = this.deckTexts(deck).description;
    }
  }

  playNow() {
    const game = this.game;
    this.status("lobby.doing.play_now", { game: this.gameName(game) });
    this.ctx.send({ type: "play_now", game, bot_level: this.level(game), deck: this.deck || null, options: {} });
  }

  quickMatch() {
    this.status("lobby.doing.quick_match", { game: this.gameName(this.game) });
    this.ctx.send({ type: "quick_match", game: this.game });
  }

  /**
   * @param {string} code
   * @param {"join" | "watch"} how
   */
  byCode(code, how) {
    if (how === "join") {
      this.status("lobby.doing.join_code", { code });
      this.ctx.send({ type: "join_room", code });
    } else {
      this.status("lobby.doing.watch_code", { code });
      this.ctx.send({ type: "spectate", code });
    }
  }

  /** @param {RoomInfo} room */
  joinRoom(room) {
    this.status("lobby.doing.join");
    this.ctx.send({ type: "join_room", room: room.room });
  }

  /** @param {RoomInfo} room */
  watchRoom(room) {
    this.status("lobby.doing.watch_code", { code: displaySafe(room.code ?? "") });
    this.ctx.send({ type: "spectate", room: room.room });
  }

  openCreate() {
    if (!this.catalogue) {
      return;
    }
    if (!this.createDialog) {
      this.createDialog = new CreateRoomDialog(this);
    }
    this.createDialog.open(/** @type {HTMLElement | null} */ (this.ctx.document.activeElement));
  }
}

/** The create-room form, in a modal dialog. */
class CreateRoomDialog {
  /** @param {Lobby} lobby */
  constructor(lobby) {
    this.lobby = lobby;
    this.dialog = h("dialog", { className: "dialog create-dialog grain-surface" });
    /** @type {HTMLElement | null} */
    this.opener = null;
    this.dialog.addEventListener("close", () => this.opener?.focus());
    this.dialog.addEventListener("keydown", (event) => {
      if (event.key === "s" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.dialog.querySelector("form")?.requestSubmit();
      }
    });
    lobby.ctx.document.body.appendChild(this.dialog);
    this.values = this.initialValues(lobby.game, lobby.deck);
  }

  /**
   * @param {string} game
   * @param {string} deck
   */
  initialValues(game, deck) {
    return {
      game,
      deck,
      /** @type {Record<string, string>} */
      options: {},
      humans: 1,
      botLevel: this.lobby.level(game),
      private: false,
      timer: "",
    };
  }

  /** @param {HTMLElement | null} opener */
  open(opener) {
    this.opener = opener;
    this.values = this.initialValues(this.lobby.game, this.lobby.deck);
    this.fill();
    this.dialog.showModal();
    /** @type {HTMLElement | null} */ (this.dialog.querySelector("select, input"))?.focus();
  }

  close() {
    if (this.dialog.open) {
      this.dialog.close();
    }
  }

  setLanguage() {
    if (this.dialog.open) {
      this.fill();
    }
  }

  fill() {
    const lobby = this.lobby;
    const { t, has } = lobby.ctx;
    const catalogue = /** @type {ServerCatalogue} */ (lobby.catalogue);
    const values = this.values;
    const info = catalogue.games.find((g) => g.id === values.game) ?? catalogue.games[0];
    const defaults = info?.options ?? {};
    const titleId = uid("create-title");
    const problemId = uid("create-problem");
    const problem = h("p", { className: "field-problem form-problem", attrs: { id: problemId, role: "alert" } });

    /**
     * @param {string} label
     * @param {HTMLElement} control
     * @param {string} [about]
     */
    const field = (label, control, about) => {
      const id = control.id || uid("field");
      control.id = id;
      const aboutId = about ? uid("field-about") : null;
      if (aboutId) {
        control.setAttribute("aria-describedby", aboutId);
      }
      return h("div", { className: "field" },
        h("label", { attrs: { for: id }, text: label }),
        control,
        about ? h("p", { className: "field-about muted", attrs: { id: aboutId }, text: about }) : null);
    };
    /**
     * @param {[string, string][]} choices
     * @param {string} value
     * @param {(value: string) => void} onChange
     */
    const select = (choices, value, onChange) => h("select", {
      on: { change: (/** @type {Event} */ event) => onChange(/** @type {HTMLSelectElement} */ (event.target).value) },
    }, ...choices.map(([v, label]) => h("option", { attrs: { value: v, selected: v === value }, text: label })));

    const gameSelect = select(catalogue.games.map((g) => [g.id, lobby.gameName(g.id)]), values.game, (game) => {
      this.values = { ...this.initialValues(game, decksFor(catalogue, game)[0] ?? ""), private: values.private, timer: values.timer };
      this.fill();
      /** @type {HTMLElement | null} */ (this.dialog.querySelector("select"))?.focus();
    });
    const deckSelect = select(decksFor(catalogue, values.game).map((id) => {
      const deck = lobby.deckTexts(id);
      return [id, deck.place ? `${deck.name} · ${deck.place}` : deck.name];
    }), values.deck, (deck) => {
      values.deck = deck;
    });
    const optionFields = Object.entries(defaults).map(([name, value]) => {
      const label = has(`options.${values.game}.${name}`) ? t(`options.${values.game}.${name}`) : name;
      const about = has(`options.${values.game}.${name}.about`) ? t(`options.${values.game}.${name}.about`) : undefined;
      const shown = typeof value === "number" ? new Intl.NumberFormat(lobby.ctx.lang).format(value) : String(value);
      const input = h("input", {
        attrs: {
          type: "text",
          inputmode: typeof value === "number" ? "numeric" : "text",
          placeholder: t("forms.create.option.default", { value: shown }),
          "data-option": name,
        },
        props: { value: values.options[name] ?? "" },
        on: { input: (/** @type {Event} */ event) => { values.options[name] = /** @type {HTMLInputElement} */ (event.target).value; } },
      });
      input.id = `create-option-${name}`;
      return field(label, input, about);
    });
    const players = info?.players ?? 2;
    const humans = select(
      Array.from({ length: players + 1 }, (_, n) => [String(n), n === 0 ? t("web.create.humans.none") : new Intl.NumberFormat(lobby.ctx.lang).format(n)]),
      String(values.humans),
      (n) => { values.humans = Number(n); },
    );
    const levels = levelsFor(catalogue, values.game);
    const levelAbout = () => lobby.levelTexts(values.game, values.botLevel).about;
    const level = select(levels.map((l) => [l, lobby.levelTexts(values.game, l).name]), values.botLevel, (l) => {
      values.botLevel = l;
      const about = level.parentElement?.querySelector(".field-about");
      if (about) {
        about.textContent = levelAbout();
      }
    });
    const privateBox = h("input", {
      attrs: { type: "checkbox", id: uid("private") },
      props: { checked: values.private },
      on: { change: (/** @type {Event} */ event) => { values.private = /** @type {HTMLInputElement} */ (event.target).checked; } },
    });
    const timer = h("input", {
      attrs: { type: "text", inputmode: "decimal", id: "create-timer", placeholder: t("forms.create.timer.placeholder") },
      props: { value: values.timer },
      on: { input: (/** @type {Event} */ event) => { values.timer = /** @type {HTMLInputElement} */ (event.target).value; } },
    });

    const form = h("form", {
      attrs: { novalidate: true, "aria-describedby": problemId },
      on: {
        submit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          for (const invalid of form.querySelectorAll("[aria-invalid]")) {
            invalid.removeAttribute("aria-invalid");
          }
          let fields;
          try {
            fields = roomFields({
              game: values.game,
              deck: values.deck || null,
              options: values.options,
              defaults,
              humans: values.humans,
              botLevel: values.botLevel || null,
              private: values.private,
              timer: values.timer,
              optionName: (name) => (has(`options.${values.game}.${name}`) ? t(`options.${values.game}.${name}`) : name),
            });
          } catch (error) {
            if (!(error instanceof FormProblem)) {
              throw error;
            }
            problem.textContent = t(error.key, error.args);
            const culprit = /** @type {HTMLElement | null} */ (form.querySelector(error.field === "timer" ? "#create-timer" : `#create-${error.field}`));
            culprit?.setAttribute("aria-invalid", "true");
            culprit?.focus();
            return;
          }
          this.close();
          lobby.status("lobby.doing.create", { game: lobby.gameName(values.game) });
          lobby.ctx.send({ type: "create_room", ...fields });
        },
      },
    },
    field(t("forms.create.game"), gameSelect),
    field(t("forms.create.deck"), deckSelect),
    ...optionFields,
    field(t("forms.create.humans"), humans),
    field(t("forms.create.bots"), level, levelAbout()),
    h("div", { className: "field checkbox-field" }, privateBox, h("label", { attrs: { for: privateBox.id }, text: t("forms.create.private") })),
    field(t("forms.create.timer"), timer),
    problem,
    h("div", { className: "dialog-buttons" },
      h("button", { attrs: { type: "button" }, text: t("forms.create.button.cancel"), on: { click: () => this.close() } }),
      h("button", { className: "primary", attrs: { type: "submit" }, text: t("forms.create.button.create") })));

    this.dialog.setAttribute("aria-labelledby", titleId);
    this.dialog.replaceChildren(
      h("div", { className: "dialog-head" },
        h("h2", { attrs: { id: titleId }, text: t("web.create.title") }),
        h("button", {
          className: "dialog-close",
          attrs: { type: "button", "aria-label": t("forms.create.button.cancel") },
          text: "×",
          on: { click: () => this.close() },
        })),
      form);
  }
}
