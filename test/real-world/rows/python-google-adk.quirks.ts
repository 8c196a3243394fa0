/**
 * What only Google ADK's Python server shows, beside its row of the conformance table: how it
 * marks a tool-using turn's intermediate work (function_call / function_response data parts,
 * `metadata.adk_type`, in WORKING status messages and the history) — the wire shape the healthy
 * check's "no verdict" is about; no other row marks its work so.
 */
import assert from 'node:assert/strict';
import { collect, sendRequest } from '../../peers/sdk-client';
import { FOX, getCard, messages, rpc, sdkClient, type Json } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift } from '../conformance/row-kit';

const { v03Params } = messages('py-adk-');

export const googleAdkQuirks: Quirk[] = [
  healthyQuirk(
    'a tool-using turn: function_call / function_response parts (adk_type) in WORKING status messages (SDK stream) and in the 0.3 history, unjudged',
    'ADK’s own marking of intermediate work; the shared healthy check sees only that nothing is judged',
    async (ctx, peer) => {
      const client = await sdkClient({ baseUrl: peer.baseUrl ?? peer.origin });
      const events = await collect(
        client.sendMessageStream(sendRequest('desk-summarize', { text: `summarize: ${FOX}` })),
      );
      const adkTypes = events.flatMap((e) =>
        e.payload?.$case === 'statusUpdate'
          ? (e.payload.value.status?.message?.parts ?? []).map(
              (p) => (p.metadata as Json | undefined)?.adk_type ?? p.content?.$case,
            )
          : [],
      );
      assert.deepEqual(adkTypes, ['function_call', 'function_response', 'text']);
      await getCard(peer.cardUrl);
      const t03 = await rpc(
        endpoint(peer, 'rpcUrl'),
        'message/send',
        v03Params('translate: hello', 'desk-translate'),
      );
      assert.equal(t03.status.state, 'completed');
      assert.deepEqual(
        t03.history.map((m: Json) => m.parts.map((p: Json) => p.metadata?.adk_type ?? p.kind)),
        [['text'], ['function_call'], ['function_response'], ['text']],
      );
      await noDrift(ctx, 3);
    },
  ),
];
