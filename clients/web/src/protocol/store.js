/**
 * One recipient's view, rebuilt from a snapshot and the deltas after it: the
 * twin of `ViewStore` in `protocol/client.py`.
 *
 * A snapshot sets the view and its sequence number; a delta numbered one past
 * it applies; a delta already applied (a repeat) is ignored; a delta further
 * ahead means one was lost, so the store needs a resync (a fresh snapshot)
 * and refuses every delta until it gets one. A delta whose ops do not fit the
 * view is treated as a lost one too: the view stays as it was and the store
 * asks for a resync, since a fresh snapshot is the only sound way back.
 */
import { applyDelta } from "./delta.js";
import { ProtocolError } from "./errors.js";

/**
 * @typedef {{ seq: number, view?: unknown, seat?: number | null }} SnapshotLike
 * @typedef {{ seq: number, ops?: unknown, events?: unknown }} DeltaLike
 */

export class ViewStore {
  constructor() {
    /** @type {number | null} the sequence number of `view` */
    this.seq = null;
    /** @type {Record<string, unknown> | null} */
    this.view = null;
    /** @type {number | null} the recipient's seat (null: a spectator) */
    this.seat = null;
    /** True from a lost delta until the next snapshot. */
    this.needsResync = false;
    /** @type {Record<string, unknown>[]} the events of every delta applied since the store was made */
    this.events = [];
    /** @type {ProtocolError | null} why the last refused delta did not fit, if that was the reason */
    this.lastError = null;
  }

  /** @param {SnapshotLike} message */
  onSnapshot(message) {
    this.seq = message.seq;
    const view = message.view;
    this.view = view !== null && typeof view === "object" && !Array.isArray(view)
      ? { .../** @type {Record<string, unknown>} */ (view) }
      : {};
    this.seat = message.seat ?? null;
    this.needsResync = false;
    this.lastError = null;
  }

  /**
   * Applies a delta; false (and `needsResync`) when one was missed or it did not fit.
   * @param {DeltaLike} message
   * @returns {boolean}
   */
  onDelta(message) {
    if (this.seq === null || this.view === null || this.needsResync) {
      this.needsResync = true;
      return false;
    }
    if (message.seq <= this.seq) {
      return true; // a repeat of what we have: harmless
    }
    if (message.seq !== this.seq + 1) {
      this.needsResync = true;
      return false;
    }
    let view;
    try {
      view = applyDelta(this.view, message.ops ?? []);
    } catch (error) {
      if (!(error instanceof ProtocolError)) {
        throw error;
      }
      this.lastError = error;
      this.needsResync = true;
      return false;
    }
    if (view === null || typeof view !== "object" || Array.isArray(view)) {
      this.lastError = new ProtocolError("bad_frame", "a delta turned the view into something other than a map");
      this.needsResync = true;
      return false;
    }
    this.view = /** @type {Record<string, unknown>} */ (view);
    this.seq = message.seq;
    if (Array.isArray(message.events)) {
      this.events.push(...message.events);
    }
    return true;
  }

  /** Forgets the view (the recipient left its room or lost its seat). */
  clear() {
    this.seq = null;
    this.view = null;
    this.seat = null;
    this.needsResync = false;
    this.lastError = null;
  }
}
