/**
 * Any failure is evidence, and the card decides: a call for a skill the card in use lists that
 * fails in any way (a failed task with or without words, a JSON-RPC error, an HTTP+JSON error, a
 * stream ending in an error), or whose answer names the skill with words of absence in a phrasing
 * no dialect knows, makes the card be fetched again; drift is reported only when that card no
 * longer lists the skill. Against a real @a2a-js/sdk server and the real SDK client.
 *
 *   npm run build && node --import tsx --test test/instrumentation/failure-evidence.test.ts
 */
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { drifted, type Harness } from '../helpers/otel';
import { DEFAULT_SKILL, TRANSLATE_SKILL } from '../peers/sdk-peer';
import {
  createSdkClient,
  sendRequest,
  collect,
  type SdkTransportChoice,
} from '../peers/sdk-client';
import { skillFingerprint } from '../../src/index';
import { harnessWithDriftEvents, sdkPeerPerTest } from '../helpers/drift-harness';

/** The debounce window of these tests: long enough that a run of calls shares one card fetch. */
const DEBOUNCE_MS = 10_000;

const { h: harness, events } = harnessWithDriftEvents({ driftCallbackDebounceMs: DEBOUNCE_MS });
let h: Harness;
beforeEach(() => {
  h = harness();
});

/** A peer whose card lists summarize-v2 and translate-v1, the card the app holds read from it. */
const peerWithCardHeld = sdkPeerPerTest({
  name: 'peer-f',
  skills: [DEFAULT_SKILL, TRANSLATE_SKILL],
});

async function settled(name: string, n = 1): Promise<ReadableSpan[]> {
  const spans = await h.waitForSpans((s) => s.filter((x) => x.name === name).length >= n, 6000);
  return spans.filter((x) => x.name === name);
}

function describeSpans(): string {
  return JSON.stringify(
    h.spans().map((s) => ({ name: s.name, attrs: s.attributes, status: s.status })),
    null,
    1,
  );
}

/** The drift on a span confirmed by the card fetched again, with what raised the suspicion. */
function assertConfirmedByCard(
  span: ReadableSpan,
  kind: string,
  skill: string,
  newCardFingerprint: string,
  suspicion: 'failure' | 'words' = 'failure',
): void {
  const a = span.attributes;
  assert.equal(a['a2a.drift.kind'], kind, describeSpans());
  assert.equal(a['a2a.skill.id'], skill);
  assert.equal(a['a2a.drift.evidence'], 'card');
  assert.equal(a['a2a.drift.suspicion'], suspicion);
  assert.equal(a['a2a.drift.confirmed'], true);
  assert.equal(a['a2a.drift.current_fingerprint'], newCardFingerprint);
  assert.equal(span.status.code, SpanStatusCode.ERROR);
  assert.equal(a['error.type'], 'StaleAgentCardError');
}

const transports: SdkTransportChoice[] = ['jsonrpc', 'rest', 'v03-jsonrpc'];

describe('variant A however the agent fails: the card fetched again confirms it', () => {
  for (const transport of transports) {
    for (const goneSkill of ['silent', 'throw'] as const) {
      test(`${transport}: the removed skill fails ${goneSkill === 'silent' ? 'as a FAILED task with no text' : 'with an executor error that does not name it'} → unknown_skill (card)`, async () => {
        const p = await peerWithCardHeld({ goneSkill });
        const client = await createSdkClient(p, transport);
        const held = skillFingerprint(p.card as never);
        p.redeploy([DEFAULT_SKILL]);
        const now = skillFingerprint(p.card as never);
        assert.notEqual(now, held);
        const fetchesBefore = p.cardFetches;
        const started = Date.now();
        await client.sendMessage(sendRequest(TRANSLATE_SKILL.id)).catch(() => undefined);
        const [send] = await settled('SendMessage');
        const tookMs = Date.now() - started;
        assertConfirmedByCard(send, 'unknown_skill', TRANSLATE_SKILL.id, now);
        assert.equal(send.attributes['a2a.agent_card.fingerprint'], held, 'the negotiated card');
        assert.equal(p.cardFetches - fetchesBefore, 1, 'one confirming fetch');
        assert.equal(await h.driftCount(), 1);
        const until = Date.now() + 2000;
        while (events.length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
        assert.equal(events[0]?.kind, 'unknown_skill');
        assert.equal(events[0]?.skillId, TRANSLATE_SKILL.id);
        assert.ok(tookMs < 2500, `the verdict on the failing call's own span (${tookMs} ms)`);
        console.log(`# ${transport} ${goneSkill}: call to confirmed verdict ${tookMs} ms`);
      });
    }
  }

  test('a stream that ends in an error for the removed skill → unknown_skill (card)', async () => {
    const p = await peerWithCardHeld({ goneSkill: 'throw' });
    const client = await createSdkClient(p, 'jsonrpc');
    p.redeploy([DEFAULT_SKILL]);
    await collect(client.sendMessageStream(sendRequest(TRANSLATE_SKILL.id))).catch(() => []);
    const [st] = await settled('SendStreamingMessage');
    assertConfirmedByCard(
      st,
      'unknown_skill',
      TRANSLATE_SKILL.id,
      skillFingerprint(p.card as never),
    );
  });

  test('the skill still on the card fails too (a broken agent): no drift, one fetch per debounce window', async () => {
    const p = await peerWithCardHeld({ broken: true });
    const client = await createSdkClient(p, 'jsonrpc');
    const fetchesBefore = p.cardFetches;
    const CALLS = 1000;
    const started = Date.now();
    for (let i = 0; i < CALLS; i++) await client.sendMessage(sendRequest(DEFAULT_SKILL.id));
    const elapsed = Date.now() - started;
    await settled('SendMessage', CALLS);
    const sends = h.spans('SendMessage');
    assert.deepEqual(drifted(h.spans()), [], 'no drift');
    assert.equal(await h.driftCount(), 0);
    assert.equal(events.length, 0);
    const fetches = p.cardFetches - fetchesBefore;
    // one per debounce window begun while the calls ran
    assert.ok(
      fetches >= 1 && fetches <= Math.ceil(elapsed / DEBOUNCE_MS) + 1,
      `${fetches} card fetches for ${CALLS} failing calls in ${elapsed} ms`,
    );
    console.log(
      `# broken agent: ${fetches} card fetches per ${CALLS} failing calls (${elapsed} ms)`,
    );
    for (const s of sends) {
      assert.equal(s.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
      assert.equal(s.attributes['a2a.drift.suspicion'], 'failure');
      assert.equal(s.attributes['a2a.drift.refetch'], 'unchanged');
      assert.notEqual(s.attributes['a2a.drift.confirmed'], true);
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    }
  });

  for (const cardAnswer of ['500', 'html', 'redirect', 'slow'] as const) {
    test(`the card answers ${cardAnswer} while confirming: no drift, the app's answer unchanged`, async () => {
      const p = await peerWithCardHeld({ goneSkill: 'silent', cardDelayMs: 2600 });
      const client = await createSdkClient(p, 'jsonrpc');
      p.redeploy([DEFAULT_SKILL]);
      p.setBehaviour({ cardAnswer });
      const got = await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
      assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_FAILED);
      const [send] = await settled('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], undefined, describeSpans());
      assert.equal(send.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
      // an HTML page is no card (the one rule of what a card is); the others are no answer
      assert.equal(
        send.attributes['a2a.drift.refetch'],
        cardAnswer === 'html' ? 'not_a_card' : 'failed',
      );
      assert.notEqual(send.attributes['a2a.drift.confirmed'], true);
      assert.equal(await h.driftCount(), 0);
    });
  }

  test('a card that answers after the hold settles the next call naming the skill', async () => {
    const p = await peerWithCardHeld({ goneSkill: 'silent', cardDelayMs: 2600 });
    const client = await createSdkClient(p, 'jsonrpc');
    p.redeploy([DEFAULT_SKILL]);
    p.setBehaviour({ cardAnswer: 'slow' });
    await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
    const [first] = await settled('SendMessage');
    assert.equal(first.attributes['a2a.drift.kind'], undefined, 'not confirmed within the hold');
    await new Promise((r) => setTimeout(r, 900)); // the slow card answers meanwhile
    p.setBehaviour({ cardAnswer: 'card' });
    h.exporter.reset(); // the spans only: the cards and what was learnt of them stay
    await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
    const [next] = await settled('SendMessage');
    assertConfirmedByCard(
      next,
      'unknown_skill',
      TRANSLATE_SKILL.id,
      skillFingerprint(p.card as never),
    );
  });
});

describe('an answer naming the skill', () => {
  for (const [what, text, suspicion] of [
    [
      'with absence words no dialect knows (crewAI)',
      "I encountered an error: Action 'translate-v1' don't exist, these are the only available Actions: summarize-v2",
      true,
    ],
    ['without absence words', 'Here is your translation (translate-v1): bonjour', false],
    ['with "not found" about something else', 'No flights found for Paris', false],
  ] as const) {
    test(`${what}: ${suspicion ? 'a suspicion the card settles' : 'no suspicion, no card fetch'}`, async () => {
      const p = await peerWithCardHeld({ artifactText: () => text });
      const client = await createSdkClient(p, 'jsonrpc');
      const fetchesBefore = p.cardFetches;
      // healthy card: any suspicion is refuted
      const CALLS = 1000;
      const started = Date.now();
      for (let i = 0; i < CALLS; i++) await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
      const elapsed = Date.now() - started;
      await settled('SendMessage', CALLS);
      assert.deepEqual(drifted(h.spans()), []);
      const fetches = p.cardFetches - fetchesBefore;
      if (!suspicion) {
        assert.equal(fetches, 0);
        for (const s of h.spans('SendMessage'))
          assert.equal(s.attributes['a2a.drift.unconfirmed'], undefined);
        return;
      }
      // one per debounce window begun while the calls ran (as for the broken agent above): on a
      // loaded machine 1,000 calls can span a third window
      assert.ok(
        fetches >= 1 && fetches <= Math.ceil(elapsed / DEBOUNCE_MS) + 1,
        `${fetches} card fetches per ${CALLS} calls in ${elapsed} ms`,
      );
      console.log(
        `# healthy answers naming the skill near absence words: ${fetches} card fetches per ${CALLS} calls (${elapsed} ms)`,
      );
      for (const s of h.spans('SendMessage'))
        assert.notEqual(
          s.status.code,
          SpanStatusCode.ERROR,
          'an unconfirmed suspicion is no error',
        );
    });
  }

  test('the skill removed, the agent completes saying so in words no dialect knows (crewAI) → unknown_skill (card, words)', async () => {
    const text =
      "I encountered an error: Action 'translate-v1' don't exist, these are the only available Actions: summarize-v2";
    const p = await peerWithCardHeld({ goneSkill: 'answer', artifactText: () => text });
    const client = await createSdkClient(p, 'jsonrpc');
    p.redeploy([DEFAULT_SKILL]);
    const got = await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
    assert.equal('status' in got && got.status?.state, TaskState.TASK_STATE_COMPLETED);
    const [send] = await settled('SendMessage');
    assertConfirmedByCard(
      send,
      'unknown_skill',
      TRANSLATE_SKILL.id,
      skillFingerprint(p.card as never),
      'words',
    );
    assert.equal(send.attributes['a2a.drift.matched_pattern'], 'error');
  });
});

describe('a skill an earlier card of the agent listed', () => {
  for (const outcome of ['fails', 'completes'] as const) {
    test(`named in a data part after the app fetched the new card, the call ${outcome} → ${outcome === 'fails' ? 'unknown_skill' : 'skill_not_in_card'} (history)`, async () => {
      // an @adcp/client-style app: the skill named in a data part `{"skill": …}`
      const p = await peerWithCardHeld({
        missingSkillId: outcome === 'fails' ? 'fail' : 'first-skill',
        goneSkill: 'silent', // no words: the card's history alone tells
      });
      await fetch(p.cardUrl).then((r) => r.json());
      p.redeploy([DEFAULT_SKILL]);
      await fetch(p.cardUrl).then((r) => r.json()); // the app fetched the card again: card_changed
      const res = await fetch(p.jsonRpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: `adcp-${outcome}`,
              role: 'ROLE_USER',
              parts: [{ data: { skill: TRANSLATE_SKILL.id, parameters: { text: 'hello' } } }],
            },
          },
        }),
      });
      const body = (await res.json()) as { result?: { task?: { status?: { state?: string } } } };
      assert.equal(
        body.result?.task?.status?.state,
        outcome === 'fails' ? 'TASK_STATE_FAILED' : 'TASK_STATE_COMPLETED',
      );
      const [send] = await settled('SendMessage');
      const a = send.attributes;
      assert.equal(a['a2a.skill.id'], TRANSLATE_SKILL.id, describeSpans());
      assert.equal(a['a2a.skill.id_source'], 'message.parts[].data.skill (earlier card)');
      assert.equal(
        a['a2a.drift.kind'],
        outcome === 'fails' ? 'unknown_skill' : 'skill_not_in_card',
      );
      assert.equal(a['a2a.drift.evidence'], 'card');
      assert.equal(a['a2a.drift.suspicion'], 'history');
      assert.equal(a['a2a.agent_card.fingerprint'], skillFingerprint(p.card as never));
    });
  }
});
