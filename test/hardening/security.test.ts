/**
 * Hardening, part 4: security, with the instrumentation enabled through the real
 * SDK (in-memory span exporter, a metric reader of our own):
 *
 * - message texts, artifact contents (text, file bytes and names, data), status texts,
 *   history, metadata, an `Authorization` header, a cookie, `user:pass@` and `?token=` in
 *   URLs: none of them appears anywhere in the exported spans (names, attributes, events,
 *   status, links, resource) or metrics, through global fetch, undici.request and
 *   undici.fetch, unary and streaming, healthy and drifting;
 * - attribute values are capped (10,000-char agent name, version, skill id, task,
 *   context and message ids → ≤ 256), one exception event per span at most, and the
 *   drift error messages (span status, exception event) stay bounded too;
 * - the status text the patterns see is at most 4,096 characters (a 10 MB text, the
 *   pathological user regex /(a+)+$/); default patterns are plain substrings;
 * - `maxInspectBytes` small: the span says it could not judge, the app's bytes are the
 *   same as without the instrumentation;
 * - `refetchCardOnDrift`: a card listing other hosts, file: and data: URLs never makes the
 *   instrumentation request anything but the card URL again.
 *
 *   node --import tsx --test test/hardening/security.test.ts
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { compilePatterns } from '../../src/core/judge';
import type { A2AResponseInfo } from '../../src/config';
import { parseSse } from '../peers/wire';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// Every secret is a distinct marker; none may reach telemetry.
const S = {
  message: 'SECRET-MESSAGE-TEXT-4f1c',
  history: 'SECRET-HISTORY-TEXT-77aa',
  artifactText: 'SECRET-ARTIFACT-TEXT-9b2e',
  artifactFile: 'SECRET-ARTIFACT-FILE-BYTES-c3d4',
  artifactFileName: 'SECRET-FILE-NAME-0e0e',
  artifactData: 'SECRET-ARTIFACT-DATA-5a5a',
  status: 'SECRET-STATUS-TEXT-1212',
  failText: 'SECRET-FAILURE-TEXT-3434',
  metadata: 'SECRET-METADATA-8888',
  streamText: 'SECRET-STREAM-TEXT-6c6c',
  token: 'SECRET-BEARER-TOKEN-d00d',
  cookie: 'SECRET-COOKIE-beef',
  apiKey: 'SECRET-API-KEY-f00d',
  user: 'SECRETUSER',
  pass: 'SECRETPASS',
  query: 'SECRET-QUERY-TOKEN-abab',
};
const fileBytes = Buffer.from(S.artifactFile).toString('base64');

class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

interface SecretPeer {
  base: string;
  port: number;
  /** Requests seen, by path (query included). */
  hits: string[];
  authorizations: string[];
  card: Record<string, unknown>;
  close(): Promise<void>;
}

function v01Task(
  id: string,
  state: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    sessionId: `session-${S.metadata}`.slice(0, 8),
    status: { state, message: { role: 'agent', parts: [{ type: 'text', text: S.status }] } },
    artifacts: [
      {
        name: `artifact ${S.artifactFileName}`,
        parts: [
          { type: 'text', text: S.artifactText },
          {
            type: 'file',
            file: { name: S.artifactFileName, mimeType: 'text/plain', bytes: fileBytes },
          },
          { type: 'data', data: { secret: S.artifactData } },
        ],
        index: 0,
      },
    ],
    history: [{ role: 'user', parts: [{ type: 'text', text: S.history }] }],
    metadata: { note: S.metadata },
    ...extra,
  };
}

async function startSecretPeer(
  card?: (port: number) => Record<string, unknown>,
): Promise<SecretPeer> {
  const hits: string[] = [];
  const authorizations: string[] = [];
  let theCard: Record<string, unknown> = {};
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    authorizations.push(String(req.headers.authorization ?? ''));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, {
          'content-type': 'application/json',
          'set-cookie': `session=${S.cookie}`,
        });
        res.end(JSON.stringify(theCard));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: unknown;
        method: string;
        params: { id: string };
      };
      const id = body.params.id;
      const reply = (result: unknown): void => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-api-key': S.apiKey });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
      };
      if (body.method === 'tasks/sendSubscribe') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const ev = (result: unknown): string =>
          `data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result })}\n\n`;
        res.write(
          ev({
            id,
            status: {
              state: 'working',
              message: { role: 'agent', parts: [{ type: 'text', text: S.streamText }] },
            },
            final: false,
          }),
        );
        res.write(
          ev({
            id,
            artifact: {
              parts: [
                { type: 'text', text: S.streamText },
                {
                  type: 'file',
                  file: { name: S.artifactFileName, mimeType: 'application/pdf', bytes: fileBytes },
                },
              ],
              index: 0,
            },
          }),
        );
        res.end(ev({ id, status: { state: 'completed' }, final: true }));
        return;
      }
      if (id.startsWith('fail'))
        return reply(
          v01Task(id, 'failed', {
            status: {
              state: 'failed',
              message: {
                role: 'agent',
                parts: [{ type: 'text', text: `unknown skill: ${S.failText}` }],
              },
            },
            artifacts: [],
          }),
        );
      if (id.startsWith('mismatch'))
        return reply(
          v01Task(id, 'completed', {
            artifacts: [
              {
                parts: [
                  {
                    type: 'file',
                    file: {
                      name: S.artifactFileName,
                      mimeType: 'application/pdf',
                      bytes: fileBytes,
                    },
                  },
                ],
                index: 0,
              },
            ],
          }),
        );
      if (id.startsWith('huge')) {
        const text = 'a'.repeat(10 * 1024 * 1024) + '!';
        return reply(
          v01Task(id, 'failed', {
            status: {
              state: 'failed',
              message: { role: 'agent', parts: [{ type: 'text', text }] },
            },
            artifacts: [],
          }),
        );
      }
      return reply(v01Task(id, 'completed'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  theCard = card
    ? card(port)
    : {
        name: 'secret-peer',
        version: '1',
        url: `http://127.0.0.1:${port}/rpc`,
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'sec-skill', name: 's', outputModes: ['text/plain', 'application/json'] }],
      };
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hits,
    authorizations,
    get card() {
      return theCard;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

function rpc(method: string, id: string, skillId = 'sec-skill'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      id,
      sessionId: 's',
      skillId,
      message: {
        role: 'user',
        parts: [{ type: 'text', text: S.message }],
        metadata: { note: S.metadata },
      },
      metadata: { apiKey: S.apiKey },
    },
  });
}

let h: Harness;
let reader: CollectingReader;
let meterProvider: MeterProvider;
const responses: A2AResponseInfo[] = [];

function baseConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    driftCallbackDebounceMs: 0,
    responseHook: (_span: unknown, info: A2AResponseInfo) => void responses.push(info),
    ...extra,
  };
}

before(() => {
  h = setupOtel();
  reader = new CollectingReader();
  meterProvider = new MeterProvider({ readers: [reader] });
  h.instrumentation.setMeterProvider(meterProvider);
});
after(async () => {
  await h.shutdown();
  await meterProvider.shutdown();
});
beforeEach(async () => {
  h.instrumentation.setConfig(baseConfig());
  responses.length = 0;
  await h.reset();
});

function activeCalls(): number {
  return ((h.instrumentation as unknown as { activeCalls?: Set<unknown> }).activeCalls ?? new Set())
    .size;
}
async function drain(): Promise<void> {
  for (let i = 0; i < 200 && activeCalls() > 0; i++) await sleep(10);
  await sleep(20);
}

/** Everything a backend would receive of these spans. */
function dumpSpans(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      kind: s.kind,
      attributes: s.attributes,
      events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      status: s.status,
      links: s.links,
      resource: s.resource.attributes,
      scope: s.instrumentationScope,
    })),
  );
}

async function dumpMetrics(): Promise<string> {
  const { resourceMetrics } = await reader.collect();
  return JSON.stringify(
    resourceMetrics.scopeMetrics.map((sm) =>
      sm.metrics.map((m) => ({
        name: m.descriptor.name,
        points: m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })),
      })),
    ),
  );
}

function assertNoSecrets(text: string, secrets: string[], where: string): void {
  for (const s of secrets) assert.ok(!text.includes(s), `${where} contains ${s}`);
  // and not the base64 of the file either
  assert.ok(!text.includes(fileBytes), `${where} contains the file bytes`);
}

const ALL = Object.values(S);

// ---------------------------------------------------------------------------------------
// 1. Nothing sensitive in telemetry
// ---------------------------------------------------------------------------------------

test('no message text, artifact content, status text, header, cookie, credential or query string in spans or metrics', async () => {
  const peer = await startSecretPeer();
  try {
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${S.token}`,
      cookie: `session=${S.cookie}`,
      'x-api-key': S.apiKey,
    };
    const q = `?token=${S.query}`;
    const cardUrl = `${peer.base}/.well-known/agent-card.json${q}`;
    const rpcUrl = `${peer.base}/rpc${q}`;
    // global fetch
    await (await fetch(cardUrl, { headers })).arrayBuffer();
    for (const id of ['ok-f', 'fail-f', 'mismatch-f'])
      await (await fetch(rpcUrl, { method: 'POST', body: rpc('tasks/send', id), headers })).text();
    parseSse(
      await (
        await fetch(rpcUrl, {
          method: 'POST',
          body: rpc('tasks/sendSubscribe', 'stream-f'),
          headers,
        })
      ).text(),
    );
    // undici.request, with user:pass@ in the URL too
    const withUser = (u: string): string => u.replace('http://', `http://${S.user}:${S.pass}@`);
    await (await undici.request(withUser(cardUrl), { headers })).body.text();
    for (const id of ['ok-u', 'fail-u', 'mismatch-u'])
      await (
        await undici.request(withUser(rpcUrl), {
          method: 'POST',
          body: rpc('tasks/send', id),
          headers,
        })
      ).body.text();
    await (
      await undici.request(withUser(rpcUrl), {
        method: 'POST',
        body: rpc('tasks/sendSubscribe', 'stream-u'),
        headers,
      })
    ).body.text();
    // undici.fetch
    for (const id of ['ok-x', 'fail-x'])
      await (
        await undici.fetch(rpcUrl, { method: 'POST', body: rpc('tasks/send', id), headers })
      ).text();
    await drain();
    assert.ok(
      peer.authorizations.includes(`Bearer ${S.token}`),
      'the credentials did go to the peer',
    );
    assert.ok(
      peer.hits.some((p) => p.includes(S.query)),
      'the query string did go to the peer',
    );
    const spans = h.spans();
    assert.equal(spans.length, 12, spans.map((s) => s.name).join());
    assert.ok(
      drifted(spans).length >= 4,
      'drifting exchanges were judged (their messages were built)',
    );
    assert.ok(
      spans.some((s) => s.events.length === 1),
      'exception events exist',
    );
    assertNoSecrets(dumpSpans(spans), ALL, 'spans');
    assertNoSecrets(await dumpMetrics(), ALL, 'metrics');
    for (const s of spans) {
      if (s.attributes['a2a.agent_card.url'] !== undefined)
        assert.equal(
          s.attributes['a2a.agent_card.url'],
          `${peer.base}/.well-known/agent-card.json`,
          'card URL without user info or query',
        );
    }
  } finally {
    await peer.close();
  }
});

test('a fetch of a URL with user:pass@ rejects with a message naming the URL: the span status must not carry it', async () => {
  const peer = await startSecretPeer();
  try {
    const url = `http://${S.user}:${S.pass}@127.0.0.1:${peer.port}/.well-known/agent-card.json?token=${S.query}`;
    await assert.rejects(fetch(url), TypeError);
    await drain();
    const spans = h.spans();
    assert.equal(spans.length, 1);
    assert.equal(spans[0].attributes['error.type'], 'TypeError');
    assertNoSecrets(dumpSpans(spans), [S.user, S.pass, S.query], 'span of a rejected fetch');
  } finally {
    await peer.close();
  }
});

// ---------------------------------------------------------------------------------------
// 2. Caps
// ---------------------------------------------------------------------------------------

const LONG = (c: string): string => c.repeat(10_000);

test('attribute values capped (10,000-char agent name, version, skill id, task/context/message ids), one exception event per span, bounded messages', async () => {
  const longSkill = `skill-${LONG('k')}`;
  const peer = await startSecretPeer((port) => ({
    name: LONG('n'),
    version: LONG('v'),
    protocolVersion: LONG('p'),
    url: `http://127.0.0.1:${port}/rpc`,
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: longSkill, name: 's', outputModes: ['text/plain'] }],
  }));
  try {
    await (await fetch(`${peer.base}/.well-known/agent-card.json`)).arrayBuffer();
    const body = (method: string, id: string): string =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          id,
          sessionId: LONG('c'),
          skillId: longSkill,
          message: { role: 'user', messageId: LONG('m'), parts: [{ type: 'text', text: 'hi' }] },
        },
      });
    for (const id of [`fail-${LONG('t')}`, `mismatch-${LONG('t')}`, `ok-${LONG('t')}`])
      await (
        await fetch(`${peer.base}/rpc`, { method: 'POST', body: body('tasks/send', id) })
      ).text();
    await (
      await fetch(`${peer.base}/rpc`, {
        method: 'POST',
        body: body('tasks/sendSubscribe', `stream-${LONG('t')}`),
      })
    ).text();
    await drain();
    const spans = h.spans();
    assert.equal(spans.length, 5);
    assert.ok(
      drifted(spans).length >= 2,
      'the long-named skill drifted (messages were built from it)',
    );
    for (const s of spans) {
      for (const [k, v] of Object.entries(s.attributes)) {
        if (typeof v === 'string') assert.ok(v.length <= 256, `${s.name} ${k}: ${v.length} chars`);
        if (Array.isArray(v))
          for (const x of v)
            assert.ok(
              typeof x !== 'string' || x.length <= 256,
              `${s.name} ${k}[]: ${String(x).length} chars`,
            );
      }
      assert.ok(s.events.length <= 1, `${s.name}: ${s.events.length} events`);
      assert.ok((s.status.message ?? '').length <= 256, 'status message capped');
    }
    const card = spans.find((s) => s.name === 'GetAgentCard') as ReadableSpan;
    assert.equal(String(card.attributes['gen_ai.agent.name']).length, 256);
    assert.equal(String(card.attributes['gen_ai.agent.version']).length, 256);
    const send = spans.find((s) => s.name === 'SendMessage') as ReadableSpan;
    assert.equal(String(send.attributes['a2a.skill.id']).length, 256);
    assert.equal(String(send.attributes['a2a.task.id']).length, 256);
    assert.equal(String(send.attributes['a2a.message.id']).length, 256);
    // the exception event repeats the drift message: it must stay bounded too (a message, not a payload)
    for (const s of drifted(spans)) {
      const ev = s.events[0];
      assert.ok(ev, 'drift has its exception event');
      const msg = String(ev.attributes?.['exception.message'] ?? '');
      assert.ok(msg.length <= 2048, `exception.message of ${s.name}: ${msg.length} chars`);
      assert.ok(
        String(ev.attributes?.['exception.stacktrace'] ?? '').length <= 8192,
        'stacktrace bounded',
      );
    }
  } finally {
    await peer.close();
  }
});

test('a drift span stays small even when the card advertises 1,000 long output modes', async () => {
  const modes = Array.from(
    { length: 1000 },
    (_, i) => `application/x-${String(i).padStart(4, '0')}-${'m'.repeat(236)}`,
  );
  const peer = await startSecretPeer((port) => ({
    name: 'modes',
    version: '1',
    url: `http://127.0.0.1:${port}/rpc`,
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'sec-skill', name: 's', outputModes: modes }],
  }));
  try {
    await (await fetch(`${peer.base}/.well-known/agent-card.json`)).arrayBuffer();
    await (
      await fetch(`${peer.base}/rpc`, { method: 'POST', body: rpc('tasks/send', 'mismatch-m') })
    ).text();
    await drain();
    const [span] = drifted(h.spans());
    assert.equal(span?.attributes['a2a.drift.kind'], 'output_mode_mismatch');
    const size = JSON.stringify(span.attributes).length + JSON.stringify(span.events).length;
    assert.ok(size <= 16 * 1024, `drift span carries ${size} bytes of attributes and events`);
  } finally {
    await peer.close();
  }
});

test('patterns see at most 4,096 characters: a 10 MB status text with the user regex /(a+)+$/ is judged on a bounded text; default patterns are substrings', async () => {
  const defaults = compilePatterns(['unknown skill']);
  assert.equal(defaults.length, 1);
  assert.ok(
    defaults[0].test('x'.repeat(100) + 'UNKNOWN SKILL'),
    'default pattern: case-insensitive substring',
  );
  assert.equal(defaults[0].label, 'unknown skill');
  h.instrumentation.setConfig(
    baseConfig({ maxInspectBytes: 16 * 1024 * 1024, unknownSkillPatterns: [/(a+)+$/] }),
  );
  const peer = await startSecretPeer();
  try {
    await (await fetch(`${peer.base}/.well-known/agent-card.json`)).arrayBuffer();
    const res = await fetch(`${peer.base}/rpc`, {
      method: 'POST',
      body: rpc('tasks/send', 'huge-1'),
    });
    const text = await res.text();
    assert.ok(text.length > 10 * 1024 * 1024, 'the app got the whole 10 MB body');
    await drain();
    const info = responses.find((r) => r.operation === 'SendMessage');
    assert.ok(info?.result, 'the response was decoded');
    assert.equal(info.result.state, 'TASK_STATE_FAILED');
    assert.ok(
      (info.result.statusText ?? '').length <= 4096,
      `status text handed to the patterns: ${info.result.statusText?.length} chars`,
    );
    const [span] = drifted(h.spans('SendMessage'));
    assert.equal(
      span?.attributes['a2a.drift.kind'],
      'unknown_skill',
      'the user pattern matched the bounded text',
    );
    assert.equal(span.attributes['a2a.drift.matched_pattern'], '/(a+)+$/');
  } finally {
    await peer.close();
  }
});

// ---------------------------------------------------------------------------------------
// 3. maxInspectBytes
// ---------------------------------------------------------------------------------------

test('maxInspectBytes small: the span says it could not judge; the app gets the same bytes as without the instrumentation', async () => {
  h.instrumentation.setConfig(baseConfig({ maxInspectBytes: 100 }));
  const peer = await startSecretPeer();
  try {
    const calls: Array<[string, () => Promise<string>]> = [
      [
        'fetch JSON',
        async () =>
          (
            await fetch(`${peer.base}/rpc`, { method: 'POST', body: rpc('tasks/send', 'ok-cap') })
          ).text(),
      ],
      [
        'undici JSON',
        async () =>
          (
            await undici.request(`${peer.base}/rpc`, {
              method: 'POST',
              body: rpc('tasks/send', 'ok-cap'),
            })
          ).body.text(),
      ],
      [
        'fetch SSE',
        async () =>
          (
            await fetch(`${peer.base}/rpc`, {
              method: 'POST',
              body: rpc('tasks/sendSubscribe', 'stream-cap'),
            })
          ).text(),
      ],
      ['card', async () => (await fetch(`${peer.base}/.well-known/agent-card.json`)).text()],
    ];
    for (const [name, call] of calls) {
      const before = h.spans().length;
      const on = await call();
      await drain();
      const spans = h.spans().slice(before);
      assert.equal(spans.length, 1, name);
      assert.match(
        String(spans[0].attributes['a2a.drift.unjudged_reason']),
        /over 100 bytes not inspected/,
        `${name}: ${JSON.stringify(spans[0].attributes)}`,
      );
      assert.equal(spans[0].attributes['a2a.drift.kind'], undefined);
      h.instrumentation.disable();
      let off: string;
      try {
        off = await call();
      } finally {
        h.instrumentation.enable();
      }
      assert.equal(on, off, `${name}: the app saw other bytes`);
      assert.ok(on.length > 100);
    }
  } finally {
    await peer.close();
  }
});

// ---------------------------------------------------------------------------------------
// 4. The card cannot steer the instrumentation's own requests
// ---------------------------------------------------------------------------------------

test('refetchCardOnDrift: a card listing other hosts, file: and data: URLs makes the instrumentation request only the card URL again', async () => {
  const elsewhere = await startSecretPeer();
  const b = elsewhere.base;
  const peer = await startSecretPeer((port) => ({
    name: 'hostile',
    version: '1',
    url: `${b}/rpc`,
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3',
    additionalInterfaces: [
      { url: `${b}/a2a`, transport: 'JSONRPC' },
      { url: 'file:///etc/passwd', transport: 'JSONRPC' },
      { url: 'data:application/json,{"name":"x"}', transport: 'HTTP+JSON' },
    ],
    supportedInterfaces: [
      { url: `${b}/v1`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `http://127.0.0.1:${port}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    documentationUrl: `${b}/docs`,
    iconUrl: `${b}/icon.png`,
    provider: { organization: 'x', url: `${b}/provider` },
    securitySchemes: {
      oauth: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: `${b}/token`, scopes: {} } },
      },
      oidc: { type: 'openIdConnect', openIdConnectUrl: `${b}/.well-known/openid-configuration` },
    },
    jwksUri: `${b}/jwks`,
    capabilities: { streaming: true, extensions: [{ uri: `${b}/ext` }] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'sec-skill', name: 's', outputModes: ['text/plain'] }],
  }));
  h.instrumentation.setConfig(baseConfig({ refetchCardOnDrift: true }));
  try {
    const cardUrl = `${peer.base}/.well-known/agent-card.json`;
    await (await fetch(cardUrl)).arrayBuffer();
    for (const id of ['fail-r1', 'mismatch-r2'])
      await (
        await fetch(`${peer.base}/rpc`, { method: 'POST', body: rpc('tasks/send', id) })
      ).text();
    await drain();
    await sleep(200);
    const flagged = drifted(h.spans('SendMessage'));
    assert.equal(flagged.length, 2);
    assert.ok(
      flagged.some((s) => s.attributes['a2a.drift.refetch'] === 'unchanged'),
      `the re-fetch ran: ${JSON.stringify(flagged.map((s) => s.attributes['a2a.drift.refetch']))}`,
    );
    assert.deepEqual(elsewhere.hits, [], 'nothing requested from the hosts the card lists');
    const cardHits = peer.hits.filter((p) => p.startsWith('/.well-known/'));
    assert.equal(
      cardHits.length,
      2,
      `the app's fetch and one re-fetch of the card URL (debounced): ${JSON.stringify(peer.hits)}`,
    );
    assert.deepEqual(
      peer.hits.filter((p) => !p.startsWith('/.well-known/') && p !== '/rpc'),
      [],
      'nothing else requested from the peer',
    );
  } finally {
    await peer.close();
    await elsewhere.close();
  }
});

test('refetchCardOnDrift: a card URL that now redirects elsewhere does not lead the re-fetch there', async () => {
  const elsewhere = await startSecretPeer();
  let redirect = false;
  const peerHits: string[] = [];
  const server = http.createServer((req, res) => {
    peerHits.push(req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET') {
        if (redirect) {
          res.writeHead(302, { location: `${elsewhere.base}/.well-known/agent-card.json` });
          return void res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(
          JSON.stringify({
            name: 'r',
            version: '1',
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 'sec-skill', name: 's', outputModes: ['text/plain'] }],
          }),
        );
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            id: 't',
            status: {
              state: 'failed',
              message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] },
            },
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.instrumentation.setConfig(baseConfig({ refetchCardOnDrift: true }));
  try {
    await (await fetch(`${base}/.well-known/agent-card.json`)).arrayBuffer();
    redirect = true;
    await (
      await fetch(`${base}/rpc`, { method: 'POST', body: rpc('tasks/send', 'fail-redirect') })
    ).text();
    await drain();
    await sleep(300);
    assert.equal(
      peerHits.filter((p) => p.startsWith('/.well-known/')).length,
      2,
      'the card URL was re-fetched',
    );
    assert.deepEqual(
      elsewhere.hits,
      [],
      'the re-fetch did not follow the redirect to another host',
    );
  } finally {
    await new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
    await elsewhere.close();
  }
});

test('ignoreUrls patterns are tested on origin + path (as documented), never on the query string', async () => {
  h.instrumentation.setConfig(baseConfig({ ignoreUrls: [/token=/] }));
  const peer = await startSecretPeer();
  try {
    await (await fetch(`${peer.base}/.well-known/agent-card.json?token=${S.query}`)).arrayBuffer();
    await drain();
    assert.equal(
      h.spans('GetAgentCard').length,
      1,
      'a pattern matching only the query string ignored the request',
    );
  } finally {
    await peer.close();
  }
});
