/**
 * What only the Go a2a-go peer shows, beside its row of the conformance table: encoding/json's
 * nil slice on the card (`"tags": null`), which the `@a2a-js/sdk` client refuses while the
 * instrumentation reads the card; a raw tasks/get of a finished task; and, over gRPC, a
 * resubscribe to a finished task and the Go SDK's own gRPC statuses for a skill's errors.
 */
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { pythonSeedFingerprint } from '../../helpers/seed-fingerprint';
import { skillFingerprint } from '../../../src/index';
import { startGoPeer } from '../go/a2a-go/peer-process.mjs';
import { FOX, getCard, messages, rpc, rpcRaw, sdkClient, type Json } from '../lib';
import { asTask, collect, sendRequest } from '../../peers/sdk-client';
import { checkGrpcSpanAttributes, grpcClient, legacyGrpc } from '../grpc-clients';
import type { RowContext } from '../conformance/checks';
import { endpoint, quirk, type Peer, type Quirk } from '../conformance/types';
import { healthyQuirk, noDrift } from '../conformance/row-kit';

const { v03Message } = messages('go-sdk-');

export const goQuirks: Quirk[] = [
  quirk(
    'a card with a nil Go slice (translate without Tags → "tags": null): GetAgentCard with the fingerprint (python3 agrees); the @a2a-js/sdk client refuses the card, raw fetch works with zero drift',
    'Go’s encoding/json writes a nil slice as null: no other row serves one',
    async (ctx) => {
      const peer = await startGoPeer({ variant: 'healthy', nilTags: true });
      try {
        await ctx.h().reset();
        const { card, raw } = await getCard(peer.cardUrl);
        assert.equal(card.skills[1].tags, null);
        // @a2a-js/sdk 1.3 in its 0.3 mode: "skill.tags is required and must be an array"
        await assert.rejects(sdkClient({ card }, { legacy: true }), /skill\.tags is required/);
        const t = await rpc(peer.jsonRpcUrl, 'message/send', {
          message: v03Message('translate: hello', 'translate'),
        });
        assert.equal(t.status.state, 'completed');
        await ctx.spans.spansSettled(2);
        const get = ctx.spans.only('GetAgentCard');
        assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
        assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
        assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
        assert.equal(
          ctx.spans.only('SendMessage').attributes['a2a.task.state'],
          'TASK_STATE_COMPLETED',
        );
        await noDrift(ctx);
      } finally {
        await peer.stop();
      }
    },
  ),
  healthyQuirk(
    'raw tasks/get of the finished task: COMPLETED, protocol 0.3, zero drift',
    'a GetTask of a finished task: no shared check polls a task that a send already finished',
    async (ctx, peer) => {
      await getCard(peer.cardUrl);
      const url = endpoint(peer, 'jsonRpcUrl');
      const t = await rpc(url, 'message/send', {
        message: v03Message(`summarize: ${FOX}`, 'summarize'),
      });
      const got = await rpc(url, 'tasks/get', { id: t.id });
      assert.equal(got.status.state, 'completed');
      await ctx.spans.spansSettled(3);
      const s = ctx.spans.only('GetTask');
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.equal(s.attributes['a2a.protocol.version'], '0.3');
      await noDrift(ctx);
    },
  ),
];

/** A span's RPC attributes and negotiated card, as the Go peer's gRPC service says them. */
function goGrpcSpan(
  ctx: RowContext,
  s: Parameters<typeof checkGrpcSpanAttributes>[0],
  peer: Peer,
  card: Json,
) {
  checkGrpcSpanAttributes(
    s,
    {
      service: 'a2a.v1.A2AService',
      version: '0.3',
      port: (peer as unknown as { grpcPort?: number }).grpcPort,
      cardUrl: peer.cardUrl,
      card,
      agentName: 'Docs Agent',
      methodOf: { SubscribeToTask: 'TaskSubscription' },
    },
    ctx.spans.describeSpans,
  );
}

export const goGrpcQuirks: Quirk[] = [
  healthyQuirk(
    'TaskSubscription to a finished task (its execution is gone): NOT_FOUND (5), an error span with the task id, no verdict',
    'a2a-go forgets a task’s execution once it finished; the one row whose resubscribe fails so',
    async (ctx, peer) => {
      const card = (await getCard(peer.cardUrl)).card;
      const client = await grpcClient({ card }, { legacyCompat: true });
      const task = asTask(await client.sendMessage(sendRequest('translate', { text: 'x' })));
      await assert.rejects(
        collect(client.resubscribeTask({ tenant: '', id: task.id })),
        /5 task not found/,
      );
      await ctx.spans.spansSettled(3);
      const s = ctx.spans.only('SubscribeToTask');
      goGrpcSpan(ctx, s, peer, card);
      assert.equal(s.attributes['rpc.grpc.status_code'], 5, ctx.spans.describeSpans());
      assert.match(s.status.message ?? '', /NOT_FOUND/);
      assert.equal(s.attributes['a2a.task.id'], task.id);
      await noDrift(ctx);
    },
  ),
  healthyQuirk(
    "a listed skill's own errors get the same verdict over gRPC as over JSON-RPC: ErrInvalidParams (gRPC INTERNAL + the text) → invalid_params, ErrUnsupportedContentType (gRPC INVALID_ARGUMENT + the text) → unsupported_mode",
    'the Go SDK maps these errors to gRPC statuses of its own (toGRPCError), which only its dialect reads back',
    async (ctx, peer) => {
      const card = (await getCard(peer.cardUrl)).card;
      const t = await legacyGrpc(endpoint(peer, 'grpcTarget'));
      const failure = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: Error) => e.message,
        );
      assert.equal(
        await failure(t.sendMessage(sendRequest('summarize', { text: 'summarize: max_words=-1' }))),
        `gRPC error for sendMessage: 13 skill "summarize": 'max_words' must be a positive integer: invalid params`,
      );
      assert.equal(
        await failure(t.sendMessage(sendRequest('summarize', { text: 'summarize: format=pdf' }))),
        'gRPC error for sendMessage: 3 skill "summarize": cannot produce application/pdf: incompatible content types',
      );
      const url = endpoint(peer, 'jsonRpcUrl');
      const invalid = await rpcRaw(url, 'message/send', {
        message: v03Message('summarize: max_words=-1', 'summarize'),
      });
      assert.equal(invalid.error.code, -32602);
      const pdf = await rpcRaw(url, 'message/send', {
        message: v03Message('summarize: format=pdf', 'summarize'),
      });
      assert.equal(pdf.error.code, -32005);
      assert.match(
        pdf.error.data.error,
        /cannot produce application\/pdf: incompatible content types$/,
      );
      await ctx.spans.spansSettled(5);
      const sends = ctx.h().spans('SendMessage');
      assert.deepEqual(
        sends.map((s) => [
          s.attributes['a2a.binding'],
          s.attributes['rpc.grpc.status_code'],
          s.attributes['a2a.drift.kind'],
        ]),
        [
          ['grpc', 13, 'invalid_params'],
          ['grpc', 3, 'unsupported_mode'],
          ['jsonrpc', undefined, 'invalid_params'],
          ['jsonrpc', undefined, 'unsupported_mode'],
        ],
        ctx.spans.describeSpans(),
      );
      for (const s of sends) assert.equal(s.status.code, SpanStatusCode.ERROR);
      for (const s of sends.slice(0, 2)) goGrpcSpan(ctx, s, peer, card);
    },
  ),
];
