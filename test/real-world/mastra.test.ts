/**
 * The instrumentation (in this Node 20 process) against a REAL Mastra A2A server
 * (@mastra/core 1.71.0 + @mastra/hono 1.7.9 / @mastra/server 1.67.0, see mastra/package.json)
 * running in a child process on Node 22 (Mastra needs >= 22.13; the binary comes from
 * mastra/node22.sh, the runtime matrix's fetch). If no Node 22 can be had, `before` throws:
 * the file fails, it never skips.
 *
 * The peer has two agents on one origin (cards at /api/.well-known/{agentId}/agent-card.json,
 * JSON-RPC at /api/a2a/{agentId}); skills on the card are the agent's tools; the models are
 * deterministic ai/test MockLanguageModelV3s calling the tool the user text names (`skill:<id>`).
 * Wire facts (see test/fixtures/mastra/README.md):
 *   - card: protocolVersion "0.3.0", absolute `url`, version always "1.0", skills without modes,
 *     defaultInput/OutputModes ["text/plain"];
 *   - variant A (translate removed, same card version) is a COMPLETED task whose artifact text
 *     says `Tool "translate" not found. Available tools: summarize-v2. ...` (streaming: that text
 *     split over word-sized appended artifact-update chunks), no JSON-RPC error;
 *   - variant B cannot be expressed (no per-skill modes, fixed defaults).
 *
 *   cd /work/main && node --import tsx --test --test-concurrency=1 test/real-world/mastra.test.ts
 * Needs: `npm ci` in test/real-world/mastra (run by Node 22's npm, see its README).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { AgentCard } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { sendRequest, collect, asTask } from '../peers/sdk-client';
import { skillFingerprint } from '../../src/index';
import { node22, startMastraPeer, type MastraPeer } from './mastra/peer-process.mjs';

let h: Harness;
let peer: MastraPeer;
let port = 0;
let rpcSeq = 0;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Restart the peer on the same port with another tool set (the card version stays "1.0"). */
async function deploy(variant: 'healthy' | 'A'): Promise<void> {
  if (peer?.variant === variant) return;
  await peer?.stop();
  peer = await startMastraPeer({ variant, port });
  port = peer.port;
}

function message(text: string, skillId?: string, v1 = false): Json {
  const metadata = skillId === undefined ? {} : { metadata: { skillId } };
  return v1
    ? { messageId: `m-${++rpcSeq}`, role: 'ROLE_USER', parts: [{ text }], ...metadata }
    : {
        kind: 'message',
        messageId: `m-${++rpcSeq}`,
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...metadata,
      };
}

async function getCard(agentId = 'assistant'): Promise<Json> {
  const res = await fetch(peer.cardUrl(agentId));
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

async function rpc(
  agentId: string,
  method: string,
  params: Json,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(peer.rpcUrl(agentId), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcSeq, method, params }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** message/stream with raw fetch; returns the raw SSE text and the parsed `data:` events. */
async function stream(
  agentId: string,
  params: Json,
  headers: Record<string, string> = {},
): Promise<{ raw: string; events: Json[] }> {
  const res = await fetch(peer.rpcUrl(agentId), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcSeq, method: 'message/stream', params }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const raw = await res.text();
  const events = raw
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice('data: '.length)) as Json);
  return { raw, events };
}

/** The SDK client (1.3.0) in its 0.3 mode over Mastra's card (fetched by the app, as the SDK peer tests do). */
async function sdkClient(card: Json): Promise<Client> {
  const legacy = { legacyCompat: { enabled: true } };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(legacy)],
      cardResolver: new DefaultAgentCardResolver(legacy),
      preferredTransports: ['JSONRPC'],
    }),
  );
  return factory.createFromAgentCard(structuredClone(card) as unknown as AgentCard);
}

function only(name: string): ReadableSpan {
  const list = h.spans(name);
  assert.equal(
    list.length,
    1,
    `one ${name} span, saw ${list.length}: ${JSON.stringify(h.spans().map((s) => s.name))}`,
  );
  return list[0];
}

function describeDrift(spans: ReadableSpan[]): Array<[string, unknown]> {
  return drifted(spans).map((s) => [s.name, s.attributes['a2a.drift.kind']]);
}

/** Let late span ends (stream settle, body reads) land. */
async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
}

before(async () => {
  node22(); // throws (the whole file fails) when no Node >= 22.13 can be had
  h = setupOtel();
  peer = await startMastraPeer({ variant: 'healthy' });
  port = peer.port;
  assert.match(peer.nodeVersion, /^v22\./);
});

after(async () => {
  await peer?.stop();
  await h?.shutdown();
});

describe('healthy Mastra peer', () => {
  beforeEach(async () => {
    await deploy('healthy');
    await h.reset();
  });

  test('card at /api/.well-known/assistant/agent-card.json → GetAgentCard span with the seed fingerprint', async () => {
    const card = await getCard();
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.url, `${peer.origin}/api/a2a/assistant`);
    assert.deepEqual(
      card.skills.map((s: Json) => s.id),
      ['summarize-v2', 'translate'],
    );
    const [span] = await h.waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
    assert.equal(span.name, 'GetAgentCard');
    assert.equal(span.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card));
    assert.equal(span.attributes['a2a.agent_card.skill_count'], 2);
    assert.equal(span.attributes['gen_ai.agent.name'], 'assistant');
    assert.equal(span.attributes['gen_ai.agent.version'], '1.0');
    assert.equal(span.attributes['server.port'], peer.port);
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('raw message/send, tasks/get and message/stream: spans with task, skill and card; zero drift', async () => {
    const card = await getCard();
    const sent = await rpc('assistant', 'message/send', {
      message: message('skill:translate hello world from Prague', 'translate'),
    });
    assert.equal(sent.status, 200);
    const task = sent.body.result;
    assert.equal(task.kind, 'task');
    assert.equal(task.status.state, 'completed');
    assert.deepEqual(task.artifacts[0].parts, [
      { kind: 'text', text: 'Traduction: hello world from Prague' },
    ]);
    const got = await rpc('assistant', 'tasks/get', { id: task.id });
    assert.equal(got.body.result.status.state, 'completed');
    const st = await stream('assistant', {
      message: message('skill:translate hello world from Prague', 'translate'),
    });
    // Mastra's stream: Task(working), one artifact-update per word (append after the first), final status-update.
    assert.equal(st.events[0].result.kind, 'task');
    const chunks = st.events.filter((e) => e.result.kind === 'artifact-update');
    assert.deepEqual(
      chunks.map((e) => e.result.artifact.parts[0].text),
      ['Traduction: ', 'hello ', 'world ', 'from ', 'Prague'],
    );
    assert.equal(st.events.at(-1)?.result.kind, 'status-update');
    assert.equal(st.events.at(-1)?.result.final, true);
    assert.equal(st.events.at(-1)?.result.status.state, 'completed');

    await h.waitForSpans((s) =>
      ['SendMessage', 'GetTask', 'SendStreamingMessage'].every((n) => s.some((x) => x.name === n)),
    );
    await settle();
    const fp = skillFingerprint(card);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.task.id'], task.id);
    assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(send.attributes['a2a.skill.id'], 'translate');
    assert.equal(send.attributes['a2a.protocol.version'], '0.3');
    assert.equal(send.attributes['a2a.agent_card.fingerprint'], fp);
    assert.equal(send.attributes['a2a.agent_card.url'], peer.cardUrl('assistant'));
    assert.equal(send.attributes['gen_ai.agent.name'], 'assistant');
    assert.notEqual(send.status.code, SpanStatusCode.ERROR);
    const get = only('GetTask');
    assert.equal(get.attributes['a2a.task.id'], task.id);
    assert.equal(get.attributes['a2a.lifecycle.negotiation_known'], true);
    const sse = only('SendStreamingMessage');
    assert.equal(sse.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(sse.attributes['a2a.stream.event_count'], st.events.length);
    assert.equal(sse.attributes['a2a.skill.id'], 'translate');
    assert.equal(sse.attributes['a2a.agent_card.fingerprint'], fp);
    assert.deepEqual(describeDrift(h.spans()), []);
    assert.equal(h.spans().filter((s) => s.status.code === SpanStatusCode.ERROR).length, 0);
    assert.equal(await h.driftCount(), 0);
  });

  test('the @a2a-js/sdk client (0.3 mode) against Mastra: send and stream, zero drift', async () => {
    const card = await getCard();
    const client = await sdkClient(card);
    const task = asTask(
      await client.sendMessage(
        sendRequest('summarize-v2', { text: 'skill:summarize-v2 one two three four five six' }),
      ),
    );
    assert.equal(task.artifacts[0]?.parts[0]?.content?.$case, 'text');
    const events = await collect(
      client.sendMessageStream(
        sendRequest('summarize-v2', { text: 'skill:summarize-v2 one two three four five six' }),
      ),
    );
    assert.ok(events.length >= 4, `saw ${events.length} stream events`);
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.task.id'], task.id);
    assert.equal(send.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(send.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card));
    assert.equal(only('SendStreamingMessage').attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('A2A-Version: 1.0 (Mastra keeps the slash method names, 1.0 shapes): zero drift', async () => {
    await getCard();
    const sent = await rpc(
      'assistant',
      'message/send',
      { message: message('skill:translate hello world', 'translate', true) },
      { 'A2A-Version': '1.0' },
    );
    assert.equal(sent.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    assert.deepEqual(sent.body.result.task.artifacts[0].parts, [
      { text: 'Traduction: hello world' },
    ]);
    const st = await stream(
      'assistant',
      { message: message('skill:translate hello world', 'translate', true) },
      { 'A2A-Version': '1.0' },
    );
    assert.equal(st.events.at(-1)?.result.statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    assert.equal(only('SendMessage').attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(only('SendStreamingMessage').attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('app results are identical with the instrumentation disabled (ids and timestamps removed)', async () => {
    const normalise = (v: unknown): unknown =>
      JSON.parse(
        JSON.stringify(v)
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
          .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<ts>')
          .replace(/"m-\d+"/g, '"<mid>"')
          .replace(/msg-\d+-\d+-\d+/g, '<sdk-mid>')
          .replace(/call-\d+/g, '<call>')
          .replace(/"id":\d+/g, '"id":"<rpc>"')
          .replace(/"seconds":"?\d+"?,"nanos":\d+/g, '<pbts>'),
      );
    const scenario = async () => {
      rpcSeq = 1000; // the same JSON-RPC and message ids in both runs (also inside the raw SSE text)
      const card = await getCard();
      const sent = await rpc('assistant', 'message/send', {
        message: message('skill:translate hello world from Prague', 'translate'),
      });
      const got = await rpc('assistant', 'tasks/get', { id: sent.body.result.id });
      const st = await stream('assistant', {
        message: message('skill:summarize-v2 one two three four five', 'summarize-v2'),
      });
      const missing = await rpc('assistant', 'tasks/get', { id: 'no-such-task' });
      const client = await sdkClient(card);
      const sdkTask = await client.sendMessage(
        sendRequest('translate', { text: 'skill:translate bonjour' }),
      );
      const sdkEvents = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'skill:translate bonjour' })),
      );
      return normalise({ card, sent, got, stream: st.raw, missing, sdkTask, sdkEvents });
    };
    const on = await scenario();
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
    await settle();
    const spansOn = h.spans().length;
    assert.ok(spansOn >= 7, `instrumented run made ${spansOn} spans`);
    h.instrumentation.disable();
    let off: unknown;
    try {
      off = await scenario();
    } finally {
      h.instrumentation.enable();
    }
    await settle();
    assert.equal(h.spans().length, spansOn, 'no spans while disabled');
    assert.deepEqual(off, on);
  });
});

describe('variant A: translate removed, card version still "1.0"', () => {
  let cached: Json;
  beforeEach(async () => {
    await deploy('healthy');
    await h.reset();
    cached = await getCard(); // the client caches the card listing translate
    await deploy('A');
  });

  test('message/send: COMPLETED task saying Tool "translate" not found → unknown_skill on the SendMessage span', async () => {
    const sent = await rpc('assistant', 'message/send', {
      message: message('skill:translate hello world from Prague', 'translate'),
    });
    assert.equal(sent.status, 200);
    assert.equal(sent.body.error, undefined, 'no JSON-RPC error');
    const task = sent.body.result;
    assert.equal(task.status.state, 'completed', 'Mastra completes the task');
    assert.match(
      task.artifacts[0].parts[0].text,
      /^Tool "translate" not found\. Available tools: summarize-v2\./,
    );
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    await settle();
    const span = only('SendMessage');
    assert.equal(span.attributes['a2a.agent_card.fingerprint'], skillFingerprint(cached));
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.deepEqual(describeDrift(h.spans()), [['SendMessage', 'unknown_skill']]);
    assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
    assert.equal(span.attributes['a2a.skill.id'], 'translate');
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(
      await h.driftCount({
        'a2a.drift.kind': 'unknown_skill',
        'a2a.skill.id': 'translate',
        'gen_ai.agent.name': 'assistant',
      }),
      1,
    );
  });

  test('message/stream: the text arrives in word chunks ("Tool ", "\\"translate\\" ", "not ", "found. ") → unknown_skill on the SendStreamingMessage span', async () => {
    const st = await stream('assistant', {
      message: message('skill:translate hello world from Prague', 'translate'),
    });
    const text = st.events
      .filter((e) => e.result.kind === 'artifact-update')
      .map((e) => e.result.artifact.parts[0].text)
      .join('');
    assert.match(text, /^Tool "translate" not found\./);
    assert.equal(st.events.at(-1)?.result.status.state, 'completed');
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
    await settle();
    const span = only('SendStreamingMessage');
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.deepEqual(describeDrift(h.spans()), [['SendStreamingMessage', 'unknown_skill']]);
    assert.equal(span.attributes['a2a.skill.id'], 'translate');
    assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
  });

  test('the @a2a-js/sdk client holding the old card: unknown_skill on its SendMessage span', async () => {
    const client = await sdkClient(cached);
    const task = asTask(
      await client.sendMessage(sendRequest('translate', { text: 'skill:translate hello world' })),
    );
    assert.equal(task.status?.state, 3 /* TASK_STATE_COMPLETED */);
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    await settle();
    assert.deepEqual(describeDrift(h.spans()), [['SendMessage', 'unknown_skill']]);
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'translate');
  });

  test('A2A-Version: 1.0 send and stream: unknown_skill on both spans', async () => {
    const sent = await rpc(
      'assistant',
      'message/send',
      { message: message('skill:translate hello world', 'translate', true) },
      { 'A2A-Version': '1.0' },
    );
    assert.equal(sent.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    assert.match(sent.body.result.task.artifacts[0].parts[0].text, /^Tool "translate" not found/);
    await stream(
      'assistant',
      { message: message('skill:translate hello world', 'translate', true) },
      { 'A2A-Version': '1.0' },
    );
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    assert.deepEqual(describeDrift(h.spans()).sort(), [
      ['SendMessage', 'unknown_skill'],
      ['SendStreamingMessage', 'unknown_skill'],
    ]);
  });

  test('re-fetching the card: another fingerprint under the same version → card_changed on that GetAgentCard span', async () => {
    const fresh = await getCard();
    assert.equal(fresh.version, cached.version);
    assert.deepEqual(
      fresh.skills.map((s: Json) => s.id),
      ['summarize-v2'],
    );
    await h.waitForSpans((s) => s.filter((x) => x.name === 'GetAgentCard').length === 2);
    const refetch = h.spans('GetAgentCard')[1];
    assert.equal(refetch.attributes['a2a.agent_card.fingerprint'], skillFingerprint(fresh));
    assert.equal(
      refetch.attributes['a2a.agent_card.previous_fingerprint'],
      skillFingerprint(cached),
    );
    assert.deepEqual(describeDrift(h.spans()), [['GetAgentCard', 'card_changed']]);
  });

  test('a tool error naming a DIFFERENT tool than the requested skill is not drift', async () => {
    // skillId summarize-v2 (still served); the model is steered to translate (gone): the text names
    // "translate" and lists summarize-v2 as available.
    const sent = await rpc('assistant', 'message/send', {
      message: message('skill:translate hello', 'summarize-v2'),
    });
    assert.match(
      sent.body.result.artifacts[0].parts[0].text,
      /^Tool "translate" not found\. Available tools: summarize-v2\./,
    );
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    await settle();
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'summarize-v2');
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('the second agent (helper, unchanged) is not affected', async () => {
    const sent = await rpc('helper', 'message/send', {
      message: message('skill:lookup drift', 'lookup'),
    });
    assert.equal(sent.body.result.status.state, 'completed');
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    await settle();
    assert.deepEqual(describeDrift(h.spans()), []);
  });
});

describe('variant B (same skill id, other output mode)', () => {
  test('cannot be expressed: Mastra cards carry no per-skill modes and fixed text/plain defaults; parts carry no media type', async () => {
    await deploy('healthy');
    const card = await getCard();
    assert.deepEqual(card.defaultInputModes, ['text/plain']);
    assert.deepEqual(card.defaultOutputModes, ['text/plain']);
    for (const s of card.skills) {
      assert.equal(s.inputModes, undefined);
      assert.equal(s.outputModes, undefined);
    }
    const sent = await rpc(
      'assistant',
      'message/send',
      { message: message('skill:translate x', 'translate', true) },
      { 'A2A-Version': '1.0' },
    );
    assert.deepEqual(
      Object.keys(sent.body.result.task.artifacts[0].parts[0]),
      ['text'],
      'a 1.0 part without mediaType',
    );
  });
});

describe('two agents on one origin', () => {
  beforeEach(async () => {
    await deploy('healthy');
    await h.reset();
  });

  test("a call to helper is never judged against assistant's card", async () => {
    const assistantCard = await getCard('assistant');
    assert.ok(!assistantCard.skills.some((s: Json) => s.id === 'lookup'));
    const sent = await rpc('helper', 'message/send', {
      message: message('skill:lookup drift', 'lookup'),
    });
    assert.equal(sent.body.result.status.state, 'completed');
    const st = await stream('helper', { message: message('skill:lookup drift', 'lookup') });
    assert.equal(st.events.at(-1)?.result.status.state, 'completed');
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const span = only(name);
      assert.equal(span.attributes['a2a.skill.id'], 'lookup');
      assert.notEqual(
        span.attributes['a2a.agent_card.url'],
        peer.cardUrl('assistant'),
        `${name} used the assistant's card`,
      );
      assert.notEqual(
        span.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(assistantCard),
        `${name} used the assistant's card`,
      );
      assert.notEqual(span.attributes['gen_ai.agent.name'], 'assistant');
    }
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('with both cards fetched, each call carries its own agent card', async () => {
    const a = await getCard('assistant');
    const b = await getCard('helper');
    await rpc('helper', 'message/send', { message: message('skill:lookup drift', 'lookup') });
    await rpc('assistant', 'message/send', {
      message: message('skill:summarize-v2 one two three four five', 'summarize-v2'),
    });
    await h.waitForSpans((s) => s.filter((x) => x.name === 'SendMessage').length === 2);
    await settle();
    const bySkill = new Map(h.spans('SendMessage').map((s) => [s.attributes['a2a.skill.id'], s]));
    assert.equal(
      bySkill.get('lookup')?.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(b),
    );
    assert.equal(bySkill.get('lookup')?.attributes['gen_ai.agent.name'], 'helper');
    assert.equal(
      bySkill.get('summarize-v2')?.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(a),
    );
    assert.equal(bySkill.get('summarize-v2')?.attributes['gen_ai.agent.name'], 'assistant');
    assert.deepEqual(describeDrift(h.spans()), []);
  });
});

describe('errors and other tools on the healthy peer', () => {
  beforeEach(async () => {
    await deploy('healthy');
    await h.reset();
  });

  test('a COMPLETED text naming a DIFFERENT tool (Tool "weather" not found; lists the requested skill as available) → no drift, send and stream', async () => {
    await getCard();
    const sent = await rpc('assistant', 'message/send', {
      message: message('skill:weather in Prague', 'summarize-v2'),
    });
    assert.match(
      sent.body.result.artifacts[0].parts[0].text,
      /^Tool "weather" not found\. Available tools: summarize-v2, translate\./,
    );
    await stream('assistant', { message: message('skill:weather in Prague', 'summarize-v2') });
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    assert.equal(only('SendMessage').attributes['a2a.skill.id'], 'summarize-v2');
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('JSON-RPC errors over HTTP 200 (-32001 task not found, -32009 version) and HTTP 400 schema errors are not drift', async () => {
    await getCard();
    const missing = await rpc('assistant', 'tasks/get', { id: 'no-such-task' });
    assert.equal(missing.status, 200);
    assert.equal(missing.body.error.code, -32001);
    const version = await rpc(
      'assistant',
      'message/send',
      { message: message('skill:translate x', 'translate') },
      { 'A2A-Version': '2.0' },
    );
    assert.equal(version.body.error.code, -32009);
    const bad = await rpc('assistant', 'message/send', {
      message: { ...message('skill:translate x', 'translate'), role: 'robot' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'Invalid request body');
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'GetTask') &&
        s.filter((x) => x.name === 'SendMessage').length === 2,
    );
    await settle();
    assert.equal(only('GetTask').attributes['error.type'], '-32001');
    assert.deepEqual(
      h
        .spans('SendMessage')
        .map((s) => s.attributes['error.type'])
        .sort(),
      ['-32009', '400'],
    );
    assert.deepEqual(describeDrift(h.spans()), []);
  });

  test('the agent run throws (a provider failure): -32603 on send, failed "Handler failed: ..." on stream → ERROR spans, no drift', async () => {
    await getCard();
    const sent = await rpc('assistant', 'message/send', {
      message: message('model:throw skill:translate x', 'translate'),
    });
    assert.equal(sent.status, 200);
    assert.equal(sent.body.error.code, -32603);
    assert.equal(sent.body.error.message, 'mock model failure (model:throw)');
    const st = await stream('assistant', {
      message: message('model:throw skill:translate x', 'translate'),
    });
    const last = st.events.at(-1)?.result;
    assert.equal(last.status.state, 'failed');
    assert.equal(
      last.status.message.parts[0].text,
      'Handler failed: mock model failure (model:throw)',
    );
    await h.waitForSpans(
      (s) =>
        s.some((x) => x.name === 'SendMessage') && s.some((x) => x.name === 'SendStreamingMessage'),
    );
    await settle();
    const send = only('SendMessage');
    assert.equal(send.attributes['error.type'], '-32603');
    assert.equal(send.status.code, SpanStatusCode.ERROR);
    const sse = only('SendStreamingMessage');
    assert.equal(sse.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.deepEqual(describeDrift(h.spans()), []);
  });
});
