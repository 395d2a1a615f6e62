// Tests of the SVG card faces: every card of every tradition in
// games/data/traditions.json is drawn as well-formed, labelled, safe markup.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  CardFaceError,
  RANK_SCHEMES,
  SUIT_SYSTEMS,
  backSvg,
  cardIndex,
  cardSvg,
  escapeMarkup,
  suitSvg,
} from '../src/cards/cards.js';

/**
 * @typedef {{id: string, cards: number, suit_system: string, rank_scheme: string}} Tradition
 * @type {{suit_codes: Record<string, Record<string, string>>, rank_schemes: Record<string, string>, traditions: Tradition[]}}
 */
const catalogue = JSON.parse(readFileSync(new URL('../../../games/data/traditions.json', import.meta.url), 'utf8'));

// The ranks of each pack size, in the order of games/cards.py DECKS.
/** @type {Record<number, string>} */
const DECK_RANKS = { 40: 'A234567JQK', 20: 'AKQJT', 54: 'A23456789TJQK' };

/**
 * Every card code of a pack of `count` cards.
 * @param {number} count
 * @returns {string[]}
 */
function deckCodes(count) {
  const ranks = DECK_RANKS[count];
  assert.ok(ranks, `no known pack of ${count} cards`);
  const codes = [...'CDHS'].flatMap((s) => [...ranks].map((r) => r + s));
  return count === 54 ? [...codes, 'BJ', 'RJ'] : codes;
}

/**
 * Checks that `markup` is one well-formed XML element: tags balanced and
 * properly nested, attributes quoted and unique, no stray "<" or "&" in text
 * or attribute values, and no unknown entities. Returns the element names in
 * document order and the root's attributes.
 * @param {string} markup
 * @returns {{names: string[], root: Record<string, string>, texts: string[], attributes: string[]}}
 */
function parseXml(markup) {
  /** @type {string[]} */
  const stack = [];
  /** @type {string[]} */
  const names = [];
  /** @type {string[]} */
  const texts = [];
  /** @type {string[]} */
  const attributes = [];
  /** @type {Record<string, string>} */
  let root = {};
  let i = 0;
  let closedRoot = false;
  const isNameChar = (/** @type {string} */ c) =>
    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '-' || c === ':' || c === '_';
  const checkEntities = (/** @type {string} */ text) => {
    let at = text.indexOf('&');
    while (at !== -1) {
      const end = text.indexOf(';', at);
      assert.ok(end !== -1, `unterminated entity in ${JSON.stringify(text)}`);
      const entity = text.slice(at + 1, end);
      assert.ok(['amp', 'lt', 'gt', 'quot', '#39', 'apos'].includes(entity), `unknown entity &${entity};`);
      at = text.indexOf('&', end);
    }
  };
  const readName = () => {
    const start = i;
    while (i < markup.length && isNameChar(markup[i])) i++;
    assert.ok(i > start, `expected a name at ${start}: ${markup.slice(start, start + 20)}`);
    return markup.slice(start, i);
  };
  const skipSpace = () => {
    while (i < markup.length && ' \t\n\r'.includes(markup[i])) i++;
  };
  while (i < markup.length) {
    if (markup[i] !== '<') {
      const end = markup.indexOf('<', i);
      const text = markup.slice(i, end === -1 ? markup.length : end);
      assert.ok(stack.length > 0 || text.trim() === '', `text outside the root: ${JSON.stringify(text)}`);
      assert.ok(!text.includes('>'), `stray ">" in text ${JSON.stringify(text)}`);
      checkEntities(text);
      if (text.trim()) texts.push(text);
      i = end === -1 ? markup.length : end;
      continue;
    }
    assert.ok(!closedRoot, 'content after the root element');
    i++;
    if (markup[i] === '/') {
      i++;
      const name = readName();
      skipSpace();
      assert.equal(markup[i], '>', `bad closing tag </${name}`);
      i++;
      assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
      if (stack.length === 0) closedRoot = true;
      continue;
    }
    const name = readName();
    names.push(name);
    /** @type {Record<string, string>} */
    const attrs = {};
    for (;;) {
      skipSpace();
      if (markup[i] === '/' && markup[i + 1] === '>') {
        i += 2;
        if (stack.length === 0) closedRoot = true;
        break;
      }
      if (markup[i] === '>') {
        i++;
        stack.push(name);
        break;
      }
      const attr = readName();
      assert.ok(!(attr in attrs), `attribute ${attr} repeated on <${name}>`);
      assert.equal(markup[i], '=', `attribute ${attr} of <${name}> has no value`);
      assert.equal(markup[i + 1], '"', `attribute ${attr} of <${name}> is not double-quoted`);
      const end = markup.indexOf('"', i + 2);
      assert.ok(end !== -1, `unterminated attribute ${attr}`);
      const value = markup.slice(i + 2, end);
      assert.ok(!value.includes('<'), `"<" in attribute ${attr}`);
      checkEntities(value);
      attrs[attr] = value;
      attributes.push(attr);
      i = end + 1;
    }
    if (names.length === 1) root = attrs;
  }
  assert.equal(stack.length, 0, `unclosed elements: ${stack.join(', ')}`);
  assert.ok(closedRoot, 'no root element');
  return { names, root, texts, attributes };
}

/**
 * The path data of every <path> in the markup.
 * @param {string} markup
 * @returns {string[]}
 */
function pathData(markup) {
  return markup.split('<path ').slice(1).map((chunk) => {
    const at = chunk.indexOf(' d="');
    const start = chunk.startsWith('d="') ? 3 : at + 4;
    return chunk.slice(start, chunk.indexOf('"', start));
  });
}

/**
 * Checks what every drawing must be: an svg root with role="img", the given
 * accessible name, and nothing that runs code or loads from elsewhere.
 * @param {string} markup
 * @param {string} label  the expected aria-label, escaped
 */
function assertSafeImage(markup, label) {
  const { names, root, attributes } = parseXml(markup);
  assert.equal(names[0], 'svg');
  assert.equal(root.xmlns, 'http://www.w3.org/2000/svg');
  assert.equal(root.role, 'img');
  assert.equal(root['aria-label'], label);
  assert.ok(root.viewBox, 'viewBox');
  for (const banned of ['script', 'image', 'use', 'foreignObject', 'style', 'a']) {
    assert.ok(!names.includes(banned), `<${banned}> in the drawing`);
  }
  for (const attr of attributes) {
    assert.ok(!attr.toLowerCase().startsWith('on'), `event handler attribute ${attr}`);
    assert.ok(!attr.toLowerCase().includes('href'), `reference to another resource (${attr})`);
    assert.ok(attr !== 'id', 'element ids clash when several cards share a page');
    assert.ok(attr !== 'style', 'inline styles');
  }
  assert.ok(!markup.includes('url('), 'url() reference');
}

test('the catalogue lists traditions of every suit system', () => {
  assert.ok(catalogue.traditions.length >= 10);
  for (const system of SUIT_SYSTEMS) {
    assert.ok(catalogue.suit_codes[system], system);
  }
  for (const t of catalogue.traditions) {
    assert.ok(SUIT_SYSTEMS.includes(/** @type {any} */ (t.suit_system)), t.id);
    assert.ok(t.rank_scheme in RANK_SCHEMES, `${t.id}: rank scheme ${t.rank_scheme} has no indices`);
    assert.equal(deckCodes(t.cards).length, t.cards, t.id);
  }
});

for (const tradition of catalogue.traditions) {
  test(`every card of ${tradition.id} is a well-formed, labelled SVG`, () => {
    const codes = deckCodes(tradition.cards);
    const seen = new Set();
    for (const code of codes) {
      const options = { rankScheme: tradition.rank_scheme };
      const markup = cardSvg(code, tradition.suit_system, options);
      assertSafeImage(markup, code);
      const index = cardIndex(code, tradition.rank_scheme);
      const { texts } = parseXml(markup);
      if (code === 'BJ' || code === 'RJ') {
        assert.equal(texts.filter((t) => 'JOKER'.includes(t)).join(''), 'JOKERJOKER', `${code} spells JOKER twice`);
      } else {
        assert.equal(texts.filter((t) => t === escapeMarkup(index)).length >= 2, true, `${code}: index ${index} in both corners`);
      }
      assert.ok(!seen.has(markup), `${code} drawn like another card`);
      seen.add(markup);
      // A label in the player's language replaces the code.
      assertSafeImage(cardSvg(code, tradition.suit_system, { ...options, label: `Card ${code}` }), `Card ${code}`);
    }
  });
}

test('indices follow the rank scheme, and can be given in the player\'s language', () => {
  assert.equal(cardIndex('TH', 'french'), '10');
  assert.equal(cardIndex('JD', 'italian'), 'F');
  assert.equal(cardIndex('QD', 'italian'), 'C');
  assert.equal(cardIndex('KS', 'spanish'), '12');
  assert.equal(cardIndex('QS', 'german'), 'O');
  assert.equal(cardIndex('JS', 'german'), 'U');
  assert.equal(cardIndex('RJ'), 'JOKER');
  const swedish = cardSvg('JH', 'french', { index: 'Kn', label: 'Hjärter knekt' });
  assertSafeImage(swedish, 'Hjärter knekt');
  assert.ok(parseXml(swedish).texts.includes('Kn'));
  assert.ok(!parseXml(swedish).texts.includes('J'));
});

test('different suits give different suit path data in every suit system', () => {
  for (const system of SUIT_SYSTEMS) {
    const drawn = [...'CDHS'].map((suit) => {
      const markup = suitSvg(suit, system);
      parseXml(markup);
      return pathData(markup).join('|');
    });
    assert.equal(new Set(drawn).size, 4, `${system}: four distinct signs`);
    // On cards too: the two of each suit share no sign path with the others.
    const twos = [...'CDHS'].map((suit) => new Set(pathData(cardSvg(`2${suit}`, system))));
    for (let a = 0; a < 4; a++) {
      for (let b = a + 1; b < 4; b++) {
        const shared = [...twos[a]].filter((d) => twos[b].has(d));
        assert.deepEqual(shared, [], `${system}: suits ${a} and ${b} share a path`);
      }
    }
  }
  // The French and German hearts differ in more than colour from the other signs,
  // and the systems' coins, bells and diamonds are distinct shapes.
  assert.notEqual(suitSvg('D', 'french'), suitSvg('D', 'german'));
  assert.notEqual(suitSvg('D', 'italian'), suitSvg('D', 'german'));
  assert.notEqual(suitSvg('S', 'french'), suitSvg('S', 'german'));
});

test('suit signs are labelled, by default with the English suit name', () => {
  assertSafeImage(suitSvg('D', 'italian'), 'Coins');
  assertSafeImage(suitSvg('C', 'german'), 'Acorns');
  assertSafeImage(suitSvg('S', 'spanish', { label: 'Espadas' }), 'Espadas');
  assertSafeImage(suitSvg('H'), 'Hearts');
  assertSafeImage(suitSvg('J', 'french'), 'Joker');
});

test('jokers are drawn, small (black) and big (red), and only in French packs', () => {
  const black = cardSvg('BJ', 'french', { label: 'Black joker' });
  const red = cardSvg('RJ', 'french', { label: 'Red joker' });
  assertSafeImage(black, 'Black joker');
  assertSafeImage(red, 'Red joker');
  assert.notEqual(black.replace('Black', 'Red'), red);
  assert.throws(() => cardSvg('RJ', 'italian'), CardFaceError);
  assert.throws(() => cardSvg('BJ', 'german'), CardFaceError);
});

test('unknown codes, suit systems and rank schemes are errors', () => {
  for (const bad of ['', 'A', 'AX', '1H', 'AHH', 'ah', 'XJ', 'JJ', 'BJ ', '10H', '<s>']) {
    assert.throws(() => cardSvg(bad, 'french'), CardFaceError, JSON.stringify(bad));
  }
  assert.throws(() => cardSvg(/** @type {any} */ (null), 'french'), CardFaceError);
  assert.throws(() => cardSvg('AH', 'tarot'), CardFaceError);
  assert.throws(() => cardSvg('AH', 'french', { rankScheme: 'tarot' }), CardFaceError);
  assert.throws(() => cardSvg('AH', 'french', { rankScheme: 'toString' }), CardFaceError);
  assert.throws(() => cardSvg('AH', 'french', { width: -1 }), CardFaceError);
  assert.throws(() => suitSvg('X', 'french'), CardFaceError);
  assert.throws(() => suitSvg('J', 'italian'), CardFaceError);
  assert.throws(() => suitSvg('toString', 'french'), CardFaceError);
  assert.throws(() => cardIndex('ZH'), CardFaceError);
  assert.throws(() => cardIndex('', 'french'), CardFaceError);
});

test('labels and caller-given texts are escaped', () => {
  const nasty = `<img src=x onerror="alert(1)">&'`;
  const escaped = '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;';
  assertSafeImage(cardSvg('AS', 'french', { label: nasty }), escaped);
  assertSafeImage(cardSvg('QS', 'french', { label: '<&">', index: '<&' }), '&lt;&amp;&quot;&gt;');
  assertSafeImage(cardSvg('5C', 'italian', { className: '"><script>' }), '5C');
  assertSafeImage(backSvg({ label: '<&">' }), '&lt;&amp;&quot;&gt;');
  assertSafeImage(suitSvg('H', 'german', { label: '<&">' }), '&lt;&amp;&quot;&gt;');
  assert.ok(!cardSvg('AS', 'french', { label: nasty }).includes('<img'));
});

test('the back is one drawing for every pack, with a default label', () => {
  assertSafeImage(backSvg(), 'Card back');
  assertSafeImage(backSvg({ label: 'Dorso', width: 60 }), 'Dorso');
  assert.equal(parseXml(backSvg({ width: 60 })).root.height, '90');
});

test('a width gives the 2:3 card its size; without one it follows its container', () => {
  const sized = parseXml(cardSvg('7D', 'spanish', { width: 60 })).root;
  assert.equal(sized.width, '60');
  assert.equal(sized.height, '90');
  const fluid = parseXml(cardSvg('7D', 'spanish')).root;
  assert.equal(fluid.width, undefined);
  assert.equal(fluid.viewBox, '0 0 240 360');
});

test('the checker itself rejects malformed markup', () => {
  assert.throws(() => parseXml('<svg><g></svg>'));
  assert.throws(() => parseXml('<svg a="1" a="2"/>'));
  assert.throws(() => parseXml('<svg>a & b</svg>'));
  assert.throws(() => parseXml('<svg a=1/>'));
  assert.throws(() => parseXml('<svg/><svg/>'));
  parseXml('<svg a="&lt;"><g/>x</svg>');
});
