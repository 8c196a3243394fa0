/**
 * The instrumentation against the official GO SDK's own server (`github.com/a2aproject/a2a-go`
 * v0.3.3, A2A protocol 0.3, pinned in test/real-world/go/a2a-go/go.sum, built by
 * scripts/real-world-go.sh), run as a child process by test/real-world/go/a2a-go/peer-process.mjs:
 * the SDK's `a2asrv.NewJSONRPCHandler` and `a2asrv.NewStaticAgentCardHandler` on net/http, its
 * default request handler (`a2asrv.NewHandler`) and a deterministic AgentExecutor (no model).
 * The client side runs here, in-process with the instrumentation: the `@a2a-js/sdk` 1.3 client in
 * its 0.3 mode (legacyCompat; the card is a 0.3 card) and raw `fetch` with JSON-RPC 0.3 bodies.
 * v0.3.3 serves no HTTP+JSON (REST); its gRPC handler (GRPC=1) is tested in go-a2a-go-grpc.test.ts.
 *
 * The wire (see test/fixtures/a2a-go-live/README.md): card at `/.well-known/agent-card.json`,
 * `protocolVersion "0.3.0"`, `version "1.0.0"` in every variant, a skill without tags served as
 * `"tags": null`; JSON-RPC at `/invoke`, its non-streaming answers WITHOUT a Content-Type (net/http
 * labels them `text/plain; charset=utf-8`), every JSON-RPC error at HTTP 200; a stream starts with
 * a `status-update` (submitted), not a Task; SSE events are `id: <uuid>\ndata: {json}\n\n`.
 *
 *   bash scripts/real-world-go.sh a2a-go     # the build (the test runs it too when go is installed)
 *   npm run build && node --import tsx --test test/real-world/go-a2a-go.test.ts
 */
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, messageText, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import { buildGoPeer, startGoPeer, type GoPeer } from './go/a2a-go/peer-process.mjs';
import {
  FOX,
  getCard,
  messages,
  nextRpcId,
  rpc,
  rpcRaw,
  sdkClient,
  spanChecks,
  type Json,
} from './lib';

const built = buildGoPeer();
const skip = built === true ? false : built;

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

// ------------------------------------------------------------------ client helpers

const { v03Message } = messages('go-sdk-');
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
/** The @a2a-js/sdk 1.3 client in its 0.3 mode on the card the app holds. */
const legacyClient = (card: Json) => sdkClient({ card }, { legacy: true });

/** message/stream with raw fetch: the raw SSE text. */
async function rawStream(url: string, message: Json): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextRpcId(),
      method: 'message/stream',
      params: { message },
    }),
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  return res.text();
}
const sseResults = (raw: string): Json[] =>
  raw
    .split('\n\n')
    .filter((e) => e.includes('data: '))
    .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Json);

/** The healthy card, read by the app from a healthy deployment that is then replaced on the SAME port. */
async function cacheHealthyCardThenRedeploy(
  variant: 'A' | 'B',
  unknownSkill?: 'status' | 'error' | 'unsupported' | 'plain',
): Promise<{ peer: GoPeer; card: Json }> {
  const healthy = await startGoPeer({ variant: 'healthy' });
  const port = healthy.port;
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl)).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  return { peer: await startGoPeer({ variant, port, unknownSkill }), card };
}

// ------------------------------------------------------------------ healthy

describe('a2a-go (Go SDK) healthy peer', { skip }, () => {
  let peer: GoPeer;
  before(async () => {
    peer = await startGoPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the card at /.well-known/agent-card.json → GetAgentCard with the fingerprint; python3 (the seed) agrees on the live bytes', async () => {
    const { card, raw } = await getCard(peer.cardUrl);
    assert.equal(card.version, '1.0.0');
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.url, `${peer.origin}/invoke`);
    assert.equal(card.preferredTransport, 'JSONRPC');
    assert.deepEqual(
      card.skills.map((s: Json) => [s.id, s.outputModes, s.tags]),
      [
        ['summarize', ['text/plain'], ['docs']],
        ['translate', ['text/plain'], ['docs']],
      ],
    );
    await spansSettled(1);
    const get = only('GetAgentCard');
    const fp = skillFingerprint(card as never);
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
    assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
    assert.equal(get.attributes['a2a.protocol.version'], '0.3', describeSpans());
    assert.equal(get.attributes['a2a.drift.kind'], undefined, describeSpans());
    assert.equal(get.attributes['a2a.drift.unjudged_reason'], undefined, describeSpans());
    assert.equal(pythonSeedFingerprint(raw), fp);
  });

  test('@a2a-js/sdk 1.3 client (0.3 mode, JSON-RPC) on the card: send summarize + stream translate, zero drift, a2a.protocol.version 0.3', async () => {
    const { card } = await getCard(peer.cardUrl);
    const client = await legacyClient(card);
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

    await spansSettled(3);
    for (const [name, skill] of [
      ['SendMessage', 'summarize'],
      ['SendStreamingMessage', 'translate'],
    ]) {
      const s = only(name);
      assert.equal(s.attributes['a2a.skill.id'], skill);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
      assert.equal(s.attributes['a2a.protocol.version'], '0.3', describeSpans());
      assert.equal(s.attributes['a2a.drift.unjudged_reason'], undefined, describeSpans());
      assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('@a2a-js/sdk 1.3 client (0.3 mode) from the URL (its resolver fetches the card): send, zero drift', async () => {
    const client = await sdkClient({ baseUrl: peer.baseUrl }, { legacy: true });
    const task = asTask(
      await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    await spansSettled(2);
    const get = only('GetAgentCard');
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'translate');
    assert.equal(send.attributes['a2a.protocol.version'], '0.3', describeSpans());
    assert.equal(
      send.attributes['a2a.agent_card.fingerprint'],
      get.attributes['a2a.agent_card.fingerprint'],
    );
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('raw fetch: JSON-RPC 0.3 message/send (answered as text/plain), message/stream and tasks/get, zero drift', async () => {
    await getCard(peer.cardUrl);
    const res = await fetch(peer.jsonRpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextRpcId(),
        method: 'message/send',
        params: { message: v03Message(`summarize: ${FOX}`, 'summarize') },
      }),
    });
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    const t = ((await res.json()) as Json).result as Json;
    assert.equal(t.kind, 'task');
    assert.equal(t.status.state, 'completed');
    assert.deepEqual(t.artifacts[0].parts, [
      { kind: 'text', text: 'Summary: The quick brown fox jumps over.' },
    ]);
    const raw = await rawStream(peer.jsonRpcUrl, v03Message('translate: hello', 'translate'));
    assert.match(raw, /^id: [0-9a-f-]{36}\ndata: \{"jsonrpc":"2.0"/);
    assert.deepEqual(
      sseResults(raw).map((e) => [e.result.kind, e.result.status?.state]),
      [
        ['status-update', 'submitted'],
        ['status-update', 'working'],
        ['artifact-update', undefined],
        ['status-update', 'completed'],
      ],
    );
    const got = await rpc(peer.jsonRpcUrl, 'tasks/get', { id: t.id });
    assert.equal(got.status.state, 'completed');

    await spansSettled(4);
    assert.deepEqual(
      ['SendMessage', 'SendStreamingMessage', 'GetTask'].map((n) => {
        const s = only(n);
        return [n, s.attributes['a2a.task.state'], s.attributes['a2a.protocol.version']];
      }),
      [
        ['SendMessage', 'TASK_STATE_COMPLETED', '0.3'],
        ['SendStreamingMessage', 'TASK_STATE_COMPLETED', '0.3'],
        ['GetTask', 'TASK_STATE_COMPLETED', '0.3'],
      ],
      describeSpans(),
    );
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'summarize');
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('HTTP and JSON-RPC errors: 404 of net/http, -32001 task not found, the skill invalid params -32602 (both at HTTP 200): error spans, invalid_params only', async () => {
    await getCard(peer.cardUrl);
    const nf = await fetch(`${peer.origin}/no-such-path`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextRpcId(),
        method: 'message/send',
        params: { message: v03Message('summarize: x', 'summarize') },
      }),
    });
    assert.equal(nf.status, 404);
    assert.equal(await nf.text(), '404 page not found\n');
    const missing = await rpcRaw(peer.jsonRpcUrl, 'tasks/get', { id: 'no-such-task' });
    assert.deepEqual(missing.error, {
      code: -32001,
      message: 'task not found',
      data: { error: 'failed to get task: task not found' },
    });
    const bad = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
      message: v03Message('summarize: max_words=-1', 'summarize'),
    });
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.data.error, /'max_words' must be a positive integer: invalid params$/);

    await spansSettled(4);
    const sends = h.spans('SendMessage');
    assert.equal(sends.length, 2, describeSpans());
    for (const s of [...sends, only('GetTask')]) {
      assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
    }
    assert.equal(sends[0].attributes['http.response.status_code'], 404);
    assert.deepEqual(driftKinds(), [['SendMessage', 'invalid_params']], describeSpans());
  });

  test('the app sees the same bytes with and without the instrumentation (card, send, stream, error, 404)', async () => {
    const normalise = (t: string) =>
      t
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, 'TS');
    const run = async (tag: string): Promise<string[]> => {
      const out: string[] = [];
      const go = async (url: string, init?: RequestInit) => {
        const res = await fetch(url, init);
        const text = await res.text();
        out.push(
          `${res.status} ${res.headers.get('content-type')} ${normalise(text.split(tag).join('MSG'))}`,
        );
      };
      await go(peer.cardUrl);
      const body = (method: string, text: string, skillId: string) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method,
          params: {
            message: {
              kind: 'message',
              role: 'user',
              messageId: `${tag}-1`,
              parts: [{ kind: 'text', text }],
              metadata: { skillId },
            },
          },
        });
      const hdr = { 'content-type': 'application/json' };
      await go(peer.jsonRpcUrl, {
        method: 'POST',
        headers: hdr,
        body: body('message/send', `summarize: ${FOX}`, 'summarize'),
      });
      await go(peer.jsonRpcUrl, {
        method: 'POST',
        headers: { ...hdr, accept: 'text/event-stream' },
        body: body('message/stream', 'translate: hello', 'translate'),
      });
      await go(peer.jsonRpcUrl, {
        method: 'POST',
        headers: hdr,
        body: body('message/send', 'summarize: max_words=-1', 'summarize'),
      });
      await go(`${peer.origin}/nope`, {
        method: 'POST',
        headers: hdr,
        body: body('message/send', 'x', 'summarize'),
      });
      return out;
    };
    const on = await run('probe-instrumented');
    h.instrumentation.disable();
    let off: string[];
    try {
      off = await run('probe-bare');
    } finally {
      h.instrumentation.enable();
    }
    assert.deepEqual(on, off);
    assert.match(on[1], /^200 text\/plain; charset=utf-8 \{"jsonrpc":"2.0","id":7,"result"/);
    assert.match(on[2], /^200 text\/event-stream id: UUID\ndata: /);
    assert.match(on[3], /^200 text\/plain; charset=utf-8 \{"jsonrpc":"2.0","id":7,"error"/);
    assert.match(on[4], /^404 text\/plain; charset=utf-8 404 page not found/);
    assert.ok(h.spans().length >= 5, 'the instrumented run made spans');
    assert.deepEqual(driftKinds(), [['SendMessage', 'invalid_params']], describeSpans());
  });
});

describe(
  'a2a-go card with a nil Go slice (translate without Tags → "tags": null)',
  { skip },
  () => {
    let peer: GoPeer;
    before(async () => {
      peer = await startGoPeer({ variant: 'healthy', nilTags: true });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(async () => {
      await h.reset();
    });

    test('GetAgentCard with the fingerprint (python3 agrees); the @a2a-js/sdk client refuses the card, raw fetch works with zero drift', async () => {
      const { card, raw } = await getCard(peer.cardUrl);
      assert.equal(card.skills[1].tags, null);
      // @a2a-js/sdk 1.3 in its 0.3 mode: "skill.tags is required and must be an array"
      await assert.rejects(legacyClient(card), /skill\.tags is required/);
      const t = await rpc(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.equal(t.status.state, 'completed');
      await spansSettled(2);
      const get = only('GetAgentCard');
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
      assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
      assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
      assert.equal(only('SendMessage').attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

// ------------------------------------------------------------------ variant A

describe(
  'a2a-go variant A (translate removed, card version still 1.0.0): FAILED status-update with a message',
  { skip },
  () => {
    let peer: GoPeer;
    let healthyCard: Json;
    before(async () => {
      ({ peer, card: healthyCard } = await cacheHealthyCardThenRedeploy('A'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('SDK client (0.3 mode) holding the healthy card, skill translate → FAILED "unknown skill: translate" → unknown_skill', async () => {
      const client = await legacyClient(healthyCard);
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
        assert.equal(s.attributes['a2a.skill.id'], 'translate');
        assert.equal(
          s.attributes['a2a.agent_card.fingerprint'],
          skillFingerprint(healthyCard as never),
        );
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
        assert.equal(s.status.code, SpanStatusCode.ERROR);
      }
    });

    test('raw message/send and message/stream → failed → unknown_skill', async () => {
      const t = await rpc(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.equal(t.status.state, 'failed');
      assert.deepEqual(t.status.message.parts, [
        { kind: 'text', text: 'unknown skill: translate' },
      ]);
      await rawStream(peer.jsonRpcUrl, v03Message('translate: hello', 'translate'));
      await spansSettled(2);
      assert.deepEqual(
        driftKinds(),
        [
          ['SendMessage', 'unknown_skill'],
          ['SendStreamingMessage', 'unknown_skill'],
        ],
        describeSpans(),
      );
    });

    test('the skill still on the card (summarize) is unaffected: zero drift', async () => {
      const client = await legacyClient(healthyCard);
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await spansSettled(1);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('re-fetching the card → card_changed (same version 1.0.0, translate gone)', async () => {
      const { card, raw } = await getCard(peer.cardUrl);
      assert.equal(card.version, healthyCard.version);
      assert.deepEqual(
        card.skills.map((s: Json) => s.id),
        ['summarize'],
      );
      await spansSettled(1);
      const get = only('GetAgentCard');
      assert.equal(
        get.attributes['a2a.agent_card.previous_fingerprint'],
        skillFingerprint(healthyCard as never),
      );
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
      assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());
      assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
    });
  },
);

describe(
  "a2a-go variant A, Execute RETURNS the unknown skill as an error (the SDK's JSON-RPC error, the text in data.error)",
  { skip },
  () => {
    let peer: GoPeer;
    afterEach(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('fmt.Errorf("unknown skill: translate: %w", a2a.ErrInvalidParams) → -32602 (send and the stream\'s only event) → invalid_params (the contract\'s verdict for -32602 on a listed skill)', async () => {
      ({ peer } = await cacheHealthyCardThenRedeploy('A', 'error'));
      h.exporter.reset();
      const r = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.deepEqual(r.error, {
        code: -32602,
        message: 'invalid params',
        data: { error: 'unknown skill: translate: invalid params' },
      });
      const raw = await rawStream(peer.jsonRpcUrl, v03Message('translate: hello', 'translate'));
      assert.deepEqual(
        sseResults(raw).map((e) => e.error?.code),
        [-32602],
      );
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
        assert.equal(
          s.attributes['a2a.drift.kind'],
          'invalid_params',
          `${raw}\n${describeSpans()}`,
        );
      }
    });

    test('fmt.Errorf("unknown skill: translate: %w", a2a.ErrUnsupportedOperation) → -32004, the words in data.error → unknown_skill', async () => {
      ({ peer } = await cacheHealthyCardThenRedeploy('A', 'unsupported'));
      h.exporter.reset();
      const r = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.deepEqual(r.error, {
        code: -32004,
        message: 'this operation is not supported',
        data: { error: 'unknown skill: translate: this operation is not supported' },
      });
      const raw = await rawStream(peer.jsonRpcUrl, v03Message('translate: hello', 'translate'));
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
        assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', `${raw}\n${describeSpans()}`);
      }
    });

    test('a plain errors.New("unknown skill: translate") after the submitted event → -32603 "internal error" without the text: a failure the card settles → unknown_skill (card)', async () => {
      ({ peer } = await cacheHealthyCardThenRedeploy('A', 'plain'));
      h.exporter.reset();
      const r = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.deepEqual(r.error, { code: -32603, message: 'internal error' });
      await spansSettled(1);
      const s = only('SendMessage');
      assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
      // no text names the skill; the card fetched again no longer lists it
      assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(s.attributes['a2a.drift.evidence'], 'card');
      assert.equal(s.attributes['a2a.drift.suspicion'], 'failure');
      assert.equal(s.attributes['a2a.drift.rpc_code'], -32603);
    });
  },
);

// ------------------------------------------------------------------ variant B

describe(
  'a2a-go variant B (summarize now returns an image/png file part, card identical)',
  { skip },
  () => {
    let peer: GoPeer;
    let healthyCard: Json;
    before(async () => {
      ({ peer, card: healthyCard } = await cacheHealthyCardThenRedeploy('B'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('SDK client (0.3 mode) send + stream summarize → file part image/png → output_mode_mismatch', async () => {
      const client = await legacyClient(healthyCard);
      const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const part = task.artifacts[0].parts[0];
      assert.equal(part.mediaType, 'image/png', JSON.stringify(part));
      await collect(client.sendMessageStream(sendRequest('summarize', { text: FOX })));

      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        assert.equal(s.attributes['a2a.skill.id'], 'summarize');
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
      }
    });

    test('raw message/send → file part image/png → output_mode_mismatch', async () => {
      const t = await rpc(peer.jsonRpcUrl, 'message/send', {
        message: v03Message(`summarize: ${FOX}`, 'summarize'),
      });
      assert.equal(t.status.state, 'completed');
      const part = t.artifacts[0].parts[0];
      assert.equal(part.kind, 'file', JSON.stringify(part));
      assert.equal(part.file.mimeType, 'image/png');
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(send.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    test('the B card is identical: re-fetching it is not card_changed', async () => {
      const { card } = await getCard(peer.cardUrl);
      assert.deepEqual(card, healthyCard);
      await spansSettled(1);
      assert.equal(only('GetAgentCard').attributes['a2a.drift.kind'], undefined, describeSpans());
    });
  },
);
