/**
 * What the conformance table's rows (test/real-world/rows/<implementation>.ts) share: the reasons a
 * row cannot run and how its agent starts, the prompts and skills most agents serve, the clients
 * most rows drive and the paths and judgements several rows expect alike, and quirks' shapes.
 * The probes rows send alike are in row-probes.ts, what their recordings say alike in
 * row-recording.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FOX, type Json } from '../lib';
import { pythonPeerFiles, startImplPeer } from '../python/python-peer.mjs';
import type { RowContext } from './checks';
import {
  quirk,
  type ClientSpec,
  type Deploy,
  type Fact,
  type ModePath,
  type Path,
  type Peer,
  type Quirk,
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

/** The two skills most agents here serve, both `text/plain`. */
export const TEXT_SKILLS: Array<[string, string[]]> = [
  ['summarize', ['text/plain']],
  ['translate', ['text/plain']],
];
/** The two skills of an agent whose skills are its tools: their card lists no output modes. */
export const TOOL_SKILLS: Array<[string, undefined]> = [
  ['summarize', undefined],
  ['translate', undefined],
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
export const grpcOk = { 'rpc.grpc.status_code': 0 };
/** gRPC GetTask of a task the agent never had: NOT_FOUND (5) on the span, the app's error `error`. */
export const grpcUnknownTask = (
  label: string,
  client: ClientSpec,
  grpc: Path['grpc'],
  error: RegExp,
): Path => ({
  label,
  client,
  grpc,
  ops: {
    get: {
      taskId: 'no-such-task',
      error,
      spanAttributes: { 'rpc.grpc.status_code': 5 },
      spanStatusMessage: /NOT_FOUND/,
    },
  },
});
/** Variant A over gRPC on the a2a-sdk family: send and stream FAILED "unknown skill: translate". */
export const GRPC_FAILED_UNKNOWN_SKILL = {
  send: { state: 'failed', statusText: 'unknown skill: translate', spanState: 'TASK_STATE_FAILED' },
  stream: { spanState: 'TASK_STATE_FAILED' },
};
/** The bytes compared over gRPC: the 0.3 LegacyGrpcTransport's send, stream and unknown GetTask. */
export const legacyGrpcBytes = (client: ClientSpec, error: RegExp): Row['sameBytes'] => ({
  probes: [],
  calls: [
    {
      label: 'LegacyGrpcTransport: send, stream, GetTask of an unknown task',
      client,
      ops: { send: {}, stream: {}, get: { taskId: 'no-such-task', error } },
    },
  ],
});
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
