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
 * PROTOCOL_VERSIONS, versions.ts; one decoder for all of them, in rooms by what is decoded:
 * this file the envelopes, the error bodies and the entry points; result-payload.ts the task /
 * message / events; result-parts.ts the parts, artifacts and their text; task-states.ts the task
 * states; decode-evidence.ts the version evidence):
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
import { arr, int, isRecord, nonEmptyStr, own, str } from '../json-path';
import type { Binding, DecodedRequest, DecodedResult, RpcError } from '../model';
import { DecodeEvidence } from './decode-evidence';
import { base, payload } from './result-payload';
import { VERSION_TABLE, type VersionTable } from './versions';

const MAX_ERROR_DETAILS = 16;

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
