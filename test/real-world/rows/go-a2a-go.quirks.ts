/**
 * What only the Go a2a-go peer shows, beside its row of the conformance table: encoding/json's
 * nil slice on the card (`"tags": null`), which the `@a2a-js/sdk` client refuses while the
 * instrumentation reads the card; and a raw tasks/get of a finished task (no other row's agent
 * keeps its tasks for a GetTask after a send answered by a final task).
 */
import assert from 'node:assert/strict';
import { pythonSeedFingerprint } from '../../helpers/seed-fingerprint';
import { skillFingerprint } from '../../../src/index';
import { startGoPeer } from '../go/a2a-go/peer-process.mjs';
import { FOX, getCard, messages, rpc, sdkClient } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';

const { v03Message } = messages('go-sdk-');

export const goQuirks: Quirk[] = [
  {
    title:
      'a card with a nil Go slice (translate without Tags → "tags": null): GetAgentCard with the fingerprint (python3 agrees); the @a2a-js/sdk client refuses the card, raw fetch works with zero drift',
    why: 'Go’s encoding/json writes a nil slice as null: no other row serves one',
    async run(ctx) {
      const peer = await startGoPeer({ variant: 'healthy', nilTags: true });
      try {
        await ctx.h().reset();
        const { card, raw } = await getCard(peer.cardUrl);
        assert.equal(card.skills[1].tags, null);
        // @a2a-js/sdk 1.3 in its 0.3 mode: "skill.tags is required and must be an array"
        await assert.rejects(sdkClient({ card }, { legacy: true }), /skill\.tags is required/);
        const t = await rpc(peer.jsonRpcUrl, 'message/send', {
          message: v03Message('translate: hello', 'translate'),
        });
        assert.equal(t.status.state, 'completed');
        await ctx.spans.spansSettled(2);
        const get = ctx.spans.only('GetAgentCard');
        assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
        assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
        assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
        assert.equal(
          ctx.spans.only('SendMessage').attributes['a2a.task.state'],
          'TASK_STATE_COMPLETED',
        );
        assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
      } finally {
        await peer.stop();
      }
    },
  },
  {
    title: 'raw tasks/get of the finished task: COMPLETED, protocol 0.3, zero drift',
    why: 'a GetTask of a finished task: no shared check polls a task that a send already finished',
    async run(ctx) {
      const peer = await ctx.healthy();
      await ctx.h().reset();
      await getCard(peer.cardUrl);
      const url = endpoint(peer, 'jsonRpcUrl');
      const t = await rpc(url, 'message/send', {
        message: v03Message(`summarize: ${FOX}`, 'summarize'),
      });
      const got = await rpc(url, 'tasks/get', { id: t.id });
      assert.equal(got.status.state, 'completed');
      await ctx.spans.spansSettled(3);
      const s = ctx.spans.only('GetTask');
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(s.attributes['a2a.protocol.version'], '0.3');
      assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
    },
  },
];
