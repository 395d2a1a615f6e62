// The rules texts' Markdown as HTML: markdown-it, with raw HTML and unsafe links refused.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { rulesHtml } from "../src/ui/markdown.js";

const RULES = new URL("../../../games/data/rules/", import.meta.url);

test("headings move down a level and the title can be left out", () => {
  const html = rulesHtml("# Scopa\n\n## Setup\n\nOne line\nand the next.\n\n- first\n- second\n", {
    headingOffset: 1,
    dropTitle: true,
  });
  assert.ok(!html.includes("Scopa"), html);
  assert.match(html, /^<h3>Setup<\/h3>/);
  assert.match(html, /<ul>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ul>/);
  assert.equal(rulesHtml("# A\n", {}), "<h1>A</h1>\n");
});

test("raw HTML stays text, and unsafe links are not links", () => {
  const html = rulesHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1)) [y](https://example.org/r)');
  assert.ok(!html.includes("<script"), html);
  assert.ok(!html.includes("<img"), html);
  assert.ok(!html.includes('href="javascript'), html);
  assert.ok(html.includes('<a href="https://example.org/r">y</a>'), html);
});

test("pipe tables keep their alignment as classes, never as style attributes the CSP refuses", () => {
  const html = rulesHtml("| Winner | Landlord |\n|:-------|---------:|\n| Peasants | − 2 × bid |\n");
  assert.match(html, /<th class="align-left">Winner<\/th>/);
  assert.match(html, /<td class="align-right">− 2 × bid<\/td>/);
  assert.ok(!html.includes("style="), html);
});

test("every rules text reads without a stray marker", () => {
  const files = readdirSync(RULES).filter((name) => name.endsWith(".md"));
  assert.ok(files.length >= 24);
  for (const name of files) {
    const html = rulesHtml(readFileSync(new URL(name, RULES), "utf8"));
    assert.match(html, /^<h1>/, name);
    assert.ok(!html.includes("**"), `${name} has an unread ** marker`);
    assert.ok(!/(^|>)#+ /m.test(html), `${name} has an unread heading`);
  }
});
