/**
 * What only Google ADK's JS server shows, beside its row of the conformance table: a skill named
 * in a data part (`{skill, parameters}`, ADK's own convention, no metadata.skillId).
 */
import assert from 'node:assert/strict';
import { FOX, getCard, messages, nextRpcId, rpc, type Json } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift } from '../conformance/row-kit';

const { nextMessageId } = messages('adk-test-');
/** A 0.3 message naming the skill in a data part only (no metadata.skillId). */
const dataMessage = (skill: string, parameters: Json): Json => ({
  kind: 'message',
  role: 'user',
  messageId: nextMessageId(),
  parts: [{ kind: 'data', data: { skill, parameters } }],
});
/** message/stream with raw fetch: the final status of ADK's SSE events (`data: {json}\n\n`). */
async function streamFinal(url: string, message: Json): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextRpcId(),
      method: 'message/stream',
      params: { message },
    }),
  });
  const events = (await res.text())
    .split('\n\n')
    .filter((e) => e.trim())
    .map((e) => (JSON.parse(e.slice('data: '.length)) as Json).result as Json);
  const last = events[events.length - 1];
  assert.equal(last.kind, 'status-update');
  assert.equal(last.final, true);
  return last.status as Json;
}

export const adkJsQuirks: Quirk[] = [
  healthyQuirk(
    'the skill named in a data part (no metadata.skillId): the span carries a2a.skill.id desk-summarize (send and stream)',
    'ADK’s convention for naming a skill; no other row’s client puts it there',
    async (ctx, peer) => {
      await getCard(peer.cardUrl);
      const url = endpoint(peer, 'rpcUrl');
      const task = await rpc(url, 'message/send', {
        message: dataMessage('desk-summarize', { text: FOX }),
      });
      assert.equal(task.status.state, 'completed');
      assert.equal(task.artifacts[0].parts[0].data.name, 'summarize', 'the model called summarize');
      assert.equal(
        (await streamFinal(url, dataMessage('desk-summarize', { text: FOX }))).state,
        'completed',
      );
      await ctx.spans.spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = ctx.spans.only(name);
        assert.equal(s.attributes['a2a.skill.id'], 'desk-summarize', ctx.spans.describeSpans());
        assert.notEqual(s.attributes['a2a.drift.unjudged_reason'], 'no skill id for this task');
      }
      await noDrift(ctx);
    },
  ),
];
