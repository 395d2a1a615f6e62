// Writes a contact sheet of every card face of every deck tradition, for
// people to look at the art (not shipped with the client).
//
//   node scripts/card_sheet.mjs /tmp/sheet.html [--width 60] [--only bolognese,french54]
//
// The output is a self-contained HTML page: one section per tradition of
// games/data/traditions.json, each with its cards, its four suit signs and the
// card back. Open it in a browser, or screenshot it with a headless one.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { backSvg, cardSvg, escapeMarkup, suitSvg } from '../src/cards/cards.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalogue = resolve(here, '../../../games/data/traditions.json');

// The rank order of each pack size, as in games/cards.py DECKS.
/** @type {Record<string, string>} */
const DECK_RANKS = { 40: 'A234567JQK', 20: 'AKQJT', 54: 'A23456789TJQK' };

/**
 * @param {string[]} argv
 * @returns {{out: string, width: number, only: string[] | null}}
 */
function parseArgs(argv) {
  let out = '';
  let width = 90;
  /** @type {string[] | null} */
  let only = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--width') width = Number(argv[++i]);
    else if (arg === '--only') only = String(argv[++i]).split(',');
    else if (!out) out = arg;
  }
  if (!out || !(width > 0)) {
    process.stderr.write('usage: node scripts/card_sheet.mjs OUTPUT.html [--width PX] [--only id,id]\n');
    process.exit(2);
  }
  return { out, width, only };
}

/**
 * @param {number} count
 * @returns {string[]}
 */
function deckCodes(count) {
  const ranks = DECK_RANKS[count];
  if (!ranks) throw new Error(`no known pack of ${count} cards`);
  const codes = [...'CDHS'].flatMap((s) => [...ranks].map((r) => r + s));
  return count === 54 ? [...codes, 'BJ', 'RJ'] : codes;
}

const { out, width, only } = parseArgs(process.argv.slice(2));
/** @type {{traditions: Array<{id: string, name: string, cards: number, suit_system: string, rank_scheme: string}>}} */
const data = JSON.parse(readFileSync(catalogue, 'utf8'));

const sections = data.traditions
  .filter((t) => !only || only.includes(t.id))
  .map((t) => {
    const cards = deckCodes(t.cards)
      .map((code) => cardSvg(code, t.suit_system, { rankScheme: t.rank_scheme, width }))
      .join('');
    const suits = [...'CDHS'].map((s) => suitSvg(s, t.suit_system, { width: 28 })).join('');
    return (
      `<section><h2>${escapeMarkup(t.name)} <small>${escapeMarkup(t.id)} · ${escapeMarkup(t.suit_system)} · ` +
      `${escapeMarkup(t.rank_scheme)} · ${t.cards} cards</small> ${suits}</h2>` +
      `<div class="cards">${cards}${backSvg({ width })}</div></section>`
    );
  })
  .join('\n');

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cardavia card faces</title>
<style>
body { font-family: system-ui, sans-serif; background: #2f6b45; color: #fff; margin: 12px; }
h2 { font-size: 15px; margin: 10px 0 4px; display: flex; align-items: center; gap: 6px; }
h2 small { font-weight: 400; opacity: .8; }
h2 svg { background: #fff; border-radius: 4px; padding: 2px; }
.cards { display: flex; flex-wrap: wrap; gap: 4px; }
</style></head><body>
<h1 style="font-size:18px">Cardavia card faces (${width}px wide)</h1>
${sections}
</body></html>
`;
writeFileSync(out, page);
process.stdout.write(`wrote ${out}\n`);
