/**
 * What the player does in the lobby: each choice becomes a `LobbyAction` for
 * the state (lobby_state.js), each way into a game a request to the server
 * with the status line saying what the lobby is doing; arrow keys step
 * through the open rooms.
 */
import { displaySafe, stepIndex } from "./dom.js";
import { chosenLevel, gameName, ratedPlay } from "./lobby_state.js";

/**
 * @typedef {import("./lobby_state.js").LobbyState} LobbyState
 * @typedef {import("./lobby_state.js").LobbyMessage} LobbyMessage
 * @typedef {import("./lobby_state.js").RoomInfo} RoomInfo
 * @typedef {import("./lobby_state.js").TextCatalogue} TextCatalogue
 * @typedef {import("../protocol/codec.js").Message} Message
 *
 * @typedef {object} LobbyPort what the input needs of the lobby it belongs to
 * @property {() => LobbyState} state
 * @property {() => TextCatalogue} texts
 * @property {(message: LobbyMessage) => void} dispatch
 * @property {(message: Message) => unknown} send
 * @property {(key: string | null, args?: Record<string, unknown>) => void} status
 * @property {() => void} refresh
 * @property {() => void} openCreate
 * @property {(game: string) => void} openRules
 * @property {(game: string, level: string) => void} onLevelChosen
 * @property {(name: string) => boolean} onNameChange
 */

export class LobbyInput {
  /** @param {LobbyPort} lobby */
  constructor(lobby) {
    this.lobby = lobby;
  }

  /** @param {string} game */
  chooseGame(game) {
    this.lobby.dispatch({ type: "choose_game", game });
  }

  /** @param {string} deck */
  chooseDeck(deck) {
    this.lobby.dispatch({ type: "choose_deck", deck });
  }

  /** @param {boolean} rated */
  chooseRated(rated) {
    this.lobby.dispatch({ type: "rated", rated });
  }

  /**
   * @param {string} game
   * @param {string} level
   */
  chooseLevel(game, level) {
    this.lobby.dispatch({ type: "choose_level", game, level });
    this.lobby.onLevelChosen(game, level);
  }

  /**
   * A name typed in the name form: null when it is the name already, false when the server would refuse it.
   * @param {string} typed
   * @returns {boolean | null}
   */
  rename(typed) {
    if (typed === this.lobby.state().name) {
      return null;
    }
    if (!this.lobby.onNameChange(typed)) {
      return false;
    }
    this.lobby.dispatch({ type: "name", name: typed });
    return true;
  }

  playNow() {
    const state = this.lobby.state();
    const game = state.game;
    this.lobby.status("lobby.doing.play_now", { game: gameName(state, this.lobby.texts(), game) });
    this.lobby.send({ type: "play_now", game, bot_level: chosenLevel(state, game), deck: state.deck || null, options: {}, rated: ratedPlay(state) });
  }

  quickMatch() {
    const state = this.lobby.state();
    this.lobby.status("lobby.doing.quick_match", { game: gameName(state, this.lobby.texts(), state.game) });
    // without a profile the server's default (null) is casual; with one, the player's choice
    this.lobby.send({ type: "quick_match", game: state.game, rated: state.profile ? state.rated : null });
  }

  /**
   * @param {string} code
   * @param {"join" | "watch"} how
   */
  byCode(code, how) {
    if (how === "join") {
      this.lobby.status("lobby.doing.join_code", { code });
      this.lobby.send({ type: "join_room", code });
    } else {
      this.lobby.status("lobby.doing.watch_code", { code });
      this.lobby.send({ type: "spectate", code });
    }
  }

  /** @param {RoomInfo} room */
  joinRoom(room) {
    this.lobby.status("lobby.doing.join");
    this.lobby.send({ type: "join_room", room: room.room });
  }

  /** @param {RoomInfo} room */
  watchRoom(room) {
    this.lobby.status("lobby.doing.watch_code", { code: displaySafe(room.code ?? "") });
    this.lobby.send({ type: "spectate", room: room.room });
  }

  refresh() {
    this.lobby.refresh();
  }

  openCreate() {
    this.lobby.openCreate();
  }

  /** @param {string} game */
  openRules(game) {
    this.lobby.openRules(game);
  }

  /**
   * Up and down arrows move between the rooms' rows, keeping the column (Join or Watch).
   * @param {KeyboardEvent} event
   */
  stepRows(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const row = target.closest("tr");
    const body = row?.parentElement;
    if (!row || !body) {
      return;
    }
    const rows = [...body.children];
    const next = stepIndex(event.key, rows.indexOf(row), rows.length, "vertical");
    if (next === null) {
      return;
    }
    const buttons = [...row.querySelectorAll("button")];
    const column = buttons.indexOf(/** @type {HTMLButtonElement} */ (target));
    const targets = [...rows[next].querySelectorAll("button")];
    const watch = column === buttons.length - 1;
    const goal = watch ? targets[targets.length - 1] : targets[0];
    if (goal) {
      event.preventDefault();
      goal.focus();
    }
  }
}
