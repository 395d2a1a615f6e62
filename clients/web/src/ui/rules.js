/**
 * The rules of each game, in the player's language, in a dialog over the
 * lobby or the table: `openRules("scopa")`.
 *
 * The text is the server's own (`GET /rules/<game>?lang=xx`, Markdown, the
 * same texts the terminal client shows), rendered by `markdown.js` (markdown-it)
 * and never inserted as markup. When a language has no text yet the server
 * answers in English with `Content-Language: en`, and the dialog says so.
 */
import { h, uid } from "./dom.js";
import { render } from "./markdown.js";

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {{
 *   document: Document,
 *   fetch: typeof fetch,
 *   t: Translate,
 *   lang: string,
 *   gameName: (game: string) => string,
 * }} RulesContext
 */

/** @type {RulesContext | null} */
let context = null;
/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {string | null} the game the dialog shows */
let shown = null;
/** @type {Map<string, { markdown: string, lang: string } | "missing">} texts already fetched, by game and language */
const cache = new Map();
/** Counts openings, so a slow answer for an earlier one is dropped. */
let generation = 0;

/**
 * Tells the rules dialog how to fetch and in which language to speak; called
 * at start and again on every change of language (an open dialog follows).
 * @param {RulesContext} next
 */
export function configureRules(next) {
  const changed = context !== null && context.lang !== next.lang;
  context = next;
  if (changed && dialog?.open && shown) {
    void show(shown);
  }
}

/**
 * The address of a game's rules in a language.
 * @param {string} game
 * @param {string} lang
 */
export function rulesUrl(game, lang) {
  return `/rules/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`;
}

/**
 * Opens the rules of `game` (a game id such as `scopa`), focused on the
 * dialog's heading; Escape or the close button closes it and focus returns to
 * what had it before.
 * @param {string} game
 */
export function openRules(game) {
  if (!context) {
    return;
  }
  const document = context.document;
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!dialog) {
    dialog = h("dialog", { className: "dialog rules-dialog grain-surface" });
    document.body.appendChild(dialog);
  }
  dialog.onclose = () => {
    shown = null;
    if (opener && document.contains(opener)) {
      opener.focus();
    }
  };
  void show(game);
  if (!dialog.open) {
    dialog.showModal();
  }
  /** @type {HTMLElement | null} */ (dialog.querySelector("h2"))?.focus();
}

/** Closes the rules, if they are open. */
export function closeRules() {
  dialog?.close();
}

/**
 * Fills the dialog for `game`: the frame at once, the text when it arrives.
 * @param {string} game
 */
async function show(game) {
  if (!context || !dialog) {
    return;
  }
  generation += 1;
  const mine = generation;
  shown = game;
  const { t, lang } = context;
  const titleId = uid("rules-title");
  const title = h("h2", { attrs: { id: titleId, tabindex: -1 }, text: t("rules.title", { game: context.gameName(game) }) });
  const body = h("div", { className: "rules-body", attrs: { "aria-busy": "true" } },
    h("p", { className: "muted", text: t("web.rules.loading") }));
  const close = h("button", {
    className: "dialog-close",
    attrs: { type: "button", "aria-label": t("web.rules.close") },
    text: "×",
    on: { click: () => closeRules() },
  });
  const footer = h("div", { className: "dialog-buttons" },
    h("button", { className: "primary", attrs: { type: "button" }, text: t("web.rules.close"), on: { click: () => closeRules() } }));
  dialog.setAttribute("aria-labelledby", titleId);
  dialog.replaceChildren(h("div", { className: "dialog-head" }, title, close), body, footer);

  const key = `${game}\u0000${lang}`;
  let text = cache.get(key);
  if (!text) {
    try {
      const response = await context.fetch(rulesUrl(game, lang), { headers: { Accept: "text/markdown" } });
      if (response.status === 404) {
        text = "missing";
      } else if (!response.ok) {
        throw new Error(`HTTP ${response.status}`);
      } else {
        text = {
          markdown: await response.text(),
          lang: (response.headers.get("Content-Language") || lang).split(",")[0].trim().toLowerCase(),
        };
      }
      cache.set(key, text);
    } catch {
      if (mine === generation && context) {
        const retry = h("button", { attrs: { type: "button" }, text: context.t("web.rules.retry"), on: { click: () => void show(game) } });
        body.replaceChildren(h("p", { className: "problem", attrs: { role: "alert" }, text: context.t("web.rules.failed") }), retry);
        body.removeAttribute("aria-busy");
      }
      return;
    }
  }
  if (mine !== generation || !context) {
    return; // the dialog moved on to another game or language meanwhile
  }
  body.removeAttribute("aria-busy");
  if (text === "missing") {
    body.replaceChildren(h("p", { text: context.t("rules.missing") }));
    return;
  }
  const parts = [];
  if (text.lang !== context.lang) {
    parts.push(h("p", { className: "notice-inline", text: context.t("rules.in_english") }));
  }
  const article = h("article", { className: "markdown", attrs: { lang: text.lang } });
  article.appendChild(render(text.markdown, context.document, { headingOffset: 1, dropTitle: true }));
  parts.push(article);
  body.replaceChildren(...parts);
}
