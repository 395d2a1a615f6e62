// The table's log, kept in the tab's session storage while the page is loaded again.
//
// A snapshot carries the view, never what happened before it: a table opened
// afresh for a room (a reload, the seat resumed) would show only the lines
// that come after it. So the table writes its log — the data it is worded
// from, never the words — under one key of `sessionStorage` each time it
// grows, and a table opened for the same room takes it back before its first
// snapshot. One room per tab, so one key; the table removes it when the room
// is left. Storage that refuses (private modes, a full quota) keeps nothing:
// the log then starts afresh, as it did before.

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").LogEntry} LogEntry
 * @typedef {{getItem: (key: string) => string | null, setItem: (key: string, value: string) => void,
 *   removeItem: (key: string) => void}} Keeper  what is used of `sessionStorage`
 * @typedef {{log: LogEntry[], memo: Record<string, unknown>}} KeptLog
 */

/** The one key the log is kept under. */
export const LOG_KEY = "cardavia.table.log";

/**
 * The window's session storage, behind a wrapper that never throws; null where there is none.
 * @param {Window | null | undefined} win
 * @returns {Keeper | null}
 */
export function sessionStore(win) {
  /** @type {Storage | null} */
  let storage;
  try {
    storage = win ? win.sessionStorage : null;
  } catch {
    storage = null; // a browser that refuses the page any storage
  }
  if (!storage) return null;
  const store = storage;
  return {
    getItem: (key) => {
      try {
        return store.getItem(key);
      } catch {
        return null;
      }
    },
    setItem: (key, value) => {
      try {
        store.setItem(key, value);
      } catch {
        // full: the log is not kept
      }
    },
    removeItem: (key) => {
      try {
        store.removeItem(key);
      } catch {
        // nothing to do
      }
    },
  };
}

/**
 * Keeps the table's log for its room.
 * @param {Keeper | null} keeper
 * @param {TableState} state
 */
export function keepLog(keeper, state) {
  const room = state.room.room;
  if (!keeper || !room) return;
  keeper.setItem(LOG_KEY, JSON.stringify({ room, log: state.log, memo: state.memo }));
}

/**
 * The log kept for this room, if any.
 * @param {Keeper | null} keeper
 * @param {string | undefined} room the room's id
 * @returns {KeptLog | null}
 */
export function keptLog(keeper, room) {
  if (!keeper || !room) return null;
  const text = keeper.getItem(LOG_KEY);
  if (!text) return null;
  try {
    const data = JSON.parse(text);
    if (!data || data.room !== room || !Array.isArray(data.log)) return null;
    const log = data.log.filter((/** @type {unknown} */ e) => {
      const entry = /** @type {Record<string, unknown> | null} */ (e);
      return !!entry && typeof entry === "object" && typeof entry.kind === "string" && !!entry.say && typeof entry.say === "object";
    });
    const memo = data.memo && typeof data.memo === "object" && !Array.isArray(data.memo) ? data.memo : {};
    return log.length ? { log, memo } : null;
  } catch {
    return null;
  }
}
