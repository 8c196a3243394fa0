/**
 * Bounded staleness: a card the app keeps using is fetched again in the background once per
 * `cardRevalidationMs` while its agent is called, conditionally, untraced, never with
 * credentials; a change is card_changed with what changed (counter, callback) before any call
 * fails, and every later call naming a skill it dropped is skill_not_in_card. Against a real
 * @a2a-js/sdk server and the real SDK client.
 *
 *   npm run build && node --import tsx --test test/instrumentation/card-revalidation.test.ts
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskState } from '@a2a-js/sdk';
import { drifted, type Harness } from '../helpers/otel';
import { DEFAULT_SKILL, SUMMARIZE_PLAIN_SKILL, TRANSLATE_SKILL } from '../peers/sdk-peer';
import { createSdkClient, sendRequest } from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS, jsonRpcSendBody } from '../peers/wire';
import { skillFingerprint } from '../../src/index';
import { revalidationFile, sleep } from '../helpers/revalidation-peer';

const INTERVAL_MS = 300;

const { harness, events, start } = revalidationFile('peer-r', { cardRevalidationMs: INTERVAL_MS });
let h: Harness;
beforeEach(() => {
  h = harness();
});

/** Calls `skill` every `everyMs` until `until()` or `maxMs`. */
async function keepCalling(
  call: () => Promise<unknown>,
  until: () => boolean,
  maxMs: number,
  everyMs = 40,
): Promise<number> {
  const started = Date.now();
  while (!until() && Date.now() - started < maxMs) {
    await call();
    await sleep(everyMs);
  }
  return Date.now() - started;
}

test('a skill removed from an agent that only apologises: card_changed with the diff within the interval, then skill_not_in_card', async () => {
  const p = await start({
    goneSkill: 'answer',
    artifactText: () => "Sorry, I can't help with that.",
  });
  const client = await createSdkClient(p, 'jsonrpc');
  const held = skillFingerprint(p.card as never);
  await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
  p.redeploy([DEFAULT_SKILL]);
  const redeployedAt = Date.now();
  const tookMs = await keepCalling(
    () => client.sendMessage(sendRequest(TRANSLATE_SKILL.id)),
    () => events.some((e) => e.kind === 'card_changed'),
    INTERVAL_MS * 6,
  );
  const changed = events.find((e) => e.kind === 'card_changed');
  assert.ok(changed, `card_changed within ${tookMs} ms`);
  assert.ok(Date.now() - redeployedAt < INTERVAL_MS * 3, 'within the interval and a tick');
  assert.equal(changed.previousFingerprint, held);
  assert.equal(changed.fingerprint, skillFingerprint(p.card as never));
  assert.deepEqual(changed.diff, {
    removed: [TRANSLATE_SKILL.id],
    added: [],
    modesChanged: [],
    capabilities: [],
    truncated: false,
  });
  console.log(`# revalidation: card_changed ${Date.now() - redeployedAt} ms after the redeploy`);
  h.exporter.reset();
  const got = await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
  assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
  const [send] = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  assert.equal(send.attributes['a2a.drift.kind'], 'skill_not_in_card');
  assert.equal(send.attributes['a2a.drift.evidence'], 'card');
  assert.equal(send.attributes['a2a.drift.suspicion'], 'revalidation');
  assert.equal(send.attributes['a2a.agent_card.fingerprint'], held, 'the card negotiated with');
  assert.ok((await h.driftCount({ 'a2a.drift.kind': 'card_changed' })) >= 1);
  // the skill still listed: no drift
  h.exporter.reset();
  await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
  const [ok] = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  assert.equal(ok.attributes['a2a.drift.kind'], undefined);
});

test('output modes changed: the diff says before and after', async () => {
  const p = await start();
  const client = await createSdkClient(p, 'jsonrpc');
  await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
  p.redeploy([SUMMARIZE_PLAIN_SKILL, TRANSLATE_SKILL]);
  await keepCalling(
    () => client.sendMessage(sendRequest(TRANSLATE_SKILL.id)),
    () => events.some((e) => e.kind === 'card_changed'),
    INTERVAL_MS * 6,
  );
  const changed = events.find((e) => e.kind === 'card_changed');
  assert.deepEqual(changed?.diff?.modesChanged, [
    {
      id: DEFAULT_SKILL.id,
      output: { before: ['text/markdown'], after: ['text/plain'] },
    },
  ]);
});

test('an unchanged card costs a 304 per interval while calls go on, and no drift', async () => {
  const p = await start();
  const client = await createSdkClient(p, 'jsonrpc');
  const before = { ...h.instrumentation.cardRevalidations };
  await keepCalling(
    () => client.sendMessage(sendRequest(DEFAULT_SKILL.id)),
    () => false,
    INTERVAL_MS * 5,
  );
  const after = h.instrumentation.cardRevalidations;
  const made = after.started - before.started;
  assert.ok(made >= 2 && made <= 6, `${made} revalidations in 5 intervals`);
  assert.equal(after.changed - before.changed, 0);
  assert.ok(p.cardNotModified >= 2, `${p.cardNotModified} answered 304`);
  assert.deepEqual(drifted(h.spans()), []);
  assert.equal(events.length, 0);
  assert.equal(h.spans('GetAgentCard').length, 1, 'revalidations are untraced');
});

test('an idle app makes no requests: revalidation stops one interval after the last call', async () => {
  const p = await start();
  const client = await createSdkClient(p, 'jsonrpc');
  await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
  await sleep(INTERVAL_MS * 2);
  const fetchesThen = p.cardFetches;
  await sleep(INTERVAL_MS * 4);
  assert.equal(p.cardFetches, fetchesThen, 'no card request while nothing is called');
});

test('a card fetched with credentials is never revalidated', async () => {
  const p = await start();
  await fetch(p.cardUrl, { headers: { authorization: 'Bearer x' } }).then((r) => r.json());
  const fetchesThen = p.cardFetches;
  const startedThen = h.instrumentation.cardRevalidations.started;
  let n = 0;
  await keepCalling(
    () =>
      fetch(p.jsonRpcUrl, {
        method: 'POST',
        headers: JSON_RPC_1_0_HEADERS,
        body: jsonRpcSendBody(DEFAULT_SKILL.id, { id: ++n, messageId: `cred-${n}`, text: 'hi' }),
      }).then((r) => r.json()),
    () => false,
    INTERVAL_MS * 3,
  );
  const sends = h.spans('SendMessage');
  assert.ok(sends.length >= 3);
  assert.equal(typeof sends[0].attributes['a2a.agent_card.fingerprint'], 'string', 'judged');
  assert.equal(p.cardFetches, fetchesThen, 'the card was not fetched again');
  assert.equal(h.instrumentation.cardRevalidations.started, startedThen);
});

test('a card endpoint that fails during revalidation: no drift, backoff, the app unchanged', async () => {
  const p = await start();
  const client = await createSdkClient(p, 'jsonrpc');
  await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
  p.setBehaviour({ cardAnswer: '500' });
  const before = { ...h.instrumentation.cardRevalidations };
  const fetchesThen = p.cardFetches;
  await keepCalling(
    async () => {
      const got = await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
      assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
    },
    () => false,
    INTERVAL_MS * 8,
  );
  const after = h.instrumentation.cardRevalidations;
  const failed = after.failed - before.failed;
  assert.ok(failed >= 1, 'revalidations failed');
  // backoff doubles the wait: far fewer than one fetch per interval over 8 intervals
  assert.ok(p.cardFetches - fetchesThen <= 4, `${p.cardFetches - fetchesThen} card fetches`);
  assert.deepEqual(drifted(h.spans()), []);
  assert.equal(events.length, 0);
});
