/**
 * A result payload (the JSON-RPC `result`, a bare REST body, an SSE event's data) → the decoded
 * Task, Message, status update, artifact update or task list: which shape it is, told apart by
 * version (1.0 / 0.3-proto wrapper members, the 0.2/0.3 `kind` discriminator, 0.1 bare objects),
 * and each shape decoded.
 */
import { isRecord, nonEmptyStr, own, ownEither } from '../json-path';
import type { DecodedRequest, DecodedResult, OperationName } from '../model';
import { DecodeEvidence, stateHint } from './decode-evidence';
import {
  artifact,
  artifacts,
  artifactsText,
  lastAgentText,
  messageParts,
  parts,
  partsText,
  statusText,
} from './result-parts';
import { isTerminalState, normaliseTaskState } from './task-states';

// ---------------------------------------------------------------------------------------
export function base(kind: DecodedResult['kind']): DecodedResult {
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

export function payload(
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
