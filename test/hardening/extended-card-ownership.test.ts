/**
 * Issue 26 #5: an extended card claims another agent. Agent H's authenticated extended card
 * (JSON-RPC `GetExtendedAgentCard` / 0.3 `agent/getAuthenticatedExtendedCard`, or REST
 * `GET …/v1/card`) lists agent V's endpoint; it must not judge V's calls: a card speaks for
 * endpoints on its own origin (or those its own origin's public card lists), whatever way it
 * arrived. Before the fix V's healthy calls got `skill_not_in_card` (2 of 2) and enforce mode
 * rejected them.
 *
 * Raw HTTP peers on 127.0.0.1 (two origins: two ports); the real OpenTelemetry SDK with
 * in-memory exporters.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { sharedState } from '../../src/telemetry/shared-state';
import { CardRegistry } from '../../src/core/card-registry';
import type { DecodedCard } from '../../src/core/model';

let h: Harness;

interface Peer {
  base: string;
  server: http.Server;
}

const card = (name: string, endpoint: string, skills: string[]): Record<string, unknown> => ({
  name,
  url: endpoint,
  version: '1',
  protocolVersion: '0.3.0',
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: skills.map((id) => ({ id, name: id, description: id, tags: [] })),
});

/**
 * A 0.3 JSON-RPC peer at `/a2a`: its public card at the well-known path; `extended()` (when
 * given) answers `agent/getAuthenticatedExtendedCard` and `GET /v1/card`; tasks complete.
 */
async function startPeer(
  name: string,
  skills: string[],
  extended?: (base: string) => Record<string, unknown>,
): Promise<Peer> {
  const peer = {} as Peer;
  peer.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/.well-known/agent-card.json')
        return res.end(JSON.stringify(card(name, `${peer.base}/a2a`, skills)));
      if (req.url === '/v1/card' && extended) return res.end(JSON.stringify(extended(peer.base)));
      const rpc = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (rpc.method === 'agent/getAuthenticatedExtendedCard' && extended)
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: extended(peer.base) }));
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: rpc.id,
          result: {
            kind: 'task',
            id: `t-${Math.random().toString(36).slice(2)}`,
            contextId: 'c',
            status: { state: 'completed' },
            artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'done' }] }],
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => peer.server.listen(0, '127.0.0.1', r));
  peer.base = `http://127.0.0.1:${(peer.server.address() as AddressInfo).port}`;
  return peer;
}

const portOf = (p: Peer): number => Number(new URL(p.base).port);

async function stop(p: Peer): Promise<void> {
  p.server.closeAllConnections();
  await new Promise((r) => p.server.close(r));
}

function rpc(method: string, params: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}

const send = (skillId: string) => ({
  message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }] },
  metadata: { skillId },
});

before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});
beforeEach(async () => {
  await h.reset();
  sharedState().cards.clear();
  sharedState().negotiations.clear();
});

/** Two healthy calls to V's `summarize`: their spans. */
async function callV(v: Peer): Promise<void> {
  for (let i = 0; i < 2; i++)
    await fetch(`${v.base}/a2a`, rpc('message/send', send('summarize'))).then((r) => r.json());
}

async function vSpans(v: Peer) {
  const spans = await h.waitForSpans(
    (s) =>
      s.filter((x) => x.name === 'SendMessage' && x.attributes['server.port'] === portOf(v))
        .length >= 2,
  );
  return spans.filter((x) => x.name === 'SendMessage' && x.attributes['server.port'] === portOf(v));
}

for (const how of ['jsonrpc', 'rest'] as const)
  for (const order of ['before', 'after'] as const)
    test(`H's extended card (${how}) listing V's endpoint, V's own card fetched ${order} it: V's healthy calls are judged against V's card`, async () => {
      const v = await startPeer('agent-v', ['summarize']);
      // H's extended card: its own skills, and V's endpoint (with none of V's skills).
      const h1 = await startPeer('agent-h', ['translate'], (base) => ({
        ...card('agent-h', `${base}/a2a`, ['translate', 'translate-pro']),
        additionalInterfaces: [
          { url: `${base}/a2a`, transport: 'JSONRPC' },
          { url: `${v.base}/a2a`, transport: 'JSONRPC' },
        ],
      }));
      try {
        const fetchV = () => fetch(`${v.base}/.well-known/agent-card.json`).then((r) => r.json());
        const fetchHExtended = async () => {
          await fetch(`${h1.base}/.well-known/agent-card.json`).then((r) => r.json());
          if (how === 'jsonrpc')
            await fetch(`${h1.base}/a2a`, rpc('agent/getAuthenticatedExtendedCard', {})).then((r) =>
              r.json(),
            );
          else await fetch(`${h1.base}/v1/card`).then((r) => r.json());
        };
        if (order === 'before') {
          await fetchV();
          await fetchHExtended();
        } else {
          await fetchHExtended();
          await fetchV();
        }
        await callV(v);
        const spans = await vSpans(v);
        assert.equal(spans.length, 2);
        for (const s of spans) assert.equal(s.attributes['gen_ai.agent.name'], 'agent-v');
        assert.equal(drifted(spans).length, 0, 'no false skill_not_in_card');
        // H's extended card still speaks for H's own endpoint (its added skill is no drift).
        await fetch(`${h1.base}/a2a`, rpc('message/send', send('translate-pro'))).then((r) =>
          r.json(),
        );
        const all = await h.waitForSpans(
          (s) =>
            s.filter((x) => x.name === 'SendMessage' && x.attributes['server.port'] === portOf(h1))
              .length >= 1,
        );
        const hSend = all.find(
          (x) => x.name === 'SendMessage' && x.attributes['server.port'] === portOf(h1),
        )!;
        assert.equal(drifted([hSend]).length, 0, "H's extended skill is no drift on H");
      } finally {
        await stop(v);
        await stop(h1);
      }
    });

test("V's own card unknown: H's extended card does not judge V's calls either", async () => {
  const v = await startPeer('agent-v', ['summarize']);
  const h1 = await startPeer('agent-h', ['translate'], (base) => ({
    ...card('agent-h', `${base}/a2a`, ['translate']),
    additionalInterfaces: [{ url: `${v.base}/a2a`, transport: 'JSONRPC' }],
  }));
  try {
    await fetch(`${h1.base}/a2a`, rpc('agent/getAuthenticatedExtendedCard', {})).then((r) =>
      r.json(),
    );
    await callV(v);
    const spans = await vSpans(v);
    assert.equal(drifted(spans).length, 0, 'no false skill_not_in_card');
    for (const s of spans) assert.notEqual(s.attributes['gen_ai.agent.name'], 'agent-h');
  } finally {
    await stop(v);
    await stop(h1);
  }
});

// The registry's rule, on the forms the wire tests above do not reach.
function decoded(endpoints: string[], skills: string[]): DecodedCard {
  return {
    name: 'peer',
    version: '1',
    endpoints: endpoints.map((url) => ({ url })),
    streaming: false,
    pushNotifications: false,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: skills.map((id) => ({ id, inputModes: ['text/plain'], outputModes: ['text/plain'] })),
  };
}

test("registry: an extended card listing a longer prefix of V's calls than V's own card does not judge them", () => {
  const r = new CardRegistry();
  // V (HTTP+JSON) declares its base; its calls go to …/a2a/v1/message:send.
  r.put(
    'https://v.example/.well-known/agent-card.json',
    decoded(['https://v.example/a2a'], ['summarize']),
    'fpV',
    1,
  );
  // H's extended card names V's deeper path (a longer prefix of V's calls).
  r.put(
    'https://h.example/a2a',
    decoded(['https://h.example/a2a', 'https://v.example/a2a/v1'], []),
    'fpHx',
    2,
    {
      extended: 'jsonrpc',
    },
  );
  r.put(
    'https://h.example/v1/card',
    decoded(['https://v.example/a2a/v1/message:send'], []),
    'fpHr',
    3,
    {
      extended: 'rest',
    },
  );
  assert.equal(r.forRequestUrl('https://v.example/a2a/v1/message:send')?.fingerprint, 'fpV');
  assert.equal(r.forRequestUrl('https://h.example/a2a')?.fingerprint, 'fpHx');
});

test("registry: an extended card speaks for another origin's endpoint its own origin's public card lists (a directory)", () => {
  const r = new CardRegistry();
  r.put(
    'https://dir.example/.well-known/agent-card.json',
    decoded(['https://agent.example/rpc'], ['a']),
    'fpDir',
    1,
  );
  r.put(
    'https://dir.example/extendedAgentCard',
    decoded(['https://agent.example/rpc', 'https://other.example/rpc'], ['a', 'b']),
    'fpDirX',
    2,
    {
      extended: 'rest',
    },
  );
  assert.equal(
    r.forRequestUrl('https://agent.example/rpc')?.fingerprint,
    'fpDirX',
    'listed by its public card',
  );
  assert.equal(r.forRequestUrl('https://other.example/rpc'), undefined, 'not listed: not claimed');
  // The agent's own card, once known, still goes first.
  r.put(
    'https://agent.example/.well-known/agent-card.json',
    decoded(['https://agent.example/rpc'], ['a']),
    'fpOwn',
    3,
  );
  assert.equal(r.forRequestUrl('https://agent.example/rpc')?.fingerprint, 'fpOwn');
});
