/**
 * What the conformance table's rows (test/real-world/rows/<implementation>.ts) share: the reasons a
 * row cannot run, the prompts and skills most agents serve, the clients most rows drive, and the
 * exchanges and probes several rows declare alike.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { post, sse, V03, V10 as V10REC, type Recorder } from '../record-lib.mjs';
import { join } from 'node:path';
import { FOX, type Json } from '../lib';
import {
  httpProbe,
  m10,
  MESSAGE_METHODS,
  messageProbe,
  rpcProbe,
  V10,
  type Expected,
  type MessageMethod,
} from './probes';
import { pythonPeerFiles, startImplPeer } from '../python/python-peer.mjs';
import type { RowContext } from './checks';
import {
  endpoint,
  quirk,
  type ClientSpec,
  type Deploy,
  type Fact,
  type ModePath,
  type Path,
  type Peer,
  type Probe,
  type Quirk,
  type RecordedExchange,
  type Row,
  type Variant,
} from './types';

/** The reason a Node row cannot run while its package under test/real-world/<dir> is not installed. */
export function packageMissing(dir: string, pkg: string): () => string | undefined {
  return () =>
    existsSync(join(__dirname, '..', dir, 'node_modules', pkg, 'package.json'))
      ? undefined
      : `test/real-world/${dir}/node_modules missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh`;
}

/**
 * How a Node row starts its peer process (a `peer-process.mjs` starter): the deployment's variant
 * and register entry, on the port it had before when redeployed, seen through `view` (the URLs of
 * the agent the row is about and of the one beside it).
 */
export function nodePeer<P extends object, V extends string>(
  start: (o: { variant?: V; port?: number; register?: Deploy['register'] }) => Promise<P>,
  view: (p: P) => Record<string, unknown>,
): Row['start'] {
  return async (d, same) => {
    const p = await start({ variant: d.variant as V, port: same?.port, register: d.register });
    return { ...p, ...view(p) } as unknown as Peer;
  };
}
/** The reason a Python row cannot run while its venv is missing. */
export function venvMissing(impl: string, installed: () => boolean): () => string | undefined {
  return () =>
    installed()
      ? undefined
      : `test/real-world/python/${impl}/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh`;
}

/**
 * A Python row's agent as python/peers.json describes it: where its code lives, why the row cannot
 * run (no venv), the interpreter whose packages a recording names, and how a deployment starts
 * (`variant`: peer.py's VARIANT for the deployment, when its opts pick one; `env`: what its opts
 * set in peer.py's environment).
 */
export function pythonAgent(
  impl: string,
  o: { variant?: (d: Deploy) => string; env?: (d: Deploy) => Record<string, string> } = {},
): Pick<Row, 'agentCode' | 'unavailable' | 'agentPython' | 'start'> {
  const files = pythonPeerFiles(impl);
  return {
    agentCode: `test/real-world/python/${impl}/`,
    unavailable: venvMissing(impl, files.venvInstalled),
    agentPython: files.VENV_PYTHON,
    start: (d, same) =>
      startImplPeer(impl, {
        variant: o.variant?.(d) ?? d.variant,
        port: same?.port,
        env: o.env?.(d),
      }),
  };
}
/** peer.py's VARIANT=A-fail for opts.a 'fail': variant A whose tool retries or model give up. */
export const aFail = (d: Deploy): string =>
  d.variant === 'A' && d.opts?.a === 'fail' ? 'A-fail' : d.variant;

export const PROMPTS = { summarize: `summarize: ${FOX}`, translate: 'translate: hello' };
export const SUMMARY = 'Summary: The quick brown fox jumps over.';
export const sdk03 = (from: 'url' | 'card') =>
  ({ kind: 'sdk', transport: 'JSONRPC', legacy: true, from }) as const;
export const sdk = (transport: 'JSONRPC' | 'HTTP+JSON', from: 'url' | 'card', legacy = false) =>
  ({ kind: 'sdk', transport, from, legacy, stripInterfaces: legacy }) as const;
export const TRANSPORTS = ['JSONRPC', 'HTTP+JSON'] as const;
/** Raw fetch of JSON-RPC at the peer's `endpoint` (polling, Mastra's slash names... in `o`). */
export const raw = (
  version: '0.3' | '1.0',
  endpoint: string,
  o: Omit<Extract<ClientSpec, { kind: 'jsonrpc' }>, 'kind' | 'version' | 'endpoint'> = {},
) => ({ kind: 'jsonrpc', version, endpoint, ...o }) as const;
/** Variant A's skill that stays: a send of it by `client` still completes. */
export const sendCompletes = (label: string, client: ClientSpec): Path => ({
  label,
  client,
  ops: { send: { state: 'completed' } },
});
/**
 * How a variant A path is judged when the agent's failure names nothing: the card fetched again
 * lacks the skill, so `unknown_skill` on the card's evidence, confirmed, on an error span.
 */
export const SETTLED_BY_CARD = {
  verdict: 'unknown_skill',
  evidence: 'card',
  confirmed: true,
  errorSpan: true,
} as const;

/** A recorded exchange: GET a URL of the peer. */
export function getExchange(
  name: string,
  note: string,
  url: (p: Peer) => string,
  init?: RequestInit,
): RecordedExchange {
  return { name, note, request: (p) => ({ url: url(p), init }) };
}
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
  o: { v10?: boolean; stream?: boolean } = {},
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
  o: { stream?: boolean; v10?: boolean } = {},
): RecordedExchange {
  const headers = o.v10 ? V10REC : V03;
  return {
    name,
    note,
    request: (p, r, first, previous) => ({
      url: url(p),
      init: post(o.stream ? sse(headers) : headers, body(r, p, first, previous)),
    }),
  };
}
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

/** The two skills most agents here serve, both `text/plain`. */
export const TEXT_SKILLS: Array<[string, string[]]> = [
  ['summarize', ['text/plain']],
  ['translate', ['text/plain']],
];
/** A healthy path's ops: the send answers the summary as text, the stream completes. */
export const COMPLETES_WITH_SUMMARY = {
  send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
  stream: { state: 'completed' },
};
/** Variant B on the a2a-sdk family's 0.3 JSON-RPC: a raw message/send answered by a file part image/png. */
export const rawPngFilePath03 = (endpoint: string): ModePath => ({
  label: 'raw 0.3 message/send: a file part image/png',
  client: raw('0.3', endpoint),
  ops: { send: { state: 'completed', part: { kind: 'file', mediaType: 'image/png' } } },
  mediaType: 'image/png',
});
/** The two skills of an agent whose skills are its tools: their card lists no output modes. */
export const TOOL_SKILLS: Array<[string, undefined]> = [
  ['summarize', undefined],
  ['translate', undefined],
];
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

export const grpcOk = { 'rpc.grpc.status_code': 0 };
/** A fact and where it was read: a capability, a default, what the agent says. */
export const fact = <T extends string | boolean>(value: T, source: string): Fact<T> => ({
  value,
  source,
});
/** What most cards say of themselves, the row's source being the card: it streams, it takes no push configs. */
export const STREAMING_NO_PUSH = {
  streaming: fact(true, 'the card’s capabilities.streaming'),
  push: fact(false, 'the card’s capabilities'),
};

/** A quirk run against the healthy agent, the app's state and earlier spans dropped. */
export function healthyQuirk(
  title: string,
  why: string,
  run: (ctx: RowContext, peer: Peer) => Promise<void>,
): Quirk {
  return quirk(title, why, async (ctx) => run(ctx, await ctx.freshHealthy()));
}
/**
 * A quirk run against the agent redeployed as `variant` on the healthy one's port (`v`: that peer
 * and the card the app read before), the spans of the redeploy dropped.
 */
export function redeployQuirk(
  variant: Variant,
  title: string,
  why: string,
  run: (ctx: RowContext, v: { peer: Peer; card: Json }) => Promise<void>,
  opts: Record<string, unknown> = {},
): Quirk {
  return quirk(title, why, async (ctx) => {
    const v = await ctx.redeployed(variant, opts);
    ctx.h().exporter.reset();
    await run(ctx, v);
  });
}
/** Nothing judged as drift, once `settled` spans (if any) have ended. */
export async function noDrift(ctx: RowContext, settled = 0): Promise<void> {
  if (settled) await ctx.spans.spansSettled(settled);
  assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
}
