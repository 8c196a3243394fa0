/**
 * What only crewAI shows, beside its row of the conformance table: every answer is ONE completed
 * Task that carries the agent's final answer twice, as an artifact named after the task and as
 * the last history message.
 */
import assert from 'node:assert/strict';
import { FOX, messages, rpc, type Json } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';
import { healthyQuirk } from '../conformance/row-kit';

const { v03Message } = messages('py-crewai-quirk-');
/** 0.3 params, the skill in `message.metadata.skill_id` (crewAI's delegation convention) */
const params = (text: string, skill_id: string): Json => ({
  message: { ...v03Message(text), metadata: { skill_id } },
});

/** The text of the artifact, checked to be the last history message too. */
function answer(t: Json): string {
  assert.equal(t.artifacts.length, 1);
  assert.equal(t.artifacts[0].name, `result_${t.id}`);
  const last = t.history[t.history.length - 1];
  assert.equal(last.role, 'agent');
  assert.deepEqual(last.parts, t.artifacts[0].parts);
  assert.equal(t.artifacts[0].parts.length, 1);
  return t.artifacts[0].parts[0].text as string;
}

export const crewaiQuirks: Quirk[] = [
  healthyQuirk(
    'the answer written twice: one artifact `result_<task id>` and the last history message, the same one text part (healthy, and a removed tool under ReAct)',
    'crewAI’s own task execution (crewai/a2a/utils/task.py) writes the final answer both ways; no other agent does',
    async (ctx, peer) => {
      const t = await rpc(
        endpoint(peer, 'rpcUrl'),
        'message/send',
        params(`summarize: ${FOX}`, 'summarize'),
      );
      assert.equal(answer(t), 'Summary: The quick brown fox jumps over.');
      const v = await ctx.redeployed('A', { mode: 'react' });
      const a = await rpc(
        endpoint(v.peer, 'rpcUrl'),
        'message/send',
        params('translate: hello', 'translate'),
      );
      assert.match(answer(a), /^I encountered an error: Action 'translate' don't exist/);
    },
  ),
];
