/**
 * Small, total helpers for reading untrusted parsed JSON.
 *
 * Every lookup is an own-property lookup: inherited members (`constructor`, `toString`,
 * `__proto__` accessor, ...) are never seen, so a body such as `{"constructor": 1}` or an
 * object without the key can never pick up something from `Object.prototype`.
 * Note: `JSON.parse` stores a `"__proto__"` key as an ordinary own data property, which
 * `own()` reads like any other key (it does not touch the prototype).
 */

import { boundedMemo } from './memo';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `v` as an integer (floored) if it is a finite number ≥ `min`, else undefined: the one check for
 * numeric limits.
 */
export function intAtLeast(v: unknown, min: number): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? Math.floor(v) : undefined;
}

/** A non-null, non-array object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `obj[key]` if `obj` is a record (or array) that has `key` as an OWN property; otherwise
 * undefined. Never throws.
 */
export function own(obj: unknown, key: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  try {
    return hasOwn.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
  } catch {
    // A Proxy or a throwing getter: treat as absent.
    return undefined;
  }
}

/** The value when it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value when it is a non-empty string, else undefined. */
export function nonEmptyStr(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The value when it is an array, else undefined. */
export function arr(v: unknown): readonly unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** A finite integer number, else undefined. */
export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/**
 * The first own property of `obj` among `keys` that is not undefined (for camelCase/snake_case
 * pairs).
 */
export function ownEither(obj: unknown, a: string, b: string): unknown {
  const v = own(obj, a);
  return v !== undefined ? v : own(obj, b);
}

const MAX_PATH_SEGMENTS = 32;
const PATH_CACHE_MAX = 256;

/**
 * Splits a dotted path (`a.b.c`) into segments; cached. Returns null for an unusable path.
 * A key holding dots (or any other character) is written in brackets as a JSON string:
 * `params.message.metadata["a2a.skillId"]` is the segments `params`, `message`, `metadata`,
 * `a2a.skillId`. A bracket may follow a segment directly or a dot may precede it.
 */
export const splitPath: (path: string) => readonly string[] | null = boundedMemo((path) => {
  const segs =
    path.length === 0 ? null : path.includes('[') ? splitBracketed(path) : path.split('.');
  return segs !== null && (segs.length > MAX_PATH_SEGMENTS || segs.some((s) => s.length === 0))
    ? null
    : segs;
}, PATH_CACHE_MAX);

/** splitPath for a path with bracketed keys (`a["b.c"].d`); null when malformed. */
function splitBracketed(path: string): string[] | null {
  const segs: string[] = [];
  let i = 0;
  let cur = '';
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      // a dot right after a bracket only separates: `a["b"].c`
      if (cur.length > 0 || path[i - 1] !== ']') segs.push(cur);
      cur = '';
      i++;
    } else if (c === '[') {
      if (cur.length > 0) segs.push(cur);
      cur = '';
      if (path[i + 1] !== '"') return null;
      const close = closingQuote(path, i + 2);
      if (close < 0 || path[close + 1] !== ']') return null;
      let key: unknown;
      try {
        key = JSON.parse(path.slice(i + 1, close + 1));
      } catch {
        return null;
      }
      if (typeof key !== 'string') return null;
      segs.push(key);
      i = close + 2;
      if (i < path.length && path[i] !== '.' && path[i] !== '[') return null;
      if (i === path.length - 1 && path[i] === '.') return null;
    } else {
      cur += c;
      i++;
    }
  }
  if (cur.length > 0 || path[path.length - 1] === '.') segs.push(cur);
  return segs;
}

/** A path segment as splitPath reads it back: bare when it is a plain identifier, else bracketed. */
export function pathSegment(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function isIndex(seg: string): boolean {
  if (seg.length === 0 || seg.length > 9) return false;
  if (seg.length > 1 && seg.charCodeAt(0) === 48) return false; // no leading zeros
  for (let i = 0; i < seg.length; i++) {
    const c = seg.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Walks `obj` along a dotted path using own properties only (`'params.metadata.skillId'`),
 * or along already-split segments. Array elements are reachable by canonical decimal
 * index segments (`'parts.0.text'`). Returns undefined when any step is missing.
 */
export function getPath(obj: unknown, path: string | readonly string[]): unknown {
  let segs: readonly string[] | null;
  if (typeof path === 'string') segs = splitPath(path);
  else if (Array.isArray(path)) segs = path;
  else return undefined;
  if (segs === null || segs.length === 0) return undefined;
  let cur: unknown = obj;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (typeof seg !== 'string') return undefined;
    if (Array.isArray(cur)) {
      if (!isIndex(seg)) return undefined;
      const idx = Number(seg);
      if (idx >= cur.length) return undefined;
      cur = own(cur, seg);
    } else if (isRecord(cur)) {
      cur = own(cur, seg);
    } else {
      return undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * Most arrays, objects and object keys (together) a JSON text may hold to be parsed for
 * inspection. `JSON.parse` costs 0.06-0.8 µs for each of them (deep nesting and many
 * distinct keys the most), against a few ns per byte of string or number: 4 MiB of
 * brackets took 0.6-1.3 s, 4 MiB of A2A traffic ~15 ms. A2A documents hold about 45 of
 * them per KB (a 3.4 MB response: 160,000), so this bound is reached by hostile or
 * non-A2A bodies only, and caps the parse at ~0.1 s (and the nesting depth with it).
 */
export const MAX_JSON_STRUCTURES = 200_000;

const BOM = 0xfeff;

/**
 * JSON.parse that never throws: the value, or why not (invalid, too complex, nested too deeply, not
 * text).
 */
export function parseJsonSafe(
  text: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  const value = parseJsonValue(text);
  return value === NOT_JSON ? { ok: false, problem: notJsonProblem } : { ok: true, value };
}

/** What parseJsonValue returns for a text that is not JSON it would inspect. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/** Why the last parseJsonValue returned NOT_JSON (as parseJsonSafe's `problem`). */
let notJsonProblem = 'invalid JSON';

/**
 * parseJsonSafe without its result object (a stream parses one document per event): the value,
 * or NOT_JSON, and then jsonProblem() says why. The same checks and outcome as parseJsonSafe.
 */
export function parseJsonValue(text: string): unknown {
  if (typeof text !== 'string') {
    notJsonProblem = 'not text';
    return NOT_JSON;
  }
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  if (text.length > MAX_JSON_STRUCTURES && structuresOver(text, MAX_JSON_STRUCTURES)) {
    notJsonProblem = `JSON too complex to inspect (over ${MAX_JSON_STRUCTURES} arrays, objects and keys)`;
    return NOT_JSON;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    notJsonProblem = e instanceof RangeError ? 'JSON nested too deeply' : 'invalid JSON';
    return NOT_JSON;
  }
}

/** Why the last parseJsonValue returned NOT_JSON. */
export function jsonProblem(): string {
  return notJsonProblem;
}

/** Occurrences of `ch` in `text`, counting no further than `limit + 1` (native search). */
function countUpTo(text: string, ch: string, limit: number): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0 && n <= limit; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * True when `text` holds more than `max` arrays, objects and keys (`[`, `{` and `:` outside
 * strings). First an upper bound from native searches (the characters anywhere, strings
 * included: ~40 ns per occurrence, nothing per other byte), and only when that bound is
 * over, an exact scan that skips strings (a few ns per byte; stops once over).
 */
export function structuresOver(text: string, max: number): boolean {
  let n = countUpTo(text, '{', max);
  if (n <= max) n += countUpTo(text, '[', max - n);
  if (n <= max) n += countUpTo(text, ':', max - n);
  if (n <= max) return false;
  let count = 0;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i + 1);
      if (i < 0) return false; // unterminated string: JSON.parse rejects it (quickly)
    } else if (c === 0x5b || c === 0x7b || c === 0x3a) {
      if (++count > max) return true;
    }
  }
  return false;
}

/** Index of the quote closing a JSON string whose content starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let k = q - 1;
    while (k >= from && text.charCodeAt(k) === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) return q; // an even run of backslashes: the quote is not escaped
    from = q + 1;
  }
}
