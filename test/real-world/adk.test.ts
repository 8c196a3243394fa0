/**
 * The instrumentation against Google ADK's OWN A2A server (@google/adk 2.0.0 `toA2a()` +
 * `A2AAgentExecutor` on express 5, the @a2a-js/sdk 0.3 request handler), run in a child process
 * by test/real-world/adk/peer-process.mjs: two LlmAgents (`desk` with the tools summarize and
 * translate, `studio` with render) on one origin, each under its own base path, driven by a
 * deterministic scripted BaseLlm. The client side runs here, in-process with the
 * instrumentation: the `@a2a-js/sdk` 1.3 client (0.3 mode, the card is a 0.3 card) and raw
 * `fetch` with JSON-RPC 0.3 bodies.
 *
 * ADK's wire (see test/fixtures/adk/README.md): card at `{base}/.well-known/agent-card.json`,
 * `protocolVersion "0.3.0"`, `version "1.0.0"` (constant), `defaultOutputModes ["text"]`, skills
 * `<agent>` ("model") + `<agent>-<tool>`; operations at `{base}/jsonrpc`. A tool-using turn puts
 * ADK's intermediate parts into the artifacts: data parts with `metadata.adk_type`
 * `function_call` / `function_response`, then the final text. A tool the agent no longer has
 * fails the task with "Function translate is not found in the toolsDict." (the TOOL name, not the
 * skill id). SSE events are `data: {json}\n\n`.
 *
 *   cd test/real-world/adk && npm ci          # once
 *   cd /work/main && npm run build && node --import tsx --test test/real-world/adk.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, sendRequest } from '../peers/sdk-client';
import { skillFingerprint } from '../../src/index';
import { startAdkPeer, type AdkPeer } from './adk/peer-process.mjs';
import { FOX, getCard, messages, nextRpcId, rpc, sdkClient, spanChecks, type Json } from './lib';

const NO_SKILL_REASON = 'no skill id for this task';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

// ------------------------------------------------------------------ client helpers

const { v03Message: textMessage, nextMessageId } = messages('adk-test-');
/** A 0.3 message naming the skill in a data part only (no metadata.skillId). */
function dataMessage(skill: string, parameters: Json): Json {
  return {
    kind: 'message',
    role: 'user',
    messageId: nextMessageId(),
    parts: [{ kind: 'data', data: { skill, parameters } }],
  };
}

/** message/stream: the JSON-RPC payloads of ADK's SSE events (`data: {json}\n\n`). */
async function stream(url: string, params: Json): Promise<Json[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextRpcId(), method: 'message/stream', params }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const raw = await res.text();
  return raw
    .split('\n\n')
    .filter((e) => e.trim().length > 0)
    .map((e) => {
      assert.ok(
        e.startsWith('data: {'),
        `ADK frames events as "data: {json}", got ${e.slice(0, 20)}`,
      );
      return (JSON.parse(e.slice('data: '.length)) as Json).result as Json;
    });
}
function finalStatus(events: Json[]): Json {
  const last = events[events.length - 1];
  assert.equal(last.kind, 'status-update');
  assert.equal(last.final, true);
  return last.status as Json;
}

/** The @a2a-js/sdk 1.3 client in its 0.3 mode, built from a card the app already holds. */
const legacyClient = (card: Json): Promise<Client> => sdkClient({ card }, { legacy: true });

const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h, 3000);

/** The healthy card of `desk`, read by the app from a healthy deployment that is then replaced. */
async function cacheHealthyCardThenRedeploy(
  variant: 'A' | 'B',
): Promise<{ peer: AdkPeer; card: Json }> {
  const healthy = await startAdkPeer({ variant: 'healthy' });
  const port = healthy.port;
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl('desk'))).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  return { peer: await startAdkPeer({ variant, port }), card };
}

// ------------------------------------------------------------------ healthy peer

describe('Google ADK healthy peer (desk + studio, toA2a basePath)', () => {
  let peer: AdkPeer;
  before(async () => {
    peer = await startAdkPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('a. raw message/send + message/stream with skillId desk-summarize: function_call / function_response data parts, zero drift', async () => {
    const { card } = await getCard(peer.cardUrl('desk'));
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.version, '1.0.0');
    assert.equal(card.url, `${peer.origin}/desk/jsonrpc`);
    assert.deepEqual(card.defaultOutputModes, ['text']);
    assert.deepEqual(
      card.skills.map((s: Json) => [s.id, s.name]),
      [
        ['desk', 'model'],
        ['desk-summarize', 'summarize'],
        ['desk-translate', 'translate'],
      ],
    );

    const task = await rpc(peer.rpcUrl('desk'), 'message/send', {
      message: textMessage(`summarize: ${FOX}`, 'desk-summarize'),
    });
    assert.equal(task.kind, 'task');
    assert.equal(task.status.state, 'completed');
    assert.deepEqual(
      task.artifacts.map((a: Json) => a.parts.map((p: Json) => [p.kind, p.metadata?.adk_type])),
      [[['data', 'function_call']], [['data', 'function_response']], [['text', undefined]]],
    );
    assert.equal(task.artifacts[2].parts[0].text, 'Summary: The quick brown fox jumps over.');

    const events = await stream(peer.rpcUrl('desk'), {
      message: textMessage(`summarize: ${FOX}`, 'desk-summarize'),
    });
    assert.deepEqual(
      events.map((e) => e.kind),
      [
        'task',
        'status-update',
        'artifact-update', // function_call
        'artifact-update', // function_response
        'artifact-update', // partial text (append)
        'artifact-update', // partial text (append)
        'artifact-update', // the aggregated text
        'status-update',
      ],
    );
    assert.equal(finalStatus(events).state, 'completed');

    await spansSettled(3);
    const get = only('GetAgentCard');
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
    assert.equal(get.attributes['a2a.agent_card.skill_count'], 3);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'desk-summarize');
    assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.notEqual(send.status.code, SpanStatusCode.ERROR, describeSpans());
    const st = only('SendStreamingMessage');
    assert.equal(st.attributes['a2a.skill.id'], 'desk-summarize');
    assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.notEqual(st.status.code, SpanStatusCode.ERROR, describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('a. @a2a-js/sdk 1.3 client (0.3 mode) send + stream, skillId desk-summarize: zero drift', async () => {
    const { card } = await getCard(peer.cardUrl('desk'));
    const client = await legacyClient(card);
    const task = asTask(
      await client.sendMessage(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.deepEqual(
      task.artifacts.map((a) => a.parts.map((p) => p.content?.$case)),
      [['data'], ['data'], ['text']],
    );
    const events = await collect(
      client.sendMessageStream(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    assert.ok(events.length >= 6, `saw ${events.length} stream events`);

    await spansSettled(3);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const s = only(name);
      assert.equal(s.attributes['a2a.skill.id'], 'desk-summarize');
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('e. the skill named in a data part (no metadata.skillId): the span carries a2a.skill.id desk-summarize', async () => {
    await getCard(peer.cardUrl('desk'));
    const task = await rpc(peer.rpcUrl('desk'), 'message/send', {
      message: dataMessage('desk-summarize', { text: FOX }),
    });
    assert.equal(task.status.state, 'completed');
    assert.equal(task.artifacts[0].parts[0].data.name, 'summarize', 'the model called summarize');
    const events = await stream(peer.rpcUrl('desk'), {
      message: dataMessage('desk-summarize', { text: FOX }),
    });
    assert.equal(finalStatus(events).state, 'completed');

    await spansSettled(3);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const s = only(name);
      assert.equal(s.attributes['a2a.skill.id'], 'desk-summarize', describeSpans());
      assert.notEqual(s.attributes['a2a.drift.unjudged_reason'], NO_SKILL_REASON);
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('f. the second agent (studio): send + stream studio-render, zero drift, judged against its own card', async () => {
    const { card: desk } = await getCard(peer.cardUrl('desk'));
    const { card: studio } = await getCard(peer.cardUrl('studio'));
    assert.equal(studio.url, `${peer.origin}/studio/jsonrpc`);
    assert.deepEqual(
      studio.skills.map((s: Json) => s.id),
      ['studio', 'studio-render'],
    );
    const client = await legacyClient(studio);
    const task = asTask(
      await client.sendMessage(sendRequest('studio-render', { text: 'render: a red house' })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const events = await stream(peer.rpcUrl('studio'), {
      message: textMessage('render: a red house', 'studio-render'),
    });
    assert.equal(finalStatus(events).state, 'completed');

    await spansSettled(4);
    assert.equal(h.spans('GetAgentCard').length, 2);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const s = only(name);
      assert.equal(s.attributes['a2a.skill.id'], 'studio-render');
      assert.equal(
        s.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(studio as never),
        'the studio operation carries the studio card',
      );
      assert.notEqual(s.attributes['a2a.agent_card.fingerprint'], skillFingerprint(desk as never));
      assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
});

// ------------------------------------------------------------------ variant A: translate removed, same port

describe('Google ADK variant A (desk translate tool removed, card version still 1.0.0)', () => {
  let peer: AdkPeer;
  let healthyCard: Json;
  before(async () => {
    ({ peer, card: healthyCard } = await cacheHealthyCardThenRedeploy('A'));
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(() => {
    // keep the cached healthy card, drop the spans of earlier tests
    h.exporter.reset();
  });

  test('b. SDK client holding the healthy card, skill desk-translate → FAILED "Function translate is not found in the toolsDict." → unknown_skill', async () => {
    const client = await legacyClient(healthyCard);
    const task = asTask(
      await client.sendMessage(sendRequest('desk-translate', { text: 'translate: Hello world' })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
    const text = task.status?.message?.parts.map((p) =>
      p.content?.$case === 'text' ? p.content.value : '',
    );
    assert.deepEqual(text, ['Function translate is not found in the toolsDict.']);

    await spansSettled(1);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'desk-translate');
    assert.equal(
      send.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(healthyCard as never),
      'judged against the cached healthy card',
    );
    assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    assert.equal(send.status.code, SpanStatusCode.ERROR);
  });

  test('b. raw message/stream skill desk-translate → failed status-update → unknown_skill on the stream span', async () => {
    const events = await stream(peer.rpcUrl('desk'), {
      message: textMessage('translate: Hello world', 'desk-translate'),
    });
    const status = finalStatus(events);
    assert.equal(status.state, 'failed');
    assert.deepEqual(status.message.parts, [
      { kind: 'text', text: 'Function translate is not found in the toolsDict.' },
    ]);
    assert.equal(events[events.length - 1].metadata.adk_error_code, 'UNKNOWN_ERROR');

    await spansSettled(1);
    const span = only('SendStreamingMessage');
    assert.equal(span.attributes['a2a.skill.id'], 'desk-translate');
    assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    assert.equal(span.status.code, SpanStatusCode.ERROR);
  });

  test('a skill the peer still has (desk-summarize) works and is not drift', async () => {
    const client = await legacyClient(healthyCard);
    const task = asTask(
      await client.sendMessage(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    await spansSettled(1);
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'desk-summarize');
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('d. re-fetching the same card URL after the redeploy → card_changed on GetAgentCard (version unchanged)', async () => {
    const { card } = await getCard(peer.cardUrl('desk'));
    assert.equal(card.version, healthyCard.version);
    assert.deepEqual(
      card.skills.map((s: Json) => s.id),
      ['desk', 'desk-summarize'],
    );
    await spansSettled(1);
    const get = only('GetAgentCard');
    assert.equal(
      get.attributes['a2a.agent_card.previous_fingerprint'],
      skillFingerprint(healthyCard as never),
    );
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
    assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());
  });
});

// ------------------------------------------------------------------ variant B: summarize now returns a PNG

describe('Google ADK variant B (desk-summarize reused: an image/png file part, card identical)', () => {
  let peer: AdkPeer;
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

  test('c. SDK client holding the healthy card, skill desk-summarize → image/png artifact → output_mode_mismatch', async () => {
    const client = await legacyClient(healthyCard);
    const task = asTask(
      await client.sendMessage(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const last = task.artifacts[task.artifacts.length - 1].parts[0];
    assert.equal(last.content?.$case, 'raw', JSON.stringify(last));
    assert.equal(last.mediaType, 'image/png');

    await spansSettled(1);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'desk-summarize');
    assert.equal(send.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
    assert.equal(send.attributes['a2a.drift.actual_media_type'], 'image/png');
    assert.deepEqual(send.attributes['a2a.drift.actual_media_types'], ['image/png']);
  });

  test('c. raw message/stream skill desk-summarize → file part image/png → output_mode_mismatch on the stream span', async () => {
    const events = await stream(peer.rpcUrl('desk'), {
      message: textMessage(`summarize: ${FOX}`, 'desk-summarize'),
    });
    assert.equal(finalStatus(events).state, 'completed');
    const file = events.find(
      (e) => e.kind === 'artifact-update' && e.artifact.parts[0].kind === 'file',
    );
    assert.ok(file, 'a file artifact-update');
    assert.equal(file.artifact.parts[0].file.mimeType, 'image/png');

    await spansSettled(1);
    const span = only('SendStreamingMessage');
    assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
    assert.equal(span.attributes['a2a.drift.actual_media_type'], 'image/png');
    assert.deepEqual(span.attributes['a2a.drift.actual_media_types'], ['image/png']);
  });

  test('the B card is identical to the healthy one: re-fetching it is not card_changed', async () => {
    const { card } = await getCard(peer.cardUrl('desk'));
    assert.deepEqual(card, healthyCard);
    await spansSettled(1);
    const get = only('GetAgentCard');
    assert.equal(
      get.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(healthyCard as never),
    );
    assert.equal(get.attributes['a2a.drift.kind'], undefined, describeSpans());
  });
});
