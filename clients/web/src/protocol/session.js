/**
 * One player's connection to a Cardavia server, kept alive across drops,
 * restarts and redirects: the page's counterpart of `clients/cli/session.py`.
 *
 * Nothing here touches a browser global. The caller passes in how to open a
 * socket (`connect(url)`, e.g. `(url) => new WebSocket(url)`), timers
 * (`setTimeout`/`clearTimeout`), and optionally a storage with the Web Storage
 * interface (the page passes `localStorage`) that keeps the resume token across
 * page loads; tests pass fakes of all three.
 *
 * Theory of operation
 * -------------------
 * `start()` opens the socket and, once it is open, sends `hello` with the
 * protocol version, the name and the language, and the resume token kept from
 * an earlier `welcome` (with the last sequence number seen, so a resumed
 * player may get only the deltas it missed). Every `welcome` brings a new
 * token, which replaces the stored one at once.
 *
 * Every frame is decoded and applied before the event callback sees it:
 * the session's `roomState` (room.js) is the one owner of the room and its
 * view, and the one place sequence numbers are checked: snapshots and deltas
 * go to its `store` (a gap in sequence numbers sends one `resync`), a
 * `your_turn` counted past the view does too, and the callback hears whether
 * the message is current, about the view held now. The message then settles
 * the `request()` waiting for it (requests.js): by its `id`, or, for the
 * answers that carry none (a `snapshot`, `delta` or `chat_message`), as the
 * oldest request waiting for that kind (protocol/README.md, "Framing").
 *
 * When the socket drops, the session reconnects with exponential backoff and
 * jitter (0.2 s doubling up to `maxBackoff`), alternating between the node it
 * was on and the URL it started with, so a client whose node died finds its
 * room through any node. A player who had a room and is welcomed back without
 * it waits a second for the `redirect` (the room runs elsewhere) or
 * `node_unavailable` (the room is moving) that may follow before reporting
 * `reconnected` without the seat. `bad_resume_token` in answer to `hello` means the old
 * seat is gone: the token is forgotten and the `welcome` that follows starts a
 * fresh session. `node_unavailable` in answer to `hello` means the player's
 * room is moving to another node: the session tries again after the
 * `retry_after` seconds the server names. A `redirect` is followed: the session
 * connects to the given node, resumes there and, when the redirect carries a
 * reservation, joins the room with it; the request that caused the redirect
 * is answered from the new node. A close with code 1008 (policy: replaced by
 * a newer connection, too many bad messages, an unsupported version) ends the
 * session instead of reconnecting, since reconnecting would only fight the
 * server or another connection of the same player.
 *
 * Events: the callback gets every server message (a plain object with its
 * `type`), and the session's own notices, marked `local: true`:
 * `reconnecting` (`attempt`, `delay` in seconds, `reason`), `reconnected`
 * (`resumed`: the seat was taken back), `unreadable_frame` (`reason`) and
 * `closed` (`code`, `reason`), after which nothing follows.
 *
 * The player key of a profile is kept in the same storage (`PLAYER_KEY`) and
 * sent in every `hello`: the `key` of a `profile` answer (a new profile, or a
 * transfer code redeemed) is stored at once; `profile_deleted` forgets it, and
 * so does a `welcome` whose `player_error` says the server does not know it or
 * cannot read it (`FORGOTTEN_KEY_ERRORS`; such a welcome starts an anonymous
 * session, and the page tells the player). A `storage_unavailable` error keeps
 * it: the database is only away. `player` is the profile the session holds
 * (`welcome.player`, then each `profile` answer; null after `profile_deleted`).
 */
import { PROTOCOL_VERSION, decodeServer, encodeClient } from "./codec.js";
import { ProtocolError } from "./errors.js";
import { frameBytes } from "./ports.js";
import { Requests, SessionInterrupted } from "./requests.js";
import { CURRENT, RoomState } from "./room.js";

export { ANSWERED_BY, RequestError, SessionInterrupted } from "./requests.js";

export const CLOSE_NORMAL = 1000;
export const CLOSE_POLICY = 1008;
/** Seconds before the first reconnection attempt; each later one doubles it up to `maxBackoff`. */
export const FIRST_DELAY = 0.2;
export const HANDSHAKE_TIMEOUT = 10;
/** Seconds a resumed player welcomed without its room waits for the `redirect` or `node_unavailable` that may follow. */
export const REDIRECT_WAIT = 1;
export const RESUME_KEY = "cardavia.resume";
/** Where the player key of a profile is kept (sent only in `hello`, never in a URL). */
export const PLAYER_KEY = "cardavia.player";
/** `welcome.player_error`s that mean the key kept is of no use any more: it is forgotten. */
export const FORGOTTEN_KEY_ERRORS = Object.freeze(["unknown_player", "malformed_player_key"]);

/**
 * @typedef {import("./codec.js").Message} Message
 *
 * @typedef {import("./ports.js").SocketLike} SocketLike
 * @typedef {import("./ports.js").SocketFactory} SocketFactory
 * @typedef {import("./ports.js").StorageLike} StorageLike
 * @typedef {import("./ports.js").Timers} Timers
 *
 * @typedef {{ type: "reconnecting", local: true, attempt: number, delay: number, reason: string }
 *   | { type: "reconnected", local: true, resumed: boolean }
 *   | { type: "unreadable_frame", local: true, reason: string }
 *   | { type: "closed", local: true, code: number | null, reason: string }} Notice
 *
 * @typedef {object} SessionOptions
 * @property {string} url the server's WebSocket URL
 * @property {string | null} name the name the player chose; null: a guest, named by `guest`
 * @property {number | null} [guest] the guest number the page keeps for a player who chose no
 *   name (100 to 999), sent while `name` is null so the player stays "Player 563" on every visit
 * @property {string} [lang] the player's language (en it sv nb es pl)
 * @property {SocketFactory} connect opens a socket to a URL
 * @property {Timers} timers
 * @property {StorageLike | null} [storage] keeps the resume token (null: only in memory)
 * @property {string} [storageKey] the token's key in `storage`
 * @property {string | null} [resume] a resume token to start with, when `storage` holds none
 * @property {(event: Message | Notice, taken: import("./room.js").Taken) => void} [onEvent] every message
 *   and notice, in order, with what it did to the room: `taken.current` is false for a message of the
 *   room's stream that is not about the view held now (room.js), which the page does not show;
 *   `taken.joined` is true for a snapshot of another room than the one held before
 * @property {boolean} [reconnect] reconnect after a drop (default true)
 * @property {number} [maxBackoff] longest wait between attempts, in seconds (default 5)
 * @property {number} [maxAttempts] attempts in a row before giving up (default 100)
 * @property {() => number} [random] a number in [0, 1) for the jitter (default Math.random)
 * @property {() => Message[]} [alongHello] requests to send in the same flight as each
 *   connection's `hello`, before its `welcome` arrives: only requests whose answer does not depend
 *   on the session (`get_catalogue`), which the server answers right after the `welcome`. Each
 *   must carry its `id` (from `nextId()`), so that its answer or refusal can be told apart.
 */

export class Session {
  /** @param {SessionOptions} options */
  constructor(options) {
    this.url = options.url;
    /** The URL the session started with; reconnection falls back to it when the current node is gone. */
    this.homeUrl = options.url;
    this.name = options.name;
    this.guest = options.guest ?? null;
    this.lang = options.lang ?? "en";
    /** The room the player is in and the view of it: the page's one copy of either. */
    this.roomState = new RoomState();
    /** @type {Message | null} the last `welcome` */
    this.welcome = null;
    /** How many times the session came back after a drop. */
    this.reconnects = 0;
    /** @type {"idle" | "connecting" | "handshake" | "open" | "waiting" | "closed"} */
    this.state = "idle";

    this._connect = options.connect;
    this._timers = options.timers;
    this._storage = options.storage ?? null;
    this._storageKey = options.storageKey ?? RESUME_KEY;
    this._onEvent = options.onEvent ?? (() => {});
    this._reconnect = options.reconnect ?? true;
    this._maxBackoff = options.maxBackoff ?? 5;
    this._maxAttempts = options.maxAttempts ?? 100;
    this._random = options.random ?? Math.random;
    this._alongHello = options.alongHello ?? (() => []);
    /** @type {string | null} */
    this._token = this._storage?.getItem(this._storageKey) ?? options.resume ?? null;
    this._nextId = 1;
    /** @type {SocketLike | null} */
    this._socket = null;
    this._socketUrl = this.url;
    /** @type {number | null} the id of the current connection's `hello` */
    this._helloId = null;
    this._requests = new Requests(options.timers);
    this._attempt = 0;
    this._comingBack = false;
    /** @type {{ room: unknown, reservation: unknown, requestId: number | null } | null} */
    this._reservation = null;
    /** @type {unknown} */
    this._retryTimer = null;
    /** @type {unknown} */
    this._handshakeTimer = null;
    /** @type {unknown} */
    this._homeTimer = null;
    this._tokenRefused = false;
    /** @type {string | null} the player key of a profile, sent in every hello */
    this._playerKey = this._storage?.getItem(PLAYER_KEY) ?? null;
    /** @type {{ id: string, name: string, bot: boolean } | null} the profile this session holds */
    this.player = null;
  }

  /** Whether a player key is kept (the server may still refuse it at the next hello). */
  get hasPlayerKey() {
    return this._playerKey !== null;
  }

  /** The resume token of the last `welcome` (null before the first, or after it was refused). */
  get resumeToken() {
    return this._token;
  }

  /** The view of the room the player is in, and its sequence number. */
  get store() {
    return this.roomState.store;
  }

  /** @returns {import("./messages.js").RoomInfo | null} the room of the last snapshot (null before any, and after leaving) */
  get room() {
    return this.roomState.room;
  }

  /** True from a snapshot of a running game, seated, until its `match_result`. */
  get inGame() {
    return this.roomState.inGame;
  }

  /** True while a socket is open and welcomed (false while connecting or reconnecting). */
  get connected() {
    return this.state === "open";
  }

  /** Opens the first connection; what follows comes through the event callback. */
  start() {
    if (this.state !== "idle") {
      throw new Error("this session has already started");
    }
    this._open(this.url);
  }

  /** Closes the connection for good; a `closed` notice follows. */
  close() {
    if (this.state === "closed") {
      return;
    }
    const socket = this._socket;
    this._socket = null;
    this._clearTimers();
    if (socket) {
      socket.close(CLOSE_NORMAL);
    }
    this._end(CLOSE_NORMAL, "closed by the client");
  }

  /** @returns {number} a fresh request id */
  nextId() {
    return this._nextId++;
  }

  /**
   * Sends one request, giving it a fresh `id` when it has none; returns the id.
   * Throws `SessionInterrupted` while (re)connecting and after the session ended.
   * @param {Message} message `{type, ...fields}`, fields in the protocol's order
   * @returns {number}
   */
  send(message) {
    const id = typeof message.id === "number" ? message.id : this.nextId();
    const { id: _ignored, ...fields } = message;
    this._write({ id, ...fields }, true);
    if (message.type === "leave") {
      this.roomState.leave(id); // until the server answers, the room's late messages are not current
    }
    return id;
  }

  /**
   * Sends a request and resolves with its answer; an `error` answer rejects with
   * `RequestError`, a drop first with `SessionInterrupted` (the server may or may
   * not have handled it: watch the events), and no answer within `timeout`
   * seconds with `SessionInterrupted` too.
   * @param {Message} message
   * @param {{ timeout?: number }} [options]
   * @returns {Promise<Message>}
   */
  request(message, options = {}) {
    let id;
    try {
      id = this.send(message);
    } catch (error) {
      return Promise.reject(error);
    }
    return this._requests.wait(message, id, options.timeout ?? 10);
  }

  // ------------------------------------------------------------ connecting

  /** @param {string} url */
  _open(url) {
    this.state = "connecting";
    this._socketUrl = url;
    /** @type {SocketLike} */
    let socket;
    try {
      socket = this._connect(url);
    } catch (error) {
      this._socket = null;
      this._dropped(null, `could not connect to ${url}: ${describeError(error)}`);
      return;
    }
    this._socket = socket;
    socket.binaryType = "arraybuffer";
    socket.onopen = () => {
      if (socket === this._socket) {
        this._sayHello();
      }
    };
    socket.onmessage = (/** @type {{ data: unknown }} */ event) => {
      if (socket === this._socket) {
        this._receive(event.data);
      }
    };
    socket.onclose = (/** @type {{ code?: number, reason?: string } | undefined} */ event) => {
      if (socket === this._socket) {
        this._socket = null;
        const code = event?.code ?? null;
        this._dropped(code, event?.reason || `closed with code ${code ?? "none"}`);
      }
    };
    socket.onerror = () => {}; // a close event follows every error
    this._handshakeTimer = this._timers.setTimeout(() => {
      if (socket === this._socket && this.state !== "open") {
        this._socket = null;
        socket.close(CLOSE_NORMAL);
        this._dropped(null, `no welcome from ${url} within ${HANDSHAKE_TIMEOUT} s`);
      }
    }, HANDSHAKE_TIMEOUT * 1000);
  }

  _sayHello() {
    this.state = "handshake";
    this._tokenRefused = false;
    this._helloId = this.nextId();
    const resuming = this._token !== null;
    this._write(
      {
        id: this._helloId,
        type: "hello",
        version: PROTOCOL_VERSION,
        name: this.name,
        guest: this.name ? null : this.guest, // a name given wins over the guest number
        lang: this.lang,
        resume: this._token,
        last_seq: resuming ? this.store.seq : null,
        player: this._playerKey,
      },
      false,
    );
    // the server handles a connection's frames in order: these are answered right after the
    // welcome, a round trip sooner than if they waited for it
    for (const message of this._alongHello()) {
      this._write(message, false);
    }
  }

  /**
   * @param {Message} message
   * @param {boolean} welcomed only once the connection is welcomed (every request but `hello`)
   */
  _write(message, welcomed) {
    const socket = this._socket;
    if (socket === null || (welcomed && this.state !== "open")) {
      throw new SessionInterrupted(
        this.state === "closed" ? "the session has ended" : "not connected: the session is reconnecting",
      );
    }
    socket.send(encodeClient(message));
  }

  /**
   * The connection is gone: fail waiting requests, then reconnect or end.
   * @param {number | null} code
   * @param {string} reason
   */
  _dropped(code, reason) {
    if (this.state === "closed") {
      return;
    }
    this._clearTimers();
    this._requests.interrupt(reason);
    if (code === CLOSE_POLICY || !this._reconnect) {
      this._end(code, `the server closed the session: ${reason}`);
      return;
    }
    this._comeBack(reason, null);
  }

  /**
   * Tries again after a delay: `after` seconds when the server named it, else backoff with jitter.
   * @param {string} reason
   * @param {number | null} after
   */
  _comeBack(reason, after) {
    this._comingBack = true;
    this._attempt += 1;
    const attempt = this._attempt;
    if (attempt > this._maxAttempts) {
      this._end(null, `gave up reconnecting after ${attempt - 1} attempts: ${reason}`);
      return;
    }
    const delay = after ?? Math.min(this._maxBackoff, FIRST_DELAY * 2 ** (attempt - 1)) * (0.5 + this._random() / 2);
    const url = attempt % 2 === 1 || this.url === this.homeUrl ? this.url : this.homeUrl;
    this.state = "waiting";
    this._emit({ type: "reconnecting", local: true, attempt, delay, reason });
    this._retryTimer = this._timers.setTimeout(() => {
      this._retryTimer = null;
      if (this.state === "waiting") {
        this._open(url);
      }
    }, delay * 1000);
  }

  /**
   * Goes to the node that runs the room: resume there, then join with the reservation if any.
   * @param {Message} redirect
   */
  _follow(redirect) {
    const old = this._socket;
    this._socket = null;
    this._clearTimers();
    if (old) {
      old.close(CLOSE_NORMAL);
    }
    this._reservation = typeof redirect.reservation === "string"
      ? { room: redirect.room, reservation: redirect.reservation, requestId: numberOrNull(redirect.id) }
      : null;
    this._open(String(redirect.url));
  }

  /** @param {Message} welcome */
  _welcomed(welcome) {
    this._clearTimers();
    this.state = "open";
    this.welcome = welcome;
    this.url = this._socketUrl;
    if (typeof welcome.resume === "string") {
      this._token = welcome.resume;
      this._storage?.setItem(this._storageKey, welcome.resume);
    }
    this._attempt = 0;
    this.player = playerOf(welcome.player);
    if (typeof welcome.player_error === "string" && FORGOTTEN_KEY_ERRORS.includes(welcome.player_error)) {
      this._forgetPlayer();
    }
    this._emit(welcome);
    const resumed = typeof welcome.room === "string";
    if (this._comingBack) {
      const hoping = (this.inGame || this.room !== null) && !this._tokenRefused;
      if (!resumed && hoping) {
        // the room may run on another node now: a redirect or node_unavailable may follow
        this._homeTimer = this._timers.setTimeout(() => {
          this._homeTimer = null;
          this._backAgain(false);
        }, REDIRECT_WAIT * 1000);
      } else {
        this._backAgain(resumed);
      }
    }
    const reservation = this._reservation;
    this._reservation = null;
    if (reservation !== null) {
      const join = { id: this.nextId(), type: "join_room", room: reservation.room, reservation: reservation.reservation };
      if (reservation.requestId !== null) {
        this._requests.alias(reservation.requestId, join.id); // the join's answer now comes from this node
      }
      this._write(join, true);
    }
  }

  /**
   * The session is back after a drop; without its seat, the old room's view is forgotten.
   * @param {boolean} resumed
   */
  _backAgain(resumed) {
    this._comingBack = false;
    this.reconnects += 1;
    this.roomState.settled();
    if (!resumed) {
      this.roomState.lost();
    }
    this._emit({ type: "reconnected", local: true, resumed });
  }

  // ------------------------------------------------------------ receiving

  /** @param {unknown} data */
  _receive(data) {
    /** @type {Message} */
    let message;
    try {
      message = decodeServer(frameBytes(data));
    } catch (error) {
      if (!(error instanceof ProtocolError)) {
        throw error;
      }
      this._emit({ type: "unreadable_frame", local: true, reason: error.message });
      return;
    }
    if (this.state === "handshake") {
      if (message.type === "welcome") {
        this._welcomed(message);
        return;
      }
      if (message.type === "error" && message.code === "bad_resume_token") {
        // the old seat is gone: the welcome that follows starts a new session
        this._tokenRefused = true;
        this._token = null;
        this._storage?.removeItem(this._storageKey);
        this.roomState.lost();
      }
      this._emit(message); // other refusals of the hello: the server closes the connection next
      return;
    }
    if (message.type === "redirect") {
      this._follow(message);
      this._emit(message);
      return;
    }
    if (message.type === "error" && message.code === "node_unavailable" && message.id === this._helloId) {
      // the room is moving to another node: come back when the server says it will be there
      const socket = this._socket;
      this._socket = null;
      if (socket) {
        socket.close(CLOSE_NORMAL);
      }
      this._emit(message);
      const after = typeof message.retry_after === "number" ? message.retry_after : null;
      this._clearTimers();
      this._requests.interrupt("the room is moving to another node");
      this._comeBack("the room is moving to another node", after);
      return;
    }
    this._profileNews(message);
    const taken = this.roomState.take(message);
    if (taken.resync) {
      this._resync();
    }
    this._requests.settle(message);
    this._emit(message, taken);
  }

  /**
   * Keeps what a profile answer says: a new key for this device, the profile held, or none.
   * @param {Message} message
   */
  _profileNews(message) {
    if (message.type === "profile") {
      this.player = playerOf(message.player);
      if (typeof message.key === "string" && message.key) {
        this._playerKey = message.key;
        this._storage?.setItem(PLAYER_KEY, message.key);
      }
    } else if (message.type === "profile_deleted") {
      this._forgetPlayer();
    }
  }

  _forgetPlayer() {
    this.player = null;
    this._playerKey = null;
    this._storage?.removeItem(PLAYER_KEY);
  }

  /** Asks for a fresh snapshot (the room's state asks once until the next snapshot). */
  _resync() {
    try {
      this.send({ type: "resync" });
    } catch (error) {
      if (!(error instanceof SessionInterrupted)) {
        throw error;
      }
    }
  }

  /**
   * @param {number | null} code
   * @param {string} reason
   */
  _end(code, reason) {
    this._clearTimers();
    this.state = "closed";
    this._requests.interrupt(reason);
    this._emit({ type: "closed", local: true, code, reason });
  }

  _clearTimers() {
    if (this._retryTimer !== null) {
      this._timers.clearTimeout(this._retryTimer);
      this._retryTimer = null;
    }
    if (this._handshakeTimer !== null) {
      this._timers.clearTimeout(this._handshakeTimer);
      this._handshakeTimer = null;
    }
    if (this._homeTimer !== null) {
      this._timers.clearTimeout(this._homeTimer);
      this._homeTimer = null;
    }
  }

  /**
   * @param {Message | Notice} event
   * @param {import("./room.js").Taken} [taken] what the message did to the room (`current`: false for a
   *   message of the room's stream about a view no longer held)
   */
  _emit(event, taken = CURRENT) {
    this._onEvent(event, taken);
  }
}

/**
 * The profile a `welcome` or `profile` names, or null.
 * @param {unknown} value
 * @returns {{ id: string, name: string, bot: boolean } | null}
 */
function playerOf(value) {
  if (!value || typeof value !== "object") {
    return null;
  }
  const player = /** @type {Record<string, unknown>} */ (value);
  if (typeof player.id !== "string" || typeof player.name !== "string") {
    return null;
  }
  return { id: player.id, name: player.name, bot: player.bot === true };
}

/** @param {unknown} value */
function numberOrNull(value) {
  return typeof value === "number" ? value : null;
}

/** @param {unknown} error */
function describeError(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
