/**
 * Every word a person reads on the page comes from the message catalogues the
 * server serves as `GET /i18n/<lang>.json` (`served_catalogue` in
 * `protocol/i18n.py`): `{"lang", "fallback", "languages", "messages"}`, where
 * `messages` maps every key to an ICU MessageFormat string, in the language
 * asked for where it has the text and in English where it has not.
 *
 * `createTranslator` formats them with `intl-messageformat`, whose plural
 * rules are the browser's CLDR data (`Intl.PluralRules`): Polish "1 punkt,
 * 2 punkty, 5 punktów" needs no rule written here, exactly as the terminal
 * client gets them from Babel. Each message is compiled once and cached.
 * Formatting matches `Texts` in `protocol/i18n.py`: tags are plain text (the
 * Python parser allows none), and a whole number in a plain `{name}`
 * placeholder is written with the language's digit grouping, as Babel's
 * `format_decimal` writes it.
 *
 * A key missing from the catalogue is looked up in the fallback catalogue
 * (English) when one is given; a key missing everywhere, or a message that
 * cannot be formatted with the arguments given, never shows a person a raw
 * key or a broken template: `t` returns an empty string and reports the
 * problem through the `onProblem` callback.
 */
import IntlMessageFormat from "intl-messageformat";

/**
 * One `Intl` formatter per locale and options, shared by every message: left to
 * itself each compiled message builds its own plural rules and number formats,
 * and building them was most of the page's start-up time (hundreds of messages
 * on the first screen). intl-messageformat takes shared formatters by design.
 * @template T
 * @param {(locales?: string | string[], options?: any) => T} make
 * @returns {(locales?: string | string[], options?: any) => T}
 */
function memoized(make) {
  /** @type {Map<string, T>} */
  const made = new Map();
  return (locales, options) => {
    const key = JSON.stringify([locales, options]);
    let formatter = made.get(key);
    if (formatter === undefined) {
      formatter = make(locales, options);
      made.set(key, formatter);
    }
    return formatter;
  };
}

const FORMATTERS = {
  getNumberFormat: memoized((locales, options) => new Intl.NumberFormat(locales, options)),
  getDateTimeFormat: memoized((locales, options) => new Intl.DateTimeFormat(locales, options)),
  getPluralRules: memoized((locales, options) => new Intl.PluralRules(locales, options)),
};

/** The languages Cardavia speaks, English first (`games.rules.LANGUAGES`). */
export const LANGUAGES = Object.freeze(["en", "it", "sv", "nb", "es", "pl"]);
export const FALLBACK = "en";

/**
 * @typedef {{ lang: string, fallback?: string, languages?: string[], messages: Record<string, string> }} Catalogue
 * @typedef {string | number | boolean | null | undefined} Arg a placeholder's value (others are written as text)
 * @typedef {{ kind: "missing" | "format", key: string, lang: string, error?: unknown }} Problem
 * @typedef {{ format: (values: Record<string, Arg>) => unknown, plain: Set<string> }} Compiled
 */

/**
 * One of `LANGUAGES` for a language tag such as `pl`, `sv-SE`, `nb_NO.UTF-8`,
 * or null. Norwegian without a written standard (`no`) and Nynorsk (`nn`)
 * read Bokmål, the one Norwegian the catalogues have.
 * @param {string | null | undefined} tag
 * @returns {string | null}
 */
export function normalize(tag) {
  if (!tag) {
    return null;
  }
  let base = tag.trim().toLowerCase().replaceAll("-", "_").split(".")[0].split("@")[0].split("_")[0];
  if (base === "no" || base === "nn") {
    base = "nb";
  }
  return LANGUAGES.includes(base) ? base : null;
}

/**
 * The page's first language: the first of the browser's languages (in the
 * order of preference it gives, e.g. `navigator.languages`) that Cardavia
 * speaks, else English.
 * @param {readonly (string | null | undefined)[] | null | undefined} preferred
 * @returns {string}
 */
export function pickLanguage(preferred) {
  for (const tag of preferred ?? []) {
    const lang = normalize(tag);
    if (lang !== null) {
      return lang;
    }
  }
  return FALLBACK;
}

/**
 * @param {Catalogue} catalogue the served catalogue of the page's language
 * @param {{ fallback?: Catalogue | null, onProblem?: (problem: Problem) => void }} [options]
 *   `fallback`: the English catalogue, for keys `catalogue` lacks (a newer page
 *   with an older server); `onProblem`: told of every key missing everywhere and
 *   every message that could not be formatted
 */
export function createTranslator(catalogue, options = {}) {
  const fallback = options.fallback ?? null;
  const onProblem = options.onProblem ?? (() => {});
  const lang = normalize(catalogue.lang) ?? FALLBACK;
  /** @type {Map<string, Compiled | null>} */
  const cache = new Map();
  /** @type {Map<string, Intl.NumberFormat>} */
  const numbers = new Map();

  /**
   * The message for `key` and the language it is in, or null.
   * @param {string} key
   * @returns {{ text: string, lang: string } | null}
   */
  function lookup(key) {
    const own = catalogue.messages;
    if (Object.hasOwn(own, key) && typeof own[key] === "string") {
      return { text: own[key], lang };
    }
    const other = fallback?.messages;
    if (other && Object.hasOwn(other, key) && typeof other[key] === "string") {
      return { text: other[key], lang: normalize(fallback?.lang) ?? FALLBACK };
    }
    return null;
  }

  /**
   * @param {string} key
   * @returns {(Compiled & { lang: string }) | null}
   */
  function compiled(key) {
    const found = lookup(key);
    if (found === null) {
      return null;
    }
    const cacheKey = `${found.lang}\u0000${key}`;
    let entry = cache.get(cacheKey);
    if (entry === undefined) {
      try {
        const format = new IntlMessageFormat(found.text, found.lang, undefined, { ignoreTag: true, formatters: FORMATTERS });
        entry = { format: (values) => format.format(values), plain: plainArguments(format.getAst()) };
      } catch (error) {
        onProblem({ kind: "format", key, lang: found.lang, error });
        entry = null;
      }
      cache.set(cacheKey, entry);
    }
    return entry === null ? null : { ...entry, lang: found.lang };
  }

  /** @param {string} locale */
  function numberFormat(locale) {
    let format = numbers.get(locale);
    if (format === undefined) {
      format = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
      numbers.set(locale, format);
    }
    return format;
  }

  /**
   * The text of `key` with `args` put in; an empty string (and a report) when it has none.
   * @param {string} key
   * @param {Record<string, unknown>} [args]
   * @returns {string}
   */
  function t(key, args = {}) {
    const entry = compiled(key);
    if (entry === null) {
      if (lookup(key) === null) {
        onProblem({ kind: "missing", key, lang });
      }
      return "";
    }
    /** @type {Record<string, Arg>} */
    const values = {};
    for (const [name, value] of Object.entries(args)) {
      if (typeof value === "number" && entry.plain.has(name)) {
        values[name] = numberFormat(entry.lang).format(value);
      } else if (value === null || value === undefined || ["string", "number", "boolean"].includes(typeof value)) {
        values[name] = /** @type {Arg} */ (value);
      } else {
        values[name] = String(value);
      }
    }
    try {
      const text = entry.format(values);
      return typeof text === "string" ? text : Array.isArray(text) ? text.join("") : String(text);
    } catch (error) {
      onProblem({ kind: "format", key, lang: entry.lang, error });
      return "";
    }
  }

  /**
   * True when a catalogue has the key (for keys built from server data, such as error codes).
   * @param {string} key
   */
  function has(key) {
    return lookup(key) !== null;
  }

  /**
   * What an error code means to a player: the catalogue's `errors.<code>`; the
   * server's own message for a code the catalogue does not know (a newer
   * server), else the general sentence `errors.unknown`.
   * @param {string} code
   * @param {string} [message]
   */
  function error(code, message = "") {
    if (has(`errors.${code}`)) {
      return t(`errors.${code}`);
    }
    return message || t("errors.unknown");
  }

  return { lang, t, has, error };
}

// Element types of the parsed message (`@formatjs/icu-messageformat-parser`'s TYPE).
const ARGUMENT = 1;
const SELECT = 5;
const PLURAL = 6;

/**
 * The names used only as plain `{name}` placeholders anywhere in a message.
 * @param {readonly unknown[]} elements
 * @returns {Set<string>}
 */
function plainArguments(elements) {
  /** @type {Set<string>} */
  const plain = new Set();
  /** @type {Set<string>} */
  const other = new Set();
  /** @param {readonly unknown[]} nodes */
  const walk = (nodes) => {
    for (const node of nodes) {
      const element = /** @type {{ type?: number, value?: unknown, options?: Record<string, { value: unknown[] }> }} */ (node);
      if (typeof element.value === "string" && element.type !== 0) {
        (element.type === ARGUMENT ? plain : other).add(element.value);
      }
      if (element.type === SELECT || element.type === PLURAL) {
        for (const option of Object.values(element.options ?? {})) {
          walk(option.value);
        }
      }
    }
  };
  walk(elements);
  for (const name of other) {
    plain.delete(name);
  }
  return plain;
}
