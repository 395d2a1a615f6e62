// Texts from the served catalogues: ICU plurals, fallback to English, no raw
// keys, and the first language from the browser's list.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import IntlMessageFormat from "intl-messageformat";

import { LANGUAGES, createTranslator, normalize, pickLanguage } from "../src/protocol/i18n.js";

const here = dirname(fileURLToPath(import.meta.url));
const CATALOGUES = join(here, "../../../protocol/catalogues");

const POLISH = {
  lang: "pl",
  fallback: "en",
  languages: [...LANGUAGES],
  messages: {
    "summary.points": "{count, plural, one {# punkt} few {# punkty} many {# punktów} other {# punktu}}",
    "table.turn": "Ruch: {name}",
    "table.score": "{name}: {points}",
  },
};

const ENGLISH = {
  lang: "en",
  fallback: "en",
  languages: [...LANGUAGES],
  messages: {
    "summary.points": "{count, plural, one {# point} other {# points}}",
    "table.turn": "{name} to play",
    "table.only_english": "Only in English, {name}",
    "errors.unknown": "Something went wrong.",
    "errors.room_full": "This room is full.",
  },
};

test("Polish plurals: 1 punkt, 2 punkty, 5 punktów, 22 punkty, 1.5 punktu", () => {
  const { t } = createTranslator(POLISH);
  assert.equal(t("summary.points", { count: 1 }), "1 punkt");
  assert.equal(t("summary.points", { count: 2 }), "2 punkty");
  assert.equal(t("summary.points", { count: 5 }), "5 punktów");
  assert.equal(t("summary.points", { count: 22 }), "22 punkty");
  assert.equal(t("summary.points", { count: 12 }), "12 punktów");
  assert.equal(t("summary.points", { count: 1.5 }), "1,5 punktu");
});

test("placeholders take names; a whole number is grouped as the language writes it", () => {
  const en = createTranslator({ ...ENGLISH, messages: { ...ENGLISH.messages, score: "{name}: {points}" } });
  assert.equal(en.t("table.turn", { name: "Łukasz" }), "Łukasz to play");
  assert.equal(en.t("score", { name: "Anna", points: 12345 }), "Anna: 12,345");
  const pl = createTranslator(POLISH);
  assert.equal(pl.t("table.score", { name: "Anna", points: 12345 }), "Anna: 12\u00a0345");
});

test("a key the catalogue lacks reads in English from the fallback catalogue", () => {
  const { t, has } = createTranslator(POLISH, { fallback: ENGLISH });
  assert.equal(t("table.only_english", { name: "Ola" }), "Only in English, Ola");
  assert.equal(t("table.turn", { name: "Ola" }), "Ruch: Ola");
  assert.equal(has("table.only_english"), true);
});

test("a key missing everywhere is an empty string and a report, never the raw key", () => {
  /** @type {unknown[]} */
  const problems = [];
  const { t, has } = createTranslator(POLISH, { fallback: ENGLISH, onProblem: (p) => problems.push(p) });
  assert.equal(t("lobby.no_such_key"), "");
  assert.equal(has("lobby.no_such_key"), false);
  assert.deepEqual(problems, [{ kind: "missing", key: "lobby.no_such_key", lang: "pl" }]);
});

test("a message that cannot be formatted is an empty string and a report", () => {
  /** @type {{ kind: string, key: string }[]} */
  const problems = [];
  const catalogue = { lang: "en", messages: { broken: "{count, plural, one {# x}", needs: "Hello {name}" } };
  const { t } = createTranslator(catalogue, { onProblem: (p) => problems.push(p) });
  assert.equal(t("broken", { count: 1 }), "");
  assert.equal(t("needs"), "");
  assert.deepEqual(problems.map((p) => [p.kind, p.key]), [["format", "broken"], ["format", "needs"]]);
});

test("markup-like text stays text, as the Python formatter reads it", () => {
  const { t } = createTranslator({ lang: "en", messages: { keys: "Press <Enter> to play, {name}" } });
  assert.equal(t("keys", { name: "<b>Anna</b>" }), "Press <Enter> to play, <b>Anna</b>");
});

test("error codes read as the catalogue's sentence, else the server's message, else the general one", () => {
  const { error } = createTranslator(ENGLISH);
  assert.equal(error("room_full", "room r-1 is full"), "This room is full.");
  assert.equal(error("brand_new_code", "a newer server's words"), "a newer server's words");
  assert.equal(error("brand_new_code"), "Something went wrong.");
});

test("the page's language is the first of the browser's that Cardavia speaks, else English", () => {
  assert.equal(pickLanguage(["pl-PL", "en-US"]), "pl");
  assert.equal(pickLanguage(["de-DE", "sv-SE", "en"]), "sv");
  assert.equal(pickLanguage(["no"]), "nb");
  assert.equal(pickLanguage(["nn"]), "nb");
  assert.equal(pickLanguage(["nb-NO"]), "nb");
  assert.equal(pickLanguage(["es-419"]), "es");
  assert.equal(pickLanguage(["IT"]), "it");
  assert.equal(pickLanguage(["fr-FR", "de"]), "en");
  assert.equal(pickLanguage([]), "en");
  assert.equal(pickLanguage(undefined), "en");
  assert.equal(normalize("nb_NO.UTF-8"), "nb");
  assert.equal(normalize("zh-Hans-CN"), null);
});

test("the translator's language is the catalogue's", () => {
  assert.equal(createTranslator(POLISH).lang, "pl");
  assert.equal(createTranslator({ lang: "xx", messages: {} }).lang, "en");
});

test("every message of every shipped catalogue compiles for the browser", () => {
  const files = readdirSync(CATALOGUES).filter((name) => name.endsWith(".json"));
  assert.ok(files.length > 0);
  let count = 0;
  for (const name of files) {
    const lang = name.split(".")[1];
    /** @type {Record<string, unknown>} */
    const messages = JSON.parse(readFileSync(join(CATALOGUES, name), "utf8"));
    for (const [key, text] of Object.entries(messages)) {
      if (key.startsWith("_") || typeof text !== "string") {
        continue; // notes about the file, not messages
      }
      assert.doesNotThrow(() => new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }), `${name}: ${key}`);
      count++;
    }
  }
  assert.ok(count > 100);
});
