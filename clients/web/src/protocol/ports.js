/**
 * What the protocol modules are given in place of the browser's globals, so
 * that the same code runs in the page and under Node's tests with fakes
 * (test/fakes.js): a way to open a socket, timers, and a storage for the
 * resume token. The page passes `new WebSocket(url)`, the window's timers and
 * `localStorage`.
 */
import { ProtocolError } from "./errors.js";

/**
 * @typedef {object} SocketLike The part of the WebSocket interface the session uses.
 *   The handlers take `any` so that a browser `WebSocket` (whose handlers take its
 *   own event types) fits; the session reads `data` of a message event and
 *   `code` and `reason` of a close event.
 * @property {string} [binaryType]
 * @property {((event: any) => void) | null} onopen
 * @property {((event: any) => void) | null} onmessage
 * @property {((event: any) => void) | null} onclose
 * @property {((event: any) => void) | null} onerror
 * @property {(data: Uint8Array<ArrayBuffer>) => void} send
 * @property {(code?: number, reason?: string) => void} close
 *
 * @typedef {(url: string) => SocketLike} SocketFactory
 *
 * @typedef {object} StorageLike The part of the Web Storage interface the session uses.
 * @property {(key: string) => string | null} getItem
 * @property {(key: string, value: string) => void} setItem
 * @property {(key: string) => void} removeItem
 *
 * @typedef {object} Timers
 * @property {(callback: () => void, milliseconds: number) => unknown} setTimeout
 * @property {(handle: any) => void} clearTimeout
 */

/**
 * The bytes of a received frame (text frames stay strings, which the codec refuses).
 * @param {unknown} data
 * @returns {Uint8Array | string}
 */
export function frameBytes(data) {
  if (typeof data === "string" || data instanceof Uint8Array) {
    return data;
  }
  if (data instanceof ArrayBuffer) {
    return new Uint8Array(data);
  }
  if (ArrayBuffer.isView(data)) {
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  throw new ProtocolError("bad_frame", "a frame is binary data");
}
