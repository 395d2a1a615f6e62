// What the page remembers, and the display filters of each level.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  SETTINGS_KEY,
  contrastFactor,
  defaultSettings,
  grainAlpha,
  grainImage,
  level,
  readSettings,
  rootFilter,
  temperatureMatrix,
  writeSettings,
} from "../src/ui/settings.js";

function memory() {
  /** @type {Map<string, string>} */
  const items = new Map();
  return {
    items,
    /** @param {string} key */
    getItem: (key) => items.get(key) ?? null,
    /** @param {string} key @param {string} value */
    setItem: (key, value) => void items.set(key, value),
    /** @param {string} key */
    removeItem: (key) => void items.delete(key),
  };
}

test("the display settings start in the middle", () => {
  const settings = readSettings(memory());
  assert.deepEqual(settings, defaultSettings());
  assert.equal(settings.contrast, 50);
  assert.equal(settings.grain, 50);
  assert.equal(settings.temperature, 50);
  assert.equal(settings.lang, null);
});

test("settings come back as they were stored", () => {
  const storage = memory();
  const settings = { ...defaultSettings(), lang: "pl", name: "Ola", contrast: 70, grain: 0, temperature: 100, levels: { scopa: "strong" } };
  assert.ok(writeSettings(storage, settings));
  assert.deepEqual(readSettings(storage), settings);
});

test("broken or hostile stored settings give defaults", () => {
  const storage = memory();
  storage.setItem(SETTINGS_KEY, "{not json");
  assert.deepEqual(readSettings(storage), defaultSettings());
  storage.setItem(SETTINGS_KEY, JSON.stringify({ contrast: 900, grain: "x", temperature: -5, levels: [1], lang: 3 }));
  const read = readSettings(storage);
  assert.equal(read.contrast, 100);
  assert.equal(read.grain, 50);
  assert.equal(read.temperature, 0);
  assert.deepEqual(read.levels, {});
  assert.equal(read.lang, null);
  const refusing = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); }, removeItem() {} };
  assert.deepEqual(readSettings(refusing), defaultSettings());
  assert.equal(writeSettings(refusing, defaultSettings()), false);
});

test("levels are whole numbers from 0 to 100", () => {
  assert.equal(level(49.6), 50);
  assert.equal(level("75"), 75);
  assert.equal(level(-1), 0);
  assert.equal(level(Infinity), 50);
});

test("the middle changes nothing; the ends soften, strengthen, cool and warm", () => {
  assert.equal(rootFilter({ contrast: 50, temperature: 50 }), "none");
  assert.equal(contrastFactor(50), 1);
  assert.equal(contrastFactor(0), 0.5);
  assert.equal(contrastFactor(100), 1.5);
  assert.equal(rootFilter({ contrast: 100, temperature: 50 }), "contrast(1.5)");
  assert.equal(rootFilter({ contrast: 50, temperature: 80 }), "url(#cardavia-temperature)");
  assert.equal(temperatureMatrix(50), "1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0");
  const rows = (/** @type {number} */ v) => temperatureMatrix(v).split(" ").map(Number);
  const warm = rows(100);
  const cool = rows(0);
  assert.ok(warm[0] > 1 && warm[12] < 1, "warmer: more red, less blue");
  assert.ok(cool[0] < 1 && cool[12] > 1, "cooler: less red, more blue");
});

test("grain is an SVG data image, none at 0", () => {
  assert.equal(grainImage(0), null);
  assert.equal(grainAlpha(0), 0);
  assert.ok(grainAlpha(100) > grainAlpha(50));
  const image = grainImage(50);
  assert.ok(image?.startsWith("data:image/svg+xml,"));
  const svg = decodeURIComponent(String(image).slice("data:image/svg+xml,".length));
  assert.match(svg, /feTurbulence/);
  assert.doesNotMatch(svg, /<script|href=/);
});
