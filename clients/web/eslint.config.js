import js from "@eslint/js";
import globals from "globals";

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
    files: ["src/**/*.js"],
    ignores: ["src/protocol/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["test/**/*.js", "scripts/**/*.mjs", "*.mjs", "*.js"],
    ignores: ["src/**"],
    languageOptions: { globals: { ...globals.node } },
  },
];
