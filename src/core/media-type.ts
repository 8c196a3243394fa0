/**
 * MIME media-type matching for judging parts against Agent Card modes.
 *
 * Rules: case-insensitive; parameters (`;charset=utf-8`) ignored; surrounding whitespace
 * trimmed; `type/*` and `*\/*` honoured in the ALLOWED list only (an actual type is
 * compared literally). Anything that is not `type/subtype` is not a media type and never
 * matches. Pure, total, no allocation beyond the lower-cased essence.
 */
import type { DecodedPart } from './model';
import { boundedMemo } from './memo';

/**
 * The essence (`type/subtype`, lower case, parameters dropped) of a media type, or
 * undefined when the text is not of that form.
 */
export function mediaTypeEssence(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  // Cards and parts repeat the same few media types: remember the answers (bounded).
  return memoEssence(v);
}

/**
 * Bare-word modes some implementations put in cards instead of media types (VoltAgent 2.x:
 * `["text"]`; pre-0.2 examples: `"text"`, `"file"`, `"data"`), read as the media types they
 * stand for. `text` is any text type (a `text/markdown` part is text); `file` is any type.
 */
const BARE_WORD_MODES = new Map<string, string>([
  ['text', 'text/*'],
  ['json', 'application/json'],
  ['data', 'application/json'],
  ['image', 'image/*'],
  ['audio', 'audio/*'],
  ['video', 'video/*'],
  ['file', '*/*'],
]);

/**
 * The essence of a card's mode: a media type, or a bare word (BARE_WORD_MODES) read as one. Allowed
 * lists only.
 */
function modeEssence(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  if (v.length <= 8) {
    const word = BARE_WORD_MODES.get(v.trim().toLowerCase());
    if (word !== undefined) return word;
  }
  return memoEssence(v);
}

const memoEssence = boundedMemo(computeEssence, 256, 255);

function computeEssence(v: string): string | undefined {
  let end = v.indexOf(';');
  if (end < 0) end = v.length;
  let start = 0;
  while (start < end && isWs(v.charCodeAt(start))) start++;
  while (end > start && isWs(v.charCodeAt(end - 1))) end--;
  if (end - start < 3 || end - start > 255) return undefined;
  let slash = -1;
  for (let i = start; i < end; i++) {
    const c = v.charCodeAt(i);
    if (c === 47 /* / */) {
      if (slash >= 0) return undefined;
      slash = i;
    } else if (!isTokenChar(c)) {
      return undefined;
    }
  }
  if (slash <= start || slash >= end - 1) return undefined;
  const essence = v.slice(start, end).toLowerCase();
  // `*` is only valid as the whole subtype (`text/*`) or as `*/*`.
  const t = essence.slice(0, slash - start);
  const s = essence.slice(slash - start + 1);
  if (t.includes('*') && t !== '*') return undefined;
  if (s.includes('*') && s !== '*') return undefined;
  if (t === '*' && s !== '*') return undefined;
  return essence;
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** RFC 9110 token characters (tchar). */
function isTokenChar(c: number): boolean {
  if (c >= 48 && c <= 57) return true; // 0-9
  if (c >= 65 && c <= 90) return true; // A-Z
  if (c >= 97 && c <= 122) return true; // a-z
  switch (c) {
    case 33: // !
    case 35: // #
    case 36: // $
    case 37: // %
    case 38: // &
    case 39: // '
    case 42: // *
    case 43: // +
    case 45: // -
    case 46: // .
    case 94: // ^
    case 95: // _
    case 96: // `
    case 124: // |
    case 126: // ~
      return true;
    default:
      return false;
  }
}

/**
 * Types whose content is text a typeless text part may carry: JSON, XML, YAML and their `+json` /
 * `+xml` kin.
 */
function isTextCarriedType(e: string): boolean {
  return (
    e === 'application/json' ||
    e === 'application/xml' ||
    e === 'application/yaml' ||
    e === 'application/x-yaml' ||
    e === 'application/ld+json' ||
    e.endsWith('+json') ||
    e.endsWith('+xml') ||
    e === 'application/*'
  );
}

function essenceMatches(actual: string, allowed: string): boolean {
  if (allowed === '*/*') return true;
  if (allowed === actual) return true;
  const n = allowed.length;
  if (
    n >= 2 &&
    allowed.charCodeAt(n - 1) === 42 /* * */ &&
    allowed.charCodeAt(n - 2) === 47 /* / */
  ) {
    // `type/*`: same top-level type (compare `type/` without allocating).
    if (actual.length <= n - 1) return false;
    for (let i = 0; i < n - 1; i++)
      if (actual.charCodeAt(i) !== allowed.charCodeAt(i)) return false;
    return true;
  }
  return false;
}

const MAX_MODES = 10_000;

export interface EffectiveMediaType {
  /** The media type to judge by (as given; `partMatchesModes` compares it by MIME rules). */
  mediaType?: string;
  /** A text part without a media type: it is SOME `text/*` type, which one is not said. */
  anyText?: boolean;
  /** Why this part cannot be judged. */
  unjudgeable?: string;
}

export interface MediaTypeOptions {
  /**
   * When true, a text part without a media type is taken as exactly `text/plain` (the
   * field report's reading). When false (default), it matches any `text/*` mode.
   */
  strictTextParts: boolean;
}

/**
 * The media type a part should be judged by:
 * - an explicit media type wins (1.0 `mediaType` on any part, 0.x `file.mimeType`);
 *   an explicit but malformed one makes the part unjudgeable;
 * - a data part without one is `application/json`;
 * - a file part without one cannot be judged;
 * - a text part without one is "some text/*" (`anyText`), or `text/plain` when
 *   `strictTextParts` is set;
 * - a part of unknown kind cannot be judged.
 */
export function effectiveMediaType(part: DecodedPart, opts?: MediaTypeOptions): EffectiveMediaType {
  try {
    if (typeof part !== 'object' || part === null) return { unjudgeable: 'not a part' };
    const explicit = part.mediaType;
    if (typeof explicit === 'string' && explicit.trim().length > 0) {
      if (mediaTypeEssence(explicit) === undefined) return { unjudgeable: 'malformed media type' };
      return { mediaType: explicit };
    }
    switch (part.kind) {
      case 'data':
        return { mediaType: 'application/json' };
      case 'file':
        return { unjudgeable: 'file part without a media type' };
      case 'text':
        return opts !== undefined && opts !== null && opts.strictTextParts === true
          ? { mediaType: 'text/plain' }
          : { anyText: true };
      default:
        return { unjudgeable: 'part of unknown kind' };
    }
  } catch {
    return { unjudgeable: 'not a part' };
  }
}

export type ModeVerdict = 'match' | 'mismatch' | 'unjudgeable';

/**
 * Judges one part against a list of modes (a skill's effective input or output modes).
 * - no modes at all → unjudgeable (the card declares nothing to compare with);
 * - part without a judgeable media type → unjudgeable;
 * - a match (MIME rules) → match;
 * - otherwise, when some mode is not a media type at all (older cards list modes such as
 *   `"text"`), the card cannot be read under MIME rules → unjudgeable;
 * - otherwise → mismatch.
 */
export function partMatchesModes(
  part: DecodedPart,
  modes: readonly string[],
  opts?: MediaTypeOptions,
): ModeVerdict {
  try {
    if (!Array.isArray(modes) || modes.length === 0) return 'unjudgeable';
    const eff = effectiveMediaType(part, opts);
    if (eff.unjudgeable !== undefined) return 'unjudgeable';
    const n = Math.min(modes.length, MAX_MODES);
    let sawMalformed = false;
    if (eff.anyText === true) {
      let structured = false;
      for (let i = 0; i < n; i++) {
        const e = modeEssence(modes[i]);
        if (e === undefined) {
          sawMalformed = true;
          continue;
        }
        if (e === '*/*' || e.startsWith('text/')) return 'match';
        if (isTextCarriedType(e)) structured = true;
      }
      // A text part that states no type may carry JSON / XML (fasta2a advertises
      // `application/json` on every card and answers in text parts): not judgeable.
      return sawMalformed || structured ? 'unjudgeable' : 'mismatch';
    }
    const actual = eff.mediaType === undefined ? undefined : mediaTypeEssence(eff.mediaType);
    if (actual === undefined) return 'unjudgeable';
    for (let i = 0; i < n; i++) {
      const e = modeEssence(modes[i]);
      if (e === undefined) {
        sawMalformed = true;
        continue;
      }
      if (essenceMatches(actual, e)) return 'match';
    }
    return sawMalformed ? 'unjudgeable' : 'mismatch';
  } catch {
    return 'unjudgeable';
  }
}
