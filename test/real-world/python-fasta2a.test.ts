/**
 * The instrumentation against pydantic's FastA2A (`fasta2a` 2.1.1 with its pydantic-ai bridge
 * `fasta2a.pydantic_ai.agent_to_a2a`, pydantic-ai-slim 2.68.0; pinned with hashes in
 * test/real-world/python/fasta2a/requirements.lock), run as a child process by
 * test/real-world/python/fasta2a/peer-process.mjs: a pydantic-ai Agent with the tools summarize
 * and translate, driven by pydantic-ai's `FunctionModel` (deterministic). The client side runs
 * here, in-process with the instrumentation: the `@a2a-js/sdk` 1.3 client (JSON-RPC, 1.0 mode
 * from the card URL) and raw `fetch` (0.3 method names, which FastA2A speaks natively).
 *
 * The wire (test/fixtures/fasta2a-live/): card at `/.well-known/agent-card.json`, a 1.0 card
 * (one JSONRPC 1.0 interface), skills with the app's own modes (`text/plain`) while
 * `defaultInput/OutputModes` are forced to `["application/json"]`; every call `POST /`; a send
 * is answered with the SUBMITTED task (blocking is not honoured: the client polls GetTask);
 * 1.0 method names are translated (`fasta2a.jsonrpc_v1`). A tool the agent no longer has does
 * not fail the task: pydantic-ai answers the model's call with "Unknown tool name: 'translate'.
 * Available tools: 'summarize'" and the task completes with the model's answer.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-fasta2a.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import {
  startFastA2APeer,
  venvInstalled,
  type FastA2APeer,
} from './python/fasta2a/peer-process.mjs';
import { FOX, getCard, messages, rpcRaw, sdkClient, spanChecks, type Json } from './lib';
import { liveChecks } from './live-checks';

const UNKNOWN_TOOL = "Unknown tool name: 'translate'. Available tools: 'summarize'";
const skip = venvInstalled()
  ? false
  : 'test/real-world/python/fasta2a/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { v03Params } = messages('py-fasta2a-');
/** FastA2A answers a send with the SUBMITTED task: poll GetTask until it is terminal. */
async function pollDone(client: Client, id: string): Promise<Task> {
  for (let i = 0; i < 100; i++) {
    const t = await client.getTask({ tenant: '', id, historyLength: undefined });
    const s = t.status?.state;
    if (s === TaskState.TASK_STATE_COMPLETED || s === TaskState.TASK_STATE_FAILED) return t;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${id} did not finish`);
}
async function pollRaw(url: string, id: string): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const r = await rpcRaw(url, 'tasks/get', { id });
    const s = r.result?.status?.state;
    if (s === 'completed' || s === 'failed') return r.result as Json;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`task ${id} did not finish`);
}

const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
const checks = liveChecks(() => h);
function artifactText(t: Task): string {
  const p = t.artifacts[t.artifacts.length - 1]?.parts[0];
  return p?.content?.$case === 'text' ? p.content.value : '';
}

describe('fasta2a (Python) healthy peer (pydantic-ai agent, FunctionModel)', { skip }, () => {
  let peer: FastA2APeer;
  before(async () => {
    peer = await startFastA2APeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the card at /.well-known/agent-card.json → GetAgentCard with the fingerprint; the seed in python3 agrees', async () => {
    const { card, raw } = await getCard(peer.cardUrl);
    assert.deepEqual(card.supportedInterfaces, [
      { protocolBinding: 'JSONRPC', url: peer.origin, protocolVersion: '1.0' },
    ]);
    assert.deepEqual(card.defaultOutputModes, ['application/json']);
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
    assert.equal(get.attributes['a2a.protocol.version'], '1.0');
    assert.equal(pythonSeedFingerprint(raw), fp);
  });

  test('@a2a-js/sdk 1.3 client: send (SUBMITTED) + GetTask polling, and stream, zero drift', async () => {
    const client = await sdkClient({ baseUrl: peer.baseUrl });
    const submitted = asTask(
      await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(submitted.status?.state, TaskState.TASK_STATE_SUBMITTED);
    const done = await pollDone(client, submitted.id);
    assert.equal(done.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(artifactText(done), 'Summary: The quick brown fox jumps over.');
    const events = await collect(
      client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
    );
    assert.deepEqual(
      events.map((e) => e.payload?.$case),
      ['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate'],
    );

    await spansSettled(4);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'summarize');
    assert.notEqual(send.status.code, SpanStatusCode.ERROR, describeSpans());
    const st = only('SendStreamingMessage');
    assert.equal(st.attributes['a2a.skill.id'], 'translate');
    assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('raw fetch, 0.3 names: message/send + tasks/get (its `result.task` wrapper with 0.3 states), zero drift', async () => {
    await getCard(peer.cardUrl);
    const r = await rpcRaw(
      peer.rpcUrl,
      'message/send',
      v03Params(`summarize: ${FOX}`, 'summarize'),
    );
    // fasta2a 2.1.1 answers the 0.3 method with a 1.0-shaped result: {task: {...}}, state "submitted"
    assert.equal(r.result.task.status.state, 'submitted', JSON.stringify(r));
    const done = await pollRaw(peer.rpcUrl, r.result.task.id);
    assert.equal(done.artifacts[0].parts[0].text, 'Summary: The quick brown fox jumps over.');
    await spansSettled(3);
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('JSON-RPC error: tasks/get of an unknown task (-32001) → error span, no drift', async () => {
    await getCard(peer.cardUrl);
    const r = await rpcRaw(peer.rpcUrl, 'tasks/get', { id: 'no-such-task' });
    assert.equal(r.error.code, -32001, JSON.stringify(r));
    await spansSettled(2);
    const get = only('GetTask');
    assert.equal(get.status.code, SpanStatusCode.ERROR, describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
});

describe(
  'fasta2a (Python) variant A (translate removed from agent and card, version still 1.0.0)',
  { skip },
  () => {
    let peer: FastA2APeer;
    let healthyCard: Json;
    before(async () => {
      const healthy = await startFastA2APeer({ variant: 'healthy' });
      const port = healthy.port;
      try {
        await h.reset();
        healthyCard = (await getCard(healthy.cardUrl)).card;
        await spansSettled(1);
      } finally {
        await healthy.stop();
      }
      peer = await startFastA2APeer({ variant: 'A', port });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('the wire: the task COMPLETES, the model answers with pydantic-ai\'s "Unknown tool name" text', async () => {
      const r = await rpcRaw(
        peer.rpcUrl,
        'message/send',
        v03Params('translate: hello', 'translate'),
      );
      const done = await pollRaw(peer.rpcUrl, r.result.task.id);
      assert.equal(done.status.state, 'completed');
      assert.equal(done.artifacts[0].parts[0].text, UNKNOWN_TOOL);
      await new Promise((r) => setTimeout(r, 300)); // the poll's span: held for the card re-fetch
    });

    test('SDK client stream holding the healthy card, skill translate → unknown_skill', async () => {
      const client = await sdkClient({ card: healthyCard });
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

    test('re-fetching the card → card_changed', async () => {
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

describe(
  'fasta2a (Python) variant B (same tools and card; the agent now answers with structured output)',
  { skip },
  () => {
    const v = checks.onRedeployed(() =>
      checks.redeployed(
        () => startFastA2APeer({ variant: 'healthy' }),
        (port) => startFastA2APeer({ variant: 'B', port }),
      ),
    );

    test('raw 0.3 message/send + polling: the artifact is a data part where the skill says text/plain → output_mode_mismatch', async () => {
      const r = await rpcRaw(
        v.peer().rpcUrl,
        'message/send',
        v03Params(`summarize: ${FOX}`, 'summarize'),
      );
      const done = await pollRaw(v.peer().rpcUrl, r.result.task.id);
      assert.equal(done.status.state, 'completed');
      const part = done.artifacts[0].parts[0];
      // a 1.0-shaped data part (no `kind`), as fasta2a answers 0.3 calls
      assert.equal(part.text, undefined, JSON.stringify(part));
      assert.deepEqual(part.data, {
        result: { summary: 'Summary: The quick brown fox jumps over.' },
      });
      await spansSettled(2);
      const kinds = driftKinds();
      assert.ok(kinds.length >= 1, describeSpans());
      for (const [, kind] of kinds) assert.equal(kind, 'output_mode_mismatch', describeSpans());
      const get = h.spans('GetTask').find((s) => s.attributes['a2a.drift.kind'] !== undefined);
      assert.ok(get, describeSpans());
      assert.deepEqual(get.attributes['a2a.drift.expected_output_modes'], ['text/plain']);
      assert.equal(get.attributes['a2a.drift.actual_media_type'], 'application/json');
    });

    test('SDK client stream holding the healthy card, skill summarize → output_mode_mismatch', async () => {
      const client = await sdkClient({ card: v.card() });
      const events = await collect(
        client.sendMessageStream(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.ok(events.length >= 3);
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(st.attributes['a2a.drift.actual_media_type'], 'application/json');
    });

    checks.cardRefetchTest(v);
  },
);
