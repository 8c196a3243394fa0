/**
 * Fleet-wide eviction, the receiving side: Alertmanager's webhook
 * (createAlertWebhookHandler, the register's listener) and poll (API v2) feed one function
 * that calls the onAgentCardDrift callbacks with `source: 'fleet'`, once per alert, debounced
 * per card URL together with local evidence, marks the card suspect and re-fetches it.
 *
 *   npm run build && node --import tsx --test --test-concurrency=1 test/fleet/receivers.test.ts
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import express from 'express';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { createAlertWebhookHandler, onAgentCardDrift, type DriftEvent } from '../../src/index';
import { sharedState } from '../../src/telemetry/shared-state';
import { fleetConfigFromEnv } from '../../src/fleet/receivers';
import { startAlertmanagerPoller } from '../../src/fleet/poller';
import { startAlertWebhookListener, type AlertWebhookListener } from '../../src/fleet/listener';
import { parseApiAlerts, parseWebhookPayload } from '../../src/fleet/alerts';
import { startRawV01Peer, V01_TRANSLATE_SKILL, type RawV01Peer } from '../peers/raw-v01-peer';
import { alertmanagerNotification } from '../helpers/alertmanager';

const TOKEN = 'test-token-0123456789';
let h: Harness;
let peer: RawV01Peer;
let listener: AlertWebhookListener;
let hookUrl: string;
let events: DriftEvent[];
let off: () => void;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

before(async () => {
  h = setupOtel();
  listener = startAlertWebhookListener({ port: 0, host: '127.0.0.1', token: TOKEN }, (m) =>
    assert.fail(m),
  );
  await until(() => listener.address() !== undefined);
  hookUrl = `http://127.0.0.1:${listener.address()!.port}/a2a/alerts`;
});

after(async () => {
  listener.close();
  await peer?.close();
  await h.shutdown();
});

beforeEach(async () => {
  off?.();
  if (peer) await peer.close();
  peer = await startRawV01Peer({
    name: 'fleet-peer',
    behaviour: { sendReturns: 'final', transitionDelayMs: 0 },
  });
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  await h.reset();
  sharedState().seenAlerts?.clear();
  sharedState().lastEviction?.clear();
  events = [];
  off = onAgentCardDrift((e) => void events.push(e));
});

interface AlertSpec {
  status?: 'firing' | 'resolved';
  cardUrl?: string | null;
  kind?: string;
  skillId?: string;
  agent?: string;
  fingerprint?: string;
  startsAt?: string;
}

function alert(spec: AlertSpec = {}): Record<string, unknown> {
  const labels: Record<string, string> = {
    alertname: 'A2AAgentCardDrift',
    job: 'a2a-apps',
    a2a_drift_kind: spec.kind ?? 'unknown_skill',
  };
  if (spec.cardUrl !== null) labels.a2a_agent_card_url = spec.cardUrl ?? peer.cardUrl;
  if (spec.skillId !== undefined) labels.a2a_skill_id = spec.skillId;
  if (spec.agent !== undefined) labels.gen_ai_agent_name = spec.agent;
  return {
    status: spec.status ?? 'firing',
    labels,
    annotations: { summary: 'Stale Agent Card' },
    startsAt: spec.startsAt ?? new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus:9090/graph',
    fingerprint: spec.fingerprint ?? 'f00dfeed00000001',
  };
}

function notification(alerts: unknown[], status = 'firing'): Record<string, unknown> {
  return alertmanagerNotification(alerts, {
    status,
    groupKey: '{}/{a2a_agent_card_url=~".+"}:{a2a_agent_card_url="x"}',
  });
}

async function post(
  body: unknown,
  opts: { token?: string | null; url?: string; raw?: string | Buffer; method?: string } = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = opts.token === undefined ? TOKEN : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(opts.url ?? hookUrl, {
    method: opts.method ?? 'POST',
    headers,
    body: opts.method === 'GET' ? undefined : (opts.raw ?? JSON.stringify(body)),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

/** Fetch the peer's card through the instrumentation (the process now holds it). */
async function holdCard(): Promise<void> {
  await fetch(peer.cardUrl).then((r) => r.text());
  await h.waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
}

function sendTask(id: string, skillId: string): Promise<string> {
  return fetch(peer.rpcUrl, {
    method: 'POST',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tasks/send',
      params: { id, skillId, message: { role: 'user', parts: [{ type: 'text', text: 'x' }] } },
    }),
  }).then((r) => r.text());
}

test('a firing alert naming a card: 200 {accepted, ignored}, the callbacks get a fleet event, the card is marked suspect', async () => {
  await holdCard();
  const r = await post(notification([alert({ skillId: 'summarize-v2', agent: 'fleet-peer' })]));
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { accepted: 1, ignored: 0 });
  await until(() => events.length === 1);
  const e = events[0];
  assert.equal(e.source, 'fleet');
  assert.equal(e.kind, 'unknown_skill');
  assert.equal(e.cardUrl, peer.cardUrl);
  assert.equal(e.skillId, 'summarize-v2');
  assert.equal(e.agentName, 'fleet-peer');
  assert.equal(
    e.fingerprint,
    undefined,
    'the alert does not say which card the other instance held',
  );
  assert.equal(e.error.name, 'StaleAgentCardError');
  assert.match(e.error.message, /re-fetch the Agent Card/);
  const entry = sharedState().cards.get(peer.cardUrl)!;
  assert.equal(entry.suspect, true);
  assert.equal(entry.suspectSource, 'fleet');

  // The next call against that card says so on its span.
  await sendTask('t-after-alert', 'summarize-v2');
  const [span] = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const send = h.spans('SendMessage')[0] ?? span;
  assert.equal(send.attributes['a2a.agent_card.suspect'], true);
  assert.equal(send.attributes['a2a.agent_card.suspect_source'], 'fleet');
  assert.equal(
    h.spans().filter((s) => s.name !== 'GetAgentCard' && s.name !== 'SendMessage').length,
    0,
    'the webhook traffic makes no span',
  );
});

test('output_mode_mismatch alerts carry ArtifactSchemaDriftError; local events say source local', async () => {
  await post(notification([alert({ kind: 'output_mode_mismatch' })]));
  await until(() => events.length === 1);
  assert.equal(events[0].error.name, 'ArtifactSchemaDriftError');
  assert.equal(events[0].source, 'fleet');

  await holdCard();
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  peer.redeploy([V01_TRANSLATE_SKILL]);
  await sendTask('t-local', 'summarize-v2');
  await until(() => events.length === 2);
  assert.equal(events[1].source, 'local');
});

test('401: missing, wrong or malformed bearer token (nothing acted on)', async () => {
  for (const token of [null, 'wrong-token', '', `${TOKEN}x`]) {
    const r = await post(notification([alert()]), { token });
    assert.equal(r.status, 401, `token ${JSON.stringify(token)}`);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    assert.equal(typeof r.json.error, 'string');
  }
  const basic = await fetch(hookUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` },
    body: JSON.stringify(notification([alert()])),
  });
  assert.equal(basic.status, 401);
  await sleep(20);
  assert.equal(events.length, 0);
  const lower = await fetch(hookUrl, {
    method: 'POST',
    headers: { authorization: `bearer ${TOKEN}` },
    body: JSON.stringify(notification([alert()])),
  });
  assert.equal(lower.status, 200, 'the scheme is case-insensitive');
});

test('400: not JSON, or not an Alertmanager version 4 payload, with a message', async () => {
  const cases: Array<[string, RegExp]> = [
    ['{"version": "4", "alerts": [', /not JSON/],
    ['[]', /JSON object/],
    ['"text"', /JSON object/],
    [JSON.stringify({ version: '3', alerts: [] }), /version "3".*expected "4"/],
    [JSON.stringify({ alerts: [] }), /version null/],
    [JSON.stringify({ version: '4', alerts: {} }), /"alerts" to be an array/],
  ];
  for (const [raw, message] of cases) {
    const r = await post(undefined, { raw });
    assert.equal(r.status, 400, raw);
    assert.match(String(r.json.error), message, raw);
  }
  assert.equal(events.length, 0);
});

test('413: a body over 1 MiB gets its answer (read and discarded), not a broken pipe; the connection stays usable', async () => {
  const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
  const r = await post(undefined, { raw: big });
  assert.equal(r.status, 413);
  assert.match(String(r.json.error), /larger than 1048576 bytes/);
  // 5 MiB streamed without content-length (chunked), through node:http
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(
      hookUrl,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let i = 0; i < 80; i++) req.write(chunk);
    req.end();
  });
  assert.equal(status, 413);
  const ok = await post(notification([alert()]));
  assert.equal(ok.status, 200);
});

test('405 for other methods, 404 for other paths', async () => {
  const get = await post(undefined, { method: 'GET' });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  const put = await post(notification([alert()]), { method: 'PUT' });
  assert.equal(put.status, 405);
  const other = await post(notification([alert()]), {
    url: hookUrl.replace('/a2a/alerts', '/alerts'),
  });
  assert.equal(other.status, 404);
  const query = await post(notification([alert()]), { url: `${hookUrl}?x=1` });
  assert.equal(query.status, 200, 'a query string does not change the path');
  await until(() => events.length === 1);
});

test('resolved alerts, alerts without the card label and odd items are ignored and counted; status is read per alert', async () => {
  await holdCard();
  const r = await post(
    notification(
      [
        alert({ status: 'resolved', fingerprint: 'a1' }),
        alert({ cardUrl: null, fingerprint: 'a2' }),
        alert({ cardUrl: 'not a url', fingerprint: 'a3' }),
        alert({ kind: 'card_changed', fingerprint: 'a4' }),
        alert({ kind: 'something_else', fingerprint: 'a5' }),
        'not an alert',
        { status: 'firing', labels: 'x' },
        alert({ fingerprint: 'a6' }),
      ],
      'resolved', // the notification's own status is not what counts
    ),
  );
  assert.deepEqual(r.json, { accepted: 1, ignored: 7 });
  await until(() => events.length === 1);
  await sleep(20);
  assert.equal(events.length, 1);
});

test('the same alert (fingerprint + startsAt) evicts once however often it is re-sent; a new firing evicts again', async () => {
  await holdCard();
  const startsAt = new Date().toISOString();
  for (let i = 0; i < 5; i++) {
    const r = await post(notification([alert({ startsAt }), alert({ startsAt })]));
    assert.deepEqual(r.json, { accepted: 2, ignored: 0 });
  }
  await sleep(30);
  assert.equal(events.length, 1, 'one eviction for one alert');
  await sleep(5);
  await post(notification([alert({ startsAt: new Date(Date.now() + 1).toISOString() })]));
  await until(() => events.length === 2);
});

test('the alert memory is bounded', async () => {
  const before = sharedState().seenAlerts?.size ?? 0;
  const alerts = Array.from({ length: 2000 }, (_, i) =>
    alert({ fingerprint: `fp-${i}`, cardUrl: `http://127.0.0.1:1/card-${i}` }),
  );
  for (let i = 0; i < 6; i++) {
    const r = await post(
      notification(alerts.map((a) => ({ ...a, fingerprint: `${i}-${String(a.fingerprint)}` }))),
    );
    assert.deepEqual(r.json, { accepted: 2000, ignored: 0 });
  }
  const size = sharedState().seenAlerts!.size;
  assert.ok(size <= 10_000, `remembered ${size} alerts (before: ${before})`);
  assert.equal(size, 10_000);
});

test("cards held under the alert's URL with a query (LangGraph: ?assistant_id=) are each implicated: suspect", async () => {
  for (const id of ['a', 'b'])
    await fetch(`${peer.cardUrl}?assistant_id=${id}`).then((r) => r.text());
  await h.waitForSpans((s) => s.filter((x) => x.name === 'GetAgentCard').length === 2);
  assert.equal(sharedState().cards.get(peer.cardUrl), undefined, 'nothing held without the query');
  const r = await post(
    notification([alert({ startsAt: new Date(Date.now() + 1000).toISOString() })]),
  );
  assert.deepEqual(r.json, { accepted: 1, ignored: 0 });
  await until(() => events.length === 1);
  assert.equal(events[0].cardUrl, peer.cardUrl);
  for (const id of ['a', 'b']) {
    const entry = sharedState().cards.get(`${peer.cardUrl}?assistant_id=${id}`);
    assert.equal(entry?.suspect, true, id);
    assert.equal(entry?.suspectSource, 'fleet', id);
  }
});

test('a card fetched after the alert started is not implicated (newer than the evidence)', async () => {
  const startsAt = new Date(Date.now() - 60_000).toISOString();
  await holdCard();
  const r = await post(notification([alert({ startsAt })]));
  assert.deepEqual(r.json, { accepted: 1, ignored: 0 });
  await sleep(30);
  assert.equal(events.length, 0);
  assert.equal(sharedState().cards.get(peer.cardUrl)?.suspect, false);
});

test('debounced per card URL with local evidence: a process that evicted for its own evidence is not called again, and vice versa', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 60_000 });
  // Local first.
  await holdCard();
  peer.redeploy([V01_TRANSLATE_SKILL]);
  await sendTask('t-1', 'summarize-v2');
  await until(() => events.length === 1);
  assert.equal(events[0].source, 'local');
  const r = await post(notification([alert({ fingerprint: 'x1' })]));
  assert.deepEqual(r.json, { accepted: 1, ignored: 0 });
  await sleep(30);
  assert.equal(
    events.length,
    1,
    'the fleet alert for a card this process just evicted calls nobody',
  );
  assert.equal(
    sharedState().cards.get(peer.cardUrl)?.suspectSource,
    'local',
    'the local verdict stays',
  );

  // Fleet first, on another card.
  const other = await startRawV01Peer({
    name: 'other-peer',
    behaviour: { sendReturns: 'final', transitionDelayMs: 0 },
  });
  try {
    await fetch(other.cardUrl).then((r2) => r2.text());
    await post(notification([alert({ fingerprint: 'x2', cardUrl: other.cardUrl })]));
    await until(() => events.length === 2);
    assert.equal(events[1].source, 'fleet');
    other.redeploy([V01_TRANSLATE_SKILL]);
    await fetch(other.rpcUrl, {
      method: 'POST',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tasks/send',
        params: {
          id: 'o-1',
          skillId: 'summarize-v2',
          message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
        },
      }),
    }).then((r2) => r2.text());
    await h.waitForSpans((s) => drifted(s).length === 2);
    await sleep(30);
    assert.equal(
      events.length,
      2,
      'local evidence against the card the fleet alert evicted calls nobody again',
    );
    // A second alert (another skill) for that card inside the window: nobody called either.
    await post(
      notification([alert({ fingerprint: 'x3', cardUrl: other.cardUrl, skillId: 'other' })]),
    );
    await sleep(30);
    assert.equal(events.length, 2);

    // The app re-fetched the card: evidence against the NEW card is news.
    await fetch(other.cardUrl).then((r2) => r2.text());
    other.redeploy([{ ...V01_TRANSLATE_SKILL, id: 'translate-v2' }]);
    await fetch(other.rpcUrl, {
      method: 'POST',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/send',
        params: {
          id: 'o-2',
          skillId: 'translate-v1',
          message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
        },
      }),
    }).then((r2) => r2.text());
    await until(() => events.length === 4, 3000).catch(() => undefined);
    const local = events.slice(2).filter((e) => e.kind !== 'card_changed');
    assert.equal(
      local.length,
      1,
      `events after the re-fetch: ${JSON.stringify(events.slice(2).map((e) => [e.source, e.kind]))}`,
    );
    assert.equal(local[0].source, 'local');
  } finally {
    await other.close();
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test("the debounce window is the instrumentation's driftCallbackDebounceMs", async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 200 });
  try {
    await post(notification([alert({ fingerprint: 'w1' })]));
    await post(notification([alert({ fingerprint: 'w2' })]));
    await sleep(30);
    assert.equal(events.length, 1, 'inside the window');
    await sleep(250);
    await post(notification([alert({ fingerprint: 'w3' })]));
    await until(() => events.length === 2);
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test('with refetchCardOnDrift the card is re-fetched (untraced); without it, not', async () => {
  await holdCard();
  const fetches = peer.cardFetches;
  await post(notification([alert({ fingerprint: 'r1' })]));
  await until(() => events.length === 1);
  await sleep(50);
  assert.equal(peer.cardFetches, fetches, 'no re-fetch without the option');

  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, refetchCardOnDrift: true });
  try {
    await post(notification([alert({ fingerprint: 'r2' })]));
    await until(() => peer.cardFetches === fetches + 1);
    await sleep(30);
    assert.equal(h.spans('GetAgentCard').length, 1, 'the re-fetch is untraced');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test('the config onDrift gets fleet events too; a throwing callback changes nothing', async () => {
  const configured: DriftEvent[] = [];
  h.instrumentation.setConfig({
    driftCallbackDebounceMs: 0,
    onDrift: (e) => void configured.push(e),
  });
  const offThrow = onAgentCardDrift(() => {
    throw new Error('app bug');
  });
  try {
    const r = await post(notification([alert({ fingerprint: 'c1' })]));
    assert.equal(r.status, 200);
    await until(() => configured.length === 1 && events.length === 1);
    assert.equal(configured[0].source, 'fleet');
  } finally {
    offThrow();
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test("createAlertWebhookHandler in the app's own servers: node:http (no token, the unsafe opt-in: loopback only) and express (body already parsed)", async () => {
  const plain = http.createServer(
    createAlertWebhookHandler({ unsafeAllowLoopbackWithoutToken: true }),
  );
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
  const app = express();
  app.use(express.json({ limit: '2mb' }));
  app.post('/hooks/a2a', createAlertWebhookHandler({ token: TOKEN }));
  const ex = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => ex.once('listening', () => r()));
  try {
    const p = (plain.address() as AddressInfo).port;
    const r1 = await post(notification([alert({ fingerprint: 'h1' })]), {
      url: `http://127.0.0.1:${p}/anything`,
      token: null,
    });
    assert.deepEqual(r1.json, { accepted: 1, ignored: 0 }, 'no token, loopback client: answered');
    const e = (ex.address() as AddressInfo).port;
    const r2 = await post(
      notification([alert({ fingerprint: 'h2', cardUrl: 'http://127.0.0.1:2/card' })]),
      { url: `http://127.0.0.1:${e}/hooks/a2a` },
    );
    assert.deepEqual(r2.json, { accepted: 1, ignored: 0 });
    const r3 = await post(notification([alert({ fingerprint: 'h3' })]), {
      url: `http://127.0.0.1:${e}/hooks/a2a`,
      token: 'nope',
    });
    assert.equal(r3.status, 401);
    const r4 = await post(undefined, {
      url: `http://127.0.0.1:${e}/hooks/a2a`,
      raw: JSON.stringify({ version: '4' }),
    });
    assert.equal(r4.status, 400);
    await until(() => events.length === 2);
  } finally {
    plain.close();
    ex.close();
  }
});

test('the handler never throws, whatever it is handed', () => {
  const handler = createAlertWebhookHandler({ token: TOKEN });
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('hostile');
      },
    },
  );
  assert.doesNotThrow(() => handler(hostile as never, hostile as never));
  assert.doesNotThrow(() => handler({} as never, {} as never));
  // Creating one without a token throws (test/hardening/fleet-listener.test.ts).
  assert.throws(() => createAlertWebhookHandler(null as never), TypeError);
  assert.throws(() => createAlertWebhookHandler({ token: 42 as never }), TypeError);
});

/** A fake Alertmanager: GET /api/v2/alerts answers `body()`; records the request URLs. */
async function fakeAlertmanager(body: () => string | Buffer): Promise<{
  url: string;
  requests: string[];
  auth: Array<string | undefined>;
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  const auth: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    auth.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    auth,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function apiAlert(
  state: 'active' | 'suppressed' | 'unprocessed',
  fingerprint: string,
  extra: AlertSpec = {},
): Record<string, unknown> {
  const a = alert({ fingerprint, ...extra });
  delete a.status;
  return {
    ...a,
    endsAt: new Date(Date.now() + 300_000).toISOString(),
    updatedAt: new Date().toISOString(),
    receivers: [{ name: 'a2a-fleet' }],
    status: { state, silencedBy: state === 'suppressed' ? ['s1'] : [], inhibitedBy: [] },
  };
}

test('poll: GET <url>/api/v2/alerts?active=true&silenced=false&inhibited=false; only active alerts evict, once however often polled; untraced', async () => {
  await holdCard();
  const list = JSON.stringify([
    apiAlert('suppressed', 'p-silenced'),
    apiAlert('unprocessed', 'p-new'),
    apiAlert('active', 'p-active'),
    apiAlert('active', 'p-nolabel', { cardUrl: null }),
  ]);
  const am = await fakeAlertmanager(() => list);
  const poller = startAlertmanagerPoller(
    {
      url: am.url.replace('127.0.0.1', 'user:pa%20ss@127.0.0.1'),
      intervalMs: 60_000,
      autoStart: false,
    },
    (m) => assert.fail(m),
  )!;
  try {
    const first = await poller.pollNow();
    assert.deepEqual(first, { accepted: 1, ignored: 3, evicted: 1 });
    for (let i = 0; i < 3; i++)
      assert.deepEqual(await poller.pollNow(), { accepted: 1, ignored: 3, evicted: 0 });
    await until(() => events.length === 1);
    await sleep(20);
    assert.equal(events.length, 1, 'polled four times, evicted once');
    assert.equal(events[0].source, 'fleet');
    assert.equal(am.requests[0], '/api/v2/alerts?active=true&silenced=false&inhibited=false');
    assert.equal(
      am.auth[0],
      `Basic ${Buffer.from('user:pa ss').toString('base64')}`,
      'credentials in the URL become basic auth',
    );
    assert.deepEqual(
      h.spans().map((s) => s.name),
      ['GetAgentCard'],
      'the poll makes no span',
    );
  } finally {
    poller.stop();
    await am.close();
  }
});

test('poll: the first poll is at once, then every interval; a bad answer is reported once, the poll goes on', async () => {
  let answer: string | Buffer = 'not json';
  const am = await fakeAlertmanager(() => answer);
  const warnings: string[] = [];
  const poller = startAlertmanagerPoller(
    { url: `${am.url}prefix/`, intervalMs: 100 },
    (m) => void warnings.push(m),
  )!;
  try {
    await until(() => am.requests.length >= 3);
    assert.equal(
      am.requests[0],
      '/prefix/api/v2/alerts?active=true&silenced=false&inhibited=false',
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /not JSON/);
    // pollNow() joins a poll already under way (begun with the previous answer): let that one end first.
    const fresh = async (): Promise<unknown> => {
      await poller.pollNow();
      return poller.pollNow();
    };
    answer = Buffer.alloc(1024 * 1024 + 10, 0x20);
    assert.deepEqual(await fresh(), { error: 'answer larger than 1048576 bytes' });
    answer = JSON.stringify({ not: 'a list' });
    assert.deepEqual(await fresh(), {
      error: 'expected a JSON array (Alertmanager API v2 alerts)',
    });
    answer = JSON.stringify([apiAlert('active', 'pp-1')]);
    const n = am.requests.length;
    await until(() => events.length === 1 && am.requests.length > n + 2);
    assert.equal(events.length, 1, 'polled again and again, evicted once');
  } finally {
    poller.stop();
    await am.close();
  }
  const stopped = am.requests.length;
  await sleep(250);
  assert.equal(am.requests.length, stopped, 'no poll after stop()');
});

test('environment: the webhook needs a token off loopback (one warning says why), bad values are warned about', () => {
  const warnings: string[] = [];
  const logger: DiagLogger = {
    error: () => {},
    warn: (...args: unknown[]) => void warnings.push(args.join(' ')), // the component logger: namespace, message
    info: () => {},
    debug: () => {},
    verbose: () => {},
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  try {
    assert.deepEqual(fleetConfigFromEnv({}), {});
    assert.deepEqual(fleetConfigFromEnv({ OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: '9470' }), {
      webhook: { port: 9470, host: '127.0.0.1' },
    });
    assert.equal(warnings.length, 0);
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: '9470',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: '0.0.0.0',
      }),
      {},
    );
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0],
      /OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN is not set; the fleet alert webhook is not started/,
    );
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: '9470',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: '0.0.0.0',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: 't',
      }),
      {
        webhook: { port: 9470, host: '0.0.0.0', token: 't' },
      },
    );
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: '::1',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: '::1',
      }),
      {},
    );
    assert.match(warnings[1], /invalid OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT/);
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: '9470',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: '::1',
      }),
      { webhook: { port: 9470, host: '::1' } },
    );
    assert.deepEqual(
      fleetConfigFromEnv({ OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: 'http://am:9093' }),
      { poll: { url: 'http://am:9093', intervalMs: 15_000 } },
    );
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: 'http://am:9093',
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: '1000',
      }),
      { poll: { url: 'http://am:9093', intervalMs: 1000 } },
    );
    assert.deepEqual(
      fleetConfigFromEnv({
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: 'http://am:9093',
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: 'soon',
      }),
      { poll: { url: 'http://am:9093', intervalMs: 15_000 } },
    );
    assert.match(warnings[2], /invalid OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS/);
    assert.deepEqual(
      fleetConfigFromEnv({ OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: 'ftp://am' }),
      {},
    );
    assert.match(warnings[3], /invalid OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL/);
  } finally {
    diag.disable();
  }
});

test('parsers: bounded labels, status per alert, identity = fingerprint + startsAt', () => {
  const p = parseWebhookPayload(
    notification([
      alert({ fingerprint: 'k', startsAt: '2024-01-01T00:00:00Z', skillId: 'x'.repeat(1000) }),
    ]),
  );
  assert.ok(p.ok);
  assert.equal(p.alerts[0].key, 'k\u00002024-01-01T00:00:00Z');
  assert.equal(p.alerts[0].skillId?.length, 256);
  assert.equal(p.alerts[0].startsAt, Date.parse('2024-01-01T00:00:00Z'));
  const noFp = parseApiAlerts([{ ...apiAlert('active', 'z'), fingerprint: undefined }]);
  assert.ok(
    noFp.ok && noFp.alerts[0].key.includes('a2a_agent_card_url='),
    'no fingerprint: the labels identify the alert',
  );
  const long = parseWebhookPayload(
    notification([alert({ cardUrl: `http://h/${'a'.repeat(3000)}` })]),
  );
  assert.ok(long.ok && long.ignored === 1 && long.reasons['bad card url'] === 1);
});

/** An alert as a rule that keeps OpenTelemetry's own attribute names makes it (Prometheus 3). */
function dottedAlert(labels: Record<string, unknown>, fingerprint = 'd0770000'): unknown {
  return {
    status: 'firing',
    labels: { alertname: 'A2AAgentCardDrift', job: 'a2a-apps', ...labels },
    annotations: {},
    startsAt: new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    fingerprint,
  };
}

test('UTF-8 label names (Prometheus 3 NoUTF8EscapingWithSuffixes): the dotted spellings are read like the underscored ones; the webhook evicts', async () => {
  await holdCard();
  const r = await post(
    notification([
      dottedAlert({
        'a2a.agent_card.url': peer.cardUrl,
        'a2a.drift.kind': 'unknown_skill',
        'a2a.skill.id': 'résumé "v2" \\ ✓ 技能',
        'gen_ai.agent.name': 'Агент ✓',
      }),
    ]),
  );
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { accepted: 1, ignored: 0 });
  await until(() => events.length === 1);
  assert.equal(events[0].source, 'fleet');
  assert.equal(events[0].cardUrl, peer.cardUrl);
  assert.equal(events[0].kind, 'unknown_skill');
  assert.equal(events[0].skillId, 'résumé "v2" \\ ✓ 技能');
  assert.equal(events[0].agentName, 'Агент ✓');
  assert.equal(sharedState().cards.get(peer.cardUrl)!.suspectSource, 'fleet');

  // Both spellings on one alert: the underscored (Prometheus) name is read, the other ignored.
  const both = parseWebhookPayload(
    notification([
      dottedAlert({
        a2a_agent_card_url: 'http://a.example/.well-known/agent-card.json',
        'a2a.agent_card.url': 'http://b.example/.well-known/agent-card.json',
        a2a_drift_kind: 'output_mode_mismatch',
        'a2a.drift.kind': 'unknown_skill',
        'a2a.skill.id': 'dotted-only',
      }),
    ]),
  );
  assert.ok(both.ok);
  assert.equal(both.alerts[0].cardUrl, 'http://a.example/.well-known/agent-card.json');
  assert.equal(both.alerts[0].kind, 'output_mode_mismatch');
  assert.equal(both.alerts[0].skillId, 'dotted-only', 'each label falls back on its own');
  // An empty underscored label does not hide the dotted one (Prometheus drops empty labels,
  // a hand-written alert may not).
  const empty = parseApiAlerts([
    {
      ...(dottedAlert({
        a2a_agent_card_url: '',
        'a2a.agent_card.url': peer.cardUrl,
        'a2a.drift.kind': 'unknown_skill',
      }) as Record<string, unknown>),
      status: { state: 'active' },
    },
  ]);
  assert.ok(empty.ok && empty.alerts[0]?.cardUrl === peer.cardUrl, JSON.stringify(empty));
});

/**
 * The agent's side: a stale-caller alert (a2a.server.stale_calls, or the SERVER spans' span
 * metrics) names the agent's OWN card, which is current. alertmanager.yml routes it away from
 * the fleet receiver; if a route sends it anyway, the receiver ignores it with its own reason
 * (before, it was ignored as 'no drift kind' and warned about a misconfigured rule).
 */
test('stale-caller alerts (caller_skill_not_in_card, caller_card_stale) evict nothing, under either spelling of the labels', () => {
  const parsed = parseWebhookPayload(
    notification([
      alert({ kind: 'caller_skill_not_in_card', skillId: 'summarize-v2', fingerprint: 'c1' }),
      alert({ kind: 'caller_card_stale', skillId: 'translate-v1', fingerprint: 'c2' }),
      dottedAlert(
        { 'a2a.agent_card.url': peer.cardUrl, 'a2a.drift.kind': 'caller_card_stale' },
        'c3',
      ),
    ]),
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.alerts, []);
  assert.deepEqual(parsed.reasons, { 'caller drift': 3 });
});

test('alert labels with characters outside [a-zA-Z0-9_] in names and values: read or refused with a reason, never thrown on', async () => {
  const url = 'http://bücher.example:8080/.well-known/agent-card.json';
  const odd = parseWebhookPayload(
    notification([
      // UTF-8 values are read as they are; an IDN host is normalised like the instrumentation's own.
      dottedAlert({ 'a2a.agent_card.url': url, 'a2a.drift.kind': 'unknown_skill' }, 'o1'),
      // Names that only look like ours (a Cyrillic а, a trailing space, another separator).
      dottedAlert(
        {
          'а2а.agent_card.url': peer.cardUrl,
          'a2a.agent_card.url ': peer.cardUrl,
          'a2a/agent_card/url': peer.cardUrl,
          'a2a.drift.kind': 'unknown_skill',
        },
        'o2',
      ),
      // A kind that only looks like one (dotless ı), and one in another script.
      dottedAlert({ 'a2a.agent_card.url': url, 'a2a.drift.kind': 'unknown_skıll' }, 'o3'),
      dottedAlert({ 'a2a.agent_card.url': url, 'a2a.drift.kind': '未知' }, 'o4'),
      // A card URL that is not one, with control characters and a lone surrogate.
      dottedAlert(
        { 'a2a.agent_card.url': '技能\u0000\ud800', 'a2a.drift.kind': 'unknown_skill' },
        'o5',
      ),
      // Names that are Object.prototype's members, and non-string values.
      dottedAlert({ constructor: url, toString: 'unknown_skill', 'a2a.drift.kind': 7 }, 'o6'),
      dottedAlert(
        { 'a2a.agent_card.url': { href: url }, 'a2a.drift.kind': ['unknown_skill'] },
        'o7',
      ),
    ]),
  );
  assert.ok(odd.ok);
  assert.equal(odd.alerts.length, 1, JSON.stringify(odd));
  assert.equal(
    odd.alerts[0].cardUrl,
    'http://xn--bcher-kva.example:8080/.well-known/agent-card.json',
  );
  assert.deepEqual(odd.reasons, { 'no card url': 3, 'no drift kind': 2, 'bad card url': 1 });
  // JSON.parse makes __proto__ an own property: it is a label like any other, and harmless.
  const proto = parseWebhookPayload(
    JSON.parse(
      `{"version":"4","alerts":[{"status":"firing","labels":{"__proto__":{"a2a_agent_card_url":"${peer.cardUrl}"},"a2a.drift.kind":"unknown_skill"}}]}`,
    ),
  );
  assert.ok(proto.ok);
  assert.deepEqual(proto.reasons, { 'no card url': 1 });
  // Through the listener: 200 with the counts, nothing else happens.
  const r = await post(
    notification([
      dottedAlert({ 'a2a.agent_card.url': '技能', 'a2a.drift.kind': 'unknown_skill' }, 'o8'),
    ]),
  );
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, { accepted: 0, ignored: 1 });
  await sleep(50);
  assert.deepEqual(events, []);
});
