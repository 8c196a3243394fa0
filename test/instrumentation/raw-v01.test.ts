/**
 * The seed's own fleet: an A2A 0.1 peer speaking `tasks/send` with `params.skillId`,
 * driven through global fetch, undici.request and undici.fetch, streaming and not,
 * gzip and split CRLF streams. Also: bytes the app reads are identical with and
 * without the instrumentation; parenting with instrumentation-undici; enable/disable.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { context, trace, SpanStatusCode } from '@opentelemetry/api';
import * as undici from 'undici';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import {
  startRawV01Peer,
  V01_DEFAULT_SKILL,
  V01_TRANSLATE_SKILL,
  type RawV01Peer,
} from '../peers/raw-v01-peer';

let h: Harness;
let peer: RawV01Peer;
let rpcId = 0;

before(() => {
  h = setupOtel();
});
after(async () => {
  await peer?.close();
  await h.shutdown();
});
beforeEach(async () => {
  if (peer) await peer.close();
  peer = await startRawV01Peer({ name: 'peer-a' });
  await h.reset();
});

function rpc(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params });
}

function sendParams(taskId: string, skillId = 'summarize-v2'): Record<string, unknown> {
  return {
    id: taskId,
    sessionId: 's1',
    skillId,
    message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
  };
}

type Caller = (
  url: string,
  body?: string,
  headers?: Record<string, string>,
) => Promise<{ status: number; text: string }>;

const callers: Record<string, Caller> = {
  'global fetch': async (url, body, headers) => {
    const res = await fetch(
      url,
      body === undefined
        ? { headers }
        : { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } },
    );
    return { status: res.status, text: await res.text() };
  },
  'undici.request': async (url, body, headers) => {
    const res = await undici.request(
      url,
      body === undefined
        ? { headers }
        : { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } },
    );
    return { status: res.statusCode, text: await res.body.text() };
  },
  'undici.fetch': async (url, body, headers) => {
    const res = await undici.fetch(
      url,
      body === undefined
        ? { headers }
        : { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } },
    );
    return { status: res.status, text: await res.text() };
  },
};

async function poll(call: Caller, taskId: string, state: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { text } = await call(peer.rpcUrl, rpc('tasks/get', { id: taskId }));
    if (JSON.parse(text).result?.status?.state === state) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${taskId} never reached ${state}`);
}

for (const [name, call] of Object.entries(callers)) {
  test(`${name}: the seed's variant A — submitted, then the poll shows failed "unknown skill" → GetTask span flagged with the negotiation's skill`, async () => {
    await call(peer.cardUrl);
    peer.redeploy([V01_TRANSLATE_SKILL]);
    const sent = JSON.parse(
      (await call(peer.rpcUrl, rpc('tasks/send', sendParams('task-a')))).text,
    );
    assert.equal(sent.result.status.state, 'submitted', 'accepted by the peer');
    await poll(call, 'task-a', 'failed');
    await h.waitForSpans((s) => drifted(s).length >= 1);
    const send = h.spans('SendMessage');
    assert.equal(send.length, 1);
    assert.equal(send[0].attributes['a2a.protocol.version'], '0.1');
    assert.equal(send[0].attributes['a2a.task.state'], 'TASK_STATE_SUBMITTED');
    assert.equal(
      send[0].attributes['a2a.skill.id'],
      'summarize-v2',
      JSON.stringify(send[0].attributes),
    );
    assert.equal(send[0].attributes['a2a.skill.id_source'], 'params.skillId');
    assert.equal(drifted(send).length, 0, 'the send itself shows nothing yet');
    const flagged = drifted(h.spans());
    assert.equal(flagged.length, 1, 'exactly one poll is flagged');
    const poll0 = flagged[0];
    assert.equal(poll0.name, 'GetTask');
    assert.equal(poll0.attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(poll0.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(
      poll0.attributes['a2a.agent_card.fingerprint'],
      send[0].attributes['a2a.agent_card.fingerprint'],
    );
    assert.equal(poll0.attributes['a2a.lifecycle.negotiation_known'], true);
    assert.equal(poll0.status.code, SpanStatusCode.ERROR);
    assert.deepEqual(
      poll0.links.map((l) => l.context.spanId),
      [send[0].spanContext().spanId],
      'linked to the negotiation span',
    );
    const polls = h.spans('GetTask');
    assert.ok(polls.length >= 1);
    for (const p of polls)
      if (p !== poll0) assert.notEqual(p.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
  });
}

test('-32602 on a skill the cached card lists → invalid_params (undici.request)', async () => {
  await callers['undici.request'](peer.cardUrl);
  peer.redeploy([V01_TRANSLATE_SKILL]);
  peer.setBehaviour({ errorOnUnknownSkill: -32602 });
  const res = JSON.parse(
    (await callers['undici.request'](peer.rpcUrl, rpc('tasks/send', sendParams('task-b')))).text,
  );
  assert.equal(res.error.code, -32602);
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length === 1));
  assert.equal(span.attributes['a2a.drift.kind'], 'invalid_params');
  assert.equal(span.attributes['a2a.drift.rpc_code'], -32602);
});

test('variant B over 0.1 file parts: file.mimeType outside the advertised outputModes → output_mode_mismatch (undici.fetch)', async () => {
  await callers['undici.fetch'](peer.cardUrl);
  peer.setBehaviour({ artifactKind: 'file', fileMimeType: 'text/plain', sendReturns: 'final' });
  await callers['undici.fetch'](peer.rpcUrl, rpc('tasks/send', sendParams('task-c')));
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length === 1));
  assert.equal(span.name, 'SendMessage');
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(span.attributes['a2a.drift.actual_media_type'], 'text/plain');
});

test('streaming tasks/sendSubscribe, gzip + CRLF split into 7-byte writes with comments: judged, span ends with the stream', async () => {
  for (const [name, call] of Object.entries(callers)) {
    await h.reset();
    peer.setBehaviour({
      gzip: true,
      sse: { crlf: true, chunkBytes: 7, chunkDelayMs: 0, multilineData: true, comments: true },
    });
    peer.redeploy([V01_DEFAULT_SKILL]);
    await call(peer.cardUrl, undefined, { 'accept-encoding': 'gzip' });
    const healthy = await call(
      peer.rpcUrl,
      rpc('tasks/sendSubscribe', sendParams(`s-ok-${name}`)),
      { 'accept-encoding': 'gzip' },
    );
    assert.ok(healthy.status === 200);
    peer.redeploy([V01_TRANSLATE_SKILL]);
    await call(peer.rpcUrl, rpc('tasks/sendSubscribe', sendParams(`s-bad-${name}`)), {
      'accept-encoding': 'gzip',
    });
    const spans = await h.waitForSpans(
      (s) => s.filter((x) => x.name === 'SendStreamingMessage').length === 2,
    );
    const streams = spans.filter((x) => x.name === 'SendStreamingMessage');
    const ok = streams.find((s) => s.attributes['a2a.task.id'] === `s-ok-${name}`)!;
    const bad = streams.find((s) => s.attributes['a2a.task.id'] === `s-bad-${name}`)!;
    assert.equal(ok.attributes['a2a.drift.kind'], undefined, `${name}: healthy stream not flagged`);
    assert.equal(
      ok.attributes['a2a.task.state'],
      'TASK_STATE_COMPLETED',
      `${name}: last state seen`,
    );
    assert.equal(
      ok.attributes['a2a.drift.unjudged_reason'],
      undefined,
      `${name}: nothing left unjudged`,
    );
    assert.equal(
      bad.attributes['a2a.drift.kind'],
      'unknown_skill',
      `${name}: failing stream flagged`,
    );
  }
});

test('the bytes the app reads are identical with and without the instrumentation', async () => {
  await fetch(peer.cardUrl);
  const digests: Record<string, string[]> = { on: [], off: [] };
  for (const mode of ['on', 'off', 'on'] as const) {
    if (mode === 'off') h.instrumentation.disable();
    else h.instrumentation.enable();
    for (const [, call] of Object.entries(callers)) {
      peer.setBehaviour({ gzip: true });
      const card = await call(peer.cardUrl, undefined, { 'accept-encoding': 'gzip' });
      const task = await call(
        peer.rpcUrl,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'nope' } }),
      );
      digests[mode].push(createHash('sha256').update(card.text).update(task.text).digest('hex'));
    }
  }
  h.instrumentation.enable();
  assert.deepEqual(digests.on.slice(0, 3), digests.off);
  assert.deepEqual(digests.on.slice(3), digests.off);
});

test('enable/disable restore global fetch and stop all spans', async () => {
  const wrapped = globalThis.fetch;
  h.instrumentation.disable();
  assert.notEqual(globalThis.fetch, wrapped, 'original fetch restored');
  await h.reset();
  await fetch(peer.cardUrl);
  await undici.request(peer.cardUrl).then((r) => r.body.text());
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(h.spans().length, 0);
  h.instrumentation.enable();
  assert.notEqual(globalThis.fetch.toString(), '', 'wrapped again');
  await fetch(peer.cardUrl).then((r) => r.text());
  await h.waitForSpans((s) => s.length === 1);
});

test('spans are children of the caller span; with instrumentation-undici the HTTP span nests under the A2A span, one A2A span per call', async () => {
  const undiciInst = new UndiciInstrumentation();
  undiciInst.setTracerProvider(h.provider);
  undiciInst.enable();
  try {
    const tracer = h.provider.getTracer('app');
    await tracer.startActiveSpan('app-work', async (parent) => {
      await fetch(peer.cardUrl).then((r) => r.text());
      await fetch(peer.rpcUrl, {
        method: 'POST',
        body: rpc('tasks/get', { id: 'x' }),
        headers: { 'content-type': 'application/json' },
      }).then((r) => r.text());
      await undici
        .request(peer.rpcUrl, { method: 'POST', body: rpc('tasks/get', { id: 'y' }) })
        .then((r) => r.body.text());
      parent.end();
    });
    const spans = await h.waitForSpans(
      (s) =>
        s.filter((x) => x.name === 'GetTask').length === 2 && s.some((x) => x.name === 'app-work'),
    );
    const app = spans.find((s) => s.name === 'app-work')!;
    const a2a = spans.filter((s) => s.name === 'GetAgentCard' || s.name === 'GetTask');
    assert.equal(a2a.length, 3, 'one A2A span per call');
    for (const s of a2a)
      assert.equal(
        s.parentSpanContext?.spanId,
        app.spanContext().spanId,
        `${s.name} is a child of the app span`,
      );
    const http = spans.filter((s) => s.instrumentationScope.name.includes('undici'));
    assert.equal(http.length, 3, 'instrumentation-undici made its HTTP spans');
    const viaFetch = a2a.filter(
      (s) => s.name === 'GetAgentCard' || s.attributes['a2a.task.id'] === 'x',
    );
    for (const s of viaFetch) {
      assert.ok(
        http.some((x) => x.parentSpanContext?.spanId === s.spanContext().spanId),
        `${s.name} (fetch) has the HTTP span as its child`,
      );
    }
  } finally {
    undiciInst.disable();
  }
  void context;
  void trace;
});
