/**
 * Small DOM building blocks for the page shell and the lobby.
 *
 * Every word a person reads goes in as a text node (`h()` children, `text`),
 * never as markup, so a player's name or a room's seat list can never become
 * HTML. The only markup inserted is the SVG the card module draws itself.
 * Nothing here touches `document` when the module is loaded, so the pure
 * functions (`displaySafe`, `normalizeCode`, `roomFromHash`…) run under Node's
 * test runner too.
 */

/** What `displaySafe` shows in place of a character the server would refuse. */
export const REPLACEMENT = "\ufffd";

// Control characters (Cc), invisible format characters (Cf: the bidirectional
// marks, embeddings, overrides and isolates are all Cf), line and paragraph
// separators and lone surrogates; except ZERO WIDTH NON-JOINER and ZERO WIDTH
// JOINER, which Persian and Indic writing and emoji sequences need; and the
// invisible fillers (U+034F and the Hangul fillers). The same rule as
// `cardavia.protocol.text.display_safe`.
const REFUSED = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u034f\u115f\u1160\u3164\uffa0]/gu;

/** Combining marks one character may carry: more are shown as U+FFFD (`protocol/text.py` `MAX_MARKS`). */
export const MAX_MARKS = 4;

// A combining mark, and the joiners that do not end a run of them.
const MARK = /\p{M}/u;
const JOINERS = "\u200c\u200d";

/**
 * Text another person wrote (a name, a chat line), with every character the
 * server would refuse replaced by U+FFFD: an old or hostile server cannot
 * reorder a line or hide part of a name. The replacement stays visible, so two
 * names that differ only in such characters still look different.
 * @param {unknown} text
 * @returns {string}
 */
export function displaySafe(text) {
  const safe = String(text ?? "").replace(REFUSED, REPLACEMENT);
  if (!/\p{M}/u.test(safe)) return safe;
  // marks past the fourth on one character: a stack of them would paint over the lines around it
  let run = 0;
  let out = "";
  for (const char of safe) {
    if (MARK.test(char)) {
      run += 1;
      out += run > MAX_MARKS ? REPLACEMENT : char;
    } else {
      if (!JOINERS.includes(char)) run = 0;
      out += char;
    }
  }
  return out;
}

/** The letters and digits of room codes: no I, O, 0 or 1 (protocol/README.md). */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const CODE_LENGTH = 8;

/**
 * A room code as the server writes it (`KX4P7MQ2`) from what a person typed
 * (`kx4p-7mq2`, ` KX4P 7MQ2 `), or null when it cannot be one.
 * @param {unknown} typed
 * @returns {string | null}
 */
export function normalizeCode(typed) {
  const code = String(typed ?? "").replace(/[\s-]+/g, "").toUpperCase();
  if (code.length !== CODE_LENGTH) {
    return null;
  }
  for (const char of code) {
    if (!CODE_ALPHABET.includes(char)) {
      return null;
    }
  }
  return code;
}

/**
 * The room code a page address's fragment names (`#/room/KX4P7MQ2`), or null.
 * The code is returned as written there (normalised when it is a valid code),
 * so the page can say which code in a link was wrong.
 * @param {string} hash `location.hash`, with or without its `#`
 * @returns {{ code: string, valid: boolean } | null}
 */
export function roomFromHash(hash) {
  const match = /^#?\/room\/([^/?#]*)\/?$/.exec(hash || "");
  if (!match) {
    return null;
  }
  let written;
  try {
    written = decodeURIComponent(match[1]);
  } catch {
    written = match[1];
  }
  const code = normalizeCode(written);
  return code ? { code, valid: true } : { code: written.slice(0, 40), valid: false };
}

/**
 * The profile's screens and the replay that the page's address names:
 * `#/profile`, `#/leaderboard`, `#/history`, `#/replay/<record id>`; null for
 * anything else (the lobby, a room).
 * @param {string} hash `location.hash`, with or without its `#`
 * @returns {{ page: "profile" | "leaderboard" | "history" } | { page: "replay", record: string } | null}
 */
export function pageFromHash(hash) {
  const plain = /^#?\/(profile|leaderboard|history)\/?$/.exec(hash || "");
  if (plain) {
    return { page: /** @type {"profile" | "leaderboard" | "history"} */ (plain[1]) };
  }
  const replay = /^#?\/replay\/([^/?#]+)\/?$/.exec(hash || "");
  if (!replay) {
    return null;
  }
  let record;
  try {
    record = decodeURIComponent(replay[1]);
  } catch {
    return null;
  }
  return /^[A-Za-z0-9_.:-]{1,64}$/.test(record) ? { page: "replay", record } : null;
}

/**
 * The shareable address of a room: this page with `#/room/CODE`.
 * @param {{ origin: string, pathname: string, search?: string }} location
 * @param {string} code
 * @returns {string}
 */
export function roomLink(location, code) {
  return `${location.origin}${location.pathname}${location.search ?? ""}#/room/${encodeURIComponent(code)}`;
}

/**
 * The server's WebSocket address: always the page's own host (`ws://` beside
 * `http://`, `wss://` beside `https://`). Nothing in the address bar can point
 * the page at another server: a link that could would hand that server the
 * player's resume token, which is their seat.
 * @param {{ protocol: string, host: string, search?: string }} location
 * @returns {string}
 */
export function serverUrl(location) {
  const secure = location.protocol === "https:";
  return `${secure ? "wss" : "ws"}://${location.host || "127.0.0.1:8765"}/`;
}

/**
 * @typedef {{
 *   className?: string,
 *   text?: string,
 *   attrs?: Record<string, string | number | boolean | null | undefined>,
 *   on?: Record<string, (event: any) => void>,
 *   dataset?: Record<string, string>,
 *   props?: Record<string, unknown>,
 * }} Props
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * An element: `h("button", { className: "primary", on: { click } }, t("web.lobby.join"))`.
 * Attributes whose value is null, undefined or false are left out; true gives
 * an empty attribute. Children that are strings become text nodes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  if (props.className) {
    element.className = props.className;
  }
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const [name, value] of Object.entries(props.dataset ?? {})) {
    element.dataset[name] = value;
  }
  for (const [name, value] of Object.entries(props.props ?? {})) {
    Reflect.set(element, name, value);
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(type, listener);
  }
  if (props.text !== undefined) {
    element.textContent = props.text;
  }
  append(element, ...children);
  return element;
}

/**
 * Appends children (nodes, strings as text, nested arrays; null and false skipped).
 * @param {Node} parent
 * @param {...(Child | Child[])} children
 */
export function append(parent, ...children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * Empties an element and fills it again.
 * @param {Element} element
 * @param {...(Child | Child[])} children
 */
export function replaceChildren(element, ...children) {
  element.textContent = "";
  append(element, ...children);
}

/**
 * SVG markup the card module drew, as a node to insert. Only our own drawings
 * go through here, never text from a server or a person.
 * @param {string} markup
 * @returns {DocumentFragment}
 */
export function svgFragment(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  return template.content;
}

let idCounter = 0;
/**
 * A fresh element id, for `for`/`aria-labelledby`/`aria-describedby` links.
 * @param {string} prefix
 */
export function uid(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/**
 * Which item keyboard navigation moves to from `index` in a list of `count`
 * items: arrows step (and wrap), Home and End jump. Null for any other key.
 * @param {string} key `KeyboardEvent.key`
 * @param {number} index
 * @param {number} count
 * @param {"vertical" | "horizontal" | "both"} orientation
 * @returns {number | null}
 */
export function stepIndex(key, index, count, orientation = "both") {
  if (count <= 0) {
    return null;
  }
  const back = orientation === "horizontal" ? ["ArrowLeft"] : orientation === "vertical" ? ["ArrowUp"] : ["ArrowUp", "ArrowLeft"];
  const forward = orientation === "horizontal" ? ["ArrowRight"] : orientation === "vertical" ? ["ArrowDown"] : ["ArrowDown", "ArrowRight"];
  if (back.includes(key)) {
    return (index - 1 + count) % count;
  }
  if (forward.includes(key)) {
    return (index + 1) % count;
  }
  if (key === "Home") {
    return 0;
  }
  if (key === "End") {
    return count - 1;
  }
  return null;
}
