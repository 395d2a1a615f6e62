/**
 * The room a session is in and the view it sees there: the one place the
 * page keeps either, and the one place a message of the room's stream is
 * checked against the sequence numbers.
 *
 * `take(message)` applies a snapshot or delta to the `ViewStore` and says
 * whether the message is `current`, that is, about the view held now. The
 * page shows only current messages, so nothing downstream compares sequence
 * numbers again. Not current: a delta already applied (a repeat), a delta past
 * a gap or one that did not fit (the store asks for a resync, and the fresh
 * snapshot that answers is current), a `your_turn` counted for another view,
 * and a snapshot of the room being left (sent before the server had the
 * `leave`). A resync is asked for once: the snapshot that answers allows
 * asking again.
 */
import { isMap } from "./codec.js";
import { ViewStore } from "./store.js";

/**
 * @typedef {import("./codec.js").Message} Message
 * @typedef {import("./messages.js").RoomInfo} RoomInfo
 *
 * @typedef {object} Taken
 * @property {boolean} current the message is about the view held now
 * @property {boolean} resync a snapshot is needed (a delta was lost or did not fit, or a turn ran ahead)
 * @property {boolean} joined a snapshot of another room than the one held before (or of a room after none)
 */

/** @type {Taken} what every message outside the room's stream is */
export const CURRENT = Object.freeze({ current: true, resync: false, joined: false });
/** @type {Taken} */
const STALE = Object.freeze({ current: false, resync: false, joined: false });
/** @type {Taken} */
const LOST = Object.freeze({ current: false, resync: true, joined: false });

export class RoomState {
  constructor() {
    this.store = new ViewStore();
    /** @type {RoomInfo | null} the room of the last snapshot (null before any, and after leaving) */
    this.room = null;
    /** True from a snapshot of a running game, seated, until its `match_result`. */
    this.inGame = false;
    /** @type {{ room: string | null, id: number } | null} the `leave` sent (room and request id), until its answer */
    this.leaving = null;
    /** A resync was asked for and its snapshot is not in yet. */
    this.resyncAsked = false;
  }

  /** The player's seat at the room (null: watching, or no room). */
  get seat() {
    return this.store.seat;
  }

  /**
   * Applies one server message to the room and its view.
   * @param {Message} message
   * @returns {Taken}
   */
  take(message) {
    switch (message.type) {
      case "snapshot": {
        const room = isMap(message.room) ? /** @type {RoomInfo} */ (/** @type {unknown} */ (message.room)) : null;
        if (this.leaving !== null && room?.room === this.leaving.room) {
          return STALE;
        }
        const joined = this.room === null || room === null || room.room !== this.room.room;
        this.store.onSnapshot(/** @type {import("./store.js").SnapshotLike} */ (/** @type {unknown} */ (message)));
        this.room = room;
        this.inGame = room?.state === "playing" && typeof message.seat === "number";
        this.resyncAsked = false;
        return joined ? { ...CURRENT, joined } : CURRENT;
      }
      case "delta": {
        const before = this.store.seq;
        if (!this.store.onDelta(/** @type {import("./store.js").DeltaLike} */ (/** @type {unknown} */ (message)))) {
          return this.missed();
        }
        return this.store.seq !== before ? CURRENT : STALE;
      }
      case "your_turn": {
        const seq = this.store.seq;
        if (seq === null || typeof message.seq !== "number") {
          return CURRENT;
        }
        if (message.seq > seq) {
          this.store.needsResync = true; // a turn counted past our view: a delta went missing
          return this.missed();
        }
        return message.seq === seq ? CURRENT : STALE;
      }
      case "match_result":
        this.inGame = false;
        return CURRENT;
      case "left":
        this.settled();
        this.inGame = false;
        this.room = null;
        return CURRENT;
      case "error":
        if (this.leaving !== null && message.id === this.leaving.id) {
          this.settled(); // the server had us out already
        }
        return CURRENT;
      default:
        return CURRENT;
    }
  }

  /**
   * A delta went missing: a resync, unless one was asked for already.
   * @returns {Taken}
   */
  missed() {
    if (this.resyncAsked) {
      return STALE;
    }
    this.resyncAsked = true;
    return LOST;
  }

  /**
   * A `leave` went out under request id `id`: the room's messages still on their way are not current.
   * @param {number} id
   */
  leave(id) {
    this.leaving = { room: typeof this.room?.room === "string" ? this.room.room : null, id };
  }

  /** The server had the player out of the room already, or the session came back: nothing is being left. */
  settled() {
    this.leaving = null;
  }

  /** Back without a seat, or a refused token: forget the old room's view so nothing acts on it. */
  lost() {
    this.store.clear();
    this.room = null;
    this.inGame = false;
  }
}
