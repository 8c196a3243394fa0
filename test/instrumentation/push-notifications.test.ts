/**
 * Push notifications, with the real `@a2a-js/sdk` 1.3 server and its push sender
 * (1.0 `DefaultPushNotificationSender`; 0.3 through `createLegacyAwarePushNotificationSender`),
 * the real SDK client registering an express webhook on 127.0.0.1: every genuine push is one
 * TaskPushNotification span judged against the task's negotiation; forged pushes give nothing;
 * the webhook handler reads the same bytes whichever way it reads them.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Client } from '@a2a-js/sdk/client';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import {
  startSdkPeer,
  TRANSLATE_SKILL,
  SUMMARIZE_PLAIN_SKILL,
  type SdkPeer,
} from '../peers/sdk-peer';
import { asTask, createSdkClient, sendRequest, type SdkTransportChoice } from '../peers/sdk-client';
import { onAgentCardDrift, type DriftEvent } from '../../src/index';

type ReadMode = 'express-json' | 'data-events' | 'async-iteration' | 'late' | 'never';

interface Received {
  headers: http.IncomingHttpHeaders;
  /** The bytes the handler read (express-json: the parsed value, serialised again). */
  body: Buffer | undefined;
  parsed?: unknown;
}

interface Webhook {
  url: string;
  mode: ReadMode;
  received: Received[];
  close(): Promise<void>;
}

async function startWebhook(): Promise<Webhook> {
  const received: Received[] = [];
  const hook: Webhook = { url: '', mode: 'express-json', received, close: async () => {} };
  const app = express();
  const json = express.json({ type: ['application/json', 'application/a2a+json'], limit: '10mb' });
  app.post('/hooks/a2a', (req, res, next) => {
    const mode = hook.mode;
    const readRaw = async (): Promise<Buffer> => {
      const chunks: Buffer[] = [];
      if (mode === 'async-iteration') {
        for await (const c of req) chunks.push(c as Buffer);
        return Buffer.concat(chunks);
      }
      return new Promise((resolve, reject) => {
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
      });
    };
    if (mode === 'express-json') {
      json(req, res, (err?: unknown) => {
        if (err) return next(err);
        received.push({ headers: req.headers, body: undefined, parsed: req.body });
        res.status(200).end();
      });
      return;
    }
    if (mode === 'never') {
      received.push({ headers: req.headers, body: undefined });
      res.status(200).end();
      return;
    }
    const go = (): void => {
      readRaw().then((body) => {
        received.push({ headers: req.headers, body });
        res.status(200).end();
      }, next);
    };
    if (mode === 'late') setTimeout(go, 60);
    else go();
  });
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/a2a`;
  hook.close = () =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return hook;
}

let h: Harness;
let peer: SdkPeer | undefined;
let hook: Webhook;
/** What the agent's push sender POSTed to the webhook (recorded around global fetch). */
let sent: Buffer[] = [];
let realFetch: typeof fetch;
const realInfo = console.info;

before(async () => {
  console.info = () => {}; // the SDK's push sender logs every push sent
  h = setupOtel();
  hook = await startWebhook();
  realFetch = globalThis.fetch;
  const instrumented = globalThis.fetch;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (String(input).startsWith(hook.url) && typeof init?.body === 'string')
      sent.push(Buffer.from(init.body));
    return instrumented(input, init);
  }) as typeof fetch;
});
after(async () => {
  console.info = realInfo;
  globalThis.fetch = realFetch;
  await peer?.close();
  await hook.close();
  await h.shutdown();
});
beforeEach(async () => {
  await peer?.close();
  peer = undefined;
  sent = [];
  hook.received.length = 0;
  hook.mode = 'express-json';
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  await h.reset();
});

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface PushAuth {
  token?: string;
  authentication?: { scheme: string; credentials: string };
}

/** SendMessage (returnImmediately) registering the webhook; the task id. */
async function sendWithPush(
  client: Client,
  skillId: string,
  auth: PushAuth = { token: 'tok-28' },
): Promise<string> {
  const req = sendRequest(skillId, { returnImmediately: true });
  req.configuration!.taskPushNotificationConfig = {
    tenant: '',
    id: '',
    taskId: '',
    url: hook.url,
    token: auth.token ?? '',
    authentication: auth.authentication,
  } as never;
  return asTask(await client.sendMessage(req)).id;
}

const pushSpans = (): ReadableSpan[] => h.spans('TaskPushNotification');

async function pushesFor(taskId: string, count: number): Promise<ReadableSpan[]> {
  await until(() => hook.received.length >= count);
  await h.waitForSpans(
    () => pushSpans().filter((s) => s.attributes['a2a.task.id'] === taskId).length >= count,
  );
  return pushSpans().filter((s) => s.attributes['a2a.task.id'] === taskId);
}

async function setup(
  transport: SdkTransportChoice,
  pushSender: 'v1' | 'legacy-aware' = 'v1',
): Promise<Client> {
  peer = await startSdkPeer({ name: 'push-peer', pushNotifications: true, pushSender });
  return createSdkClient(peer, transport);
}

function assertTiedToNegotiation(spans: ReadableSpan[], taskId: string): void {
  const send = h.spans('SendMessage').find((s) => s.attributes['a2a.task.id'] === taskId);
  assert.ok(send, 'the SendMessage span');
  for (const s of spans) {
    assert.equal(s.kind, SpanKind.CONSUMER);
    assert.equal(s.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(
      s.attributes['a2a.agent_card.fingerprint'],
      send.attributes['a2a.agent_card.fingerprint'],
    );
    assert.equal(s.attributes['a2a.lifecycle.negotiation_known'], true);
    assert.equal(s.links[0]?.context.spanId, send.spanContext().spanId);
  }
}

test('1.0 healthy task delivered by push: one span per push, no drift, tied to the negotiation', async () => {
  const client = await setup('jsonrpc');
  const taskId = await sendWithPush(client, 'summarize-v2');
  const spans = await pushesFor(taskId, 4); // task SUBMITTED, WORKING, artifact, COMPLETED
  assert.equal(spans.length, 4);
  assert.deepEqual(drifted(spans), []);
  assertTiedToNegotiation(spans, taskId);
  const states = spans.map((s) => s.attributes['a2a.task.state']);
  assert.ok(states.includes('TASK_STATE_SUBMITTED'));
  assert.ok(states.includes('TASK_STATE_COMPLETED'));
  assert.deepEqual(spans.map((s) => s.attributes['a2a.push.payload']).sort(), [
    'artifact-update',
    'status-update',
    'status-update',
    'task',
  ]);
  for (const s of spans) assert.notEqual(s.status.code, SpanStatusCode.ERROR);
  assert.equal(await h.driftCount(), 0);
});

test('1.0 variant A by push (Authorization credentials): unknown_skill on the push span, counter, callback', async () => {
  const client = await setup('jsonrpc');
  peer!.redeploy([TRANSLATE_SKILL]); // same version: the client holds the old card
  const events: DriftEvent[] = [];
  const off = onAgentCardDrift((e) => void events.push(e));
  try {
    const taskId = await sendWithPush(client, 'summarize-v2', {
      authentication: { scheme: 'Bearer', credentials: 'cred-28' },
    });
    const spans = await pushesFor(taskId, 2); // task SUBMITTED, statusUpdate FAILED
    assert.equal(hook.received[0].headers['authorization'], 'Bearer cred-28');
    const d = drifted(spans);
    assert.equal(d.length, 1);
    assert.equal(d[0].attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(d[0].attributes['error.type'], 'StaleAgentCardError');
    assert.equal(d[0].attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.equal(d[0].status.code, SpanStatusCode.ERROR);
    assertTiedToNegotiation(spans, taskId);
    assert.equal(await h.driftCount({ 'a2a.drift.kind': 'unknown_skill' }), 1);
    await until(() => events.length === 1);
    assert.equal(events[0].taskId, taskId);
    assert.equal(events[0].skillId, 'summarize-v2');
  } finally {
    off();
  }
});

test('1.0 variant B by push: output_mode_mismatch on the artifactUpdate push, none on COMPLETED', async () => {
  const client = await setup('jsonrpc');
  peer!.redeploy([SUMMARIZE_PLAIN_SKILL]); // same id, now text/plain
  const taskId = await sendWithPush(client, 'summarize-v2');
  const spans = await pushesFor(taskId, 4);
  const d = drifted(spans);
  assert.equal(d.length, 1);
  assert.equal(d[0].attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(d[0].attributes['error.type'], 'ArtifactSchemaDriftError');
  assert.equal(d[0].attributes['a2a.push.payload'], 'artifact-update');
  assert.equal(d[0].attributes['a2a.drift.actual_media_type'], 'text/plain');
  assertTiedToNegotiation(spans, taskId);
});

test('0.3 pushes (full Task snapshots, legacy-aware sender): both variants caught, healthy clean', async () => {
  const client = await setup('v03-jsonrpc', 'legacy-aware');
  const healthy = await sendWithPush(client, 'summarize-v2');
  const ok = await pushesFor(healthy, 4);
  assert.equal(String(hook.received[0].headers['content-type']), 'application/json');
  assert.deepEqual(drifted(ok), []);
  assertTiedToNegotiation(ok, healthy);
  assert.equal(ok[0].attributes['a2a.push.payload'], 'task');

  hook.received.length = 0;
  peer!.redeploy([TRANSLATE_SKILL]);
  const failed = await sendWithPush(client, 'summarize-v2');
  const a = drifted(await pushesFor(failed, 2));
  assert.equal(a.length, 1);
  assert.equal(a[0].attributes['a2a.drift.kind'], 'unknown_skill');

  hook.received.length = 0;
  // 0.3 text parts carry no media type: only the seed's strict reading tells text/plain from
  // the card's text/markdown (as for polled or streamed 0.3 answers)
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, strictTextParts: true });
  peer!.redeploy([SUMMARIZE_PLAIN_SKILL]);
  const reused = await sendWithPush(client, 'summarize-v2');
  const b = drifted(await pushesFor(reused, 4));
  assert.ok(b.length >= 1, 'the snapshots carrying the artifact drift');
  assert.equal(b[0].attributes['a2a.drift.kind'], 'output_mode_mismatch');
});

test('forged pushes (wrong token, unknown task, no token) get no span and no drift', async () => {
  const client = await setup('jsonrpc');
  const taskId = await sendWithPush(client, 'summarize-v2');
  await pushesFor(taskId, 4);
  h.exporter.reset(); // the negotiation stays remembered
  const drifts = await h.driftCount();
  const failed = (id: string) =>
    JSON.stringify({
      statusUpdate: {
        taskId: id,
        contextId: 'c',
        status: {
          state: 'TASK_STATE_FAILED',
          message: {
            messageId: 'm',
            role: 'ROLE_AGENT',
            parts: [{ text: 'unknown skill: summarize-v2' }],
          },
        },
      },
    });
  const post = (body: string, headers: Record<string, string>) =>
    realFetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', ...headers },
      body,
    });
  hook.received.length = 0;
  await post(failed(taskId), { 'x-a2a-notification-token': 'not-the-token' });
  await post(failed(taskId), { authorization: 'Bearer tok-28' });
  await post(failed(taskId), {});
  await post(failed('no-such-task'), { 'x-a2a-notification-token': 'tok-28' });
  await until(() => hook.received.length === 4);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(pushSpans(), []);
  assert.equal(await h.driftCount(), drifts);
  // the genuine token on the same body is judged (the forged ones were refused, not missed)
  await post(failed(taskId), { 'x-a2a-notification-token': 'tok-28' });
  await h.waitForSpans(() => pushSpans().length === 1);
  assert.equal(pushSpans()[0].attributes['a2a.drift.kind'], 'unknown_skill');
});

for (const mode of ['express-json', 'data-events', 'async-iteration', 'late', 'never'] as const) {
  test(`the webhook handler reading its body by ${mode} reads what the agent sent, and the pushes are judged`, async () => {
    const client = await setup('jsonrpc');
    hook.mode = mode;
    const taskId = await sendWithPush(client, 'summarize-v2');
    const spans = await pushesFor(taskId, 4);
    assert.equal(spans.length, 4);
    assert.equal(sent.length, 4);
    const sentBodies = sent.map((b) => b.toString('utf8')).sort();
    if (mode === 'express-json') {
      assert.deepEqual(
        hook.received.map((r) => JSON.stringify(r.parsed)).sort(),
        sentBodies.map((b) => JSON.stringify(JSON.parse(b))).sort(),
      );
    } else if (mode !== 'never') {
      assert.deepEqual(hook.received.map((r) => r.body!.toString('utf8')).sort(), sentBodies);
    }
  });
}

test('a 5 MiB push: the handler reads every byte; over the inspection cap it is not judged', async () => {
  const client = await setup('jsonrpc');
  const taskId = await sendWithPush(client, 'summarize-v2');
  await pushesFor(taskId, 4);
  h.exporter.reset(); // the negotiation stays remembered
  hook.received.length = 0;
  hook.mode = 'data-events';
  const big = JSON.stringify({
    statusUpdate: {
      taskId,
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING' },
      metadata: { pad: 'x'.repeat(5 * 1024 * 1024) },
    },
  });
  const res = await realFetch(hook.url, {
    method: 'POST',
    headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': 'tok-28' },
    body: big,
  });
  assert.equal(res.status, 200);
  await until(() => hook.received.length === 1);
  assert.equal(hook.received[0].body!.length, Buffer.byteLength(big));
  assert.ok(hook.received[0].body!.equals(Buffer.from(big)));
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(pushSpans(), [], 'over maxInspectBytes (4 MiB): not judged');
  // the same push under the cap is judged
  hook.received.length = 0;
  const small = big.replace('x'.repeat(5 * 1024 * 1024), 'x'.repeat(1024 * 1024));
  await realFetch(hook.url, {
    method: 'POST',
    headers: { 'content-type': 'application/a2a+json', 'x-a2a-notification-token': 'tok-28' },
    body: small,
  });
  await until(() => hook.received.length === 1);
  assert.ok(hook.received[0].body!.equals(Buffer.from(small)));
  await h.waitForSpans(() => pushSpans().length === 1);
});

test('HTTP+JSON binding: the webhook registered on POST /message:send is watched; variant A caught', async () => {
  const client = await setup('rest');
  peer!.redeploy([TRANSLATE_SKILL]);
  const taskId = await sendWithPush(client, 'summarize-v2');
  const spans = await pushesFor(taskId, 2);
  const d = drifted(spans);
  assert.equal(d.length, 1);
  assert.equal(d[0].attributes['a2a.drift.kind'], 'unknown_skill');
  assertTiedToNegotiation(spans, taskId);
});

for (const transport of ['jsonrpc', 'v03-jsonrpc'] as const) {
  test(`CreateTaskPushNotificationConfig (${transport === 'jsonrpc' ? '1.0' : '0.3 tasks/pushNotificationConfig/set'}) registers the webhook for a task already negotiated`, async () => {
    const client = await setup(transport, transport === 'jsonrpc' ? 'v1' : 'legacy-aware');
    peer!.setBehaviour({ settleDelayMs: 300 }); // time to register before the task moves on
    peer!.redeploy([TRANSLATE_SKILL]);
    const sent = asTask(
      await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
    );
    await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId: sent.id,
      url: hook.url,
      token: 'tok-set',
      authentication: undefined,
    });
    const spans = await pushesFor(sent.id, 1); // the FAILED update
    const d = drifted(spans);
    assert.equal(d.length, 1);
    assert.equal(d[0].attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(hook.received.at(-1)?.headers['x-a2a-notification-token'], 'tok-set');
    assertTiedToNegotiation(spans, sent.id);
  });
}
