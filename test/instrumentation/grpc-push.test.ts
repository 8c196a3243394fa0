/**
 * Push notifications over the gRPC binding, with the real @a2a-js/sdk 1.3 (its gRPC server and
 * its 1.0 push sender; the SDK client through ClientFactory picking GRPC): the push-config
 * methods (Create/Get/List/DeleteTaskPushNotificationConfig) are operations with their spans,
 * and the webhook a gRPC SendMessage or CreateTaskPushNotificationConfig registers is watched as
 * on the JSON bindings: each genuine push is a CONSUMER span judged against the task's
 * negotiation (variant A caught, healthy clean).
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import type { SdkPeer } from '../peers/sdk-peer';
import type { Client } from '@a2a-js/sdk/client';

type PeerModule = typeof import('../peers/sdk-peer.js');
type ClientModule = typeof import('../peers/sdk-client.js');

let h: Harness;
let peers: PeerModule;
let helpers: ClientModule;
let sdkClient: typeof import('@a2a-js/sdk/client');
let sdkGrpc: typeof import('@a2a-js/sdk/client/grpc');
let peer: SdkPeer | undefined;
let hookServer: http.Server;
let hookUrl = '';
const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
const realInfo = console.info;

before(async () => {
  console.info = () => {}; // the SDK's push sender logs every push sent
  h = setupOtel();
  peers = await import('../peers/sdk-peer.js');
  helpers = await import('../peers/sdk-client.js');
  sdkClient = await import('@a2a-js/sdk/client');
  sdkGrpc = await import('@a2a-js/sdk/client/grpc');
  hookServer = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hooks/a2a`;
});

after(async () => {
  console.info = realInfo;
  await peer?.close();
  await new Promise<void>((r) => {
    hookServer.close(() => r());
    hookServer.closeAllConnections();
  });
  await h.shutdown();
});

beforeEach(async () => {
  await peer?.close();
  received.length = 0;
  peer = await peers.startSdkPeer({ name: 'push-grpc', grpc: true, pushNotifications: true });
  await h.reset();
});

async function client(): Promise<Client> {
  const factory = new sdkClient.ClientFactory(
    sdkClient.ClientFactoryOptions.createFrom(sdkClient.ClientFactoryOptions.default, {
      transports: [new sdkGrpc.GrpcTransportFactory(), new sdkClient.JsonRpcTransportFactory()],
    }),
  );
  return factory.createFromUrl(peer!.baseUrl);
}

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const pushSpans = (taskId: string): ReadableSpan[] =>
  h.spans('TaskPushNotification').filter((s) => s.attributes['a2a.task.id'] === taskId);

async function pushesFor(taskId: string, count: number): Promise<ReadableSpan[]> {
  await until(() => received.length >= count);
  await h.waitForSpans(() => pushSpans(taskId).length >= count);
  return pushSpans(taskId);
}

function pushConfig(taskId: string, token: string) {
  return { tenant: '', id: '', taskId, url: hookUrl, token, authentication: undefined };
}

test('SendMessage over gRPC registering a webhook: healthy pushes clean, tied to the gRPC negotiation', async () => {
  const c = await client();
  const req = helpers.sendRequest('summarize-v2', { returnImmediately: true });
  req.configuration!.taskPushNotificationConfig = pushConfig('', 'tok-g') as never;
  const task = helpers.asTask(await c.sendMessage(req));
  const spans = await pushesFor(task.id, 4); // task SUBMITTED, WORKING, artifact, COMPLETED
  assert.equal(received[0].headers['x-a2a-notification-token'], 'tok-g');
  assert.deepEqual(drifted(spans), []);
  const send = h.spans('SendMessage')[0];
  assert.equal(send.attributes['a2a.binding'], 'grpc');
  for (const s of spans) {
    assert.equal(s.kind, SpanKind.CONSUMER);
    assert.equal(s.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(s.attributes['a2a.lifecycle.negotiation_known'], true);
    assert.equal(s.links[0]?.context.spanId, send.spanContext().spanId);
  }
  assert.equal(await h.driftCount(), 0);
});

test('SendMessage over gRPC registering a webhook, variant A: unknown_skill on the push span', async () => {
  const c = await client();
  peer!.redeploy([peers.TRANSLATE_SKILL]);
  const req = helpers.sendRequest('summarize-v2', { returnImmediately: true });
  req.configuration!.taskPushNotificationConfig = pushConfig('', 'tok-a') as never;
  const task = helpers.asTask(await c.sendMessage(req));
  const spans = await pushesFor(task.id, 2); // task SUBMITTED, statusUpdate FAILED
  const d = drifted(spans);
  assert.equal(d.length, 1);
  assert.equal(d[0].attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(d[0].attributes['a2a.task.state'], 'TASK_STATE_FAILED');
  assert.equal(d[0].status.code, SpanStatusCode.ERROR);
});

test('Create/Get/List/DeleteTaskPushNotificationConfig over gRPC: one span each, binding grpc; Create registers the webhook (variant A caught)', async () => {
  peer!.setBehaviour({ settleDelayMs: 300 }); // time to register before the task moves on
  const c = await client();
  peer!.redeploy([peers.TRANSLATE_SKILL]);
  const task = helpers.asTask(
    await c.sendMessage(helpers.sendRequest('summarize-v2', { returnImmediately: true })),
  );
  const created = await c.createTaskPushNotificationConfig(pushConfig(task.id, 'tok-set'));
  const got = await c.getTaskPushNotificationConfig({
    tenant: '',
    taskId: task.id,
    id: created.id,
  });
  assert.equal(got.url, hookUrl);
  const list = await c.listTaskPushNotificationConfig({
    tenant: '',
    taskId: task.id,
    pageSize: 0,
    pageToken: '',
  });
  assert.equal(list.configs.length, 1);
  const spans = await pushesFor(task.id, 1); // at least the FAILED update
  await until(() => drifted(pushSpans(task.id)).length === 1);
  assert.equal(received.at(-1)?.headers['x-a2a-notification-token'], 'tok-set');
  assert.equal(drifted(pushSpans(task.id))[0].attributes['a2a.drift.kind'], 'unknown_skill');
  assert.ok(spans.length >= 1);
  await c.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });

  for (const name of [
    'CreateTaskPushNotificationConfig',
    'GetTaskPushNotificationConfig',
    'ListTaskPushNotificationConfigs',
    'DeleteTaskPushNotificationConfig',
  ]) {
    await h.waitForSpans((s) => s.some((x) => x.name === name));
    const [s] = h.spans(name);
    assert.equal(s.kind, SpanKind.CLIENT);
    assert.equal(s.attributes['a2a.binding'], 'grpc');
    assert.equal(s.attributes['rpc.service'], 'lf.a2a.v1.A2AService');
    assert.equal(s.attributes['a2a.method.name'], name);
    assert.equal(s.attributes['rpc.grpc.status_code'], 0);
    assert.equal(s.attributes['a2a.task.id'], task.id);
    assert.equal(s.attributes['a2a.drift.kind'], undefined);
    assert.notEqual(s.status.code, SpanStatusCode.ERROR);
  }
});
