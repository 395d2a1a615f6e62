// Legal moves arranged the way a person picks them: a card, then one choice if needed.
//
// The server's `your_turn` lists every legal action in data form and nothing
// here invents one. Scopa, Briscola and Schnapsen group the actions by the card
// they play (several captures, or a Schnapsen lead with or without its
// marriage, become a choice); an action that plays no card (Schnapsen's
// exchange and close, Dou Dizhu's bids and pass) becomes a button of its own
// with a key. A Dou Dizhu play is picked by selecting cards: the selection's
// ranks are matched against every legal combination (suits never matter
// there), and when they read as more than one combination the player chooses
// the reading.
//
// Everything here is plain data and text, with no page around it, so that it
// runs (and is tested) in Node as it runs in the browser.

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
 * @typedef {Record<string, any>} Action  an action in the engine's data form
 * @typedef {Record<string, any>} View    one seat's view of the match
 * @typedef {{label: string, action: Action}} Option  one complete legal action and how it reads
 * @typedef {{id: string, key: string, label: string, action: Action}} Extra
 *   an action that plays no card of the hand, with the key that makes it
 */

const SEPARATOR = " · ";

/**
 * How the table names cards, suits and seats in the player's language.
 *
 * Card names come from the served catalogue's deck (`decks[deck].cards`,
 * "Hearts · King"); a suit's name is the part of a card name before the
 * separator, so every language names suits as it names cards. A code the deck
 * does not know is shown as the code itself.
 */
export class Names {
  /**
   * @param {Translate} t
   * @param {(code: string) => string} cardName
   * @param {string[]} players the seats' names, already made safe to show
   * @param {number | null} seat this player's seat (null: a spectator)
   */
  constructor(t, cardName, players, seat) {
    this.t = t;
    this.cardName = cardName;
    this.players = players;
    this.seat = seat;
  }

  /** @param {unknown} code */
  card(code) {
    const text = String(code ?? "");
    return this.cardName(text) || text;
  }

  /**
   * @param {unknown} codes
   * @param {string} [sep]
   */
  cards(codes, sep = ", ") {
    const list = Array.isArray(codes) ? codes : [];
    return list.map((c) => this.card(c)).join(sep) || this.t("table.cards.nothing");
  }

  /**
   * A suit's name, read from the name of a card of that suit.
   * @param {unknown} letter
   */
  suit(letter) {
    const suit = String(letter ?? "").slice(-1).toUpperCase();
    for (const rank of ["A", "K", "7", "3"]) {
      const name = this.cardName(rank + suit);
      if (name && name !== rank + suit && name.includes(SEPARATOR)) {
        return name.split(SEPARATOR)[0];
      }
    }
    return suit;
  }

  /** @param {unknown} seat */
  who(seat) {
    if (typeof seat === "number" && seat >= 0 && seat < this.players.length) {
      return this.players[seat];
    }
    if (seat === null || seat === undefined) {
      return this.t("table.nobody");
    }
    return this.t("table.seat", { number: typeof seat === "number" ? seat + 1 : String(seat) });
  }

  /** @param {unknown[]} values */
  perSeat(values) {
    return (values || []).map((v, s) => `${this.who(s)} ${v}`).join(SEPARATOR);
  }

  /**
   * "a or b or c", in the player's language.
   * @param {string[]} items
   */
  either(items) {
    return fold(items, (a, b) => this.t("table.list.or", { first: a, second: b }));
  }

  /**
   * "a and b", in the player's language.
   * @param {string} first
   * @param {string} second
   */
  both(first, second) {
    return this.t("table.list.and", { first, second });
  }

  /**
   * A plural message of `count`: "1 card", "5 cards".
   * @param {string} key
   * @param {unknown} n
   */
  count(key, n) {
    return this.t(key, { count: whole(n) });
  }
}

/**
 * @param {string[]} items
 * @param {(a: string, b: string) => string} join
 */
function fold(items, join) {
  let out = items.length ? items[0] : "";
  for (const item of items.slice(1)) {
    out = join(out, item);
  }
  return out;
}

/**
 * A count from a view, where a malformed one counts as none.
 * @param {unknown} n
 */
export function whole(n) {
  const value = Number(n);
  return Number.isFinite(value) ? Math.trunc(value) : 0;
}

/**
 * Points with their sign: "+3", "0", "-6".
 * @param {unknown} n
 */
export function signed(n) {
  return typeof n === "number" && n > 0 ? `+${n}` : String(n ?? "");
}

/**
 * The rank part of a card code ("T" of "TS", "B" of the black joker "BJ").
 * @param {string} code
 */
function rankOf(code) {
  return code.charAt(0);
}

/**
 * How many cards of each rank.
 * @param {string[]} codes
 * @returns {Map<string, number>}
 */
function rankCounts(codes) {
  const counts = new Map();
  for (const code of codes) {
    counts.set(rankOf(code), (counts.get(rankOf(code)) || 0) + 1);
  }
  return counts;
}

/**
 * @param {Map<string, number>} a
 * @param {Map<string, number>} b
 */
function sameCounts(a, b) {
  if (a.size !== b.size) return false;
  for (const [rank, n] of a) {
    if (b.get(rank) !== n) return false;
  }
  return true;
}

/** What this seat may do now; empty when it is not its turn. */
export class MoveMenu {
  /**
   * @param {string} game
   * @param {Action[]} legal the `your_turn` actions
   * @param {View} view
   * @param {Names} names
   */
  constructor(game, legal, view, names) {
    this.game = game;
    /** @type {Action[]} */
    this.legal = (legal || []).map((a) => ({ ...a }));
    this.view = view || {};
    this.names = names;
    this.t = names.t;
    /** Dou Dizhu's play phase: several cards are selected, then played as one combination. */
    this.multi = game === "doudizhu" && this.legal.some((a) => "combo" in a || "pass" in a);
    /** @type {Extra[]} */
    this.extras = [];
    for (const action of this.legal) {
      const extra = this.extra(action);
      if (extra) this.extras.push(extra);
    }
    /** @type {Map<string, Option[]>} */
    this.byCard = new Map();
    for (const action of this.legal) {
      const card = action.play;
      if (typeof card === "string") {
        const list = this.byCard.get(card) || [];
        list.push({ label: this.label(action), action });
        this.byCard.set(card, list);
      }
    }
    /** @type {[Action, Map<string, number>][]} */
    this.comboRanks = this.legal
      .filter((a) => "combo" in a && Array.isArray(a.cards))
      .map((a) => [a, rankCounts(a.cards)]);
    /** @type {Set<string>} */
    this.playableRanks = new Set();
    for (const [, ranks] of this.comboRanks) {
      for (const rank of ranks.keys()) this.playableRanks.add(rank);
    }
  }

  get active() {
    return this.legal.length > 0;
  }

  /**
   * Whether the card takes part in some legal move (for Dou Dizhu: its rank does).
   * @param {string} code
   */
  playable(code) {
    if (this.multi) return this.playableRanks.has(rankOf(code));
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

  // ------------------------------------------------------------ Dou Dizhu

  /**
   * Every legal combination the selected cards form, played with exactly those cards.
   * @param {string[]} selected
   * @returns {Option[]}
   */
  readings(selected) {
    const want = rankCounts(selected);
    const cards = [...selected];
    return this.comboRanks
      .filter(([, ranks]) => sameCounts(ranks, want))
      .map(([a]) => ({
        label: this.t("moves.reading", { combo: this.combo(a.combo), cards: this.names.cards(cards) }),
        action: { combo: a.combo, cards },
      }));
  }

  /**
   * The cards of every legal combination, in the server's order, without repeats.
   * @returns {string[][]}
   */
  suggestions() {
    /** @type {string[][]} */
    const out = [];
    const seen = new Set();
    for (const [a] of this.comboRanks) {
      const key = [...a.cards].sort().join(" ");
      if (!seen.has(key)) {
        seen.add(key);
        out.push([...a.cards]);
      }
    }
    return out;
  }

  /**
   * The suggestion after the one selected now (the first when the selection is none of them).
   * @param {string[]} selected
   * @returns {string[] | null}
   */
  nextSuggestion(selected) {
    const plays = this.suggestions();
    if (!plays.length) return null;
    const now = [...selected].sort().join(" ");
    const index = plays.findIndex((p) => [...p].sort().join(" ") === now);
    return plays[(index + 1) % plays.length];
  }

  /**
   * Why the selected cards are no legal play now, in the game's words.
   * @param {string[]} selected
   */
  whyNot(selected) {
    if (!selected.length) return this.t("webtable.why_not.nothing_selected");
    const shown = this.names.cards(selected);
    const kinds = classify(selected);
    if (!kinds.length) return this.t("moves.why_not.no_combination", { cards: shown });
    const either = this.names.either(kinds.map((k) => this.combo(k)));
    const table = this.view.table;
    if (table && typeof table === "object" && table.combo) {
      return this.t("moves.why_not.does_not_beat", {
        cards: shown,
        kinds: either,
        combo: this.combo(table.combo),
        table: this.names.cards(table.cards || []),
      });
    }
    return this.t("moves.why_not.not_now", { cards: shown, kinds: either });
  }

  /** @param {unknown} combo */
  combo(combo) {
    return comboName(this.t, combo);
  }

  // ---------------------------------------------------------------- labels

  /** @param {Action} action */
  label(action) {
    const card = this.names.card(action.play);
    if (this.game === "scopa") {
      const taken = action.capture || [];
      if (!taken.length) return this.t("moves.lay", { card });
      return this.t("moves.capture", { cards: this.names.cards(taken, " + "), card });
    }
    if (action.marriage) {
      const suit = String(action.play).slice(-1);
      const points = suit === this.view.trump ? 40 : 20;
      return this.t("moves.marriage", { card, suit: this.names.suit(suit), points });
    }
    return this.t("moves.play", { card });
  }

  /**
   * @param {Action} action
   * @returns {Extra | null}
   */
  extra(action) {
    if ("exchange" in action) {
      const jack = this.names.card(action.exchange);
      const indicator = this.view.indicator;
      const turned = indicator ? this.names.card(indicator) : this.t("moves.the_trump_card");
      return { id: "exchange", key: "x", label: this.t("moves.exchange", { jack, card: turned }), action };
    }
    if (action.close) {
      return { id: "close", key: "c", label: this.t("moves.close"), action };
    }
    if ("bid" in action) {
      const bid = whole(action.bid);
      const label = bid ? this.t("moves.bid", { bid }) : this.t("moves.no_bid");
      return { id: `bid${bid}`, key: String(bid), label, action };
    }
    if (action.pass) {
      return { id: "pass", key: "p", label: this.t("moves.pass"), action };
    }
    return null;
  }
}

/**
 * A Dou Dizhu combination by its record name (`pair`, `airplane1`) as players
 * call it; a combination the catalogue does not know is shown by its record name.
 * @param {Translate} t
 * @param {unknown} combo
 */
export function comboName(t, combo) {
  const name = String(combo ?? "");
  if (!COMBOS.includes(name)) return name;
  return t(`combo.${name}`);
}

// ---------------------------------------------------------------- Dou Dizhu

/** Rank characters from low to high: 3 .. K, A, 2, black joker B, red joker R. */
const RANKS = "3456789TJQKA2BR";
const ACE = 11;
const BLACK = 13;
const RED = 14;

/** The combination types by their record names, in the order the engine lists moves. */
export const COMBOS = [
  "single", "pair", "triple", "triple1", "triple2", "straight", "pairs", "airplane",
  "airplane1", "airplane2", "four2", "four22", "bomb", "rocket",
];

/**
 * Every combination a set of cards forms, by its record name (empty when none),
 * read from the cards' ranks as the engine reads them (`doudizhu_moves.classify`).
 * It only explains why a selection is refused: what may be played is always the
 * `your_turn` list.
 * @param {string[]} codes
 * @returns {string[]}
 */
export function classify(codes) {
  /** @type {number[]} */
  const c = new Array(RANKS.length).fill(0);
  for (const code of codes) {
    const r = RANKS.indexOf(rankOf(code));
    if (r < 0) return [];
    c[r] += 1;
  }
  const n = codes.length;
  const present = c.map((k, r) => (k ? r : -1)).filter((r) => r >= 0);
  if (!present.length) return [];
  const shape = present.map((r) => c[r]).sort((a, b) => b - a).join(",");
  const top = present[present.length - 1];
  const low = present[0];
  /** @type {Set<string>} */
  const found = new Set();
  const consecutive = top - low + 1 === present.length && top <= ACE;
  if (n === 1) found.add("single");
  else if (shape === "2") found.add("pair");
  else if (shape === "3") found.add("triple");
  else if (shape === "3,1") found.add("triple1");
  else if (shape === "3,2") found.add("triple2");
  if (consecutive && present.every((r) => c[r] === 1) && n >= 5) found.add("straight");
  if (consecutive && present.every((r) => c[r] === 2) && present.length >= 3) found.add("pairs");
  if (consecutive && present.every((r) => c[r] === 3) && present.length >= 2) found.add("airplane");
  if (n % 4 === 0 && n / 4 >= 2) {
    for (const key of cores(c, n / 4)) {
      const rest = minusCore(c, key, n / 4);
      if (rest && Math.max(...rest) <= 2 && !(rest[BLACK] && rest[RED])) found.add("airplane1");
    }
  }
  if (n % 5 === 0 && n / 5 >= 2) {
    for (const key of cores(c, n / 5)) {
      const rest = minusCore(c, key, n / 5);
      if (rest && rest.every((x) => x === 0 || x === 2)) found.add("airplane2");
    }
  }
  const fours = present.filter((r) => c[r] === 4);
  if (shape === "4" && n === 4) found.add("bomb");
  if (n === 6 && fours.length === 1 && !(c[BLACK] && c[RED])) found.add("four2");
  if (n === 8 && fours.length === 1 && shape === "4,2,2") found.add("four22");
  if (n === 2 && c[BLACK] && c[RED]) found.add("rocket");
  return COMBOS.filter((name) => found.has(name));
}

/**
 * Top ranks (3..A) of the runs of `k` consecutive triples.
 * @param {number[]} c
 * @param {number} k
 */
function cores(c, k) {
  const out = [];
  let run = 0;
  for (let top = 0; top <= ACE; top++) {
    run = c[top] >= 3 ? run + 1 : 0;
    if (run >= k) out.push(top);
  }
  return out;
}

/**
 * Counts left after an airplane core of `k` triples ending at `top`; null when a
 * core rank has a fourth card (wings never use a core rank).
 * @param {number[]} c
 * @param {number} top
 * @param {number} k
 */
function minusCore(c, top, k) {
  const rest = [...c];
  for (let r = top - k + 1; r <= top; r++) {
    if (rest[r] !== 3) return null;
    rest[r] = 0;
  }
  return rest;
}
