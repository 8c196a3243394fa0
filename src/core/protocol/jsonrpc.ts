/**
 * The JSON-RPC binding, every version: request decoding.
 *
 * Method names of every version map to the 1.0 operation name:
 * - 0.1: `tasks/send`, `tasks/sendSubscribe`, `tasks/pushNotification/set|get`
 *   (protocolVersion `0.1`); `tasks/get`, `tasks/cancel`, `tasks/resubscribe` are shared
 *   by 0.1–0.3 (version not told by the name);
 * - 0.2/0.3: `message/send`, `message/stream`, `tasks/pushNotificationConfig/set|get|list|delete`
 *   (0.2 and 0.3 cannot be told apart: version not set from the name);
 *   `agent/getAuthenticatedExtendedCard` appeared in 0.3.0 → `0.3`; `tasks/list` (0.4 draft) →
 * ListTasks;
 * - 1.0: the PascalCase names (`SendMessage`, ...) → `1.0`, plus the push-config aliases
 *   seen in 1.0 drafts and docs (`SetTaskPushNotificationConfig`,
 *   `ListTaskPushNotificationConfig`, `CreatePushNotificationConfig`, ...).
 * Which version has which names is data: the `jsonRpcMethods` of each row of PROTOCOL_VERSIONS
 * (versions.ts). An `A2A-Version` header refines the version when its major version agrees with
 * the method's family, and supplies it when the method does not tell.
 */
import { pushWebhookOf } from '../push';
import { isRecord, nonEmptyStr, own, ownEither } from '../json-path';
import type { DecodedRequest } from '../model';
import {
  DEFAULT_SKILL_ID_PATHS,
  fillMessageParts,
  fillSkillId,
  isStreamingOperation,
  majorOf,
  normaliseVersion,
  paramsMessage,
  taskIdFromName,
} from './common';
import { VERSION_TABLE, type JsonRpcMethod, type VersionTable } from './versions';

export { DEFAULT_SKILL_ID_PATHS } from './common';

/**
 * The version a request speaks: the name's own version, refined by the header only within
 * 1.x (a 1.1 header on `SendMessage` gives `1.1`); when the name does not tell, the header
 * is used if the method exists in that version. A header contradicting the name is ignored.
 */
function versionFor(info: JsonRpcMethod, header: unknown): string | undefined {
  const h = normaliseVersion(header);
  if (info.family === '1') return h !== undefined && majorOf(h) === '1' ? h : info.version;
  if (info.version !== undefined || h === undefined) return info.version;
  return info.versions.includes(h) ? h : undefined;
}

/**
 * `req` (decoded without a version header) as decoding it again with the `A2A-Version`
 * header `header` would give it: the header only refines the version (see versionFor), so
 * the body need not be parsed twice.
 */
export function withJsonRpcVersionHeader(
  req: DecodedRequest,
  header: string,
  versions: VersionTable = VERSION_TABLE,
): DecodedRequest {
  const info = versions.jsonRpc.get(req.wireMethod);
  if (info === undefined || req.binding !== 'jsonrpc') return req;
  const version = versionFor(info, header);
  if (version === req.protocolVersion) return req;
  const out: DecodedRequest = { ...req };
  if (version === undefined) delete out.protocolVersion;
  else out.protocolVersion = version;
  return out;
}

/** A JSON-RPC id usable as an attribute: a string or a finite number. */
function rpcIdOf(v: unknown): string | number | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return undefined;
}

/**
 * Decodes a parsed JSON-RPC request body into a DecodedRequest, or undefined when the
 * value is not an A2A JSON-RPC request (not an object, no A2A method name, `jsonrpc`
 * present but not `"2.0"`, or a batch). Never throws.
 *
 * @param body the `JSON.parse`d request body
 * @param skillIdPaths dotted paths (against the whole request, e.g. `params.metadata.skillId`);
 *   default DEFAULT_SKILL_ID_PATHS
 * @param a2aVersionHeader the `A2A-Version` request header, if any
 * @param versions the protocol versions (default: PROTOCOL_VERSIONS compiled)
 */
export function decodeJsonRpcRequest(
  body: unknown,
  skillIdPaths: readonly string[] = DEFAULT_SKILL_ID_PATHS,
  a2aVersionHeader?: string,
  versions: VersionTable = VERSION_TABLE,
): DecodedRequest | undefined {
  try {
    return decode(body, skillIdPaths, a2aVersionHeader, versions);
  } catch {
    return undefined;
  }
}

function decode(
  body: unknown,
  skillIdPaths: readonly string[],
  header: unknown,
  versions: VersionTable,
): DecodedRequest | undefined {
  if (!isRecord(body)) return undefined;
  const method = own(body, 'method');
  if (typeof method !== 'string' || method.length > 64) return undefined;
  const info = versions.jsonRpc.get(method);
  if (info === undefined) return undefined;
  const jsonrpc = own(body, 'jsonrpc');
  if (jsonrpc !== undefined && jsonrpc !== '2.0') return undefined;

  const op = info.op;
  const req: DecodedRequest = {
    operation: op,
    wireMethod: method,
    binding: 'jsonrpc',
    streaming: isStreamingOperation(op),
  };

  const version = versionFor(info, header);
  if (version !== undefined) req.protocolVersion = version;

  const rpcId = rpcIdOf(own(body, 'id'));
  if (rpcId !== undefined) req.rpcId = rpcId;

  const params = own(body, 'params');
  if (isRecord(params)) {
    fillIds(req, params, info);
    const tenant = nonEmptyStr(own(params, 'tenant'));
    if (tenant !== undefined) req.tenant = tenant;
    const webhook = pushWebhookOf(op, params);
    if (webhook !== undefined) req.pushWebhook = webhook;
  }

  fillSkillId(req, body, skillIdPaths, false);
  return req;
}

/** Ids from params, per operation and method family (shared with nothing else). */
function fillIds(req: DecodedRequest, params: Record<string, unknown>, info: JsonRpcMethod): void {
  const v1 = info.family === '1';
  const is01 = info.taskSendParams;
  let taskId: string | undefined;
  let contextId: string | undefined;
  switch (info.op) {
    case 'SendMessage':
    case 'SendStreamingMessage': {
      const msg = paramsMessage(params);
      if (msg !== undefined) {
        taskId = nonEmptyStr(v1 ? ownEither(msg, 'taskId', 'task_id') : own(msg, 'taskId'));
        contextId = nonEmptyStr(
          v1 ? ownEither(msg, 'contextId', 'context_id') : own(msg, 'contextId'),
        );
        const messageId = nonEmptyStr(
          v1 ? ownEither(msg, 'messageId', 'message_id') : own(msg, 'messageId'),
        );
        if (messageId !== undefined) req.messageId = messageId;
        fillMessageParts(req, msg);
      }
      if (is01) {
        // 0.1 TaskSendParams: the client names the task (`id`) and the session.
        taskId = taskId ?? nonEmptyStr(own(params, 'id'));
        contextId = contextId ?? nonEmptyStr(own(params, 'sessionId'));
      } else {
        taskId = taskId ?? nonEmptyStr(own(params, 'taskId'));
      }
      break;
    }
    case 'GetTask':
    case 'CancelTask':
    case 'SubscribeToTask':
      taskId = nonEmptyStr(own(params, 'id'));
      if (taskId === undefined && v1) taskId = taskIdFromName(own(params, 'name'));
      break;
    case 'CreateTaskPushNotificationConfig':
      if (is01) taskId = nonEmptyStr(own(params, 'id'));
      else if (v1)
        taskId =
          nonEmptyStr(ownEither(params, 'taskId', 'task_id')) ??
          taskIdFromName(own(params, 'parent'));
      else taskId = nonEmptyStr(own(params, 'taskId'));
      break;
    case 'GetTaskPushNotificationConfig':
    case 'ListTaskPushNotificationConfigs':
    case 'DeleteTaskPushNotificationConfig':
      // 0.x: `id` is the task id; 1.0: `id` is the CONFIG id and the task is `taskId`.
      if (v1) {
        taskId =
          nonEmptyStr(ownEither(params, 'taskId', 'task_id')) ??
          taskIdFromName(own(params, 'name')) ??
          taskIdFromName(own(params, 'parent'));
      } else {
        taskId = nonEmptyStr(own(params, 'id'));
      }
      break;
    case 'ListTasks':
      contextId = nonEmptyStr(
        v1 ? ownEither(params, 'contextId', 'context_id') : own(params, 'contextId'),
      );
      break;
    default:
      break;
  }
  if (taskId !== undefined) req.taskId = taskId;
  if (contextId !== undefined) req.contextId = contextId;
}
