/**
 * What only VoltAgent shows, beside its row of the conformance table: its kind-less Tasks, which
 * the `@a2a-js/sdk` client refuses (the same with and without the instrumentation), and a variant
 * B its cards cannot express (not flagged, the card unchanged).
 */
import assert from 'node:assert/strict';
import { skillFingerprint } from '../../../src/index';
import { sendRequest } from '../../peers/sdk-client';
import { getCard, rpc, rpcRaw, sdkClient, type Json } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift, redeployQuirk } from '../conformance/row-kit';
import { m03 } from '../conformance/probes';

const send = (url: string, text: string, skill: string) =>
  rpc(url, 'message/send', m03(text, skill, `volt-${skill}`));

export const voltagentQuirks: Quirk[] = [
  healthyQuirk(
    '@a2a-js/sdk 1.3 client (0.3 mode, card URL): the same outcome with and without the instrumentation (it refuses the kind-less Task), no drift',
    'a fact of the two libraries (VoltAgent’s Tasks carry no `kind`), no other row answers so',
    async (ctx, peer) => {
      const attempt = async (): Promise<string> => {
        const client = await sdkClient({ baseUrl: peer.cardUrl, path: '' }, { legacy: true });
        return client.sendMessage(sendRequest('summarize-v2', { text: 'Hello from the SDK' })).then(
          (r) => `ok ${JSON.stringify(r).length}`,
          (e: Error) => `${e.constructor.name}: ${e.message}`,
        );
      };
      const on = await attempt();
      await ctx.spans.spansSettled(2);
      ctx.h().instrumentation.disable();
      let off: string;
      try {
        off = await attempt();
      } finally {
        ctx.h().instrumentation.enable();
      }
      assert.equal(on, off);
      assert.equal(
        on,
        'InvalidAgentResponseError: Unexpected v0.3 message/send result kind: undefined',
      );
      assert.equal(ctx.spans.only('SendMessage').attributes['a2a.skill.id'], 'summarize-v2');
      assert.equal(ctx.spans.only('GetAgentCard').attributes['a2a.agent_card.skill_count'], 2);
      await noDrift(ctx);
    },
  ),
  redeployQuirk(
    'B',
    'variant B (summarize-v2 reused: plain text instead of markdown): not observable from its cards, not flagged, the card’s fingerprint unchanged',
    'the row’s variant B is N/A (no per-skill modes); this shows the redeploy is not mistaken for drift',
    async (ctx, v) => {
      for (const s of v.card.skills as Json[]) {
        assert.equal(s.outputModes, undefined);
        assert.equal(s.inputModes, undefined);
      }
      const t = await send(endpoint(v.peer, 'rpcUrl'), 'The quick brown fox jumps', 'summarize-v2');
      assert.equal(t.status.state, 'completed');
      assert.match((t.status.message.parts as Json[]).map((p) => p.text).join(''), /^Summary: /);
      const s = await rpcRaw(endpoint(v.peer, 'rpcUrl'), 'tasks/get', { id: t.id });
      assert.ok(s.result, 'the task is kept');
      const card = (await getCard(v.peer.cardUrl)).card;
      assert.equal(skillFingerprint(card as never), skillFingerprint(v.card as never));
      await noDrift(ctx, 3);
    },
  ),
];
