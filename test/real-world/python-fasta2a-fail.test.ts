/**
 * FastA2A (`fasta2a` 2.1.1, pydantic-ai-slim 2.68.0) variant A-fail: translate removed from the
 * agent and the card (version still 1.0.0), and the model insists on calling it until
 * pydantic-ai's tool retries run out (peer.py VARIANT=A-fail): pydantic-ai raises
 * `UnexpectedModelBehavior("Tool 'translate' exceeded max retries count of 1. …")`
 * (tool_manager.py `_check_max_retries`); the bridge marks the task failed and re-raises
 * (fasta2a/pydantic_ai/_bridge.py `run_task`), the worker ends the stream with a bare failed
 * status (fasta2a/worker.py `_handle_task_operation`). The task is FAILED with NO status message
 * and no artifact: no text at all on the wire.
 *
 * The card decides: the failed call for translate, a skill the held card lists, is a suspicion;
 * the card fetched again no longer lists it → unknown_skill (evidence `card`, suspicion
 * `failure`) on the failing call's own span. Every later call naming translate is then drift
 * at once (the newer card the package fetched dropped it: unknown_skill when it fails,
 * skill_not_in_card when it does not) until the app fetches the card itself.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-fasta2a-fail.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { collect, sendRequest } from '../peers/sdk-client';
import {
  startFastA2APeer,
  venvInstalled,
  type FastA2APeer,
} from './python/fasta2a/peer-process.mjs';
import { callVerdict, getCard, messages, rpcRaw, sdkClient, spanChecks, type Json } from './lib';

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

const { v03Params } = messages('py-fasta2a-fail-');
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
  'fasta2a (Python) variant A-fail (translate removed; retries run out; failed with no message)',
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
      peer = await startFastA2APeer({ variant: 'A-fail', port });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(() => {
      h.exporter.reset();
    });

    test('raw 0.3 message/send (SUBMITTED) then tasks/get: FAILED, no status message, no artifacts', async () => {
      const r = await rpcRaw(
        peer.rpcUrl,
        'message/send',
        v03Params('translate: hello', 'translate'),
      );
      assert.equal(r.result.task.status.state, 'submitted');
      let done: Json = {};
      for (let i = 0; i < 100 && done.status?.state !== 'failed'; i++) {
        await new Promise((res) => setTimeout(res, 20));
        done = (await rpcRaw(peer.rpcUrl, 'tasks/get', { id: r.result.task.id })).result;
      }
      // wire facts
      assert.equal(done.status.state, 'failed');
      assert.equal(done.status.message, undefined);
      assert.equal(done.artifacts, undefined);
      assert.deepEqual(
        done.history.map((m: Json) => m.role),
        ['user'],
        'the history holds only the client message',
      );
      // the failed poll's span ends once the card fetched again has settled its suspicion
      await h.waitForSpans((s) =>
        s.some(
          (x) => x.name === 'GetTask' && x.attributes['a2a.task.state'] === 'TASK_STATE_FAILED',
        ),
      );
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'translate');
      assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_SUBMITTED');
      // accepted: nothing wrong yet
      assert.deepEqual(callVerdict(send), { status: SpanStatusCode.UNSET, fingerprint: true });
      const gets = h.spans('GetTask');
      const lastGet = gets[gets.length - 1];
      assert.equal(lastGet.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      // the poll carries the send's skill (the task's negotiation is remembered)
      assert.equal(lastGet.attributes['a2a.skill.id'], 'translate');
      assert.deepEqual(callVerdict(lastGet), CONFIRMED, describeSpans());
    });

    test('SDK client (1.0) stream holding the healthy card, skill translate: task, WORKING, FAILED with no message', async () => {
      const client = await sdkClient({ card: healthyCard });
      const events = await collect(
        client.sendMessageStream(sendRequest('translate', { text: 'translate: hello' })),
      );
      assert.deepEqual(
        events.map((e) => e.payload?.$case),
        ['task', 'statusUpdate', 'statusUpdate'],
      );
      const last = events[2].payload;
      assert.ok(last?.$case === 'statusUpdate');
      assert.equal(last.value.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(last.value.status?.message, undefined);
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.skill.id'], 'translate');
      assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
      assert.deepEqual(callVerdict(st), LATER, describeSpans());
    });

    test('last, the card re-served: translate gone, version still 1.0.0', async () => {
      const { card } = await getCard(peer.cardUrl);
      assert.equal(card.version, healthyCard.version);
      assert.deepEqual(
        card.skills.map((s: Json) => s.id),
        ['summarize'],
      );
    });
  },
);
