/**
 * What only Microsoft Agent Framework shows, beside its row of the conformance table: under its
 * default executor (stream=False) a variant B image is a status message, not an artifact (a limit
 * of what is judged); and the Google ADK JS client (`RemoteA2AAgent`) as the app's client, which
 * only this row drives (it needs test/real-world/clients installed).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asTask, sendRequest } from '../../peers/sdk-client';
import { FOX, sdkClient } from '../lib';
import { quirk, type Quirk } from '../conformance/types';
import { noDrift, redeployQuirk } from '../conformance/row-kit';
import type { RowContext } from '../conformance/checks';

const A2A_SPANS = new Set(['GetAgentCard', 'SendMessage', 'SendStreamingMessage']);
const clientsInstalled = () =>
  existsSync(join(__dirname, '..', 'clients', 'node_modules', '@google', 'adk', 'package.json'));

/** ADK's RemoteA2AAgent: the clients package, or why the test cannot run. */
async function adk() {
  if (!clientsInstalled()) {
    // a missing client package is a missing peer: the run says so instead of passing silently
    throw new Error('test/real-world/clients not installed: bash scripts/real-world.sh');
  }
  return import('../clients/lib.js');
}

/** The instrumentation's stream span once it ended (ADK traces through the global provider too). */
async function streamSpan(ctx: RowContext) {
  await ctx
    .h()
    .waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage' && x.ended), 5000);
  await new Promise((r) => setTimeout(r, 50));
  return ctx.spans.only('SendStreamingMessage');
}
const a2aDrift = (ctx: RowContext) =>
  ctx
    .h()
    .spans()
    .filter((s) => A2A_SPANS.has(s.name) && s.attributes['a2a.drift.kind'] !== undefined)
    .map((s) => [s.name, s.attributes['a2a.drift.kind']]);

export const agentFrameworkQuirks: Quirk[] = [
  redeployQuirk(
    'B',
    'variant B under A2AExecutor stream=False: the raw image/png part is the WORKING status message (history), not an artifact: not judged for output modes (a limit), no false verdict',
    'output modes are judged on artifacts only (a status message also carries progress text); only this executor puts its answer in a status message',
    async (ctx, v) => {
      const client = await sdkClient({ card: v.card });
      const task = asTask(
        await client.sendMessage(sendRequest('summarize', { text: `summarize: ${FOX}` })),
      );
      assert.equal(task.artifacts.length, 0);
      const part = task.history[task.history.length - 1].parts[0];
      assert.equal(part.content?.$case, 'raw', JSON.stringify(part));
      assert.equal(part.mediaType, 'image/png');
      await noDrift(ctx, 1);
    },
  ),
  quirk(
    'Google ADK JS RemoteA2AAgent from the base URL, skill in message.metadata → 0.3 message/stream, COMPLETED, zero drift',
    'a third-party JS client (ADK) against this agent: the one row whose app is not the SDK or raw fetch',
    async (ctx) => {
      const lib = await adk();
      const peer = await ctx.freshHealthy();
      const events = await lib.runAdk(
        lib.adkAgent(peer.baseUrl ?? peer.origin, 'summarize'),
        `summarize: ${FOX}`,
      );
      assert.ok(
        !events.some((e) => e.thrown || e.errorMessage),
        `ADK run failed: ${JSON.stringify(events)}`,
      );
      assert.match(JSON.stringify(events), /Summary: The quick brown fox jumps over\./);
      const send = await streamSpan(ctx);
      assert.equal(send.attributes['a2a.skill.id'], 'summarize');
      assert.equal(send.attributes['a2a.protocol.version'], '0.3', ctx.spans.describeSpans());
      assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.deepEqual(a2aDrift(ctx), [], ctx.spans.describeSpans());
    },
  ),
  quirk(
    'Google ADK JS RemoteA2AAgent holding the healthy card, skill translate → the framework’s "Requested function … not found" → unknown_skill',
    'as above, under variant A',
    async (ctx) => {
      const lib = await adk();
      const v = await ctx.redeployed('A');
      ctx.h().exporter.reset();
      const card = structuredClone(v.card);
      delete card.supportedInterfaces; // as the 0.3 client reads it
      const events = await lib.runAdk(
        new lib.RemoteA2AAgent({
          name: 'remote',
          agentCard: card as never,
          beforeRequestCallbacks: [lib.putSkillId('translate') as never],
        }),
        'translate: hello',
      );
      assert.match(JSON.stringify(events), /Requested function/);
      const send = await streamSpan(ctx);
      assert.equal(send.attributes['a2a.skill.id'], 'translate');
      assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', ctx.spans.describeSpans());
    },
  ),
];
