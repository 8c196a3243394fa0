/**
 * Card endpoints that answer the package's own requests badly — slowly, never, with HTML, JSON
 * errors, a redirect, 401/403, 304 to anything, a huge or an endless body — while the app keeps
 * calling a healthy agent in enforce mode with revalidation on: never drift, never a rejected
 * call, the held card kept, memory flat (printed), each request counted with what it found.
 * (A held exit is test/hardening/own-requests-exit.test.ts.) On main's code the JSON error page
 * was a card without skills: card_changed, then every call for the removed skills rejected.
 * Against a real @a2a-js/sdk server and the real SDK client.
 *
 *   npm run build && node --import tsx --test test/hardening/own-requests-bad-input.test.ts
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskState } from '@a2a-js/sdk';
import { drifted, type Harness } from '../helpers/otel';
import { DEFAULT_SKILL, TRANSLATE_SKILL, type SdkPeerBehaviour } from '../peers/sdk-peer';
import { createSdkClient, sendRequest } from '../peers/sdk-client';
import { idleThenSkillRemoved, revalidationFile, sleep } from '../helpers/revalidation-peer';
import { sharedState } from '../../src/telemetry/shared-state';
import { backgroundRequestsInFlight } from '../../src/hooks/background-get';
import { MAX_IN_FLIGHT } from '../../src/telemetry/card-revalidation';

const INTERVAL_MS = 150;

const { harness, events, start } = revalidationFile('peer-bad-card', {
  cardRevalidationMs: INTERVAL_MS,
  mode: 'enforce',
});
let h: Harness;
beforeEach(() => {
  h = harness();
});

const answers: Array<Partial<SdkPeerBehaviour>> = [
  { cardAnswer: 'slow', cardDelayMs: 6000 },
  { cardAnswer: 'never' },
  { cardAnswer: 'html' },
  { cardAnswer: 'json-error' },
  { cardAnswer: '500-json' },
  { cardAnswer: '500' },
  { cardAnswer: 'redirect' },
  { cardAnswer: '401' },
  { cardAnswer: '403' },
  { cardAnswer: '304', conditionalCard: false },
  { cardAnswer: 'huge' },
  { cardAnswer: 'endless' },
];

const heap: number[] = [];

for (const answer of answers) {
  test(`card endpoint answers ${answer.cardAnswer}: no drift, no rejected call, the card kept`, async () => {
    const p = await start(answer.conditionalCard === false ? { conditionalCard: false } : {});
    const client = await createSdkClient(p, 'jsonrpc');
    const held = sharedState().cards.get(p.cardUrl)?.fingerprint;
    assert.ok(held);
    p.setBehaviour(answer);
    const fetchesThen = p.cardFetches;
    const until = Date.now() + INTERVAL_MS * 8;
    let calls = 0;
    while (Date.now() < until) {
      for (const skill of [DEFAULT_SKILL.id, TRANSLATE_SKILL.id]) {
        const got = await client.sendMessage(sendRequest(skill));
        assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
        calls++;
      }
      await sleep(30);
    }
    assert.ok(p.cardFetches > fetchesThen, 'the package asked for the card');
    assert.ok(backgroundRequestsInFlight() <= MAX_IN_FLIGHT);
    assert.deepEqual(drifted(h.spans()), [], 'no drift');
    assert.equal(events.length, 0, 'no drift callback');
    assert.equal(await h.driftCount(), 0);
    assert.equal(sharedState().cards.get(p.cardUrl)?.fingerprint, held, 'the card kept');
    assert.equal(sharedState().cards.get(p.cardUrl)?.newer, undefined, 'no newer card');
    const results: string[] = [];
    for (const r of [
      'unchanged',
      'not_modified',
      'changed',
      'not_a_card',
      'failed',
      'skipped_credentials',
    ]) {
      const n = await h.cardRequestCount({ 'a2a.agent_card.request_result': r });
      if (n > 0) results.push(`${r}=${n}`);
    }
    assert.equal(await h.cardRequestCount({ 'a2a.agent_card.request_result': 'changed' }), 0);
    heap.push(process.memoryUsage().heapUsed);
    console.log(
      `# ${answer.cardAnswer}: ${calls} calls completed, ${p.cardFetches - fetchesThen} card requests (${results.join(', ') || 'none settled yet'}), heap ${(heap[heap.length - 1] / 1048576).toFixed(1)} MiB`,
    );
  });
}

test('memory flat across the bad card endpoints', () => {
  const growth = (heap[heap.length - 1] - heap[0]) / 1048576;
  console.log(`# heap growth over the table: ${growth.toFixed(1)} MiB`);
  // huge and endless bodies are read through a 4 MiB cap and dropped: no accumulation
  assert.ok(growth < 64, `${growth.toFixed(1)} MiB`);
});

test('enforce: the first call after idleness for a skill a redeploy removed waits for the card and is rejected', async () => {
  const { client } = await idleThenSkillRemoved(start, INTERVAL_MS * 3);
  await assert.rejects(client.sendMessage(sendRequest(TRANSLATE_SKILL.id)));
  // the skill still listed is not held back
  const got = await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
  assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
});
