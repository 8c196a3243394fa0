/**
 * The instrumentation against Google ADK's PYTHON A2A server (`google-adk` 2.13.0 `to_a2a()`,
 * pinned with hashes in test/real-world/python/google-adk/requirements.lock, on the `a2a-sdk`
 * 1.3.0 routes it pulls in), run as a child process by
 * test/real-world/python/google-adk/peer-process.mjs: one LlmAgent `desk` (tools summarize,
 * translate) driven by a deterministic `BaseLlm` subclass. The client side runs here, in-process
 * with the instrumentation: the `@a2a-js/sdk` 1.3 client (JSON-RPC, 1.0 mode from the card URL)
 * and raw `fetch` (JSON-RPC 1.0 and the 0.3 compatibility layer, same endpoint).
 *
 * The wire (test/fixtures/google-adk-python-live/): card at `/.well-known/agent-card.json`, a
 * PURE 1.0 card (one JSONRPC 1.0 interface at the origin, no 0.3 fields, although the endpoint
 * also answers 0.3 methods), `version "0.0.1"`, `defaultOutputModes ["text/plain"]`, skills
 * `desk` ("model") + `desk-<tool>`, none with its own modes. A tool-using turn sends the
 * function_call / function_response data parts (`metadata.adk_type`) in WORKING status
 * messages, the final text in the artifact. A tool the agent no longer has does NOT fail the
 * task: ADK answers the call with a function_response `{"error": "Invoking `translate()` failed
 * as no tool with that name is available. ..."}` and the task completes.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-google-adk.test.ts
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
  startPythonAdkPeer,
  venvInstalled,
  type PythonAdkPeer,
} from './python/google-adk/peer-process.mjs';
import { FOX, getCard, messages, rpc, sdkClient, spanChecks, type Json } from './lib';
import { liveChecks } from './live-checks';

const NO_TOOL =
  'Invoking `translate()` failed as no tool with that name is available. The tools you can call are: summarize. You could retry, but it is IMPORTANT that you only call a tool from that list.';
const skip = venvInstalled()
  ? false
  : 'test/real-world/python/google-adk/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const V10 = { 'A2A-Version': '1.0' };
const { v03Params, v10Params } = messages('py-adk-');
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
const checks = liveChecks(() => h);

describe('Google ADK (Python) healthy peer (to_a2a, desk: summarize + translate)', { skip }, () => {
  let peer: PythonAdkPeer;
  before(async () => {
    peer = await startPythonAdkPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the card at /.well-known/agent-card.json → GetAgentCard with the fingerprint; the seed in python3 agrees', async () => {
    const { card, raw } = await getCard(peer.cardUrl);
    assert.equal(card.version, '0.0.1');
    assert.equal(card.protocolVersion, undefined, 'a pure 1.0 card');
    assert.deepEqual(card.supportedInterfaces, [
      { url: peer.origin, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    assert.deepEqual(card.defaultOutputModes, ['text/plain']);
    assert.deepEqual(
      card.skills.map((s: Json) => [s.id, s.name, s.outputModes]),
      [
        ['desk', 'model', undefined],
        ['desk-summarize', 'summarize', undefined],
        ['desk-translate', 'translate', undefined],
      ],
    );
    await spansSettled(1);
    const get = only('GetAgentCard');
    const fp = skillFingerprint(card as never);
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
    assert.equal(get.attributes['a2a.agent_card.skill_count'], 3);
    assert.equal(get.attributes['a2a.protocol.version'], '1.0');
    assert.equal(pythonSeedFingerprint(raw), fp);
  });

  test('@a2a-js/sdk 1.3 client (createFromUrl): send + stream desk-summarize, tool call parts in WORKING status messages, zero drift', async () => {
    const client = await sdkClient({ baseUrl: peer.baseUrl });
    const task = asTask(
      await client.sendMessage(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const last = task.artifacts[task.artifacts.length - 1].parts[0];
    assert.equal(
      last.content?.$case === 'text' && last.content.value,
      'Summary: The quick brown fox jumps over.',
    );
    const events = await collect(
      client.sendMessageStream(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
    );
    const adkTypes = events.flatMap((e) =>
      e.payload?.$case === 'statusUpdate'
        ? (e.payload.value.status?.message?.parts ?? []).map(
            (p) => (p.metadata as Json | undefined)?.adk_type ?? p.content?.$case,
          )
        : [],
    );
    assert.deepEqual(adkTypes, ['function_call', 'function_response', 'text']);

    await spansSettled(3);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const s = only(name);
      assert.equal(s.attributes['a2a.skill.id'], 'desk-summarize');
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(s.attributes['a2a.protocol.version'], '1.0');
      assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
    }
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('raw fetch: JSON-RPC 1.0 SendMessage and 0.3 message/send (desk-translate), zero drift', async () => {
    await getCard(peer.cardUrl);
    const t10 = await rpc(
      peer.rpcUrl,
      'SendMessage',
      v10Params('translate: hello', 'desk-translate'),
      V10,
    );
    assert.equal(t10.task.status.state, 'TASK_STATE_COMPLETED');
    const t03 = await rpc(
      peer.rpcUrl,
      'message/send',
      v03Params('translate: hello', 'desk-translate'),
    );
    assert.equal(t03.status.state, 'completed');
    assert.deepEqual(
      t03.history.map((m: Json) => m.parts.map((p: Json) => p.metadata?.adk_type ?? p.kind)),
      [['text'], ['function_call'], ['function_response'], ['text']],
    );
    await spansSettled(3);
    const sends = h.spans('SendMessage');
    assert.deepEqual(
      sends.map((s) => s.attributes['a2a.skill.id']),
      ['desk-translate', 'desk-translate'],
    );
    assert.equal(sends[0].attributes['a2a.protocol.version'], '1.0');
    // the 0.3 call to an endpoint the (pure 1.0) card lists only as 1.0: no version is claimed
    // (the card offers no 0.3 to take it from), and certainly not 1.0
    assert.equal(sends[1].attributes['a2a.protocol.version'], undefined);
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
  test('JSON-RPC error: GetTask of an unknown task (-32001 TASK_NOT_FOUND) → error span, no drift', async () => {
    const client = await sdkClient({ baseUrl: peer.baseUrl });
    await assert.rejects(client.getTask({ tenant: '', id: 'no-such-task', historyLength: 0 }));
    await spansSettled(2);
    const get = only('GetTask');
    assert.equal(get.status.code, SpanStatusCode.ERROR, describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
});

describe(
  'Google ADK (Python) variant A (translate removed; ADK answers the call with an error and COMPLETES)',
  { skip },
  () => {
    let peer: PythonAdkPeer;
    let healthyCard: Json;
    before(async () => {
      const healthy = await startPythonAdkPeer({ variant: 'healthy' });
      const port = healthy.port;
      try {
        await h.reset();
        healthyCard = (await getCard(healthy.cardUrl)).card;
        await spansSettled(1);
      } finally {
        await healthy.stop();
      }
      peer = await startPythonAdkPeer({ variant: 'A', port });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('the wire: a COMPLETED task, the function_response carries ADK\'s "no tool with that name" error', async () => {
      const t = await rpc(
        peer.rpcUrl,
        'SendMessage',
        v10Params('translate: hello', 'desk-translate'),
        V10,
      );
      assert.equal(t.task.status.state, 'TASK_STATE_COMPLETED');
      const fr = t.task.history
        .flatMap((m: Json) => m.parts)
        .find((p: Json) => p.metadata?.adk_type === 'function_response');
      assert.deepEqual(fr.data.response, { error: NO_TOOL });
      assert.equal(t.task.artifacts[0].parts[0].text, `The tool translate failed: ${NO_TOOL}`);
      // the span is held while the card is fetched again (content evidence): let it end here
      await spansSettled(1);
    });

    test('SDK client holding the healthy card, skill desk-translate → unknown_skill', async () => {
      const client = await sdkClient({ card: healthyCard });
      const task = asTask(
        await client.sendMessage(sendRequest('desk-translate', { text: 'translate: hello' })),
      );
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'desk-translate');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'content');
      assert.equal(
        send.attributes['a2a.drift.confirmed'],
        true,
        'the card re-served lacks the skill',
      );
    });

    test('re-fetching the card → card_changed (desk-translate gone, version still 0.0.1)', async () => {
      const { card, raw } = await getCard(peer.cardUrl);
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
      assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());
      assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
    });
  },
);

describe(
  'Google ADK (Python) variant B (same tools and card; the model answers with an image)',
  { skip },
  () => {
    const v = checks.onRedeployed(() =>
      checks.redeployed(
        () => startPythonAdkPeer({ variant: 'healthy' }),
        (port) => startPythonAdkPeer({ variant: 'B', port }),
      ),
    );

    test("raw 1.0 SendMessage desk-summarize: the artifact is a file part image/png (ADK's inline_data) where the card says text/plain → output_mode_mismatch", async () => {
      const t = await rpc(
        v.peer().rpcUrl,
        'SendMessage',
        v10Params(`summarize: ${FOX}`, 'desk-summarize'),
        V10,
      );
      assert.equal(t.task.status.state, 'TASK_STATE_COMPLETED');
      const parts = t.task.artifacts.flatMap((a: Json) => a.parts);
      assert.ok(
        parts.some((p: Json) => p.mediaType === 'image/png' && typeof p.raw === 'string'),
        JSON.stringify(parts),
      );
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'protocol');
      assert.deepEqual(send.attributes['a2a.drift.expected_output_modes'], ['text/plain']);
      assert.equal(send.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    test('SDK client stream holding the healthy card, desk-summarize → output_mode_mismatch', async () => {
      const client = await sdkClient({ card: v.card() });
      const events = await collect(
        client.sendMessageStream(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
      );
      assert.ok(events.length >= 3);
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(st.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    checks.cardRefetchTest(v);
  },
);
