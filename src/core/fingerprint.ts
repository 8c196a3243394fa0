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
 *
 * This file builds the material; the Python semantics it relies on (reading, ordering,
 * `json.dumps`) are python-json.ts, the work budget fingerprint-work.ts.
 */
import { createHash } from 'node:crypto';
import { MAX_DEPTH, OVER_BUDGET, TooDeep, spend, withBudget } from './fingerprint-work';
import { isRecord } from './json-path';
import {
  NEEDS_ESCAPE,
  dictKeys,
  get,
  identity,
  item,
  pySorted,
  selfStr,
  serStr,
  serValue,
  sortByCodePoint,
  truthy,
  writeValue,
} from './python-json';

export { lastFingerprintWork } from './fingerprint-work';

/** The canonical JSON of `{}`: what every unreadable card falls back to. */
const EMPTY_MATERIAL = '{"pushNotifications":false,"skills":[],"streaming":false}';

/**
 * Steps of the metered (general) path per card: see "Bounded work". Far above what any
 * card with a few thousand non-string modes or ids needs; a hostile card (modes nested 900
 * deep, a megabyte mode string, sparse arrays) reaches it in tens of milliseconds.
 */
export const MAX_FINGERPRINT_WORK = 1_000_000;

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

/** The material, or why not. Re-entrant (a getter on the card may fingerprint another card). */
function materialOrProblem(card: unknown, maxWork: number): string | { problem: string } {
  const limit = typeof maxWork === 'number' && maxWork >= 0 ? maxWork : MAX_FINGERPRINT_WORK;
  try {
    return withBudget(limit, () => buildMaterial(card));
  } catch (e) {
    if (e === OVER_BUDGET)
      return { problem: `card too complex to fingerprint (over ${limit} steps)` };
    if (e instanceof TooDeep)
      return { problem: `card nested more than ${MAX_DEPTH} levels deep (or cyclic)` };
    return { problem: 'card could not be read' };
  }
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
