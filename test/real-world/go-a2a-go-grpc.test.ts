/**
 * The instrumentation against the official GO SDK's gRPC server (`github.com/a2aproject/a2a-go`
 * v0.3.3, A2A protocol 0.3, pinned in test/real-world/go/a2a-go/go.sum with
 * google.golang.org/grpc v1.73.0, built by scripts/real-world-go.sh): the same peer as
 * the go-a2a-go row of the conformance table with GRPC=1, the SDK's `a2agrpc.NewHandler(...).RegisterWith(grpc.Server)`
 * serving the 0.3 service `a2a.v1.A2AService` beside its JSON-RPC handler, one default request
 * handler behind both. The card is a 0.3 card preferring gRPC: `url` "127.0.0.1:<grpc port>",
 * `preferredTransport: "GRPC"`, `additionalInterfaces` [GRPC that target, JSONRPC /invoke].
 *
 * The client side runs here, in-process with the instrumentation: `@a2a-js/sdk` 1.3 in its 0.3
 * mode: `ClientFactory` with `GrpcTransportFactory({ legacyCompat: { enabled: true } })` and the
 * legacy card resolver (it normalises the 0.3 card to supportedInterfaces [GRPC 0.3, GRPC 0.3,
 * JSONRPC 0.3] and picks GRPC, the first), and the SDK's `LegacyGrpcTransport` on the target.
 * Both are loaded after the instrumentation is enabled (the SDK makes its gRPC client classes as
 * its gRPC module loads, from the app's @grpc/grpc-js).
 *
 * The Go SDK's gRPC errors (a2agrpc/error_translator.go, toGRPCError): the executor's error text
 * as the status details and no `grpc-status-details-bin`; ErrTaskNotFound → NOT_FOUND (5),
 * ErrUnsupportedOperation → UNIMPLEMENTED (12), ErrInvalidParams (not in its table) and plain
 * errors → INTERNAL (13).
 *
 *   bash scripts/real-world-go.sh a2a-go     # the build (the test runs it too when go is installed)
 *   node --import tsx --test test/real-world/go-a2a-go-grpc.test.ts
 */
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, messageText, sendRequest } from '../peers/sdk-client';
import { skillFingerprint } from '../../src/index';
import { buildGoPeer, startGoPeer, type GoPeer } from './go/a2a-go/peer-process.mjs';
import { FOX, getCard, messages, rpcRaw, spanChecks, type Json } from './lib';
import { checkGrpcSpanAttributes, grpcClient, grpcClients, legacyGrpc } from './grpc-clients';

/** The SDK's Client in its 0.3 mode: the legacy resolver fetches and normalises the 0.3 card. */
const LEGACY = { legacyCompat: true };

const built = buildGoPeer();
const skip = built === true ? false : built;

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
const { v03Message } = messages('go-grpc-');

type SpanLike = ReturnType<typeof only>;

/** A gRPC span's RPC attributes and negotiated card (0.3: `TaskSubscription` is SubscribeToTask). */
function checkGrpcSpan(s: SpanLike, peer: GoPeer, card: Json): void {
  checkGrpcSpanAttributes(
    s,
    {
      service: 'a2a.v1.A2AService',
      version: '0.3',
      port: peer.grpcPort,
      cardUrl: peer.cardUrl,
      card,
      agentName: 'Docs Agent',
      methodOf: { SubscribeToTask: 'TaskSubscription' },
    },
    describeSpans,
  );
}

/** The healthy card (with its GRPC interface first), then the variant on the SAME ports. */
async function cacheHealthyGrpcCardThenRedeploy(
  variant: 'A' | 'B',
  unknownSkill?: 'status' | 'error' | 'unsupported' | 'plain',
): Promise<{ peer: GoPeer; card: Json }> {
  await grpcClients();
  const healthy = await startGoPeer({ variant: 'healthy', grpc: true });
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl)).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  const peer = await startGoPeer({
    variant,
    port: healthy.port,
    grpc: true,
    grpcPort: healthy.grpcPort,
    unknownSkill,
  });
  return { peer, card };
}

// ------------------------------------------------------------------ healthy

describe('a2a-go (Go SDK) over gRPC: healthy', { skip }, () => {
  let peer: GoPeer;
  let card: Json;
  before(async () => {
    await grpcClients();
    peer = await startGoPeer({ variant: 'healthy', grpc: true });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the 0.3 card prefers GRPC (url = the target, listed first); createFromUrl picks gRPC: send + stream + GetTask, zero drift', async () => {
    card = (await getCard(peer.cardUrl)).card;
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.preferredTransport, 'GRPC');
    assert.equal(card.url, peer.grpcTarget);
    assert.deepEqual(card.additionalInterfaces, [
      { transport: 'GRPC', url: peer.grpcTarget },
      { transport: 'JSONRPC', url: peer.jsonRpcUrl },
    ]);
    await spansSettled(1);
    assert.equal(
      only('GetAgentCard').attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(card as never),
    );
    await h.reset();

    const client = await grpcClient({ baseUrl: peer.baseUrl }, LEGACY);
    const task = asTask(
      await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const part = task.artifacts[0].parts[0];
    assert.equal(
      part.content?.$case === 'text' && part.content.value,
      'Summary: The quick brown fox jumps over.',
    );
    const events = await collect(
      client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
    );
    assert.deepEqual(
      events.map((e) => e.payload?.$case),
      ['statusUpdate', 'statusUpdate', 'artifactUpdate', 'statusUpdate'],
    );
    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);

    await spansSettled(4); // GetAgentCard (createFromUrl), SendMessage, SendStreamingMessage, GetTask
    for (const name of ['SendMessage', 'SendStreamingMessage', 'GetTask']) {
      const s = only(name);
      checkGrpcSpan(s, peer, card);
      assert.equal(s.attributes['rpc.grpc.status_code'], 0);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
      assert.equal(s.attributes['a2a.drift.unjudged_reason'], undefined, describeSpans());
      assert.notEqual(s.status.code, SpanStatusCode.ERROR);
    }
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'summarize');
    assert.equal(only('SendStreamingMessage').attributes['a2a.skill.id'], 'translate');
    assert.equal(only('SendStreamingMessage').attributes['a2a.stream.event_count'], events.length);
    assert.equal(only('GetTask').attributes['a2a.task.id'], task.id);
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test("the SDK's LegacyGrpcTransport on the target (the card fetched by the app): send + stream + GetTask, zero drift", async () => {
    card = (await getCard(peer.cardUrl)).card;
    await spansSettled(1);
    h.exporter.reset();
    const t = await legacyGrpc(peer.grpcTarget!);
    const task = asTask(
      (await t.sendMessage(sendRequest('translate', { text: 'translate: hello' }))) as never,
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const events = await collect(
      t.sendMessageStream(sendRequest('summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(events.length, 4);
    const got = await t.getTask({ tenant: '', id: task.id, historyLength: undefined });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
    await spansSettled(3);
    for (const name of ['SendMessage', 'SendStreamingMessage', 'GetTask']) {
      const s = only(name);
      checkGrpcSpan(s, peer, card);
      assert.equal(s.attributes['rpc.grpc.status_code'], 0);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
    }
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'translate');
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('NOT_FOUND (5): GetTask of an unknown task, TaskSubscription to a finished task (its execution is gone): error spans, no verdict', async () => {
    card = (await getCard(peer.cardUrl)).card;
    const client = await grpcClient({ card }, LEGACY);
    const err = await client
      .getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    assert.ok(err instanceof Error, 'the call fails');
    assert.equal(err.message, 'gRPC error for getTask: 5 failed to get task: task not found');
    const task = asTask(await client.sendMessage(sendRequest('translate', { text: 'x' })));
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    await assert.rejects(
      collect(client.resubscribeTask({ tenant: '', id: task.id })),
      /5 task not found/,
    );
    await spansSettled(4);
    const spans = [only('GetTask'), only('SubscribeToTask')];
    for (const s of spans) {
      checkGrpcSpan(s, peer, card);
      assert.equal(s.attributes['rpc.grpc.status_code'], 5, describeSpans());
      assert.equal(s.status.code, SpanStatusCode.ERROR);
      assert.match(s.status.message ?? '', /NOT_FOUND/);
      assert.equal(s.attributes['a2a.drift.kind'], undefined);
    }
    assert.equal(spans[1].attributes['a2a.task.id'], task.id);
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test("a listed skill's own errors get the same verdict over gRPC as over JSON-RPC: ErrInvalidParams (gRPC INTERNAL + the text) → invalid_params, ErrUnsupportedContentType (gRPC INVALID_ARGUMENT + the text) → unsupported_mode", async () => {
    card = (await getCard(peer.cardUrl)).card;
    const t = await legacyGrpc(peer.grpcTarget!);
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: Error) => e.message,
      );
    assert.equal(
      await failure(t.sendMessage(sendRequest('summarize', { text: 'summarize: max_words=-1' }))),
      `gRPC error for sendMessage: 13 skill "summarize": 'max_words' must be a positive integer: invalid params`,
    );
    assert.equal(
      await failure(t.sendMessage(sendRequest('summarize', { text: 'summarize: format=pdf' }))),
      'gRPC error for sendMessage: 3 skill "summarize": cannot produce application/pdf: incompatible content types',
    );
    const invalid = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
      message: v03Message('summarize: max_words=-1', 'summarize'),
    });
    assert.equal(invalid.error.code, -32602);
    const pdf = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
      message: v03Message('summarize: format=pdf', 'summarize'),
    });
    assert.equal(pdf.error.code, -32005);
    assert.match(
      pdf.error.data.error,
      /cannot produce application\/pdf: incompatible content types$/,
    );
    await spansSettled(5);
    const sends = h.spans('SendMessage');
    assert.deepEqual(
      sends.map((s) => [
        s.attributes['a2a.binding'],
        s.attributes['rpc.grpc.status_code'],
        s.attributes['a2a.drift.kind'],
      ]),
      [
        ['grpc', 13, 'invalid_params'],
        ['grpc', 3, 'unsupported_mode'],
        ['jsonrpc', undefined, 'invalid_params'],
        ['jsonrpc', undefined, 'unsupported_mode'],
      ],
      describeSpans(),
    );
    for (const s of sends) assert.equal(s.status.code, SpanStatusCode.ERROR);
    for (const s of sends.slice(0, 2)) checkGrpcSpan(s, peer, card);
  });

  test('the app sees the same results with and without the instrumentation (send, stream, GetTask error)', async () => {
    card = (await getCard(peer.cardUrl)).card;
    const normalise = (v: unknown) =>
      JSON.stringify(v)
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
        .replace(/msg-\d+-\d+-\d+/g, 'MSGID')
        .replace(/"seconds":"?\d+"?,"nanos":\d+/g, 'TS')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TS');
    const run = async (): Promise<string[]> => {
      const t = await legacyGrpc(peer.grpcTarget!);
      const out: string[] = [];
      out.push(normalise(await t.sendMessage(sendRequest('summarize', { text: FOX }))));
      out.push(
        normalise(await collect(t.sendMessageStream(sendRequest('translate', { text: 'x' })))),
      );
      out.push(
        await t.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }).then(
          (v) => `resolved ${normalise(v)}`,
          (e: Error) => `${e.constructor.name} ${e.message}`,
        ),
      );
      return out;
    };
    const on = await run();
    h.instrumentation.disable();
    let off: string[];
    try {
      off = await run();
    } finally {
      h.instrumentation.enable();
    }
    assert.deepEqual(on, off);
    assert.match(on[2], /task not found/);
    assert.ok(h.spans('SendMessage').length >= 1, 'the instrumented run made spans');
  });
});

// ------------------------------------------------------------------ variant A

describe(
  'a2a-go over gRPC: variant A (translate removed, same card version): a FAILED status-update',
  { skip },
  () => {
    let peer: GoPeer;
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

    test('ClientFactory (GRPC) send + stream of translate → FAILED "unknown skill: translate" (the server\'s words) → unknown_skill', async () => {
      const client = await grpcClient({ card }, LEGACY);
      const task = asTask(
        await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(messageText(task.status?.message), 'unknown skill: translate');
      await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
      assert.equal(got.status?.state, TaskState.TASK_STATE_FAILED);
      await spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card);
        assert.equal(s.attributes['a2a.skill.id'], 'translate');
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
        assert.equal(s.attributes['a2a.drift.evidence'], 'protocol');
        assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
        assert.equal(s.status.code, SpanStatusCode.ERROR);
      }
      // the poll of the task the SendMessage created is judged under that call's skill
      const poll = only('GetTask');
      checkGrpcSpan(poll, peer, card);
      assert.equal(poll.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.equal(poll.attributes['a2a.lifecycle.negotiation_known'], true);
      assert.equal(poll.attributes['a2a.skill.id'], 'translate');
      assert.equal(poll.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    });

    test('LegacyGrpcTransport send + stream of translate → unknown_skill', async () => {
      const t = await legacyGrpc(peer.grpcTarget!);
      const task = asTask(
        (await t.sendMessage(sendRequest('translate', { text: 'translate: hello' }))) as never,
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      await collect(t.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card);
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      }
    });

    test('the skill still on the card (summarize) over gRPC: zero drift', async () => {
      const client = await grpcClient({ card }, LEGACY);
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await spansSettled(1);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  "a2a-go over gRPC: variant A, Execute RETURNS the unknown skill as an error (the Go SDK's toGRPCError)",
  { skip },
  () => {
    let peer: GoPeer;
    let card: Json;
    afterEach(async () => {
      await peer?.stop();
    });

    for (const [unknownSkill, code, name, details, kind] of [
      // invalid params on a skill the card lists: the contract's verdict, as over JSON-RPC
      ['error', 13, 'INTERNAL', 'unknown skill: translate: invalid params', 'invalid_params'],
      [
        'unsupported',
        12,
        'UNIMPLEMENTED',
        'unknown skill: translate: this operation is not supported',
        'unknown_skill',
      ],
    ] as const) {
      test(`fmt.Errorf("unknown skill: translate: %w", ${unknownSkill === 'error' ? 'a2a.ErrInvalidParams' : 'a2a.ErrUnsupportedOperation'}) → ${name} (${code}) "${details}", no status details → ${kind} (unary and stream)`, async () => {
        ({ peer, card } = await cacheHealthyGrpcCardThenRedeploy('A', unknownSkill));
        h.exporter.reset();
        const client = await grpcClient({ card }, LEGACY);
        const err = await client
          .sendMessage(sendRequest('translate', { text: 'translate: hello' }))
          .then(
            () => undefined,
            (e: unknown) => e as Error,
          );
        assert.ok(err instanceof Error, 'the call fails');
        assert.match(err.message, new RegExp(details));
        await assert.rejects(
          collect(client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' }))),
        );
        await spansSettled(2);
        for (const n of ['SendMessage', 'SendStreamingMessage']) {
          const s = only(n);
          checkGrpcSpan(s, peer, card);
          assert.equal(s.attributes['rpc.grpc.status_code'], code, describeSpans());
          assert.equal(s.status.code, SpanStatusCode.ERROR);
          assert.match(s.status.message ?? '', new RegExp(`with (error )?${code}`));
          assert.equal(s.attributes['a2a.drift.kind'], kind, describeSpans());
          assert.equal(s.attributes['a2a.drift.evidence'], 'protocol');
        }
      });
    }

    test('a plain errors.New("unknown skill: translate") after the submitted event → INTERNAL (13) with the text (JSON-RPC hides it as -32603 "internal error") → unknown_skill (unary and stream)', async () => {
      ({ peer, card } = await cacheHealthyGrpcCardThenRedeploy('A', 'plain'));
      h.exporter.reset();
      const t = await legacyGrpc(peer.grpcTarget!);
      const err = await t.sendMessage(sendRequest('translate', { text: 'translate: hello' })).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      assert.ok(err instanceof Error, 'the call fails');
      assert.equal(err.message, 'gRPC error for sendMessage: 13 unknown skill: translate');
      await assert.rejects(
        collect(t.sendMessageStream(sendRequest('translate', { text: 'translate: hello' }))),
        /13 unknown skill: translate/,
      );
      await spansSettled(2);
      for (const n of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(n);
        checkGrpcSpan(s, peer, card);
        assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
        assert.equal(s.attributes['rpc.grpc.status_code'], 13, describeSpans());
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
        assert.equal(s.attributes['a2a.drift.rpc_code'], 13);
      }
    });
  },
);

// ------------------------------------------------------------------ variant B

describe(
  'a2a-go over gRPC: variant B (summarize now returns an image/png file part, card identical)',
  { skip },
  () => {
    let peer: GoPeer;
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

    test('ClientFactory (GRPC) send + stream summarize → file part image/png → output_mode_mismatch', async () => {
      const client = await grpcClient({ card }, LEGACY);
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const part = task.artifacts[0].parts[0];
      assert.equal(part.mediaType, 'image/png', JSON.stringify(part));
      await collect(client.sendMessageStream(sendRequest('summarize', { text: FOX })));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card);
        assert.equal(s.attributes['a2a.skill.id'], 'summarize');
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
        assert.deepEqual(s.attributes['a2a.drift.expected_output_modes'], ['text/plain']);
      }
    });

    test('LegacyGrpcTransport send + stream summarize → output_mode_mismatch; the B card is identical (no card_changed)', async () => {
      const t = await legacyGrpc(peer.grpcTarget!);
      await t.sendMessage(sendRequest('summarize', { text: FOX }));
      await collect(t.sendMessageStream(sendRequest('summarize', { text: FOX })));
      const again = (await getCard(peer.cardUrl)).card;
      assert.deepEqual(again, card);
      await spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        checkGrpcSpan(s, peer, card);
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
      }
      assert.equal(only('GetAgentCard').attributes['a2a.drift.kind'], undefined, describeSpans());
    });
  },
);
