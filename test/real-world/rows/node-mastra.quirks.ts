/**
 * What only Mastra shows, beside its row of the conformance table: two agents on one origin
 * (cards and endpoints by agent id), the second judged only against its own card, before and
 * after the first agent's redeploy.
 */
import assert from 'node:assert/strict';
import { skillFingerprint } from '../../../src/index';
import { getCard, rpc } from '../lib';
import { m03 } from '../conformance/probes';
import { endpoint, type Quirk } from '../conformance/types';

const lookup = (url: string) =>
  rpc(url, 'message/send', m03('skill:lookup drift', 'lookup', 'mastra-lookup'));

export const mastraQuirks: Quirk[] = [
  {
    title:
      "two agents on one origin: a call to helper (send and stream) is never judged against assistant's card; with both cards fetched each call carries its own",
    why: 'agents told apart by their id in the path of one origin',
    async run(ctx) {
      const peer = await ctx.healthy();
      await ctx.h().reset();
      const assistantCard = (await getCard(peer.cardUrl)).card;
      const helperRpc = endpoint(peer, 'helperRpcUrl');
      assert.equal((await lookup(helperRpc)).status.state, 'completed');
      const st = await fetch(helperRpc, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'message/stream',
          params: m03('skill:lookup drift', 'lookup', 'mastra-st'),
        }),
      });
      assert.match(await st.text(), /"state":"completed"/);
      await ctx.spans.spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const span = ctx.spans.only(name);
        assert.equal(span.attributes['a2a.skill.id'], 'lookup');
        assert.notEqual(span.attributes['a2a.agent_card.url'], peer.cardUrl);
        assert.notEqual(
          span.attributes['a2a.agent_card.fingerprint'],
          skillFingerprint(assistantCard as never),
        );
        assert.notEqual(span.attributes['gen_ai.agent.name'], 'assistant');
      }
      assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());

      await ctx.h().reset();
      const a = (await getCard(peer.cardUrl)).card;
      const b = (await getCard(endpoint(peer, 'helperCardUrl'))).card;
      await lookup(helperRpc);
      await rpc(
        endpoint(peer, 'rpcUrl'),
        'message/send',
        m03('skill:summarize-v2 one two three four five', 'summarize-v2', 'mastra-s'),
      );
      await ctx.spans.spansSettled(4);
      const bySkill = new Map(
        ctx
          .h()
          .spans('SendMessage')
          .map((s) => [s.attributes['a2a.skill.id'], s]),
      );
      assert.equal(
        bySkill.get('lookup')?.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(b as never),
      );
      assert.equal(bySkill.get('lookup')?.attributes['gen_ai.agent.name'], 'helper');
      assert.equal(
        bySkill.get('summarize-v2')?.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(a as never),
      );
      assert.equal(bySkill.get('summarize-v2')?.attributes['gen_ai.agent.name'], 'assistant');
      assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
    },
  },
  {
    title:
      'after the variant A redeploy of assistant, the second agent (helper, unchanged) is not affected',
    why: 'as above, across a redeploy of the other agent',
    async run(ctx) {
      const v = await ctx.redeployed('A');
      ctx.h().exporter.reset();
      assert.equal((await lookup(endpoint(v.peer, 'helperRpcUrl'))).status.state, 'completed');
      await ctx.spans.spansSettled(1);
      assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
    },
  },
];
