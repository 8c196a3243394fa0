/**
 * Response bodies and stream events, every version and binding → DecodedResult.
 *
 * Envelopes:
 * - JSON-RPC: `{jsonrpc, id, result}` / `{jsonrpc, id, error: {code, message, data}}`; the
 *   same envelope wraps each SSE event of a JSON-RPC stream.
 * - HTTP+JSON: bare bodies and bare SSE events. Errors: 1.0 `{error: {code, status, message,
 *   details}}` (google.rpc.Status style, `code` = HTTP status as the SDK sends it), 0.3
 *   `{code, message, data?}` (JSON-RPC error object, HTTP status ≥ 400), RFC 9457
 *   `{type, title, status, detail}`; an SSE `event: error` carries one of them.
 *
 * Payload shapes by version (which version shows which shape is the `resultShapes` of each row of
 * PROTOCOL_VERSIONS, versions.ts; the code below is one decoder for all of them, in sections by
 * what is decoded: task states, version evidence, parts, task / message / events, errors, entry
 * points):
 * - 0.1:  bare Task (`sessionId`, lowercase states, parts `{type}`); stream events
 *         `{id, status, final}` / `{id, artifact}` without a discriminator.
 * - 0.2/0.3 JSON-RPC: Task | Message | status-update | artifact-update told apart by `kind`;
 *         parts `{kind}`; `final` on status updates.
 * - 0.3 HTTP+JSON (proto JSON): wrappers `{task}|{message}|{statusUpdate}|{artifactUpdate}`,
 *         `TASK_STATE_*` (with `TASK_STATE_CANCELLED`), Message `content` instead of `parts`,
 *         parts `{text}` | `{file: {fileWithUri|fileWithBytes, mimeType}}` | `{data: {data}}`.
 * - 1.0:  wrappers as above (`SendMessage`: task|message; streams: all four), bare Task for
 *         GetTask / CancelTask, `{tasks: [...]}` for ListTasks, `TASK_STATE_*`, parts
 *         `{text|raw|url|data, mediaType?}`; no `final` (the stream ends at a terminal state).
 *
 * protocolVersion is set only when the shapes seen leave one version (DecodeEvidence).
 * Pure, total, bounded: at most MAX_ARTIFACTS artifacts × MAX_PARTS parts are read and the
 * status text is capped at MAX_STATUS_TEXT characters.
 */
import { arr, int, isRecord, nonEmptyStr, own, ownEither, str } from '../json-path';
import { intermediateMark } from '../output-parts';
import type {
  Binding,
  DecodedArtifact,
  DecodedPart,
  DecodedRequest,
  DecodedResult,
  OperationName,
  RpcError,
  TaskState,
} from '../model';
import {
  VERSION_TABLE,
  familyOfBits,
  versionOfBits,
  type ResultShape,
  type VersionTable,
} from './versions';

export const MAX_ARTIFACTS = 1000;
export const MAX_PARTS = 1000;
export const MAX_STATUS_TEXT = 4096;
const MAX_PROBLEMS = 6;
const MAX_ERROR_DETAILS = 16;
const MAX_HISTORY_SCAN = 64;

// ---------------------------------------------------------------------------------------
// Task states
// ---------------------------------------------------------------------------------------

const STATES = new Map<string, TaskState>([
  ['submitted', 'TASK_STATE_SUBMITTED'],
  ['working', 'TASK_STATE_WORKING'],
  ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
  ['completed', 'TASK_STATE_COMPLETED'],
  ['canceled', 'TASK_STATE_CANCELED'],
  ['cancelled', 'TASK_STATE_CANCELED'],
  ['failed', 'TASK_STATE_FAILED'],
  ['rejected', 'TASK_STATE_REJECTED'],
  ['auth-required', 'TASK_STATE_AUTH_REQUIRED'],
  ['unknown', 'TASK_STATE_UNSPECIFIED'],
  ['unspecified', 'TASK_STATE_UNSPECIFIED'],
]);

/** Proto enum numbers (0.3 and 1.0 `TaskState`; proto3 JSON parsers accept them). */
const PROTO_STATES: readonly TaskState[] = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];

/**
 * Any version's task state → the 1.0 spelling: lowercase / kebab-case 0.x names
 * (`input-required`, `canceled`/`cancelled`, `unknown` → UNSPECIFIED), 1.0 and 0.3-proto
 * `TASK_STATE_*` strings (any case, `_` or `-`), and the proto enum integers 0–8.
 * Anything else (including `UNRECOGNIZED`, other numbers) → undefined.
 */
const EXACT_STATES: ReadonlySet<string> = new Set<TaskState>([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_UNSPECIFIED',
]);

export function normaliseTaskState(v: unknown): TaskState | undefined {
  if (typeof v === 'number') {
    return Number.isInteger(v) && v >= 0 && v < PROTO_STATES.length ? PROTO_STATES[v] : undefined;
  }
  if (typeof v !== 'string' || v.length === 0 || v.length > 40) return undefined;
  if (EXACT_STATES.has(v)) return v as TaskState; // the 1.0 spelling, as sent: no rewriting
  let s = v.trim().toLowerCase();
  if (s.indexOf('_') >= 0) s = s.replace(/_/g, '-');
  if (s.startsWith('task-state-')) s = s.slice(11);
  return STATES.get(s);
}

/** completed, failed, canceled, rejected. */
export function isTerminalState(s: TaskState | undefined): boolean {
  return (
    s === 'TASK_STATE_COMPLETED' ||
    s === 'TASK_STATE_FAILED' ||
    s === 'TASK_STATE_CANCELED' ||
    s === 'TASK_STATE_REJECTED'
  );
}

// ---------------------------------------------------------------------------------------
// Version evidence: the candidate versions (rows of the table, versions.ts), narrowed by the
// rows that list each shape seen.
// ---------------------------------------------------------------------------------------

/** What a decode learnt besides the result: the versions its shapes allow, and its problems. */
class DecodeEvidence {
  /** Candidate versions still possible (a bit per row of the table); meaningful only when `seen`. */
  versions: number;
  seen = false;
  problems: string[] | undefined = undefined;
  constructor(
    readonly binding: Binding | undefined,
    readonly table: VersionTable = VERSION_TABLE,
  ) {
    this.versions = table.allBits;
  }
  /** A shape seen: only the versions whose row lists it remain. */
  hint(shape: ResultShape): void {
    this.seen = true;
    this.versions &= this.table.shapeBits.get(shape) ?? 0;
  }
  problem(p: string): void {
    if (this.problems === undefined) this.problems = [p];
    else if (this.problems.length < MAX_PROBLEMS && !this.problems.includes(p))
      this.problems.push(p);
  }
  version(): string | undefined {
    return this.seen ? versionOfBits(this.table, this.versions) : undefined;
  }
  /**
   * Wrapper objects / TASK_STATE_ strings: 1.0 on JSON-RPC (0.3 JSON-RPC used `kind`), 0.3 or 1.0
   * on REST.
   */
  protoJsonHint(): void {
    this.hint(this.binding === 'jsonrpc' ? 'proto-json-jsonrpc' : 'proto-json-rest');
  }
  finish(r: DecodedResult): DecodedResult {
    const v = this.version();
    if (v !== undefined) r.protocolVersion = v;
    else if (this.seen) {
      const family = familyOfBits(this.table, this.versions);
      if (family !== undefined) r.versionFamily = family;
    }
    if (this.problems !== undefined) r.problem = this.problems.join('; ');
    return r;
  }
}

function stateHint(raw: unknown, ctx: DecodeEvidence): void {
  if (typeof raw !== 'string') return;
  const c = raw.charCodeAt(0);
  if (c >= 97 && c <= 122) {
    // lowercase 0.x spelling; rejected / auth-required appeared in 0.2
    ctx.hint(
      raw === 'rejected' || raw === 'auth-required' ? 'lowercase-states-0.2' : 'lowercase-states',
    );
  } else if (raw === 'TASK_STATE_CANCELLED') {
    ctx.hint('state-cancelled'); // 0.3 proto spelling
  } else if (raw === 'TASK_STATE_CANCELED') {
    ctx.hint('state-canceled');
  } else if (raw.startsWith('TASK_STATE_')) {
    ctx.protoJsonHint();
  }
}

// ---------------------------------------------------------------------------------------
// Parts, artifacts, status text (all versions)
// ---------------------------------------------------------------------------------------

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

function parts(
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

function artifact(a: unknown, ctx: DecodeEvidence): DecodedArtifact | undefined {
  if (!isRecord(a)) {
    ctx.problem('artifact is not an object');
    return undefined;
  }
  const id = nonEmptyStr(ownEither(a, 'artifactId', 'artifact_id'));
  const ps = parts(own(a, 'parts'), ctx, 'an artifact', own(a, 'metadata'));
  return id === undefined ? { parts: ps } : { artifactId: id, parts: ps };
}

function artifacts(list: unknown, ctx: DecodeEvidence): DecodedArtifact[] {
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
function messageParts(msg: Record<string, unknown>, ctx: DecodeEvidence): unknown {
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
function partsText(
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
function statusText(msg: unknown, ctx: DecodeEvidence): string | undefined {
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
function lastAgentText(history: unknown, ctx: DecodeEvidence): string | undefined {
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
function artifactsText(list: unknown): string | undefined {
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

// ---------------------------------------------------------------------------------------
// Task, Message, events
// ---------------------------------------------------------------------------------------

function base(kind: DecodedResult['kind']): DecodedResult {
  return { kind, artifacts: [] };
}

function applyStatus(r: DecodedResult, status: unknown, ctx: DecodeEvidence): void {
  if (status === undefined || status === null) {
    ctx.problem('no status');
    return;
  }
  if (!isRecord(status)) {
    ctx.problem('status is not an object');
    return;
  }
  const raw = own(status, 'state');
  const state = normaliseTaskState(raw);
  if (state === undefined) {
    ctx.problem(raw === undefined ? 'status has no state' : 'unrecognised task state');
  } else {
    r.state = state;
    stateHint(raw, ctx);
  }
  const text = statusText(own(status, 'message'), ctx);
  if (text !== undefined) r.statusText = text;
}

/** Task of any version (0.1 `sessionId`; 0.2/0.3 `kind: 'task'`; 1.0/0.3-proto bare or wrapped). */
function task(t: Record<string, unknown>, ctx: DecodeEvidence, stream: boolean): DecodedResult {
  const r = base('task');
  const id = nonEmptyStr(own(t, 'id'));
  if (id !== undefined) r.taskId = id;
  let ctxId = nonEmptyStr(ownEither(t, 'contextId', 'context_id'));
  if (ctxId === undefined) {
    ctxId = nonEmptyStr(own(t, 'sessionId'));
    if (ctxId !== undefined) ctx.hint('session-id');
  }
  if (ctxId !== undefined) r.contextId = ctxId;
  applyStatus(r, own(t, 'status'), ctx);
  r.artifacts = artifacts(own(t, 'artifacts'), ctx);
  const answer = artifactsText(own(t, 'artifacts'));
  if (answer !== undefined) r.artifactText = answer;
  const history = lastAgentText(own(t, 'history'), ctx);
  if (history !== undefined) r.historyText = history;
  if (stream && isTerminalState(r.state)) r.final = true;
  return r;
}

/**
 * The task and context ids a message or stream event names (`legacyId`: 0.1 events call the task
 * `id`).
 */
function eventIds(r: DecodedResult, e: Record<string, unknown>, legacyId: boolean): void {
  let tid = nonEmptyStr(ownEither(e, 'taskId', 'task_id'));
  if (tid === undefined && legacyId) tid = nonEmptyStr(own(e, 'id'));
  if (tid !== undefined) r.taskId = tid;
  const cid = nonEmptyStr(ownEither(e, 'contextId', 'context_id'));
  if (cid !== undefined) r.contextId = cid;
}

/** Message (0.2/0.3 `kind: 'message'`, 1.0/0.3-proto wrapped). In a stream a Message ends it. */
function message(m: Record<string, unknown>, ctx: DecodeEvidence, stream: boolean): DecodedResult {
  const r = base('message');
  eventIds(r, m, false);
  const list = messageParts(m, ctx);
  r.messageParts = parts(list, ctx, 'the message');
  const text = partsText(list, undefined);
  if (text !== undefined) r.messageText = text;
  if (stream) r.final = true;
  return r;
}

/**
 * Status update: 0.1 `{id, status, final}`, 0.2/0.3 `{kind:'status-update', taskId, status,
 * final}`, 1.0 `statusUpdate`.
 */
function statusUpdate(
  e: Record<string, unknown>,
  ctx: DecodeEvidence,
  legacyId: boolean,
): DecodedResult {
  const r = base('status-update');
  eventIds(r, e, legacyId);
  applyStatus(r, own(e, 'status'), ctx);
  if (own(e, 'final') === true || isTerminalState(r.state)) r.final = true;
  return r;
}

/**
 * Artifact update: 0.1 `{id, artifact}`, 0.2/0.3 `{kind:'artifact-update', taskId, artifact}`, 1.0
 * `artifactUpdate`.
 */
function artifactUpdate(
  e: Record<string, unknown>,
  ctx: DecodeEvidence,
  legacyId: boolean,
): DecodedResult {
  const a = own(e, 'artifact');
  const missing = a === undefined || a === null;
  if (missing) ctx.problem('artifact update without an artifact');
  const d = missing ? undefined : artifact(a, ctx);
  // Its one artifact at once (not an empty list replaced): one array per event.
  const r: DecodedResult = { kind: 'artifact-update', artifacts: d !== undefined ? [d] : [] };
  eventIds(r, e, legacyId);
  if (!missing) {
    const text = isRecord(a)
      ? partsText(own(a, 'parts'), undefined, own(a, 'metadata'))
      : undefined;
    if (text !== undefined) r.artifactText = text;
  }
  if (own(e, 'append') === true) r.append = true;
  if (own(e, 'final') === true) r.final = true;
  return r;
}

/** 1.0 ListTasks result `{tasks: [...], nextPageToken, ...}` (tasks are not decoded one by one). */
function taskList(v: Record<string, unknown>, ctx: DecodeEvidence): DecodedResult {
  const r = base('task-list');
  const t = own(v, 'tasks');
  if (t !== undefined && !Array.isArray(t)) ctx.problem('tasks is not an array');
  return r;
}

const WRAPPERS: readonly string[] = [
  'task',
  'message',
  'msg',
  'statusUpdate',
  'status_update',
  'artifactUpdate',
  'artifact_update',
];

/** Operations whose result is not a task/message/event (a card, push configs, nothing). */
function isOpaqueOperation(op: OperationName | undefined): boolean {
  return (
    op === 'GetExtendedAgentCard' ||
    op === 'CreateTaskPushNotificationConfig' ||
    op === 'GetTaskPushNotificationConfig' ||
    op === 'ListTaskPushNotificationConfigs' ||
    op === 'DeleteTaskPushNotificationConfig'
  );
}

function payload(
  v: unknown,
  req: DecodedRequest | undefined,
  stream: boolean,
  ctx: DecodeEvidence,
): DecodedResult {
  const op = req !== undefined && req !== null ? req.operation : undefined;
  if (isOpaqueOperation(op)) return base('other');
  if (!isRecord(v)) {
    ctx.problem(v === null ? 'result is null' : 'result is not an object');
    return base('other');
  }
  if (op === 'ListTasks') return taskList(v, ctx);

  // 1.0 (any binding) / 0.3 proto JSON (REST): one payload member
  let found: string | undefined;
  for (let i = 0; i < WRAPPERS.length; i++) {
    const k = WRAPPERS[i];
    if (own(v, k) !== undefined) {
      if (found === undefined) found = k;
      else {
        ctx.problem('several payload members');
        break;
      }
    }
  }
  // python-a2a's 0.1 Task echoes the request's `message` next to its `status`: a Task, not a
  // wrapper.
  if (
    (found === 'message' || found === 'msg') &&
    isRecord(own(v, 'status')) &&
    nonEmptyStr(own(v, 'id')) !== undefined
  ) {
    return task(v, ctx, stream);
  }
  if (found !== undefined) {
    ctx.protoJsonHint();
    const inner = own(v, found);
    if (!isRecord(inner)) {
      ctx.problem(`${found} is not an object`);
      return base('other');
    }
    switch (found) {
      case 'task':
        return task(inner, ctx, stream);
      case 'message':
      case 'msg':
        return message(inner, ctx, stream);
      case 'statusUpdate':
      case 'status_update':
        if (typeof own(inner, 'final') === 'boolean') ctx.hint('update-final'); // removed in 1.0
        return statusUpdate(inner, ctx, false);
      default:
        return artifactUpdate(inner, ctx, false);
    }
  }

  // 0.2 / 0.3 JSON-RPC: `kind` discriminator
  const kind = own(v, 'kind');
  if (kind !== undefined) {
    ctx.hint('kind-discriminator');
    switch (kind) {
      case 'task':
        return task(v, ctx, stream);
      case 'message':
        return message(v, ctx, stream);
      case 'status-update':
        return statusUpdate(v, ctx, false);
      case 'artifact-update':
        return artifactUpdate(v, ctx, false);
      default:
        ctx.problem('unknown result kind');
        return base('other');
    }
  }

  // Bare objects: 1.0 / 0.3-proto Task (GetTask, CancelTask), 0.1 Task and 0.1 stream events.
  const hasStatus = own(v, 'status') !== undefined;
  if (!hasStatus && own(v, 'artifact') !== undefined) {
    const r = artifactUpdate(v, ctx, true);
    if (r.taskId !== undefined && ownEither(v, 'taskId', 'task_id') === undefined)
      ctx.hint('bare-events');
    return r;
  }
  if (hasStatus) {
    if (stream && typeof own(v, 'final') === 'boolean' && own(v, 'artifacts') === undefined) {
      ctx.hint('bare-events'); // 0.1 TaskStatusUpdateEvent
      return statusUpdate(v, ctx, true);
    }
    return task(v, ctx, stream);
  }
  if (op === 'GetTask' || op === 'CancelTask') return task(v, ctx, stream); // a Task by contract
  if (op === undefined && Array.isArray(own(v, 'tasks'))) return taskList(v, ctx);
  if (Array.isArray(own(v, 'parts')) && own(v, 'role') !== undefined)
    return message(v, ctx, stream);
  ctx.problem('unrecognised result shape');
  return base('other');
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

function reasonOf(details: unknown): string | undefined {
  if (isRecord(details)) return nonEmptyStr(own(details, 'reason'));
  const a = arr(details);
  if (a === undefined) return undefined;
  const n = a.length > MAX_ERROR_DETAILS ? MAX_ERROR_DETAILS : a.length;
  for (let i = 0; i < n; i++) {
    const r = nonEmptyStr(own(a[i], 'reason'));
    if (r !== undefined) return r;
  }
  return undefined;
}

/** JSON-RPC error object `{code, message, data}` (also the 0.3 REST error body). */
function rpcError(e: Record<string, unknown>): RpcError {
  const out: RpcError = {};
  const code = int(own(e, 'code'));
  if (code !== undefined) out.code = code;
  const msg = str(own(e, 'message'));
  if (msg !== undefined) out.message = msg;
  const data = own(e, 'data');
  if (data !== undefined) {
    out.data = data;
    const reason = reasonOf(data);
    if (reason !== undefined) out.reason = reason;
  }
  return out;
}

/** google.rpc.Status-style REST error `{code, status, message, details}`. */
function statusError(e: Record<string, unknown>): RpcError {
  const out: RpcError = {};
  const code = int(own(e, 'code'));
  if (code !== undefined) out.code = code;
  const msg = str(own(e, 'message'));
  if (msg !== undefined) out.message = msg;
  const details = own(e, 'details');
  if (details !== undefined) out.data = details;
  const reason = reasonOf(details) ?? nonEmptyStr(own(e, 'status'));
  if (reason !== undefined) out.reason = reason;
  return out;
}

function errorResult(error: RpcError, ctx: DecodeEvidence): DecodedResult {
  const r = base('error');
  r.error = error;
  return ctx.finish(r);
}

/**
 * A REST (or unknown-binding) error body, or undefined when `v` is not one.
 * `strong`: the HTTP status or SSE event name already says it is an error.
 */
function restError(
  v: unknown,
  strong: boolean,
  httpStatus: number | undefined,
  ctx: DecodeEvidence,
): DecodedResult | undefined {
  if (isRecord(v)) {
    const e = own(v, 'error');
    if (isRecord(e)) {
      const hasDetails = own(e, 'details') !== undefined || typeof own(e, 'status') === 'string';
      return errorResult(hasDetails ? statusError(e) : rpcError(e), ctx);
    }
    const code = own(v, 'code');
    const message = own(v, 'message');
    if (
      typeof code === 'number' &&
      typeof message === 'string' &&
      (strong || own(v, 'status') === undefined)
    ) {
      return errorResult(rpcError(v), ctx); // 0.3 REST
    }
    if (strong && (own(v, 'title') !== undefined || own(v, 'detail') !== undefined)) {
      // RFC 9457 problem details
      const out: RpcError = {};
      const c = int(own(v, 'status')) ?? httpStatus;
      if (c !== undefined) out.code = c;
      const m = str(own(v, 'detail')) ?? str(own(v, 'title'));
      if (m !== undefined) out.message = m;
      return errorResult(out, ctx);
    }
  }
  if (strong) {
    ctx.problem('unrecognised error body');
    return errorResult(httpStatus !== undefined ? { code: httpStatus } : {}, ctx);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------

function isEnvelope(v: unknown): v is Record<string, unknown> {
  return (
    isRecord(v) &&
    (own(v, 'jsonrpc') !== undefined ||
      own(v, 'result') !== undefined ||
      (own(v, 'error') !== undefined && own(v, 'id') !== undefined))
  );
}

function httpError(s: unknown): number | undefined {
  return typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599 ? s : undefined;
}

function jsonRpc(
  body: unknown,
  req: DecodedRequest | undefined,
  stream: boolean,
  status: number | undefined,
  ctx: DecodeEvidence,
): DecodedResult {
  if (!isRecord(body)) {
    ctx.problem('not a JSON-RPC response object');
    return status !== undefined ? errorResult({}, ctx) : ctx.finish(base('other'));
  }
  const err = own(body, 'error');
  if (err !== undefined && err !== null) {
    if (!isRecord(err)) {
      ctx.problem('malformed JSON-RPC error');
      return errorResult({}, ctx);
    }
    return errorResult(rpcError(err), ctx);
  }
  if (own(body, 'result') === undefined) {
    if (
      own(body, 'jsonrpc') === undefined &&
      status === undefined &&
      (own(body, 'id') === undefined || isRecord(own(body, 'status')))
    ) {
      // No envelope at all: python-a2a streams bare Task objects on a JSON-RPC call.
      return ctx.finish(payload(body, req, stream, ctx));
    }
    if (status !== undefined) {
      const rest = restError(body, true, status, ctx); // some gateways answer JSON-RPC calls with REST-style errors
      if (rest !== undefined) return rest;
    }
    ctx.problem('JSON-RPC response without result or error');
    return ctx.finish(base('other'));
  }
  return ctx.finish(payload(own(body, 'result'), req, stream, ctx));
}

function bindingOf(req: DecodedRequest | undefined, body: unknown): Binding | undefined {
  if (
    req !== undefined &&
    req !== null &&
    (req.binding === 'jsonrpc' || req.binding === 'http+json')
  )
    return req.binding;
  return isEnvelope(body) ? 'jsonrpc' : undefined;
}

function internal(): DecodedResult {
  return { kind: 'other', artifacts: [], problem: 'internal decoder error' };
}

/**
 * Decodes one (non-stream) response body.
 *
 * @param body the parsed JSON body (anything)
 * @param req the decoded request (its binding says whether a JSON-RPC envelope is expected,
 *   its operation which result shape); without it the binding and shape are told from the body
 * @param httpStatus the HTTP status; ≥ 400 makes a non-envelope body an error
 * @param versions the protocol versions (default: PROTOCOL_VERSIONS compiled)
 */
export function decodeResponse(
  body: unknown,
  req?: DecodedRequest,
  httpStatus?: number,
  versions: VersionTable = VERSION_TABLE,
): DecodedResult {
  try {
    const status = httpError(httpStatus);
    const binding = bindingOf(req, body);
    const ctx = new DecodeEvidence(binding, versions);
    if (binding === 'jsonrpc') return jsonRpc(body, req, false, status, ctx);
    const err = restError(body, status !== undefined, status, ctx);
    if (err !== undefined) return err;
    return ctx.finish(payload(body, req, false, ctx));
  } catch {
    return internal();
  }
}

/**
 * Decodes one SSE event's data (parsed JSON) of a streaming response.
 *
 * @param data the parsed `data:` of the event
 * @param req the decoded request (binding: envelope or bare)
 * @param eventName the SSE `event:` field; `error` marks a REST error event
 * @param versions the protocol versions (default: PROTOCOL_VERSIONS compiled)
 */
export function decodeStreamEvent(
  data: unknown,
  req?: DecodedRequest,
  eventName?: string,
  versions: VersionTable = VERSION_TABLE,
): DecodedResult {
  try {
    const binding = bindingOf(req, data);
    const ctx = new DecodeEvidence(binding, versions);
    if (eventName === 'error' && !isEnvelope(data))
      return restError(data, true, undefined, ctx) as DecodedResult;
    if (binding === 'jsonrpc') return jsonRpc(data, req, true, undefined, ctx);
    const err = restError(data, eventName === 'error', undefined, ctx);
    if (err !== undefined) return err;
    return ctx.finish(payload(data, req, true, ctx));
  } catch {
    return internal();
  }
}

/**
 * The Agent Card a JSON-RPC GetExtendedAgentCard (`agent/getAuthenticatedExtendedCard` in 0.3)
 * answered: its `result`, when the response has one and no error; undefined otherwise (an error
 * response is decoded as any operation's). The REST extended-card paths answer a bare card and
 * are card fetches (classify.ts).
 */
export function jsonRpcExtendedCard(req: DecodedRequest | undefined, body: unknown): unknown {
  if (req?.operation !== 'GetExtendedAgentCard' || req.binding !== 'jsonrpc') return undefined;
  const r = resultPayload(body, 'jsonrpc');
  return r.ok && isRecord(r.value) ? r.value : undefined;
}

/**
 * The result payload of a response: the JSON-RPC `result` member, or the bare REST body.
 * For operations whose result this module does not decode (GetExtendedAgentCard: hand the
 * value to `decodeCard`).
 */
export function resultPayload(
  body: unknown,
  binding: Binding | undefined,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    const b = binding ?? (isEnvelope(body) ? 'jsonrpc' : 'http+json');
    if (b === 'http+json') {
      if (isRecord(body) && isRecord(own(body, 'error')))
        return { ok: false, problem: 'error response' };
      return { ok: true, value: body };
    }
    if (!isRecord(body)) return { ok: false, problem: 'not a JSON-RPC response object' };
    const err = own(body, 'error');
    if (err !== undefined && err !== null) return { ok: false, problem: 'JSON-RPC error' };
    const result = own(body, 'result');
    if (result === undefined) return { ok: false, problem: 'JSON-RPC response without result' };
    return { ok: true, value: result };
  } catch {
    return { ok: false, problem: 'internal decoder error' };
  }
}
