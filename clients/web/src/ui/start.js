/**
 * Boots the page: `start(window)` builds the frame, the lobby and the
 * connection inside the page's `#app` element (see src/index.html).
 */
import { App } from "./app.js";

/**
 * @param {Window & typeof globalThis} win
 * @returns {Promise<App>}
 */
export async function start(win) {
  const app = new App(win);
  await app.start();
  return app;
}
