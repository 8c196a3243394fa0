/**
 * What only Mastra shows, beside its row of the conformance table: its second agent (helper)
 * unaffected by the redeploy of the first (the shared second-agent check covers the healthy
 * deployment).
 */
import assert from 'node:assert/strict';
import { rpc } from '../lib';
import { m03 } from '../conformance/probes';
import { endpoint, type Quirk } from '../conformance/types';
import { noDrift, redeployQuirk } from '../conformance/row-kit';

const lookup = (url: string) =>
  rpc(url, 'message/send', m03('skill:lookup drift', 'lookup', 'mastra-lookup'));

export const mastraQuirks: Quirk[] = [
  redeployQuirk(
    'A',
    'after the variant A redeploy of assistant, the second agent (helper, unchanged) is not affected',
    'the only row whose redeploy changes one agent of two on the origin and keeps the other',
    async (ctx, v) => {
      assert.equal((await lookup(endpoint(v.peer, 'helperRpcUrl'))).status.state, 'completed');
      await noDrift(ctx, 1);
    },
  ),
];
