/**
 * The instrumentation against a REAL VoltAgent A2A peer (@voltagent/core + @voltagent/a2a-server +
 * @voltagent/server-hono, mock LLM from ai/test), run in a child process by
 * test/real-world/voltagent/peer-process.mjs. The client side runs here, in-process with the
 * instrumentation: raw `fetch` with the 0.2/0.3 JSON-RPC bodies a VoltAgent peer accepts, and the
 * `@a2a-js/sdk` 1.3 client (legacyCompat, card read from the card URL).
 *
 * VoltAgent's wire (see test/fixtures/voltagent/README.md): card at
 * `/.well-known/{agentId}/agent-card.json` (no root card), operations at `/a2a/{agentId}`, card
 * `url` = the operations URL, no `protocolVersion`, `defaultOutputModes: ["text"]`, skills = the
 * agent's tools without modes; results are Tasks WITHOUT `kind`; SSE events `data: \x1e{json}`;
 * errors are JSON-RPC errors over HTTP 400.
 *
 *   cd test/real-world/voltagent && npm ci          # once
 *   cd /work/main && node --import tsx --test --test-concurrency=1 test/real-world/voltagent.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { skillFingerprint } from '../../src/index';
import { startVoltAgentPeer, type VoltAgentPeer } from './voltagent/peer-process.mjs';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

// ------------------------------------------------------------------ client helpers (raw fetch)

let rpcId = 0;
function sendBody(
  method: 'message/send' | 'message/stream',
  text: string,
  skillId: string | undefined,
  id = ++rpcId,
  messageId = `msg-${id}`,
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId,
        parts: [{ kind: 'text', text }],
        ...(skillId === undefined ? {} : { metadata: { skillId } }),
      },
    },
  });
}

interface Reply {
  status: number;
  contentType: string;
  text: string;
}
async function post(url: string, body: string, stream = false): Promise<Reply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    },
    body,
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}
async function getCard(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, `GET ${url}`);
  return (await res.json()) as Record<string, unknown>;
}
/** The JSON payloads of VoltAgent's SSE events (`data: \x1e{json}`). */
function sseEvents(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n\n')
    .filter((e) => e.trim().length > 0)
    .map((e) => {
      assert.ok(
        e.startsWith('data: \x1e'),
        `VoltAgent frames events as "data: \\x1e{json}", got ${JSON.stringify(e.slice(0, 20))}`,
      );
      return JSON.parse(e.slice('data: \x1e'.length)) as Record<string, unknown>;
    });
}
type Task = {
  id: string;
  status: { state: string; message?: { parts: Array<{ kind: string; text: string }> } };
};
function resultTask(r: Reply): Task {
  const j = JSON.parse(r.text) as { result?: Task; error?: unknown };
  assert.ok(j.result, `expected a result, got ${r.text.slice(0, 300)}`);
  return j.result;
}
function statusText(t: Task): string {
  return t.status.message?.parts.map((p) => p.text).join('') ?? '';
}
/** Removes what differs between two identical runs: uuids, timestamps. */
function normalise(s: string): string {
  return s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<ts>');
}

function only(name: string): ReadableSpan {
  const list = h.spans(name);
  assert.equal(
    list.length,
    1,
    `one ${name} span, got ${list.length}: ${JSON.stringify(h.spans().map((s) => [s.name, s.attributes]))}`,
  );
  return list[0];
}
function describeSpans(): string {
  return JSON.stringify(
    h.spans().map((s) => ({ name: s.name, attrs: s.attributes, status: s.status })),
    null,
    1,
  );
}
async function spansSettled(n: number): Promise<ReadableSpan[]> {
  return h.waitForSpans((s) => s.length >= n, 3000);
}

// ------------------------------------------------------------------ healthy peer

describe('VoltAgent healthy peer (two agents on one origin)', () => {
  let peer: VoltAgentPeer;
  before(async () => {
    peer = await startVoltAgentPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(async () => {
    await h.reset();
  });

  test('card + message/send + message/stream: GetAgentCard with the fingerprint, zero drift', async () => {
    const card = await getCard(peer.cardUrl('summarizer'));
    assert.deepEqual(
      (card.skills as Array<{ id: string }>).map((s) => s.id),
      ['summarize-v2', 'translate'],
    );
    const sent = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', 'The quick brown fox jumps', 'summarize-v2'),
    );
    assert.equal(sent.status, 200);
    const task = resultTask(sent);
    assert.equal(task.status.state, 'completed');
    assert.match(statusText(task), /^# Summary/);
    const tr = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', 'Hello', 'translate'),
    );
    assert.equal(statusText(resultTask(tr)), 'FR: Hello');
    const st = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/stream', 'The quick brown fox jumps', 'summarize-v2'),
      true,
    );
    assert.match(st.contentType, /text\/event-stream/);
    const events = sseEvents(st.text);
    const last = events[events.length - 1].result as Task;
    assert.equal(last.status.state, 'completed');

    await spansSettled(4);
    const get = only('GetAgentCard');
    assert.equal(
      get.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(card as never),
      'GetAgentCard span carries the card fingerprint',
    );
    assert.equal(get.attributes['a2a.agent_card.skill_count'], 2);
    const sends = h.spans('SendMessage');
    assert.equal(sends.length, 2, describeSpans());
    for (const s of sends) {
      assert.equal(s.attributes['a2a.method.name'], 'SendMessage');
      assert.equal(
        s.attributes['a2a.agent_card.fingerprint'],
        get.attributes['a2a.agent_card.fingerprint'],
      );
      assert.equal(s.attributes['gen_ai.agent.name'], 'summarizer');
      assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
      assert.notEqual(s.status.code, SpanStatusCode.ERROR);
    }
    assert.deepEqual(sends.map((s) => s.attributes['a2a.skill.id']).sort(), [
      'summarize-v2',
      'translate',
    ]);
    const stream = only('SendStreamingMessage');
    assert.equal(stream.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(stream.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.equal(stream.attributes['a2a.stream.event_count'], events.length);
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
    assert.equal(await h.driftCount(), 0);
  });

  test('the app sees the same results with the instrumentation enabled and disabled', async () => {
    const run = async (tag: string): Promise<string[]> => {
      const out: string[] = [];
      const res = await fetch(peer.cardUrl('summarizer'));
      out.push(`${res.status} ${res.headers.get('content-type')} ${await res.text()}`);
      const a = await post(
        peer.rpcUrl('summarizer'),
        sendBody('message/send', 'Same input', 'summarize-v2', 1001, `${tag}-1`),
      );
      out.push(`${a.status} ${a.contentType} ${a.text.split(`${tag}-1`).join('MSG')}`);
      const b = await post(
        peer.rpcUrl('summarizer'),
        sendBody('message/stream', 'Same input', 'translate', 1002, `${tag}-2`),
        true,
      );
      out.push(`${b.status} ${b.contentType} ${b.text.split(`${tag}-2`).join('MSG')}`);
      const c = await post(
        peer.rpcUrl('summarizer'),
        JSON.stringify({ jsonrpc: '2.0', id: 1003, method: 'tasks/get', params: { id: 'nope' } }),
      );
      out.push(`${c.status} ${c.contentType} ${c.text}`);
      return out.map(normalise);
    };
    const on = await run('on');
    h.instrumentation.disable();
    let off: string[];
    try {
      off = await run('off');
    } finally {
      h.instrumentation.enable();
    }
    assert.deepEqual(on, off);
    assert.ok(on[2].includes('data: \x1e{'), 'the stream kept its \\x1e framing');
  });

  test('@a2a-js/sdk 1.3 client (legacyCompat, card URL): same outcome with and without the instrumentation, no drift', async () => {
    const attempt = async (): Promise<string> => {
      const legacy = { legacyCompat: { enabled: true } };
      const factory = new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory(legacy)],
          cardResolver: new DefaultAgentCardResolver(legacy),
        }),
      );
      const client = await factory.createFromUrl(peer.cardUrl('summarizer'), '');
      const meta = { skillId: 'summarize-v2' };
      try {
        const r = await client.sendMessage({
          tenant: '',
          message: {
            messageId: 'sdk-1',
            contextId: '',
            taskId: '',
            role: Role.ROLE_USER,
            parts: [
              {
                content: { $case: 'text', value: 'Hello from the SDK' },
                metadata: undefined,
                filename: '',
                mediaType: 'text/plain',
              },
            ],
            metadata: meta,
            extensions: [],
            referenceTaskIds: [],
          },
          configuration: undefined,
          metadata: meta,
        });
        return `ok ${normalise(JSON.stringify(r))}`;
      } catch (e) {
        return `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
    };
    const on = await attempt();
    await spansSettled(2);
    h.instrumentation.disable();
    let off: string;
    try {
      off = await attempt();
    } finally {
      h.instrumentation.enable();
    }
    assert.equal(on, off);
    // What the SDK makes of VoltAgent's kind-less Task (a fact of the two libraries, not of ours):
    assert.equal(
      on,
      'InvalidAgentResponseError: Unexpected v0.3 message/send result kind: undefined',
    );
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(only('GetAgentCard').attributes['a2a.agent_card.skill_count'], 2);
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
  });

  test('a call to the second agent is never judged against the first agent card (only the first card fetched)', async () => {
    const card = await getCard(peer.cardUrl('summarizer'));
    const r = await post(peer.rpcUrl('helper'), sendBody('message/send', 'volt', 'lookup'));
    assert.equal(statusText(resultTask(r)), 'lookup(volt) = 42');
    await spansSettled(2);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'lookup');
    assert.equal(
      send.attributes['a2a.drift.kind'],
      undefined,
      `lookup is not in the summarizer card, but this is another agent: ${describeSpans()}`,
    );
    assert.notEqual(send.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
    assert.notEqual(send.attributes['gen_ai.agent.name'], 'summarizer');
    assert.deepEqual(drifted(h.spans()), []);
  });

  test('with both cards fetched, each agent operation carries its own card', async () => {
    const a = await getCard(peer.cardUrl('summarizer'));
    const b = await getCard(peer.cardUrl('helper'));
    await post(peer.rpcUrl('helper'), sendBody('message/send', 'volt', 'lookup'));
    await post(peer.rpcUrl('summarizer'), sendBody('message/send', 'text', 'summarize-v2'));
    await spansSettled(4);
    assert.equal(h.spans('GetAgentCard').length, 2);
    const byAgent = new Map(
      h.spans('SendMessage').map((s) => [String(s.attributes['a2a.skill.id']), s]),
    );
    assert.equal(
      byAgent.get('lookup')?.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(b as never),
    );
    assert.equal(byAgent.get('lookup')?.attributes['gen_ai.agent.name'], 'helper');
    assert.equal(
      byAgent.get('summarize-v2')?.attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(a as never),
    );
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
  });

  test('-32602 for a part kind the CURRENT card already excludes (defaultInputModes ["text"], a data part sent) is a client error, not drift', async () => {
    // Healthy peer, never redeployed: the card in use is exact, re-fetching it changes nothing.
    const card = await getCard(peer.cardUrl('summarizer'));
    assert.deepEqual(card.defaultInputModes, ['text']);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          role: 'user',
          messageId: 'data-1',
          parts: [{ kind: 'data', data: { text: 'x' } }],
          metadata: { skillId: 'summarize-v2' },
        },
      },
    });
    const r = await post(peer.rpcUrl('summarizer'), body);
    assert.equal(r.status, 400);
    assert.deepEqual(JSON.parse(r.text), {
      jsonrpc: '2.0',
      id: rpcId,
      error: { code: -32602, message: 'Only plain text message parts are supported', data: {} },
    });
    await spansSettled(2);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.drift.kind'], undefined, describeSpans());
    assert.equal(send.attributes['error.type'], '-32602');
  });

  test('JSON-RPC errors that are not drift (-32601, -32001) are errors, not drift', async () => {
    await getCard(peer.cardUrl('summarizer'));
    const m = await post(
      peer.rpcUrl('summarizer'),
      JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tasks/get', params: { id: 'missing' } }),
    );
    assert.equal(m.status, 400);
    assert.equal((JSON.parse(m.text) as { error: { code: number } }).error.code, -32001);
    // VoltAgent has no tasks/resubscribe: a JSON -32601 error (HTTP 400) where a stream was expected.
    const r = await post(
      peer.rpcUrl('summarizer'),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 78,
        method: 'tasks/resubscribe',
        params: { id: 'missing' },
      }),
      true,
    );
    assert.equal(r.status, 400);
    assert.match(r.contentType, /application\/json/);
    assert.equal((JSON.parse(r.text) as { error: { code: number } }).error.code, -32601);
    await spansSettled(3);
    const get = only('GetTask');
    assert.equal(get.attributes['error.type'], '-32001');
    const sub = only('SubscribeToTask');
    assert.equal(sub.attributes['error.type'], '-32601');
    assert.equal(sub.status.code, SpanStatusCode.ERROR);
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
  });
});

// ------------------------------------------------------------------ variant A: translate removed, same version, same port

describe('VoltAgent variant A (translate tool removed, card version unchanged)', () => {
  let peer: VoltAgentPeer;
  let healthyFingerprint: string;
  before(async () => {
    // The client reads the card from the healthy deployment and keeps it...
    const healthy = await startVoltAgentPeer({ variant: 'healthy' });
    const port = healthy.port;
    try {
      await h.reset();
      const card = await getCard(healthy.cardUrl('summarizer'));
      healthyFingerprint = skillFingerprint(card as never);
    } finally {
      await healthy.stop();
    }
    // ...then the peer is redeployed on the same port without `translate`.
    peer = await startVoltAgentPeer({ variant: 'A', port });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(() => {
    // keep the cached card (registries), drop the spans of earlier tests
    h.exporter.reset();
  });

  test('message/send translate → COMPLETED task whose text says the tool is unavailable → unknown_skill on that span', async () => {
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', 'Hello world', 'translate'),
    );
    assert.equal(r.status, 200);
    const task = resultTask(r);
    assert.equal(task.status.state, 'completed');
    assert.equal(
      statusText(task),
      "Model tried to call unavailable tool 'translate'. Available tools: summarize-v2.",
    );
    await spansSettled(1);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.skill.id'], 'translate');
    assert.equal(
      send.attributes['a2a.agent_card.fingerprint'],
      healthyFingerprint,
      'judged against the cached card',
    );
    assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    assert.equal(send.status.code, SpanStatusCode.ERROR);
    assert.equal(send.attributes['error.type'], 'StaleAgentCardError');
  });

  test('message/stream translate → unknown_skill on the SendStreamingMessage span', async () => {
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/stream', 'Hello world', 'translate'),
      true,
    );
    const events = sseEvents(r.text);
    const last = events[events.length - 1].result as Task;
    assert.equal(last.status.state, 'completed');
    assert.match(statusText(last), /unavailable tool 'translate'/);
    await spansSettled(1);
    const span = only('SendStreamingMessage');
    assert.equal(span.attributes['a2a.skill.id'], 'translate');
    assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
  });

  test('model fails on the missing tool: JSON-RPC -32603 over HTTP 400 naming the skill → unknown_skill', async () => {
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', '[strict] Hello world', 'translate'),
    );
    assert.equal(r.status, 400);
    const err = (JSON.parse(r.text) as { error: { code: number; message: string } }).error;
    assert.equal(err.code, -32603);
    assert.match(err.message, /unavailable tool 'translate'/);
    await spansSettled(1);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
    assert.equal(send.attributes['a2a.drift.rpc_code'], -32603);
  });

  test('model fails mid-stream: error event -32603 → unknown_skill on the stream span; the FAILED task polled later → unknown_skill on GetTask', async () => {
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/stream', '[strict] Hello world', 'translate'),
      true,
    );
    const events = sseEvents(r.text);
    assert.equal(events.length, 2);
    const taskId = (events[0].result as Task).id;
    assert.equal((events[1].error as { code: number }).code, -32603);
    await spansSettled(1);
    const stream = only('SendStreamingMessage');
    assert.equal(stream.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());

    const g = await post(
      peer.rpcUrl('summarizer'),
      JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tasks/get', params: { id: taskId } }),
    );
    const polled = resultTask(g);
    assert.equal(polled.status.state, 'failed');
    assert.match(statusText(polled), /unavailable tool 'translate'/);
    await spansSettled(2);
    const get = only('GetTask');
    assert.equal(get.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
    assert.equal(get.attributes['a2a.skill.id'], 'translate');
    assert.equal(get.attributes['a2a.drift.kind'], 'unknown_skill', describeSpans());
  });

  test('an error text naming ANOTHER tool than the requested skill is not drift (COMPLETED and -32603)', async () => {
    const ok = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', '[call:translate] Hello world', 'summarize-v2'),
    );
    assert.match(statusText(resultTask(ok)), /unavailable tool 'translate'/);
    const bad = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', '[strict] [call:translate] Hello world', 'summarize-v2'),
    );
    assert.equal(bad.status, 400);
    assert.match(bad.text, /unavailable tool 'translate'/);
    await spansSettled(2);
    const sends = h.spans('SendMessage');
    assert.equal(sends.length, 2);
    for (const s of sends) assert.equal(s.attributes['a2a.skill.id'], 'summarize-v2');
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
  });

  test('a skill the peer still has works and is not drift', async () => {
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', 'The quick brown fox', 'summarize-v2'),
    );
    assert.match(statusText(resultTask(r)), /^# Summary/);
    await spansSettled(1);
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
  });

  test('re-fetching the card: card_changed (same version, other fingerprint); then asking translate is skill_not_in_card', async () => {
    const card = await getCard(peer.cardUrl('summarizer'));
    assert.equal(card.version, '1.0.0');
    await spansSettled(1);
    const get = only('GetAgentCard');
    assert.equal(get.attributes['a2a.agent_card.previous_fingerprint'], healthyFingerprint);
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
    assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());

    h.exporter.reset();
    await post(peer.rpcUrl('summarizer'), sendBody('message/send', 'Hello world', 'translate'));
    await spansSettled(1);
    const send = only('SendMessage');
    assert.equal(send.attributes['a2a.agent_card.fingerprint'], skillFingerprint(card as never));
    assert.equal(send.attributes['a2a.drift.kind'], 'skill_not_in_card', describeSpans());
  });
});

// ------------------------------------------------------------------ variant B: skill id reused

describe('VoltAgent variant B (summarize-v2 reused: plain text instead of markdown)', () => {
  let peer: VoltAgentPeer;
  let healthyCard: Record<string, unknown>;
  before(async () => {
    const healthy = await startVoltAgentPeer({ variant: 'healthy' });
    const port = healthy.port;
    try {
      await h.reset();
      healthyCard = await getCard(healthy.cardUrl('summarizer'));
    } finally {
      await healthy.stop();
    }
    peer = await startVoltAgentPeer({ variant: 'B', port });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(() => {
    h.exporter.reset();
  });

  test('VoltAgent cards cannot state per-skill output modes: variant B is not observable, and not flagged', async () => {
    // No skill in a VoltAgent card has inputModes/outputModes; defaultOutputModes is always ["text"].
    for (const s of healthyCard.skills as Array<Record<string, unknown>>) {
      assert.equal(s.outputModes, undefined);
      assert.equal(s.inputModes, undefined);
    }
    assert.deepEqual(healthyCard.defaultOutputModes, ['text']);
    const r = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/send', 'The quick brown fox jumps', 'summarize-v2'),
    );
    const t = resultTask(r);
    assert.equal(t.status.state, 'completed');
    assert.match(statusText(t), /^Summary: /, 'the reused skill answers differently');
    const s = await post(
      peer.rpcUrl('summarizer'),
      sendBody('message/stream', 'The quick brown fox jumps', 'summarize-v2'),
      true,
    );
    assert.ok(sseEvents(s.text).length >= 3);
    // The card of B has the same fingerprint (ids and modes unchanged): no card_changed either.
    const card = await getCard(peer.cardUrl('summarizer'));
    assert.equal(skillFingerprint(card as never), skillFingerprint(healthyCard as never));
    await spansSettled(3);
    assert.deepEqual(drifted(h.spans()), [], describeSpans());
    assert.equal(
      only('GetAgentCard').attributes['a2a.agent_card.fingerprint'],
      skillFingerprint(healthyCard as never),
    );
  });
});
