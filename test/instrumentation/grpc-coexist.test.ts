/**
 * The gRPC binding with @opentelemetry/instrumentation-grpc also loaded (both enabled before the
 * SDK's gRPC modules load): both spans for each call, one nested in the other, and the A2A
 * judgement unchanged.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { SpanKind } from '@opentelemetry/api';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import type { SdkPeer } from '../peers/sdk-peer';

let h: Harness;
let grpcInstrumentation: GrpcInstrumentation;
let peer: SdkPeer;
let peers: typeof import('../peers/sdk-peer.js');
let helpers: typeof import('../peers/sdk-client.js');
let sdkClient: typeof import('@a2a-js/sdk/client');
let sdkGrpc: typeof import('@a2a-js/sdk/client/grpc');

before(async () => {
  h = setupOtel();
  grpcInstrumentation = new GrpcInstrumentation();
  grpcInstrumentation.setTracerProvider(h.provider);
  grpcInstrumentation.enable();
  // required (CommonJS), as instrumentation-grpc hooks require(); our hook sees both ways
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@grpc/grpc-js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  sdkGrpc = require('@a2a-js/sdk/client/grpc') as typeof import('@a2a-js/sdk/client/grpc');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  sdkClient = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client');
  peers = await import('../peers/sdk-peer.js');
  helpers = await import('../peers/sdk-client.js');
  peer = await peers.startSdkPeer({ name: 'peer-c', grpc: true });
});

after(async () => {
  await peer?.close();
  grpcInstrumentation.disable();
  await h.shutdown();
});

test('instrumentation-grpc and ours: both spans, nested, same trace; drift still judged', async () => {
  const factory = new sdkClient.ClientFactory(
    sdkClient.ClientFactoryOptions.createFrom(sdkClient.ClientFactoryOptions.default, {
      transports: [new sdkGrpc.GrpcTransportFactory(), new sdkClient.JsonRpcTransportFactory()],
    }),
  );
  const client = await factory.createFromUrl(peer.baseUrl);
  await client.sendMessage(helpers.sendRequest('summarize-v2'));
  await helpers.collect(client.sendMessageStream(helpers.sendRequest('summarize-v2')));
  peer.redeploy([peers.TRANSLATE_SKILL]);
  await client.sendMessage(helpers.sendRequest('summarize-v2'));
  const spans = await h.waitForSpans(
    (s) =>
      s.filter((x) => x.instrumentationScope.name === '@opentelemetry/instrumentation-grpc')
        .length >= 6 && s.filter((x) => x.attributes['a2a.binding'] === 'grpc').length === 3,
  );
  const grpcClient = spans.filter(
    (x) =>
      x.instrumentationScope.name === '@opentelemetry/instrumentation-grpc' &&
      x.kind === SpanKind.CLIENT,
  );
  const ours = spans.filter((x) => x.attributes['a2a.binding'] === 'grpc');
  assert.deepEqual(
    ours.map((s) => s.name),
    ['SendMessage', 'SendStreamingMessage', 'SendMessage'],
  );
  assert.equal(grpcClient.length, 3, "instrumentation-grpc's CLIENT span for each call");
  for (const a2a of ours) {
    // instrumentation-grpc wraps the client class's methods around the call; our interceptor
    // runs inside them: the A2A span is the child of its gRPC CLIENT span, in the same trace
    const parent = grpcClient.find((g) => g.spanContext().spanId === a2a.parentSpanContext?.spanId);
    assert.ok(parent, `${a2a.name} nested under a gRPC client span`);
    assert.equal(parent.spanContext().traceId, a2a.spanContext().traceId);
    assert.equal(parent.name, `grpc.lf.a2a.v1.A2AService/${a2a.name}`);
  }
  assert.deepEqual(
    drifted(spans).map((s) => [s.name, s.attributes['a2a.drift.kind']]),
    [['SendMessage', 'unknown_skill']],
  );
});
