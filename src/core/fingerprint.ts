/**
 * The skill fingerprint: byte-for-byte the field report's Python `skill_fingerprint`
 * (docs/telemetry.md, "Skill fingerprint"):
 *
 * ```python
 * skills = sorted(({"id": s.get("id", ""),
 *                   "inputModes": sorted(s.get("inputModes", [])),
 *                   "outputModes": sorted(s.get("outputModes", []))}
 *                  for s in card.get("skills", [])), key=lambda s: s["id"])
 * caps = card.get("capabilities", {})
 * material = {"skills": skills,
 *             "streaming": bool(caps.get("streaming", False)),
 *             "pushNotifications": bool(caps.get("pushNotifications", False))}
 * blob = json.dumps(material, sort_keys=True, separators=(",", ":")).encode()
 * return hashlib.sha256(blob).hexdigest()
 * ```
 *
 * The input is the RAW card as it came off the wire (JSON), not the decoded model: a
 * skill without `inputModes` contributes `[]` (the field report's sketch applies no defaults).
 *
 * ## How a JS value is read (the "JSON data model")
 *
 * A JS value is read as the Python value `json.loads(JSON.stringify(value))` would be:
 * - objects (non-null, not arrays) are dicts of their own enumerable string-keyed
 *   properties; a property whose value is `undefined`, a function or a symbol is absent;
 *   `toJSON` is not called, so Dates, Maps and boxed primitives are such dicts too.
 *   (Shortcut: on an object whose prototype is `Object.prototype`, while that prototype
 *   is unpolluted, the seven keys the field report's sketch reads are not checked for enumerability;
 *   JSON.parse never makes non-enumerable properties.)
 * - arrays are lists; an `undefined`/function/symbol element (or a hole) is `None`;
 * - a finite number that is an integer with |n| < 1e21 is a Python `int` (printed in
 *   full, `-0` as `0`); any other finite number is a Python `float` printed as
 *   `repr()` does (`0.5`, `1e-05`, `1.5e+300`); NaN and ±Infinity are `None`;
 * - a bigint is a Python `int`.
 * JS numbers carry no int/float distinction: a wire id `1.0` (which JSON.parse turns into
 * `1`) fingerprints as Python would fingerprint `1`, not `1.0`. For every card JSON.parse
 * can produce, and Python's `skill_fingerprint` accepts, the result equals Python's run
 * on `json.loads(JSON.stringify(card))`; that is exactly Python's run on the wire bytes
 * except for integral floats written with a fraction or exponent (`1.0`, `1e+16`) and
 * integers beyond 2^53 (JSON.parse rounds them).
 *
 * ## Where Python would raise (documented, deterministic fallbacks; this never throws)
 * - card not a dict → read as `{}`;
 * - `capabilities` present but not a dict → both booleans `false`;
 * - `skills` present but not a list → `[]` (Python accepts `""` and `{}` as empty
 *   iterables and would crash on anything else);
 * - a skills element that is not a dict → that element is skipped;
 * - `inputModes`/`outputModes` that are `None`, a number or a boolean → `[]` (a string
 *   or a dict is iterable in Python and is handled as Python does: sorted code points,
 *   sorted keys);
 * - a list whose elements Python cannot order among themselves (str with numbers,
 *   two `None`s, two dicts, lists whose items clash) and skills whose ids cannot be
 *   ordered likewise → a stable sort by a total order extending Python's:
 *   None < numbers/booleans (numeric) < strings (code point) < lists (lexicographic)
 *   < dicts (by their canonical JSON text). (For contrived lists that are only partly
 *   comparable, e.g. lists of lists whose items clash in some pairs only, whether
 *   "Python would raise" is decided by the comparisons V8's sort makes, not CPython's.)
 * - nesting deeper than 1000 levels, cycles, throwing getters/proxies → the card is read
 *   as `{}`.
 *
 * ## Bounded work
 * Reading a card that follows the A2A shape (string ids, lists of strings as modes) costs
 * time linear in its size, sorting aside, and is not metered. The general path (modes or
 * ids that are lists, dicts, numbers, a mode given as one string...) is metered: every
 * value compared or serialised, every element listed and every comparison made costs one
 * step, and past `MAX_FINGERPRINT_WORK` steps (about 10-30 ms) the card is "too complex
 * to fingerprint". Comparing two values costs at most the size of the smaller one (one
 * pass finds Python's first unequal item; the field report's `==` then `<` at every level was
 * quadratic in the depth). `skillFingerprintBounded` says when and why a card could not be
 * fingerprinted; `skillFingerprint` keeps the documented `{}` fallback for every such card.
 */
import { createHash } from 'node:crypto';
import { isRecord } from './json-path';

/** The canonical JSON of `{}`: what every unreadable card falls back to. */
const EMPTY_MATERIAL = '{"pushNotifications":false,"skills":[],"streaming":false}';
const MAX_DEPTH = 1000;

/**
 * Steps of the metered (general) path per card: see "Bounded work". Far above what any
 * card with a few thousand non-string modes or ids needs; a hostile card (modes nested 900
 * deep, a megabyte mode string, sparse arrays) reaches it in tens of milliseconds.
 */
export const MAX_FINGERPRINT_WORK = 1_000_000;

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;

/** A fingerprint, or why the card could not be fingerprinted (never both). */
export type FingerprintResult =
  { fingerprint: string; problem?: undefined } | { fingerprint?: undefined; problem: string };

/** SHA-256, lowercase hex, of the field report's canonical material for `card`. Total: never throws. */
export function skillFingerprint(card: unknown): string {
  return createHash('sha256').update(fingerprintMaterial(card), 'latin1').digest('hex');
}

/**
 * `skillFingerprint`, or `{ problem }` where it would fall back to the fingerprint of `{}`:
 * a card nested more than 1000 levels deep (or cyclic), one whose reading throws (getters,
 * proxies), and one needing more than `maxWork` steps of the metered path. Total: never
 * throws. The fingerprint, when given, is the one `skillFingerprint` gives.
 */
export function skillFingerprintBounded(
  card: unknown,
  maxWork: number = MAX_FINGERPRINT_WORK,
): FingerprintResult {
  const r = materialOrProblem(card, maxWork);
  if (typeof r !== 'string') return r;
  return { fingerprint: createHash('sha256').update(r, 'latin1').digest('hex') };
}

/** The first 12 hex digits, as the field report prints it in messages. */
export function fingerprintPrefix(fp: string): string {
  return typeof fp === 'string' ? fp.slice(0, 12) : '';
}

/**
 * The exact (pure ASCII) text that is hashed: Python's
 * `json.dumps(material, sort_keys=True, separators=(",", ":"))`. For tests and debugging.
 */
export function fingerprintMaterial(card: unknown): string {
  const r = materialOrProblem(card, MAX_FINGERPRINT_WORK);
  return typeof r === 'string' ? r : EMPTY_MATERIAL;
}

/** Steps of the metered path taken by the last fingerprint (for tests and the benchmark). */
export function lastFingerprintWork(): number {
  return lastWork;
}

/** The material, or why not. Re-entrant (a getter on the card may fingerprint another card). */
function materialOrProblem(card: unknown, maxWork: number): string | { problem: string } {
  const outer = budget;
  const limit = typeof maxWork === 'number' && maxWork >= 0 ? maxWork : MAX_FINGERPRINT_WORK;
  budget = limit;
  try {
    return buildMaterial(card);
  } catch (e) {
    if (e === OVER_BUDGET)
      return { problem: `card too complex to fingerprint (over ${limit} steps)` };
    if (e instanceof TooDeep)
      return { problem: `card nested more than ${MAX_DEPTH} levels deep (or cyclic)` };
    return { problem: 'card could not be read' };
  } finally {
    lastWork = limit - budget;
    budget = outer;
  }
}

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

class TooDeep extends Error {}

class OverBudget extends Error {}
const OVER_BUDGET = new OverBudget('over budget');

/** Steps left for the card being read (module state: reading is synchronous). */
let budget = 0;
let lastWork = 0;

/** Spends `n` steps of the metered path; throws OVER_BUDGET once they run out. */
function spend(n: number): void {
  if (n > budget) {
    budget = -1; // one step over: what was refused is not counted as done
    throw OVER_BUDGET;
  }
  budget -= n;
}

/** `d.get(k)`: the value, or undefined when absent in the JSON data model. */
function get(d: Record<string, unknown>, k: string): unknown {
  const v = d[k];
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  return propertyIsEnumerable.call(d, k) ? v : undefined;
}

const objectProto = Object.prototype;
/** The keys the field report's sketch reads. */
const READ_KEYS = [
  'capabilities',
  'skills',
  'streaming',
  'pushNotifications',
  'id',
  'inputModes',
  'outputModes',
];

/** No key the field report's sketch reads is reachable on Object.prototype (it has not been polluted). */
function objectProtoClean(): boolean {
  for (let i = 0; i < READ_KEYS.length; i++) if (READ_KEYS[i] in objectProto) return false;
  return true;
}

/**
 * `get` for one of READ_KEYS when `plain` (the object's prototype is a clean
 * Object.prototype): then a defined value can only be an own property, and the
 * enumerability check (the one cost that matters on the hot path) is skipped.
 */
function getKnown(d: Record<string, unknown>, k: string, plain: boolean): unknown {
  if (!plain) return get(d, k);
  const v = d[k];
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
}

/** A value inside a list: absent-ish values are `None` there. */
function item(v: unknown): unknown {
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
function truthy(v: unknown): boolean {
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
function dictKeys(d: Record<string, unknown>): string[] {
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
function sortByCodePoint<T>(items: T[], keyOf: (t: T) => string, ascii = false): T[] {
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

const selfStr = (s: string): string => s;

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
function pySorted<T>(items: T[], keyOf: (t: T) => unknown): T[] {
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

const identity = (v: unknown): unknown => v;

// ---------------------------------------------------------------------------------------
// Serialising: json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=True)

const HEX = '0123456789abcdef';

/**
 * A char json.dumps(ensure_ascii=True) escapes: Python leaves ' '..'~' alone except '"'
 * and '\\'; everything else (control chars, 0x7f, non-ASCII) is escaped. No `g` flag:
 * `test` stays stateless.
 */
const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

function serStr(s: string): string {
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
function serValue(v: unknown, depth: number): string {
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

function writeValue(v: unknown, depth: number, parts: string[]): void {
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

// ---------------------------------------------------------------------------------------
// The material. Built by string concatenation (V8 ropes: far cheaper than Array#join for
// ~200 small parts). Strings that need no escaping (printable ASCII without quote or
// backslash: the usual case) are copied as is and compared with the native `<`, which for
// code units below 0xD800 is code point order.

/** `json.dumps(sorted(v))` for a skill's mode field, as Python would iterate it. */
function serModes(v: unknown): string {
  let list: unknown[];
  if (Array.isArray(v)) {
    const n = v.length;
    if (n === 0) return '[]';
    let plain = true;
    let allStr = true;
    for (let i = 0; i < n; i++) {
      const x: unknown = v[i];
      if (typeof x !== 'string') {
        plain = allStr = false;
        break;
      }
      if (plain && NEEDS_ESCAPE.test(x)) plain = false;
    }
    if (plain && n === 1) return '["' + (v[0] as string) + '"]';
    if (plain && n === 2) {
      const a = v[0] as string;
      const b = v[1] as string;
      return b < a ? '["' + b + '","' + a + '"]' : '["' + a + '","' + b + '"]';
    }
    if (allStr) {
      const sorted = sortByCodePoint((v as string[]).slice(), selfStr, plain);
      let out = plain ? '["' + sorted[0] + '"' : '[' + serStr(sorted[0]);
      for (let i = 1; i < n; i++) out += plain ? ',"' + sorted[i] + '"' : ',' + serStr(sorted[i]);
      return out + ']';
    }
    spend(n); // before allocating: a sparse array may claim 2^32 - 1 elements
    list = new Array(n);
    for (let i = 0; i < n; i++) list[i] = item(v[i]);
  } else if (typeof v === 'string') {
    spend(v.length);
    list = Array.from(v); // Python iterates a str by code point
  } else if (isRecord(v)) {
    list = dictKeys(v); // Python iterates a dict by key
    spend(list.length);
  } else {
    return '[]'; // absent, or not iterable in Python (None, number, bool): documented fallback
  }
  const sorted = pySorted(list, identity);
  const parts: string[] = ['['];
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0) parts.push(',');
    writeValue(sorted[i], 1, parts);
  }
  parts.push(']');
  return parts.join('');
}

interface SkillRec {
  id: unknown;
  inputModes: unknown;
  outputModes: unknown;
}

const idOf = (r: SkillRec): unknown => r.id;

function buildMaterial(card: unknown): string {
  if (!isRecord(card)) return EMPTY_MATERIAL;
  let push = false;
  let streaming = false;
  const clean = objectProtoClean();
  const caps = getKnown(card, 'capabilities', clean && Object.getPrototypeOf(card) === objectProto);
  if (isRecord(caps)) {
    const plain = clean && Object.getPrototypeOf(caps) === objectProto;
    push = truthy(getKnown(caps, 'pushNotifications', plain));
    streaming = truthy(getKnown(caps, 'streaming', plain));
  }
  const skills = getKnown(card, 'skills', clean && Object.getPrototypeOf(card) === objectProto);
  if (!Array.isArray(skills) || skills.length === 0) {
    return push || streaming
      ? '{"pushNotifications":' + push + ',"skills":[],"streaming":' + streaming + '}'
      : EMPTY_MATERIAL;
  }
  let recs: SkillRec[] = [];
  let plainIds = true;
  let strIds = true;
  for (let i = 0; i < skills.length; i++) {
    const s: unknown = skills[i];
    if (!isRecord(s)) continue; // Python: AttributeError on s.get; documented: skipped
    const plain = clean && Object.getPrototypeOf(s) === objectProto;
    const rawId = getKnown(s, 'id', plain);
    const id = rawId === undefined ? '' : rawId;
    if (typeof id !== 'string') plainIds = strIds = false;
    else if (plainIds && NEEDS_ESCAPE.test(id)) plainIds = false;
    recs.push({
      id,
      inputModes: getKnown(s, 'inputModes', plain),
      outputModes: getKnown(s, 'outputModes', plain),
    });
  }
  if (recs.length > 1)
    recs = strIds ? sortByCodePoint(recs, (r) => r.id as string, plainIds) : pySorted(recs, idOf);
  let out = push ? '{"pushNotifications":true,"skills":[' : '{"pushNotifications":false,"skills":[';
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    const id = r.id;
    out +=
      (i > 0 ? ',{"id":' : '{"id":') +
      (typeof id === 'string' ? (plainIds ? '"' + id + '"' : serStr(id)) : serValue(id, 1)) +
      ',"inputModes":' +
      serModes(r.inputModes) +
      ',"outputModes":' +
      serModes(r.outputModes) +
      '}';
  }
  return out + (streaming ? '],"streaming":true}' : '],"streaming":false}');
}
