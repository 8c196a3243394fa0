/**
 * Across the task lifecycle and acting on drift, against real peers:
 * the seed's fleet sequence with the real @a2a-js/sdk client (send → submitted, poll →
 * failed, callback evicts, re-fetch shows card_changed, retry succeeds unflagged),
 * variant B through GetTask, debounce under 1,000 failing tasks, withSkill, refetch,
 * enforce mode (streaming and not), and the bounded task memory.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import {
  startSdkPeer,
  TRANSLATE_SKILL,
  SUMMARIZE_PLAIN_SKILL,
  type SdkPeer,
} from '../peers/sdk-peer';
import {
  createSdkClient,
  sendRequest,
  asTask,
  collect,
  pollUntilTerminal,
} from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS, jsonRpcSendBody } from '../peers/wire';
import { startRawV01Peer, V01_TRANSLATE_SKILL, type RawV01Peer } from '../peers/raw-v01-peer';
import { onAgentCardDrift, withSkill, type DriftEvent } from '../../src/index';

let h: Harness;
let peer: SdkPeer;

before(() => {
  h = setupOtel();
});
after(async () => {
  await peer?.close();
  await h.shutdown();
});
beforeEach(async () => {
  if (peer) await peer.close();
  peer = await startSdkPeer({ name: 'peer-a' });
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  await h.reset();
});

/** A JSON-RPC 1.0 SendMessage / SendStreamingMessage for `skillId` to the peer, through fetch. */
function post(method: string, skillId: string): Promise<Response> {
  return fetch(peer.jsonRpcUrl, {
    method: 'POST',
    headers: JSON_RPC_1_0_HEADERS,
    body: jsonRpcSendBody(skillId, { method, text: 'x' }),
  });
}

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The part of a JSON-RPC SendMessage reply these tests read. */
type TaskReply = { result: { task: { status: { state: string } } } };

test("the seed's fleet sequence end to end with the real SDK client", async () => {
  const cache = new Map<string, Client>();
  const getClient = async (): Promise<Client> => {
    let c = cache.get(peer.baseUrl);
    if (!c) {
      c = await createSdkClient(peer, 'jsonrpc');
      cache.set(peer.baseUrl, c);
    }
    return c;
  };
  const evictions: DriftEvent[] = [];
  const off = onAgentCardDrift((e) => {
    if (e.kind === 'card_changed') return;
    evictions.push(e);
    cache.delete(peer.baseUrl); // drop the client: it is re-created from the card URL
  });
  try {
    await getClient();
    peer.redeploy([TRANSLATE_SKILL]); // same version
    const sent = asTask(
      await (
        await getClient()
      ).sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
    );
    assert.equal(sent.status?.state, TaskState.TASK_STATE_SUBMITTED);
    assert.equal(await pollUntilTerminal(await getClient(), sent.id), TaskState.TASK_STATE_FAILED);
    await until(() => evictions.length === 1);
    assert.equal(cache.size, 0, 'the callback evicted the cached client');
    const poll = drifted(h.spans()).filter((s) => s.name === 'GetTask');
    assert.equal(poll.length, 1, 'one poll flagged');
    const send = h.spans('SendMessage')[0];
    assert.equal(poll[0].attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(poll[0].attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(
      poll[0].attributes['a2a.agent_card.fingerprint'],
      send.attributes['a2a.agent_card.fingerprint'],
    );
    assert.equal(poll[0].links[0]?.context.spanId, send.spanContext().spanId);
    assert.equal(drifted([send]).length, 0, 'the send itself was healthy');
    assert.equal(evictions[0].taskId, sent.id);
    assert.equal(evictions[0].skillId, 'summarize-v2');
    assert.equal(evictions[0].agentName, 'peer-a');
    assert.equal(evictions[0].error.name, 'StaleAgentCardError');

    // The client re-fetches the card: the GetAgentCard span shows card_changed.
    const fresh = await getClient();
    const cards = h.spans('GetAgentCard');
    assert.equal(cards.length, 2);
    const refetch = cards[1];
    assert.equal(refetch.attributes['a2a.drift.kind'], 'card_changed');
    assert.equal(
      refetch.attributes['a2a.agent_card.previous_fingerprint'],
      cards[0].attributes['a2a.agent_card.fingerprint'],
    );
    assert.notEqual(
      refetch.attributes['a2a.agent_card.fingerprint'],
      cards[0].attributes['a2a.agent_card.fingerprint'],
    );
    assert.equal(refetch.attributes['a2a.agent_card.version_changed'], undefined, 'same version');

    // The retry, with the skill the new card lists, succeeds and is not flagged.
    await h.reset();
    const retry = asTask(
      await fresh.sendMessage(sendRequest('translate-v1', { returnImmediately: true })),
    );
    assert.equal(await pollUntilTerminal(fresh, retry.id), TaskState.TASK_STATE_COMPLETED);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(drifted(h.spans()).length, 0, 'the retry is not flagged');
    assert.equal(
      h.spans('SendMessage')[0].attributes['a2a.agent_card.suspect'],
      undefined,
      'the fresh card is not suspect',
    );
  } finally {
    off();
  }
});

test('variant B through GetTask of a completed task, judged against the negotiation-time card', async () => {
  const client = await createSdkClient(peer, 'jsonrpc');
  peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
  const sent = asTask(
    await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
  );
  assert.equal(await pollUntilTerminal(client, sent.id), TaskState.TASK_STATE_COMPLETED);
  await h.waitForSpans((s) => drifted(s).length >= 1);
  const flagged = drifted(h.spans());
  assert.ok(flagged.every((s) => s.name === 'GetTask'));
  assert.equal(flagged[0].attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(flagged[0].attributes['error.type'], 'ArtifactSchemaDriftError');
  assert.deepEqual(flagged[0].attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
});

test('a card re-fetched in between does not change how an earlier task is judged', async () => {
  const client = await createSdkClient(peer, 'jsonrpc');
  const sent = asTask(
    await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
  );
  await pollUntilTerminal(client, sent.id);
  peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
  await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text()); // someone re-fetches
  await h.reset();
  // The task was negotiated and completed under the markdown card: polling it again is healthy.
  await client.getTask({ tenant: '', id: sent.id, historyLength: undefined } as never);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(drifted(h.spans()).length, 0);
});

test('withSkill declares the skill for calls whose requests carry none', async () => {
  const client = await createSdkClient(peer, 'jsonrpc');
  peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
  await withSkill('summarize-v2', () => client.sendMessage(sendRequest(undefined)));
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length === 1));
  assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(span.attributes['a2a.skill.id_source'], 'application');
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
});

test('refetchCardOnDrift records whether the card really changed', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, refetchCardOnDrift: true });
  const client = await createSdkClient(peer, 'jsonrpc');
  const cardFetches = peer.cardFetches;
  peer.redeploy([TRANSLATE_SKILL]);
  await client.sendMessage(sendRequest('summarize-v2'));
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length === 1));
  assert.equal(span.attributes['a2a.drift.refetch'], 'changed');
  assert.equal(span.attributes['a2a.drift.confirmed'], true);
  assert.equal(peer.cardFetches, cardFetches + 1, 'one re-fetch');
  assert.equal(h.spans('GetAgentCard').length, 1, 'the re-fetch is untraced');

  // A request for a skill the unchanged card never listed, failed "unknown skill" by the peer:
  // the client's mistake (skill_not_in_card), and the re-fetch confirms the card did not change.
  await h.reset();
  const client2 = await createSdkClient(peer, 'jsonrpc');
  await new Promise((r) => setTimeout(r, 1100)); // past the re-fetch debounce
  await client2.sendMessage(sendRequest('no-such-skill', {}));
  const flagged = drifted(
    await h.waitForSpans((s) => drifted(s).some((x) => x.name === 'SendMessage')),
  );
  const broken = flagged.find((x) => x.name === 'SendMessage')!;
  assert.equal(broken.attributes['a2a.drift.kind'], 'skill_not_in_card');
  assert.equal(broken.attributes['a2a.drift.refetch'], 'unchanged');
  assert.equal(broken.attributes['a2a.drift.confirmed'], false);
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
});

test('enforce mode: the call rejects with the seed errors instead of returning the stale result, streaming and not', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, mode: 'enforce' });
  try {
    await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text());

    // Healthy: the app gets the same JSON as without enforcement.
    const ok = await post('SendMessage', 'summarize-v2');
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as TaskReply).result.task.status.state, 'TASK_STATE_COMPLETED');

    peer.redeploy([SUMMARIZE_PLAIN_SKILL]); // variant B
    await assert.rejects(
      post('SendMessage', 'summarize-v2'),
      (e: Error) => e.name === 'ArtifactSchemaDriftError',
    );
    const stream = await post('SendStreamingMessage', 'summarize-v2');
    await assert.rejects(stream.text(), (e: Error) => e.name === 'ArtifactSchemaDriftError');

    peer.redeploy([TRANSLATE_SKILL]); // variant A
    await assert.rejects(
      post('SendMessage', 'summarize-v2'),
      (e: Error) => e.name === 'StaleAgentCardError',
    );
    const stream2 = await post('SendStreamingMessage', 'summarize-v2');
    await assert.rejects(stream2.text(), (e: Error) => e.name === 'StaleAgentCardError');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
  // Observe mode (default) hands the same stale result through untouched.
  const res = await post('SendMessage', 'summarize-v2');
  assert.equal(((await res.json()) as TaskReply).result.task.status.state, 'TASK_STATE_FAILED');
});

test('debounce: 1,000 failing tasks call the eviction callback once per card, every span flagged', async () => {
  const raw: RawV01Peer = await startRawV01Peer({
    name: 'peer-storm',
    behaviour: { sendReturns: 'final', transitionDelayMs: 0 },
  });
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 60_000 });
  const calls: DriftEvent[] = [];
  const off = onAgentCardDrift((e) => {
    calls.push(e);
  });
  try {
    await fetch(raw.cardUrl).then((r) => r.text());
    raw.redeploy([V01_TRANSLATE_SKILL]);
    const N = 1000;
    for (let batch = 0; batch < N; batch += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          fetch(raw.rpcUrl, {
            method: 'POST',
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: batch + i,
              method: 'tasks/send',
              params: {
                id: `storm-${batch + i}`,
                skillId: 'summarize-v2',
                message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
              },
            }),
          }).then((r) => r.text()),
        ),
      );
    }
    await h.waitForSpans((s) => drifted(s).length === N, 10_000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(calls.length, 1, 'one eviction for the storm');
    assert.equal(
      await h.driftCount({ 'a2a.drift.kind': 'unknown_skill' }),
      N,
      'every drift counted',
    );
  } finally {
    off();
    await raw.close();
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
});

test('a task evicted from the bounded memory is not misjudged, and the span says its negotiation is unknown', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, maxTrackedTasks: 1 });
  try {
    const client = await createSdkClient(peer, 'jsonrpc');
    peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
    const first = asTask(
      await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
    );
    await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })); // pushes `first` out
    await pollUntilTerminal(client, first.id);
    await new Promise((r) => setTimeout(r, 20));
    const polls = h.spans('GetTask').filter((s) => s.attributes['a2a.task.id'] === first.id);
    assert.ok(polls.length >= 1);
    for (const p of polls) {
      assert.equal(p.attributes['a2a.lifecycle.negotiation_known'], false);
      assert.equal(
        p.attributes['a2a.drift.kind'],
        undefined,
        'no verdict without the negotiation context',
      );
      assert.notEqual(p.status.code, SpanStatusCode.ERROR);
    }
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  }
  void collect;
});

test("a call made as soon as a stream's first event arrives finds that event's negotiation (stream events are judged after the app got them)", async () => {
  await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text());
  const res = await post('SendStreamingMessage', 'summarize-v2');
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  // In the very continuation of the read (before any later turn of the event loop): the
  // task id from the first event, and a GetTask for it at once.
  const text = Buffer.from(value!).toString('utf8');
  const taskId = /"id":"([^"]+)"/.exec(text.slice(text.indexOf('"task"')))?.[1];
  assert.ok(taskId, `a task in the first chunk: ${text.slice(0, 200)}`);
  const poll = fetch(peer.jsonRpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: taskId } }),
  });
  await (await poll).text();
  for (;;) if ((await reader.read()).done) break;
  const [get] = await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
  const span = h.spans('GetTask')[0] ?? get;
  assert.equal(span.attributes['a2a.lifecycle.negotiation_known'], true);
  assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
  assert.ok(span.attributes['a2a.agent_card.fingerprint']);
});
