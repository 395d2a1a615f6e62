/**
 * What the page remembers between visits (language, name, display settings,
 * the bot level chosen for each game) and the display settings themselves:
 * Contrast, Grain and Color temperature, each a level from 0 to 100 with 50
 * as the neutral middle.
 *
 * Contrast and temperature are one CSS filter on the root element, so they
 * reach every part of the page, tables and cards included: `contrast()`, and
 * an SVG colour matrix that lifts red and lowers blue (warmer) or the other
 * way round (cooler) without turning any colour into another, which a
 * `hue-rotate()` would do to the red and black suits. Open dialogs live in
 * the top layer, which the root's filter does not reach, so base.css gives
 * them the same filter (`--page-filter`). Grain is a fixed layer over the
 * page, and a background layer of every dialog, drawn from SVG fractal noise
 * as a `data:` image (allowed by the page's Content-Security-Policy,
 * `img-src 'self' data:`); the layer lets clicks through. Nothing here sets an
 * inline style through markup: styles are set on elements from script, which
 * the policy allows.
 *
 * The pure parts (reading and writing the stored settings, the filter and
 * matrix for a level) are tested under Node.
 */
import { h, uid } from "./dom.js";
import { drawGuest, guestNumber } from "../protocol/names.js";

export const SETTINGS_KEY = "cardavia.settings";
export const DEFAULT_LEVEL = 50;
export const DISPLAY_KEYS = /** @type {const} */ (["contrast", "grain", "temperature"]);
export const TEMPERATURE_FILTER_ID = "cardavia-temperature";

/**
 * @typedef {{
 *   lang: string | null,
 *   name: string | null,
 *   guest: number | null,
 *   contrast: number,
 *   grain: number,
 *   temperature: number,
 *   levels: Record<string, string>,
 * }} Settings
 * @typedef {{ getItem(key: string): string | null, setItem(key: string, value: string): void, removeItem(key: string): void }} StorageLike
 */

const REFUSED_IN_NAME = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const BLANK = /[\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * A name as the server will take it (NFC, trimmed, 1 to 32 characters, no
 * control or invisible format characters, something visible), or null.
 * @param {unknown} typed
 * @returns {string | null}
 */
export function validName(typed) {
  const name = String(typed ?? "").normalize("NFC").trim();
  const length = [...name].length;
  if (length < 1 || length > 32 || REFUSED_IN_NAME.test(name)) {
    return null;
  }
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(name.replace(BLANK, ""))) {
    return null;
  }
  return name;
}


/**
 * The default names earlier pages drew and stored as if the player had typed them, in each of
 * the page's languages: read back as that guest number, so the player is named in the language
 * of the page they read.
 */
const OLD_DEFAULT_NAME = /^(?:Player|Spelare|Spiller|Giocatore|Jugador|Gracz) ([1-9]\d\d)$/u;

/**
 * The settings with a guest number: the one they have, or one drawn now (and stored by the
 * caller), so the player is the same "Player 563" from the first hello on and after a reload.
 * @param {Settings} settings
 * @param {{ getRandomValues(array: Uint32Array<ArrayBuffer>): unknown }} crypto
 * @returns {Settings}
 */
export function withGuest(settings, crypto) {
  return settings.guest === null ? { ...settings, guest: drawGuest(crypto) } : settings;
}

/** @returns {Settings} */
export function defaultSettings() {
  return { lang: null, name: null, guest: null, contrast: DEFAULT_LEVEL, grain: DEFAULT_LEVEL, temperature: DEFAULT_LEVEL, levels: {} };
}

/**
 * A display level: a whole number from 0 to 100 (50 for anything unreadable).
 * @param {unknown} value
 */
export function level(value) {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(number)) {
    return DEFAULT_LEVEL;
  }
  return Math.min(100, Math.max(0, Math.round(number)));
}

/**
 * The settings stored in `storage`, defaults for whatever is missing or broken.
 * @param {StorageLike | null} storage
 * @returns {Settings}
 */
export function readSettings(storage) {
  const settings = defaultSettings();
  let raw;
  try {
    raw = storage?.getItem(SETTINGS_KEY) ?? null;
  } catch {
    return settings; // storage the browser refuses to open: defaults
  }
  if (!raw) {
    return settings;
  }
  let data;
  try {
    data = JSON.parse(raw);
  } catch {
    return settings;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return settings;
  }
  if (typeof data.lang === "string") {
    settings.lang = data.lang;
  }
  settings.guest = guestNumber(data.guest);
  const drawn = typeof data.name === "string" ? OLD_DEFAULT_NAME.exec(data.name.trim()) : null;
  if (drawn && settings.guest === null) {
    settings.guest = Number(drawn[1]); // the English-only default name earlier pages stored: a guest
  } else if (typeof data.name === "string" && data.name.trim()) {
    settings.name = data.name;
  }
  for (const key of DISPLAY_KEYS) {
    if (key in data) {
      settings[key] = level(data[key]);
    }
  }
  if (data.levels && typeof data.levels === "object" && !Array.isArray(data.levels)) {
    for (const [game, chosen] of Object.entries(data.levels)) {
      if (typeof chosen === "string") {
        settings.levels[game] = chosen;
      }
    }
  }
  return settings;
}

/**
 * Stores the settings; false when the browser would not (private mode, full storage).
 * @param {StorageLike | null} storage
 * @param {Settings} settings
 */
export function writeSettings(storage, settings) {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
    return storage !== null;
  } catch {
    return false;
  }
}

/**
 * The contrast factor of a level: 50 leaves the page as it is, 0 halves the
 * contrast, 100 makes it one and a half times as strong.
 * @param {number} value
 */
export function contrastFactor(value) {
  return 0.5 + level(value) / 100;
}

/**
 * The colour matrix (`feColorMatrix` values) of a temperature level: 50 is
 * the identity; above it red rises a little and blue falls (candle light),
 * below it the other way (daylight). Each channel only scales, so the suits'
 * red stays red and black stays black.
 * @param {number} value
 * @returns {string}
 */
export function temperatureMatrix(value) {
  const warmth = (level(value) - 50) / 50; // -1 … 1
  const red = 1 + 0.08 * warmth;
  const green = 1 + 0.01 * warmth;
  const blue = 1 - 0.16 * warmth;
  const row = (/** @type {number} */ scale, /** @type {number} */ at) =>
    [0, 1, 2, 3, 4].map((column) => (column === at ? round(scale) : 0)).join(" ");
  return [row(red, 0), row(green, 1), row(blue, 2), "0 0 0 1 0"].join(" ");
}

/** @param {number} value */
function round(value) {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * The CSS filter of the root element for these settings ("none" at the defaults).
 * @param {Pick<Settings, "contrast" | "temperature">} settings
 */
export function rootFilter(settings) {
  const parts = [];
  if (level(settings.contrast) !== DEFAULT_LEVEL) {
    parts.push(`contrast(${round(contrastFactor(settings.contrast))})`);
  }
  if (level(settings.temperature) !== DEFAULT_LEVEL) {
    parts.push(`url(#${TEMPERATURE_FILTER_ID})`);
  }
  return parts.length ? parts.join(" ") : "none";
}

/**
 * How strongly the grain shows (the noise's opacity): nothing at 0, a faint
 * paper texture at the default 50, a coarse print at 100.
 * @param {number} value
 */
export function grainAlpha(value) {
  // rising faster towards the top, so the middle stays a texture and the top is coarse
  return Math.round(0.9 * (level(value) / 100) ** 1.5 * 1000) / 1000;
}

/**
 * The grain tile for a level: grey fractal noise, its contrast raised, at the
 * level's opacity, as an SVG `data:` image; null at level 0. Laid over the
 * page with the `overlay` blend, mid grey changes nothing and the noise
 * lightens and darkens around it, on light and dark colours alike.
 * @param {number} value
 * @returns {string | null}
 */
export function grainImage(value) {
  const alpha = grainAlpha(value);
  if (alpha === 0) {
    return null;
  }
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">'
    + '<filter id="n" x="0" y="0" width="100%" height="100%">'
    + '<feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="3" stitchTiles="stitch"/>'
    + `<feColorMatrix type="matrix" values="2.2 0 0 0 -0.6 2.2 0 0 0 -0.6 2.2 0 0 0 -0.6 0 0 0 0 ${alpha}"/>`
    + '</filter><rect width="100%" height="100%" filter="url(#n)"/></svg>';
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Applies the display settings to the whole page: the root's filter, the
 * colour matrix it names, and the grain layer (made on first use).
 * @param {Document} document
 * @param {Settings} settings
 */
export function applyDisplay(document, settings) {
  let defs = document.getElementById(`${TEMPERATURE_FILTER_ID}-defs`);
  if (!defs) {
    defs = /** @type {HTMLElement} */ (/** @type {unknown} */ (document.createElementNS(SVG_NS, "svg")));
    defs.id = `${TEMPERATURE_FILTER_ID}-defs`;
    defs.setAttribute("aria-hidden", "true");
    defs.setAttribute("focusable", "false");
    defs.setAttribute("class", "filter-defs");
    const filter = document.createElementNS(SVG_NS, "filter");
    filter.setAttribute("id", TEMPERATURE_FILTER_ID);
    filter.setAttribute("color-interpolation-filters", "sRGB");
    const matrix = document.createElementNS(SVG_NS, "feColorMatrix");
    matrix.setAttribute("type", "matrix");
    filter.appendChild(matrix);
    defs.appendChild(filter);
    document.body.appendChild(defs);
  }
  defs.querySelector("feColorMatrix")?.setAttribute("values", temperatureMatrix(settings.temperature));
  const root = document.documentElement;
  const filter = rootFilter(settings);
  root.style.filter = filter === "none" ? "" : filter;
  // open dialogs sit in the top layer, outside the root's filter: they take it over themselves
  root.style.setProperty("--page-filter", filter);

  let grain = document.getElementById("grain");
  if (!grain) {
    grain = document.createElement("div");
    grain.id = "grain";
    grain.className = "grain";
    grain.setAttribute("aria-hidden", "true");
    document.body.appendChild(grain);
  }
  // the same texture on the page and on open dialogs, which sit above the page's layers
  const image = grainImage(settings.grain);
  root.style.setProperty("--grain-image", image ? `url("${image}")` : "none");
  grain.hidden = image === null;
}

/**
 * The display settings dialog: three sliders, a reset button, a close button.
 * Every change applies at once and is stored.
 */
export class DisplaySettings {
  /**
   * @param {{
   *   document: Document,
   *   t: (key: string, args?: Record<string, unknown>) => string,
   *   lang: string,
   *   settings: Settings,
   *   onChange: (settings: Settings) => void,
   * }} options
   */
  constructor(options) {
    this.document = options.document;
    this.t = options.t;
    this.lang = options.lang;
    this.settings = options.settings;
    this.onChange = options.onChange;
    /** @type {HTMLDialogElement | null} */
    this.dialog = null;
    /** @type {HTMLElement | null} the control that opened the dialog, focused again when it closes */
    this.opener = null;
  }

  /**
   * @param {(key: string, args?: Record<string, unknown>) => string} t
   * @param {string} lang
   */
  setLanguage(t, lang) {
    this.t = t;
    this.lang = lang;
    if (this.dialog?.open) {
      this.fill();
    }
  }

  /** @param {HTMLElement | null} opener */
  open(opener) {
    this.opener = opener;
    if (!this.dialog) {
      this.dialog = h("dialog", { className: "dialog settings-dialog grain-surface" });
      this.dialog.addEventListener("close", () => this.opener?.focus());
      this.document.body.appendChild(this.dialog);
    }
    this.fill();
    this.dialog.showModal();
    /** @type {HTMLElement | null} */ (this.dialog.querySelector("input"))?.focus();
  }

  close() {
    this.dialog?.close();
  }

  /** Builds the dialog's content in the current language. */
  fill() {
    const dialog = /** @type {HTMLDialogElement} */ (this.dialog);
    const t = this.t;
    const titleId = uid("display-title");
    dialog.setAttribute("aria-labelledby", titleId);
    const percent = new Intl.NumberFormat(this.lang, { style: "percent" });
    const labels = {
      contrast: t("web.display.contrast"),
      grain: t("web.display.grain"),
      temperature: t("web.display.temperature"),
    };
    const ends = {
      contrast: [t("web.display.contrast.low"), t("web.display.contrast.high")],
      grain: [t("web.display.grain.low"), t("web.display.grain.high")],
      temperature: [t("web.display.temperature.low"), t("web.display.temperature.high")],
    };
    /** @type {HTMLInputElement[]} */
    const sliders = [];
    const rows = DISPLAY_KEYS.map((key) => {
      const id = uid(`display-${key}`);
      const output = h("output", { className: "slider-value", attrs: { for: id } });
      const slider = h("input", {
        attrs: { type: "range", id, min: 0, max: 100, step: 1 },
        props: { value: String(this.settings[key]) },
      });
      const show = () => {
        const value = level(slider.value);
        output.textContent = percent.format(value / 100);
        slider.setAttribute("aria-valuetext", percent.format(value / 100));
      };
      slider.addEventListener("input", () => {
        this.settings[key] = level(slider.value);
        show();
        this.onChange(this.settings);
      });
      show();
      sliders.push(slider);
      return h("div", { className: "slider-row" },
        h("label", { attrs: { for: id }, text: labels[key] }),
        output,
        h("span", { className: "slider-end", attrs: { "aria-hidden": "true" }, text: ends[key][0] }),
        slider,
        h("span", { className: "slider-end", attrs: { "aria-hidden": "true" }, text: ends[key][1] }));
    });
    const reset = h("button", {
      attrs: { type: "button" },
      text: t("web.display.reset"),
      on: {
        click: () => {
          for (const key of DISPLAY_KEYS) {
            this.settings[key] = DEFAULT_LEVEL;
          }
          this.onChange(this.settings);
          this.fill();
          /** @type {HTMLElement | null} */ (this.dialog?.querySelector("input"))?.focus();
        },
      },
    });
    const close = h("button", {
      className: "primary",
      attrs: { type: "button" },
      text: t("web.display.close"),
      on: { click: () => this.close() },
    });
    dialog.replaceChildren(
      h("h2", { attrs: { id: titleId }, text: t("web.display.title") }),
      h("p", { className: "muted", text: t("web.display.about") }),
      ...rows,
      h("div", { className: "dialog-buttons" }, reset, close),
    );
  }
}
