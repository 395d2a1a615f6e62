// Every `profile.*` key the page's sources name is in the English catalogue, and
// every key built at run time from a prefix has its variants there (a key missing
// would show as an empty string and a console report, never as the key).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = new URL("../../../", import.meta.url);
const ENGLISH = JSON.parse(readFileSync(new URL("protocol/catalogues/profile.en.json", ROOT), "utf8"));

/** @param {string} dir @returns {string[]} */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".js") ? [readFileSync(path, "utf8")] : [];
  });
}

const SOURCE = sources(new URL("../src", import.meta.url).pathname).join("\n");

test("every profile key the page names is in the English catalogue", () => {
  const named = [...SOURCE.matchAll(/"profile\.([a-z0-9_.]+)"/g)].map((m) => m[1]);
  assert.ok(named.length > 50);
  const missing = [...new Set(named)].filter((key) => !(key in ENGLISH));
  assert.deepEqual(missing, []);
});

test("keys built at run time have every variant the page builds", () => {
  for (const result of ["won", "lost", "shared"]) assert.ok(`history.${result}` in ENGLISH);
  for (const column of ["when", "game", "opponents", "result", "rating", "replay"]) assert.ok(`history.column.${column}` in ENGLISH);
  for (const page of ["profile", "leaderboard", "history"]) assert.ok(`menu.${page}` in ENGLISH);
});

test("the six languages have the same profile keys", () => {
  const keys = Object.keys(ENGLISH).filter((k) => !k.startsWith("_") && !k.startsWith("cli.")).sort();
  for (const lang of ["it", "sv", "nb", "es", "pl"]) {
    const own = JSON.parse(readFileSync(new URL(`protocol/catalogues/profile.${lang}.json`, ROOT), "utf8"));
    assert.deepEqual(Object.keys(own).filter((k) => !k.startsWith("_") && !k.startsWith("cli.")).sort(), keys, lang);
  }
});
