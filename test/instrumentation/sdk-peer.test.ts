/**
 * The instrumentation against a real @a2a-js/sdk server and the real SDK client,
 * over 1.0 JSON-RPC, 1.0 HTTP+JSON and the SDK's legacy 0.3 mode: the seed's
 * variants A and B are detected, streaming and not; healthy calls are never flagged.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import {
  startSdkPeer,
  DEFAULT_SKILL,
  TRANSLATE_SKILL,
  SUMMARIZE_PLAIN_SKILL,
  type SdkPeer,
} from '../peers/sdk-peer';
import {
  createSdkClient,
  sendRequest,
  collect,
  asTask,
  type SdkTransportChoice,
} from '../peers/sdk-client';
import { TaskState } from '@a2a-js/sdk';
import { skillFingerprint, onAgentCardDrift, type DriftEvent } from '../../src/index';

let h: Harness;
let peer: SdkPeer;
const events: DriftEvent[] = [];
let removeCallback: () => void;

before(async () => {
  h = setupOtel();
  removeCallback = onAgentCardDrift((e) => {
    events.push(e);
  });
});

after(async () => {
  removeCallback();
  await h.shutdown();
});

beforeEach(async () => {
  if (peer) await peer.close();
  peer = await startSdkPeer({ name: 'peer-a' });
  await h.reset();
  events.length = 0;
});

after(async () => {
  await peer?.close();
});

async function waitForCallback(n: number): Promise<void> {
  const until = Date.now() + 2000;
  while (events.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
}

for (const transport of ['jsonrpc', 'rest', 'v03-jsonrpc'] as SdkTransportChoice[]) {
  describe(`SDK client over ${transport}`, () => {
    test('healthy SendMessage: one CLIENT span with the contract attributes, no drift', async () => {
      const client = await createSdkClient(peer, transport);
      const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
      const card = h.spans('GetAgentCard');
      assert.equal(card.length, 1, 'one GetAgentCard span');
      assert.equal(card[0].kind, SpanKind.CLIENT);
      const send = h.spans('SendMessage');
      assert.equal(send.length, 1, 'one SendMessage span');
      const a = send[0].attributes;
      assert.equal(send[0].kind, SpanKind.CLIENT);
      assert.equal(a['a2a.method.name'], 'SendMessage');
      assert.equal(a['a2a.protocol.version'], transport.startsWith('v03') ? '0.3' : '1.0');
      assert.equal(a['a2a.task.id'], task.id);
      assert.equal(a['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(a['a2a.skill.id'], 'summarize-v2');
      assert.equal(a['gen_ai.agent.name'], 'peer-a');
      assert.equal(a['gen_ai.agent.version'], '1.0');
      assert.equal(a['server.address'], '127.0.0.1');
      assert.equal(a['server.port'], peer.port);
      assert.equal(typeof a['a2a.agent_card.fingerprint'], 'string');
      assert.equal(
        a['a2a.agent_card.fingerprint'],
        card[0].attributes['a2a.agent_card.fingerprint'],
      );
      assert.equal(a['a2a.agent_card.url'], card[0].attributes['a2a.agent_card.url']);
      assert.equal(drifted(spans).length, 0);
      assert.notEqual(send[0].status.code, SpanStatusCode.ERROR);
      assert.equal(await h.driftCount(), 0);
    });

    test('variant A: skill swapped without a version bump → unknown_skill on the span, counter, callback', async () => {
      const client = await createSdkClient(peer, transport); // the client caches the card here
      peer.redeploy([TRANSLATE_SKILL]);
      const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(
        task.status?.state,
        TaskState.TASK_STATE_FAILED,
        'the peer failed the task inside its lifecycle, no JSON-RPC error',
      );
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.name, 'SendMessage');
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
      assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
      assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
      assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      const ex = span.events.find((e) => e.name === 'exception');
      assert.ok(ex, 'exception event');
      assert.equal(ex.attributes?.['exception.type'], 'StaleAgentCardError');
      assert.equal(
        await h.driftCount({
          'a2a.drift.kind': 'unknown_skill',
          'a2a.skill.id': 'summarize-v2',
          'gen_ai.agent.name': 'peer-a',
        }),
        1,
      );
      await waitForCallback(1);
      assert.equal(events.length, 1);
      assert.equal(events[0].kind, 'unknown_skill');
      assert.equal(events[0].skillId, 'summarize-v2');
      assert.equal(events[0].taskId, task.id);
      assert.equal(events[0].agentName, 'peer-a');
      assert.ok(events[0].cardUrl?.endsWith('agent-card.json'));
    });

    test('variant B: same skill id now returns text/plain → output_mode_mismatch', async () => {
      const client = await createSdkClient(peer, transport);
      peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
      await client.sendMessage(sendRequest('summarize-v2'));
      if (transport.startsWith('v03')) {
        // 0.3 text parts carry no media type: by default they match any text/* mode, so nothing can be said.
        await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
        assert.equal(drifted(h.spans()).length, 0);
        return;
      }
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
      assert.equal(span.attributes['error.type'], 'ArtifactSchemaDriftError');
      assert.deepEqual(span.attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
      assert.equal(span.attributes['a2a.drift.actual_media_type'], 'text/plain');
      assert.equal(span.status.code, SpanStatusCode.ERROR);
    });

    test('streaming: variant A and B are judged on the stream events, span ends with the stream', async () => {
      const client = await createSdkClient(peer, transport);
      await collect(client.sendMessageStream(sendRequest('summarize-v2')));
      await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
      assert.equal(drifted(h.spans()).length, 0, 'healthy stream not flagged');
      const healthy = h.spans('SendStreamingMessage')[0];
      assert.equal(healthy.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.ok((healthy.attributes['a2a.stream.event_count'] as number) >= 3);

      peer.redeploy([TRANSLATE_SKILL]);
      await collect(client.sendMessageStream(sendRequest('summarize-v2')));
      await h.waitForSpans((s) => drifted(s).length === 1);
      assert.equal(drifted(h.spans())[0].attributes['a2a.drift.kind'], 'unknown_skill');
      assert.equal(drifted(h.spans())[0].name, 'SendStreamingMessage');
    });
  });
}

test('the GetAgentCard span carries the seed fingerprint of the card served', async () => {
  const res = await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } });
  const body = await res.json();
  const [span] = await h.waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
  assert.equal(span.attributes['a2a.agent_card.fingerprint'], skillFingerprint(body));
  assert.equal(span.attributes['gen_ai.agent.name'], 'peer-a');
  assert.equal(span.attributes['a2a.agent_card.skill_count'], 1);
});

test('healthy traffic in every shape is never flagged', async () => {
  for (const t of ['jsonrpc', 'rest', 'v03-jsonrpc'] as SdkTransportChoice[]) {
    const client = await createSdkClient(peer, t);
    for (let i = 0; i < 3; i++) {
      const task = asTask(
        await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: i === 1 })),
      );
      await client.getTask({ tenant: '', id: task.id, historyLength: undefined } as never);
      await collect(client.sendMessageStream(sendRequest('summarize-v2')));
    }
  }
  await new Promise((r) => setTimeout(r, 50));
  const spans = h.spans();
  assert.ok(spans.length >= 30, `saw ${spans.length} spans`);
  assert.deepEqual(
    drifted(spans).map((s) => [s.name, s.attributes['a2a.drift.kind']]),
    [],
  );
  assert.equal(spans.filter((s) => s.status.code === SpanStatusCode.ERROR).length, 0);
  void DEFAULT_SKILL;
});
