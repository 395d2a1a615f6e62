/**
 * The create-room form, in a modal dialog: the game, its deck and options,
 * how many seats wait for people, the bots' level, a private room and a turn
 * timer. `roomFields` (lobby_state.js) turns what was typed into the
 * `create_room` request or says what is wrong.
 */
import { h, uid } from "./dom.js";
import { FormProblem, chosenLevel, deckTexts, decksFor, gameName, levelTexts, levelsFor, roomFields } from "./lobby_state.js";

/**
 * @typedef {import("./lobby_state.js").LobbyState} LobbyState
 * @typedef {import("./lobby_state.js").ServerCatalogue} ServerCatalogue
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("./lobby_state.js").Translate} Translate
 * @typedef {import("../protocol/codec.js").Message} Message
 *
 * @typedef {object} CreatePort what the form needs of the lobby
 * @property {Document} document
 * @property {() => LobbyState} state
 * @property {() => { t: Translate, has: (key: string) => boolean, lang: string, texts: TextCatalogue }} words
 * @property {(key: string | null, args?: Record<string, unknown>) => void} status
 * @property {(message: Message) => unknown} send
 */

/** The create-room form, in its dialog. */
export class CreateRoomDialog {
  /** @param {CreatePort} lobby */
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
    lobby.document.body.appendChild(this.dialog);
    const state = lobby.state();
    this.values = this.initialValues(state.game, state.deck);
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
      botLevel: chosenLevel(this.lobby.state(), game),
      private: false,
      timer: "",
      rated: false,
    };
  }

  /** @param {HTMLElement | null} opener */
  open(opener) {
    this.opener = opener;
    const state = this.lobby.state();
    this.values = this.initialValues(state.game, state.deck);
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
    const state = lobby.state();
    const words = lobby.words();
    const { t, has, lang, texts } = words;
    const catalogue = /** @type {ServerCatalogue} */ (state.catalogue);
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

    const gameSelect = select(catalogue.games.map((g) => [g.id, gameName(state, texts, g.id)]), values.game, (game) => {
      this.values = { ...this.initialValues(game, decksFor(catalogue, game)[0] ?? ""), private: values.private, timer: values.timer };
      this.fill();
      /** @type {HTMLElement | null} */ (this.dialog.querySelector("select"))?.focus();
    });
    const deckSelect = select(decksFor(catalogue, values.game).map((id) => {
      const deck = deckTexts(state, texts, id);
      return [id, deck.place ? `${deck.name} · ${deck.place}` : deck.name];
    }), values.deck, (deck) => {
      values.deck = deck;
    });
    const optionFields = Object.entries(defaults).map(([name, value]) => {
      const label = has(`options.${values.game}.${name}`) ? t(`options.${values.game}.${name}`) : name;
      const about = has(`options.${values.game}.${name}.about`) ? t(`options.${values.game}.${name}.about`) : undefined;
      const shown = typeof value === "number" ? new Intl.NumberFormat(lang).format(value) : String(value);
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
      Array.from({ length: players + 1 }, (_, n) => [String(n), n === 0 ? t("web.create.humans.none") : new Intl.NumberFormat(lang).format(n)]),
      String(values.humans),
      (n) => { values.humans = Number(n); },
    );
    const levels = levelsFor(catalogue, values.game);
    const levelAbout = () => levelTexts(state, words, values.game, values.botLevel).about;
    const level = select(levels.map((l) => [l, levelTexts(state, words, values.game, l).name]), values.botLevel, (l) => {
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
    // a rated room needs a profile of everyone seated in it: offered to a player who has one
    const ratedBox = state.profile ? h("input", {
      attrs: { type: "checkbox", id: uid("rated") },
      props: { checked: values.rated },
      on: { change: (/** @type {Event} */ event) => { values.rated = /** @type {HTMLInputElement} */ (event.target).checked; } },
    }) : null;
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
          lobby.status("lobby.doing.create", { game: gameName(state, texts, values.game) });
          lobby.send({ type: "create_room", ...fields, rated: ratedBox !== null && values.rated });
        },
      },
    },
    field(t("forms.create.game"), gameSelect),
    field(t("forms.create.deck"), deckSelect),
    ...optionFields,
    field(t("forms.create.humans"), humans),
    field(t("forms.create.bots"), level, levelAbout()),
    h("div", { className: "field checkbox-field" }, privateBox, h("label", { attrs: { for: privateBox.id }, text: t("forms.create.private") })),
    ratedBox
      ? h("div", { className: "field checkbox-field" }, ratedBox, h("label", { attrs: { for: ratedBox.id }, text: t("profile.create_room.rated") }))
      : null,
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
