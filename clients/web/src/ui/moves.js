// Legal moves arranged the way a person picks them: a card, then one choice if needed.
//
// The server's `your_turn` lists every legal action in data form and nothing
// here invents one. The actions are grouped by the card they play (several
// captures, or a Schnapsen lead with or without its marriage, become a
// choice); an action that plays no card (Schnapsen's exchange and close, Dou
// Dizhu's bids and pass) becomes a button of its own with a key, and so does
// Schnapsen's lead with a marriage, which its card offers too. How an action
// reads, which actions play no card, and whether cards are picked by selecting
// several (Dou Dizhu) is each game's to say, in its module (`tables/*.js`).
//
// Everything here is plain data and text, with no page around it, so that it
// runs (and is tested) in Node as it runs in the browser.

import { gameModule } from "./tables/index.js";

/**
 * @typedef {import("./names.js").Translate} Translate
 * @typedef {import("./names.js").Names} Names
 * @typedef {import("./tables/index.js").GameData} Action  an action in the engine's data form
 * @typedef {import("./tables/index.js").GameData} View    one seat's view of the match
 * @typedef {{label: string, action: Action}} Option  one complete legal action and how it reads
 * @typedef {{id: string, key: string, label: string, action: Action}} Extra
 *   an action that plays no card of the hand, with the key that makes it
 * @typedef {import("./tables/doudizhu_play.js").Selection} Selection
 */

/** What this seat may do now; empty when it is not its turn. */
export class MoveMenu {
  /**
   * @param {string} game
   * @param {Action[]} legal the `your_turn` actions
   * @param {View} view
   * @param {Names} names
   */
  constructor(game, legal, view, names) {
    const module = gameModule(game);
    this.game = game;
    /** @type {Action[]} */
    this.legal = (legal || []).map((a) => ({ ...a }));
    this.view = view || {};
    this.names = names;
    this.t = names.t;
    /** @type {Selection | null} the game's selection, when several cards are selected and played as one move */
    this.selection = this.legal.length && module.selection ? module.selection(this.legal, this.view, names) : null;
    /** @type {Extra[]} */
    this.extras = [];
    for (const action of this.legal) {
      const extra = module.extra ? module.extra(names, this.view, action, this.legal) : null;
      if (extra) this.extras.push(extra);
    }
    /** @type {Map<string, Option[]>} */
    this.byCard = new Map();
    for (const action of this.legal) {
      const card = action.play;
      if (typeof card === "string") {
        const list = this.byCard.get(card) || [];
        const label = module.moveLabel ? module.moveLabel(names, this.view, action) : null;
        list.push({ label: label ?? this.t("moves.play", { card: names.card(card) }), action });
        this.byCard.set(card, list);
      }
    }
  }

  get active() {
    return this.legal.length > 0;
  }

  /** Whether cards are selected and then played together (Dou Dizhu's play phase). */
  get multi() {
    return this.selection !== null;
  }

  /**
   * Whether the card takes part in some legal move.
   * @param {string} code
   */
  playable(code) {
    if (this.selection) return this.selection.playable(code);
    return this.byCard.has(code);
  }

  /**
   * The legal actions that play this card (several: the player chooses).
   * @param {string} code
   * @returns {Option[]}
   */
  options(code) {
    return [...(this.byCard.get(code) || [])];
  }

  /**
   * The extra action a key makes, if any.
   * @param {string} key
   */
  extraFor(key) {
    return this.extras.find((e) => e.key === key) || null;
  }
}
