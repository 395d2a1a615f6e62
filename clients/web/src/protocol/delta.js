/**
 * Applying state deltas, the twin of `apply` in `protocol/delta.py`
 * (protocol/README.md, "State deltas").
 *
 * `ops` is one flat list of triples laid end to end, `kind, path, arg`:
 *
 * - `0, path, value`: set `value` at `path`;
 * - `1, path, nil`: delete the map key at `path`;
 * - `2, path, items`: extend the list at `path` with `items`;
 * - `3, path, indexes`: drop the list elements at `indexes`;
 * - `4, path, rows`: extend the list at `path` with maps; a row `[back, v1, …]`
 *   is a map with the keys of the element `back` places before it (0: the
 *   list's last element when the row is added), in sorted order;
 * - `5, path, pairs`: set several, `[step, value, step, value, …]` under the
 *   map or list at `path`, in order.
 *
 * A path is one step or a list of steps. On a list a step is an index; on a map
 * a string step is a key and an integer step the key at that position among
 * the map's keys sorted by code point (as Python sorts strings, which is not
 * JavaScript's UTF-16 order for characters outside the Basic Multilingual
 * Plane).
 *
 * `applyDelta` returns a new view and never changes the one it is given: it
 * copies only the maps and lists along the ops' paths and shares the rest.
 * An op that does not fit the view throws a `ProtocolError` `bad_frame`, and
 * since nothing of the old view was touched, the caller still holds it whole.
 */
import { isMap } from "./codec.js";
import { ProtocolError } from "./errors.js";

export const SET = 0;
export const DELETE = 1;
export const ADD = 2;
export const REMOVE = 3;
export const ROWS = 4;
export const SETS = 5;

/** Thrown inside `applyDelta` when an op does not fit; turned into `bad_frame`. */
class Misfit extends Error {}

/**
 * `view` changed by `ops`, as a new object (`view` is left as it was).
 * @param {unknown} view
 * @param {unknown} ops
 * @returns {unknown}
 */
export function applyDelta(view, ops) {
  if (!Array.isArray(ops) || ops.length % 3 !== 0) {
    throw new ProtocolError("bad_frame", `delta ops are a flat list of triples, not ${show(ops, 60)}`);
  }
  /** @type {WeakSet<object>} */
  const copied = new WeakSet();
  let result = own(view, copied);
  for (let start = 0; start < ops.length; start += 3) {
    result = applyOp(result, ops[start], ops[start + 1], ops[start + 2], copied);
  }
  return result;
}

/**
 * A shallow copy of a map or list this apply may change (other values as they are).
 * @param {unknown} value
 * @param {WeakSet<object>} copied
 * @returns {unknown}
 */
function own(value, copied) {
  /** @type {object} */
  let copy;
  if (Array.isArray(value)) {
    copy = value.slice();
  } else if (isMap(value)) {
    copy = { ...value };
  } else {
    return value;
  }
  copied.add(copy);
  return copy;
}

/**
 * @param {unknown} step
 * @returns {step is number}
 */
function isIndex(step) {
  return typeof step === "number" && Number.isInteger(step);
}

/**
 * @param {unknown} step
 * @returns {step is string | number}
 */
function isStep(step) {
  return typeof step === "string" || isIndex(step);
}

/**
 * Compares strings by code point, as Python orders `str`.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareCodePoints(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // UTF-16 puts surrogates (U+D800–U+DFFF, the halves of code points past
      // U+FFFF) below U+E000–U+FFFF; moving them above restores code point order.
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * The map's keys in code point order.
 * @param {Record<string, unknown>} map
 * @returns {string[]}
 */
export function keyOrder(map) {
  return Object.keys(map).sort(compareCodePoints);
}

/**
 * The key or index `step` names in `container`.
 * @param {Record<string, unknown> | unknown[]} container
 * @param {string | number} step
 * @returns {string | number}
 */
function keyOf(container, step) {
  if (Array.isArray(container)) {
    if (typeof step !== "number" || step < 0) {
      throw new Misfit(`a list index is a natural number, not ${show(step, 20)}`);
    }
    return step;
  }
  if (typeof step === "number") {
    if (step < 0) {
      throw new Misfit(`key position ${step}`);
    }
    const order = keyOrder(container);
    if (step >= order.length) {
      throw new Misfit(`key position ${step} of ${order.length} keys`);
    }
    return order[step];
  }
  return step;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown> | unknown[]}
 */
function isContainer(value) {
  return Array.isArray(value) || isMap(value);
}

/**
 * The value at `key` of a map or list that has it.
 * @param {Record<string, unknown> | unknown[]} container
 * @param {string | number} key
 * @returns {unknown}
 */
function get(container, key) {
  if (Array.isArray(container)) {
    if (typeof key !== "number" || key >= container.length) {
      throw new Misfit(`list index ${show(key, 20)} out of range`);
    }
    return container[key];
  }
  if (!Object.hasOwn(container, key)) {
    throw new Misfit(`no key ${show(key, 30)}`);
  }
  return container[key];
}

/**
 * Puts `value` at `key`: an existing list element, or any map key.
 * @param {Record<string, unknown> | unknown[]} container
 * @param {string | number} key
 * @param {unknown} value
 */
function put(container, key, value) {
  if (Array.isArray(container)) {
    if (typeof key !== "number" || key >= container.length) {
      throw new Misfit(`list assignment index ${show(key, 20)} out of range`);
    }
    container[key] = value;
  } else {
    // defineProperty keeps a key such as "__proto__" an ordinary key of the map
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  }
}

/**
 * The child `step` names, copied first unless this apply made it.
 * @param {unknown} parent
 * @param {string | number} step
 * @param {WeakSet<object>} copied
 * @returns {unknown}
 */
function child(parent, step, copied) {
  if (!isContainer(parent)) {
    throw new Misfit(`${show(parent, 20)} holds no ${show(step, 20)}`);
  }
  const key = keyOf(parent, step);
  let value = get(parent, key);
  if (isContainer(value) && !copied.has(value)) {
    value = own(value, copied);
    put(parent, key, value);
  }
  return value;
}

/**
 * @param {unknown} root
 * @param {unknown} kind
 * @param {unknown} path
 * @param {unknown} arg
 * @param {WeakSet<object>} copied
 * @returns {unknown}
 */
function applyOp(root, kind, path, arg, copied) {
  if (!isIndex(kind) || kind < SET || kind > SETS) {
    throw new ProtocolError("bad_frame", `unknown delta op ${show(kind, 20)}`);
  }
  const steps = isStep(path) ? [path] : path;
  if (!Array.isArray(steps) || !steps.every(isStep)) {
    throw new ProtocolError("bad_frame", `a delta path is a step or a list of steps, not ${show(path, 40)}`);
  }
  if (steps.length === 0 && (kind === SET || kind === DELETE)) {
    if (kind === SET) {
      return arg;
    }
    throw new ProtocolError("bad_frame", "a delete op needs a path");
  }
  try {
    if (!isContainer(root)) {
      throw new Misfit("the view holds no maps or lists");
    }
    if (!copied.has(root)) {
      root = own(root, copied); // a whole new view set by an earlier op
    }
    let parent = root;
    for (const step of steps.slice(0, -1)) {
      parent = child(parent, step, copied);
    }
    const last = steps[steps.length - 1];
    if (kind === SET || kind === DELETE) {
      if (!isContainer(parent)) {
        throw new Misfit(`${show(parent, 20)} holds no ${show(last, 20)}`);
      }
      const key = keyOf(parent, last);
      if (kind === SET) {
        put(parent, key, arg);
      } else if (Array.isArray(parent)) {
        throw new Misfit("delete works on map keys");
      } else {
        get(parent, key);
        delete parent[key];
      }
      return root;
    }
    const target = steps.length ? child(parent, last, copied) : root;
    if (!Array.isArray(arg)) {
      throw new Misfit(`op ${kind} takes a list`);
    }
    if (kind === SETS) {
      setSeveral(target, arg);
    } else if (!Array.isArray(target)) {
      throw new Misfit("add, remove and add rows work on lists");
    } else if (kind === ADD) {
      for (const item of arg) {
        target.push(item);
      }
    } else if (kind === REMOVE) {
      remove(target, arg);
    } else {
      for (const row of arg) {
        target.push(fromRow(target, row));
      }
    }
  } catch (error) {
    if (error instanceof Misfit) {
      throw new ProtocolError(
        "bad_frame",
        `delta op ${show([kind, path, arg], 60)} does not fit the view: ${error.message}`,
      );
    }
    throw error;
  }
  return root;
}

/**
 * Drops the elements at `indexes` (each once; a negative index counts from the
 * end of the list as it is then, as Python's `del` does).
 * @param {unknown[]} target
 * @param {unknown[]} indexes
 */
function remove(target, indexes) {
  if (!indexes.every(isIndex)) {
    throw new Misfit("remove takes indexes");
  }
  const unique = [...new Set(/** @type {number[]} */ (indexes))].sort((a, b) => b - a);
  for (const index of unique) {
    const at = index < 0 ? target.length + index : index;
    if (at < 0 || at >= target.length) {
      throw new Misfit(`list index ${index} out of range`);
    }
    target.splice(at, 1);
  }
}

/**
 * @param {unknown} target
 * @param {unknown[]} pairs
 */
function setSeveral(target, pairs) {
  if (!isContainer(target) || pairs.length % 2) {
    throw new Misfit("set several takes step, value pairs under a map or list");
  }
  /** @type {unknown[]} */
  const steps = [];
  /** @type {unknown[]} */
  const values = [];
  for (let i = 0; i < pairs.length; i += 2) {
    steps.push(pairs[i]);
    values.push(pairs[i + 1]);
  }
  if (!steps.every(isStep)) {
    throw new Misfit("a step is a key or an index");
  }
  if (!Array.isArray(target) && steps.every(isIndex)) {
    const order = keyOrder(target); // setting keys the map has keeps the order
    steps.forEach((step, i) => {
      if (step < 0 || step >= order.length) {
        throw new Misfit(`key position ${step} of ${order.length} keys`);
      }
      put(target, order[step], values[i]);
    });
    return;
  }
  steps.forEach((step, i) => {
    put(target, keyOf(target, step), values[i]);
  });
}

/**
 * The map an `add rows` row stands for.
 * @param {unknown[]} target
 * @param {unknown} row
 * @returns {unknown}
 */
function fromRow(target, row) {
  if (isMap(row)) {
    return row;
  }
  if (!Array.isArray(row) || !row.length || !isIndex(row[0]) || row[0] < 0 || row[0] >= target.length) {
    throw new Misfit(`a row is a map or [back, values…], not ${show(row, 30)}`);
  }
  const template = target[target.length - 1 - row[0]];
  if (!isMap(template) || Object.keys(template).length !== row.length - 1) {
    throw new Misfit("a row's values do not fit the keys of the element it names");
  }
  /** @type {Record<string, unknown>} */
  const map = {};
  keyOrder(template).forEach((key, i) => put(map, key, row[i + 1]));
  return map;
}

/**
 * A short description of a value for an error message.
 * @param {unknown} value
 * @param {number} limit
 * @returns {string}
 */
function show(value, limit) {
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
