/**
 * The page's entry point (`build.mjs` bundles this file): boots the lobby and
 * the connection inside the page's `#app` element.
 */
import { start } from "./ui/start.js";

start(window).catch((error) => {
  // The page cannot work at all (no catalogue, no storage): say so in the frame
  // rather than leave the boot spinner turning.
  console.error(error);
  document.getElementById("app")?.setAttribute("aria-busy", "false");
});
