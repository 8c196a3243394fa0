/**
 * The conformance table's row of node-a2a-js-sdk: `a2aJsSdk`, the `@a2a-js/sdk` express app in a
 * child process (conformance/types.ts says what each field means; conformance/implementations.ts
 * assembles the table). Its client side is every other suite's own (test/peers/sdk-peer.ts is
 * their peer); this row is here for the agent's side, and the healthy traffic beside it.
 */
import path from 'node:path';
import { startChildPeer } from '../child-peer.mjs';
import { cardProbe, messageProbe } from '../conformance/probes';
import { sdk, fact } from '../conformance/row-kit';
import type { Deploy, Peer, Row } from '../conformance/types';
import { agentSideSend } from '../conformance/row-probes';

const REPO = path.resolve(__dirname, '..', '..', '..');
const PEER = 'test/real-world/a2a-js-sdk/peer.ts';
const SDK_PEER = 'test/peers/sdk-peer.ts';
const NOT_THIS_ROW =
  'the @a2a-js/sdk server’s client side is the unit and e2e suites’ own (test/peers/sdk-peer.ts is their peer); this row is its agent’s side';

/** The express app, run with tsx (and the register entry before it, on the agent's side). */
async function startA2aJsSdk(d: Deploy, same?: Peer): Promise<Peer> {
  const p = await startChildPeer({
    name: '@a2a-js/sdk express',
    script: path.join(REPO, PEER),
    cwd: REPO,
    env: { PORT: String(same?.port ?? 0) },
    register: {
      nodeArgs: [...(d.register?.nodeArgs ?? []), '--import', 'tsx'],
      env: d.register?.env ?? {},
    },
  });
  return {
    ...p,
    cardUrl: `${p.origin}/.well-known/agent-card.json`,
    baseUrl: p.origin,
    jsonRpcUrl: `${p.origin}/a2a/jsonrpc`,
  } as Peer;
}

export const a2aJsSdk: Row = {
  id: 'node-a2a-js-sdk',
  name: '`@a2a-js/sdk` 1.3 express app (`agentCardHandler`, `jsonRpcHandler`, `restHandler`)',
  agentCode: 'test/real-world/a2a-js-sdk/',
  unavailable: () => undefined,
  start: startA2aJsSdk,
  facts: {
    bindings: {
      value: '1.0 JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest`, a 0.3 card under `/v03`',
      source: SDK_PEER,
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, from the card URL) and raw fetch; the skill id in the request metadata',
      source: 'test/peers/sdk-client.ts',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 1.0 card, skills `summarize-v2` (`text/markdown`) and `translate-v1` (`text/plain`)',
      source: 'test/peers/wire.ts (the field report’s skills)',
    },
    judged: {
      value:
        'healthy send / stream: no drift; the agent’s side: SERVER spans with the served card’s fingerprint, a made-up skill → `caller_skill_not_in_card`',
      source: SDK_PEER,
    },
  },
  card: {
    protocol: '1.0',
    skills: [
      ['summarize-v2', ['text/markdown']],
      ['translate-v1', ['text/plain']],
    ],
  },
  skills: {
    send: 'summarize-v2',
    stream: 'translate-v1',
    prompts: { 'summarize-v2': 'summarize this', 'translate-v1': 'translate this' },
  },
  capabilities: {
    streaming: fact(true, SDK_PEER),
    push: fact(false, `${SDK_PEER}: pushNotifications off by default`),
    grpc: fact(false, `${SDK_PEER}: express JSON-RPC and REST only`),
    variantB: fact('none', NOT_THIS_ROW),
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL',
      client: sdk('JSONRPC', 'url'),
      protocol: '1.0',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
  ],
  errors: { na: NOT_THIS_ROW },
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('send', 'jsonRpcUrl', 'SendMessage', 'Same input', 'summarize-v2'),
    ],
  },
  variantA: { na: NOT_THIS_ROW },
  variantB: { na: NOT_THIS_ROW },
  agentSide: {
    load: 'require',
    send: agentSideSend('jsonRpcUrl', 'SendMessage', 'summarize this', {
      'a2a.protocol.version': '1.0',
    }),
    card: {
      value:
        '`/.well-known/agent-card.json`: learned from the bytes served; the SERVER spans carry its fingerprint',
      source: SDK_PEER,
    },
    card03Path: '/v03/.well-known/agent-card.json',
  },
};
