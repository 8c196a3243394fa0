/**
 * The instrumentation against AWS Strands Agents (`strands-agents[a2a]` 1.62.0, its
 * `strands.multiagent.a2a.A2AServer` on the reference `a2a-sdk` 0.3.26 server; pinned with hashes
 * in test/real-world/python/strands/requirements.lock), run as a child process by
 * test/real-world/python/strands/peer-process.mjs: a Strands Agent with the tools summarize and
 * translate, the card's skills derived by A2AServer from those tools, driven by a `Model`
 * subclass (deterministic). The client side runs here, in-process with the instrumentation: the
 * `@a2a-js/sdk` 1.3 client in its 0.3 mode (the card is 0.3-only) and raw `fetch`.
 *
 * The wire (test/fixtures/strands-live/): a 0.3 card (`protocolVersion "0.3.0"`, no
 * `supportedInterfaces`, JSONRPC only: A2AServer builds no REST app) at
 * `/.well-known/agent-card.json` (and the older `/.well-known/agent.json`); defaults `["text"]`
 * (not a media type), skills without modes, skill id = tool name, tags `[]`; every call `POST /`.
 * A tool the agent no longer has does not fail the task: Strands answers the model's call with
 * the tool result "Unknown tool: translate" and the task completes with the model's answer.
 * Variant B cannot be expressed: StrandsA2AExecutor only ever emits text parts (the agent's
 * result `str()`-ed) and A2AServer fixes the card's output modes to `["text"]`.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-strands.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import {
  VENV_PYTHON,
  startStrandsPeer,
  venvInstalled,
  type StrandsPeer,
} from './python/strands/peer-process.mjs';
import { FOX, getCard, messages, rpc, rpcRaw, sdkClient, spanChecks, type Json } from './lib';

const UNKNOWN_TOOL = 'Unknown tool: translate';
const skip = venvInstalled()
  ? false
  : 'test/real-world/python/strands/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { v03Params } = messages('py-strands-');
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);

/** The healthy card, read by the app from a healthy deployment that is then replaced on the SAME port. */
async function cacheHealthyCardThenRedeploy(
  streaming: 'legacy' | 'compliant' = 'legacy',
): Promise<{ peer: StrandsPeer; card: Json }> {
  const healthy = await startStrandsPeer({ variant: 'healthy' });
  const port = healthy.port;
  let card: Json;
  try {
    await h.reset();
    card = (await getCard(healthy.cardUrl)).card;
    await spansSettled(1);
  } finally {
    await healthy.stop();
  }
  return { peer: await startStrandsPeer({ variant: 'A', port, streaming }), card };
}

describe(
  'strands (Python) healthy peer (Strands Agent with tools, scripted Model)',
  { skip },
  () => {
    let peer: StrandsPeer;
    let compliant: StrandsPeer;
    before(async () => {
      peer = await startStrandsPeer({ variant: 'healthy' });
      compliant = await startStrandsPeer({ variant: 'healthy', streaming: 'compliant' });
    });
    after(async () => {
      await peer?.stop();
      await compliant?.stop();
    });
    beforeEach(async () => {
      await h.reset();
    });

    test('the card at /.well-known/agent-card.json → GetAgentCard with the fingerprint, protocol 0.3; python3 (the seed) agrees on the live bytes', async () => {
      const { card, raw } = await getCard(peer.cardUrl);
      assert.equal(card.protocolVersion, '0.3.0');
      assert.equal(card.supportedInterfaces, undefined);
      assert.equal(card.url, `${peer.origin}/`);
      assert.deepEqual(card.defaultOutputModes, ['text']);
      assert.deepEqual(
        card.skills.map((s: Json) => [s.id, s.outputModes]),
        [
          ['summarize', undefined],
          ['translate', undefined],
        ],
      );
      await spansSettled(1);
      const get = only('GetAgentCard');
      const fp = skillFingerprint(card as never);
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
      assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
      assert.equal(get.attributes['a2a.protocol.version'], '0.3');
      assert.equal(get.attributes['a2a.drift.kind'], undefined, describeSpans());
      assert.equal(pythonSeedFingerprint(raw), fp);
      assert.equal(pythonSeedFingerprint(raw, VENV_PYTHON), fp);
    });

    for (const streaming of ['legacy', 'compliant'] as const) {
      test(`@a2a-js/sdk 1.3 client (0.3 mode, createFromUrl), ${streaming} streaming: tool-using send summarize + stream translate, zero drift`, async () => {
        const p = streaming === 'legacy' ? peer : compliant;
        const client = await sdkClient({ baseUrl: p.baseUrl }, { legacy: true });
        const task = asTask(
          await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
        );
        assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
        const part = task.artifacts[0].parts[0];
        assert.equal(
          part.content?.$case === 'text' && part.content.value,
          // legacy: the AgentResult str()-ed (a newline per text block); compliant: the chunks
          `Summary: The quick brown fox jumps over.${streaming === 'legacy' ? '\n' : ''}`,
        );
        const events = await collect(
          client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
        );
        assert.deepEqual(
          events.map((e) => e.payload?.$case),
          streaming === 'legacy'
            ? ['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']
            : ['task', 'artifactUpdate', 'artifactUpdate', 'statusUpdate'],
        );

        await spansSettled(3);
        for (const [name, skill] of [
          ['SendMessage', 'summarize'],
          ['SendStreamingMessage', 'translate'],
        ]) {
          const s = only(name);
          assert.equal(s.attributes['a2a.skill.id'], skill);
          assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
          assert.equal(s.attributes['a2a.protocol.version'], '0.3', describeSpans());
          assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
        }
        assert.deepEqual(driftKinds(), [], describeSpans());
        assert.equal(await h.driftCount(), 0);
      });
    }

    test('raw fetch: 0.3 message/send and message/stream (SSE), zero drift', async () => {
      await getCard(peer.cardUrl);
      const t = await rpc(peer.rpcUrl, 'message/send', v03Params(`summarize: ${FOX}`, 'summarize'));
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(t.artifacts[0].parts, [
        { kind: 'text', text: 'Summary: The quick brown fox jumps over.\n' },
      ]);
      const res = await fetch(peer.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'message/stream',
          params: v03Params('translate: hello', 'translate'),
        }),
      });
      const sse = await res.text();
      assert.match(sse, /"kind":"artifact-update"/);
      assert.match(sse, /"state":"completed"/);
      await spansSettled(3);
      assert.equal(
        only('SendStreamingMessage').attributes['a2a.task.state'],
        'TASK_STATE_COMPLETED',
      );
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('errors: tasks/get of an unknown task (-32001), a REST path it does not serve (404): error spans, no drift', async () => {
      await getCard(peer.cardUrl);
      const r = await rpcRaw(peer.rpcUrl, 'tasks/get', { id: 'no-such-task' });
      assert.equal(r.error.code, -32001, JSON.stringify(r));
      const rest = await fetch(`${peer.origin}/v1/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          message: { messageId: 'x', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
          metadata: { skillId: 'summarize' },
        }),
      });
      assert.equal(rest.status, 404);
      await rest.text();
      await spansSettled(3);
      assert.equal(only('GetTask').status.code, SpanStatusCode.ERROR, describeSpans());
      assert.equal(only('SendMessage').status.code, SpanStatusCode.ERROR, describeSpans());
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('the app sees the same bytes with and without the instrumentation (card, send, stream, JSON-RPC error, 404)', async () => {
      const normalise = (t: string) =>
        t
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
          .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(?:Z|\+00:00)/g, 'TS');
      const run = async (tag: string): Promise<string[]> => {
        const out: string[] = [];
        const go = async (url: string, init?: RequestInit) => {
          const res = await fetch(url, init);
          const text = await res.text();
          out.push(
            `${res.status} ${res.headers.get('content-type')} ${normalise(text.split(tag).join('MSG'))}`,
          );
        };
        const post = (method: string, params: Json, accept = 'application/json') => ({
          method: 'POST',
          headers: { 'content-type': 'application/json', accept },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
        });
        const msg = (text: string, skillId: string) => ({
          message: {
            kind: 'message',
            role: 'user',
            messageId: `${tag}-1`,
            parts: [{ kind: 'text', text }],
            metadata: { skillId },
          },
        });
        await go(peer.cardUrl);
        await go(peer.rpcUrl, post('message/send', msg(`summarize: ${FOX}`, 'summarize')));
        await go(
          peer.rpcUrl,
          post('message/stream', msg('translate: hello', 'translate'), 'text/event-stream'),
        );
        await go(peer.rpcUrl, post('tasks/get', { id: `${tag}-none` }));
        await go(`${peer.origin}/v1/tasks/x`);
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
      assert.match(on[2], /^200 text\/event-stream; charset=utf-8 data: /);
      assert.match(on[3], /-32001/);
      assert.match(on[4], /^404 /);
      assert.ok(h.spans().length >= 4, 'the instrumented run made spans');
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  'strands (Python) variant A (translate tool removed, so gone from the card; version still 1.0.0)',
  { skip },
  () => {
    let peer: StrandsPeer;
    let healthyCard: Json;
    before(async () => {
      ({ peer, card: healthyCard } = await cacheHealthyCardThenRedeploy());
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('raw 0.3 message/send holding the healthy card: COMPLETED with Strands\' "Unknown tool: translate" → unknown_skill (content)', async () => {
      const t = await rpc(peer.rpcUrl, 'message/send', v03Params('translate: hello', 'translate'));
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(t.artifacts[0].parts, [{ kind: 'text', text: `${UNKNOWN_TOOL}\n` }]);
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'translate');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'content');
    });

    test('SDK client (0.3 mode) stream holding the healthy card, skill translate → unknown_skill, confirmed by the card re-served', async () => {
      const client = await sdkClient({ card: healthyCard }, { legacy: true });
      const events = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.ok(events.length >= 3);
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.skill.id'], 'translate');
      assert.equal(st.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(st.attributes['a2a.drift.evidence'], 'content');
      assert.equal(
        st.attributes['a2a.drift.confirmed'],
        true,
        'the card re-served lacks the skill',
      );
    });

    test('the skill still on the card (summarize) is unaffected: zero drift', async () => {
      const client = await sdkClient({ card: healthyCard }, { legacy: true });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
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
      assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());
      assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
    });
  },
);
