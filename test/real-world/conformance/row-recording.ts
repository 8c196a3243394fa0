/**
 * What the conformance table's rows say alike of their live recording (Row.recording, which
 * conformance/record.ts writes to test/fixtures/<fixture>/): each deployment and its exchanges,
 * the card, a message to a skill, a read of an unknown task, FastA2A's send-then-poll.
 */
import { JSON_HEADERS, post, sse, V03, V10 as V10REC, type Recorder } from '../record-lib.mjs';
import type { Json } from '../lib';
import { MESSAGE_METHODS, type MessageMethod } from './probes';
import { endpoint, type Deploy, type Peer, type RecordedExchange, type Variant } from './types';

/** A recorded exchange: GET a URL of the peer (or its endpoint of that name). */
export function getExchange(
  name: string,
  note: string,
  url: string | ((p: Peer) => string),
  init?: RequestInit,
): RecordedExchange {
  const at = typeof url === 'string' ? (p: Peer) => endpoint(p, url) : url;
  return { name, note, request: (p) => ({ url: at(p), init }) };
}
/**
 * How a recorded POST is sent: as an event stream (`stream`), with 1.0 headers (`v10`), or with
 * `headers` of its own instead (a Node client's `accept`, a version the agent refuses).
 */
export interface PostOptions {
  stream?: boolean;
  v10?: boolean;
  headers?: Record<string, string>;
}
/** A recorded POST as a Node client sends it: `accept` JSON, or an event stream. */
export const NODE_POST: PostOptions = { headers: JSON_HEADERS };
export const NODE_STREAM: PostOptions = { headers: JSON_HEADERS, stream: true };
/**
 * A recorded JSON-RPC exchange: POST `method` to the peer's `endpointName` (1.0 headers, SSE);
 * `params` may read the peer (a skill id it was given at start).
 */
export function rpcExchange(
  name: string,
  note: string,
  endpointName: string,
  method: string,
  params: (r: Recorder, first: Json | undefined, p: Peer, previous?: Json) => Json,
  o: PostOptions = {},
): RecordedExchange {
  return postExchange(
    name,
    note,
    (p) => endpoint(p, endpointName),
    (r, p, first, previous) => r.rpc(method, params(r, first, p, previous)),
    o,
  );
}
/**
 * A recorded POST of a body the row builds itself (from the peer, the answer to the exchange's
 * unrecorded first call, the previous exchange's answer) to the peer's URL `url` (SSE when
 * `stream`, 1.0 headers when `v10`).
 */
export function postExchange(
  name: string,
  note: string,
  url: (p: Peer) => string,
  body: (r: Recorder, p: Peer, first: Json | undefined, previous?: Json) => string,
  o: PostOptions = {},
): RecordedExchange {
  const headers = o.headers ?? (o.v10 ? V10REC : V03);
  return {
    name,
    note,
    request: (p, r, first, previous) => ({
      url: url(p),
      init: post(o.stream ? sse(headers) : headers, body(r, p, first, previous)),
    }),
  };
}
/**
 * A recorded JSON-RPC `method` (tasks/get, or one the agent does not know) on the peer's `rpcUrl`
 * naming the task the exchange recorded just before answered with (or opened, streaming).
 */
export function previousTaskExchange(
  name: string,
  note: string,
  o: PostOptions & { method?: string } = {},
): RecordedExchange {
  const read = (_r: Recorder, _f: Json | undefined, _p: Peer, prev?: Json) => ({
    id: prev?.result.id,
  });
  return rpcExchange(name, note, 'rpcUrl', o.method ?? 'tasks/get', read, o);
}
/** A recording's steps: each variant deployed in turn (healthy first), with its exchanges. */
export function redeploys(
  by: Partial<Record<Variant, RecordedExchange[]>>,
): { deploy: Deploy; exchanges: RecordedExchange[] }[] {
  return Object.entries(by).map(([variant, exchanges]) =>
    deployment(variant as Variant, exchanges ?? []),
  );
}
/** A recorded GET of the origin's root card, `/.well-known/agent-card.json`. */
export const rootCardExchange = (name: string, note: string): RecordedExchange =>
  getExchange(name, note, (p) => `${p.origin}/.well-known/agent-card.json`);
/** The URL of an agent the peer does not serve: the peer's `endpointName`, `agentId` replaced. */
export const unknownAgentUrl = (endpointName: string, agentId: string) => (p: Peer) =>
  endpoint(p, endpointName).replace(agentId, 'nobody');
/** A recorded GET of the peer's card. */
export const cardExchange = (name: string, note: string): RecordedExchange =>
  getExchange(name, note, (p) => p.cardUrl);
/** The card recorded after the variant A redeploy, where translate left agent and card alike. */
export const VARIANT_A_CARD = cardExchange(
  'variant-a.card',
  'card after the A redeploy: translate gone, version 1.0.0',
);
/** ... where the agent's skills are its tools: the translate tool removed took the skill along. */
export const VARIANT_A_TOOL_CARD = cardExchange(
  'variant-a.card',
  'card after the A redeploy: the translate tool removed, so the skill too; version 1.0.0',
);
/**
 * A recorded message of one text part to `skill` by `method` at the peer's `endpointName`: 0.3
 * params under the slash names, 1.0 params and headers under the others, SSE for the streaming ones.
 */
export function messageExchange(
  name: string,
  note: string,
  endpointName: string,
  method: MessageMethod,
  text: string,
  skill: string,
): RecordedExchange {
  const { v10, stream } = MESSAGE_METHODS[method];
  const params = (r: Recorder): Json => (v10 ? r.m10(text, skill) : r.m03(text, skill));
  return rpcExchange(name, note, endpointName, method, params, { v10, stream });
}
/** A recorded read of a task the agent never had: tasks/get (1.0 GetTask when `v10`) of `no-such-task`. */
export function unknownTaskExchange(
  name: string,
  note: string,
  endpointName: string,
  o: { v10?: boolean } = {},
): RecordedExchange {
  const method = o.v10 ? 'GetTask' : 'tasks/get';
  return rpcExchange(name, note, endpointName, method, () => ({ id: 'no-such-task' }), o);
}
/** The a2a-sdk 0.3 servers' recorded tasks/get of an unknown id at `rpcUrl`. */
export const UNKNOWN_TASK_EXCHANGE_03 = unknownTaskExchange(
  'jsonrpc-v0.3.tasks-get.not-found',
  '0.3 tasks/get of an unknown id',
  'rpcUrl',
);
/** One deployment of a recording (a variant, or a variant and its starter's options) and its exchanges. */
export function deployment(
  deploy: Variant | Deploy,
  exchanges: RecordedExchange[],
): { deploy: Deploy; exchanges: RecordedExchange[] } {
  return { deploy: typeof deploy === 'string' ? { variant: deploy } : deploy, exchanges };
}
/**
 * A recorded read of a task sent first, unrecorded: FastA2A answers a send at once with the
 * SUBMITTED task and works after it, so `send` goes first and `method` (tasks/get or GetTask)
 * reads that task back `waitMs` later; `waitBeforeMs` lets the task before it finish.
 */
export function polledExchange(
  name: string,
  note: string,
  endpointName: string,
  method: string,
  send: { method: string; params: (r: Recorder) => Json },
  o: { v10?: boolean; waitMs: number; waitBeforeMs?: number },
): RecordedExchange {
  const headers = o.v10 ? V10REC : V03;
  return {
    ...rpcExchange(
      name,
      note,
      endpointName,
      method,
      (_r, first) => ({ id: first?.result.task.id }),
      {
        v10: o.v10,
      },
    ),
    first: {
      request: (p, r) => ({
        url: endpoint(p, endpointName),
        init: post(headers, r.rpc(send.method, send.params(r))),
      }),
      waitBeforeMs: o.waitBeforeMs,
      waitMs: o.waitMs,
    },
  };
}
