// Times the page's own delta path in a browser: `ViewStore.onDelta` (which
// calls `applyDelta` from src/protocol/delta.js), and `decodeServer` plus
// `onDelta` for a delta as it arrives in a binary frame.
//
// `bench/web_page.py` bundles this file with esbuild (never into dist/) and
// loads it into a page served with cross-origin isolation, where Chromium's
// `performance.now()` has a 5 µs resolution (100 µs without it). The page
// calls `runDeltaBench(fixture, options)` with the recorded streams of
// test/fixtures/deltas.json: each stream is a first view and, for each delta,
// its ops and the view after it.
//
// Three measurements, each a duration per delta:
//
// - `single`: every stream played once from its first view, each `onDelta`
//   timed alone. The first pass over the streams runs in cold code (the
//   engine has not optimised it yet), as a page's first deltas do; a single
//   apply of a few microseconds is near the timer's resolution, so these
//   figures are coarse.
// - `repeated`: each delta applied `repeat` times to the same view (the store
//   is put back to the view before it each time: `applyDelta` never changes
//   the view it is given, so every repeat does the same work), the batch
//   timed and divided by `repeat`: below the timer's resolution, and warm.
// - `decoded`: the same, with the delta first decoded from its msgpack frame
//   by the page's codec, as the session does for every frame it receives.

/* global performance, navigator -- this module runs in the browser only */
import { encode } from "@msgpack/msgpack";

import { decodeServer } from "../src/protocol/codec.js";
import { ViewStore } from "../src/protocol/store.js";

/**
 * @typedef {{ game: string, seed: string, recipient: number | null, first: Record<string, unknown>, steps: [unknown[], unknown][] }} Stream
 * @typedef {{ game: string, index: number, opsLength: number, single: number, repeated: number, decoded: number }} Timing
 */

/**
 * The views of a stream, before each delta, as the store holds them.
 * @param {Stream} stream
 * @returns {Record<string, unknown>[]}
 */
function viewsBefore(stream) {
  const store = new ViewStore();
  store.onSnapshot({ seq: 0, view: stream.first, seat: stream.recipient });
  /** @type {Record<string, unknown>[]} */
  const views = [];
  stream.steps.forEach(([ops], index) => {
    views.push(/** @type {Record<string, unknown>} */ (store.view));
    if (!store.onDelta({ seq: index + 1, ops })) {
      throw new Error(`${stream.game} ${stream.seed}: delta ${index + 1} does not fit: ${store.lastError}`);
    }
  });
  return views;
}

/**
 * @param {Stream[]} streams
 * @returns {number[]} the time of each `onDelta`, in milliseconds, in stream order
 */
function timeSingle(streams) {
  /** @type {number[]} */
  const out = [];
  for (const stream of streams) {
    const store = new ViewStore();
    store.onSnapshot({ seq: 0, view: stream.first, seat: stream.recipient });
    let seq = 0;
    for (const [ops] of stream.steps) {
      seq += 1;
      const message = { seq, ops };
      const start = performance.now();
      const ok = store.onDelta(message);
      out.push(performance.now() - start);
      if (!ok) throw new Error(`${stream.game}: delta ${seq} was refused`);
    }
  }
  return out;
}

/**
 * @param {Record<string, unknown>[][]} before the views before each delta, per stream
 * @param {Stream[]} streams
 * @param {number} repeat
 * @param {boolean} decoded
 * @returns {number[]}
 */
function timeRepeated(before, streams, repeat, decoded) {
  /** @type {number[]} */
  const out = [];
  const store = new ViewStore();
  streams.forEach((stream, s) => {
    store.onSnapshot({ seq: 0, view: stream.first, seat: stream.recipient });
    stream.steps.forEach(([ops], index) => {
      const seq = index + 1;
      const view = before[s][index];
      const frame = encode({ type: "delta", seq, ops });
      const message = { seq, ops };
      let refused = 0;
      const start = performance.now();
      for (let r = 0; r < repeat; r += 1) {
        store.view = view;
        store.seq = index;
        if (!store.onDelta(decoded ? /** @type {{ seq: number, ops: unknown }} */ (/** @type {unknown} */ (decodeServer(frame))) : message)) {
          refused += 1;
        }
      }
      out.push((performance.now() - start) / repeat);
      if (refused) throw new Error(`${stream.game}: delta ${seq} was refused`);
    });
  });
  return out;
}

/**
 * @param {{ streams: Stream[] }} fixture
 * @param {{ repeat?: number, passes?: number }} options
 */
export function runDeltaBench(fixture, options = {}) {
  const repeat = options.repeat ?? 200;
  const passes = options.passes ?? 3;
  const streams = fixture.streams;
  const before = streams.map(viewsBefore);
  // cold: the first time the code runs on these streams (viewsBefore above ran it once already,
  // so the first timed pass is the second run: nearly as cold as a page's first deltas)
  const singleFirst = timeSingle(streams);
  /** @type {number[][]} */
  const singleWarm = [];
  for (let p = 0; p < passes; p += 1) singleWarm.push(timeSingle(streams));
  /** @type {number[][]} */
  const repeated = [];
  /** @type {number[][]} */
  const decoded = [];
  for (let p = 0; p < passes; p += 1) {
    repeated.push(timeRepeated(before, streams, repeat, false));
    decoded.push(timeRepeated(before, streams, repeat, true));
  }
  /** @type {{ game: string, opsLength: number }[]} */
  const deltas = [];
  for (const stream of streams) {
    for (const [ops] of stream.steps) deltas.push({ game: stream.game, opsLength: ops.length / 3 });
  }
  // each delta's figure: the median of its passes (a collection that lands in one pass still counts
  // when it lands in most of them)
  const best = (/** @type {number[][]} */ runs) => runs[0].map((_, i) => {
    const times = runs.map((run) => run[i]).sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  });
  return {
    isolated: globalThis.crossOriginIsolated === true,
    userAgent: navigator.userAgent,
    repeat,
    passes,
    deltas,
    singleFirst,
    singleWarm: best(singleWarm),
    repeated: best(repeated),
    decoded: best(decoded),
  };
}

/** Resolution of `performance.now()` as seen here: the smallest step between two different readings. */
export function timerStep() {
  let smallest = Infinity;
  for (let i = 0; i < 200; i += 1) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    smallest = Math.min(smallest, b - a);
  }
  return smallest;
}

Object.assign(globalThis, { runDeltaBench, timerStep });
