/**
 * What the page reads from the browser before it can word anything: the
 * served message catalogues (`GET /i18n/<lang>.json`), fetched patiently at
 * boot since the page has no words without one, and a storage for the
 * settings and the resume token that never throws.
 */

/** Longest wait between two attempts to fetch the texts, in milliseconds. */
export const LONGEST_TEXTS_WAIT = 15000;

/**
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("../protocol/ports.js").StorageLike} StorageLike
 */

/** The catalogues fetched, by language, each fetched once. */
export class Texts {
  /** @param {Window & typeof globalThis} win */
  constructor(win) {
    this.win = win;
    /** @type {Map<string, TextCatalogue>} */
    this.known = new Map();
  }

  /**
   * The served catalogue of `lang`; with `patiently`, tries again (waiting
   * longer each time) until the server answers.
   * @param {string} lang
   * @param {boolean} patiently
   * @returns {Promise<TextCatalogue>}
   */
  async load(lang, patiently) {
    const known = this.known.get(lang);
    if (known) {
      return known;
    }
    let wait = 500;
    for (;;) {
      try {
        const response = await this.win.fetch(`/i18n/${encodeURIComponent(lang)}.json`, { headers: { Accept: "application/json" } });
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        const catalogue = /** @type {TextCatalogue} */ (await response.json());
        if (!catalogue || typeof catalogue.messages !== "object") {
          throw new Error("not a catalogue");
        }
        this.known.set(lang, catalogue);
        return catalogue;
      } catch (error) {
        if (!patiently) {
          throw error;
        }
        await new Promise((resolve) => this.win.setTimeout(resolve, wait));
        wait = Math.min(LONGEST_TEXTS_WAIT, wait * 2);
      }
    }
  }
}

/**
 * The page's `localStorage`, in a wrapper that never throws (a browser may
 * refuse storage in private windows).
 * @param {Window} win
 * @returns {StorageLike}
 */
export function safeStorage(win) {
  /** @type {Storage | null} */
  let storage = null;
  try {
    storage = win.localStorage;
  } catch {
    storage = null;
  }
  return {
    getItem(key) {
      try {
        return storage?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    setItem(key, value) {
      try {
        storage?.setItem(key, value);
      } catch {
        // full or refused: the page works on, it only forgets sooner
      }
    },
    removeItem(key) {
      try {
        storage?.removeItem(key);
      } catch {
        // as above
      }
    },
  };
}
