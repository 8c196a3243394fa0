/**
 * The instrumentation against the LangGraph server's A2A endpoint (`langgraph-api` 0.16.7 with
 * the in-memory runtime `langgraph-runtime-inmem` 0.36.7 that `langgraph dev` runs; pinned with
 * hashes in test/real-world/python/langgraph/requirements.lock), run as a child process by
 * test/real-world/python/langgraph/peer-process.mjs, offline: two graphs without a language
 * model (graphs.py: `desk` summarises, `studio` translates). The client side runs here, in-process
 * with the instrumentation: the `@a2a-js/sdk` 1.3 client (JSON-RPC, 1.0 mode, from the card URL)
 * and raw `fetch` (0.3 slash names and 1.0 names, both served).
 *
 * The wire: one assistant per graph (id = uuid5 of the graph id, the same after a restart); its
 * card at `/.well-known/agent-card.json?assistant_id=<id>` (without it: 400 -32602), a 1.0 card
 * (one JSONRPC 1.0 interface at `/a2a/<id>`, plus the 0.3 `url`), `version` = langgraph-api's
 * version (`0.16.7`, whatever the graph), ONE skill `<id>-main` with modes
 * `["application/json","text/plain"]`. 0.3 names are answered in 0.3 shapes (`completed`), 1.0
 * names in a hybrid (`{task: {kind: "task", ..., state "TASK_STATE_COMPLETED"}}`); streams are
 * `event: message` SSE. A graph removed by a redeploy takes its assistant, card and skill with
 * it: its endpoint answers -32602 `Assistant '<id>' not found`. An image content block in the
 * graph's answer becomes a file part (`image/png`).
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   node --import tsx --test test/real-world/python-langgraph.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { TaskState } from '@a2a-js/sdk';
import { setupOtel, type Harness } from '../helpers/otel';
import { asTask, collect, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { onAgentCardDrift, skillFingerprint, type DriftEvent } from '../../src/index';
import {
  startLangGraphPeer,
  venvInstalled,
  type LangGraphAssistant,
  type LangGraphPeer,
} from './python/langgraph/peer-process.mjs';
import { FOX, getCard, messages, rpc, rpcRaw, sdkClient, spanChecks, type Json } from './lib';
import { liveChecks } from './live-checks';

const skip = venvInstalled()
  ? false
  : 'test/real-world/python/langgraph/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { v03Params, v10Params } = messages('py-lg-');
const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);
const checks = liveChecks(() => h);
const skillOf = (a: LangGraphAssistant) => `${a.assistantId}-main`;
const client = (a: LangGraphAssistant) => sdkClient({ baseUrl: a.cardUrl, path: '' });

describe('LangGraph server (Python) healthy: graphs desk and studio', { skip }, () => {
  let peer: LangGraphPeer;
  before(async () => {
    peer = await startLangGraphPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('the card at /.well-known/agent-card.json?assistant_id=… → GetAgentCard with the fingerprint; the seed in python3 agrees', async () => {
    const desk = peer.assistants.desk;
    const { card, raw } = await getCard(desk.cardUrl);
    assert.equal(card.version, '0.16.7');
    assert.equal(card.url, desk.rpcUrl);
    assert.deepEqual(card.supportedInterfaces, [
      { url: desk.rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    assert.deepEqual(
      card.skills.map((s: Json) => [s.id, s.outputModes]),
      [[skillOf(desk), ['application/json', 'text/plain']]],
    );
    await spansSettled(1);
    const get = only('GetAgentCard');
    const fp = skillFingerprint(card as never);
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
    assert.equal(get.attributes['a2a.protocol.version'], '1.0');
    assert.equal(pythonSeedFingerprint(raw), fp);
  });

  test('@a2a-js/sdk 1.3 client (1.0, card URL): send + stream, zero drift', async () => {
    const desk = peer.assistants.desk;
    const c = await client(desk);
    const task = asTask(
      await c.sendMessage(sendRequest(skillOf(desk), { text: `summarize: ${FOX}` })),
    );
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED, JSON.stringify(task));
    const events = await collect(
      c.sendMessageStream(sendRequest(skillOf(desk), { text: 'summarize: hello' })),
    );
    assert.ok(events.length >= 2, JSON.stringify(events));
    await spansSettled(3);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], skillOf(desk));
    assert.equal(send.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
    assert.notEqual(send.status.code, SpanStatusCode.ERROR, describeSpans());
    const st = only('SendStreamingMessage');
    assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('raw fetch: 0.3 message/send and 1.0 SendMessage (its hybrid answer), both graphs, zero drift', async () => {
    const { desk, studio } = peer.assistants;
    await getCard(desk.cardUrl);
    await getCard(studio.cardUrl);
    const t03 = await rpc(
      desk.rpcUrl,
      'message/send',
      v03Params(`summarize: ${FOX}`, skillOf(desk)),
    );
    assert.equal(t03.status.state, 'completed');
    assert.deepEqual(t03.artifacts[0].parts, [
      { kind: 'text', text: 'Summary: The quick brown fox jumps over.' },
    ]);
    const t10 = await rpc(studio.rpcUrl, 'SendMessage', v10Params('hello', skillOf(studio)));
    assert.equal(t10.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(t10));
    assert.deepEqual(t10.task.artifacts[0].parts, [{ kind: 'text', text: 'FR: hello' }]);
    await spansSettled(4);
    // each assistant's card is its own (the query tells them apart): no card_changed between
    // them, each call judged against its own assistant's card
    const cards = h.spans('GetAgentCard');
    assert.equal(cards.length, 2);
    assert.notEqual(
      cards[0].attributes['a2a.agent_card.fingerprint'],
      cards[1].attributes['a2a.agent_card.fingerprint'],
    );
    // the query stays out of telemetry
    for (const c of cards)
      assert.equal(
        c.attributes['a2a.agent_card.url'],
        `${peer.origin}/.well-known/agent-card.json`,
      );
    assert.deepEqual(
      h
        .spans('SendMessage')
        .map((s) => [
          s.attributes['a2a.protocol.version'],
          s.attributes['a2a.task.state'],
          s.attributes['a2a.agent_card.fingerprint'],
        ]),
      [
        // 0.x slash names at an endpoint whose card says 1.0 only: 0.2 or 0.3, not told
        [undefined, 'TASK_STATE_COMPLETED', cards[0].attributes['a2a.agent_card.fingerprint']],
        ['1.0', 'TASK_STATE_COMPLETED', cards[1].attributes['a2a.agent_card.fingerprint']],
      ],
      describeSpans(),
    );
    assert.deepEqual(driftKinds(), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('errors: -32001 for an unknown task, a card fetch without assistant_id → 400 -32602: error spans, no drift', async () => {
    const desk = peer.assistants.desk;
    await getCard(desk.cardUrl);
    const r = await rpcRaw(desk.rpcUrl, 'tasks/get', { id: 'no-such-task' });
    assert.equal(r.error.code, -32001, JSON.stringify(r));
    const res = await fetch(`${peer.origin}/.well-known/agent-card.json`);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: { code: -32602, message: 'Missing required query parameter: assistant_id' },
    });
    await spansSettled(3);
    assert.equal(only('GetTask').status.code, SpanStatusCode.ERROR, describeSpans());
    const cards = h.spans('GetAgentCard');
    assert.equal(cards.length, 2, describeSpans());
    assert.equal(cards[1].status.code, SpanStatusCode.ERROR, describeSpans());
    assert.deepEqual(driftKinds(), [], describeSpans());
  });

  test('the app sees the same bytes with and without the instrumentation (card, send, stream, error, 400)', async () => {
    const desk = peer.assistants.desk;
    const post = (method: string, params: Json, accept = 'application/json') => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    const on = await checks.sameBytesWithAndWithout(async (tag, go) => {
      const msg = {
        message: {
          kind: 'message',
          role: 'user',
          messageId: `${tag}-1`,
          parts: [{ kind: 'text', text: `summarize: ${FOX}` }],
          metadata: { skillId: skillOf(desk) },
        },
      };
      await go(desk.cardUrl);
      await go(desk.rpcUrl, post('message/send', msg));
      await go(desk.rpcUrl, post('message/stream', msg, 'text/event-stream'));
      await go(desk.rpcUrl, post('tasks/get', { id: `${tag}-none` }));
      await go(`${peer.origin}/.well-known/agent-card.json`);
    });
    assert.match(on[2], /^200 text\/event-stream event: message\r\ndata: /);
    assert.match(on[3], /-32001/);
    assert.match(on[4], /^400 /);
    assert.deepEqual(driftKinds(), [], describeSpans());
  });
});

describe(
  'LangGraph server (Python) variant A: the redeploy removed the graph studio (same version 0.16.7)',
  { skip },
  () => {
    let studio!: LangGraphAssistant;
    // the app holds studio's card (the peer's cardUrl made the assistant's for the redeploy)
    const v = checks.onRedeployed(() =>
      checks.redeployed(
        () =>
          startLangGraphPeer({ variant: 'healthy' }).then((p) => {
            studio = p.assistants.studio;
            return { ...p, cardUrl: studio.cardUrl };
          }),
        (port) => startLangGraphPeer({ variant: 'A', port }),
      ),
    );

    test('the wire: the assistant is gone with its graph: -32602 "Assistant \'<id>\' not found", its card URL answers 400', async () => {
      assert.deepEqual(Object.keys(v.peer().assistants), ['desk']);
      const r = await rpcRaw(studio.rpcUrl, 'message/send', v03Params('hello', skillOf(studio)));
      assert.deepEqual(r.error, {
        code: -32602,
        message: `Assistant '${studio.assistantId}' not found`,
      });
      const res = await fetch(studio.cardUrl);
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as Json).error.code, -32602);
      await spansSettled(2);
      // the raw call held the healthy card (fetched before the redeploy)
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], 'invalid_params', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'protocol');
      assert.equal(send.attributes['a2a.drift.rpc_code'], -32602);
      const get = only('GetAgentCard');
      assert.equal(get.attributes['a2a.drift.unjudged_reason'], 'card fetch answered 400');
      assert.equal(get.attributes['a2a.drift.kind'], undefined, 'no card, no card_changed');
    });

    test('@a2a-js/sdk client holding the healthy card of studio → invalid_params (the card lists the skill the peer rejects)', async () => {
      const c = await sdkClient({ card: v.card() });
      await assert.rejects(
        c.sendMessage(sendRequest(skillOf(studio), { text: 'hello' })),
        new RegExp(`RequestMalformedError: Assistant '${studio.assistantId}' not found`),
      );
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.protocol.version'], '1.0');
      assert.equal(send.attributes['a2a.skill.id'], skillOf(studio));
      assert.equal(send.attributes['a2a.drift.kind'], 'invalid_params', describeSpans());
      assert.equal(send.status.code, SpanStatusCode.ERROR);
    });

    test('desk, still deployed, is unaffected: zero drift', async () => {
      const desk = v.peer().assistants.desk;
      await getCard(desk.cardUrl);
      const t = await rpc(
        desk.rpcUrl,
        'message/send',
        v03Params(`summarize: ${FOX}`, skillOf(desk)),
      );
      assert.equal(t.status.state, 'completed');
      await spansSettled(2);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  'LangGraph server (Python) variant B: desk answers with an image (card unchanged)',
  { skip },
  () => {
    // desk's card URL as the peer's (the one the app holds and re-fetches)
    const asDesk = (p: LangGraphPeer) => ({ ...p, cardUrl: p.assistants.desk.cardUrl });
    const v = checks.onRedeployed(() =>
      checks.redeployed(
        () => startLangGraphPeer({ variant: 'healthy' }).then(asDesk),
        (port) => startLangGraphPeer({ variant: 'B', port }).then(asDesk),
      ),
    );

    test('raw 0.3 message/send: the artifact is a file part image/png where the card says JSON / text → output_mode_mismatch', async () => {
      const desk = v.peer().assistants.desk;
      const events: DriftEvent[] = [];
      const off = onAgentCardDrift((e) => void events.push(e));
      let t: Json;
      try {
        t = await rpc(desk.rpcUrl, 'message/send', v03Params(`summarize: ${FOX}`, skillOf(desk)));
        for (let i = 0; i < 100 && events.length === 0; i++)
          await new Promise((r) => setTimeout(r, 10));
      } finally {
        off();
      }
      // the app's callback gets the card URL it fetched, query included (which card to evict)
      assert.deepEqual(
        events.map((e) => [e.kind, e.cardUrl]),
        [['output_mode_mismatch', desk.cardUrl]],
      );
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(t.artifacts[0].parts[0].kind, 'file');
      assert.equal(t.artifacts[0].parts[0].file.mimeType, 'image/png');
      await spansSettled(1);
      const send = only('SendMessage');
      assert.equal(send.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(send.attributes['a2a.drift.evidence'], 'protocol');
      assert.deepEqual(send.attributes['a2a.drift.expected_output_modes'], [
        'application/json',
        'text/plain',
      ]);
      assert.equal(send.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    test('@a2a-js/sdk client (1.0) stream holding the card → output_mode_mismatch', async () => {
      const desk = v.peer().assistants.desk;
      const c = await sdkClient({ card: v.card() });
      const events = await collect(c.sendMessageStream(sendRequest(skillOf(desk), { text: 'x' })));
      assert.ok(events.length >= 3);
      await spansSettled(1);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.protocol.version'], '1.0');
      assert.equal(st.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
      assert.equal(st.attributes['a2a.drift.actual_media_type'], 'image/png');
    });

    checks.cardRefetchTest(v);
  },
);
