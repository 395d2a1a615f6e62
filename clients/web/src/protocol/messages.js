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
 * @property {boolean} [rated] a rated room: its match changes its players' ratings
 *
 * @typedef {{ id: string, name?: string, players: number, options?: Record<string, unknown> }} GameInfo
 * @typedef {{ id: string, name?: string, cards?: number, suit_system?: string, games?: ({ id: string } | string)[], default_for?: string[] }} DeckInfo
 * @typedef {{ id: string, game?: string, level: string, name?: string, description?: string }} BotInfo
 * @typedef {{ games: GameInfo[], decks: DeckInfo[], bots: BotInfo[] }} ServerCatalogue
 *
 * @typedef {{ id?: number | null }} Reply
 * @typedef {Reply & { type: "welcome", session: string, resume: string, server: string, version?: number, room?: string | null,
 *   player?: PlayerInfo | null, player_error?: string | null }} Welcome
 * @typedef {{ id: string, name: string, bot?: boolean }} PlayerInfo
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
 * @typedef {Reply & { type: "profile", player: PlayerInfo, key?: string | null }} Profile
 * @typedef {Reply & { type: "transfer_code", code: string, expires_in: number }} TransferCode
 * @typedef {Reply & { type: "profile_deleted" }} ProfileDeleted
 * @typedef {{ rank: number, player: string, name: string, rating: number, deviation: number, games: number, bot?: boolean, level?: string | null }} Standing
 * @typedef {Reply & { type: "leaderboard", game: string, top: Standing[], me?: Standing | null }} Leaderboard
 * @typedef {Reply & { type: "history", player: PlayerInfo, ratings: Record<string, unknown>[], matches: Record<string, unknown>[] }} History
 * @typedef {Reply & { type: "replay", record_id: string, record: Record<string, unknown>, views: Record<string, unknown>[],
 *   steps: Record<string, unknown>[], analysis: (Record<string, unknown> | null)[] }} Replay
 * @typedef {Reply & { type: "rating_change", record: string, game: string, before: number, after: number, deviation: number }} RatingChange
 *
 * @typedef {Welcome | Catalogue | Rooms | Snapshot | Delta | YourTurn | DealResult | MatchResult
 *   | RematchVotes | ChatMessage | Redirect | Left | Rules | ErrorMessage | Profile | TransferCode | ProfileDeleted
 *   | Leaderboard | History | Replay | RatingChange} ServerMessage
 */

export {};
