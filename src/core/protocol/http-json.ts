/**
 * The HTTP+JSON (REST) binding: request decoding from method + path (+ body).
 *
 * 1.0 paths (any base path, and the spec's optional `/{tenant}` segment, may come before
 * them; neither can be told apart from the other, so the tenant is never read from the path):
 *   POST …/message:send               SendMessage
 *   POST …/message:stream             SendStreamingMessage
 *   GET  …/tasks/{id}                 GetTask
 *   GET  …/tasks                      ListTasks
 *   POST …/tasks/{id}:cancel          CancelTask
 *   GET|POST …/tasks/{id}:subscribe   SubscribeToTask (spec: GET; the SDK serves both)
 *   POST …/tasks/{id}/pushNotificationConfigs         CreateTaskPushNotificationConfig
 *   GET  …/tasks/{id}/pushNotificationConfigs         ListTaskPushNotificationConfigs
 *   GET  …/tasks/{id}/pushNotificationConfigs/{cid}   GetTaskPushNotificationConfig
 *   DELETE …/tasks/{id}/pushNotificationConfigs/{cid} DeleteTaskPushNotificationConfig
 *   GET  …/extendedAgentCard          GetExtendedAgentCard
 * 0.3 used the same paths under `/v1` (→ protocolVersion `0.3`) and `GET /v1/card` for the
 * authenticated extended card; 0.3 had no REST ListTasks.
 *
 * Version: which version has which prefix and operations is data (the `rest` of each row of
 * PROTOCOL_VERSIONS, versions.ts; restVersion decides). An `A2A-Version` header wins when it is
 * consistent with the path; otherwise a `/v1` segment right before the A2A path means 0.3 and
 * its absence 1.0 (0.3 REST always had `/v1`). A 1.0 agent whose base URL itself ends in `/v1`
 * is only recognised as 1.0 through the header (the SDK always sends it).
 *
 * `wireMethod` is the HTTP method and the path TEMPLATE (`GET /v1/tasks/{id}`), never the
 * concrete id (bounded cardinality).
 */
import { pushWebhookOf } from '../push';
import { isRecord, nonEmptyStr, own, ownEither } from '../json-path';
import type { DecodedRequest, OperationName } from '../model';
import {
  DEFAULT_SKILL_ID_PATHS,
  fillMessageParts,
  fillSkillId,
  isSendOperation,
  isStreamingOperation,
  paramsMessage,
} from './common';
import { restVersion, VERSION_TABLE, type VersionTable } from './versions';

/** `GET {prefix}/card` for the rows that have it (`/v1/card`): a prefilter needle each. */
const CARD_PATHS: readonly string[] = VERSION_TABLE.rows
  .filter((r) => r.rest?.cardPath === true)
  .map((r) => `${r.rest?.prefix ?? ''}/card`);

/**
 * Cheap prefilter: false means the path is certainly not an A2A HTTP+JSON operation.
 * (May say true for non-A2A paths; `decodeHttpJsonRequest` decides.) No allocation.
 */
export function looksLikeRestPath(path: string): boolean {
  if (typeof path !== 'string') return false;
  return (
    path.indexOf('/tasks') >= 0 ||
    path.indexOf('/message:s') >= 0 ||
    path.indexOf('/extendedAgentCard') >= 0 ||
    hasCardPath(path)
  );
}

function hasCardPath(path: string): boolean {
  for (let i = 0; i < CARD_PATHS.length; i++) if (path.indexOf(CARD_PATHS[i]) >= 0) return true;
  return false;
}

/**
 * True for REST operations whose path is distinctive enough to be A2A on its own
 * (`message:send`, `message:stream`, `tasks/{id}:cancel`, `tasks/{id}:subscribe`,
 * `extendedAgentCard`). Generic-looking paths (`GET …/tasks/{id}`, `GET …/tasks`, the push
 * config collection, `GET /v1/card`) are common in non-A2A APIs; callers should ask for
 * another hint (an `A2A-Version` header, a known agent endpoint) before treating them as A2A.
 */
export function isDistinctiveRestOperation(req: DecodedRequest): boolean {
  const w = req.wireMethod;
  return (
    w.endsWith('/message:send') ||
    w.endsWith('/message:stream') ||
    w.endsWith(':cancel') ||
    w.endsWith(':subscribe') ||
    w.endsWith('/extendedAgentCard')
  );
}

const MAX_PATH_LENGTH = 8192;

interface Match {
  op: OperationName;
  /** Template after the optional version prefix: `/tasks/{id}:cancel`. */
  template: string;
  taskId?: string;
  /** The version prefix before the A2A part (`/v1`), or ''. */
  prefix: string;
  /** The 0.3-only `/v1/card`. */
  cardPath?: boolean;
}

function decodeSeg(s: string): string | undefined {
  if (s.length === 0) return undefined;
  if (s.indexOf('%') < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Path part of a URL or path: no scheme/authority, no query, no fragment. */
export function pathOnly(url: string): string {
  let start = 0;
  const scheme = url.indexOf('://');
  if (scheme >= 0 && scheme < 16 && url.charCodeAt(0) !== 47) {
    const slash = url.indexOf('/', scheme + 3);
    if (slash < 0) return '/';
    start = slash;
  }
  let end = url.length;
  const q = url.indexOf('?', start);
  if (q >= 0) end = q;
  const h = url.indexOf('#', start);
  if (h >= 0 && h < end) end = h;
  return start === 0 && end === url.length ? url : url.slice(start, end);
}

function matchPath(method: string, path: string, table: VersionTable): Match | undefined {
  let p = path;
  if (p.length > 1 && p.charCodeAt(p.length - 1) === 47) p = p.slice(0, -1);
  const segs = p.split('/');
  const n = segs.length;
  if (n < 2) return undefined;
  const last = segs[n - 1];
  const prev = n >= 2 ? segs[n - 2] : undefined;
  /** The version prefix segment `segs[i]` is (`/v1`), or ''. */
  const prefixAt = (i: number): string => {
    if (i < 1) return '';
    const p = `/${segs[i]}`;
    return table.restPrefixes.includes(p) ? p : '';
  };

  switch (last) {
    case 'message:send':
      return method === 'POST'
        ? { op: 'SendMessage', template: '/message:send', prefix: prefixAt(n - 2) }
        : undefined;
    case 'message:stream':
      return method === 'POST'
        ? { op: 'SendStreamingMessage', template: '/message:stream', prefix: prefixAt(n - 2) }
        : undefined;
    case 'extendedAgentCard':
      return method === 'GET'
        ? { op: 'GetExtendedAgentCard', template: '/extendedAgentCard', prefix: prefixAt(n - 2) }
        : undefined;
    case 'card': {
      const prefix = `/${prev ?? ''}`;
      return method === 'GET' &&
        table.rows.some((r) => r.rest?.cardPath && r.rest.prefix === prefix)
        ? { op: 'GetExtendedAgentCard', template: '/card', prefix, cardPath: true }
        : undefined;
    }
    case 'tasks':
      return method === 'GET'
        ? { op: 'ListTasks', template: '/tasks', prefix: prefixAt(n - 2) }
        : undefined;
    case 'pushNotificationConfigs': {
      if (n < 4 || segs[n - 3] !== 'tasks') return undefined;
      const taskId = decodeSeg(segs[n - 2]);
      if (taskId === undefined) return undefined;
      const prefix = prefixAt(n - 4);
      if (method === 'POST')
        return {
          op: 'CreateTaskPushNotificationConfig',
          template: '/tasks/{id}/pushNotificationConfigs',
          taskId,
          prefix,
        };
      if (method === 'GET')
        return {
          op: 'ListTaskPushNotificationConfigs',
          template: '/tasks/{id}/pushNotificationConfigs',
          taskId,
          prefix,
        };
      return undefined;
    }
    default:
      break;
  }

  if (prev === 'pushNotificationConfigs') {
    if (n < 5 || segs[n - 4] !== 'tasks' || last.length === 0) return undefined;
    const taskId = decodeSeg(segs[n - 3]);
    if (taskId === undefined) return undefined;
    const prefix = prefixAt(n - 5);
    const template = '/tasks/{id}/pushNotificationConfigs/{configId}';
    if (method === 'GET') return { op: 'GetTaskPushNotificationConfig', template, taskId, prefix };
    if (method === 'DELETE')
      return { op: 'DeleteTaskPushNotificationConfig', template, taskId, prefix };
    return undefined;
  }

  if (prev === 'tasks' && last.length > 0) {
    const prefix = prefixAt(n - 3);
    if (last.endsWith(':cancel')) {
      const taskId = decodeSeg(last.slice(0, -7));
      return method === 'POST' && taskId !== undefined
        ? { op: 'CancelTask', template: '/tasks/{id}:cancel', taskId, prefix }
        : undefined;
    }
    if (last.endsWith(':subscribe')) {
      const taskId = decodeSeg(last.slice(0, -10));
      return (method === 'GET' || method === 'POST') && taskId !== undefined
        ? { op: 'SubscribeToTask', template: '/tasks/{id}:subscribe', taskId, prefix }
        : undefined;
    }
    const taskId = decodeSeg(last);
    return method === 'GET' && taskId !== undefined
      ? { op: 'GetTask', template: '/tasks/{id}', taskId, prefix }
      : undefined;
  }
  return undefined;
}

/**
 * Decodes an HTTP+JSON request from its method, path and parsed body.
 * Returns undefined when it is not an A2A REST operation. Never throws.
 *
 * @param method HTTP method (any case)
 * @param path a path (may include a base path and a query) or an absolute URL
 * @param body the parsed JSON body (undefined for GET or when unknown); it is the params
 * @param skillIdPaths dotted paths as for JSON-RPC; a leading `params.` is stripped
 * @param a2aVersionHeader the `A2A-Version` request header, if any
 * @param versions the protocol versions (default: PROTOCOL_VERSIONS compiled)
 */
export function decodeHttpJsonRequest(
  method: string,
  path: string,
  body: unknown,
  skillIdPaths: readonly string[] = DEFAULT_SKILL_ID_PATHS,
  a2aVersionHeader?: string,
  versions: VersionTable = VERSION_TABLE,
): DecodedRequest | undefined {
  try {
    if (typeof method !== 'string' || typeof path !== 'string' || path.length > MAX_PATH_LENGTH)
      return undefined;
    if (!looksLikeRestPath(path)) return undefined;
    const m = method.length <= 7 ? method.toUpperCase() : '';
    const match = matchPath(m, pathOnly(path), versions);
    if (match === undefined) return undefined;

    const req: DecodedRequest = {
      operation: match.op,
      wireMethod: `${m} ${match.prefix}${match.template}`,
      binding: 'http+json',
      streaming: isStreamingOperation(match.op),
    };
    const version = restVersion(
      versions,
      match.op,
      match.prefix,
      match.cardPath === true,
      a2aVersionHeader,
    );
    if (version !== undefined) req.protocolVersion = version;
    if (match.taskId !== undefined) req.taskId = match.taskId;

    if (isRecord(body)) {
      if (isSendOperation(match.op)) {
        const msg = paramsMessage(body);
        if (msg !== undefined) {
          const taskId = nonEmptyStr(ownEither(msg, 'taskId', 'task_id'));
          const contextId = nonEmptyStr(ownEither(msg, 'contextId', 'context_id'));
          const messageId = nonEmptyStr(ownEither(msg, 'messageId', 'message_id'));
          if (taskId !== undefined) req.taskId = taskId;
          if (contextId !== undefined) req.contextId = contextId;
          if (messageId !== undefined) req.messageId = messageId;
          fillMessageParts(req, msg);
        }
      }
      const tenant = nonEmptyStr(own(body, 'tenant'));
      if (tenant !== undefined) req.tenant = tenant;
      fillSkillId(req, body, skillIdPaths, true);
      const webhook = pushWebhookOf(match.op, body);
      if (webhook !== undefined) req.pushWebhook = webhook;
    }
    return req;
  } catch {
    return undefined;
  }
}
