/**
 * The requests a session waits on, and how an answer finds its request: the
 * page's counterpart of `Requests` in `protocol/client.py`.
 *
 * An answer names its request by `id`; the answers that carry none (a
 * `snapshot`, `delta` or `chat_message`, protocol/README.md, "Framing") settle
 * the oldest request waiting for that kind. An `error` settles only by id.
 */

/**
 * @typedef {import("./codec.js").Message} Message
 * @typedef {import("./ports.js").Timers} Timers
 */

/**
 * Requests whose successful answer carries no request id, and the message type that answers them.
 * @type {Readonly<Record<string, string>>}
 */
export const ANSWERED_BY = Object.freeze({
  act: "delta",
  create_room: "snapshot",
  join_room: "snapshot",
  quick_match: "snapshot",
  play_now: "snapshot",
  spectate: "snapshot",
  resync: "snapshot",
  start: "snapshot",
  rematch: "snapshot",
  chat: "chat_message",
});

/** The server refused a request: `code` is the wire error code, `reason` the engine's. */
export class RequestError extends Error {
  /** @param {Message} error the `error` message */
  constructor(error) {
    super(`${String(error.code)}: ${String(error.message ?? "")}`);
    this.name = "RequestError";
    this.error = error;
    /** @type {string} */
    this.code = String(error.code);
    /** @type {string | null} */
    this.reason = typeof error.reason === "string" ? error.reason : null;
  }
}

/** The connection dropped (or was not there) while a request waited; the session reconnects. */
export class SessionInterrupted extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "SessionInterrupted";
  }
}

/**
 * @typedef {object} Waiter
 * @property {Set<number>} ids
 * @property {string | null} kind
 * @property {(message: Message) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {unknown} timer
 */

export class Requests {
  /** @param {Timers} timers */
  constructor(timers) {
    this._timers = timers;
    /** @type {Waiter[]} */
    this._waiters = [];
    /** @type {Waiter[]} waiters for answers without an id, oldest first */
    this._byKind = [];
  }

  /**
   * Waits for the answer to a request just sent under `id`.
   * @param {Message} message
   * @param {number} id
   * @param {number} timeout seconds
   * @returns {Promise<Message>}
   */
  wait(message, id, timeout) {
    return new Promise((resolve, reject) => {
      /** @type {Waiter} */
      const waiter = { ids: new Set([id]), kind: ANSWERED_BY[message.type] ?? null, resolve, reject, timer: null };
      waiter.timer = this._timers.setTimeout(() => {
        this._forget(waiter);
        reject(new SessionInterrupted(`no answer to ${message.type} within ${timeout} s`));
      }, timeout * 1000);
      this._waiters.push(waiter);
      if (waiter.kind !== null) {
        this._byKind.push(waiter);
      }
    });
  }

  /**
   * The request sent as `id` is answered under `again` too (a join sent anew on another node).
   * @param {number} id
   * @param {number} again
   */
  alias(id, again) {
    for (const waiter of this._waiters) {
      if (waiter.ids.has(id)) {
        waiter.ids.add(again);
      }
    }
  }

  /**
   * Settles the request a message answers, if one waits for it.
   * @param {Message} message
   */
  settle(message) {
    if (typeof message.id === "number") {
      const id = message.id;
      const waiter = this._waiters.find((w) => w.ids.has(id));
      if (waiter) {
        this._resolve(waiter, message);
        return;
      }
    }
    if (message.type === "error") {
      return;
    }
    const waiter = this._byKind.find((w) => w.kind === message.type);
    if (waiter) {
      this._resolve(waiter, message);
    }
  }

  /**
   * Every request still waiting fails (the caller watches the events).
   * @param {string} reason
   */
  interrupt(reason) {
    for (const waiter of [...this._waiters]) {
      this._forget(waiter);
      waiter.reject(new SessionInterrupted(`the connection dropped: ${reason}`));
    }
  }

  /**
   * @param {Waiter} waiter
   * @param {Message} message
   */
  _resolve(waiter, message) {
    this._forget(waiter);
    if (message.type === "error") {
      waiter.reject(new RequestError(message));
    } else {
      waiter.resolve(message);
    }
  }

  /** @param {Waiter} waiter */
  _forget(waiter) {
    this._timers.clearTimeout(waiter.timer);
    this._waiters = this._waiters.filter((w) => w !== waiter);
    this._byKind = this._byKind.filter((w) => w !== waiter);
  }
}
