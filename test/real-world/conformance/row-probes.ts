/**
 * The probes the conformance table's rows send alike (Row.errors, Row.sameBytes,
 * AgentSide.send): a read of a task the agent never had, the a2a-sdk 1.3 REST routes, the agent
 * side's send. The request builders themselves are in probes.ts.
 */
import {
  httpProbe,
  m10,
  messageProbe,
  rpcProbe,
  V10,
  type Expected,
  type MessageMethod,
} from './probes';
import { PROMPTS } from './row-kit';
import type { Probe } from './types';

/** The span a read of a task the agent never had makes: GetTask, an error. */
export const GET_TASK_ERROR = { name: 'GetTask', error: true } as const;
/** ... and says its JSON-RPC code, -32001, as `error.type` (the Node servers that answer it). */
export const GET_TASK_32001 = { ...GET_TASK_ERROR, attributes: { 'error.type': '-32001' } };
/**
 * A read of a task the agent never had: 0.3 tasks/get (1.0 GetTask when `v10`) of `no-such-task`,
 * -32001 at HTTP 200 and an error span; in the bytes compared (`bytes`) the id is the run's tag
 * and `-none` and the span is not looked at. `id`, `label` and `expect` say where a row differs.
 */
export function unknownTaskProbe(
  endpointName: string,
  o: {
    bytes?: boolean;
    v10?: boolean;
    label?: string;
    id?: (tag: string) => string;
    expect?: Expected;
  } = {},
) {
  const method = o.v10 ? 'GetTask' : 'tasks/get';
  return rpcProbe(
    o.label ?? (o.bytes ? `${method} unknown` : `${method} of an unknown task`),
    endpointName,
    method,
    (tag) => ({ id: o.id ? o.id(tag) : o.bytes ? `${tag}-none` : 'no-such-task' }),
    o.expect ?? { status: 200, body: /-32001/, ...(o.bytes ? {} : { span: GET_TASK_ERROR }) },
    { v10: o.v10 },
  );
}
/**
 * The agent side's call (AgentSide.send): `text` sent to the skill by `method` at the peer's
 * `endpointName`, answered 200; the agent's own SendMessage span no error (and carrying
 * `attributes`, where given).
 */
export const agentSideSend =
  (
    endpointName: string,
    method: MessageMethod,
    text: string,
    attributes?: Record<string, unknown>,
  ) =>
  (skill: string): Probe =>
    messageProbe(`agent side: ${method}`, endpointName, method, text, skill, {
      span: { name: 'SendMessage', error: false, ...(attributes ? { attributes } : {}) },
    });
/** The a2a-sdk 1.3 routes: a REST GET of an unknown task (404, an error span). */
export const REST_UNKNOWN_TASK = httpProbe(
  'REST GET of an unknown task',
  '/tasks/no-such-task',
  { status: 404, span: { name: 'GetTask', error: true } },
  { base: 'restUrl', headers: V10 },
);
/** The a2a-sdk 1.3 routes: an HTTP+JSON 1.0 stream, its first event the Task. */
export const REST_STREAM = httpProbe(
  'HTTP+JSON stream',
  '/message:stream',
  { status: 200, contentType: 'text/event-stream; charset=utf-8', body: /^data: \{"task"/ },
  {
    base: 'restUrl',
    headers: { ...V10, accept: 'text/event-stream' },
    body: (tag) => m10(PROMPTS.translate, 'translate', tag),
  },
);
