/**
 * What only python-a2a shows, beside its row of the conformance table: the well-known card path
 * other agents serve is its HTML agent page, which must not be taken for a card.
 */
import assert from 'node:assert/strict';
import { endpoint, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift } from '../conformance/row-kit';

export const pythonA2aQuirks: Quirk[] = [
  healthyQuirk(
    '/.well-known/agent-card.json is python-a2a’s HTML agent page: not judged as a card, no drift, no exception',
    'the only agent answering the standard card path with HTML (its card is at agent.json)',
    async (ctx, peer) => {
      const res = await fetch(endpoint(peer, 'agentCardJsonUrl'));
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await res.text(), /<!DOCTYPE html>/i);
      await new Promise((r) => setTimeout(r, 100));
      for (const s of ctx.h().spans())
        assert.equal(s.attributes['a2a.agent_card.fingerprint'], undefined);
      await noDrift(ctx);
    },
  ),
];
