/**
 * The authenticated extended card, against a real @a2a-js/sdk server and the real SDK client:
 * `client.getAgentCard()` fetches it when the public card sets `capabilities.extendedAgentCard`
 * (1.0 JSON-RPC `GetExtendedAgentCard`, 0.3 `agent/getAuthenticatedExtendedCard`, REST
 * `GET …/extendedAgentCard`) and the client then negotiates the skills it adds. Those skills
 * are judged against the extended card: no `skill_not_in_card` false alarm, while a skill in
 * neither card is still drift. With refetchCardOnDrift, a REST extended card is re-fetched; one
 * that came in a JSON-RPC result is not (a GET of the endpoint is no card fetch).
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import {
  startSdkPeer,
  DEFAULT_SKILL,
  TRANSLATE_SKILL,
  type PeerSkillInput,
  type SdkPeer,
} from '../peers/sdk-peer';
import { asTask, createSdkClient, sendRequest, type SdkTransportChoice } from '../peers/sdk-client';

/** A skill only the extended card lists. */
const PRIVATE_SKILL: PeerSkillInput = {
  id: 'private-report',
  name: 'Private report',
  description: 'Only for authenticated clients.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};

let h: Harness;
let peer: SdkPeer | undefined;

before(() => {
  h = setupOtel({ refetchCardOnDrift: true });
});

after(async () => {
  await peer?.close();
  await h.shutdown();
});

beforeEach(async () => {
  await peer?.close();
  peer = await startSdkPeer({
    name: 'peer-x',
    skills: [DEFAULT_SKILL],
    extendedSkills: [PRIVATE_SKILL],
  });
  await h.reset();
});

const EXTENDED_SPAN: Record<string, string> = {
  jsonrpc: 'GetExtendedAgentCard',
  'v03-jsonrpc': 'GetExtendedAgentCard',
  rest: 'GetAgentCard', // a REST extended-card fetch is a card fetch (README)
  'v03-rest': 'GetAgentCard',
};

for (const transport of ['jsonrpc', 'v03-jsonrpc', 'rest', 'v03-rest'] as SdkTransportChoice[]) {
  describe(`extended card over ${transport}`, () => {
    test('fingerprinted on its span; its own skills are judged against it, not as drift', async () => {
      const p = peer as SdkPeer;
      const client = await createSdkClient(p, transport);
      const card = await client.getAgentCard();
      assert.deepEqual(
        card.skills.map((s) => s.id),
        [DEFAULT_SKILL.id, PRIVATE_SKILL.id],
        'the SDK client holds the extended card',
      );
      const task = asTask(await client.sendMessage(sendRequest(PRIVATE_SKILL.id)));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));

      const extended = h
        .spans(EXTENDED_SPAN[transport])
        .find((s) => s.attributes['a2a.agent_card.skill_count'] === 2);
      assert.ok(extended, `a ${EXTENDED_SPAN[transport]} span for the extended card`);
      const ea = extended.attributes;
      assert.equal(ea['a2a.agent_card.skill_count'], 2);
      assert.equal(typeof ea['a2a.agent_card.fingerprint'], 'string');
      const publicCard = h
        .spans('GetAgentCard')
        .find((s) => s.attributes['a2a.agent_card.skill_count'] === 1);
      assert.ok(publicCard, 'the public card was fetched and fingerprinted too');
      assert.notEqual(
        ea['a2a.agent_card.fingerprint'],
        publicCard.attributes['a2a.agent_card.fingerprint'],
      );

      const [send] = h.spans('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], PRIVATE_SKILL.id);
      assert.equal(send.attributes['a2a.agent_card.fingerprint'], ea['a2a.agent_card.fingerprint']);
      assert.equal(drifted(spans).length, 0, 'no drift for a skill the extended card lists');
      assert.notEqual(send.status.code, SpanStatusCode.ERROR);
      assert.equal(await h.driftCount(), 0);
    });

    test('the public card fetched again later does not take over from the extended card', async () => {
      const p = peer as SdkPeer;
      const client = await createSdkClient(p, transport);
      await client.getAgentCard(); // the extended card
      await createSdkClient(p, transport); // another client reads the public card after it
      const task = asTask(await client.sendMessage(sendRequest(PRIVATE_SKILL.id)));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
      assert.equal(drifted(spans).length, 0);
      const [send] = h.spans('SendMessage');
      const extended = h
        .spans()
        .find((s) => s.attributes['a2a.agent_card.skill_count'] === 2 && s.name !== 'SendMessage');
      assert.ok(extended);
      assert.equal(
        send.attributes['a2a.agent_card.fingerprint'],
        extended.attributes['a2a.agent_card.fingerprint'],
      );
    });

    test('enforce mode: an extended card changed under the same version reaches the app (card_changed is no failure)', async () => {
      const p = peer as SdkPeer;
      h.instrumentation.setConfig({
        driftCallbackDebounceMs: 0,
        refetchCardOnDrift: true,
        mode: 'enforce',
      });
      try {
        const client = await createSdkClient(p, transport);
        await client.getAgentCard();
        p.redeploy([TRANSLATE_SKILL]); // the extended card changes with it; same version
        const card = await client.getAgentCard();
        assert.deepEqual(
          card.skills.map((s) => s.id),
          [TRANSLATE_SKILL.id, PRIVATE_SKILL.id],
        );
        const spans = await h.waitForSpans((s) =>
          s.some((x) => x.events.some((e) => e.name === 'a2a.agent_card.changed')),
        );
        const changed = spans.find((x) =>
          x.events.some((e) => e.name === 'a2a.agent_card.changed'),
        );
        assert.equal(changed?.name, EXTENDED_SPAN[transport]);
        assert.notEqual(changed?.status.code, SpanStatusCode.ERROR);
      } finally {
        h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, refetchCardOnDrift: true });
      }
    });

    test('a skill in neither card is still drift', async () => {
      const p = peer as SdkPeer;
      const client = await createSdkClient(p, transport);
      await client.getAgentCard();
      await client.sendMessage(sendRequest('no-such-skill'));
      await h.waitForSpans((s) => drifted(s).length === 1);
      const [span] = drifted(h.spans());
      assert.equal(span.name, 'SendMessage');
      assert.equal(span.attributes['a2a.skill.id'], 'no-such-skill');
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(
        span.attributes['a2a.drift.refetch'],
        transport.endsWith('rest') ? 'unchanged' : undefined,
      );
    });
  });
}
