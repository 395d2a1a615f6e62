/**
 * The error every protocol module throws for data that breaks the protocol,
 * with the wire code the Python side uses for the same fault
 * (`cardavia.protocol.errors.ProtocolError`): `bad_frame` for a frame or a
 * delta op that does not fit, `invalid_field` for a message without a string
 * `type`.
 */
export class ProtocolError extends Error {
  /**
   * @param {string} code the wire error code, e.g. `bad_frame`
   * @param {string} message what is wrong, in English, for logs and developers
   */
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = "ProtocolError";
    /** @type {string} */
    this.code = code;
    /** @type {string} */
    this.detail = message;
  }
}
