/**
 * Shared request-side helpers for the JSON-RPC and HTTP+JSON dialects.
 * Pure and total; see model.ts.
 */
import { MAX_SKILL_ID } from '../evidence';
import { arr, getPath, isRecord, nonEmptyStr, own, splitPath } from '../json-path';
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
      return;
    }
  }
}

export { majorOf, normaliseVersion } from './versions';

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
