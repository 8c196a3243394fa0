/**
 * The instrumentation against the reference PYTHON SDK's gRPC server (`a2a-sdk` 1.3.0 with its
 * `grpc` extra, pinned with hashes in test/real-world/python/a2a-sdk/requirements.lock), run as a
 * child process by test/real-world/python/a2a-sdk/peer-process.mjs with GRPC=1. Its JSON-RPC and
 * HTTP+JSON bindings are a row of the conformance table (conformance/implementations.ts,
 * `python-a2a-sdk`); this gRPC deployment is not a row yet.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-a2a-sdk-grpc.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, messageText, sendRequest } from '../peers/sdk-client';
import {
  startPythonSdkPeer,
  venvInstalled,
  type PythonSdkPeer,
} from './python/a2a-sdk/peer-process.mjs';
import { checkGrpcSpanAttributes, grpcClient, grpcClients, legacyGrpc } from './grpc-clients';
import { FOX, getCard, spanChecks, type Json } from './lib';

const skip = venvInstalled()
  ? false
  : 'test/real-world/python/a2a-sdk/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);

/**
 * The same Python server with GRPC=1: the SDK's `grpc` extra serves `lf.a2a.v1.A2AService`
 * (GrpcHandler, 1.0) and `a2a.v1.A2AService` (CompatGrpcHandler, 0.3) on one port, listed first
 * in the card. The client: `@a2a-js/sdk` 1.3's GrpcTransportFactory through ClientFactory (it
 * picks the GRPC 1.0 interface) and its 0.3 compatibility client `LegacyGrpcTransport`. Both
 * are loaded here, after the instrumentation is enabled (the SDK makes its gRPC client classes
 * as its gRPC module loads, from the app's @grpc/grpc-js).
 */
/** A gRPC span's RPC attributes and negotiated card. */
function checkGrpcSpan(
  s: ReadableSpanLike,
  peer: PythonSdkPeer,
  card: Json,
  version: '1.0' | '0.3',
): void {
  checkGrpcSpanAttributes(
    s,
    {
      service: version === '1.0' ? 'lf.a2a.v1.A2AService' : 'a2a.v1.A2AService',
      version,
      port: peer.grpcPort,
      cardUrl: peer.cardUrl,
      card,
      agentName: 'Docs Agent',
    },
    describeSpans,
  );
}
type ReadableSpanLike = ReturnType<typeof only>;

describe('a2a-sdk (Python) over gRPC: healthy', { skip }, () => {
  let peer: PythonSdkPeer;
  let card: Json;
  before(async () => {
    await grpcClients();
    peer = await startPythonSdkPeer({ variant: 'healthy', grpc: true });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the card lists GRPC 1.0 and 0.3 first (one port); createFromUrl picks gRPC: send + stream + GetTask, zero drift', async () => {
    card = (await getCard(peer.cardUrl)).card;
    assert.deepEqual(
      card.supportedInterfaces
        .slice(0, 2)
        .map((i: Json) => [i.protocolBinding, i.protocolVersion, i.url]),
      [
        ['GRPC', '1.0', peer.grpcTarget],
        ['GRPC', '0.3', peer.grpcTarget],
      ],
    );
    await h.reset();
    const client = await grpcClient({ baseUrl: peer.baseUrl });
    const task = asTask(
      await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const part = task.artifacts[0].parts[0];
    assert.equal(part.mediaType, 'text/plain');
    assert.equal(
      part.content?.$case === 'text' && part.content.value,
      'Summary: The quick brown fox jumps over.',
    );
    const events = await collect(
      client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
    );
    assert.ok(events.length >= 3, `stream events: ${events.length}`);
    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);

    await spansSettled(4); // GetAgentCard (createFromUrl), SendMessage, SendStreamingMessage, GetTask
    for (const name of ['SendMessage', 'SendStreamingMessage', 'GetTask']) {
      const s = only(name);
      checkGrpcSpan(s, peer, card, '1.0');
      assert.equal(s.attributes['rpc.grpc.status_code'], 0);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.notEqual(s.status.code, SpanStatusCode.ERROR);
    }
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'summarize');
    assert.equal(only('SendStreamingMessage').attributes['a2a.skill.id'], 'translate');
    assert.equal(only('SendStreamingMessage').attributes['a2a.stream.event_count'], events.length);
    assert.equal(only('GetTask').attributes['a2a.task.id'], task.id);
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test("the SDK's 0.3 gRPC client (a2a.v1.A2AService) on the Python CompatGrpcHandler: send + stream, zero drift", async () => {
    await getCard(peer.cardUrl); // the app's card fetch (the negotiation)
    await spansSettled(1);
    h.exporter.reset();
    const t = await legacyGrpc(peer.grpcTarget!);
    const res = await t.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` }));
    const task = asTask(res as never);
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const events = await collect(
      t.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
    );
    assert.ok(events.length >= 2);
    await spansSettled(2);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const s = only(name);
      checkGrpcSpan(s, peer, card, '0.3');
      assert.equal(s.attributes['rpc.grpc.status_code'], 0);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('a gRPC error status (GetTask of an unknown task → NOT_FOUND, 1.0 and 0.3): error spans, no verdict', async () => {
    const client = await grpcClient({ card });
    await assert.rejects(
      client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }),
    );
    const t = await legacyGrpc(peer.grpcTarget!);
    await assert.rejects(t.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }));
    await spansSettled(2);
    const spans = h.spans('GetTask');
    assert.equal(spans.length, 2, describeSpans());
    for (const s of spans) {
      assert.equal(s.attributes['rpc.grpc.status_code'], 5, describeSpans());
      assert.equal(s.status.code, SpanStatusCode.ERROR);
      assert.match(s.status.message ?? '', /NOT_FOUND/);
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
    }
    assert.deepEqual(
      spans.map((s) => s.attributes['rpc.service']),
      ['lf.a2a.v1.A2AService', 'a2a.v1.A2AService'],
    );
    assert.equal(await h.driftCount(), 0);
  });
});

/** The healthy card (with its GRPC interfaces), then the variant on the SAME ports. */
async function cacheHealthyGrpcCardThenRedeploy(
  variant: 'A' | 'B',
  unknownSkill?: 'status' | 'raise',
): Promise<{ peer: PythonSdkPeer; card: Json }> {
  await grpcClients();
  const healthy = await startPythonSdkPeer({ variant: 'healthy', grpc: true });
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl)).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  const peer = await startPythonSdkPeer({
    variant,
    port: healthy.port,
    grpc: true,
    grpcPort: healthy.grpcPort,
    unknownSkill,
  });
  return { peer, card };
}

describe(
  'a2a-sdk (Python) over gRPC: variant A (translate removed, same card version)',
  { skip },
  () => {
    let peer: PythonSdkPeer;
    let card: Json;
    before(async () => {
      ({ peer, card } = await cacheHealthyGrpcCardThenRedeploy('A'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('gRPC 1.0 send + stream of translate → FAILED "unknown skill: translate" (the server\'s words) → unknown_skill', async () => {
      const client = await grpcClient({ card });
      const task = asTask(
        await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(messageText(task.status?.message), 'unknown skill: translate');
      await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card, '1.0');
        assert.equal(s.attributes['a2a.skill.id'], 'translate');
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
        assert.equal(s.attributes['a2a.drift.evidence'], 'protocol');
        assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
        assert.equal(s.status.code, SpanStatusCode.ERROR);
      }
    });

    test('gRPC 0.3 (LegacyGrpcTransport) send + stream of translate → unknown_skill', async () => {
      const t = await legacyGrpc(peer.grpcTarget!);
      const task = asTask(
        (await t.sendMessage(sendRequest('translate', { text: 'translate: hello' }))) as never,
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      await collect(t.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card, '0.3');
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      }
    });

    test('the skill still on the card (summarize) over gRPC: zero drift', async () => {
      const client = await grpcClient({ card });
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await spansSettled(1);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  'a2a-sdk (Python) over gRPC: variant B (summarize now returns image/png)',
  { skip },
  () => {
    let peer: PythonSdkPeer;
    let card: Json;
    before(async () => {
      ({ peer, card } = await cacheHealthyGrpcCardThenRedeploy('B'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('gRPC 1.0 send + stream: a raw image/png part → output_mode_mismatch', async () => {
      const client = await grpcClient({ card });
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      const part = task.artifacts[0].parts[0];
      assert.equal(part.content?.$case, 'raw');
      assert.equal(part.mediaType, 'image/png');
      await collect(client.sendMessageStream(sendRequest('summarize', { text: FOX })));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card, '1.0');
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
        assert.deepEqual(s.attributes['a2a.drift.expected_output_modes'], ['text/plain']);
      }
    });

    test('gRPC 0.3: a file part with mimeType image/png → output_mode_mismatch', async () => {
      const t = await legacyGrpc(peer.grpcTarget!);
      await t.sendMessage(sendRequest('summarize', { text: FOX }));
      await collect(t.sendMessageStream(sendRequest('summarize', { text: FOX })));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card, '0.3');
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
      }
    });
  },
);

describe(
  'a2a-sdk (Python) over gRPC: variant A, the executor raises ValueError("unknown skill: translate")',
  { skip },
  () => {
    let peer: PythonSdkPeer;
    let card: Json;
    before(async () => {
      ({ peer, card } = await cacheHealthyGrpcCardThenRedeploy('A', 'raise'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    for (const version of ['1.0', '0.3'] as const) {
      test(`gRPC ${version}: status UNKNOWN (2) whose details carry the exception text → unknown_skill from the status details (unary and stream)`, async () => {
        const t =
          version === '1.0'
            ? await new (await grpcClients()).grpc.GrpcTransportFactory().create(
                peer.grpcTarget!,
                structuredClone(card) as never,
              )
            : await legacyGrpc(peer.grpcTarget!);
        const err = await t
          .sendMessage(sendRequest('translate', { text: 'translate: hello' }))
          .then(
            () => undefined,
            (e: unknown) => e as Error,
          );
        assert.ok(err instanceof Error, 'the call fails');
        assert.match(err.message, /Unexpected <class 'ValueError'>: unknown skill: translate/);
        await assert.rejects(
          collect(t.sendMessageStream(sendRequest('translate', { text: 'translate: hello' }))),
        );
        await spansSettled(2);
        for (const name of ['SendMessage', 'SendStreamingMessage']) {
          const s = only(name);
          checkGrpcSpan(s, peer, card, version);
          assert.equal(s.attributes['rpc.grpc.status_code'], 2, describeSpans());
          assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
          assert.equal(s.status.code, SpanStatusCode.ERROR);
        }
      });
    }
  },
);
