/**
 * Shared request-side helpers for the JSON-RPC and HTTP+JSON dialects.
 * Pure and total; see model.ts.
 */
import { MAX_SKILL_ID } from '../evidence';
import { arr, getPath, isRecord, nonEmptyStr, own, pathSegment, splitPath } from '../json-path';
import type { DecodedPart, DecodedRequest, OperationName } from '../model';
import { decodePart } from './result-parts';

/**
 * Where a skill id is looked for by default, first string wins. Paths are written against
 * the JSON-RPC request object; for HTTP+JSON the body is the params, so a leading
 * `params.` is stripped.
 */
export const DEFAULT_SKILL_ID_PATHS: readonly string[] = Object.freeze([
  'params.skillId',
  'params.metadata.skillId',
  'params.message.metadata.skillId',
  // crewAI's A2A delegation (`message.metadata.skill_id`)
  'params.message.metadata.skill_id',
]);

const MAX_SKILL_PATHS = 64;

/**
 * Looks the configured paths up and sets `req.skillId` to the first non-empty string found
 * and `req.skillIdSource` to the path (as configured) it was found at; leaves both unset
 * when none holds one.
 * `root` is the JSON-RPC request object; for HTTP+JSON pass `restBody` instead and paths
 * starting with `params.` are looked up on the body with that prefix removed (other paths
 * are looked up on the body as written).
 */
export function fillSkillId(
  req: DecodedRequest,
  root: unknown,
  paths: readonly string[] | undefined,
  restBody: boolean,
): void {
  const list = Array.isArray(paths) ? paths : DEFAULT_SKILL_ID_PATHS;
  const n = Math.min(list.length, MAX_SKILL_PATHS);
  for (let i = 0; i < n; i++) {
    const p: unknown = list[i];
    if (typeof p !== 'string') continue;
    const segs = splitPath(p);
    if (segs === null) continue;
    let v: unknown;
    if (restBody && segs[0] === 'params') {
      if (segs.length < 2) continue;
      v = getPath(root, segs.slice(1));
    } else {
      v = getPath(root, segs);
    }
    const s = nonEmptyStr(v);
    if (s !== undefined) {
      req.skillId = s;
      req.skillIdSource = p;
      break;
    }
  }
  if (req.skillId === undefined) fillMetadataSkillNames(req, root, restBody);
}

/**
 * Keys of one metadata object looked at, at most: metadata is the client's to fill, and a
 * skill key is among its first few in every client seen; thousands of keys cost no more.
 */
export const MAX_METADATA_KEYS = 64;
/** A key longer than this names no skill (and is not split into words). */
const MAX_SKILL_KEY = 64;
const SKILL_KEY_WORDS: ReadonlySet<string> = new Set(['skill', 'skill id', 'skill name']);

/**
 * True when a metadata key names a skill: its words (split at `.`, `_`, `-`, `/`, `:`, spaces and
 * camelCase humps, lower-cased) end in `skill`, `skill id` or `skill name`: `skill`, `skillId`,
 * `skill_id`, `skill-id`, `SKILL_ID`, `skillName`, `a2a.skillId`, `targetSkill`; not
 * `skillLevel`, `skills`, `skills_count`, `skillset`.
 */
export function isSkillKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_SKILL_KEY) return false;
  const low = key.toLowerCase();
  if (!low.includes('skill')) return false;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[._\-/: ]+/)
    .filter((w) => w.length > 0);
  const n = words.length;
  if (n === 0) return false;
  if (words[n - 1] === 'skill') return true;
  return n >= 2 && SKILL_KEY_WORDS.has(`${words[n - 2]} ${words[n - 1]}`);
}

/**
 * Adds the skill names the message's and the request's metadata give under a key that names a
 * skill (isSkillKey) to `req.metadataSkillNames`, with where (`params.message.metadata["a2a.skillId"]`).
 * Candidates only, like a data part's: negotiation takes one only when a card of the agent lists
 * it. Paths are written against the JSON-RPC request whatever the binding, as skillIdPaths are.
 */
function fillMetadataSkillNames(req: DecodedRequest, root: unknown, restBody: boolean): void {
  const params = restBody ? root : own(root, 'params');
  if (!isRecord(params)) return;
  const msg = own(params, 'message') ?? own(params, 'request');
  metadataSkillNames(req, own(msg, 'metadata'), 'params.message.metadata');
  metadataSkillNames(req, own(params, 'metadata'), 'params.metadata');
}

function metadataSkillNames(req: DecodedRequest, metadata: unknown, where: string): void {
  if (!isRecord(metadata)) return;
  let seen = 0;
  for (const key in metadata) {
    if (++seen > MAX_METADATA_KEYS) return;
    if (!isSkillKey(key)) continue;
    const name = nonEmptyStr(own(metadata, key));
    if (name === undefined || name.length > MAX_SKILL_ID) continue;
    const list = (req.metadataSkillNames ??= []);
    if (list.length >= MAX_PART_SKILL_NAMES) return;
    list.push({ name, source: `${where}${pathSegment(key)}` });
  }
}

export { majorOf, normaliseVersion } from './versions';

/** Extension URIs a call's span carries, at most, and the length of each (longer ones are cut). */
export const MAX_REQUEST_EXTENSIONS = 16;
export const MAX_EXTENSION_URI = 256;

/**
 * The A2A extensions a call activates: the URIs of its `A2A-Extensions` header (and of
 * `X-A2A-Extensions`, which older SDKs send), comma-separated, trimmed, distinct, at most
 * MAX_REQUEST_EXTENSIONS of at most MAX_EXTENSION_URI characters each; undefined when none.
 * Protocol identifiers, not secrets: the one header value put on spans.
 */
export function requestExtensions(
  ...values: ReadonlyArray<string | readonly string[] | undefined>
): string[] | undefined {
  let out: string[] | undefined;
  for (const v of values) {
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
    for (const value of list) {
      if (typeof value !== 'string') continue;
      // a hostile header is not split whole: enough of it for the entries kept
      const text = value.length > 8192 ? value.slice(0, 8192) : value;
      for (const raw of text.split(',')) {
        const uri = raw.trim();
        if (uri.length === 0) continue;
        const cut = uri.length > MAX_EXTENSION_URI ? uri.slice(0, MAX_EXTENSION_URI) : uri;
        out ??= [];
        if (out.includes(cut)) continue;
        if (out.length >= MAX_REQUEST_EXTENSIONS) return out;
        out.push(cut);
      }
    }
  }
  return out;
}

/**
 * True for the operations that send a message, and so start (or continue) the agent's work: they
 * negotiate a skill, may register a push webhook, and are the GenAI conventions' agent
 * invocations.
 */
export function isSendOperation(op: OperationName): boolean {
  return op === 'SendMessage' || op === 'SendStreamingMessage';
}

/** True for the operations whose response is an SSE stream. */
export function isStreamingOperation(op: OperationName): boolean {
  return op === 'SendStreamingMessage' || op === 'SubscribeToTask';
}

const MAX_REQUEST_PARTS = 64;

/**
 * The kinds and media types of a sent message's parts (`parts`, or 0.3 proto JSON
 * `content`), at most MAX_REQUEST_PARTS: what the judge compares with the card's input
 * modes. No content is kept.
 */
export function fillMessageParts(req: DecodedRequest, msg: Record<string, unknown>): void {
  const list = arr(own(msg, 'parts') ?? own(msg, 'content'));
  if (list === undefined) return;
  const n = list.length > MAX_REQUEST_PARTS ? MAX_REQUEST_PARTS : list.length;
  const out: DecodedPart[] = new Array<DecodedPart>(n);
  for (let i = 0; i < n; i++) {
    out[i] = decodePart(list[i]);
    if (out[i].kind === 'data') skillNamesOfDataPart(req, list[i]);
  }
  req.messageParts = out;
}

/** The keys under which a client may name the skill in a data part of its message. */
const PART_SKILL_KEYS: readonly string[] = ['skillId', 'skill_id', 'skill'];
const MAX_PART_SKILL_NAMES = 4;

/**
 * Adds the skill names a data part gives (`{"skill": "x", "parameters": {...}}`; 0.3 proto JSON
 * nests the object in `data.data`) to `req.partSkillNames`. Candidates only (negotiation keeps one
 * only when the card in use lists it, or an earlier card of the same agent did).
 */
function skillNamesOfDataPart(req: DecodedRequest, part: unknown): void {
  let data = own(part, 'data');
  if (isRecord(data) && isRecord(own(data, 'data')) && own(part, 'kind') === undefined)
    data = own(data, 'data');
  if (!isRecord(data)) return;
  for (const key of PART_SKILL_KEYS) {
    const name = nonEmptyStr(own(data, key));
    if (name === undefined || name.length > MAX_SKILL_ID) continue;
    const list = (req.partSkillNames ??= []);
    if (list.length >= MAX_PART_SKILL_NAMES) return;
    list.push({ name, source: `message.parts[].data.${key}` });
  }
}

/** The `message` member of send params (record) or undefined. */
export function paramsMessage(params: unknown): Record<string, unknown> | undefined {
  const m = own(params, 'message');
  return isRecord(m) ? m : undefined;
}

/** Extracts the task id from a 1.0 resource name `tasks/{id}` or `tasks/{id}/...`. */
export function taskIdFromName(name: unknown): string | undefined {
  if (typeof name !== 'string' || !name.startsWith('tasks/')) return undefined;
  const rest = name.slice(6);
  const slash = rest.indexOf('/');
  const id = slash < 0 ? rest : rest.slice(0, slash);
  return id.length > 0 ? id : undefined;
}

/**
 * The agent endpoint a request was sent to, for keying its tasks (task ids are only unique
 * per agent: two peers both numbering tasks "1" must not share a negotiation). JSON-RPC:
 * the normalised request URL itself. HTTP+JSON: the URL without the operation's path
 * (`…/a2a/rest/tasks/7:cancel` and `…/a2a/rest/message:send` → `…/a2a/rest`), from the path
 * template in `wireMethod`.
 */
export function endpointScope(normalisedUrl: string, req: DecodedRequest): string {
  if (req.binding !== 'http+json') return normalisedUrl;
  const space = req.wireMethod.indexOf(' ');
  const template = space < 0 ? '' : req.wireMethod.slice(space + 1);
  let k = 0;
  for (let i = 0; i < template.length; i++) if (template.charCodeAt(i) === 47) k++;
  let end = normalisedUrl.length;
  const floor = normalisedUrl.indexOf('://') + 3;
  for (; k > 0; k--) {
    const slash = normalisedUrl.lastIndexOf('/', end - 1);
    if (slash < floor) break;
    end = slash;
  }
  return normalisedUrl.slice(0, end);
}
