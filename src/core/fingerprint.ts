/**
 * The skill fingerprint: byte-for-byte the seed's Python `skill_fingerprint`
 * (../shared/seed/stale-agent-card.md, telemetry contract "Skill fingerprint"):
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
 * skill without `inputModes` contributes `[]` (the seed applies no defaults).
 *
 * ## How a JS value is read (the "JSON data model")
 *
 * A JS value is read as the Python value `json.loads(JSON.stringify(value))` would be:
 * - objects (non-null, not arrays) are dicts of their own enumerable string-keyed
 *   properties; a property whose value is `undefined`, a function or a symbol is absent;
 *   `toJSON` is not called, so Dates, Maps and boxed primitives are such dicts too.
 *   (Shortcut: on an object whose prototype is `Object.prototype`, while that prototype
 *   is unpolluted, the seven keys the seed reads are not checked for enumerability;
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
 */
import { createHash } from 'node:crypto';

/** The canonical JSON of `{}`: what every unreadable card falls back to. */
const EMPTY_MATERIAL = '{"pushNotifications":false,"skills":[],"streaming":false}';
const MAX_DEPTH = 1000;

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;

/** SHA-256, lowercase hex, of the seed's canonical material for `card`. Total: never throws. */
export function skillFingerprint(card: unknown): string {
  return createHash('sha256').update(fingerprintMaterial(card), 'latin1').digest('hex');
}

/** The first 12 hex digits, as the seed prints it in messages. */
export function fingerprintPrefix(fp: string): string {
  return typeof fp === 'string' ? fp.slice(0, 12) : '';
}

/**
 * The exact (pure ASCII) text that is hashed: Python's
 * `json.dumps(material, sort_keys=True, separators=(",", ":"))`. For tests and debugging.
 */
export function fingerprintMaterial(card: unknown): string {
  try {
    return buildMaterial(card);
  } catch {
    return EMPTY_MATERIAL;
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

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `d.get(k)`: the value, or undefined when absent in the JSON data model. */
function get(d: Record<string, unknown>, k: string): unknown {
  const v = d[k];
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  return propertyIsEnumerable.call(d, k) ? v : undefined;
}

const objectProto = Object.prototype;
/** The keys the seed reads. */
const READ_KEYS = ['capabilities', 'skills', 'streaming', 'pushNotifications', 'id', 'inputModes', 'outputModes'];

/** No key the seed reads is reachable on Object.prototype (it has not been polluted). */
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

function numCmp(a: unknown, b: unknown): number {
  const x = typeof a === 'boolean' ? (a ? 1 : 0) : (a as number | bigint);
  const y = typeof b === 'boolean' ? (b ? 1 : 0) : (b as number | bigint);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Python `==` on JSON-model values. */
function pyEq(a: unknown, b: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH) throw new TooDeep();
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  switch (ka) {
    case Kind.None:
      return true;
    case Kind.Num:
      return numCmp(a, b) === 0;
    case Kind.Str:
      return a === b;
    case Kind.List: {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!pyEq(item(x[i]), item(y[i]), depth + 1)) return false;
      return true;
    }
    default: {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = dictKeys(x);
      if (kx.length !== dictKeys(y).length) return false;
      for (const k of kx) {
        const w = get(y, k);
        if (w === undefined || !pyEq(x[k], w, depth + 1)) return false;
      }
      return true;
    }
  }
}

/** Python's ordering as `sorted` uses it; throws INCOMPARABLE where Python raises TypeError. */
function pyCmp(a: unknown, b: unknown, depth: number): number {
  if (depth > MAX_DEPTH) throw new TooDeep();
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === Kind.Str && kb === Kind.Str) return compareStr(a as string, b as string);
  if (ka === Kind.Num && kb === Kind.Num) return numCmp(a, b);
  if (ka === Kind.List && kb === Kind.List) {
    const x = a as unknown[];
    const y = b as unknown[];
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n; i++) {
      const u = item(x[i]);
      const v = item(y[i]);
      if (!pyEq(u, v, depth + 1)) return pyCmp(u, v, depth + 1);
    }
    return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
  }
  throw INCOMPARABLE;
}

/** The fallback total order: None < numbers < strings < lists < dicts. */
function extCmp(a: unknown, b: unknown, depth: number): number {
  if (depth > MAX_DEPTH) throw new TooDeep();
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  switch (ka) {
    case Kind.None:
      return 0;
    case Kind.Num:
      return numCmp(a, b);
    case Kind.Str:
      return compareStr(a as string, b as string);
    case Kind.List: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = extCmp(item(x[i]), item(y[i]), depth + 1);
        if (c !== 0) return c;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    default: {
      const x = serValue(a, depth);
      const y = serValue(b, depth);
      return x < y ? -1 : x > y ? 1 : 0; // ASCII text: code unit order is code point order
    }
  }
}

/**
 * Python's stable `sorted(items, key=...)` over a copy; where Python would raise, the
 * documented fallback order. `keyOf` maps an element to its sort key.
 */
function pySorted<T>(items: T[], keyOf: (t: T) => unknown): T[] {
  const out = items.slice();
  if (out.length < 2) return out;
  let allStr = true;
  for (let i = 0; i < out.length && allStr; i++) allStr = typeof keyOf(out[i]) === 'string';
  if (allStr) return out.sort((a, b) => compareStr(keyOf(a) as string, keyOf(b) as string));
  try {
    return out.sort((a, b) => pyCmp(keyOf(a), keyOf(b), 0));
  } catch (e) {
    if (e !== INCOMPARABLE) throw e;
    return items.slice().sort((a, b) => extCmp(keyOf(a), keyOf(b), 0));
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

function escapeFrom(s: string, start: number): string {
  let out = s.slice(0, start);
  let run = start;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    if (run < i) out += s.slice(run, i);
    run = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
    }
  }
  if (run < s.length) out += s.slice(run);
  return out;
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

function serValue(v: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new TooDeep();
  switch (typeof v) {
    case 'string':
      return serStr(v);
    case 'number':
      return serNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          out += serValue(item(v[i]), depth + 1);
        }
        return out + ']';
      }
      const d = v as Record<string, unknown>;
      const keys = dictKeys(d).sort(compareStr);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) out += ',';
        out += serStr(keys[i]) + ':' + serValue(d[keys[i]], depth + 1);
      }
      return out + '}';
    }
    default:
      return 'null';
  }
}

// ---------------------------------------------------------------------------------------
// The material. Built by string concatenation (V8 ropes: far cheaper than Array#join for
// ~200 small parts). Strings that need no escaping (printable ASCII without quote or
// backslash: the usual case) are copied as is and compared with the native `<`, which for
// code units below 0xD800 is code point order.

/** Sorts plain strings in place (stable); native `<` is code point order for them. */
function sortPlain(a: string[]): string[] {
  const n = a.length;
  if (n > 32) return a.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && v < a[j]) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  return a;
}

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
    if (plain) {
      if (n === 1) return '["' + (v[0] as string) + '"]';
      if (n === 2) {
        const a = v[0] as string;
        const b = v[1] as string;
        return b < a ? '["' + b + '","' + a + '"]' : '["' + a + '","' + b + '"]';
      }
      const sorted = sortPlain((v as string[]).slice());
      let out = '["' + sorted[0];
      for (let i = 1; i < n; i++) out += '","' + sorted[i];
      return out + '"]';
    }
    if (allStr) {
      const sorted = (v as string[]).slice().sort(compareStr);
      let out = '[' + serStr(sorted[0]);
      for (let i = 1; i < n; i++) out += ',' + serStr(sorted[i]);
      return out + ']';
    }
    list = new Array(n);
    for (let i = 0; i < n; i++) list[i] = item(v[i]);
  } else if (typeof v === 'string') {
    list = Array.from(v); // Python iterates a str by code point
  } else if (isDict(v)) {
    list = dictKeys(v); // Python iterates a dict by key
  } else {
    return '[]'; // absent, or not iterable in Python (None, number, bool): documented fallback
  }
  const sorted = pySorted(list, identity);
  let out = '[';
  for (let i = 0; i < sorted.length; i++) out += (i > 0 ? ',' : '') + serValue(sorted[i], 1);
  return out + ']';
}

interface SkillRec {
  id: unknown;
  inputModes: unknown;
  outputModes: unknown;
}

const idOf = (r: SkillRec): unknown => r.id;

function sortRecsPlain(a: SkillRec[]): SkillRec[] {
  const n = a.length;
  if (n > 32) return a.sort((x, y) => ((x.id as string) < (y.id as string) ? -1 : (x.id as string) > (y.id as string) ? 1 : 0));
  for (let i = 1; i < n; i++) {
    const v = a[i];
    const k = v.id as string;
    let j = i - 1;
    while (j >= 0 && k < (a[j].id as string)) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  return a;
}

function buildMaterial(card: unknown): string {
  if (!isDict(card)) return EMPTY_MATERIAL;
  let push = false;
  let streaming = false;
  const clean = objectProtoClean();
  const caps = getKnown(card, 'capabilities', clean && Object.getPrototypeOf(card) === objectProto);
  if (isDict(caps)) {
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
    if (!isDict(s)) continue; // Python: AttributeError on s.get; documented: skipped
    const plain = clean && Object.getPrototypeOf(s) === objectProto;
    const rawId = getKnown(s, 'id', plain);
    const id = rawId === undefined ? '' : rawId;
    if (typeof id !== 'string') plainIds = strIds = false;
    else if (plainIds && NEEDS_ESCAPE.test(id)) plainIds = false;
    recs.push({ id, inputModes: getKnown(s, 'inputModes', plain), outputModes: getKnown(s, 'outputModes', plain) });
  }
  if (recs.length > 1) {
    if (plainIds) recs = sortRecsPlain(recs);
    else if (strIds) recs.sort((a, b) => compareStr(a.id as string, b.id as string));
    else recs = pySorted(recs, idOf);
  }
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
