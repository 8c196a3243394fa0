/**
 * Parts, artifacts and their text, of every version (0.1 `{type}`, 0.2/0.3 `{kind}`, 0.3 proto
 * JSON wrappers, 1.0 `{text|raw|url|data, mediaType?}`): decoded parts, and the text an agent
 * states in a status message, its artifacts or its history. Bounded: at most MAX_ARTIFACTS
 * artifacts × MAX_PARTS parts are read and a text is capped at MAX_STATUS_TEXT characters.
 */
import { arr, isRecord, nonEmptyStr, own, ownEither } from '../json-path';
import { intermediateMark } from '../output-parts';
import type { DecodedArtifact, DecodedPart } from '../model';
import { DecodeEvidence } from './decode-evidence';

export const MAX_ARTIFACTS = 1000;
export const MAX_PARTS = 1000;
export const MAX_STATUS_TEXT = 4096;
const MAX_HISTORY_SCAN = 64;

/**
 * One part of any version:
 * - 0.1 `{type: 'text'|'file'|'data'}`, 0.2/0.3 `{kind: ...}`; file media type in `file.mimeType`;
 * - 0.3 proto JSON `{text}` | `{file: {fileWithUri|fileWithBytes, mimeType}}` | `{data: {data}}`;
 * - 1.0 `{text}` | `{raw}` | `{url}` | `{data}`, `mediaType` on any part.
 * An explicit `mediaType` (1.0, any part) wins over `file.mimeType`.
 */
export function decodePart(p: unknown): DecodedPart {
  try {
    return part(p, new DecodeEvidence(undefined));
  } catch {
    return { kind: 'unknown' };
  }
}

function part(p: unknown, ctx: DecodeEvidence, artifactMetadata?: unknown): DecodedPart {
  if (!isRecord(p)) return { kind: 'unknown' };
  let mediaType = nonEmptyStr(ownEither(p, 'mediaType', 'media_type'));
  if (mediaType !== undefined) ctx.hint('media-type');
  let disc = own(p, 'kind');
  if (typeof disc === 'string') {
    ctx.hint('kind-discriminator');
  } else {
    disc = own(p, 'type');
    if (typeof disc === 'string') ctx.hint('type-discriminator');
    else disc = undefined;
  }
  let kind: DecodedPart['kind'];
  if (disc !== undefined) {
    kind =
      disc === 'text' ? 'text' : disc === 'file' ? 'file' : disc === 'data' ? 'data' : 'unknown';
    if (kind === 'file' && mediaType === undefined) {
      const f = own(p, 'file');
      mediaType = nonEmptyStr(own(f, 'mimeType')) ?? nonEmptyStr(own(f, 'mediaType'));
    }
  } else if (typeof own(p, 'text') === 'string') {
    kind = 'text';
  } else if (own(p, 'raw') !== undefined || own(p, 'url') !== undefined) {
    kind = 'file';
    ctx.hint('raw-url-parts');
  } else if (isRecord(own(p, 'file'))) {
    kind = 'file';
    ctx.hint('file-wrapper');
    if (mediaType === undefined) {
      const f = own(p, 'file');
      mediaType =
        nonEmptyStr(own(f, 'mimeType')) ?? nonEmptyStr(ownEither(f, 'mediaType', 'mime_type'));
    }
  } else if (own(p, 'data') !== undefined) {
    kind = 'data';
  } else {
    kind = 'unknown';
  }
  const out: DecodedPart = mediaType === undefined ? { kind } : { kind, mediaType };
  const mark = intermediateMark(kind, own(p, 'metadata'), artifactMetadata);
  if (mark !== undefined) out.intermediate = mark;
  return out;
}

export function parts(
  list: unknown,
  ctx: DecodeEvidence,
  what: string,
  artifactMetadata?: unknown,
): DecodedPart[] {
  const a = arr(list);
  if (a === undefined) {
    if (list !== undefined && list !== null) ctx.problem(`${what} parts is not an array`);
    return [];
  }
  const n = a.length > MAX_PARTS ? MAX_PARTS : a.length;
  if (a.length > MAX_PARTS) ctx.problem(`only the first ${MAX_PARTS} parts of ${what} were read`);
  const out: DecodedPart[] = new Array<DecodedPart>(n);
  for (let i = 0; i < n; i++) out[i] = part(a[i], ctx, artifactMetadata);
  return out;
}

export function artifact(a: unknown, ctx: DecodeEvidence): DecodedArtifact | undefined {
  if (!isRecord(a)) {
    ctx.problem('artifact is not an object');
    return undefined;
  }
  const id = nonEmptyStr(ownEither(a, 'artifactId', 'artifact_id'));
  const ps = parts(own(a, 'parts'), ctx, 'an artifact', own(a, 'metadata'));
  return id === undefined ? { parts: ps } : { artifactId: id, parts: ps };
}

export function artifacts(list: unknown, ctx: DecodeEvidence): DecodedArtifact[] {
  const a = arr(list);
  if (a === undefined) {
    if (list !== undefined && list !== null) ctx.problem('artifacts is not an array');
    return [];
  }
  const n = a.length > MAX_ARTIFACTS ? MAX_ARTIFACTS : a.length;
  if (a.length > MAX_ARTIFACTS) ctx.problem(`only the first ${MAX_ARTIFACTS} artifacts were read`);
  const out: DecodedArtifact[] = [];
  for (let i = 0; i < n; i++) {
    const d = artifact(a[i], ctx);
    if (d !== undefined) out.push(d);
  }
  return out;
}

/** Message parts: `parts` (JSON-RPC, 1.0), or `content` (0.3 proto JSON). */
export function messageParts(msg: Record<string, unknown>, ctx: DecodeEvidence): unknown {
  const p = own(msg, 'parts');
  if (p !== undefined) return p;
  const c = own(msg, 'content');
  if (c !== undefined) ctx.hint('message-content');
  return c;
}

/**
 * Text of the text parts of a parts list, joined by ' ', appended to `into` and capped. Parts
 * marked as intermediate work (a thought, a tool's result: output-parts.ts) are not the agent's
 * statement and are left out.
 */
export function partsText(
  list: unknown,
  into: string | undefined,
  artifactMetadata?: unknown,
): string | undefined {
  const a = arr(list);
  if (a === undefined) return into;
  const n = a.length > MAX_PARTS ? MAX_PARTS : a.length;
  let out = into;
  for (let i = 0; i < n; i++) {
    if (out !== undefined && out.length >= MAX_STATUS_TEXT) break;
    const p = a[i];
    if (!isRecord(p)) continue;
    const k = own(p, 'kind');
    const t = own(p, 'type');
    const disc = typeof k === 'string' ? k : typeof t === 'string' ? t : undefined;
    let text = own(p, 'text');
    if (disc === 'data' || (disc === undefined && text === undefined)) {
      // python-a2a reports handler failures as a data part `{"error": "..."}`
      text = errorField(own(p, 'data'));
      if (text === undefined) continue;
      if (intermediateMark('data', own(p, 'metadata'), artifactMetadata) !== undefined) continue;
    } else if (typeof text !== 'string' || (disc !== undefined && disc !== 'text')) continue;
    else if (intermediateMark('text', own(p, 'metadata'), artifactMetadata) !== undefined) continue;
    out = out === undefined ? (text as string) : `${out} ${text as string}`;
  }
  return out !== undefined && out.length > MAX_STATUS_TEXT ? out.slice(0, MAX_STATUS_TEXT) : out;
}

/**
 * The `error` (or `message`) string of an object that is not an A2A message (python-a2a's
 * `{"error": "..."}`).
 */
function errorField(v: unknown): string | undefined {
  if (!isRecord(v)) return undefined;
  const e = own(v, 'error');
  if (typeof e === 'string') return e;
  const m = own(v, 'message');
  return typeof m === 'string' ? m : undefined;
}

/**
 * Text of the text parts of a status message, joined by ' ', capped; python-a2a's
 * `{"error": "..."}` status message and reactive-agents' plain-string one, their text.
 */
export function statusText(msg: unknown, ctx: DecodeEvidence): string | undefined {
  // reactive-agents' server puts a plain string there
  if (typeof msg === 'string')
    return msg.length > MAX_STATUS_TEXT ? msg.slice(0, MAX_STATUS_TEXT) : msg;
  if (!isRecord(msg)) return undefined;
  const list = messageParts(msg, ctx);
  if (list === undefined) {
    const e = errorField(msg);
    return e !== undefined && e.length > MAX_STATUS_TEXT ? e.slice(0, MAX_STATUS_TEXT) : e;
  }
  return partsText(list, undefined);
}

/** 0.x `agent`, 1.0 `ROLE_AGENT` (proto enum 2). */
function isAgentRole(role: unknown): boolean {
  if (typeof role === 'number') return role === 2;
  return (
    typeof role === 'string' &&
    (role === 'agent' ||
      role === 'ROLE_AGENT' ||
      role.toLowerCase() === 'agent' ||
      role.toUpperCase() === 'ROLE_AGENT')
  );
}

/**
 * The text of the last agent message in a task's `history` (fasta2a fails a task with no
 * status message: its explanation is the last agent message there). Only the last
 * MAX_HISTORY_SCAN entries are looked at.
 */
export function lastAgentText(history: unknown, ctx: DecodeEvidence): string | undefined {
  const a = arr(history);
  if (a === undefined) return undefined;
  const stop = a.length > MAX_HISTORY_SCAN ? a.length - MAX_HISTORY_SCAN : 0;
  for (let i = a.length - 1; i >= stop; i--) {
    const m = a[i];
    if (isRecord(m) && isAgentRole(own(m, 'role')))
      return partsText(messageParts(m, ctx), undefined);
  }
  return undefined;
}

/** Text of the artifacts' text parts (LLM frameworks put their answer there), capped. */
export function artifactsText(list: unknown): string | undefined {
  const a = arr(list);
  if (a === undefined) return undefined;
  const n = a.length > MAX_ARTIFACTS ? MAX_ARTIFACTS : a.length;
  let out: string | undefined;
  for (let i = 0; i < n && (out === undefined || out.length < MAX_STATUS_TEXT); i++) {
    const art = a[i];
    if (isRecord(art)) out = partsText(own(art, 'parts'), out, own(art, 'metadata'));
  }
  return out;
}
