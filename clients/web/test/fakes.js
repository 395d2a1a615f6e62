// Stand-ins for a WebSocket, timers and Web Storage, so the session runs under
// Node's test runner with no network and no waiting.
import { encode } from "@msgpack/msgpack";

import { decodeFrame } from "../src/protocol/codec.js";

/** A WebSocket the test drives: it opens, receives and drops when told to. */
export class FakeSocket {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.binaryType = "blob";
    /** @type {import("../src/protocol/codec.js").Message[]} every frame the client sent, decoded */
    this.sent = [];
    /** @type {number | null} the code the client closed with */
    this.closedWith = null;
    /** @type {((event?: unknown) => void) | null} */
    this.onopen = null;
    /** @type {((event: { data: unknown }) => void) | null} */
    this.onmessage = null;
    /** @type {((event: { code?: number, reason?: string }) => void) | null} */
    this.onclose = null;
    /** @type {((event?: unknown) => void) | null} */
    this.onerror = null;
  }

  /** @param {Uint8Array} data */
  send(data) {
    if (this.closedWith !== null) {
      throw new Error("send on a closed socket");
    }
    this.sent.push(decodeFrame(data));
  }

  /** @param {number} [code] */
  close(code) {
    this.closedWith = code ?? 1005;
  }

  open() {
    this.onopen?.();
  }

  /** @param {Record<string, unknown>} message a server message, sent as a binary frame */
  receive(message) {
    const bytes = encode(message);
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }

  /**
   * The server closes the connection (or the network drops it: 1006).
   * @param {number} code
   * @param {string} [reason]
   */
  drop(code, reason = "") {
    this.onerror?.();
    this.onclose?.({ code, reason });
  }

  /** The last frame the client sent. */
  get last() {
    return this.sent[this.sent.length - 1];
  }
}

/** Timers on a clock that moves only when the test says so. */
export class FakeClock {
  constructor() {
    this.now = 0;
    this.nextHandle = 1;
    /** @type {Map<number, { at: number, callback: () => void }>} */
    this.pending = new Map();
    this.setTimeout = this.setTimeout.bind(this);
    this.clearTimeout = this.clearTimeout.bind(this);
  }

  /**
   * @param {() => void} callback
   * @param {number} milliseconds
   */
  setTimeout(callback, milliseconds) {
    const handle = this.nextHandle++;
    this.pending.set(handle, { at: this.now + milliseconds, callback });
    return handle;
  }

  /** @param {unknown} handle */
  clearTimeout(handle) {
    this.pending.delete(/** @type {number} */ (handle));
  }

  /**
   * Moves the clock on, running every timer that falls due on the way, in order.
   * @param {number} milliseconds
   */
  tick(milliseconds) {
    const end = this.now + milliseconds;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
      if (!due.length) {
        break;
      }
      const [handle, timer] = due[0];
      this.pending.delete(handle);
      this.now = timer.at;
      timer.callback();
    }
    this.now = end;
  }
}

/** Web Storage in memory. */
export class FakeStorage {
  /** @param {Record<string, string>} [items] */
  constructor(items = {}) {
    this.items = new Map(Object.entries(items));
  }

  /** @param {string} key */
  getItem(key) {
    return this.items.get(key) ?? null;
  }

  /**
   * @param {string} key
   * @param {string} value
   */
  setItem(key, value) {
    this.items.set(key, value);
  }

  /** @param {string} key */
  removeItem(key) {
    this.items.delete(key);
  }
}
