/**
 * The server's messages as the page reads them: JSDoc types of
 * `protocol/messages.py`'s replies, for the type checker only (this module
 * has no code).
 *
 * A decoded frame is a `Message` (codec.js): a map with a string `type` and
 * whatever else the peer sent. The types below say what the protocol
 * promises; the page still checks a field before it relies on it where a
 * wrong value would break the page rather than show a wrong word, since a
 * frame is data from the network.
 *
 * @typedef {{ name?: string | null, kind?: string, bot?: string }} SeatInfo
 *
 * @typedef {object} RoomInfo A room, in `snapshot` and in `rooms`.
 * @property {string} room
 * @property {string | null} [code]
 * @property {string} game
 * @property {string | null} [deck]
 * @property {Record<string, unknown>} [options]
 * @property {boolean} [public]
 * @property {string} [state] waiting, playing, finished or closed
 * @property {SeatInfo[]} [seats]
 * @property {string | null} [owner]
 * @property {string | null} [node]
 * @property {number | null} [turn_seconds]
 *
 * @typedef {{ id: string, name?: string, players: number, options?: Record<string, unknown> }} GameInfo
 * @typedef {{ id: string, name?: string, cards?: number, suit_system?: string, games?: ({ id: string } | string)[], default_for?: string[] }} DeckInfo
 * @typedef {{ id: string, game?: string, level: string, name?: string, description?: string }} BotInfo
 * @typedef {{ games: GameInfo[], decks: DeckInfo[], bots: BotInfo[] }} ServerCatalogue
 *
 * @typedef {{ id?: number | null }} Reply
 * @typedef {Reply & { type: "welcome", session: string, resume: string, server: string, version?: number, room?: string | null }} Welcome
 * @typedef {Reply & { type: "catalogue", games: GameInfo[], decks: DeckInfo[], bots: BotInfo[] }} Catalogue
 * @typedef {Reply & { type: "rooms", rooms: RoomInfo[] }} Rooms
 * @typedef {Reply & { type: "snapshot", room: RoomInfo, seat?: number | null, seq: number, view: Record<string, unknown> }} Snapshot
 * @typedef {Reply & { type: "delta", seq: number, ops: unknown[], events?: Record<string, unknown>[] }} Delta
 * @typedef {Reply & { type: "your_turn", seq: number, legal: Record<string, unknown>[], deadline?: number | null }} YourTurn
 * @typedef {Reply & { type: "deal_result", deal: number, points: number[], detail: Record<string, unknown>, totals?: number[] | null }} DealResult
 * @typedef {Reply & { type: "match_result", scores: number[], winner?: number | null, reason: string, record?: string | null }} MatchResult
 * @typedef {Reply & { type: "rematch_votes", asked: number[], waiting: number[] }} RematchVotes
 * @typedef {Reply & { type: "chat_message", seat?: number | null, name: string, text: string }} ChatMessage
 * @typedef {Reply & { type: "redirect", url: string, room: string, reservation?: string | null }} Redirect
 * @typedef {Reply & { type: "left", reason?: string }} Left
 * @typedef {Reply & { type: "rules", game: string, lang: string, markdown: string }} Rules
 * @typedef {Reply & { type: "error", code: string, message: string, reason?: string | null, retry_after?: number | null }} ErrorMessage
 *
 * @typedef {Welcome | Catalogue | Rooms | Snapshot | Delta | YourTurn | DealResult | MatchResult
 *   | RematchVotes | ChatMessage | Redirect | Left | Rules | ErrorMessage} ServerMessage
 */

export {};
