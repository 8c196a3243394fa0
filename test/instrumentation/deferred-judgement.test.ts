/**
 * Issue 31: in observe mode a SendMessage's response is judged after the application has it,
 * and its span ends with the exchange's real end time; enforce mode judges first. Against the
 * real @a2a-js/sdk server and client.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { setupOtel, type Harness } from '../helpers/otel';
import { startSdkPeer, SUMMARIZE_PLAIN_SKILL, type SdkPeer } from '../peers/sdk-peer';
import { createSdkClient, sendRequest, asTask } from '../peers/sdk-client';

let h: Harness;
let peer: SdkPeer;

before(async () => {
  h = setupOtel();
  peer = await startSdkPeer({ name: 'deferred', behaviour: { settleDelayMs: 0 } });
});

after(async () => {
  await peer.close();
  await h.shutdown();
});

/** The finished spans as the exporter has them now (the harness's spans() would judge first). */
const finished = (name: string) => h.exporter.getFinishedSpans().filter((s) => s.name === name);

test('observe mode: the SendMessage span ends after the app got the response, with the time the response ended; the verdict is the same', async () => {
  await h.reset();
  const client = await createSdkClient(peer, 'jsonrpc');
  const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
  const appGotIt = Date.now();
  assert.equal(finished('SendMessage').length, 0, 'judged after the app got the response');
  await new Promise((r) => setImmediate(r));
  const [span] = finished('SendMessage');
  assert.ok(span, 'judged and ended on the next turn');
  assert.equal(span.attributes['a2a.task.id'], task.id);
  assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
  assert.equal(span.attributes['a2a.drift.kind'], undefined);
  const end = hrTimeToMilliseconds(span.endTime);
  assert.ok(end <= appGotIt + 1, `span end ${end} after the app had the response (${appGotIt})`);
  assert.ok(end >= hrTimeToMilliseconds(span.startTime));

  // variant B (output mode drift) is still caught, on the deferred path
  peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
  await client.sendMessage(sendRequest('summarize-v2'));
  await new Promise((r) => setImmediate(r));
  const drifted = finished('SendMessage').filter(
    (s) => s.attributes['a2a.drift.kind'] === 'output_mode_mismatch',
  );
  assert.equal(drifted.length, 1);
});

test('a lifecycle call right after the SendMessage finds its negotiation (the pending judgement runs first)', async () => {
  await h.reset();
  peer.redeploy([{ ...SUMMARIZE_PLAIN_SKILL, outputModes: ['text/markdown'] }]);
  const client = await createSdkClient(peer, 'jsonrpc');
  const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
  await client.getTask({ tenant: '', id: task.id, historyLength: undefined } as never); // same turn: nothing ran in between
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
  const get = spans.find((s) => s.name === 'GetTask');
  assert.equal(get?.attributes['a2a.lifecycle.negotiation_known'], true);
  assert.equal(get?.attributes['a2a.skill.id'], 'summarize-v2');
});

test('enforce mode: the SendMessage span has ended when the app gets the response', async () => {
  h.instrumentation.setConfig({ mode: 'enforce', driftCallbackDebounceMs: 0 });
  try {
    await h.reset();
    const client = await createSdkClient(peer, 'jsonrpc');
    await client.sendMessage(sendRequest('summarize-v2'));
    assert.equal(finished('SendMessage').length, 1, 'judged before the app got it');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});
