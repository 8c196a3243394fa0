/**
 * The instrumentation against crewAI (`crewai[a2a]` 1.15.30; pinned with hashes in
 * test/real-world/python/crewai/requirements.lock), run as a child process by
 * test/real-world/python/crewai/peer-process.mjs. crewAI 1.15 has no A2A HTTP app of its own:
 * peer.py serves a crewAI Agent (tools summarize, translate; a scripted `BaseLLM`) the way its
 * users do, crewAI's `to_agent_card(url)` and its task execution (`crewai.a2a.utils.task.execute`)
 * on the reference a2a-sdk 0.3.26 Starlette app. The client side runs here, raw `fetch`, the
 * skill where crewAI's own client puts it: `params.message.metadata.skill_id`.
 *
 * The wire (test/fixtures/crewai-live/): a 0.3 card, skills = the tools (id = name, tags [name],
 * no modes); every answer ONE completed Task whose artifact `result_<task id>` and last history
 * message carry the agent's final answer. A tool the agent no longer has never fails the task:
 * crewAI hands the model an observation (ReAct: ToolUsage's "Action 'translate' don't exist";
 * native function calling: AgentExecutor's tool message "Tool not found") and completes with
 * the model's answer. ReAct's words name the tool: a suspicion (no crewAI phrase is listed; the
 * general words rule), which the card fetched again confirms → unknown_skill (evidence `card`,
 * suspicion `words`). "Tool not found" names nothing: not caught (a gap until the card is
 * revalidated).
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-crewai.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setupOtel, type Harness } from '../helpers/otel';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import { startCrewAIPeer, venvInstalled, type CrewAIPeer } from './python/crewai/peer-process.mjs';
import { FOX, caughtByRevalidation, getCard, messages, rpc, spanChecks, type Json } from './lib';

/** crewAI's ToolUsage error (ReAct), up to where it appends its retry prompt */
const REACT_MISSING =
  "I encountered an error: Action 'translate' don't exist, these are the only available Actions:\n" +
  'Tool Name: summarize\nTool Arguments: {\n  "properties": {\n    "text": {\n      "title": "Text",\n' +
  '      "type": "string"\n    }\n  },\n  "required": [\n    "text"\n  ],\n  "title": "Summarize",\n' +
  '  "type": "object",\n  "additionalProperties": false\n}\nTool Description: Summarise a text in one sentence.';
/** the tool message crewAI's AgentExecutor answers a native call of an unknown tool with */
const NATIVE_MISSING = 'Tool not found';

const skip = venvInstalled()
  ? false
  : 'test/real-world/python/crewai/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { v03Message } = messages('py-crewai-');
/** 0.3 params, the skill in `message.metadata.skill_id` (crewAI's delegation convention) */
const params = (text: string, skill_id: string): Json => ({
  message: { ...v03Message(text), metadata: { skill_id } },
});
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
/** the text of the artifact and of the last history message (crewAI writes both) */
const answer = (t: Json) => {
  assert.equal(t.artifacts.length, 1);
  assert.equal(t.artifacts[0].name, `result_${t.id}`);
  const last = t.history[t.history.length - 1];
  assert.equal(last.role, 'agent');
  assert.deepEqual(last.parts, t.artifacts[0].parts);
  assert.equal(t.artifacts[0].parts.length, 1);
  return t.artifacts[0].parts[0].text as string;
};

describe(
  'crewai (Python) healthy peer (crewAI Agent with tools, scripted BaseLLM)',
  { skip },
  () => {
    let peer: CrewAIPeer;
    before(async () => {
      peer = await startCrewAIPeer({ variant: 'healthy' });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(async () => {
      await h.reset();
    });

    test('the card (to_agent_card) → GetAgentCard with the fingerprint, protocol 0.3; the seed agrees', async () => {
      const { card, raw } = await getCard(peer.cardUrl);
      assert.equal(card.protocolVersion, '0.3.0');
      assert.equal(card.version, '1.0.0');
      assert.deepEqual(card.defaultOutputModes, ['text/plain', 'application/json']);
      assert.deepEqual(
        card.skills.map((s: Json) => [s.id, s.name, s.tags, s.outputModes]),
        [
          ['summarize', 'summarize', ['summarize'], undefined],
          ['translate', 'translate', ['translate'], undefined],
        ],
      );
      await spansSettled(1);
      const get = only('GetAgentCard');
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
      assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
      assert.equal(get.attributes['a2a.protocol.version'], '0.3');
      assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('message/send summarize (skill_id in message.metadata): completed, the tool result, zero drift', async () => {
      await getCard(peer.cardUrl);
      const t = await rpc(peer.rpcUrl, 'message/send', params(`summarize: ${FOX}`, 'summarize'));
      assert.equal(t.status.state, 'completed');
      assert.equal(answer(t), 'Summary: The quick brown fox jumps over.');
      await spansSettled(2);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.skill.id'], 'summarize');
      assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.deepEqual(driftKinds(), [], describeSpans());
      assert.equal(await h.driftCount(), 0);
    });
  },
);

for (const [mode, missing] of [
  ['react', REACT_MISSING],
  ['function-calling', NATIVE_MISSING],
] as const) {
  describe(
    `crewai (Python) variant A, ${mode}: translate removed (tool and skill), version 1.0.0`,
    { skip },
    () => {
      let peer: CrewAIPeer;
      before(async () => {
        // the app reads the healthy card, then the peer is redeployed on the SAME port
        const healthy = await startCrewAIPeer({ variant: 'healthy', mode });
        await h.reset();
        try {
          await getCard(healthy.cardUrl);
          await spansSettled(1);
        } finally {
          await healthy.stop();
        }
        peer = await startCrewAIPeer({ variant: 'A', mode, port: healthy.port });
      });
      after(async () => {
        await peer?.stop();
      });

      test("message/send translate holding the healthy card: COMPLETED with crewAI's missing-tool words", async () => {
        h.exporter.reset();
        const t = await rpc(peer.rpcUrl, 'message/send', params('translate: hello', 'translate'));
        assert.equal(t.status.state, 'completed');
        assert.equal(t.status.message, undefined);
        assert.equal(answer(t), missing);
        await spansSettled(1);
        const send = only('SendMessage');
        assert.equal(send.attributes['a2a.skill.id'], 'translate');
        assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
        if (mode === 'react') {
          assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
          assert.equal(send.attributes['a2a.drift.evidence'], 'card');
          assert.equal(send.attributes['a2a.drift.suspicion'], 'words');
          assert.equal(send.attributes['a2a.drift.confirmed'], true);
          assert.equal(await h.driftCount(), 1);
        } else {
          // "Tool not found" names no tool: no suspicion, nothing to look at the card for
          assert.deepEqual(
            Object.keys(send.attributes).filter((k) => k.startsWith('a2a.drift.')),
            [],
            describeSpans(),
          );
          assert.deepEqual(driftKinds(), [], describeSpans());
        }
      });

      test('the card revalidated in the background (short interval): card_changed saying translate was removed, then drift on the next call', async () => {
        const { changed, tookMs, next } = await caughtByRevalidation(h, () =>
          rpc(peer.rpcUrl, 'message/send', params('translate: hello', 'translate')),
        );
        assert.deepEqual(changed.diff?.removed, ['translate']);
        assert.deepEqual(changed.diff?.added, []);
        console.log(`# crewAI ${mode}: caught by revalidation in ${tookMs} ms (interval 200 ms)`);
        assert.equal(next.attributes['a2a.skill.id'], 'translate');
        // the ReAct path's words decide the call themselves; the function-calling path's
        // "Tool not found" says nothing: the newer card decides
        assert.equal(
          next.attributes['a2a.drift.kind'],
          mode === 'react' ? 'unknown_skill' : 'skill_not_in_card',
          describeSpans(),
        );
        assert.equal(next.attributes['a2a.drift.evidence'], 'card');
      });
    },
  );
}
