/**
 * Frames to messages and back, the twin of `protocol/codec.py`: one WebSocket
 * binary frame is one msgpack map with a string field `type`.
 *
 * Encoding follows the Python encoder byte for byte, so a frame from this page
 * reads exactly like one from the terminal client:
 * - keys in the order the message object gives them (the documented order
 *   puts `id` first, then `type`, then the fields as `protocol/messages.py`
 *   declares them);
 * - top-level fields that are null or undefined are left out (absent and null
 *   mean the same to a reader);
 * - integers in their smallest msgpack form, strings as str, binary as bin;
 * - the fields the protocol types as floats (`create_room`'s `turn_seconds`
 *   and `fill_after`) always as float64, even when the number is whole: the
 *   Python encoder writes a float there, and JavaScript has no separate type
 *   for a whole float.
 *
 * Decoding checks what matters to a client: the frame is binary, holds exactly
 * one msgpack value, that value is a map, and the map has a string `type`.
 * Unknown message types and fields are kept: a client ignores what it does not
 * know (protocol/README.md, "Versioning").
 */
import { Decoder, Encoder } from "@msgpack/msgpack";

import { ProtocolError } from "./errors.js";

export const PROTOCOL_VERSION = 2;

/** The message types a client sends, as `protocol/messages.py` lists them. */
export const CLIENT_TYPES = Object.freeze([
  "hello",
  "get_catalogue",
  "list_rooms",
  "create_room",
  "join_room",
  "quick_match",
  "play_now",
  "leave",
  "start",
  "rematch",
  "act",
  "resync",
  "spectate",
  "chat",
  "get_rules",
  "get_record",
  "create_profile",
  "rename_profile",
  "new_transfer_code",
  "redeem_transfer_code",
  "delete_profile",
  "get_leaderboard",
  "get_history",
  "get_replay",
]);

/** The message types a server sends, as `protocol/messages.py` lists them. */
export const SERVER_TYPES = Object.freeze([
  "welcome",
  "catalogue",
  "rooms",
  "snapshot",
  "delta",
  "your_turn",
  "deal_result",
  "match_result",
  "rules",
  "record",
  "redirect",
  "chat_message",
  "rematch_votes",
  "left",
  "error",
  "profile",
  "transfer_code",
  "profile_deleted",
  "leaderboard",
  "history",
  "replay",
  "rating_change",
]);

/**
 * The top-level fields of client messages that the protocol types as floats.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
const FLOAT_FIELDS = Object.freeze({
  create_room: Object.freeze(["turn_seconds", "fill_after"]),
});

/**
 * @typedef {{ type: string, id?: number | null, [field: string]: unknown }} Message
 * A protocol message as plain data: a `type` and its fields.
 */

/** A number that goes on the wire as a msgpack float64, whole or not. */
export class Float64 {
  /** @param {number} value */
  constructor(value) {
    this.value = value;
  }
}

/**
 * The encoder's own dispatch, which the float64 marker hooks into. These
 * methods are internal to `@msgpack/msgpack` (pinned in package-lock.json); the
 * golden-frame test fails if a new version changes them.
 * @typedef {{
 *   doEncode: (object: unknown, depth: number) => void,
 *   encodeNumberAsFloat: (value: number) => void,
 * }} EncoderInternals
 */

/** @returns {Encoder} an encoder that writes a `Float64` as float64 and all else as usual */
function makeEncoder() {
  const encoder = new Encoder();
  const internals = /** @type {EncoderInternals} */ (/** @type {unknown} */ (encoder));
  const doEncode = internals.doEncode.bind(encoder);
  const asFloat = internals.encodeNumberAsFloat.bind(encoder);
  internals.doEncode = (object, depth) => {
    if (object instanceof Float64) {
      asFloat(object.value);
    } else {
      doEncode(object, depth);
    }
  };
  return encoder;
}

const encoder = makeEncoder();
const decoder = new Decoder();

/**
 * The frame for a client message, as the Python encoder writes it.
 * @param {Message} message
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function encodeClient(message) {
  if (!isMap(message) || typeof message.type !== "string") {
    throw new ProtocolError("invalid_field", "a message is a map with a string field 'type'");
  }
  const floats = FLOAT_FIELDS[message.type] ?? [];
  /** @type {Record<string, unknown>} */
  const data = {};
  for (const [name, value] of Object.entries(message)) {
    if (value === null || value === undefined) {
      continue;
    }
    data[name] = typeof value === "number" && floats.includes(name) ? new Float64(value) : value;
  }
  return encoder.encode(data);
}

/**
 * The message in a server frame: a msgpack map with a string `type`.
 * @param {Uint8Array | ArrayBuffer | string} frame
 * @returns {Message}
 */
export function decodeServer(frame) {
  return decodeFrame(frame);
}

/**
 * The message in any frame (client or server): a msgpack map with a string `type`.
 * @param {Uint8Array | ArrayBuffer | string} frame
 * @returns {Message}
 */
export function decodeFrame(frame) {
  if (typeof frame === "string") {
    throw new ProtocolError("bad_frame", "a frame is binary msgpack, not text");
  }
  /** @type {unknown} */
  let data;
  try {
    data = decoder.decode(frame);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ProtocolError("bad_frame", `not one valid msgpack value: ${why}`);
  }
  if (!isMap(data)) {
    throw new ProtocolError("bad_frame", `a frame holds a map, not ${describe(data)}`);
  }
  if (typeof data.type !== "string") {
    throw new ProtocolError("invalid_field", "a message needs a string field 'type'");
  }
  return /** @type {Message} */ (data);
}

/**
 * True for a plain object: what msgpack maps decode to (not a list, binary or extension).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isMap(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** @param {unknown} value */
function describe(value) {
  if (value === null) {
    return "nil";
  }
  if (Array.isArray(value)) {
    return "an array";
  }
  if (value instanceof Uint8Array) {
    return "binary";
  }
  return typeof value;
}
