// How the table names cards, suits, seats and numbers in the player's language.
//
// Plain text from the catalogue's words, with no page around it: the game
// modules, the move menu and the log use it alike, in the page and in Node's tests.

/**
 * @typedef {(key: string, args?: Record<string, unknown>) => string} Translate
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

  /**
   * A suit's name inside a sentence ("announces a marriage in hearts"): every language
   * Cardavia speaks writes suits in lower case in running text, as its glossary says,
   * while card labels ("Hearts · King") keep the capital.
   * @param {unknown} letter
   */
  suitWord(letter) {
    return this.suit(letter).toLocaleLowerCase();
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
