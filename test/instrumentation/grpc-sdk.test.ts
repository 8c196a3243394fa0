/**
 * The gRPC binding against the real @a2a-js/sdk 1.3: one DefaultRequestHandler served over
 * JSON-RPC, HTTP+JSON and gRPC (@grpc/grpc-js), a card that lists GRPC first, the SDK client
 * through ClientFactory (it picks gRPC) and through an explicit GrpcTransportFactory transport.
 *
 * The instrumentation is enabled before the SDK's gRPC modules load (dynamic imports in
 * `before`): its client class is made when that module loads, as for any module patching.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { drifted, activeCallCount, setupOtel, type Harness } from '../helpers/otel';
import { onAgentCardDrift, type DriftEvent } from '../../src/index';
import type { SdkPeer } from '../peers/sdk-peer';
import type { Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';

type PeerModule = typeof import('../peers/sdk-peer.js');
type ClientModule = typeof import('../peers/sdk-client.js');
type SdkClientModule = typeof import('@a2a-js/sdk/client');
type SdkGrpcModule = typeof import('@a2a-js/sdk/client/grpc');

let h: Harness;
let peers: PeerModule;
let helpers: ClientModule;
let sdkClient: SdkClientModule;
let sdkGrpc: SdkGrpcModule;
let peer: SdkPeer;
const events: DriftEvent[] = [];
let removeCallback: () => void;
/** Calls the app's own per-call interceptor saw (explicit transport). */
let appInterceptorCalls = 0;

before(async () => {
  h = setupOtel();
  removeCallback = onAgentCardDrift((e) => {
    events.push(e);
  });
  peers = await import('../peers/sdk-peer.js');
  helpers = await import('../peers/sdk-client.js');
  sdkClient = await import('@a2a-js/sdk/client');
  sdkGrpc = await import('@a2a-js/sdk/client/grpc');
});

after(async () => {
  removeCallback();
  await peer?.close();
  await h.shutdown();
});

beforeEach(async () => {
  if (peer) await peer.close();
  peer = await peers.startSdkPeer({ name: 'peer-g', grpc: true });
  await h.reset();
  events.length = 0;
});

/** What a test drives: the SDK's Client (factory) or a bare GrpcTransport (explicit). */
interface Driver {
  sendMessage(req: SendMessageRequest): Promise<Message | Task>;
  sendMessageStream(req: SendMessageRequest): AsyncIterable<StreamResponse>;
  getTask(id: string): Promise<Task>;
}

type Via = 'factory' | 'explicit';

async function driver(p: SdkPeer, via: Via): Promise<Driver> {
  if (via === 'factory') {
    const factory = new sdkClient.ClientFactory(
      sdkClient.ClientFactoryOptions.createFrom(sdkClient.ClientFactoryOptions.default, {
        transports: [
          new sdkGrpc.GrpcTransportFactory(),
          new sdkClient.JsonRpcTransportFactory(),
          new sdkClient.RestTransportFactory(),
        ],
      }),
    );
    const client = await factory.createFromUrl(p.baseUrl);
    return {
      sendMessage: (r) => client.sendMessage(r),
      sendMessageStream: (r) => client.sendMessageStream(r),
      getTask: (id) => client.getTask({ tenant: '', id, historyLength: undefined }),
    };
  }
  // explicit: the card fetched by the app, the transport made by GrpcTransportFactory with the
  // app's own per-call interceptor (grpc-js then ignores client-level interceptors)
  const card = await (await fetch(p.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json();
  const factory = new sdkGrpc.GrpcTransportFactory({
    grpcCallOptions: {
      interceptors: [
        ((options: unknown, nextCall: (o: unknown) => unknown) => {
          appInterceptorCalls++;
          return nextCall(options);
        }) as never,
      ],
    },
  });
  const transport = await factory.create(p.grpcTarget!, card as never);
  // what the SDK's Client adds to every call: the protocol version
  const options = { serviceParameters: { 'A2A-Version': '1.0' } };
  return {
    sendMessage: (r) => transport.sendMessage(r, options),
    sendMessageStream: (r) => transport.sendMessageStream(r, options),
    getTask: (id) => transport.getTask({ tenant: '', id, historyLength: undefined }, options),
  };
}

async function collect(s: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of s) out.push(e);
  return out;
}

function only(name: string): ReadableSpan {
  const list = h.spans(name);
  assert.equal(list.length, 1, `one ${name} span, got ${list.length}`);
  return list[0];
}

async function waitForCallback(n: number): Promise<void> {
  const until = Date.now() + 2000;
  while (events.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
}

for (const via of ['factory', 'explicit'] as Via[]) {
  describe(`SDK client over gRPC (${via})`, () => {
    test('healthy SendMessage: one CLIENT span, binding grpc, RPC attributes, the card of the GRPC interface, child of the caller', async () => {
      const d = await driver(peer, via);
      const before = appInterceptorCalls;
      const tracer = trace.getTracer('app');
      const task = helpers.asTask(
        await tracer.startActiveSpan('app-work', async (s) => {
          try {
            return await d.sendMessage(helpers.sendRequest('summarize-v2'));
          } finally {
            s.end();
          }
        }),
      );
      await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
      const send = only('SendMessage');
      const app = only('app-work');
      const card = only('GetAgentCard');
      const a = send.attributes;
      assert.equal(send.kind, SpanKind.CLIENT);
      assert.equal(send.parentSpanContext?.spanId, app.spanContext().spanId, 'child of the caller');
      assert.equal(a['a2a.binding'], 'grpc');
      assert.equal(a['a2a.method.name'], 'SendMessage');
      assert.equal(a['a2a.protocol.version'], '1.0');
      assert.equal(a['rpc.system'], 'grpc');
      assert.equal(a['rpc.service'], 'lf.a2a.v1.A2AService');
      assert.equal(a['rpc.method'], 'SendMessage');
      assert.equal(a['rpc.grpc.status_code'], 0);
      assert.equal(a['server.address'], '127.0.0.1');
      assert.equal(a['server.port'], Number(peer.grpcTarget!.split(':')[1]));
      assert.equal(a['a2a.task.id'], task.id);
      assert.equal(a['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(a['a2a.skill.id'], 'summarize-v2');
      assert.equal(a['gen_ai.agent.name'], 'peer-g');
      assert.equal(a['a2a.agent_card.fingerprint'], card.attributes['a2a.agent_card.fingerprint']);
      assert.equal(a['a2a.agent_card.url'], peer.cardUrl);
      assert.equal(a['http.response.status_code'], undefined);
      assert.notEqual(send.status.code, SpanStatusCode.ERROR);
      assert.equal(drifted(h.spans()).length, 0);
      assert.equal(await h.driftCount(), 0);
      if (via === 'explicit')
        assert.equal(appInterceptorCalls, before + 1, "the app's own interceptor still runs");
    });

    test('variant A (skill swapped, same card version): unknown_skill on the span, counter, callback', async () => {
      const d = await driver(peer, via);
      peer.redeploy([peers.TRANSLATE_SKILL]);
      const task = helpers.asTask(await d.sendMessage(helpers.sendRequest('summarize-v2')));
      assert.equal(task.status?.state, 4, 'the peer failed the task (TASK_STATE_FAILED = 4)');
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.name, 'SendMessage');
      assert.equal(span.attributes['a2a.binding'], 'grpc');
      assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
      assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
      assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(
        await h.driftCount({ 'a2a.drift.kind': 'unknown_skill', 'gen_ai.agent.name': 'peer-g' }),
        1,
      );
      await waitForCallback(1);
      assert.equal(events.length, 1);
      assert.equal(events[0].taskId, task.id);
      assert.equal(events[0].cardUrl, peer.cardUrl);
    });

    test('variant B (same skill id now answers text/plain): output_mode_mismatch', async () => {
      const d = await driver(peer, via);
      peer.redeploy([peers.SUMMARIZE_PLAIN_SKILL]);
      await d.sendMessage(helpers.sendRequest('summarize-v2'));
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
      assert.deepEqual(span.attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
      assert.equal(span.attributes['a2a.drift.actual_media_type'], 'text/plain');
    });

    test('a client naming no skill, an answer of a type no skill of the card lists: output_mode_mismatch, scope card', async () => {
      await peer.close();
      peer = await peers.startSdkPeer({
        name: 'peer-g',
        grpc: true,
        skills: [peers.DEFAULT_SKILL, { id: 'translate-v1', outputModes: ['text/plain'] }],
      });
      const d = await driver(peer, via);
      peer.redeploy([
        { ...peers.DEFAULT_SKILL, outputModes: ['image/png'] },
        { id: 'translate-v1', outputModes: ['text/plain'] },
      ]);
      await d.sendMessage(helpers.sendRequest(undefined));
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
      assert.equal(span.attributes['a2a.drift.scope'], 'card');
      assert.equal(span.attributes['a2a.skill.id'], undefined);
      assert.equal(span.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    test('streaming: one span with its events; healthy not flagged; variant A and B judged on stream messages', async () => {
      const d = await driver(peer, via);
      const healthyEvents = await collect(d.sendMessageStream(helpers.sendRequest('summarize-v2')));
      await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
      const healthy = only('SendStreamingMessage');
      assert.equal(healthy.attributes['a2a.binding'], 'grpc');
      assert.equal(healthy.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(healthy.attributes['a2a.stream.event_count'], healthyEvents.length);
      assert.equal(healthy.attributes['rpc.grpc.status_code'], 0);
      assert.equal(drifted(h.spans()).length, 0);

      peer.redeploy([peers.TRANSLATE_SKILL]);
      await collect(d.sendMessageStream(helpers.sendRequest('summarize-v2')));
      await h.waitForSpans((s) => drifted(s).length === 1);
      assert.equal(drifted(h.spans())[0].attributes['a2a.drift.kind'], 'unknown_skill');
      assert.equal(drifted(h.spans())[0].name, 'SendStreamingMessage');

      peer.redeploy([peers.SUMMARIZE_PLAIN_SKILL]);
      await collect(d.sendMessageStream(helpers.sendRequest('summarize-v2')));
      await h.waitForSpans((s) => drifted(s).length === 2);
      assert.deepEqual(
        drifted(h.spans()).map((s) => s.attributes['a2a.drift.kind']),
        ['unknown_skill', 'output_mode_mismatch'],
      );
      assert.equal(activeCallCount(h), 0);
    });
  });
}

test('GetTask polls: judged against the SendMessage negotiation; variant A seen on the poll', async () => {
  peer.setBehaviour({ settleDelayMs: 60 });
  const d = await driver(peer, 'factory');
  const healthy = helpers.asTask(
    await d.sendMessage(helpers.sendRequest('summarize-v2', { returnImmediately: true })),
  );
  assert.equal(healthy.status?.state, 1, 'SUBMITTED first');
  let polled: Task = healthy;
  for (let i = 0; i < 100 && polled.status?.state !== 3; i++) {
    await new Promise((r) => setTimeout(r, 10));
    polled = await d.getTask(healthy.id);
  }
  assert.equal(polled.status?.state, 3);
  await h.waitForSpans((s) =>
    s.some((x) => x.attributes['a2a.task.state'] === 'TASK_STATE_COMPLETED'),
  );
  const polls = h.spans('GetTask');
  assert.ok(polls.length >= 1);
  for (const p of polls) {
    assert.equal(p.attributes['a2a.binding'], 'grpc');
    assert.equal(p.attributes['a2a.task.id'], healthy.id);
    assert.equal(p.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(p.attributes['a2a.lifecycle.negotiation_known'], true);
    assert.equal(p.links.length, 1, 'linked to the SendMessage span');
  }
  assert.equal(drifted(h.spans()).length, 0);

  // the redeploy lands between the accepted SendMessage and the poll that sees the failure
  const doomed = helpers.asTask(
    await d.sendMessage(helpers.sendRequest('summarize-v2', { returnImmediately: true })),
  );
  peer.redeploy([peers.TRANSLATE_SKILL]);
  let last: Task = doomed;
  for (let i = 0; i < 100 && last.status?.state !== 4; i++) {
    await new Promise((r) => setTimeout(r, 10));
    last = await d.getTask(doomed.id);
  }
  assert.equal(last.status?.state, 4);
  await h.waitForSpans((s) => drifted(s).length === 1);
  const [span] = drifted(h.spans());
  assert.equal(span.name, 'GetTask');
  assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(span.attributes['a2a.task.id'], doomed.id);
});

test('gRPC error statuses: NOT_FOUND for an unknown task is an error span with its status code, never drift', async () => {
  const d = await driver(peer, 'factory');
  await assert.rejects(d.getTask('no-such-task'));
  await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
  const span = only('GetTask');
  assert.equal(span.attributes['rpc.grpc.status_code'], 5);
  assert.equal(span.attributes['error.type'], '5');
  assert.equal(span.status.code, SpanStatusCode.ERROR);
  assert.match(span.status.message ?? '', /TASK_NOT_FOUND|NOT_FOUND/);
  assert.equal(span.attributes['a2a.drift.kind'], undefined);
  assert.equal(await h.driftCount(), 0);
});

test('two agents over gRPC: a redeploy of one is judged against its own card only', async () => {
  const other = await peers.startSdkPeer({ name: 'peer-h', grpc: true });
  try {
    const a = await driver(peer, 'factory');
    const b = await driver(other, 'factory');
    peer.redeploy([peers.TRANSLATE_SKILL]);
    await a.sendMessage(helpers.sendRequest('summarize-v2'));
    await b.sendMessage(helpers.sendRequest('summarize-v2'));
    await collect(b.sendMessageStream(helpers.sendRequest('summarize-v2')));
    await h.waitForSpans(
      (s) => s.filter((x) => x.attributes['a2a.binding'] === 'grpc').length === 3,
    );
    const grpcSpans = h.spans().filter((x) => x.attributes['a2a.binding'] === 'grpc');
    const byAgent = (n: string) => grpcSpans.filter((x) => x.attributes['gen_ai.agent.name'] === n);
    assert.equal(byAgent('peer-g').length, 1);
    assert.equal(byAgent('peer-h').length, 2);
    assert.equal(byAgent('peer-g')[0].attributes['a2a.drift.kind'], 'unknown_skill');
    for (const s of byAgent('peer-h')) {
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
      assert.equal(s.attributes['a2a.agent_card.url'], other.cardUrl);
    }
  } finally {
    await other.close();
  }
});

test('enforce mode: a call that shows drift fails with FAILED_PRECONDITION (unary and stream); healthy calls unchanged', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, mode: 'enforce' });
  try {
    const d = await driver(peer, 'factory');
    const ok = helpers.asTask(await d.sendMessage(helpers.sendRequest('summarize-v2')));
    assert.equal(ok.status?.state, 3);
    assert.equal(
      (await collect(d.sendMessageStream(helpers.sendRequest('summarize-v2')))).length > 1,
      true,
    );
    peer.redeploy([peers.TRANSLATE_SKILL]);
    const unary = await d.sendMessage(helpers.sendRequest('summarize-v2')).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(unary instanceof Error, 'SendMessage rejected');
    assert.equal((unary as { status?: unknown }).status, 9, 'gRPC FAILED_PRECONDITION');
    assert.match(unary.message, /StaleAgentCardError/);
    const seen: StreamResponse[] = [];
    const stream = await (async () => {
      for await (const e of d.sendMessageStream(helpers.sendRequest('summarize-v2'))) seen.push(e);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(stream instanceof Error, 'the stream errors');
    assert.equal((stream as { status?: unknown }).status, 9);
    assert.ok(
      seen.every((e) => e.payload?.$case !== 'statusUpdate' || e.payload.value.status?.state !== 4),
      'the message showing drift is not handed to the app',
    );
    await h.waitForSpans((s) => drifted(s).length === 2);
    assert.equal(activeCallCount(h), 0);
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});
