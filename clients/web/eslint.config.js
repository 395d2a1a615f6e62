import js from "@eslint/js";
import globals from "globals";

/**
 * The page's pure modules, tested under Node: the state modules (`reduce(state,
 * message) -> state`: the lobby's, the table's, any `*_state.js` or `state*.js`
 * or a `state/` folder), the routing of refusals, the table's message readers
 * and intents, and Dou Dizhu's combination rules.
 */
const PURE_STATE = [
  "src/**/*_state.js",
  "src/**/state*.js",
  "src/**/state/**/*.js",
  "src/ui/refusals.js",
  "src/ui/table/messages.js",
  "src/ui/table/input.js",
  "src/ui/tables/doudizhu_play.js",
];

export default [
  { ignores: ["dist/", "node_modules/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    // The page's own code runs in the browser.
    // The protocol modules run in the page and in Node's tests alike: sockets,
    // timers and storage are passed in, so they get no environment globals.
    // Nor do the page's pure state modules (below).
    files: ["src/**/*.js"],
    ignores: ["src/protocol/**", ...PURE_STATE],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // A pure state module holds plain data and reduces messages into the next
    // state; the render and input modules read it. It reaches no page: no
    // browser global, and no module that draws or listens.
    files: PURE_STATE,
    rules: {
      "no-restricted-globals": [
        "error",
        ...["document", "window", "navigator", "location", "history", "localStorage", "sessionStorage", "CSS", "setTimeout", "setInterval"].map((name) => ({
          name,
          message: "a state module is pure: the page's objects are the render and input modules' to use",
        })),
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [{
            group: ["**/*render*.js", "**/*_input.js", "**/frame.js", "**/app.js", "**/table.js"],
            message: "a state module is pure: it imports no module that draws or listens",
          }],
        },
      ],
    },
  },
  {
    files: ["test/**/*.js", "scripts/**/*.mjs", "*.mjs", "*.js"],
    ignores: ["src/**"],
    languageOptions: { globals: { ...globals.node } },
  },
];
