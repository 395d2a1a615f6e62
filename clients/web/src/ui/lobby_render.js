/**
 * The lobby drawn from its state (lobby_state.js): the player's name, the
 * games and their decks, the ways into a game with the bot level, a room
 * code, and the open rooms. Games and decks are radio groups (arrow keys
 * move and choose), the open rooms a table whose rows arrow keys step
 * through.
 *
 * Every function here reads a `Scene` (the state, the words, the pack
 * pictures) and hands what the player does to the scene's `LobbyInput`
 * (lobby_input.js); none changes the state itself.
 */
import { displaySafe, h, normalizeCode, CODE_LENGTH, uid } from "./dom.js";
import { displayName } from "../protocol/names.js";
import {
  canAsk, chosenLevel, deckTexts, decksFor, gameName, joinable, levelTexts, levelsFor,
} from "./lobby_state.js";

/**
 * Rated or casual, for play now and quick match: offered with a profile; without one, a
 * line that says where to make one.
 * @param {Scene} scene
 */
function ratedGroup(scene) {
  const { state, t } = scene;
  if (!state.profile) {
    return h("p", { className: "rated-offer muted" }, t("profile.lobby.no_profile"), " ",
      h("a", { className: "link-button", attrs: { href: "#/profile" }, text: t("profile.create.title") }));
  }
  const aboutId = uid("rated-about");
  const choice = (/** @type {boolean} */ rated) => h("label", { className: "segment" },
    h("input", {
      attrs: { type: "radio", name: "lobby-rated", value: rated ? "rated" : "casual" },
      dataset: { focusKey: rated ? "rated" : "casual" },
      props: { checked: state.rated === rated },
      on: { change: () => scene.input.chooseRated(rated) },
    }),
    h("span", { text: rated ? t("profile.rated_match") : t("profile.casual_match") }));
  return h("div", { className: "rated-choice" },
    h("fieldset", { className: "level-group rated-group", attrs: { "aria-describedby": aboutId } },
      h("legend", { text: t("profile.lobby.legend") }),
      h("div", { className: "segmented" }, choice(true), choice(false))),
    h("p", { className: "muted", attrs: { id: aboutId }, text: t("profile.lobby.about") }));
}

/**
 * @typedef {import("./lobby_state.js").LobbyState} LobbyState
 * @typedef {import("./lobby_state.js").ServerCatalogue} ServerCatalogue
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("./lobby_state.js").Translate} Translate
 * @typedef {import("./lobby_state.js").Deck} Deck
 * @typedef {import("./lobby_input.js").LobbyInput} LobbyInput
 *
 * @typedef {object} Scene what the lobby is drawn from
 * @property {LobbyState} state
 * @property {Translate} t
 * @property {(key: string) => boolean} has
 * @property {string} lang
 * @property {TextCatalogue} texts the served message catalogue
 * @property {(deck: Deck) => HTMLElement} pack a deck's picture (lobby_packs.js)
 * @property {LobbyInput} input
 */

/**
 * A seat of a room as the rooms list shows it: the player's name (made safe
 * to show; a bot's or a guest's in the reader's language), or what waits there.
 * @param {{ name?: string | null, kind?: string, bot?: string | null, guest?: number | null }} seat
 * @param {Translate} t
 * @param {number | null} [index] the seat's index, which a bot's name gives
 * @param {string} [lang]
 */
export function seatText(seat, t, index = null, lang = "en") {
  const name = displayName(seat, { t, lang }, index);
  if (name) {
    return displaySafe(name);
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
 * The whole lobby, into `root`.
 * @param {HTMLElement} root
 * @param {Scene} scene
 */
export function renderLobby(root, scene) {
  const t = scene.t;
  const content = scene.state.catalogue
    ? [gamesSection(scene), decksSection(scene), playSection(scene), roomsSection(scene)]
    : [h("p", { className: "lobby-waiting muted", attrs: { role: "status" }, text: t("web.lobby.waiting") })];
  root.replaceChildren(
    h("h1", { className: "visually-hidden", text: t("web.lobby.title") }),
    nameForm(scene),
    h("div", { className: "lobby-grid" }, ...content),
  );
  renderOnline(root, scene.state);
}

/**
 * The open rooms again, in place.
 * @param {HTMLElement} root
 * @param {Scene} scene
 */
export function renderRooms(root, scene) {
  root.querySelector(".rooms-section")?.replaceWith(roomsSection(scene));
  renderOnline(root, scene.state);
}

/**
 * The buttons that ask the server something, usable only while it answers.
 * @param {HTMLElement} root
 * @param {LobbyState} state
 */
export function renderOnline(root, state) {
  for (const element of root.querySelectorAll("[data-needs-server]")) {
    /** @type {HTMLButtonElement} */ (element).disabled = !canAsk(state);
  }
}

/**
 * The chosen deck's description, in place.
 * @param {HTMLElement} root
 * @param {Scene} scene
 */
export function renderDeckAbout(root, scene) {
  const about = root.querySelector(".deck-about");
  if (about) {
    about.textContent = deckTexts(scene.state, scene.texts, scene.state.deck).description;
  }
}

/**
 * The status line, in place.
 * @param {HTMLElement} root
 * @param {Scene} scene
 */
export function renderStatus(root, scene) {
  const line = root.querySelector(".lobby-status");
  if (line) {
    fillStatus(/** @type {HTMLElement} */ (line), scene);
  }
}

/**
 * @param {HTMLElement} line
 * @param {Scene} scene
 */
function fillStatus(line, scene) {
  const status = scene.state.status;
  line.textContent = status ? scene.t(status.key, status.args) : "";
  line.classList.toggle("problem", Boolean(status?.alert));
}

/** @param {Scene} scene */
function nameForm(scene) {
  const { state, t } = scene;
  const id = uid("name");
  const problemId = uid("name-problem");
  const input = h("input", {
    attrs: { id, type: "text", maxlength: 32, autocomplete: "nickname", spellcheck: "false", "aria-describedby": problemId },
    dataset: { focusKey: "name" },
    props: { value: state.name, placeholder: displayName({ guest: state.guest }, { t, lang: scene.lang }) },
  });
  const problem = h("p", { className: "field-problem", attrs: { id: problemId, "aria-live": "polite" } });
  const form = h("form", {
    className: "name-form",
    on: {
      submit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        const saved = scene.input.rename(input.value.normalize("NFC").trim());
        if (saved === null) {
          return; // the name it has
        }
        if (!saved) {
          problem.textContent = t("web.name.problem");
          input.setAttribute("aria-invalid", "true");
          input.focus();
          return;
        }
        problem.textContent = "";
        input.removeAttribute("aria-invalid");
      },
    },
  },
  h("label", { attrs: { for: id }, text: t("web.name.label") }),
  h("div", { className: "inline-field" }, input,
    h("button", { attrs: { type: "submit" }, dataset: { focusKey: "name-save" }, text: t("web.name.save") })),
  problem);
  return form;
}

/** @param {Scene} scene */
function gamesSection(scene) {
  const { state, t } = scene;
  const catalogue = /** @type {ServerCatalogue} */ (state.catalogue);
  const headingId = uid("games");
  const group = h("div", { className: "choice-list games-list", attrs: { role: "radiogroup", "aria-labelledby": headingId } });
  for (const game of catalogue.games) {
    const usual = decksFor(catalogue, game.id)[0];
    const deck = deckTexts(state, scene.texts, usual);
    const nameId = uid("game-name");
    const detailId = uid("game-detail");
    // named by the game alone, its player count as its description: the picture is not read
    const input = h("input", {
      className: "visually-hidden",
      attrs: { type: "radio", name: "lobby-game", value: game.id, "aria-labelledby": nameId, "aria-describedby": detailId },
      dataset: { focusKey: `game-${game.id}` },
      props: { checked: game.id === state.game },
      on: { change: () => scene.input.chooseGame(game.id) },
    });
    group.append(h("label", { className: "choice game-choice" },
      input,
      scene.pack(deck),
      h("span", { className: "choice-text" },
        h("span", { className: "choice-name", attrs: { id: nameId }, text: gameName(state, scene.texts, game.id) }),
        h("span", { className: "choice-detail", attrs: { id: detailId }, text: t("web.lobby.players", { count: game.players }) }))));
  }
  return h("section", { className: "panel games-section", attrs: { "aria-labelledby": headingId } },
    h("h2", { attrs: { id: headingId }, text: t("lobby.games") }),
    group);
}

/** @param {Scene} scene */
function decksSection(scene) {
  const { state, t } = scene;
  const headingId = uid("decks");
  const aboutId = uid("deck-about");
  const group = h("div", {
    className: "choice-list decks-list",
    attrs: { role: "radiogroup", "aria-labelledby": headingId, "aria-describedby": aboutId },
  });
  const decks = decksFor(state.catalogue, state.game);
  decks.forEach((id, index) => {
    const deck = deckTexts(state, scene.texts, id);
    const nameId = uid("deck-name");
    const detailId = uid("deck-detail");
    const input = h("input", {
      className: "visually-hidden",
      attrs: { type: "radio", name: "lobby-deck", value: id, "aria-labelledby": nameId, "aria-describedby": detailId },
      dataset: { focusKey: `deck-${id}` },
      props: { checked: id === state.deck },
      on: { change: () => scene.input.chooseDeck(id) },
    });
    group.append(h("label", { className: "choice deck-choice" },
      input,
      scene.pack(deck),
      h("span", { className: "choice-text" },
        h("span", { className: "choice-name", attrs: { id: nameId }, text: deck.name }),
        h("span", { className: "choice-text", attrs: { id: detailId } },
          h("span", { className: "choice-detail", text: deck.place }),
          h("span", { className: "choice-detail" },
            t("web.lobby.deck_cards", { count: deck.count }),
            index === 0 ? h("span", { className: "badge", text: t("web.lobby.deck_usual") }) : null)))));
  });
  const chosen = deckTexts(state, scene.texts, state.deck);
  return h("section", { className: "panel decks-section", attrs: { "aria-labelledby": headingId } },
    h("h2", { attrs: { id: headingId }, text: t("lobby.decks") }),
    group,
    h("p", { className: "deck-about muted", attrs: { id: aboutId }, text: chosen.description }));
}

/** @param {Scene} scene */
function playSection(scene) {
  const { state, t } = scene;
  const game = state.game;
  const headingId = uid("play");
  const levels = levelsFor(state.catalogue, game);
  const chosen = chosenLevel(state, game);
  const aboutId = uid("level-about");
  const levelAbout = h("p", { className: "level-about muted", attrs: { id: aboutId }, text: levelTexts(state, scene, game, chosen).about });
  const levelGroup = h("fieldset", { className: "level-group", attrs: { "aria-describedby": aboutId } },
    h("legend", { text: t("web.lobby.bot_level") }),
    h("div", { className: "segmented" }, ...levels.map((level) => h("label", { className: "segment" },
      h("input", {
        attrs: { type: "radio", name: "lobby-level", value: level },
        dataset: { focusKey: `level-${level}` },
        props: { checked: level === chosen },
        on: {
          change: () => {
            scene.input.chooseLevel(game, level);
            levelAbout.textContent = levelTexts(state, scene, game, level).about;
          },
        },
      }),
      h("span", { text: levelTexts(state, scene, game, level).name })))));

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
  fillStatus(status, scene);
  return h("section", { className: "panel play-section", attrs: { "aria-labelledby": headingId } },
    h("div", { className: "section-head" },
      h("h2", { attrs: { id: headingId }, text: t("web.lobby.play_game", { game: gameName(state, scene.texts, game) }) }),
      h("button", {
        className: "link-button",
        attrs: { type: "button", "aria-label": t("rules.title", { game: gameName(state, scene.texts, game) }) },
        dataset: { focusKey: "rules" },
        text: t("web.rules.open"),
        on: { click: () => scene.input.openRules(game) },
      })),
    levelGroup,
    levelAbout,
    ratedGroup(scene),
    h("div", { className: "actions" },
      button("play-now", t("web.lobby.play_now"), t("web.lobby.play_now.about"), () => scene.input.playNow(), true),
      button("quick-match", t("web.lobby.quick_match"), t("web.lobby.quick_match.about"), () => scene.input.quickMatch()),
      button("create", t("web.lobby.create"), t("web.lobby.create.about"), () => scene.input.openCreate())),
    codeForm(scene),
    status);
}

/** @param {Scene} scene */
function codeForm(scene) {
  const t = scene.t;
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
    scene.input.byCode(code, how);
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

/** @param {Scene} scene */
function roomsSection(scene) {
  const { state, t } = scene;
  const headingId = uid("rooms");
  const head = h("div", { className: "section-head" },
    h("h2", { attrs: { id: headingId }, text: t("web.lobby.rooms") }),
    h("button", {
      className: "link-button",
      attrs: { type: "button", "data-needs-server": true },
      dataset: { focusKey: "refresh" },
      text: t("web.lobby.refresh"),
      on: { click: () => scene.input.refresh() },
    }));
  const section = h("section", { className: "panel rooms-section", attrs: { "aria-labelledby": headingId } }, head);
  const rooms = state.rooms;
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
    const deck = deckTexts(state, scene.texts, room.deck);
    const stateText = room.state && scene.has(`lobby.state.${room.state}`) ? t(`lobby.state.${room.state}`) : displaySafe(room.state ?? "");
    const seats = (room.seats ?? []).map((seat, index) => seatText(seat, t, index, scene.lang)).join(", ");
    const timer = typeof room.turn_seconds === "number" ? t("web.lobby.timer", { count: Math.round(room.turn_seconds) }) : null;
    body.append(h("tr", {},
      h("th", { attrs: { scope: "row" }, className: "room-code", text: code }),
      h("td", { attrs: { "data-label": columns[1] } }, gameName(state, scene.texts, room.game),
        room.rated ? h("span", { className: "badge rated-badge", text: t("profile.rated") }) : null,
        timer ? h("span", { className: "room-timer muted", text: timer }) : null),
      h("td", { attrs: { "data-label": columns[2] }, text: deck.name }),
      h("td", { attrs: { "data-label": columns[3] }, text: seats }),
      h("td", { attrs: { "data-label": columns[4] }, text: stateText }),
      h("td", { className: "room-actions" },
        joinable(room)
          ? h("button", {
            className: "primary",
            attrs: { type: "button", "aria-label": t("web.lobby.join_room", { code }), "data-needs-server": true },
            dataset: { focusKey: `join-${room.room}` },
            text: t("web.lobby.join"),
            on: { click: () => scene.input.joinRoom(room) },
          })
          : null,
        h("button", {
          attrs: { type: "button", "aria-label": t("web.lobby.watch_room", { code }), "data-needs-server": true },
          dataset: { focusKey: `watch-${room.room}` },
          text: t("web.lobby.watch"),
          on: { click: () => scene.input.watchRoom(room) },
        }))));
  }
  body.addEventListener("keydown", (event) => scene.input.stepRows(event));
  const table = h("table", { className: "rooms-table", attrs: { "aria-labelledby": headingId } },
    h("thead", {}, h("tr", {},
      ...columns.map((label) => h("th", { attrs: { scope: "col" }, text: label })),
      h("th", { attrs: { scope: "col" } }, h("span", { className: "visually-hidden", text: t("web.lobby.column.actions") })))),
    body);
  section.append(h("div", { className: "table-scroll" }, table));
  return section;
}
