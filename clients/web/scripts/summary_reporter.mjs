/**
 * A reporter for Node's test runner that prints one line per test file and, for
 * each failure, its name and error: what the project's test command needs to
 * show (the default reporter prints every one of several hundred tests).
 *
 *   node --test --test-reporter=./scripts/summary_reporter.mjs test/*.test.js
 *
 * A file that fails to load is reported as a failure of the file itself.
 */
import { relative } from 'node:path';
import { inspect } from 'node:util';

/**
 * @typedef {{ passed: number, failed: number, skipped: number }} Tally
 * @typedef {{ file: string, name: string, error: unknown }} Failure
 */

/**
 * The file a test event belongs to, relative to the working folder.
 * @param {{ file?: string }} data
 */
function fileOf(data) {
  return data.file ? relative(process.cwd(), data.file) : '(no file)';
}

/**
 * The error of a failed test, without the runner's wrapper around it.
 * @param {unknown} error
 * @returns {string}
 */
function describe(error) {
  const cause = /** @type {{ cause?: unknown }} */ (error)?.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : inspect(cause, { depth: 4 });
  return text
    .split('\n')
    .slice(0, 20)
    .map((line) => `      ${line}`)
    .join('\n');
}

/**
 * @param {AsyncIterable<{ type: string, data: any }>} source the runner's events
 * @returns {AsyncGenerator<string>}
 */
export default async function* summaryReporter(source) {
  /** @type {Map<string, Tally>} */
  const files = new Map();
  /** @type {Failure[]} */
  const failures = [];
  const tally = (/** @type {string} */ file) => {
    let entry = files.get(file);
    if (!entry) {
      entry = { passed: 0, failed: 0, skipped: 0 };
      files.set(file, entry);
    }
    return entry;
  };
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:pass' || type === 'test:fail') {
      if (data.details?.type === 'suite') continue; // its tests are counted one by one
      const entry = tally(fileOf(data));
      if (data.skip || data.todo) entry.skipped += 1;
      else if (type === 'test:pass') entry.passed += 1;
      else {
        entry.failed += 1;
        failures.push({ file: fileOf(data), name: data.name, error: data.details?.error });
      }
    } else if (type === 'test:stderr' || type === 'test:stdout') {
      yield data.message; // a test's own output is rare and may explain a failure
    }
  }
  let passed = 0;
  let failed = 0;
  for (const [file, entry] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    passed += entry.passed;
    failed += entry.failed;
    const skipped = entry.skipped ? `, ${entry.skipped} skipped` : '';
    const mark = entry.failed ? 'FAIL' : 'ok  ';
    const counts = entry.failed ? `${entry.failed} of ${entry.passed + entry.failed} failed` : `${entry.passed} passed`;
    yield `${mark} ${file}: ${counts}${skipped}\n`;
  }
  for (const failure of failures) {
    yield `\nFAILED ${failure.file} › ${failure.name}\n${describe(failure.error)}\n`;
  }
  yield `\n${files.size} files: ${passed} passed, ${failed} failed\n`;
}
