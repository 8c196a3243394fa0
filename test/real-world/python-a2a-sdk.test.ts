/**
 * The instrumentation against the reference PYTHON SDK's own server (`a2a-sdk` 1.3.0, pinned
 * with hashes in test/real-world/python/a2a-sdk/requirements.lock, installed into
 * test/real-world/python/a2a-sdk/.venv by scripts/real-world.sh), run as a child process by
 * test/real-world/python/a2a-sdk/peer-process.mjs: the SDK's Starlette routes on uvicorn, its
 * DefaultRequestHandler and a deterministic AgentExecutor (no model). The client side runs here,
 * in-process with the instrumentation: the `@a2a-js/sdk` 1.3 client (JSON-RPC and HTTP+JSON,
 * 1.0 mode from the card URL) and raw `fetch` (JSON-RPC 1.0 and the SDK's 0.3 compatibility
 * layer on the same endpoint).
 *
 * The wire (see test/fixtures/a2a-python-live/README.md): card at `/.well-known/agent-card.json`
 * (a 1.0 card with the 0.3 fields merged in: `supportedInterfaces` ×4 and `url`,
 * `preferredTransport`, `additionalInterfaces`, `protocolVersion: "0.3"`); JSON-RPC at
 * `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest`. Skills `summarize`, `translate`, both
 * `outputModes: ["text/plain"]`; card `version` "1.0.0" in every variant.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-a2a-sdk.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, messageText, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import {
  VENV_PYTHON,
  startPythonSdkPeer,
  venvInstalled,
  type PythonSdkPeer,
} from './python/a2a-sdk/peer-process.mjs';
import { checkGrpcSpanAttributes, grpcClient, grpcClients, legacyGrpc } from './grpc-clients';
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

// ------------------------------------------------------------------ client helpers

const { v03Message, v10Params } = messages('py-sdk-');
const V10 = { 'A2A-Version': '1.0' };
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);

/** The healthy card, read by the app from a healthy deployment that is then replaced on the SAME port. */
async function cacheHealthyCardThenRedeploy(
  variant: 'A' | 'B',
  unknownSkill?: 'status' | 'raise',
): Promise<{ peer: PythonSdkPeer; card: Json }> {
  const healthy = await startPythonSdkPeer({ variant: 'healthy' });
  const port = healthy.port;
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl)).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  return { peer: await startPythonSdkPeer({ variant, port, unknownSkill }), card };
}

// ------------------------------------------------------------------ healthy

describe('a2a-sdk (Python) healthy peer', { skip }, () => {
  let peer: PythonSdkPeer;
  before(async () => {
    peer = await startPythonSdkPeer({ variant: 'healthy' });
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
    assert.equal(card.protocolVersion, '0.3', 'the 0.3 compat fields are merged into the card');
    assert.equal(card.url, `${peer.origin}/a2a/jsonrpc`);
    assert.deepEqual(
      card.supportedInterfaces.map((i: Json) => [i.protocolBinding, i.protocolVersion]),
      [
        ['JSONRPC', '1.0'],
        ['JSONRPC', '0.3'],
        ['HTTP+JSON', '1.0'],
        ['HTTP+JSON', '0.3'],
      ],
    );
    assert.deepEqual(
      card.skills.map((s: Json) => [s.id, s.outputModes]),
      [
        ['summarize', ['text/plain']],
        ['translate', ['text/plain']],
      ],
    );
    await spansSettled(1);
    const get = only('GetAgentCard');
    const fp = skillFingerprint(card as never);
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
    assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
    assert.equal(get.attributes['a2a.drift.kind'], undefined, describeSpans());
    // the seed's own Python, on the bytes the Python server sent: once with the machine's
    // python3, once with the interpreter of the server's venv
    assert.equal(pythonSeedFingerprint(raw), fp);
    assert.equal(pythonSeedFingerprint(raw, VENV_PYTHON), fp);
  });

  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(`@a2a-js/sdk 1.3 client (${transport}, createFromUrl): send + stream summarize / translate, zero drift`, async () => {
      const client = await sdkClient({ baseUrl: peer.baseUrl }, { transport, rest: true });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const part = task.artifacts[0].parts[0];
      assert.equal(part.content?.$case, 'text');
      assert.equal(part.mediaType, 'text/plain');
      assert.equal(
        part.content?.$case === 'text' && part.content.value,
        'Summary: The quick brown fox jumps over.',
      );
      const events = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.deepEqual(
        events.map((e) => e.payload?.$case),
        ['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate'],
      );

      await spansSettled(3);
      // the card span: see the `todo` test below (the hybrid card's top-level 0.3 wins)
      assert.ok(only('GetAgentCard').attributes['a2a.agent_card.fingerprint']);
      for (const [name, skill] of [
        ['SendMessage', 'summarize'],
        ['SendStreamingMessage', 'translate'],
      ]) {
        const s = only(name);
        assert.equal(s.attributes['a2a.skill.id'], skill);
        assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
        assert.equal(s.attributes['a2a.protocol.version'], '1.0', describeSpans());
        assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
      }
      assert.deepEqual(driftKinds(), [], describeSpans());
      assert.equal(await h.driftCount(), 0);
    });
  }

  test('GetAgentCard of the hybrid card a 1.0 client fetched (A2A-Version: 1.0, 1.0 interfaces listed first) says a2a.protocol.version 1.0', async () => {
    const res = await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } });
    const card = (await res.json()) as Json;
    assert.equal(card.protocolVersion, '0.3');
    assert.equal(card.supportedInterfaces[0].protocolVersion, '1.0');
    await spansSettled(1);
    assert.equal(only('GetAgentCard').attributes['a2a.protocol.version'], '1.0');
  });

  test('the app sees the same bytes with and without the instrumentation (card, JSON-RPC send, HTTP+JSON stream, 400, 404)', async () => {
    // uuids, timestamps and the etag-free card are the only things that differ between two runs
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
      const body = (method: string, params: Json) =>
        JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
      const msg = (text: string, skillId: string) => ({
        message: { messageId: `${tag}-1`, role: 'ROLE_USER', parts: [{ text }] },
        metadata: { skillId },
      });
      const h10 = { 'content-type': 'application/json', ...V10 };
      await go(peer.jsonRpcUrl, {
        method: 'POST',
        headers: h10,
        body: body('SendMessage', msg(`summarize: ${FOX}`, 'summarize')),
      });
      await go(`${peer.restUrl}/message:stream`, {
        method: 'POST',
        headers: { ...h10, accept: 'text/event-stream' },
        body: JSON.stringify(msg('translate: hello', 'translate')),
      });
      await go(`${peer.restUrl}/message:send`, {
        method: 'POST',
        headers: h10,
        body: JSON.stringify(msg('summarize: max_words=-1', 'summarize')),
      });
      await go(`${peer.restUrl}/tasks/no-such-task`, { headers: V10 });
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
    assert.match(on[2], /^200 text\/event-stream; charset=utf-8 data: \{"task"/);
    assert.match(on[3], /^400 application\/json /);
    assert.match(on[4], /^404 application\/json /);
    assert.ok(h.spans().length >= 5, 'the instrumented run made spans');
    // the skill's own InvalidParamsError (HTTP+JSON 400 INVALID_ARGUMENT / INVALID_PARAMS)
    assert.deepEqual(driftKinds(), [['SendMessage', 'invalid_params']], describeSpans());
  });

  for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
    test(`@a2a-js/sdk 1.3 client in its 0.3 mode (legacyCompat, ${transport}) on the SDK's 0.3 compat layer: send + stream, zero drift`, async () => {
      const { card } = await getCard(peer.cardUrl);
      // as a 0.3-only client sees it: the top-level 0.3 fields, without the 1.0 interfaces
      delete card.supportedInterfaces;
      const client = await sdkClient({ card }, { transport, rest: true, legacy: true });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const events = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.ok(events.length >= 3, `saw ${events.length} events`);

      await spansSettled(3);
      for (const [name, skill] of [
        ['SendMessage', 'summarize'],
        ['SendStreamingMessage', 'translate'],
      ]) {
        const sp = only(name);
        assert.equal(sp.attributes['a2a.skill.id'], skill);
        assert.equal(sp.attributes['a2a.protocol.version'], '0.3', describeSpans());
        assert.equal(sp.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
        assert.notEqual(sp.status.code, SpanStatusCode.ERROR, describeSpans());
      }
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  }

  test('raw fetch: JSON-RPC 1.0 SendMessage and the 0.3 compatibility layer (message/send) on the same endpoint, zero drift', async () => {
    await getCard(peer.cardUrl);
    const t10 = await rpc(
      peer.jsonRpcUrl,
      'SendMessage',
      v10Params(`summarize: ${FOX}`, 'summarize'),
      V10,
    );
    assert.equal(t10.task.status.state, 'TASK_STATE_COMPLETED');
    const t03 = await rpc(peer.jsonRpcUrl, 'message/send', {
      message: v03Message('translate: hello', 'translate'),
    });
    assert.equal(t03.kind, 'task');
    assert.equal(t03.status.state, 'completed');
    assert.deepEqual(t03.artifacts[0].parts, [{ kind: 'text', text: 'FR: hello' }]);

    await spansSettled(3);
    const sends = h.spans('SendMessage');
    assert.equal(sends.length, 2, describeSpans());
    assert.deepEqual(
      sends.map((s) => [
        s.attributes['a2a.skill.id'],
        s.attributes['a2a.task.state'],
        s.attributes['a2a.protocol.version'],
      ]),
      [
        ['summarize', 'TASK_STATE_COMPLETED', '1.0'],
        ['translate', 'TASK_STATE_COMPLETED', '0.3'],
      ],
    );
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('HTTP errors: REST GET of an unknown task (404) and a 0.3 REST body the 1.0 parser rejects (400): error spans, no drift', async () => {
    await getCard(peer.cardUrl);
    const client = await sdkClient(
      { baseUrl: peer.baseUrl },
      { transport: 'HTTP+JSON', rest: true },
    );
    await assert.rejects(client.getTask({ tenant: '', id: 'no-such-task', historyLength: 0 }));
    const res = await fetch(`${peer.restUrl}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V10 },
      body: JSON.stringify({ message: { messageId: 'x', role: 'ROLE_USER', parts: [] } }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as Json;
    assert.equal(body.error.status, 'INVALID_ARGUMENT');

    await spansSettled(3);
    const get = only('GetTask');
    assert.equal(get.status.code, SpanStatusCode.ERROR, describeSpans());
    const send = only('SendMessage');
    assert.equal(send.status.code, SpanStatusCode.ERROR, describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
});

// ------------------------------------------------------------------ variant A

describe(
  'a2a-sdk (Python) variant A (translate removed, card version still 1.0.0)',
  { skip },
  () => {
    let peer: PythonSdkPeer;
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

    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      test(`SDK client (${transport}) holding the healthy card, skill translate → FAILED "unknown skill: translate" → unknown_skill`, async () => {
        const client = await sdkClient({ card: healthyCard }, { transport, rest: true });
        const task = asTask(
          await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
        );
        assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
        assert.equal(messageText(task.status?.message), 'unknown skill: translate');

        await spansSettled(1);
        const send = only('SendMessage');
        assert.equal(send.attributes['a2a.skill.id'], 'translate');
        assert.equal(
          send.attributes['a2a.agent_card.fingerprint'],
          skillFingerprint(healthyCard as never),
        );
        assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
        assert.equal(send.status.code, SpanStatusCode.ERROR);
      });
    }

    test('raw 0.3 message/send holding the healthy card → failed task → unknown_skill', async () => {
      const t = await rpc(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      assert.equal(t.status.state, 'failed');
      assert.deepEqual(t.status.message.parts, [
        { kind: 'text', text: 'unknown skill: translate' },
      ]);
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    });

    test('the skill still on the card (summarize) is unaffected: zero drift', async () => {
      const client = await sdkClient({ card: healthyCard }, { transport: 'JSONRPC', rest: true });
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
  'a2a-sdk (Python) variant A, executor RAISES ValueError("unknown skill: translate")',
  { skip },
  () => {
    let peer: PythonSdkPeer;
    let healthyCard: Json;
    before(async () => {
      ({ peer, card: healthyCard } = await cacheHealthyCardThenRedeploy('A', 'raise'));
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('raw JSON-RPC 1.0 SendMessage and 0.3 message/send: the wire carries the exception text; unknown_skill', async () => {
      const r10 = await rpcRaw(
        peer.jsonRpcUrl,
        'SendMessage',
        v10Params('translate: hello', 'translate'),
        V10,
      );
      const r03 = await rpcRaw(peer.jsonRpcUrl, 'message/send', {
        message: v03Message('translate: hello', 'translate'),
      });
      await spansSettled(2);
      const sends = h.spans('SendMessage');
      assert.equal(sends.length, 2, describeSpans());
      const wire = JSON.stringify({ r10, r03 });
      assert.match(wire, /unknown skill: translate/, wire);
      for (const s of sends) {
        assert.equal(s.attributes['a2a.skill.id'], 'translate');
        assert.equal(s.status.code, SpanStatusCode.ERROR, describeSpans());
        assert.equal(
          s.attributes['a2a.drift.kind'],
          'unknown_skill',
          `${wire}\n${describeSpans()}`,
        );
      }
    });

    test('JSON-RPC 1.0 SendStreamingMessage: Task event, then `event: error` -32603 "unknown skill: translate" → unknown_skill', async () => {
      const res = await fetch(peer.jsonRpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V10 },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: nextRpcId(),
          method: 'SendStreamingMessage',
          params: v10Params('translate: hello', 'translate'),
        }),
      });
      const raw = await res.text();
      assert.match(
        raw,
        /\r\nevent: error\r\ndata: \{"error": \{"code": -32603, "message": "unknown skill: translate"\}/,
      );
      await spansSettled(1);
      const span = only('SendStreamingMessage');
      assert.equal(span.status.code, SpanStatusCode.ERROR, describeSpans());
      assert.equal(
        span.attributes['a2a.drift.kind'],
        'unknown_skill',
        `${raw}\n${describeSpans()}`,
      );
    });

    test('HTTP+JSON 1.0 message:send: the SDK answers 500 "unknown exception" (the text is lost): a failure the card settles → unknown_skill (card)', async () => {
      const client = await sdkClient({ card: healthyCard }, { transport: 'HTTP+JSON', rest: true });
      await assert.rejects(
        client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
      );
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.status.code, SpanStatusCode.ERROR, describeSpans());
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'card');
      assert.equal(send.attributes['a2a.drift.suspicion'], 'failure');
    });
  },
);

// ------------------------------------------------------------------ variant B

describe(
  'a2a-sdk (Python) variant B (summarize now returns image/png, card identical)',
  { skip },
  () => {
    let peer: PythonSdkPeer;
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

    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      test(`SDK client (${transport}) send + stream summarize → raw image/png part → output_mode_mismatch`, async () => {
        const client = await sdkClient({ card: healthyCard }, { transport, rest: true });
        const task = asTask(await client.sendMessage(sendRequest('summarize', { text: FOX })));
        assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
        const part = task.artifacts[0].parts[0];
        assert.equal(part.content?.$case, 'raw', JSON.stringify(part));
        assert.equal(part.mediaType, 'image/png');
        await collect(client.sendMessageStream(sendRequest('summarize', { text: FOX })));

        await spansSettled(2);
        for (const name of ['SendMessage', 'SendStreamingMessage']) {
          const s = only(name);
          assert.equal(s.attributes['a2a.skill.id'], 'summarize');
          assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
          assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
        }
      });
    }

    test('raw 0.3 message/send → file part image/png → output_mode_mismatch', async () => {
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

// ------------------------------------------------------------------ gRPC (issue 27)

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
