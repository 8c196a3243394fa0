/**
 * What only the Python a2a-sdk row shows, beside its row of the conformance table: its card is a
 * hybrid (1.0 interfaces listed first, the 0.3 fields on top), and which version the card span
 * names depends on what the app asked for — no other row serves one card to both versions.
 */
import assert from 'node:assert/strict';
import type { Json } from '../lib';
import { type Quirk } from '../conformance/types';
import { healthyQuirk } from '../conformance/row-kit';

export const a2aSdkQuirks: Quirk[] = [
  healthyQuirk(
    'GetAgentCard of the hybrid card a 1.0 client fetched (A2A-Version: 1.0, 1.0 interfaces listed first) says a2a.protocol.version 1.0',
    'the only row whose one card serves both 1.0 and 0.3 clients: the header the app sent decides',
    async (ctx, peer) => {
      const res = await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } });
      const card = (await res.json()) as Json;
      assert.equal(card.protocolVersion, '0.3');
      assert.equal(card.supportedInterfaces[0].protocolVersion, '1.0');
      await ctx.spans.spansSettled(1);
      assert.equal(ctx.spans.only('GetAgentCard').attributes['a2a.protocol.version'], '1.0');
    },
  ),
];
