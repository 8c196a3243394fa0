/**
 * The gRPC binding: which gRPC services are A2A (by full service name, per version, as data),
 * what each method is, the channel target as a matching key, and the SDKs' decoded protobuf
 * objects (ts-proto style: oneofs as `{ $case, value }`, enums as numbers, unset strings as '')
 * mapped onto the model through the same decoders as the JSON bindings (`results.ts`).
 * Pure and total: any input gets an answer, never an exception.
 */
import { isRecord, nonEmptyStr, own } from '../json-path';
import type { DecodedRequest, DecodedResult, RpcError } from '../model';
import {
  DEFAULT_SKILL_ID_PATHS,
  fillMessageParts,
  fillSkillId,
  isSendOperation,
  isStreamingOperation,
  paramsMessage,
  taskIdFromName,
} from './common';
import { decodeResponse, decodeStreamEvent } from './results';
import { pushWebhookOf } from '../push';
import { ERROR_SENTINELS } from '../dialects';
import { VERSION_TABLE, type VersionTable } from './versions';

/**
 * A2A gRPC services by full name → the protocol version each speaks (from the `grpc` of the rows
 * of PROTOCOL_VERSIONS, versions.ts: `lf.a2a.v1.A2AService` 1.0, `a2a.v1.A2AService` 0.3). A
 * method name of any A2A service (`TaskSubscription`, `GetAgentCard`… of 0.3) is known on each.
 */
export const A2A_GRPC_SERVICES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    [...VERSION_TABLE.grpcServices].filter((e): e is [string, string] => e[1] !== undefined),
  ),
);

/** gRPC status codes by number (the names the RPC conventions and google.rpc.Status use). */
export const GRPC_STATUS_NAMES: readonly string[] = Object.freeze([
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
]);

export const GRPC_STATUS_CANCELLED = 1;
/** grpc-js's details of a call the client cancelled (`call.cancel()`), as opposed to the server. */
export const GRPC_CANCELLED_BY_CLIENT = 'Cancelled on client';
export const GRPC_STATUS_FAILED_PRECONDITION = 9;

/** Whether `service` (a full service name) is an A2A service. A table look-up only. */
export function isA2AGrpcService(
  service: unknown,
  versions: VersionTable = VERSION_TABLE,
): boolean {
  return typeof service === 'string' && versions.grpcServices.has(service);
}

/** `/pkg.Service/Method` → its service and method; undefined when not of that shape. */
export function splitGrpcPath(path: unknown): { service: string; method: string } | undefined {
  if (typeof path !== 'string' || path.length > 256 || path.charCodeAt(0) !== 47) return undefined;
  const slash = path.indexOf('/', 1);
  if (slash < 2 || slash === path.length - 1 || path.indexOf('/', slash + 1) >= 0) return undefined;
  return { service: path.slice(1, slash), method: path.slice(slash + 1) };
}

/**
 * A gRPC channel target (`127.0.0.1:50051`, `dns:///host:443`, `ipv4:1.2.3.4:5`, `[::1]:5`,
 * `grpc://host:5`, `host`) as the URL an A2A call and a card's GRPC interface are matched by:
 * `grpc://host:port` (host lower-cased; grpc-js's default port 443 when none is written).
 * Undefined for targets that name no host and port (`unix:…`) or cannot be read.
 */
export function grpcTargetUrl(target: unknown): string | undefined {
  if (typeof target !== 'string' || target.length === 0 || target.length > 512) return undefined;
  let t = target.trim();
  const lower = t.toLowerCase();
  if (lower.startsWith('unix:') || lower.startsWith('unix-abstract:')) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):(\/\/[^/]*)?\/?/.exec(lower);
  if (scheme !== null && !/^\d+$/.test(t.slice(scheme[1].length + 1).split('/')[0] ?? '')) {
    // `dns:///h:p`, `dns://authority/h:p`, `ipv4:h:p`, `ipv6:[h]:p`, `grpc(s)://h:p`, `http(s)://h:p`
    const s = scheme[1];
    if (s === 'dns' || s === 'ipv4' || s === 'ipv6') {
      t = t.slice(s.length + 1);
      if (t.startsWith('//')) {
        const end = t.indexOf('/', 2);
        t = end < 0 ? '' : t.slice(end + 1);
      }
      t = t.split(',')[0] ?? ''; // ipv4:a:1,b:2 → the first address
    } else if (t.slice(s.length + 1).startsWith('//')) {
      t = t.slice(s.length + 3);
      const end = t.search(/[/?#]/);
      if (end >= 0) t = t.slice(0, end);
    }
  }
  let host: string;
  let port = '443';
  if (t.startsWith('[')) {
    const close = t.indexOf(']');
    if (close < 0) return undefined;
    host = t.slice(0, close + 1);
    const rest = t.slice(close + 1);
    if (rest.startsWith(':')) port = rest.slice(1);
    else if (rest !== '') return undefined;
  } else {
    const colon = t.lastIndexOf(':');
    if (colon >= 0 && t.indexOf(':') !== colon) {
      host = `[${t}]`; // a bare IPv6 address
    } else if (colon >= 0) {
      host = t.slice(0, colon);
      port = t.slice(colon + 1);
    } else host = t;
  }
  if (host === '' || !/^\d{1,5}$/.test(port) || Number(port) > 65535) return undefined;
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)$/.test(host)) return undefined;
  return `grpc://${host.toLowerCase()}:${Number(port)}`;
}

/** Whether a card interface's binding name is gRPC. */
export function isGrpcBinding(binding: unknown): boolean {
  return typeof binding === 'string' && binding.toUpperCase() === 'GRPC';
}

const ROLES: readonly string[] = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'];
const MAX_DEPTH = 16;
const MAX_ITEMS = 1024;
const MAX_KEYS = 256;

/**
 * A decoded protobuf object (ts-proto style) as its proto JSON: a oneof `{ $case, value }` becomes
 * the member it names (`content: {$case: 'text', value}` → `text`), the 0.3 TaskStatus's `update`
 * its JSON name `message`, enum numbers of `state` and
 * `role` their names, empty strings dropped; `metadata` and `data` values (google.protobuf
 * Struct/Value, already plain) are kept as they are; bytes become an empty string (never read).
 * Bounded: MAX_DEPTH levels, MAX_ITEMS per list, MAX_KEYS per object; never throws.
 */
export function protoToJson(v: unknown, depth = 0): unknown {
  try {
    return convert(v, depth);
  } catch {
    return undefined;
  }
}

function convert(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (depth > MAX_DEPTH) return undefined;
  if (v instanceof Uint8Array) return '';
  if (Array.isArray(v)) {
    const n = v.length > MAX_ITEMS ? MAX_ITEMS : v.length;
    const out: unknown[] = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = convert(v[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  const n = keys.length > MAX_KEYS ? MAX_KEYS : keys.length;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (k === '__proto__') continue;
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || x === '') continue;
    if (k === 'metadata' || k === 'data') {
      out[k] = x;
      continue;
    }
    if ((k === 'state' || k === 'role') && typeof x === 'number') {
      out[k] = k === 'role' ? (ROLES[x] ?? x) : x; // task states: normaliseTaskState reads numbers
      continue;
    }
    if (isRecord(x) && typeof x['$case'] === 'string' && 'value' in x) {
      const member = x['$case'];
      if (member === '__proto__') continue;
      const inner = x['value'];
      out[member] = member === 'data' ? inner : convert(inner, depth + 1);
      continue;
    }
    // 0.3 proto: TaskStatus's `update` is the status message (json_name "message")
    const key = k === 'update' && 'state' in v ? 'message' : k;
    out[key] = convert(x, depth + 1);
  }
  return out;
}

/**
 * One call of an A2A gRPC method with its request message (the SDK's object, before
 * serialisation). Undefined when the path is not an A2A service's known method. Never throws.
 *
 * @param versions the protocol versions (default: PROTOCOL_VERSIONS compiled)
 */
export function decodeGrpcRequest(
  path: unknown,
  message: unknown,
  skillIdPaths: readonly string[] = DEFAULT_SKILL_ID_PATHS,
  versions: VersionTable = VERSION_TABLE,
): DecodedRequest | undefined {
  try {
    const p = splitGrpcPath(path);
    if (p === undefined || !isA2AGrpcService(p.service, versions)) return undefined;
    const op = versions.grpcMethods.get(p.method);
    if (op === undefined) return undefined;
    const req: DecodedRequest = {
      operation: op,
      wireMethod: path as string,
      binding: 'grpc',
      streaming: isStreamingOperation(op),
    };
    const version = versions.grpcServices.get(p.service);
    if (version !== undefined) req.protocolVersion = version;
    const body = protoToJson(message);
    if (!isRecord(body)) return req;
    if (isSendOperation(op)) {
      const msg = paramsMessage(body) ?? (isRecord(body['request']) ? body['request'] : undefined); // 0.3: `request`
      if (msg !== undefined) {
        const taskId = nonEmptyStr(own(msg, 'taskId'));
        const contextId = nonEmptyStr(own(msg, 'contextId'));
        const messageId = nonEmptyStr(own(msg, 'messageId'));
        if (taskId !== undefined) req.taskId = taskId;
        if (contextId !== undefined) req.contextId = contextId;
        if (messageId !== undefined) req.messageId = messageId;
        fillMessageParts(req, msg);
      }
      const b = isRecord(body['request']) ? { ...body, message: body['request'] } : body;
      fillSkillId(req, b, skillIdPaths, true);
    } else {
      const taskId =
        nonEmptyStr(own(body, 'taskId')) ??
        (op === 'GetTask' || op === 'CancelTask' || op === 'SubscribeToTask'
          ? nonEmptyStr(own(body, 'id'))
          : undefined) ??
        taskIdFromName(own(body, 'name')) ??
        taskIdFromName(own(body, 'parent'));
      if (taskId !== undefined) req.taskId = taskId;
    }
    const tenant = nonEmptyStr(own(body, 'tenant'));
    if (tenant !== undefined) req.tenant = tenant;
    // the webhook a SendMessage or CreateTaskPushNotificationConfig registers, as on the JSON
    // bindings (0.3 SendMessageConfiguration names it `pushNotification`)
    const conf = own(body, 'configuration');
    const webhook = pushWebhookOf(
      op,
      isRecord(conf) && own(conf, 'pushNotification') !== undefined
        ? { configuration: { pushNotificationConfig: own(conf, 'pushNotification') } }
        : body,
    );
    if (webhook !== undefined) req.pushWebhook = webhook;
    return req;
  } catch {
    return undefined;
  }
}

/** A unary response message (SendMessageResponse, Task, …), decoded as its proto JSON. */
export function decodeGrpcResponse(message: unknown, req: DecodedRequest): DecodedResult {
  return decodeResponse(protoToJson(message), req);
}

/** One message of a server stream (StreamResponse), decoded as its proto JSON. */
export function decodeGrpcStreamMessage(message: unknown, req: DecodedRequest): DecodedResult {
  return decodeStreamEvent(protoToJson(message), req);
}

/**
 * A non-OK final status as an error result: the code, the status details (judge only), and the
 * reason of a `google.rpc.ErrorInfo` in the `grpc-status-details-bin` trailer when there is one,
 * else the reason a dialect's error sentinel ending the details names (a2a-go: INTERNAL
 * "...: invalid params" is INVALID_PARAMS), else the status name.
 */
export function decodeGrpcStatus(
  code: unknown,
  details: unknown,
  statusDetailsBin?: Uint8Array,
): DecodedResult {
  const c = typeof code === 'number' && Number.isInteger(code) ? code : undefined;
  const error: RpcError = {};
  if (c !== undefined) error.code = c;
  if (typeof details === 'string' && details !== '') error.message = details.slice(0, 4096);
  const reason =
    (statusDetailsBin !== undefined ? errorInfoReason(statusDetailsBin) : undefined) ??
    sentinelReason(details) ??
    (c !== undefined ? GRPC_STATUS_NAMES[c] : undefined);
  if (reason !== undefined) error.reason = reason;
  return { kind: 'error', error, artifacts: [] };
}

/** The reason of the dialect error sentinel `text` is or ends with (after `": "`). */
export function sentinelReason(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > 4096) return undefined;
  for (const s of ERROR_SENTINELS)
    if (text === s.text || text.endsWith(`: ${s.text}`)) return s.reason;
  return undefined;
}

// --- a minimal protobuf reader for google.rpc.Status { details: [Any { ErrorInfo }] } ---------

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const MAX_STATUS_BYTES = 16 * 1024;

/** The `reason` of the first google.rpc.ErrorInfo in a serialised google.rpc.Status. */
export function errorInfoReason(bin: unknown): string | undefined {
  try {
    if (!(bin instanceof Uint8Array) || bin.byteLength > MAX_STATUS_BYTES) return undefined;
    for (const [field, value] of fields(bin)) {
      if (field !== 3 || !(value instanceof Uint8Array)) continue; // Status.details (Any)
      let type: string | undefined;
      let inner: Uint8Array | undefined;
      for (const [f, v] of fields(value)) {
        if (f === 1 && v instanceof Uint8Array) type = Buffer.from(v).toString('utf8');
        else if (f === 2 && v instanceof Uint8Array) inner = v;
      }
      if (type !== ERROR_INFO_TYPE || inner === undefined) continue;
      for (const [f, v] of fields(inner))
        if (f === 1 && v instanceof Uint8Array && v.byteLength <= 128)
          return Buffer.from(v).toString('utf8');
    }
  } catch {
    // malformed: no reason
  }
  return undefined;
}

/** Top-level fields of a protobuf message: [field number, varint | bytes]; stops at bad input. */
function fields(b: Uint8Array): Array<[number, number | Uint8Array]> {
  const out: Array<[number, number | Uint8Array]> = [];
  let i = 0;
  const varint = (): number => {
    let r = 0;
    let shift = 0;
    for (;;) {
      if (i >= b.byteLength || shift > 35) throw new Error('bad varint');
      const x = b[i++];
      r += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return r;
      shift += 7;
    }
  };
  while (i < b.byteLength && out.length < 64) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) out.push([field, varint()]);
    else if (wire === 2) {
      const len = varint();
      if (i + len > b.byteLength) break;
      out.push([field, b.subarray(i, i + len)]);
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else break;
  }
  return out;
}
