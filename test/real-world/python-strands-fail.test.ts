/**
 * Strands Agents (`strands-agents[a2a]` 1.62.0) variant A-fail: translate removed from the agent
 * and so from the card (version still 1.0.0), and the model RAISES when asked for a tool the
 * request does not offer (peer.py VARIANT=A-fail). Strands' executor turns any exception of the
 * agent into a FAILED task whose one text is the fixed "Agent execution failed"
 * (strands/multiagent/a2a/executor.py `StrandsA2AExecutor.execute`, `except Exception:` →
 * `updater.failed(... TextPart(text="Agent execution failed"))`): no skill or tool name on the
 * wire. The only place "translate" appears is the client's own message echoed in `history`.
 *
 * The card decides: the failed call for translate, a skill the held card lists, is a suspicion;
 * the card fetched again no longer lists it → unknown_skill (evidence `card`, suspicion
 * `failure`) on the failing call's own span. Every later call naming translate is then drift
 * at once (the newer card the package fetched dropped it: unknown_skill when it fails,
 * skill_not_in_card when it does not) until the app fetches the card itself.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-strands-fail.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { collect, sendRequest } from '../peers/sdk-client';
import {
  startStrandsPeer,
  venvInstalled,
  type StrandsPeer,
} from './python/strands/peer-process.mjs';
import { callVerdict, getCard, messages, rpc, sdkClient, spanChecks, type Json } from './lib';

const FAILED_TEXT = 'Agent execution failed';
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

const { v03Params } = messages('py-strands-fail-');
const { only, describeSpans, spansSettled } = spanChecks(() => h);

/** The failing call: confirmed by the card fetched again. */
const CONFIRMED: Json = {
  kind: 'unknown_skill',
  evidence: 'card',
  confirmed: true,
  refetch: 'changed',
  status: SpanStatusCode.ERROR,
  fingerprint: true,
};
/**
 * A later call naming translate that fails too: the newer card the package fetched no longer
 * lists it, so no other fetch is needed.
 */
const LATER: Json = {
  kind: 'unknown_skill',
  evidence: 'card',
  confirmed: true,
  status: SpanStatusCode.ERROR,
  fingerprint: true,
};

describe(
  'strands (Python) variant A-fail (translate removed; the model raises; Strands fails the task with a fixed text)',
  { skip },
  () => {
    let peer: StrandsPeer;
    let healthyCard: Json;
    before(async () => {
      const healthy = await startStrandsPeer({ variant: 'healthy' });
      const port = healthy.port;
      try {
        await h.reset();
        healthyCard = (await getCard(healthy.cardUrl)).card;
        await spansSettled(1);
      } finally {
        await healthy.stop();
      }
      peer = await startStrandsPeer({ variant: 'A-fail', port });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('raw 0.3 message/send, skill translate: FAILED, status message "Agent execution failed", no artifacts', async () => {
      const t = await rpc(peer.rpcUrl, 'message/send', v03Params('translate: hello', 'translate'));
      // wire facts
      assert.equal(t.status.state, 'failed');
      assert.equal(t.status.message.role, 'agent');
      assert.deepEqual(t.status.message.parts, [{ kind: 'text', text: FAILED_TEXT }]);
      assert.equal(t.artifacts, undefined);
      assert.deepEqual(
        t.history.map((m: Json) => [m.role, m.parts.map((p: Json) => p.text)]),
        [['user', ['translate: hello']]],
        'the only "translate" on the wire is the client\'s own message',
      );
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'translate');
      assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.deepEqual(callVerdict(send), CONFIRMED, describeSpans());
    });

    test('SDK client (0.3 mode) stream holding the healthy card, skill translate: task then a final status-update FAILED with the same text', async () => {
      const client = await sdkClient({ card: healthyCard }, { legacy: true });
      const events = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.deepEqual(
        events.map((e) => e.payload?.$case),
        ['task', 'statusUpdate'],
      );
      const last = events[1].payload;
      assert.ok(last?.$case === 'statusUpdate');
      assert.equal(last.value.status?.state, TaskState.TASK_STATE_FAILED);
      const parts = last.value.status?.message?.parts ?? [];
      assert.deepEqual(
        parts.map((p) => (p.content?.$case === 'text' ? p.content.value : p.content?.$case)),
        [FAILED_TEXT],
      );
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.skill.id'], 'translate');
      assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.deepEqual(callVerdict(st), LATER, describeSpans());
    });

    test('last, the card re-served: translate gone, version still 1.0.0 (fetching it updates the cached card, so it runs last)', async () => {
      const { card } = await getCard(peer.cardUrl);
      assert.equal(card.version, healthyCard.version);
      assert.deepEqual(
        healthyCard.skills.map((s: Json) => s.id),
        ['summarize', 'translate'],
      );
      assert.deepEqual(
        card.skills.map((s: Json) => s.id),
        ['summarize'],
      );
    });
  },
);
