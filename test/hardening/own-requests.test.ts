/**
 * The requests the package makes on its own (the confirming re-fetch, the background
 * revalidation), tried as a hostile tester would:
 * - an answer that is no Agent Card (a gateway's maintenance JSON) is no card: no card_changed, no
 *   confirmation, the held card unchanged, `not_a_card` counted and said on the span;
 * - a card fetched with the app's credentials (any header a card fetch does not need, a secret in
 *   its URL), however it was recognised, is never fetched again (`skipped_credentials`);
 *   `?assistant_id=` is no secret: that card is revalidated;
 * - every own request is counted by `a2a.client.card_requests` (purpose, result).
 * On main's code the maintenance JSON was a card without skills (card_changed, confirmed
 * unknown_skill), the `/agent/card` card fetched with Authorization and the `?api_key=` card were
 * fetched again, and the counter did not exist.
 * Against a real @a2a-js/sdk server and the real SDK client.
 *
 *   npm run build && node --import tsx --test test/hardening/own-requests.test.ts
 */
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskState } from '@a2a-js/sdk';
import { drifted, type Harness } from '../helpers/otel';
import { DEFAULT_SKILL, TRANSLATE_SKILL } from '../peers/sdk-peer';
import { createSdkClient, sendRequest } from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS, jsonRpcSendBody } from '../peers/wire';
import { idleThenSkillRemoved, revalidationFile, sleep } from '../helpers/revalidation-peer';
import { requestCarriesCredentials, urlCarriesCredentials } from '../../src/core/credentials';

const INTERVAL_MS = 300;

const { harness, events, start } = revalidationFile('peer-own', {
  cardRevalidationMs: INTERVAL_MS,
});
let h: Harness;
beforeEach(() => {
  h = harness();
});

/** Calls `call` every `everyMs` for `forMs`. */
async function keepCalling(call: () => Promise<unknown>, forMs: number, everyMs = 40) {
  const started = Date.now();
  let n = 0;
  while (Date.now() - started < forMs) {
    await call();
    n++;
    await sleep(everyMs);
  }
  return n;
}

let rpcId = 0;
/** A raw JSON-RPC SendMessage for `skill` (the call judged against the card held for its URL). */
function rawSend(url: string, skill: string): Promise<unknown> {
  const n = ++rpcId;
  return fetch(url, {
    method: 'POST',
    headers: JSON_RPC_1_0_HEADERS,
    body: jsonRpcSendBody(skill, { id: n, messageId: `own-${n}`, text: 'hi' }),
  }).then((r) => r.json());
}

describe('one rule of what a card is', () => {
  test('a revalidation answered by a maintenance JSON: no card_changed, no drift, not_a_card, backoff', async () => {
    const p = await start();
    const client = await createSdkClient(p, 'jsonrpc');
    await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
    p.setBehaviour({ cardAnswer: 'json-error' });
    const fetchesThen = p.cardFetches;
    await keepCalling(async () => {
      const got = await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
      assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
    }, INTERVAL_MS * 8);
    assert.deepEqual(drifted(h.spans()), [], 'no drift');
    assert.equal(events.length, 0, 'no card_changed');
    const notACard = await h.cardRequestCount({
      'a2a.agent_card.request_purpose': 'revalidation',
      'a2a.agent_card.request_result': 'not_a_card',
    });
    assert.ok(notACard >= 1, `${notACard} revalidations found no card`);
    // backoff doubles the wait: far fewer than one fetch per interval over 8 intervals
    assert.ok(p.cardFetches - fetchesThen <= 4, `${p.cardFetches - fetchesThen} card fetches`);
    assert.equal(h.instrumentation.cardRevalidations.changed, 0);
  });

  for (const answer of ['json-error', '500-json'] as const) {
    test(`a confirming fetch answered ${answer === 'json-error' ? '200 with a maintenance JSON' : '500 with a JSON error'}: unconfirmed, no drift`, async () => {
      const p = await start({ broken: true });
      const client = await createSdkClient(p, 'jsonrpc');
      p.setBehaviour({ cardAnswer: answer });
      for (let i = 0; i < 2; i++) await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
      const spans = await h.waitForSpans(
        (s) => s.filter((x) => x.name === 'SendMessage').length >= 2,
      );
      assert.deepEqual(drifted(spans), [], 'no drift');
      const send = spans.find((s) => s.name === 'SendMessage');
      assert.ok(send);
      assert.equal(send.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
      assert.equal(
        send.attributes['a2a.drift.refetch'],
        answer === 'json-error' ? 'not_a_card' : 'failed',
      );
      assert.equal(events.length, 0);
      assert.ok(
        (await h.cardRequestCount({
          'a2a.agent_card.request_purpose': 'confirmation',
          'a2a.agent_card.request_result': answer === 'json-error' ? 'not_a_card' : 'failed',
        })) >= 1,
      );
    });
  }
});

describe('never with credentials', () => {
  const cases: Array<{ name: string; fetchCard: (cardUrl: string, base: string) => string }> = [
    {
      name: 'a card at a path recognised by its content (/agent/card), fetched with Authorization',
      fetchCard: (_c, base) => `${base}/agent/card`,
    },
    {
      name: 'a card whose URL carries ?api_key=',
      fetchCard: (cardUrl) => `${cardUrl}?api_key=s3cret`,
    },
    {
      name: 'a card fetched with a header a card fetch does not need (X-Tenant-Token)',
      fetchCard: (cardUrl) => cardUrl,
    },
  ];
  for (const [i, c] of cases.entries()) {
    test(`${c.name}: never fetched again by the package`, async () => {
      const p = await start();
      const url = c.fetchCard(p.cardUrl, p.baseUrl);
      const headers: Record<string, string> =
        i === 0 ? { authorization: 'Bearer payroll' } : i === 2 ? { 'x-tenant-token': 't' } : {};
      const card = (await fetch(url, { headers }).then((r) => r.json())) as { name?: string };
      assert.equal(card.name, 'peer-own');
      await h.waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
      const fetchesThen = p.cardFetches;
      await keepCalling(() => rawSend(p.jsonRpcUrl, DEFAULT_SKILL.id), INTERVAL_MS * 4);
      const sends = h.spans('SendMessage');
      assert.ok(sends.length >= 3);
      assert.equal(
        typeof sends[0].attributes['a2a.agent_card.fingerprint'],
        'string',
        'judged against that card',
      );
      assert.equal(p.cardFetches, fetchesThen, 'the card was not fetched again');
      assert.equal(await h.cardRequestCount({ 'a2a.agent_card.request_result': 'changed' }), 0);
    });
  }

  test('a suspicion on a card fetched with credentials stays unconfirmed: skipped_credentials', async () => {
    const p = await start({ broken: true });
    await fetch(`${p.baseUrl}/agent/card`, { headers: { authorization: 'Bearer x' } }).then((r) =>
      r.json(),
    );
    await h.waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
    const fetchesThen = p.cardFetches;
    await rawSend(p.jsonRpcUrl, DEFAULT_SKILL.id);
    const [send] = await h
      .waitForSpans((s) => s.some((x) => x.name === 'SendMessage'))
      .then((s) => s.filter((x) => x.name === 'SendMessage'));
    assert.equal(send.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
    assert.equal(send.attributes['a2a.drift.refetch'], 'skipped_credentials');
    assert.equal(p.cardFetches, fetchesThen, 'not fetched to confirm');
    assert.equal(
      await h.cardRequestCount({
        'a2a.agent_card.request_purpose': 'confirmation',
        'a2a.agent_card.request_result': 'skipped_credentials',
      }),
      1,
    );
  });

  test('?assistant_id= is no secret: that card is revalidated (and counted)', async () => {
    const p = await start();
    await fetch(`${p.cardUrl}?assistant_id=agent`).then((r) => r.json());
    const fetchesThen = p.cardFetches;
    await keepCalling(() => rawSend(p.jsonRpcUrl, DEFAULT_SKILL.id), INTERVAL_MS * 4);
    assert.ok(p.cardFetches > fetchesThen, 'revalidated');
    const counted = await h.cardRequestCount({ 'a2a.agent_card.request_purpose': 'revalidation' });
    assert.ok(counted >= 1, `${counted} revalidations counted`);
    assert.equal(
      counted,
      (await h.cardRequestCount({ 'a2a.agent_card.request_result': 'not_modified' })) +
        (await h.cardRequestCount({ 'a2a.agent_card.request_result': 'unchanged' })),
      'each one unchanged or 304',
    );
  });

  test('the rule: harmless headers and query parameters, and what counts as a credential', () => {
    const url = 'https://agent.example/.well-known/agent-card.json';
    const harmless = [
      'accept',
      'Accept-Encoding',
      'accept-language',
      'user-agent',
      'a2a-version',
      'A2A-Extensions',
      'if-none-match',
      'if-modified-since',
      'traceparent',
      'tracestate',
      'baggage',
      'sec-fetch-mode',
      'host',
    ];
    assert.equal(requestCarriesCredentials(url, harmless), false);
    for (const name of ['authorization', 'cookie', 'x-api-key', 'x-tenant-token', 'api-key'])
      assert.equal(requestCarriesCredentials(url, [...harmless, name]), true, name);
    for (const q of [
      'api_key=1',
      'token=1',
      'access_token=1',
      'sig=1',
      'client_secret=1',
      'password=1',
      'passwd=1',
      'auth=1',
      'code=1',
      'credential=1',
      'session=1',
      'jwt=1',
      'X-Amz-Signature=1',
      'x-goog-signature=1',
    ])
      assert.equal(urlCarriesCredentials(`${url}?${q}`), true, q);
    for (const q of ['assistant_id=a', 'agent=x', 'v=1', 'tenant=t'])
      assert.equal(urlCarriesCredentials(`${url}?${q}`), false, q);
    assert.equal(urlCarriesCredentials('https://u:p@agent.example/agent-card.json'), true);
  });
});

describe('staleness at the call', () => {
  test('the first call after idleness, for a skill a redeploy removed: its own span says so', async () => {
    // idle for longer than the interval: the card is no longer in use, nothing revalidates it
    const { client } = await idleThenSkillRemoved(start, INTERVAL_MS * 3);
    h.exporter.reset();
    const got = await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
    assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
    const [send] = await h
      .waitForSpans((s) => s.some((x) => x.name === 'SendMessage'))
      .then((s) => s.filter((x) => x.name === 'SendMessage'));
    assert.equal(send.attributes['a2a.drift.kind'], 'skill_not_in_card');
    assert.equal(send.attributes['a2a.drift.evidence'], 'card');
    assert.equal(send.attributes['a2a.drift.suspicion'], 'revalidation');
    const heldFor = (Number(send.endTime[0]) - Number(send.startTime[0])) * 1000;
    assert.ok(heldFor < 2500, `within the 2 s hold (${heldFor} ms)`);
    assert.equal(
      await h.cardRequestCount({
        'a2a.agent_card.request_purpose': 'revalidation',
        'a2a.agent_card.request_result': 'changed',
      }),
      1,
    );
  });
});
