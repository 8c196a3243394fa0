/**
 * What only the LangGraph server shows, beside its row of the conformance table: one origin
 * serving one card per assistant, told apart by a query (which stays out of telemetry but is
 * what the app's drift callback gets), and a redeploy that removes an assistant's card with it.
 */
import assert from 'node:assert/strict';
import { onAgentCardDrift, type DriftEvent } from '../../../src/index';
import { FOX, getCard, messages, rpc, rpcRaw } from '../lib';
import { endpoint, type Peer, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift, redeployQuirk } from '../conformance/row-kit';

const { v03Params, v10Params } = messages('py-lg-');
const ids = (p: Peer) => (p as unknown as { assistantIds: Record<string, string> }).assistantIds;
const cardOf = (p: Peer, id: string) =>
  `${p.origin}/.well-known/agent-card.json?assistant_id=${id}`;

export const langgraphQuirks: Quirk[] = [
  healthyQuirk(
    'two assistants on one origin: each card its own (no card_changed between them), the query out of telemetry, each call judged against its own card (0.3 and the 1.0 hybrid answer)',
    'the only row with several cards at one path, told apart by a query parameter',
    async (ctx, peer) => {
      const { desk, studio } = ids(peer);
      await getCard(cardOf(peer, desk));
      await getCard(cardOf(peer, studio));
      const t03 = await rpc(
        `${peer.origin}/a2a/${desk}`,
        'message/send',
        v03Params(`summarize: ${FOX}`, `${desk}-main`),
      );
      assert.deepEqual(t03.artifacts[0].parts, [
        { kind: 'text', text: 'Summary: The quick brown fox jumps over.' },
      ]);
      const t10 = await rpc(
        `${peer.origin}/a2a/${studio}`,
        'SendMessage',
        v10Params('hello', `${studio}-main`),
      );
      assert.equal(t10.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(t10));
      assert.deepEqual(t10.task.artifacts[0].parts, [{ kind: 'text', text: 'FR: hello' }]);
      await ctx.spans.spansSettled(4);
      const cards = ctx.h().spans('GetAgentCard');
      assert.equal(cards.length, 2);
      const [fpDesk, fpStudio] = cards.map((c) => c.attributes['a2a.agent_card.fingerprint']);
      assert.notEqual(fpDesk, fpStudio);
      for (const c of cards)
        assert.equal(
          c.attributes['a2a.agent_card.url'],
          `${peer.origin}/.well-known/agent-card.json`,
        );
      assert.deepEqual(
        ctx
          .h()
          .spans('SendMessage')
          .map((s) => [
            s.attributes['a2a.protocol.version'],
            s.attributes['a2a.agent_card.fingerprint'],
          ]),
        [
          [undefined, fpDesk],
          ['1.0', fpStudio],
        ],
      );
      await noDrift(ctx);
    },
  ),
  redeployQuirk(
    'A',
    'variant A: the removed assistant’s card URL answers 400 -32602: the card span says why it could not judge, no card_changed',
    'the redeploy takes the card with the skill; no other row loses its card',
    async (ctx, v) => {
      assert.deepEqual(Object.keys((v.peer as unknown as { assistants: object }).assistants), [
        'desk',
      ]);
      const r = await rpcRaw(
        endpoint(v.peer, 'rpcUrl'),
        'message/send',
        v03Params('hello', `${ids(v.peer).studio}-main`),
      );
      assert.deepEqual(r.error, {
        code: -32602,
        message: `Assistant '${ids(v.peer).studio}' not found`,
      });
      const res = await fetch(v.peer.cardUrl);
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error: { code: number } }).error.code, -32602);
      await ctx.spans.spansSettled(2);
      const get = ctx.spans.only('GetAgentCard');
      assert.equal(get.attributes['a2a.drift.unjudged_reason'], 'card fetch answered 400');
      assert.equal(get.attributes['a2a.drift.kind'], undefined, 'no card, no card_changed');
    },
    { assistant: 'studio' },
  ),
  redeployQuirk(
    'B',
    'variant B: the app’s drift callback gets the card URL it fetched, query included (which card to evict)',
    'only a card URL with a query shows that the callback names the card the app fetched',
    async (ctx, v) => {
      const events: DriftEvent[] = [];
      const off = onAgentCardDrift((e) => void events.push(e));
      try {
        await rpc(
          endpoint(v.peer, 'rpcUrl'),
          'message/send',
          v03Params(`summarize: ${FOX}`, `${ids(v.peer).desk}-main`),
        );
        for (let i = 0; i < 100 && events.length === 0; i++)
          await new Promise((r) => setTimeout(r, 10));
      } finally {
        off();
      }
      assert.deepEqual(
        events.map((e) => [e.kind, e.cardUrl]),
        [['output_mode_mismatch', v.peer.cardUrl]],
      );
    },
  ),
];
