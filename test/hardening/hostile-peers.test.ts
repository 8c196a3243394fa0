/**
 * Hardening 2: hostile peers and attribution — each test failed before its fix.
 * #6 task ids colliding across peers, #7 a card from another host taking over an agent,
 * #8 cards over the skill cap, #9 the re-fetch's memory bound, #10 secrets in span status,
 * #11 enforce mode's rebuilt Response, #12 ignoreUrls /g, reader.cancel(), two instances.
 * Raw HTTP peers on 127.0.0.1; the real OpenTelemetry SDK with in-memory exporters.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { A2AInstrumentation, onAgentCardDrift } from '../../src/index';
import { sharedState } from '../../src/telemetry/shared-state';
import { safeMessage } from '../../src/telemetry/span-attributes';

let h: Harness;

interface Peer {
  base: string;
  server: http.Server;
  refetches: number;
  maxRefetchWritten: number;
}

/** A 0.3 JSON-RPC peer whose tasks are numbered from "1" (as a conforming peer may do). */
async function startPeer(
  name: string,
  outputMode: string,
  opts: { skills?: number; hugeCardGz?: boolean; failSend?: boolean } = {},
): Promise<Peer> {
  const peer = { refetches: 0, maxRefetchWritten: 0 } as Peer;
  let next = 1;
  let cardFetches = 0;
  const card = () => ({
    name,
    url: `${peer.base}/a2a`,
    version: '1',
    protocolVersion: '0.3.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: [outputMode],
    skills: [
      ...Array.from({ length: opts.skills ?? 0 }, (_, i) => ({
        id: `filler-${i}`,
        name: 'f',
        description: 'f',
        tags: [],
      })),
      { id: 'render', name: 'render', description: 'r', tags: [], outputModes: [outputMode] },
    ],
  });
  const part =
    outputMode === 'image/png'
      ? { kind: 'file', file: { mimeType: 'image/png', bytes: 'iVBO' } }
      : { kind: 'data', data: { ok: true } };
  peer.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/.well-known/agent-card.json') {
        cardFetches++;
        if (cardFetches > 1 && opts.hugeCardGz) {
          // the re-fetch: a chunked gzip card that inflates to ~64 MB
          peer.refetches++;
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          const gz = zlib.createGzip();
          gz.pipe(res);
          gz.write('{"name":"x","skills":[],"description":"');
          let written = 0;
          const chunk = 'a'.repeat(1 << 20);
          // One MiB at a time, each flushed to the socket and 5 ms apart: a MiB of 'a' deflates to
          // ~1 KB, so without pacing the whole 64 MiB fits in the socket's buffers and the
          // producer's count would race the client's cancel instead of measuring it.
          const pump = (): void => {
            if (written >= 64 || gz.destroyed) {
              if (!gz.destroyed) gz.end('"}');
              return;
            }
            written++;
            peer.maxRefetchWritten = written;
            gz.write(chunk);
            gz.flush(() => setTimeout(pump, 5));
          };
          res.on('close', () => gz.destroy());
          pump();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(card()));
      }
      const rpc = JSON.parse(body || '{}') as { method?: string; params?: { id?: string } };
      res.writeHead(200, { 'content-type': 'application/json' });
      const id = rpc.method === 'tasks/get' ? String(rpc.params?.id) : String(next++);
      const state =
        rpc.method === 'message/send' && (opts.hugeCardGz || opts.failSend)
          ? 'failed'
          : 'completed';
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            kind: 'task',
            id,
            contextId: 'c',
            status: {
              state,
              message:
                state === 'failed'
                  ? {
                      kind: 'message',
                      role: 'agent',
                      messageId: 'x',
                      parts: [{ kind: 'text', text: 'unknown skill' }],
                    }
                  : undefined,
            },
            artifacts: state === 'completed' ? [{ artifactId: 'a', parts: [part] }] : [],
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => peer.server.listen(0, '127.0.0.1', r));
  peer.base = `http://127.0.0.1:${(peer.server.address() as AddressInfo).port}`;
  return peer;
}

async function stop(p: Peer): Promise<void> {
  p.server.closeAllConnections();
  await new Promise((r) => p.server.close(r));
}

function rpc(method: string, params: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  };
}

const sendParams = {
  message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }] },
  metadata: { skillId: 'render' },
};

before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});
beforeEach(async () => {
  await h.reset();
  sharedState().cards.clear();
  sharedState().negotiations.clear();
});

test('#6 two conforming peers both numbering tasks "1": a poll of A is judged against A\'s card, not B\'s', async () => {
  const a = await startPeer('peer-a', 'application/json');
  const b = await startPeer('peer-b', 'image/png');
  try {
    for (const p of [a, b])
      await fetch(`${p.base}/.well-known/agent-card.json`).then((r) => r.json());
    await fetch(`${a.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json()); // task "1" at A
    await fetch(`${b.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json()); // task "1" at B, sent later
    await fetch(`${a.base}/a2a`, rpc('tasks/get', { id: '1' })).then((r) => r.json()); // A's data part, A's card says JSON
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
    const poll = spans.find((x) => x.name === 'GetTask')!;
    assert.equal(poll.attributes['gen_ai.agent.name'], 'peer-a');
    assert.equal(poll.attributes['a2a.lifecycle.negotiation_known'], true);
    assert.equal(drifted(spans).length, 0, "no output_mode_mismatch from peer B's card");
  } finally {
    await stop(a);
    await stop(b);
  }
});

test("#7 a card served by another host that lists an agent's endpoint does not take over that agent once its own card is known", async () => {
  const honest = await startPeer('honest', 'application/json');
  const hostile = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        name: 'hostile',
        url: `${honest.base}/a2a`,
        version: '1',
        protocolVersion: '0.3.0',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      }),
    );
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
  const hostileBase = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  try {
    await fetch(`${honest.base}/.well-known/agent-card.json`).then((r) => r.json());
    await fetch(`${hostileBase}/.well-known/agent-card.json`).then((r) => r.json()); // fetched later: newest
    await fetch(`${honest.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json());
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    const send = spans.find((x) => x.name === 'SendMessage')!;
    assert.equal(send.attributes['gen_ai.agent.name'], 'honest');
    assert.equal(drifted(spans).length, 0, 'no false skill_not_in_card');
  } finally {
    hostile.closeAllConnections();
    await new Promise((r) => hostile.close(r));
    await stop(honest);
  }
});

test('#8 a card with more skills than the cap: a skill not read is "cannot judge", never skill_not_in_card', async () => {
  const p = await startPeer('big', 'application/json', { skills: 10_050 }); // render is skill 10,051
  try {
    await fetch(`${p.base}/.well-known/agent-card.json`).then((r) => r.json());
    await fetch(`${p.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json());
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    const send = spans.find((x) => x.name === 'SendMessage')!;
    assert.equal(send.attributes['a2a.drift.kind'], undefined);
    assert.match(String(send.attributes['a2a.drift.unjudged_reason']), /skills read/);
  } finally {
    await stop(p);
  }
});

test('#9 refetchCardOnDrift reads at most the inspection cap of a chunked gzip card', async () => {
  h.instrumentation.setConfig({
    driftCallbackDebounceMs: 0,
    refetchCardOnDrift: true,
    maxInspectBytes: 1 << 20,
  });
  const p = await startPeer('gz', 'application/json', { hugeCardGz: true });
  try {
    await fetch(`${p.base}/.well-known/agent-card.json`).then((r) => r.json());
    const before = process.memoryUsage().rss;
    await fetch(`${p.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json()); // failed "unknown skill" → drift → re-fetch
    const spans = await h.waitForSpans(
      (s) =>
        drifted(s).length === 1 && s.some((x) => x.attributes['a2a.drift.refetch'] !== undefined),
      8000,
    );
    const d = drifted(spans)[0];
    assert.equal(d.attributes['a2a.drift.refetch'], 'failed', 'over the cap: not fingerprinted');
    assert.equal(p.refetches, 1);
    assert.ok(
      p.maxRefetchWritten < 64,
      `the re-fetch was cancelled early (${p.maxRefetchWritten} MiB of 64 produced)`,
    );
    assert.ok(process.memoryUsage().rss - before < 48 * (1 << 20), 'memory stayed bounded');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
    await stop(p);
  }
});

test('#10 user info and queries never reach the span status, whatever the error message holds', async () => {
  for (const [text, secret] of [
    ['Failed to parse URL from /a2a?api_key=SECRET1', 'SECRET1'],
    ['connect to //alice:SECRET2@host/a2a failed', 'SECRET2'],
    ['request to host/a2a?token=SECRET3 failed', 'SECRET3'],
    ['https://bob:SECRET4@h.example/a2a?x=SECRET5', 'SECRET'],
  ] as const) {
    assert.ok(!safeMessage(text).includes(secret), `${text} → ${safeMessage(text)}`);
  }
  // end to end: an A2A call to a URL fetch cannot parse
  await fetch('http://[::1:bad/a2a?api_key=SECRET6', rpc('message/send', sendParams)).catch(
    () => undefined,
  );
  const spans = await h.waitForSpans((s) => s.length > 0, 500).catch(() => h.spans());
  for (const s of spans) assert.ok(!(s.status.message ?? '').includes('SECRET6'));
});

test("#11 enforce mode: the rebuilt Response reads like fetch's own (clone, byte stream, no own properties) and buffers at most the cap", async () => {
  h.instrumentation.setConfig({
    driftCallbackDebounceMs: 0,
    mode: 'enforce',
    maxInspectBytes: 64 * 1024,
  });
  const big = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: {
          kind: 'task',
          id: 't',
          contextId: 'c',
          status: { state: 'completed' },
          artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'x'.repeat(200_000) }] }],
        },
      }),
    );
  });
  await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/a2a`;
  try {
    const res = await fetch(url, rpc('message/send', sendParams));
    assert.deepEqual(Object.getOwnPropertyNames(res), [], 'no own properties');
    assert.equal(res.url, url);
    assert.equal(res.type, 'basic');
    assert.ok(res instanceof Response);
    const copy = res.clone();
    assert.equal(copy.url, url, 'clone keeps the url');
    assert.equal(copy.type, 'basic');
    assert.equal(copy.redirected, false);
    const reader = res.body!.getReader({ mode: 'byob' }); // a byte stream, as fetch's own body
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(65536));
      if (done) break;
      total += value.byteLength;
    }
    const copyText = await copy.text();
    assert.equal(total, Buffer.byteLength(copyText));
    assert.ok(total > 200_000, 'the whole body passed although it is over the cap');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
    big.closeAllConnections();
    await new Promise((r) => big.close(r));
  }
});

test('#12 ignoreUrls with a /g RegExp ignores every call, not every other one', async () => {
  const p = await startPeer('ign', 'application/json');
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, ignoreUrls: [/\/\.well-known\//g] });
  try {
    for (let i = 0; i < 4; i++)
      await fetch(`${p.base}/.well-known/agent-card.json`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(h.spans('GetAgentCard').length, 0);
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
    await stop(p);
  }
});

test('#12 the app cancelling a stream it does not need any more is not an error of the call', async () => {
  const sse = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'working' }, final: false } })}\n\n`,
    );
  });
  await new Promise<void>((r) => sse.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(
      `http://127.0.0.1:${(sse.address() as AddressInfo).port}/a2a`,
      rpc('message/stream', sendParams),
    );
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 20));
    await reader.cancel('done');
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
    const span = spans.find((x) => x.name === 'SendStreamingMessage')!;
    assert.notEqual(span.attributes['error.type'], 'string');
    assert.notEqual(span.status.code, SpanStatusCode.ERROR);
    assert.match(String(span.attributes['a2a.drift.unjudged_reason']), /cancelled/);
  } finally {
    sse.closeAllConnections();
    await new Promise((r) => sse.close(r));
  }
});

test('#12 two A2AInstrumentation instances: every call gets one span, not two', async () => {
  const p = await startPeer('twice', 'application/json');
  const second = new A2AInstrumentation({ serverSpans: false });
  second.setTracerProvider(trace.getTracerProvider());
  second.enable();
  try {
    await fetch(`${p.base}/.well-known/agent-card.json`).then((r) => r.json());
    await fetch(`${p.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(h.spans('GetAgentCard').length, 1);
    assert.equal(h.spans('SendMessage').length, 1);
  } finally {
    second.disable();
    await stop(p);
  }
});

test('#1 a card too complex to fingerprint: the span says so, and nothing is judged against it', async () => {
  const card = {
    name: 'hostile',
    url: 'http://127.0.0.1:1/a2a',
    version: '1',
    protocolVersion: '0.3.0',
    capabilities: {},
    skills: [{ id: 'render', inputModes: 'x'.repeat(1 << 20), outputModes: ['text/plain'] }],
  };
  const s = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(card));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  try {
    const got = await fetch(`${base}/.well-known/agent-card.json`).then((r) => r.json());
    assert.deepEqual(got, card, 'the app gets its card');
    const spans = await h.waitForSpans((x) => x.some((y) => y.name === 'GetAgentCard'));
    const span = spans.find((y) => y.name === 'GetAgentCard')!;
    assert.equal(span.attributes['a2a.agent_card.fingerprint'], undefined);
    assert.match(String(span.attributes['a2a.drift.unjudged_reason']), /could not fingerprint/);
    assert.equal(
      sharedState().cards.forRequestUrl(`${base}/.well-known/agent-card.json`),
      undefined,
    );
  } finally {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

test('a drift callback that re-enters fetch (re-fetching the card itself) is observed normally, without recursion', async () => {
  const p = await startPeer('reenter', 'application/json', { failSend: true });
  const cardUrl = `${p.base}/.well-known/agent-card.json`;
  let calls = 0;
  let refetched: unknown;
  const remove = onAgentCardDrift(async () => {
    calls++;
    refetched = await fetch(cardUrl).then((r) => r.json()); // the eviction the README suggests: fetch again
  });
  try {
    await fetch(cardUrl).then((r) => r.json());
    await fetch(`${p.base}/a2a`, rpc('message/send', sendParams)).then((r) => r.json()); // failed "unknown skill"
    const spans = await h.waitForSpans(
      (s) => s.filter((x) => x.name === 'GetAgentCard').length === 2,
    );
    assert.equal(calls, 1, 'one callback');
    assert.equal((refetched as { name?: string }).name, 'reenter');
    assert.equal(
      drifted(spans)
        .map((x) => x.attributes['a2a.drift.kind'])
        .join(),
      'unknown_skill',
      'the re-fetch is a normal card fetch, no drift of its own',
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(calls, 1, 'no recursion');
  } finally {
    remove();
    await stop(p);
  }
});
