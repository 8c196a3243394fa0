/**
 * The instrumentation against Microsoft Agent Framework's A2A hosting (`agent-framework-a2a`
 * 1.0.0b261022 on `agent-framework-core` 1.26.0 and the reference `a2a-sdk` 1.3.0 server; pinned
 * with hashes in test/real-world/python/agent-framework/requirements.lock), run as a child
 * process by test/real-world/python/agent-framework/peer-process.mjs: an Agent Framework `Agent`
 * with the tools summarize and translate behind `A2AExecutor`, the app's card (skills = the
 * tools) and the SDK's routes, driven by a `BaseChatClient` with the framework's own
 * `FunctionInvocationLayer` over a scripted model (deterministic). The client side runs here,
 * in-process with the instrumentation: the `@a2a-js/sdk` 1.3 client (JSON-RPC and HTTP+JSON, 1.0
 * mode from the card URL; its 0.3 mode) and raw `fetch`.
 *
 * The wire (test/fixtures/agent-framework-live/): the a2a-sdk 1.3 card (1.0 with the 0.3 fields
 * merged in) at `/.well-known/agent-card.json`; JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at
 * `/a2a/rest`. A2AExecutor(stream=False) sends the answer as a WORKING status message (so it ends
 * in the task's `history`, the task has no artifacts); stream=True as artifact updates. A
 * function the agent no longer has: the framework answers the model `Error: Requested function
 * "translate" not found.` and the task COMPLETES with the model's answer; with
 * `terminate_on_unknown_calls` the task FAILS with that text as its status message.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-agent-framework.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { asTask, collect, messageText, sendRequest } from '../peers/sdk-client';
import {
  VENV_PYTHON,
  startAgentFrameworkPeer,
  venvInstalled,
  type AgentFrameworkPeer,
} from './python/agent-framework/peer-process.mjs';
import { FOX, getCard, messages, rpc, rpcRaw, sdkClient, type Json } from './lib';
import { liveChecks, liveHarness, venvSkip } from './live-checks';

const NOT_FOUND = 'Error: Requested function "translate" not found.';
const V10 = { 'A2A-Version': '1.0' };
const skip = venvSkip('agent-framework', venvInstalled());
const harness = liveHarness();
const checks = liveChecks(harness);
const { only, driftKinds, describeSpans, spansSettled } = checks;
const { v03Params, v10Params } = messages('py-maf-');

/** The agent's answer: the last agent message of the history (stream=False) or the artifacts. */
function answerText(task: Json): string {
  const fromHistory = (task.history ?? []).filter((m: Json) => /agent/i.test(m.role)).pop();
  const parts = fromHistory?.parts ?? task.artifacts?.flatMap((a: Json) => a.parts) ?? [];
  return parts.map((p: Json) => p.text ?? '').join('');
}

/** The hooks of a variant's suite: the healthy card cached, then the variant on the same port. */
const onVariant = (
  variant: 'A' | 'B',
  opts: { unknown?: 'result' | 'terminate'; stream?: boolean } = {},
) =>
  checks.onRedeployed(() =>
    checks.redeployed(
      () => startAgentFrameworkPeer({ variant: 'healthy' }),
      (port) => startAgentFrameworkPeer({ variant, port, ...opts }),
    ),
  );

describe(
  'agent-framework (Python) healthy peer (Agent with tools, scripted chat client)',
  { skip },
  () => {
    let peer: AgentFrameworkPeer;
    let streaming: AgentFrameworkPeer;
    before(async () => {
      peer = await startAgentFrameworkPeer({ variant: 'healthy' });
      streaming = await startAgentFrameworkPeer({ variant: 'healthy', stream: true });
    });
    after(async () => {
      await peer?.stop();
      await streaming?.stop();
    });
    beforeEach(async () => {
      await harness().reset();
    });

    test('the card at /.well-known/agent-card.json → GetAgentCard with the fingerprint; python3 (the seed) agrees on the live bytes', async () => {
      // the 1.0 interfaces come first: a2a.protocol.version 1.0, though the merged-in 0.3 fields say 0.3
      const { card } = await checks.cardChecked(peer.cardUrl, {
        protocol: '1.0',
        skills: 2,
        venvPython: VENV_PYTHON,
      });
      assert.equal(card.version, '1.0.0');
      assert.equal(card.protocolVersion, '0.3', 'the SDK merges the 0.3 fields in');
      assert.deepEqual(
        card.supportedInterfaces.map((i: Json) => [i.protocolBinding, i.protocolVersion]),
        [
          ['JSONRPC', '1.0'],
          ['HTTP+JSON', '1.0'],
          ['JSONRPC', '0.3'],
        ],
      );
      assert.deepEqual(
        card.skills.map((s: Json) => [s.id, s.outputModes]),
        [
          ['summarize', ['text/plain']],
          ['translate', ['text/plain']],
        ],
      );
    });

    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      for (const [label, p] of [
        ['stream=False', () => peer],
        ['stream=True', () => streaming],
      ] as const) {
        test(`@a2a-js/sdk 1.3 client (${transport}, createFromUrl), A2AExecutor ${label}: tool-using send summarize + stream translate, zero drift`, async () => {
          const client = await sdkClient({ baseUrl: p().baseUrl }, { transport, rest: true });
          const task = asTask(
            await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
          );
          assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
          const answer =
            label === 'stream=False'
              ? messageText(task.history[task.history.length - 1])
              : task.artifacts
                  .flatMap((a) => a.parts)
                  .map((x) => (x.content?.$case === 'text' ? x.content.value : ''))
                  .join('');
          assert.equal(answer, 'Summary: The quick brown fox jumps over.');
          const events = await collect(
            client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
          );
          assert.ok(events.length >= 3, JSON.stringify(events.map((e) => e.payload?.$case)));
          assert.equal(events[0].payload?.$case, 'task');

          await spansSettled(3);
          await checks.healthyCalls(
            [
              ['SendMessage', 'summarize'],
              ['SendStreamingMessage', 'translate'],
            ],
            '1.0',
          );
        });
      }
    }

    test('@a2a-js/sdk 1.3 client in its 0.3 mode (legacyCompat, JSON-RPC) on the SDK 0.3 layer: send + stream, zero drift', async () => {
      const { card } = await checks.cardChecked(peer.cardUrl, {
        protocol: '1.0',
        skills: 2,
        venvPython: VENV_PYTHON,
      });
      delete card.supportedInterfaces; // as a 0.3-only client sees it
      const client = await sdkClient({ card }, { legacy: true });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await collect(client.sendMessageStream(sendRequest('translate', { text: 'translate: hi' })));
      await spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        assert.equal(only(name).attributes['a2a.protocol.version'], '0.3', describeSpans());
        assert.equal(only(name).attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      }
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('raw fetch: JSON-RPC 1.0 SendMessage and 0.3 message/send, the answer read from the history; zero drift', async () => {
      await getCard(peer.cardUrl); // the card lists JSON-RPC 1.0 and 0.3 at this URL: each call's version
      const r10 = await rpc(
        peer.rpcUrl,
        'SendMessage',
        v10Params('translate: hello', 'translate'),
        V10,
      );
      assert.equal(r10.task.status.state, 'TASK_STATE_COMPLETED');
      assert.equal(answerText(r10.task), 'FR: hello');
      const r03 = await rpc(
        peer.rpcUrl,
        'message/send',
        v03Params(`summarize: ${FOX}`, 'summarize'),
      );
      assert.equal(r03.status.state, 'completed');
      assert.equal(r03.artifacts, undefined, 'stream=False: no artifacts, the answer is a message');
      assert.equal(answerText(r03), 'Summary: The quick brown fox jumps over.');
      await spansSettled(3);
      const sends = harness().spans('SendMessage');
      assert.deepEqual(sends.map((s) => s.attributes['a2a.protocol.version']).sort(), [
        '0.3',
        '1.0',
      ]);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('HTTP errors: JSON-RPC GetTask of an unknown task (-32001), REST GET of one (404): error spans, no drift', async () => {
      const r = await rpcRaw(peer.rpcUrl, 'GetTask', { id: 'no-such-task' }, V10);
      assert.equal(r.error.code, -32001, JSON.stringify(r));
      const rest = await fetch(`${peer.restUrl}/tasks/no-such-task`, { headers: V10 });
      assert.equal(rest.status, 404);
      await rest.text();
      await spansSettled(2);
      const gets = harness().spans('GetTask');
      assert.equal(gets.length, 2, describeSpans());
      for (const g of gets) assert.equal(g.status.code, SpanStatusCode.ERROR, describeSpans());
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('the app sees the same bytes with and without the instrumentation (card, JSON-RPC send, HTTP+JSON stream, -32001, 404)', async () => {
      const on = await checks.sameBytesWithAndWithout(async (tag, go) => {
        const h10 = { 'content-type': 'application/json', ...V10 };
        const msg = (text: string, skillId: string) => ({
          message: { messageId: `${tag}-1`, role: 'ROLE_USER', parts: [{ text }] },
          metadata: { skillId },
        });
        const body = (method: string, params: Json) =>
          JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
        await go(peer.cardUrl);
        await go(peer.rpcUrl, {
          method: 'POST',
          headers: h10,
          body: body('SendMessage', msg(`summarize: ${FOX}`, 'summarize')),
        });
        await go(`${peer.restUrl}/message:stream`, {
          method: 'POST',
          headers: { ...h10, accept: 'text/event-stream' },
          body: JSON.stringify(msg('translate: hello', 'translate')),
        });
        await go(peer.rpcUrl, {
          method: 'POST',
          headers: h10,
          body: body('GetTask', { id: `${tag}-x` }),
        });
        await go(`${peer.restUrl}/tasks/${tag}-none`, { headers: V10 });
      });
      assert.match(on[2], /^200 text\/event-stream; charset=utf-8 data: \{"task"/);
      assert.match(on[3], /-32001/);
      assert.match(on[4], /^404 application\/json /);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  'agent-framework (Python) variant A (translate tool removed, so gone from the card; version still 1.0.0)',
  { skip },
  () => {
    const v = onVariant('A');

    test(`raw 0.3 message/send holding the healthy card: COMPLETED with the framework's ${NOT_FOUND} → unknown_skill (content)`, async () => {
      const t = await rpc(
        v.peer().rpcUrl,
        'message/send',
        v03Params('translate: hello', 'translate'),
      );
      assert.equal(t.status.state, 'completed');
      assert.equal(answerText(t), NOT_FOUND);
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'translate');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'content');
    });

    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      test(`SDK client (${transport}) holding the healthy card: send + stream translate → unknown_skill, confirmed by the card re-served`, async () => {
        const client = await sdkClient({ card: v.card() }, { transport, rest: true });
        const task = asTask(
          await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
        );
        assert.equal(messageText(task.history[task.history.length - 1]), NOT_FOUND);
        await collect(
          client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
        );
        await spansSettled(2);
        for (const name of ['SendMessage', 'SendStreamingMessage']) {
          const s = only(name);
          assert.equal(s.attributes['a2a.skill.id'], 'translate');
          assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
          assert.equal(s.attributes['a2a.drift.confirmed'], true, describeSpans());
        }
      });
    }

    test('the skill still on the card (summarize) is unaffected: zero drift', async () => {
      const client = await sdkClient({ card: v.card() });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await spansSettled(1);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    checks.cardRefetchTest(v, ['summarize']);
  },
);

describe(
  'agent-framework (Python) variant A with terminate_on_unknown_calls (the run fails)',
  { skip },
  () => {
    const v = onVariant('A', { unknown: 'terminate' });

    test(`SDK client (JSON-RPC) send translate → FAILED, status message ${NOT_FOUND} → unknown_skill`, async () => {
      const client = await sdkClient({ card: v.card() });
      const task = asTask(
        await client.sendMessage(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      // str() of the framework's KeyError subclass: the text in single quotes
      assert.equal(messageText(task.status?.message), `'${NOT_FOUND}'`);
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    });

    test('raw JSON-RPC 1.0 SendStreamingMessage → the FAILED status update carries the text → unknown_skill', async () => {
      const res = await fetch(v.peer().rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...V10 },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'SendStreamingMessage',
          params: v10Params('translate: hello', 'translate'),
        }),
      });
      const sse = await res.text();
      assert.match(sse, /TASK_STATE_FAILED/);
      assert.ok(sse.includes('Requested function \\"translate\\" not found'), sse);
      await spansSettled(1);
      assert.equal(
        only('SendStreamingMessage').attributes['a2a.drift.kind'],
        'unknown_skill',
        describeSpans(),
      );
    });
  },
);

describe(
  'agent-framework (Python) variant B (summarize now answers with an image/png, card identical; A2AExecutor stream=True: artifacts)',
  { skip },
  () => {
    const v = onVariant('B', { stream: true });

    for (const transport of ['JSONRPC', 'HTTP+JSON'] as const) {
      test(`SDK client (${transport}) send + stream summarize → raw image/png part → output_mode_mismatch`, async () => {
        const client = await sdkClient({ card: v.card() }, { transport, rest: true });
        const task = asTask(
          await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
        );
        assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
        const part = task.artifacts[0].parts[0];
        assert.equal(part.content?.$case, 'raw', JSON.stringify(part));
        assert.equal(part.mediaType, 'image/png');
        await collect(
          client.sendMessageStream(sendRequest('summarize', { text: `summarize: ${FOX}` })),
        );
        await spansSettled(2);
        for (const name of ['SendMessage', 'SendStreamingMessage']) {
          const s = only(name);
          assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
          assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
        }
      });
    }

    checks.cardRefetchTest(v);
  },
);

describe(
  'agent-framework (Python) variant B with A2AExecutor stream=False (the default): the image is a status message',
  { skip },
  () => {
    const v = onVariant('B');

    test('SendMessage summarize → the raw image/png part is the WORKING status message (history), not an artifact: not judged for output modes (a limit), no false verdict', async () => {
      const client = await sdkClient({ card: v.card() });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(task.artifacts.length, 0);
      const part = task.history[task.history.length - 1].parts[0];
      assert.equal(part.content?.$case, 'raw', JSON.stringify(part));
      assert.equal(part.mediaType, 'image/png');
      await spansSettled(1);
      // output modes are judged on artifacts only (core/judge.ts): a status message also carries
      // progress text, which a skill's output modes do not describe
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

const clientsInstalled = existsSync(
  join(__dirname, 'clients', 'node_modules', '@google', 'adk', 'package.json'),
);
const A2A_SPANS = new Set(['GetAgentCard', 'SendMessage', 'SendStreamingMessage']);

describe(
  'agent-framework (Python) with the Google ADK JS client (`RemoteA2AAgent`, @google/adk 2.0 on @a2a-js/sdk 0.3)',
  {
    skip:
      skip ||
      (clientsInstalled
        ? false
        : 'test/real-world/clients not installed: bash scripts/real-world.sh'),
  },
  () => {
    let lib: typeof import('./clients/lib.js');
    before(async () => {
      lib = await import('./clients/lib.js');
    });
    beforeEach(async () => {
      await harness().reset();
    });
    /** The instrumentation's spans only (ADK traces through the global provider too). */
    const a2aDrift = () =>
      harness()
        .spans()
        .filter((s) => A2A_SPANS.has(s.name) && s.attributes['a2a.drift.kind'] !== undefined)
        .map((s) => [s.name, s.attributes['a2a.drift.kind']]);
    const sendSpan = async () => {
      await harness().waitForSpans(
        (s) => s.some((x) => x.name === 'SendStreamingMessage' && x.ended),
        5000,
      );
      await new Promise((r) => setTimeout(r, 50));
      return only('SendStreamingMessage');
    };

    test('healthy: RemoteA2AAgent from the base URL (it reads the well-known card), skill in message.metadata → 0.3 message/stream, COMPLETED, zero drift', async () => {
      const peer = await startAgentFrameworkPeer({ variant: 'healthy' });
      try {
        const events = await lib.runAdk(
          lib.adkAgent(peer.baseUrl, 'summarize'),
          `summarize: ${FOX}`,
        );
        assert.ok(
          !events.some((e) => e.thrown || e.errorMessage),
          `ADK run failed: ${JSON.stringify(events)}`,
        );
        assert.match(JSON.stringify(events), /Summary: The quick brown fox jumps over\./);
        const send = await sendSpan();
        assert.equal(send.attributes['a2a.skill.id'], 'summarize');
        assert.equal(send.attributes['a2a.protocol.version'], '0.3', describeSpans());
        assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
        assert.deepEqual(a2aDrift(), [], describeSpans());
      } finally {
        await peer.stop();
      }
    });

    test('variant A: RemoteA2AAgent holding the healthy card, skill translate → the framework’s "Requested function … not found" → unknown_skill', async () => {
      const { peer, card } = await checks.redeployed(
        () => startAgentFrameworkPeer({ variant: 'healthy' }),
        (port) => startAgentFrameworkPeer({ variant: 'A', port }),
      );
      try {
        harness().exporter.reset();
        delete card.supportedInterfaces; // as the 0.3 client reads it
        const events = await lib.runAdk(
          new lib.RemoteA2AAgent({
            name: 'remote',
            agentCard: card as never,
            beforeRequestCallbacks: [lib.putSkillId('translate') as never],
          }),
          'translate: hello',
        );
        assert.match(JSON.stringify(events), /Requested function/);
        const send = await sendSpan();
        assert.equal(send.attributes['a2a.skill.id'], 'translate');
        assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      } finally {
        await peer.stop();
      }
    });
  },
);
