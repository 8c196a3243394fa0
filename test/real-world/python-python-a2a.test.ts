/**
 * The instrumentation against python-a2a (`python-a2a` 0.5.9, pinned with hashes in
 * test/real-world/python/python-a2a/requirements.lock), run as a child process by
 * test/real-world/python/python-a2a/peer-process.mjs: an `@agent`-decorated `A2AServer` whose
 * `@skill` methods summarize and translate make the card, on the library's own Flask app
 * (`create_flask_app`, what `run_server` runs) on werkzeug; a deterministic handler (no model).
 * The client side runs here, in-process with the instrumentation: raw `fetch`, as a Node app
 * talks to python-a2a (its 0.1-era "Google A2A" JSON-RPC is not what @a2a-js/sdk speaks). Its
 * requests carry no skill id: the app declares it with `withSkill`.
 *
 * The wire (test/fixtures/python-a2a-live/): card at `/.well-known/agent.json` (also `/agent.json`,
 * `/a2a/agent.json`; an HTML page at `/.well-known/agent-card.json`), Flask `jsonify` (keys
 * sorted), no `protocolVersion`, `url` = the origin; `tasks/send` at `/tasks/send` answers a bare
 * 0.1 Task echoing the request message; `tasks/sendSubscribe` at `/tasks/stream` answers SSE
 * `event: update` / `event: complete` with bare Tasks. A skill the agent no longer has: the
 * handler's ValueError("Unknown skill: translate") becomes, in python-a2a's own words, a
 * COMPLETED task with a data part `{"error": "Error in message handler: Unknown skill:
 * translate"}`.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the venv
 *   npm run build && node --import tsx --test test/real-world/python-python-a2a.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { withSkill } from '../../src/index';
import {
  VENV_PYTHON,
  startPythonA2aPeer,
  venvInstalled,
  type PythonA2aPeer,
} from './python/python-a2a/peer-process.mjs';
import { FOX, getCard, type Json } from './lib';
import { liveChecks, liveHarness, venvSkip } from './live-checks';

const skip = venvSkip('python-a2a', venvInstalled());
const harness = liveHarness();

/** what a2a.protocol.version says for python-a2a's 0.1 calls (inferred from `tasks/send`, `sessionId`) */
const PROTOCOL = '0.1';
const checks = liveChecks(harness);
const { only, driftKinds, describeSpans, spansSettled } = checks;

let next = 0;
/**
 * A 0.1 `tasks/send` / `tasks/sendSubscribe` body (python-a2a's own client's shape); ids
 * `<tag>-rpc-<n>`, `<tag>-task-<n>` (n: the next number, or the one given).
 */
function task01(method: string, text: string, tag = 'py-a2a', n = ++next): string {
  const seq = n;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: `${tag}-rpc-${seq}`,
    method,
    params: {
      id: `${tag}-task-${seq}`,
      sessionId: `${tag}-session`,
      message: { role: 'user', parts: [{ type: 'text', text }] },
    },
  });
}
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json' };
const SSE_POST = { 'content-type': 'application/json', accept: 'text/event-stream' };

/** tasks/send as the app does it, with the skill declared: the JSON-RPC result. */
async function send(peer: PythonA2aPeer, skill: string, text: string): Promise<Json> {
  const res = await withSkill(skill, () =>
    fetch(peer.sendUrl, { method: 'POST', headers: JSON_POST, body: task01('tasks/send', text) }),
  );
  assert.equal(res.status, 200);
  const body = (await res.json()) as Json;
  assert.ok(body.result, JSON.stringify(body));
  return body.result as Json;
}
/** tasks/sendSubscribe: the SSE body. */
async function stream(peer: PythonA2aPeer, skill: string, text: string): Promise<string> {
  const res = await withSkill(skill, () =>
    fetch(peer.streamUrl, {
      method: 'POST',
      headers: SSE_POST,
      body: task01('tasks/sendSubscribe', text),
    }),
  );
  assert.equal(res.status, 200);
  return res.text();
}

/** The hooks of a variant's suite: the healthy card cached, then the variant on the same port. */
const onVariant = (variant: 'A' | 'B') =>
  checks.onRedeployed(() =>
    checks.redeployed(
      () => startPythonA2aPeer({ variant: 'healthy' }),
      (port) => startPythonA2aPeer({ variant, port }),
    ),
  );

describe(
  'python-a2a healthy peer (@agent A2AServer, @skill methods, deterministic handler)',
  { skip },
  () => {
    let peer: PythonA2aPeer;
    before(async () => {
      peer = await startPythonA2aPeer({ variant: 'healthy' });
    });
    after(async () => {
      await peer?.stop();
    });
    beforeEach(async () => {
      await harness().reset();
    });

    test('the card at /.well-known/agent.json → GetAgentCard with the fingerprint; python3 (the seed) agrees on the live bytes', async () => {
      // the card names no protocol version: the span says none (the calls below say 0.1, from their shape)
      const { card } = await checks.cardChecked(peer.cardUrl, {
        protocol: undefined,
        skills: 2,
        venvPython: VENV_PYTHON,
      });
      assert.equal(card.protocolVersion, undefined);
      assert.equal(card.url, peer.origin);
      assert.equal(card.version, '1.0.0');
      assert.deepEqual(
        card.skills.map((s: Json) => [s.id, s.outputModes]),
        [
          ['summarize', ['text/plain']],
          ['translate', ['text/plain']],
        ],
      );
    });

    test('/.well-known/agent-card.json is python-a2a’s HTML agent page: not judged as a card, no drift, no exception', async () => {
      const res = await fetch(peer.agentCardJsonUrl);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await res.text(), /<!DOCTYPE html>/i);
      await new Promise((r) => setTimeout(r, 100));
      for (const s of harness().spans())
        assert.equal(s.attributes['a2a.agent_card.fingerprint'], undefined);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('raw fetch, skill declared with withSkill: tasks/send summarize + tasks/sendSubscribe translate → COMPLETED, zero drift', async () => {
      await getCard(peer.cardUrl);
      const t = await send(peer, 'summarize', `summarize: ${FOX}`);
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(t.artifacts[0].parts, [
        { text: 'Summary: The quick brown fox jumps over.', type: 'text' },
      ]);
      const sse = await stream(peer, 'translate', 'translate: hello');
      assert.match(sse, /^event: update\nid: /);
      assert.match(sse, /event: complete\n/);
      assert.match(sse, /"text": "FR: hello"/);
      await spansSettled(3);
      await checks.healthyCalls(
        [
          ['SendMessage', 'summarize'],
          ['SendStreamingMessage', 'translate'],
        ],
        PROTOCOL,
      );
      for (const name of ['SendMessage', 'SendStreamingMessage'])
        assert.equal(only(name).attributes['a2a.skill.id_source'], 'application');
    });

    test('raw fetch, the skill in message.metadata.skillId (no withSkill): tasks/send summarize → read from the wire, zero drift', async () => {
      await getCard(peer.cardUrl);
      const res = await fetch(peer.sendUrl, {
        method: 'POST',
        headers: JSON_POST,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'meta-1',
          method: 'tasks/send',
          params: {
            id: 'meta-task-1',
            sessionId: 'meta-session',
            message: {
              role: 'user',
              parts: [{ type: 'text', text: `summarize: ${FOX}` }],
              metadata: { skillId: 'summarize' },
            },
          },
        }),
      });
      const body = (await res.json()) as Json;
      assert.equal(body.result.status.state, 'completed');
      // python-a2a keeps the request's metadata on the echoed message, adding its own message_id
      assert.equal(body.result.message.metadata.skillId, 'summarize');
      await spansSettled(2);
      await checks.healthyCalls([['SendMessage', 'summarize']], PROTOCOL);
      assert.notEqual(only('SendMessage').attributes['a2a.skill.id_source'], 'application');
    });

    test('errors: tasks/get of an unknown task, JSON-RPC POSTed to the card url (HTTP 500): error spans, no drift', async () => {
      await getCard(peer.cardUrl);
      const get = await fetch(peer.getUrl, {
        method: 'POST',
        headers: JSON_POST,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'g',
          method: 'tasks/get',
          params: { id: 'no-such' },
        }),
      });
      const getBody = await get.text();
      const root = await withSkill('summarize', () =>
        fetch(`${peer.origin}/`, {
          method: 'POST',
          headers: JSON_POST,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 'm',
            method: 'message/send',
            params: {
              message: {
                kind: 'message',
                messageId: 'm-1',
                role: 'user',
                parts: [{ kind: 'text', text: 'summarize: hi' }],
              },
            },
          }),
        }),
      );
      assert.equal(root.status, 500);
      await root.text();
      await spansSettled(3);
      assert.equal(
        only('GetTask').status.code,
        SpanStatusCode.ERROR,
        `${get.status} ${getBody} ${describeSpans()}`,
      );
      assert.equal(only('SendMessage').status.code, SpanStatusCode.ERROR, describeSpans());
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    test('the app sees the same bytes with and without the instrumentation (card, HTML page, send, stream, tasks/get, 500)', async () => {
      const on = await checks.sameBytesWithAndWithout(async (tag, go) => {
        await go(peer.cardUrl);
        await go(peer.agentCardJsonUrl);
        await withSkill('summarize', () =>
          go(peer.sendUrl, {
            method: 'POST',
            headers: JSON_POST,
            body: task01('tasks/send', `summarize: ${FOX}`, tag, 1),
          }),
        );
        await withSkill('translate', () =>
          go(peer.streamUrl, {
            method: 'POST',
            headers: SSE_POST,
            body: task01('tasks/sendSubscribe', 'translate: hello', tag, 2),
          }),
        );
        await go(peer.getUrl, {
          method: 'POST',
          headers: JSON_POST,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 'g',
            method: 'tasks/get',
            params: { id: `${tag}-x` },
          }),
        });
        await go(`${peer.origin}/`, {
          method: 'POST',
          headers: JSON_POST,
          body: task01('tasks/send', 'hi', tag, 3),
        });
      });
      assert.match(on[3], /^200 text\/event-stream/);
      assert.match(on[5], /^500 /);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });
  },
);

describe(
  'python-a2a variant A (translate method removed, so gone from the card; version still 1.0.0)',
  { skip },
  () => {
    const v = onVariant('A');

    test('tasks/send translate holding the healthy card: COMPLETED with python-a2a’s {"error": "Error in message handler: Unknown skill: translate"} → unknown_skill', async () => {
      const t = await send(v.peer(), 'translate', 'translate: hello');
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(t.artifacts[0].parts, [
        { data: { error: 'Error in message handler: Unknown skill: translate' }, type: 'data' },
      ]);
      await spansSettled(1);
      const s = only('SendMessage');
      assert.equal(s.attributes['a2a.skill.id'], 'translate');
      assert.equal(s.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    });

    test('tasks/sendSubscribe translate → the complete event carries the error → unknown_skill', async () => {
      const sse = await stream(v.peer(), 'translate', 'translate: hello');
      assert.match(sse, /Unknown skill: translate/);
      await spansSettled(1);
      assert.equal(
        only('SendStreamingMessage').attributes['a2a.drift.kind'],
        'unknown_skill',
        describeSpans(),
      );
    });

    test('the skill still on the card (summarize) is unaffected: zero drift', async () => {
      const t = await send(v.peer(), 'summarize', `summarize: ${FOX}`);
      assert.equal(t.status.state, 'completed');
      await spansSettled(1);
      assert.deepEqual(driftKinds(), [], describeSpans());
    });

    checks.cardRefetchTest(v, ['summarize']);
  },
);

describe(
  'python-a2a variant B (summarize now answers with an image/png file part, card identical)',
  { skip },
  () => {
    const v = onVariant('B');

    test('tasks/send + tasks/sendSubscribe summarize → file part image/png → output_mode_mismatch', async () => {
      const t = await send(v.peer(), 'summarize', `summarize: ${FOX}`);
      assert.equal(t.artifacts[0].parts[0].file.mimeType, 'image/png');
      const sse = await stream(v.peer(), 'summarize', `summarize: ${FOX}`);
      assert.match(sse, /"mimeType": "image\/png"/);
      await spansSettled(2);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = only(name);
        assert.equal(s.attributes['a2a.drift.kind'], 'output_mode_mismatch', describeSpans());
        assert.equal(s.attributes['a2a.drift.actual_media_type'], 'image/png');
      }
    });

    checks.cardRefetchTest(v);
  },
);
