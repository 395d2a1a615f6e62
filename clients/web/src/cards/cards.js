// Card faces and backs as SVG markup strings.
//
// Everything here is pure string building: no DOM, no fonts or images
// fetched, no ids, no scripts. The markup can be inserted into a page with
// innerHTML, used as a data: URL, or tested in Node.
//
// A face is drawn on a 240 x 360 canvas (the 2:3 shape of a playing card):
// an ivory face with a rounded border, a rank index and small suit sign in
// the top-left corner (repeated upside down bottom-right), and in the middle
// either the pips of a number card, one large sign for an ace, or a framed
// double-headed bust for a court card. Suit signs come from suits.js.

import {
  SUIT_SYSTEMS,
  circlePath,
  isSuitSystem,
  placedSign,
  signElements,
  starPath,
  suitSign,
} from './suits.js';

export { SUIT_SYSTEMS };

/** @typedef {import('./suits.js').SuitSystem} SuitSystem */
/** @typedef {import('./suits.js').SuitSign} SuitSign */

/** Card ranks in code order; T is the ten. */
export const RANKS = 'A23456789TJQK';
/** Suit letters of card codes. */
export const SUITS = 'CDHS';
/** The two jokers of the 54-card pack: black (small) and red (big). */
export const JOKERS = /** @type {const} */ (['BJ', 'RJ']);

/**
 * The rank schemes of traditions.json `rank_schemes`, with the corner index
 * each draws by default. Ranks not listed use their digit ("T" shows "10").
 * Indices in the player's language (i18n `rank_indices`, such as "Kn" for a
 * Swedish knekt) can be passed to cardSvg instead.
 * @type {Record<string, Readonly<Record<string, string>>>}
 */
export const RANK_SCHEMES = {
  // Asso, Fante, Cavallo, Re.
  italian: { A: 'A', J: 'F', Q: 'C', K: 'R' },
  // As, Sota, Caballo, Rey: Spanish packs number their courts 10, 11, 12.
  spanish: { A: '1', J: '10', Q: '11', K: '12' },
  // Fante, Regina, Re of French-suited Italian packs, indexed as in the
  // international pack so that Regina and Re do not share a letter.
  french_italian: { A: 'A', J: 'J', Q: 'Q', K: 'K' },
  french: { A: 'A', J: 'J', Q: 'Q', K: 'K' },
  // Wiener Bild: Ass, König, Dame, Bube.
  schnapsen: { A: 'A', J: 'B', Q: 'D', K: 'K' },
  // Doppeldeutsche: Daus (Ass), König, Ober, Unter.
  german: { A: 'A', J: 'U', Q: 'O', K: 'K' },
};

/** The rank scheme each suit system draws when none is given. */
const DEFAULT_SCHEME = /** @type {Record<SuitSystem, string>} */ ({
  italian: 'italian',
  spanish: 'spanish',
  french: 'french',
  german: 'german',
});

/**
 * The initial shown in a court card's medallion, where it differs from the
 * corner index: Spanish corners carry numbers, the medallion the initials of
 * Sota, Caballo and Rey. (Regina and Re share an initial, so French-suited
 * Italian packs keep their J, Q, K.)
 */
export const COURT_INITIALS = /** @type {Record<string, Readonly<Record<string, string>>>} */ ({
  spanish: { J: 'S', Q: 'C', K: 'R' },
});

/** Thrown for a card code or suit system that cannot be drawn. */
export class CardFaceError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CardFaceError';
  }
}

/**
 * @typedef {object} CardOptions
 * @property {string} [label]      Accessible name, e.g. "Asso di Coppe" in the player's language (default: the code).
 * @property {string} [rankScheme] A key of RANK_SCHEMES (default: the suit system's own).
 * @property {string} [index]      Corner index text, overriding the rank scheme's (at most 3 characters read well).
 * @property {number} [width]      Width in CSS pixels; without it the SVG fills its container's width.
 * @property {string} [className]  Class attribute (default "cardavia-card").
 */

const W = 240;
const H = 360;
const FONT = 'system-ui, sans-serif';
const FACE = '#fffdf6';
const EDGE = '#2b2b2b';
const GOLD = '#e8b12a';
const GOLD_DARK = '#6b4700';
const SKIN = '#f6d9b8';
const SKIN_LINE = '#5a3a22';

/**
 * Text escaped for use inside an XML/HTML attribute or element.
 * @param {string} text
 * @returns {string}
 */
export function escapeMarkup(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The suit system, checked.
 * @param {unknown} system
 * @returns {SuitSystem}
 */
function checkSystem(system) {
  if (!isSuitSystem(system)) {
    throw new CardFaceError(`unknown suit system ${JSON.stringify(system)}: expected one of ${SUIT_SYSTEMS.join(', ')}`);
  }
  return system;
}

/**
 * Opening tag of an svg root with its accessible name.
 * @param {string} viewBox
 * @param {string} label
 * @param {string} className
 * @param {number | undefined} width
 * @param {number} aspect  height / width
 * @returns {string}
 */
function svgOpen(viewBox, label, className, width, aspect) {
  let size = '';
  if (width !== undefined) {
    if (!Number.isFinite(width) || width <= 0) throw new CardFaceError(`bad width ${width}`);
    size = ` width="${width}" height="${Math.round(width * aspect * 100) / 100}"`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}"${size} role="img"` +
    ` aria-label="${escapeMarkup(label)}" class="${escapeMarkup(className)}">`
  );
}

/**
 * The corner index of a card in a rank scheme ("T" gives "10").
 * @param {string} code  A card code such as "TH" or "QS"; jokers give "JOKER".
 * @param {string} [rankScheme]  A key of RANK_SCHEMES (default "french").
 * @returns {string}
 */
export function cardIndex(code, rankScheme = 'french') {
  if (code === 'BJ' || code === 'RJ') return 'JOKER';
  const scheme = RANK_SCHEMES[rankScheme];
  if (!scheme) throw new CardFaceError(`unknown rank scheme ${JSON.stringify(rankScheme)}`);
  const rank = code.charAt(0);
  if (!RANKS.includes(rank) || rank === '') throw new CardFaceError(`bad card code ${JSON.stringify(code)}`);
  return scheme[rank] ?? (rank === 'T' ? '10' : rank);
}

// --- Corners -----------------------------------------------------------------

/**
 * The top-left corner: the index above a small suit sign. Short indices are
 * drawn large; two or three characters are squeezed to the same width.
 * @param {string} index
 * @param {SuitSign} sign
 * @returns {string}
 */
function cornerIndex(index, sign) {
  const text = escapeMarkup(index);
  const chars = [...index].length;
  const fit = chars > 1 ? ` textLength="${chars > 2 ? 42 : 38}" lengthAdjust="spacingAndGlyphs"` : '';
  return (
    `<text x="26" y="50" font-family="${FONT}" font-size="${chars > 2 ? 34 : 44}" font-weight="700"` +
    ` text-anchor="middle" fill="${sign.ink}"${fit}>${text}</text>` +
    placedSign(sign, 26, 78, 0.32)
  );
}

/**
 * The top-left corner of a joker: JOKER spelt downwards, then a star.
 * @param {string} ink
 * @returns {string}
 */
function jokerCorner(ink) {
  const letters = [...'JOKER']
    .map((c, i) => `<text x="22" y="${36 + i * 24}" font-family="${FONT}" font-size="25" font-weight="700" text-anchor="middle" fill="${ink}">${c}</text>`)
    .join('');
  return `${letters}<path transform="translate(22 160) scale(0.16)" d="${starPath(5, 48, 20)}" fill="${ink}"/>`;
}

/**
 * A corner drawn top-left and again, turned, bottom-right.
 * @param {string} corner
 * @returns {string}
 */
function bothCorners(corner) {
  return `<g>${corner}</g><g transform="rotate(180 ${W / 2} ${H / 2})">${corner}</g>`;
}

// --- Number cards --------------------------------------------------------------

// Pip positions for 1 to 10, in the classic French arrangement: two columns
// at x 72 and 168 with a middle column at x 120, rows between y 78 and 282.
const L = 72;
const M = 120;
const R = 168;
/** @type {Record<number, ReadonlyArray<readonly [number, number]>>} */
const PIPS = {
  1: [[M, 180]],
  2: [[M, 78], [M, 282]],
  3: [[M, 78], [M, 180], [M, 282]],
  4: [[L, 78], [R, 78], [L, 282], [R, 282]],
  5: [[L, 78], [R, 78], [M, 180], [L, 282], [R, 282]],
  6: [[L, 78], [R, 78], [L, 180], [R, 180], [L, 282], [R, 282]],
  7: [[L, 78], [R, 78], [M, 129], [L, 180], [R, 180], [L, 282], [R, 282]],
  8: [[L, 78], [R, 78], [M, 129], [L, 180], [R, 180], [M, 231], [L, 282], [R, 282]],
  9: [[L, 78], [R, 78], [L, 146], [R, 146], [M, 180], [L, 214], [R, 214], [L, 282], [R, 282]],
  10: [[L, 78], [R, 78], [M, 112], [L, 146], [R, 146], [L, 214], [R, 214], [M, 248], [L, 282], [R, 282]],
};

/**
 * The pips of a number card. French and German pips in the lower half are
 * turned upside down, as printed; Italian and Spanish signs stay upright
 * (a cup or a sword upside down would read as a different picture).
 * @param {number} count
 * @param {SuitSign} sign
 * @param {SuitSystem} system
 * @returns {string}
 */
function pips(count, sign, system) {
  const turns = system === 'french' || system === 'german';
  const scale = (count >= 9 ? 0.48 : 0.54) * (sign.pipScale ?? 1);
  return (PIPS[count] ?? [])
    .map(([x, y]) => placedSign(sign, x, y, scale, turns && y > H / 2))
    .join('');
}

/**
 * The ace: one large sign inside a fine ornamental ring.
 * @param {SuitSign} sign
 * @returns {string}
 */
function ace(sign) {
  return (
    `<circle cx="${M}" cy="180" r="86" fill="none" stroke="${sign.ink}" stroke-width="2" opacity="0.45"/>` +
    `<circle cx="${M}" cy="180" r="79" fill="none" stroke="${sign.ink}" stroke-width="1" opacity="0.35"/>` +
    placedSign(sign, M, 180, Math.min(1.2 * (sign.pipScale ?? 1), 1.45))
  );
}

// --- Court cards -------------------------------------------------------------

/**
 * Headgear, hair and beard of a court figure, on the head at (120, 92).
 * @param {string} rank   J, Q or K (or "joker").
 * @param {string} scheme
 * @param {string} ink
 * @returns {{back: string, front: string}} drawn behind and in front of the face
 */
function headgear(rank, scheme, ink) {
  const line = `stroke="${SKIN_LINE}" stroke-width="2.5" stroke-linejoin="round"`;
  const gold = `fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="2.5" stroke-linejoin="round"`;
  const riders = scheme === 'italian' || scheme === 'spanish';
  if (rank === 'K') {
    return {
      back: `<path d="M97 100C96 112 104 126 120 128C136 126 144 112 143 100C136 108 104 108 97 100Z" fill="#8a8a8a" ${line}/>`,
      front:
        `<path d="M96 72L95 44L108 58L120 38L132 58L145 44L144 72Z" ${gold}/>` +
        `<path d="${circlePath(120, 52, 3.5)}${circlePath(101, 62, 2.5)}${circlePath(139, 62, 2.5)}" fill="#c8102e"/>` +
        `<path d="M96 72H144" stroke="${GOLD_DARK}" stroke-width="3"/>`,
    };
  }
  if (rank === 'Q' && riders) {
    // The knight (Cavallo, Caballo): a helmet with a plume.
    return {
      back: '',
      front:
        `<path d="M98 88C96 58 144 58 142 88L140 80C132 74 108 74 100 80Z" fill="#b8c6d6" ${line}/>` +
        `<path d="M120 62C124 44 142 34 156 38C146 44 138 52 130 66Z" fill="${ink}" ${line}/>`,
    };
  }
  if (rank === 'Q' && scheme === 'german') {
    // The Ober: a broad hat with a feather.
    return {
      back: '',
      front:
        `<path d="M88 76C96 70 144 70 152 76C146 68 140 66 138 58C130 52 110 52 102 58C100 66 94 68 88 76Z" fill="${ink}" ${line}/>` +
        `<path d="M134 60C142 44 154 38 162 38C156 46 148 54 138 64Z" fill="${GOLD}" ${line}/>`,
    };
  }
  if (rank === 'Q') {
    // The queen (Dame, Regina): long hair and a small crown.
    return {
      back: `<path d="M97 92C92 62 148 62 143 92L150 136H90Z" fill="#6b4423" ${line}/>`,
      front:
        `<path d="M100 72C104 64 136 64 140 72C130 68 110 68 100 72Z" fill="#6b4423" ${line}/>` +
        `<path d="M103 70L104 56L112 64L120 50L128 64L136 56L137 70Z" ${gold}/>` +
        `<path d="${circlePath(120, 60, 3)}" fill="#1d3b66"/>`,
    };
  }
  if (rank === 'joker') {
    // A jester's cap with three bells.
    return {
      back: '',
      front:
        `<path d="M96 80L66 46C86 46 98 56 106 64L120 30L134 64C142 56 154 46 174 46L144 80Z" fill="${ink}" ${line}/>` +
        `<path d="${circlePath(66, 46, 6)}${circlePath(120, 30, 6)}${circlePath(174, 46, 6)}" ${gold}/>`,
    };
  }
  // The jack (Fante, Sota, Bube, Unter, Knave): a cap with a feather.
  return {
    back: `<path d="M98 92C96 74 144 74 142 92L144 104H96Z" fill="#8a5a2b" ${line}/>`,
    front:
      `<path d="M94 80C94 60 146 60 146 80C134 74 106 74 94 80Z" fill="${ink}" ${line}/>` +
      `<path d="M138 68C148 56 158 52 166 54C158 60 150 68 140 76Z" fill="${GOLD}" ${line}/>`,
  };
}

/**
 * Half of a double-headed court card: a bust from the top of the frame to
 * the middle line, holding its suit sign.
 * @param {string} rank
 * @param {string} scheme
 * @param {SuitSign} sign
 * @param {string} robe
 * @returns {string}
 */
function bust(rank, scheme, sign, robe) {
  const line = `stroke="${SKIN_LINE}" stroke-width="2.5" stroke-linejoin="round"`;
  const gear = headgear(rank, scheme, robe);
  // The German Ober holds his sign high, the Unter low, as in the pack itself.
  const signY = scheme === 'german' && rank === 'J' ? 160 : scheme === 'german' && rank === 'Q' ? 120 : 146;
  return (
    // Robe, with a gold collar and a front band.
    `<path d="M66 180C68 142 88 124 120 122C152 124 172 142 174 180Z" fill="${robe}" ${line}/>` +
    `<path d="M104 124L120 146L136 124C128 122 112 122 104 124Z" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="2"/>` +
    `<path d="M116 146H124V180H116Z" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="2"/>` +
    gear.back +
    // Face: oval head, neck, eyes, nose and mouth.
    `<path d="M112 110H128V126H112Z" fill="${SKIN}" ${line}/>` +
    `<path d="${ellipseD(120, 92, 21, 25)}" fill="${SKIN}" ${line}/>` +
    `<path d="${circlePath(112, 90, 2.2)}${circlePath(128, 90, 2.2)}" fill="${SKIN_LINE}"/>` +
    `<path d="M120 93Q116 101 121 102M114 108Q120 111 126 108" fill="none" stroke="${SKIN_LINE}" stroke-width="2" stroke-linecap="round"/>` +
    gear.front +
    // The held sign sits on an ivory disc so that it shows on a robe of its own colour.
    `<circle cx="152" cy="${signY}" r="17" fill="${FACE}" stroke="${sign.ink}" stroke-width="2"/>` +
    placedSign(sign, 152, signY, 0.27)
  );
}

/**
 * Path data of an ellipse.
 * @param {number} cx
 * @param {number} cy
 * @param {number} rx
 * @param {number} ry
 * @returns {string}
 */
function ellipseD(cx, cy, rx, ry) {
  return `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0Z`;
}

/**
 * A court card (or joker) picture: a frame holding a double-headed bust,
 * with a medallion on the middle line carrying the rank's initial.
 * @param {string} rank  J, Q, K or "joker"
 * @param {string} scheme
 * @param {SuitSign} sign
 * @param {string} initial  Text of the medallion; empty for a star.
 * @param {string} ink  Colour of robe and frame.
 * @returns {string}
 */
function court(rank, scheme, sign, initial, ink) {
  const half = bust(rank, scheme, sign, ink);
  const medal = initial
    ? `<text x="${M}" y="188" font-family="${FONT}" font-size="22" font-weight="700" text-anchor="middle" fill="${ink}">${escapeMarkup(initial)}</text>`
    : `<path transform="translate(${M} 180) scale(0.2)" d="${starPath(5, 48, 20)}" fill="${ink}"/>`;
  return (
    `<rect x="54" y="22" width="132" height="316" rx="6" fill="#f4ecdb" stroke="${ink}" stroke-width="3"/>` +
    `<rect x="60" y="28" width="120" height="304" rx="3" fill="none" stroke="${ink}" stroke-width="1" opacity="0.5"/>` +
    `<g>${half}</g><g transform="rotate(180 ${M} 180)">${half}</g>` +
    `<path d="M60 180H180" stroke="${ink}" stroke-width="2"/>` +
    `<circle cx="${M}" cy="180" r="15" fill="${FACE}" stroke="${ink}" stroke-width="2.5"/>` +
    medal
  );
}

// --- Public drawing functions -------------------------------------------------

/**
 * The face of a card as a complete SVG document fragment.
 *
 * @param {string} code  Rank then suit ("AH", "TD", "QS"), or a joker "BJ" / "RJ".
 * @param {SuitSystem | string} [suitSystem]  "italian", "spanish", "french" or "german" (default "french").
 * @param {CardOptions} [options]
 * @returns {string}  An `<svg>` element with role="img" and the (escaped) label as aria-label.
 * @throws {CardFaceError} for an unknown code, suit system or rank scheme, or a joker outside the French system.
 */
export function cardSvg(code, suitSystem = 'french', options = {}) {
  const system = checkSystem(suitSystem);
  if (typeof code !== 'string') throw new CardFaceError(`bad card code ${JSON.stringify(code)}`);
  const scheme = options.rankScheme ?? DEFAULT_SCHEME[system];
  if (!Object.prototype.hasOwnProperty.call(RANK_SCHEMES, scheme)) {
    throw new CardFaceError(`unknown rank scheme ${JSON.stringify(scheme)}`);
  }
  const label = options.label ?? code;
  const open = svgOpen(`0 0 ${W} ${H}`, label, options.className ?? 'cardavia-card', options.width, H / W);
  const face = `<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="16" fill="${FACE}" stroke="${EDGE}" stroke-width="3"/>`;

  if (code === 'BJ' || code === 'RJ') {
    if (system !== 'french') throw new CardFaceError(`jokers exist only in French-suited packs, not ${system}`);
    const ink = code === 'RJ' ? '#c8102e' : '#1b1b1b';
    const star = suitSign('J', 'french');
    if (!star) throw new CardFaceError('missing joker sign');
    const sign = { ...star, ink, parts: star.parts.map((p) => ({ ...p, fill: ink })) };
    return `${open}${face}${bothCorners(jokerCorner(ink))}${court('joker', scheme, sign, '', ink)}</svg>`;
  }

  const rank = code.charAt(0);
  const suitLetter = code.charAt(1);
  const sign = suitSign(suitLetter, system);
  if (code.length !== 2 || !RANKS.includes(rank) || !SUITS.includes(suitLetter) || !sign) {
    throw new CardFaceError(`bad card code ${JSON.stringify(code)}: expected a rank of ${RANKS} then a suit of ${SUITS}, or BJ / RJ`);
  }
  const index = options.index ?? cardIndex(code, scheme);
  let middle;
  if (rank === 'J' || rank === 'Q' || rank === 'K') {
    const initial = COURT_INITIALS[scheme]?.[rank] ?? index;
    middle = court(rank, scheme, sign, [...initial].slice(0, 2).join(''), sign.ink);
  } else if (rank === 'A') {
    middle = ace(sign);
  } else {
    middle = pips(rank === 'T' ? 10 : Number(rank), sign, system);
  }
  return `${open}${face}${bothCorners(cornerIndex(index, sign))}${middle}</svg>`;
}

/**
 * The back of a card: a blue lattice in an ivory border with a central
 * medallion, the same for every pack.
 * @param {{label?: string, width?: number, className?: string}} [options]
 *   label defaults to "Card back"; pass it in the player's language.
 * @returns {string}
 */
export function backSvg(options = {}) {
  const open = svgOpen(`0 0 ${W} ${H}`, options.label ?? 'Card back', options.className ?? 'cardavia-card-back', options.width, H / W);
  const diamonds = [];
  for (let y = 34; y <= 326; y += 18) {
    for (let x = 34; x <= 206; x += 18) {
      const dx = ((y - 34) / 18) % 2 === 0 ? 0 : 9;
      if (x + dx > 206) continue;
      diamonds.push(`M${x + dx} ${y - 6}l6 6l-6 6l-6-6Z`);
    }
  }
  return (
    `${open}<rect x="2" y="2" width="${W - 4}" height="${H - 4}" rx="16" fill="${FACE}" stroke="${EDGE}" stroke-width="3"/>` +
    `<rect x="16" y="16" width="${W - 32}" height="${H - 32}" rx="8" fill="#1f3f73" stroke="#0e2347" stroke-width="2"/>` +
    `<path d="${diamonds.join('')}" fill="#3d67a8"/>` +
    `<rect x="24" y="24" width="${W - 48}" height="${H - 48}" rx="5" fill="none" stroke="${GOLD}" stroke-width="2"/>` +
    `<circle cx="${M}" cy="180" r="44" fill="#1f3f73" stroke="${GOLD}" stroke-width="3"/>` +
    `<path transform="translate(${M} 180) scale(0.7)" d="${starPath(8, 48, 22)}" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="3" stroke-linejoin="round"/>` +
    `<circle cx="${M}" cy="180" r="9" fill="#1f3f73" stroke="${GOLD}" stroke-width="2"/>` +
    '</svg>'
  );
}

/**
 * A suit sign on its own, for labels and trump indicators.
 * @param {string} suit  C, D, H or S (J gives the jokers' star in the French system).
 * @param {SuitSystem | string} [suitSystem]  Default "french".
 * @param {{label?: string, width?: number, className?: string}} [options]
 *   label defaults to the suit's English name; pass it in the player's language.
 * @returns {string}
 * @throws {CardFaceError} for an unknown suit or suit system.
 */
export function suitSvg(suit, suitSystem = 'french', options = {}) {
  const system = checkSystem(suitSystem);
  const sign = typeof suit === 'string' ? suitSign(suit, system) : undefined;
  if (!sign) throw new CardFaceError(`unknown suit ${JSON.stringify(suit)} in the ${system} system`);
  const open = svgOpen('-50 -50 100 100', options.label ?? sign.name, options.className ?? 'cardavia-suit', options.width, 1);
  return `${open}${signElements(sign)}</svg>`;
}
