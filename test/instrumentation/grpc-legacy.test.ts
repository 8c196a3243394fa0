/**
 * The gRPC binding, A2A 0.3: @a2a-js/sdk 1.3's compatibility client (`LegacyGrpcTransport`,
 * service `a2a.v1.A2AService`, picked by `GrpcTransportFactory({ legacyCompat: { enabled: true } })`
 * for a card interface `GRPC` with protocolVersion `0.3`) against the SDK's own 0.3 gRPC server
 * (`legacyGrpcService` from `@a2a-js/sdk/compat/v0_3/server/grpc`, on @grpc/grpc-js) over the
 * same DefaultRequestHandler as the 1.0 bindings.
 *
 * The 0.3 wire differs from 1.0's: `SendMessageRequest.request` (not `message`), parts with
 * `part.$case` text/file/data, `payload.$case` `msg`, `TaskSubscription`, resource names
 * `tasks/{id}`. What must hold: a span per call with rpc.service `a2a.v1.A2AService`, protocol
 * version 0.3, the card of this GRPC interface; healthy calls zero drift; variant A
 * (skill removed, same card version) → unknown_skill. Variant B is not expressible here: 0.3 text
 * parts carry no media type (the Python SDK's 0.3 gRPC with a file part is in test/real-world).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { drifted, activeCallCount, setupOtel, type Harness } from '../helpers/otel';
import type { SdkPeer } from '../peers/sdk-peer';
import type { Client } from '@a2a-js/sdk/client';
import type { StreamResponse, Task } from '@a2a-js/sdk';

type PeerModule = typeof import('../peers/sdk-peer.js');
type ClientModule = typeof import('../peers/sdk-client.js');

let h: Harness;
let peers: PeerModule;
let helpers: ClientModule;
let sdkClient: typeof import('@a2a-js/sdk/client');
let sdkGrpc: typeof import('@a2a-js/sdk/client/grpc');
let grpc: typeof import('@grpc/grpc-js');
let legacyServer: typeof import('@a2a-js/sdk/compat/v0_3/server/grpc');
let serverExpress: typeof import('@a2a-js/sdk/server/express');
let peer: SdkPeer;
let server03: InstanceType<typeof import('@grpc/grpc-js').Server> | undefined;
let target03 = '';

before(async () => {
  h = setupOtel();
  // loaded after the instrumentation is enabled: the SDK makes its client classes as they load
  peers = await import('../peers/sdk-peer.js');
  helpers = await import('../peers/sdk-client.js');
  sdkClient = await import('@a2a-js/sdk/client');
  sdkGrpc = await import('@a2a-js/sdk/client/grpc');
  grpc = await import('@grpc/grpc-js');
  legacyServer = await import('@a2a-js/sdk/compat/v0_3/server/grpc');
  serverExpress = await import('@a2a-js/sdk/server/express');
});

after(async () => {
  server03?.forceShutdown();
  await peer?.close();
  await h.shutdown();
});

beforeEach(async () => {
  server03?.forceShutdown();
  if (peer) await peer.close();
  peer = await peers.startSdkPeer({ name: 'peer-03', grpc: true });
  // the SDK's 0.3 gRPC service over the same request handler, on its own port, listed FIRST
  const s = new grpc.Server();
  s.addService(
    legacyServer.LegacyA2AService,
    legacyServer.legacyGrpcService({
      requestHandler: peer.requestHandler,
      userBuilder: serverExpress.UserBuilder.noAuthentication,
    }),
  );
  const port = await new Promise<number>((resolve, reject) =>
    s.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  server03 = s;
  target03 = `127.0.0.1:${port}`;
  // the 1.0 GRPC interface out: ClientFactory prefers a 1.0 interface of the same binding
  const ifaces = peer.card.supportedInterfaces.filter(
    (i) => !(i.protocolBinding === 'GRPC' && i.protocolVersion === '1.0'),
  );
  peer.card.supportedInterfaces.splice(0, peer.card.supportedInterfaces.length, ...ifaces);
  peer.card.supportedInterfaces.unshift({
    url: target03,
    protocolBinding: 'GRPC',
    tenant: '',
    protocolVersion: '0.3',
  });
  await h.reset();
});

async function client(): Promise<Client> {
  const factory = new sdkClient.ClientFactory(
    sdkClient.ClientFactoryOptions.createFrom(sdkClient.ClientFactoryOptions.default, {
      transports: [
        new sdkGrpc.GrpcTransportFactory({ legacyCompat: { enabled: true } }),
        new sdkClient.JsonRpcTransportFactory(),
      ],
    }),
  );
  return factory.createFromUrl(peer.baseUrl);
}

async function collect(s: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of s) out.push(e);
  return out;
}

function grpcSpans(): ReadableSpan[] {
  return h.spans().filter((s) => s.attributes['a2a.binding'] === 'grpc');
}

describe('the SDK 0.3 gRPC client (a2a.v1.A2AService) against the SDK 0.3 gRPC server', () => {
  test('healthy SendMessage, GetTask and a stream: 0.3 spans, the card of this GRPC interface, zero drift', async () => {
    const c = await client();
    const sent = await c.sendMessage(helpers.sendRequest('summarize-v2'));
    const task = helpers.asTask(sent);
    assert.equal(task.status?.state, 3, 'COMPLETED over the 0.3 wire');
    const got: Task = await c.getTask({ tenant: '', id: task.id, historyLength: undefined });
    assert.equal(got.id, task.id);
    const events = await collect(c.sendMessageStream(helpers.sendRequest('summarize-v2')));
    assert.ok(events.length >= 2);
    await h.waitForSpans(
      (s) => s.filter((x) => x.attributes['a2a.binding'] === 'grpc').length >= 3,
    );
    const spans = grpcSpans();
    assert.deepEqual(
      spans.map((s) => s.name),
      ['SendMessage', 'GetTask', 'SendStreamingMessage'],
    );
    const card = h.spans('GetAgentCard')[0];
    assert.ok(card);
    for (const s of spans) {
      const a = s.attributes;
      assert.equal(a['rpc.system'], 'grpc');
      assert.equal(a['rpc.service'], 'a2a.v1.A2AService', 'the 0.3 service');
      assert.equal(a['a2a.protocol.version'], '0.3');
      assert.equal(a['rpc.grpc.status_code'], 0);
      assert.equal(a['server.port'], Number(target03.split(':')[1]));
      assert.equal(a['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(a['a2a.skill.id'], 'summarize-v2');
      assert.equal(a['gen_ai.agent.name'], 'peer-03');
      assert.equal(a['a2a.agent_card.fingerprint'], card.attributes['a2a.agent_card.fingerprint']);
      assert.notEqual(s.status.code, SpanStatusCode.ERROR);
    }
    assert.equal(spans[0].attributes['rpc.method'], 'SendMessage');
    assert.equal(spans[1].attributes['rpc.method'], 'GetTask');
    assert.equal(spans[1].attributes['a2a.task.id'], task.id);
    assert.equal(spans[2].attributes['rpc.method'], 'SendStreamingMessage');
    assert.equal(drifted(h.spans()).length, 0);
    assert.equal(await h.driftCount(), 0);
  });

  test('variant A (skill removed, same card version): unknown_skill on SendMessage', async () => {
    const c = await client();
    peer.redeploy([peers.TRANSLATE_SKILL]);
    const task = helpers.asTask(await c.sendMessage(helpers.sendRequest('summarize-v2')));
    assert.equal(task.status?.state, 4, 'the peer failed the task');
    await h.waitForSpans((s) => drifted(s).length === 1);
    const [span] = drifted(h.spans());
    assert.equal(span.name, 'SendMessage');
    assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(span.attributes['rpc.service'], 'a2a.v1.A2AService');
    assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(await h.driftCount({ 'a2a.drift.kind': 'unknown_skill' }), 1);
  });

  test('variant A on the 0.3 stream (TaskSubscription wire, StreamResponse msg/task/status_update): unknown_skill', async () => {
    const c = await client();
    peer.redeploy([peers.TRANSLATE_SKILL]);
    const events = await collect(c.sendMessageStream(helpers.sendRequest('summarize-v2')));
    assert.ok(events.length >= 1);
    await h.waitForSpans((s) => drifted(s).length === 1);
    const [span] = drifted(h.spans());
    assert.equal(span.name, 'SendStreamingMessage');
    assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.equal(activeCallCount(h), 0);
  });

  test('variant B over 0.3: text parts carry no media type on the 0.3 wire, so nothing is said (as on 0.3 JSON-RPC)', async () => {
    const c = await client();
    peer.redeploy([peers.SUMMARIZE_PLAIN_SKILL]);
    const task = helpers.asTask(await c.sendMessage(helpers.sendRequest('summarize-v2')));
    assert.equal(task.status?.state, 3);
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    const [span] = h.spans('SendMessage');
    assert.equal(span.attributes['rpc.service'], 'a2a.v1.A2AService');
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(drifted(h.spans()).length, 0, 'no false drift');
  });

  test('a 0.3 gRPC error status (unknown task): error span with its code, no verdict', async () => {
    const c = await client();
    await assert.rejects(c.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }));
    await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
    const [span] = h.spans('GetTask');
    assert.equal(span.attributes['rpc.service'], 'a2a.v1.A2AService');
    assert.equal(span.attributes['rpc.grpc.status_code'], 5);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.attributes['a2a.drift.kind'], undefined);
    assert.equal(await h.driftCount(), 0);
  });
});
