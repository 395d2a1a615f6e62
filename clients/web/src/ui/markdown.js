/**
 * The rules texts' Markdown (`GET /rules/<game>`) as HTML, with markdown-it.
 *
 * The texts are the project's own, but they are rendered as untrusted input
 * all the same: raw HTML in a text is escaped (`html: false`), and
 * markdown-it's link check drops `javascript:`, `vbscript:`, `file:` and
 * `data:` addresses. The result is parsed into a `<template>` (inert: nothing
 * in it runs or loads until it is placed), under a CSP that allows no inline
 * script in any case.
 *
 * `rulesHtml` is pure (tested under Node); `render` needs a `document`.
 */

import MarkdownIt from "markdown-it";

const reader = new MarkdownIt({ html: false, linkify: false, typographer: false });

/**
 * @typedef {{ headingOffset?: number, dropTitle?: boolean }} RenderOptions
 * `headingOffset` moves every heading down that many levels (the dialog has its
 * own title, so the text's `#` becomes `h2`); `dropTitle` leaves out the text's
 * first `#` heading, which repeats the game's name the dialog already shows.
 */

/**
 * The HTML of a Markdown text.
 * @param {string} markdown
 * @param {RenderOptions} [options]
 * @returns {string}
 */
export function rulesHtml(markdown, options = {}) {
  const offset = options.headingOffset ?? 0;
  let tokens = reader.parse(markdown, {});
  if (options.dropTitle && tokens[0]?.type === "heading_open" && tokens[0].tag === "h1") {
    const close = tokens.findIndex((token) => token.type === "heading_close");
    tokens = tokens.slice(close + 1);
  }
  for (const token of tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") {
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + offset)}`;
    }
    // a table column's alignment as a class: the page's CSP refuses style attributes
    const style = token.attrGet("style");
    if (style !== null) {
      const align = /^text-align:(left|right|center)$/.exec(style)?.[1];
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
      if (align) {
        token.attrJoin("class", `align-${align}`);
      }
    }
  }
  return reader.renderer.render(tokens, reader.options, {});
}

/**
 * A Markdown text as DOM nodes of `document`.
 * @param {string} markdown
 * @param {Document} document
 * @param {RenderOptions} [options]
 * @returns {DocumentFragment}
 */
export function render(markdown, document, options = {}) {
  const template = document.createElement("template");
  template.innerHTML = rulesHtml(markdown, options);
  return template.content;
}
