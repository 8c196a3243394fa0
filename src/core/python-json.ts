/**
 * The field report's Python semantics over JSON-model values (fingerprint.ts, "How a JS value is
 * read"): values read as Python would see `json.loads(JSON.stringify(value))`, truthiness, the
 * ordering `sorted` uses (strings by code point, Python's `<` where it is defined, the documented
 * total order where Python would raise), and `json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=True)`. Metered by the fingerprint's work budget (fingerprint-work.ts).
 */
import { MAX_DEPTH, TooDeep, spend } from './fingerprint-work';

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;

// ---------------------------------------------------------------------------------------
// Reading values in the JSON data model

const enum Kind {
  None = 0,
  Num = 1, // bool, int, float
  Str = 2,
  List = 3,
  Dict = 4,
}

class Incomparable extends Error {}
const INCOMPARABLE = new Incomparable('incomparable');

/** `d.get(k)`: the value, or undefined when absent in the JSON data model. */
export function get(d: Record<string, unknown>, k: string): unknown {
  const v = d[k];
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  return propertyIsEnumerable.call(d, k) ? v : undefined;
}

/** A value inside a list: absent-ish values are `None` there. */
export function item(v: unknown): unknown {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;
}

function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'string':
      return Kind.Str;
    case 'number':
      return Number.isFinite(v) ? Kind.Num : Kind.None;
    case 'boolean':
    case 'bigint':
      return Kind.Num;
    case 'object':
      return v === null ? Kind.None : Array.isArray(v) ? Kind.List : Kind.Dict;
    default:
      return Kind.None;
  }
}

/** Python `bool(v)` of a JSON-model value. */
export function truthy(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0 && Number.isFinite(v);
    case 'bigint':
      return v !== BigInt(0);
    case 'string':
      return v.length > 0;
    case 'object':
      if (v === null) return false;
      if (Array.isArray(v)) return v.length > 0;
      return dictKeys(v as Record<string, unknown>).length > 0;
    default:
      return false;
  }
}

/** The keys of a dict in the JSON data model (own, enumerable, value not absent). */
export function dictKeys(d: Record<string, unknown>): string[] {
  const keys = Object.keys(d);
  let out: string[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const v = d[keys[i]];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      if (!out) out = keys.slice(0, i);
    } else if (out) {
      out.push(keys[i]);
    }
  }
  return out ?? keys;
}

// ---------------------------------------------------------------------------------------
// Ordering

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The code point that starts at code unit i (a lone surrogate is its own code point). */
function codePointFrom(s: string, i: number, c: number): number {
  if (isHigh(c) && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (isLow(d)) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Python's str ordering: by Unicode code point (not UTF-16 code unit). */
function compareStr(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  const n = la < lb ? la : lb;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return la < lb ? -1 : la > lb ? 1 : 0;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  if ((x < 0xd800 && y < 0xd800) || (x > 0xdfff && y > 0xdfff)) return x < y ? -1 : 1;
  if (i > 0 && isHigh(a.charCodeAt(i - 1))) {
    // The shared high surrogate at i-1 starts a code point: a pair in one, lone in the other?
    const lx = isLow(x);
    const ly = isLow(y);
    if (lx && ly) return x < y ? -1 : 1;
    if (lx) return 1; // astral vs lone high surrogate
    if (ly) return -1;
  }
  const cx = codePointFrom(a, i, x);
  const cy = codePointFrom(b, i, y);
  return cx < cy ? -1 : cx > cy ? 1 : 0;
}

/**
 * compareStr, metered by the length it may walk (sorting strings is not; this is for values nested
 * in lists).
 */
function compareStrMetered(a: string, b: string): number {
  spend((a.length < b.length ? a.length : b.length) >> 6);
  return compareStr(a, b);
}

/** A code unit at or above U+D800: where UTF-16 order and code point order can differ. */
const HIGH_UNIT = /[\ud800-\uffff]/;

/**
 * A string whose UTF-16 order (native `<`, a native memory compare) is `s`'s code point
 * order: `s` itself unless it has a unit at or above U+D800; then each code point from
 * U+D800 up (a surrogate pair, a lone surrogate, U+E000..U+FFFF) becomes the two units
 * U+D800 + (cp >> 16) and cp & 0xFFFF, which sort after every unit below U+D800 and among
 * themselves by code point.
 */
function codePointKey(s: string): string {
  if (!HIGH_UNIT.test(s)) return s;
  const units: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800) {
      units.push(c);
    } else {
      const cp = codePointFrom(s, i, c);
      units.push(0xd800 + (cp >> 16), cp & 0xffff);
      if (cp > 0xffff) i++;
    }
  }
  let out = '';
  for (let i = 0; i < units.length; i += 4096)
    out += String.fromCharCode.apply(null, units.slice(i, i + 4096));
  return out;
}

const nativeCmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Sorts `items` (in place, stable) by Python's str order of `keyOf(item)`, with native
 * string comparisons: linear work beyond the sort itself, however long the common prefixes.
 * `ascii`: the caller knows every key is printable ASCII (no unit to look for).
 */
export function sortByCodePoint<T>(items: T[], keyOf: (t: T) => string, ascii = false): T[] {
  const n = items.length;
  if (n < 2) return items;
  let high = false;
  for (let i = 0; i < n && !high && !ascii; i++) high = HIGH_UNIT.test(keyOf(items[i]));
  if (!high) {
    if (n > 32) return items.sort((a, b) => nativeCmp(keyOf(a), keyOf(b)));
    // Insertion sort: for the few skills and modes of a card, several times faster than sort().
    const keys = new Array<string>(n);
    for (let i = 0; i < n; i++) keys[i] = keyOf(items[i]);
    for (let i = 1; i < n; i++) {
      const v = items[i];
      const k = keys[i];
      let j = i - 1;
      for (; j >= 0 && k < keys[j]; j--) {
        items[j + 1] = items[j];
        keys[j + 1] = keys[j];
      }
      items[j + 1] = v;
      keys[j + 1] = k;
    }
    return items;
  }
  const keys = new Array<string>(n);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    keys[i] = codePointKey(keyOf(items[i]));
    order[i] = i;
  }
  order.sort((i, j) => nativeCmp(keys[i], keys[j]) || i - j);
  const sorted = order.map((i) => items[i]);
  for (let i = 0; i < n; i++) items[i] = sorted[i];
  return items;
}

export const selfStr = (s: string): string => s;

function numCmp(a: unknown, b: unknown): number {
  const x = typeof a === 'boolean' ? (a ? 1 : 0) : (a as number | bigint);
  const y = typeof b === 'boolean' ? (b ? 1 : 0) : (b as number | bigint);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `compareValues` results: Python's `<`/`==` outcome for two JSON-model values. */
const LT = -1;
const EQ = 0;
const GT = 1;
/** Unequal, and Python's `<` raises TypeError on them (or on their first unequal items). */
const NE = 2;

/**
 * The one comparison of JSON-model values, in one pass.
 *
 * - `total` false: Python's `==` and, when unequal, `<`: EQ when `a == b`; otherwise LT/GT as
 *   `a < b` / `b < a` would answer, or NE where that comparison raises. For lists this is
 *   CPython's rule (the first index whose items are not `==` decides, by `<` on those items;
 *   else the lengths), computed without re-walking a subtree at every level: the cost is at
 *   most the size of the smaller value.
 * - `total` true: the fallback order where Python would raise: None < numbers < strings <
 *   lists (lexicographic) < dicts (by their canonical JSON text); never NE.
 */
function compareValues(a: unknown, b: unknown, depth: number, total: boolean): number {
  if (depth > MAX_DEPTH) throw new TooDeep();
  spend(1);
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return total ? (ka < kb ? LT : GT) : NE;
  switch (ka) {
    case Kind.None:
      return EQ;
    case Kind.Num:
      return numCmp(a, b);
    case Kind.Str:
      return compareStrMetered(a as string, b as string);
    case Kind.List: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(item(x[i]), item(y[i]), depth + 1, total);
        if (c !== EQ) return c;
      }
      return x.length < y.length ? LT : x.length > y.length ? GT : EQ;
    }
    default: {
      if (total) {
        const x = serDictOnce(a as object, depth);
        const y = serDictOnce(b as object, depth);
        return x < y ? LT : x > y ? GT : EQ; // ASCII text: code unit order is code point order
      }
      // Python: dicts are equal or not, never ordered.
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = dictKeys(x);
      if (kx.length !== dictKeys(y).length) return NE;
      spend(kx.length);
      for (const k of kx) {
        const w = get(y, k);
        if (w === undefined || compareValues(x[k], w, depth + 1, false) !== EQ) return NE;
      }
      return EQ;
    }
  }
}

/**
 * Python's `<` as `sorted` uses it (no `==` first: two Nones or two dicts raise there); throws
 * INCOMPARABLE where Python raises TypeError.
 */
function pyCmp(a: unknown, b: unknown): number {
  const k = kindOf(a);
  const c = k === Kind.None || k === Kind.Dict ? NE : compareValues(a, b, 0, false);
  if (c === NE) throw INCOMPARABLE;
  return c;
}

/**
 * Dicts serialised during one fallback sort (each is compared O(log n) times), with the depth
 * reached.
 */
let serMemo: Map<object, { depth: number; text: string }> | undefined;

function serDictOnce(d: object, depth: number): string {
  const hit = serMemo?.get(d);
  if (hit && hit.depth >= depth) return hit.text; // fits within the limit at a greater depth: fits here
  const text = serValue(d, depth);
  serMemo?.set(d, { depth, text });
  return text;
}

/**
 * Python's stable `sorted(items, key=...)` over a copy; where Python would raise, the
 * documented fallback order. `keyOf` maps an element to its sort key.
 */
export function pySorted<T>(items: T[], keyOf: (t: T) => unknown): T[] {
  const out = items.slice();
  if (out.length < 2) return out;
  spend(out.length);
  let allStr = true;
  for (let i = 0; i < out.length && allStr; i++) allStr = typeof keyOf(out[i]) === 'string';
  if (allStr) return sortByCodePoint(out, keyOf as (t: T) => string);
  try {
    return out.sort((a, b) => {
      spend(1);
      return pyCmp(keyOf(a), keyOf(b));
    });
  } catch (e) {
    if (e !== INCOMPARABLE) throw e;
    const outer = serMemo;
    serMemo = new Map();
    try {
      return items.slice().sort((a, b) => {
        spend(1);
        return compareValues(keyOf(a), keyOf(b), 0, true);
      });
    } finally {
      serMemo = outer;
    }
  }
}

export const identity = (v: unknown): unknown => v;

// ---------------------------------------------------------------------------------------
// Serialising: json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=True)

const HEX = '0123456789abcdef';

/**
 * A char json.dumps(ensure_ascii=True) escapes: Python leaves ' '..'~' alone except '"'
 * and '\\'; everything else (control chars, 0x7f, non-ASCII) is escaped. No `g` flag:
 * `test` stays stateless.
 */
export const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

export function serStr(s: string): string {
  return NEEDS_ESCAPE.test(s) ? '"' + escapeFrom(s, 0) + '"' : '"' + s + '"';
}

/** Escapes by code unit, filled on first use (at most 65,536 short strings). */
const ESCAPES: (string | undefined)[] = [];

function escapeOf(c: number): string {
  let e = ESCAPES[c];
  if (e === undefined) {
    switch (c) {
      case 0x22:
        e = '\\"';
        break;
      case 0x5c:
        e = '\\\\';
        break;
      case 0x0a:
        e = '\\n';
        break;
      case 0x0d:
        e = '\\r';
        break;
      case 0x09:
        e = '\\t';
        break;
      case 0x08:
        e = '\\b';
        break;
      case 0x0c:
        e = '\\f';
        break;
      default:
        e = '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
    }
    ESCAPES[c] = e;
  }
  return e;
}

function escapeFrom(s: string, start: number): string {
  // Parts joined once: appending to one string per escaped char made a rope of millions
  // of pieces for a long non-ASCII string, slow to collect and to flatten for the hash.
  const parts: string[] = start > 0 ? [s.slice(0, start)] : [];
  let run = start;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    if (run < i) parts.push(s.slice(run, i));
    run = i + 1;
    parts.push(escapeOf(c));
  }
  if (run < s.length) parts.push(s.slice(run));
  return parts.join('');
}

/** Python `repr(float)` for a finite double (json.dumps uses it). */
function floatRepr(x: number): string {
  let e = x.toExponential(); // shortest round-trip digits, e.g. "-1.25e-7"
  let sign = '';
  if (e.charCodeAt(0) === 0x2d) {
    sign = '-';
    e = e.slice(1);
  }
  const ei = e.indexOf('e');
  const digits = e.slice(0, ei).replace('.', '');
  const exp = Number(e.slice(ei + 1));
  const decpt = exp + 1; // value = 0.DIGITS * 10^decpt
  if (decpt <= -4 || decpt > 16) {
    const abs = exp < 0 ? -exp : exp;
    return (
      sign +
      digits[0] +
      (digits.length > 1 ? '.' + digits.slice(1) : '') +
      'e' +
      (exp < 0 ? '-' : '+') +
      (abs < 10 ? '0' + abs : String(abs))
    );
  }
  if (decpt <= 0) return sign + '0.' + '0'.repeat(-decpt) + digits;
  if (decpt < digits.length) return sign + digits.slice(0, decpt) + '.' + digits.slice(decpt);
  return sign + digits + '0'.repeat(decpt - digits.length) + '.0';
}

function serNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Number.isInteger(n) && n < 1e21 && n > -1e21) return n === 0 ? '0' : String(n);
  return floatRepr(n);
}

/** `json.dumps` of a JSON-model value. */
export function serValue(v: unknown, depth: number): string {
  if (typeof v !== 'object' || v === null) return serScalar(v, depth);
  // Containers are written into one list of parts and joined once: concatenating at every
  // level would build a rope as deep as the value, slow to flatten when it is hashed.
  const parts: string[] = [];
  writeValue(v, depth, parts);
  return parts.join('');
}

function serScalar(v: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new TooDeep();
  spend(1);
  switch (typeof v) {
    case 'string':
      return serStr(v);
    case 'number':
      return serNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    default:
      return 'null';
  }
}

export function writeValue(v: unknown, depth: number, parts: string[]): void {
  if (typeof v !== 'object' || v === null) {
    parts.push(serScalar(v, depth));
    return;
  }
  if (depth > MAX_DEPTH) throw new TooDeep();
  spend(1);
  if (Array.isArray(v)) {
    parts.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) parts.push(',');
      writeValue(item(v[i]), depth + 1, parts);
    }
    parts.push(']');
    return;
  }
  const d = v as Record<string, unknown>;
  const keys = sortByCodePoint(dictKeys(d), selfStr);
  parts.push('{');
  for (let i = 0; i < keys.length; i++) {
    parts.push(i > 0 ? ',' + serStr(keys[i]) + ':' : serStr(keys[i]) + ':');
    writeValue(d[keys[i]], depth + 1, parts);
  }
  parts.push('}');
}
