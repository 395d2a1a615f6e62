// Builds the page: bundles and minifies src/main.js and src/styles/app.css
// with esbuild into dist/app.<hash>.js and dist/app.<hash>.css, writes
// dist/index.html from src/index.html naming those files, and writes
// dist/manifest.json, which maps each logical name to its file
// ({"app.js": "app.<hash>.js", ...}). index.html is the only file served
// without a long cache life; every hashed file it names is immutable. Hashed
// files of earlier builds are removed.
//
// The output depends only on the sources and the locked packages: the same
// inputs give the same bytes, which `--verify` checks by building into a
// temporary folder and comparing it with the committed dist/.
//
//   node build.mjs            build into dist/
//   node build.mjs --verify   fail if dist/ is not what the sources build

import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const DIST = join(here, "dist");

/** Logical names of the page's bundles and their entry points. */
const ENTRIES = { "app.js": "src/main.js", "app.css": "src/styles/app.css" };

/**
 * Builds every entry into `outdir`; returns the manifest.
 * @param {string} outdir
 * @returns {Promise<Record<string, string>>}
 */
async function build(outdir) {
  const result = await esbuild.build({
    absWorkingDir: here,
    entryPoints: Object.values(ENTRIES).map((entry) => ({ in: entry, out: "app" })),
    entryNames: "[name].[hash]",
    outdir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    charset: "utf8",
    legalComments: "eof",
    sourcemap: false,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  /** @type {Record<string, string>} */
  const manifest = {};
  const outputs = result.metafile.outputs;
  for (const [path, output] of Object.entries(outputs)) {
    const logical = Object.entries(ENTRIES).find(([, entry]) => entry === output.entryPoint)?.[0];
    if (logical !== undefined) {
      manifest[logical] = basename(path);
    }
  }
  await mkdir(outdir, { recursive: true });
  let page = await readFile(join(here, "src", "index.html"), "utf8");
  for (const [logical, file] of Object.entries(manifest)) {
    const named = `"./${logical}"`;
    if (!page.includes(named)) {
      throw new Error(`src/index.html does not name ${named}`);
    }
    page = page.replace(named, `"./${file}"`);
  }
  await writeFile(join(outdir, "index.html"), page);
  manifest["index.html"] = "index.html";
  const fresh = new Set(result.outputFiles.map((file) => basename(file.path)));
  for (const name of await readdir(outdir)) {
    if (isHashed(name) && !fresh.has(name)) {
      await rm(join(outdir, name));
    }
  }
  for (const file of result.outputFiles) {
    await writeFile(file.path, file.contents);
  }
  const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFile(join(outdir, "manifest.json"), `${JSON.stringify(sorted, null, 2)}\n`);
  return sorted;
}

/**
 * True for a file name a build makes from a logical name and a hash.
 * @param {string} name
 */
function isHashed(name) {
  return /^app\.[A-Z0-9]+\.(js|css)$/.test(name);
}

/**
 * The files of a folder and their bytes.
 * @param {string} folder
 * @returns {Promise<Map<string, Buffer>>}
 */
async function contents(folder) {
  /** @type {Map<string, Buffer>} */
  const files = new Map();
  /** @type {string[]} */
  let names;
  try {
    names = await readdir(folder);
  } catch {
    return files; // no folder: no files
  }
  for (const name of names.sort()) {
    files.set(name, await readFile(join(folder, name)));
  }
  return files;
}

async function verify() {
  const scratch = await mkdtemp(join(tmpdir(), "cardavia-web-"));
  try {
    await build(scratch);
    const built = await contents(scratch);
    const committed = await contents(DIST);
    const problems = [];
    for (const [name, bytes] of built) {
      const there = committed.get(name);
      if (there === undefined) {
        problems.push(`dist/${name} is missing`);
      } else if (!there.equals(bytes)) {
        problems.push(`dist/${name} differs from what the sources build`);
      }
    }
    for (const name of committed.keys()) {
      if (!built.has(name)) {
        problems.push(`dist/${name} is not built from the sources (stale)`);
      }
    }
    if (problems.length) {
      console.error(`${problems.join("\n")}\nRun \`npm run build\` and commit dist/.`);
      process.exitCode = 1;
    } else {
      console.log(`dist/ is up to date (${[...built.keys()].join(", ")})`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv.includes("--verify")) {
  await verify();
} else {
  const manifest = await build(DIST);
  console.log(`built ${Object.values(manifest).join(", ")}`);
}
