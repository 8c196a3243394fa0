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

/** A non-null, non-array object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `obj[key]` if `obj` is a record (or array) that has `key` as an OWN property; otherwise undefined. Never throws. */
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

/** The first own property of `obj` among `keys` that is not undefined (for camelCase/snake_case pairs). */
export function own2(obj: unknown, a: string, b: string): unknown {
  const v = own(obj, a);
  return v !== undefined ? v : own(obj, b);
}

const MAX_PATH_SEGMENTS = 32;
const PATH_CACHE_MAX = 256;

/** Splits a dotted path (`a.b.c`) into segments; cached. Returns null for an unusable path. */
export const splitPath: (path: string) => readonly string[] | null = boundedMemo((path) => {
  const segs = path.length === 0 ? null : path.split('.');
  return segs !== null && (segs.length > MAX_PATH_SEGMENTS || segs.some((s) => s.length === 0)) ? null : segs;
}, PATH_CACHE_MAX);

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

/** JSON.parse that never throws: the value, or why not (invalid, nested too deeply, not text). */
export function parseJsonSafe(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (typeof text !== 'string') return { ok: false, problem: 'not text' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const name = e instanceof RangeError ? 'JSON nested too deeply' : 'invalid JSON';
    return { ok: false, problem: name };
  }
}
