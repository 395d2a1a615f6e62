// Suit signs of every suit system, drawn as SVG path data.
//
// Each sign is drawn in a 100 x 100 box centred on the origin (x and y from
// -50 to 50) and is a short list of parts, each a path with its own fill and
// outline, painted in order. Signs are told apart by shape first: colour is a
// second cue only, so the cards stay readable for colour-blind players and in
// grey-scale. No element ids are used, so any number of cards can be inlined
// into one page without clashes.

/**
 * One painted path of a suit sign.
 * @typedef {object} SuitPart
 * @property {string} d        SVG path data in the sign's 100 x 100 box.
 * @property {string} fill     Fill colour, or "none" for a stroked line.
 * @property {string} [stroke] Outline colour; no outline when absent.
 * @property {number} [width]  Outline width in box units (default 3).
 */

/**
 * A suit sign: its parts, the ink used for its corner index and court
 * robes, and an English name (the default accessible name of a lone sign).
 * @typedef {object} SuitSign
 * @property {readonly SuitPart[]} parts
 * @property {string} ink   Dark colour with good contrast on the ivory card.
 * @property {string} name
 * @property {number} [pipScale]  Enlargement of a slender sign among the pips (default 1).
 */

/** The four suit systems of traditions.json `suit_codes`. */
export const SUIT_SYSTEMS = /** @type {const} */ (['italian', 'spanish', 'french', 'german']);

/** @typedef {typeof SUIT_SYSTEMS[number]} SuitSystem */

// Palette. Every fill that is light (gold, steel, nut) carries a dark outline
// so the shape keeps its contrast against the ivory card face.
const RED = '#c8102e';
const BLACK = '#1b1b1b';
const GOLD = '#e8b12a';
const GOLD_DARK = '#6b4700';
const CUP_RED = '#b5202e';
const CUP_DARK = '#4f0a12';
const STEEL = '#a9c4e2';
const STEEL_DARK = '#1d3b66';
const WOOD = '#a0622f';
const WOOD_DARK = '#4a2810';
const GREEN = '#2e7d32';
const GREEN_DARK = '#12421a';
const GREEN_LIGHT = '#b9e0bb';
const NUT = '#d9a84e';
const NUT_DARK = '#5b3a1a';
const CAP = '#7a4a22';

/**
 * Path data of a full circle (two arcs, drawn clockwise).
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @returns {string}
 */
export function circlePath(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

/**
 * Path data of an ellipse.
 * @param {number} cx
 * @param {number} cy
 * @param {number} rx
 * @param {number} ry
 * @returns {string}
 */
function ellipsePath(cx, cy, rx, ry) {
  return `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0Z`;
}

/**
 * Path data of a star with `points` tips, outer radius `r`, inner radius `ri`.
 * @param {number} points
 * @param {number} r
 * @param {number} ri
 * @returns {string}
 */
export function starPath(points, r, ri) {
  const out = [];
  for (let i = 0; i < points * 2; i++) {
    const radius = i % 2 === 0 ? r : ri;
    const angle = (Math.PI * i) / points - Math.PI / 2;
    const x = Math.round(radius * Math.cos(angle) * 10) / 10;
    const y = Math.round(radius * Math.sin(angle) * 10) / 10;
    out.push(`${i === 0 ? 'M' : 'L'}${x} ${y}`);
  }
  return `${out.join('')}Z`;
}

// --- French suits: the classic four shapes -------------------------------

const HEART =
  'M0 44C-10 30-48 10-48-16C-48-36-28-48-12-40C-5-36-1-30 0-24C1-30 5-36 12-40' +
  'C28-48 48-36 48-16C48 10 10 30 0 44Z';
const DIAMOND = 'M0-48Q16-22 36 0Q16 22 0 48Q-16 22-36 0Q-16-22 0-48Z';
const SPADE =
  'M0-48C10-30 46-14 46 10C46 28 28 36 12 28C10 27 7 24 5 21C6 33 12 42 22 48' +
  'H-22C-12 42-6 33-5 21C-7 24-10 27-12 28C-28 36-46 28-46 10C-46-14-10-30 0-48Z';
const CLUB_LEAVES = [circlePath(0, -24, 20), circlePath(-23, 10, 20), circlePath(23, 10, 20), circlePath(0, 2, 12)].join('');
const CLUB_STEM = 'M-5 8C-5 30-12 40-22 48H22C12 40 5 30 5 8Z';

/** @type {Record<string, SuitSign>} */
const FRENCH = {
  D: { name: 'Diamonds', ink: RED, parts: [{ d: DIAMOND, fill: RED }] },
  H: { name: 'Hearts', ink: RED, parts: [{ d: HEART, fill: RED }] },
  S: { name: 'Spades', ink: BLACK, parts: [{ d: SPADE, fill: BLACK }] },
  C: {
    name: 'Clubs',
    ink: BLACK,
    parts: [
      { d: CLUB_STEM, fill: BLACK },
      { d: CLUB_LEAVES, fill: BLACK },
    ],
  },
  // The jokers' "suit": a five-pointed star, used in their corners.
  J: { name: 'Joker', ink: BLACK, parts: [{ d: starPath(5, 48, 20), fill: BLACK }] },
};

// --- Italian and Spanish suits: coins, cups, swords, batons ---------------

/** Eight small studs around the ring of a coin. */
function coinStuds() {
  const parts = [];
  for (let i = 0; i < 8; i++) {
    const a = (Math.PI * i) / 4 + Math.PI / 8;
    parts.push(circlePath(Math.round(40 * Math.cos(a) * 10) / 10, Math.round(40 * Math.sin(a) * 10) / 10, 2.6));
  }
  return parts.join('');
}

/** @type {readonly SuitPart[]} */
const COIN = [
  { d: circlePath(0, 0, 47), fill: GOLD, stroke: GOLD_DARK, width: 4 },
  { d: circlePath(0, 0, 33), fill: 'none', stroke: GOLD_DARK, width: 3 },
  { d: coinStuds(), fill: GOLD_DARK },
  { d: starPath(8, 20, 9), fill: CUP_RED, stroke: GOLD_DARK, width: 2.5 },
  { d: circlePath(0, 0, 6), fill: GOLD, stroke: GOLD_DARK, width: 2 },
];

/** @type {readonly SuitPart[]} */
const CUP = [
  { d: 'M-6 2H6V28H-6Z', fill: GOLD, stroke: GOLD_DARK },
  { d: ellipsePath(0, 15, 13, 6), fill: GOLD, stroke: GOLD_DARK },
  { d: 'M-6 28C-7 36-24 38-28 47H28C24 38 7 36 6 28Z', fill: GOLD, stroke: GOLD_DARK },
  { d: 'M-36-42H36C36-14 20 4 0 5C-20 4-36-14-36-42Z', fill: CUP_RED, stroke: CUP_DARK },
  { d: 'M-39-48H39L37-39H-37Z', fill: GOLD, stroke: GOLD_DARK },
  { d: 'M-22-30C-20-18-14-10-6-6', fill: 'none', stroke: '#f2a7ae', width: 4 },
];

/** @type {readonly SuitPart[]} */
const SWORD = [
  { d: 'M0-50L11-35V20H-11V-35Z', fill: STEEL, stroke: STEEL_DARK },
  { d: 'M0-36V16', fill: 'none', stroke: STEEL_DARK, width: 2 },
  { d: 'M-28 20H28A5 5 0 0 1 28 30H-28A5 5 0 0 1-28 20Z', fill: GOLD, stroke: GOLD_DARK },
  { d: 'M-5 30H5V41H-5Z', fill: WOOD, stroke: WOOD_DARK },
  { d: circlePath(0, 45, 5), fill: GOLD, stroke: GOLD_DARK },
];

/** @type {readonly SuitPart[]} */
const BATON = [
  { d: 'M-10-14C-18-18-24-26-26-34C-18-32-12-26-10-20Z', fill: GREEN, stroke: GREEN_DARK, width: 2 },
  { d: 'M9 6C18 2 26-6 28-14C20-12 12-6 9 0Z', fill: GREEN, stroke: GREEN_DARK, width: 2 },
  {
    d: 'M-8 48C-9 24-15-6-18-34C-19-46-10-50 0-50C10-50 19-46 18-34C15-6 9 24 8 48Z',
    fill: WOOD,
    stroke: WOOD_DARK,
  },
  { d: 'M-9-34L-1-30M3-16L11-12M-9 2L-2 6M1 22L6 25', fill: 'none', stroke: WOOD_DARK, width: 3 },
  { d: 'M-8 40H8', fill: 'none', stroke: GOLD_DARK, width: 4 },
];

/** @type {Record<string, SuitSign>} */
const ITALIAN = {
  D: { name: 'Coins', ink: GOLD_DARK, parts: COIN },
  H: { name: 'Cups', ink: CUP_RED, parts: CUP },
  S: { name: 'Swords', ink: STEEL_DARK, parts: SWORD, pipScale: 1.3 },
  C: { name: 'Batons', ink: '#2f6a1f', parts: BATON, pipScale: 1.3 },
};

/** @type {Record<string, SuitSign>} */
const SPANISH = {
  D: { name: 'Coins', ink: GOLD_DARK, parts: COIN },
  H: { name: 'Cups', ink: CUP_RED, parts: CUP },
  S: { name: 'Swords', ink: STEEL_DARK, parts: SWORD, pipScale: 1.3 },
  C: { name: 'Clubs', ink: '#2f6a1f', parts: BATON, pipScale: 1.3 },
};

// --- German suits: bells, hearts, leaves, acorns --------------------------

/** @type {readonly SuitPart[]} */
const BELL = [
  { d: circlePath(0, -40, 6), fill: 'none', stroke: NUT_DARK, width: 4 },
  { d: circlePath(0, 6, 40), fill: '#f2b705', stroke: '#5e4300' },
  { d: 'M-39-4C-20 3 20 3 39-4L40 7C20 14-20 14-40 7Z', fill: RED, stroke: '#5e0010', width: 2 },
  { d: 'M-14 28H14', fill: 'none', stroke: '#3d2b00', width: 5 },
  { d: circlePath(-15, 28, 5) + circlePath(15, 28, 5), fill: '#3d2b00' },
  { d: 'M-24-14C-20-24-12-29-4-30', fill: 'none', stroke: '#fff1b8', width: 4 },
];

/** @type {readonly SuitPart[]} */
const GERMAN_HEART = [
  { d: HEART, fill: '#d0142c', stroke: '#6d0010' },
  { d: 'M-32-20C-32-32-22-38-14-34', fill: 'none', stroke: '#ffb3bd', width: 4 },
];

const LEAF =
  'M0-50C6-42 14-40 18-34C24-34 30-28 32-20C38-16 44-8 42 2C46 10 42 20 36 24' +
  'C32 32 20 34 10 30L4 28L6 48H-6L-4 28L-10 30C-20 34-32 32-36 24C-42 20-46 10-42 2' +
  'C-44-8-38-16-32-20C-30-28-24-34-18-34C-14-40-6-42 0-50Z';

/** @type {readonly SuitPart[]} */
const GERMAN_LEAF = [
  { d: LEAF, fill: GREEN, stroke: GREEN_DARK },
  {
    d: 'M0-40V26M0-22L-16-32M0-22L16-32M0-6L-28-14M0-6L28-14M0 10L-26 8M0 10L26 8',
    fill: 'none',
    stroke: GREEN_LIGHT,
    width: 2.5,
  },
];

/** @type {readonly SuitPart[]} */
const ACORN = [
  { d: 'M0-24C0-36 6-44 14-48', fill: 'none', stroke: NUT_DARK, width: 5 },
  { d: 'M-22-4C-24 22-12 44 0 48C12 44 24 22 22-4Z', fill: NUT, stroke: NUT_DARK },
  { d: 'M-10 8C-10 22-6 32-2 38', fill: 'none', stroke: '#f3d9a0', width: 4 },
  { d: 'M-29 0C-29-28 29-28 29 0C14 6-14 6-29 0Z', fill: CAP, stroke: '#3d230d' },
  {
    d: 'M-20-6L-12-16M-8-4L2-18M6-4L14-15M-16-16L-20-10M16-4L22-10',
    fill: 'none',
    stroke: '#d2a66a',
    width: 2.5,
  },
];

/** @type {Record<string, SuitSign>} */
const GERMAN = {
  D: { name: 'Bells', ink: '#7a5200', parts: BELL },
  H: { name: 'Hearts', ink: '#b0102a', parts: GERMAN_HEART },
  S: { name: 'Leaves', ink: GREEN_DARK, parts: GERMAN_LEAF },
  C: { name: 'Acorns', ink: NUT_DARK, parts: ACORN },
};

/** @type {Record<SuitSystem, Record<string, SuitSign>>} */
const SIGNS = { italian: ITALIAN, spanish: SPANISH, french: FRENCH, german: GERMAN };

/**
 * Whether `value` names a known suit system.
 * @param {unknown} value
 * @returns {value is SuitSystem}
 */
export function isSuitSystem(value) {
  return typeof value === 'string' && /** @type {readonly string[]} */ (SUIT_SYSTEMS).includes(value);
}

/**
 * The sign of suit letter `suit` (C, D, H, S; J for the French jokers) in
 * `system`, or undefined when the system has no such suit.
 * @param {string} suit
 * @param {SuitSystem} system
 * @returns {SuitSign | undefined}
 */
export function suitSign(suit, system) {
  const table = SIGNS[system];
  return Object.prototype.hasOwnProperty.call(table, suit) ? table[suit] : undefined;
}

/**
 * SVG elements painting a sign's parts (no wrapper element).
 * @param {SuitSign} sign
 * @returns {string}
 */
export function signElements(sign) {
  return sign.parts
    .map((p) => {
      const outline = p.stroke
        ? ` stroke="${p.stroke}" stroke-width="${p.width ?? 3}" stroke-linejoin="round" stroke-linecap="round"`
        : '';
      return `<path d="${p.d}" fill="${p.fill}"${outline}/>`;
    })
    .join('');
}

/**
 * A sign placed at (x, y) and scaled from its 100-unit box.
 * @param {SuitSign} sign
 * @param {number} x
 * @param {number} y
 * @param {number} scale  1 draws the sign 100 units wide.
 * @param {boolean} [flipped]  Turned upside down, as on the lower half of a card.
 * @returns {string}
 */
export function placedSign(sign, x, y, scale, flipped = false) {
  const turn = flipped ? ' rotate(180)' : '';
  return `<g transform="translate(${x} ${y})${turn} scale(${scale})">${signElements(sign)}</g>`;
}
