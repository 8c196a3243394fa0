/**
 * Hardening, part 3: load. With the instrumentation enabled (real SDK,
 * in-memory exporter):
 *
 * - 2,000 concurrent A2A calls: 1,950 `tasks/send` (sendReturns 'final') against the raw
 *   0.1 peer, through global fetch and undici.request, and 50 long SSE streams of 200
 *   events each against a small local SSE server. Every call gets exactly one span and
 *   every span ends; every send is judged (task state, no drift); every stream span counts
 *   its 200 events; the app reads every event; nothing is left in flight; the task memory
 *   stays under a small `maxTrackedTasks`.
 * - A storm of 1,000 failing tasks against two agents with the debounce on: every span is
 *   flagged and counted, the drift callback is called once per agent.
 *
 *   node --import tsx --test test/hardening/load.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { drifted, setupOtel, type Harness, activeCallCount } from '../helpers/otel';
import { onAgentCardDrift, type DriftEvent } from '../../src/index';
import { sharedState } from '../../src/telemetry/shared-state';
import {
  startRawV01Peer,
  V01_DEFAULT_SKILL,
  V01_TRANSLATE_SKILL,
  type RawV01Peer,
} from '../peers/raw-v01-peer';
import { parseSse } from '../peers/wire';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const STREAMS = 50;
const EVENTS_PER_STREAM = 200;
const SENDS = 2000 - STREAMS;
const MAX_TRACKED = 500;

let h: Harness;

before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

async function drain(ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (activeCallCount(h) > 0 && Date.now() < end) await sleep(20);
}

/** An A2A 0.1 peer streaming `tasks/sendSubscribe` answers of EVENTS_PER_STREAM events, written in uneven pieces. */
async function startSseServer(): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: 'streamer',
          version: '1',
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'stream-v1', name: 's', outputModes: ['text/plain', 'application/json'] }],
        }),
      );
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', async () => {
      const { id, params } = JSON.parse(body) as { id: number; params: { id: string } };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let pending = '';
      for (let i = 0; i < EVENTS_PER_STREAM; i++) {
        const last = i === EVENTS_PER_STREAM - 1;
        const result =
          i % 2 === 1 && !last
            ? {
                id: params.id,
                artifact: {
                  parts: [
                    { type: 'text', text: `chunk ${i} ` + 'x'.repeat(i % 50) },
                    { type: 'file', file: { mimeType: 'application/json', bytes: 'e30=' } },
                  ],
                  index: 0,
                  append: i > 1,
                },
              }
            : { id: params.id, status: { state: last ? 'completed' : 'working' }, final: last };
        const nl = i % 3 === 0 ? '\r\n' : '\n';
        pending +=
          (i % 10 === 0 ? `: tick ${i}${nl}` : '') +
          `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}${nl}${nl}`;
        if (pending.length > 700 || last) {
          // uneven writes: split one write mid-event
          const cut = Math.floor(pending.length / 3);
          res.write(pending.slice(0, cut));
          res.write(pending.slice(cut));
          pending = '';
          await new Promise<void>((r) => setImmediate(r));
        }
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

function send(taskId: string, skillId: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: taskId,
    method: 'tasks/send',
    params: {
      id: taskId,
      sessionId: 'load',
      skillId,
      message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    },
  });
}

test(`${SENDS} concurrent tasks/send + ${STREAMS} streams of ${EVENTS_PER_STREAM} events: every span ends and is judged, bounded task memory`, async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, maxTrackedTasks: MAX_TRACKED });
  await h.reset();
  const peer: RawV01Peer = await startRawV01Peer({
    name: 'load-peer',
    behaviour: { sendReturns: 'final', transitionDelayMs: 1 },
  });
  const sse = await startSseServer();
  const pool = new undici.Agent({ connections: 64 });
  const t0 = Date.now();
  try {
    await (await fetch(peer.cardUrl)).arrayBuffer();
    await (await fetch(`${sse.base}/.well-known/agent.json`)).arrayBuffer();
    const calls: Array<Promise<unknown>> = [];
    for (let i = 0; i < SENDS; i++) {
      const body = send(`load-${i}`, V01_DEFAULT_SKILL.id);
      calls.push(
        i % 2 === 0
          ? fetch(peer.rpcUrl, {
              method: 'POST',
              body,
              headers: { 'content-type': 'application/json' },
            }).then((r) => r.json())
          : undici
              .request(peer.rpcUrl, {
                method: 'POST',
                body,
                headers: { 'content-type': 'application/json' },
                dispatcher: pool,
              })
              .then((r) => r.body.json()),
      );
    }
    const streamed: Array<Promise<number>> = [];
    for (let i = 0; i < STREAMS; i++) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tasks/sendSubscribe',
        params: {
          id: `stream-${i}`,
          sessionId: 'load',
          skillId: 'stream-v1',
          message: { role: 'user', parts: [{ type: 'text', text: 'go' }] },
        },
      });
      streamed.push(
        fetch(`${sse.base}/`, { method: 'POST', body }).then(
          async (r) => parseSse(await r.text()).length,
        ),
      );
    }
    const results = (await Promise.all(calls)) as Array<{
      result?: { status?: { state?: string } };
    }>;
    const eventCounts = await Promise.all(streamed);
    assert.ok(
      results.every((r) => r.result?.status?.state === 'completed'),
      'every task completed',
    );
    assert.deepEqual(
      new Set(eventCounts),
      new Set([EVENTS_PER_STREAM]),
      'the app read every event of every stream',
    );
    await drain();
    const elapsed = Date.now() - t0;
    assert.equal(activeCallCount(h), 0, 'no A2A call left in flight');
    const sends = h.spans('SendMessage');
    const streams = h.spans('SendStreamingMessage');
    assert.equal(sends.length, SENDS, 'one span per send');
    assert.equal(streams.length, STREAMS, 'one span per stream');
    assert.equal(h.spans('GetAgentCard').length, 2);
    assert.equal(h.spans().length, SENDS + STREAMS + 2, 'no other span');
    assert.ok(
      sends.every(
        (s) =>
          s.attributes['a2a.task.state'] === 'TASK_STATE_COMPLETED' &&
          s.attributes['a2a.skill.id'] === V01_DEFAULT_SKILL.id,
      ),
      'every send judged',
    );
    assert.ok(
      streams.every(
        (s) =>
          s.attributes['a2a.stream.event_count'] === EVENTS_PER_STREAM &&
          s.attributes['a2a.task.state'] === 'TASK_STATE_COMPLETED',
      ),
      `every stream counted: ${JSON.stringify(streams.map((s) => s.attributes['a2a.stream.event_count']).slice(0, 5))}`,
    );
    assert.equal(drifted(h.spans()).length, 0, 'conforming load: no drift');
    assert.ok(
      sharedState().negotiations.size <= MAX_TRACKED,
      `negotiations ${sharedState().negotiations.size} > ${MAX_TRACKED}`,
    );
    assert.ok(sharedState().cards.size <= 2);

    console.log(
      `load: ${SENDS} sends + ${STREAMS}×${EVENTS_PER_STREAM}-event streams in ${elapsed} ms; negotiations held ${sharedState().negotiations.size}`,
    );
  } finally {
    await pool.close();
    await sse.close();
    await peer.close();
  }
});

test('a storm of 1,000 failing tasks against two agents, debounce on: every span flagged and counted, the callback called once per agent', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 10_000, maxTrackedTasks: MAX_TRACKED });
  await h.reset();
  const peers = [
    await startRawV01Peer({
      name: 'storm-a',
      behaviour: { sendReturns: 'final', transitionDelayMs: 1 },
    }),
    await startRawV01Peer({
      name: 'storm-b',
      behaviour: { sendReturns: 'final', transitionDelayMs: 1 },
    }),
  ];
  const events: DriftEvent[] = [];
  const configured: DriftEvent[] = [];
  h.instrumentation.setConfig({
    driftCallbackDebounceMs: 10_000,
    maxTrackedTasks: MAX_TRACKED,
    onDrift: (e) => void configured.push(e),
  });
  const off = onAgentCardDrift((e) => {
    events.push(e);
  });
  try {
    for (const p of peers) {
      await (await fetch(p.cardUrl)).arrayBuffer();
      p.redeploy([V01_TRANSLATE_SKILL]); // same version: summarize-v2 is gone
    }
    const calls: Array<Promise<unknown>> = [];
    for (let i = 0; i < 1000; i++) {
      const p = peers[i % 2];
      calls.push(
        fetch(p.rpcUrl, { method: 'POST', body: send(`storm-${i}`, V01_DEFAULT_SKILL.id) }).then(
          (r) => r.json(),
        ),
      );
    }
    const results = (await Promise.all(calls)) as Array<{
      result?: { status?: { state?: string } };
    }>;
    assert.ok(
      results.every((r) => r.result?.status?.state === 'failed'),
      'every task failed (unknown skill)',
    );
    await drain();
    await sleep(100); // callbacks run on setImmediate
    const flagged = drifted(h.spans('SendMessage'));
    assert.equal(flagged.length, 1000, 'every failing exchange is flagged');
    assert.ok(flagged.every((s) => s.attributes['a2a.drift.kind'] === 'unknown_skill'));
    assert.equal(
      await h.driftCount({ 'a2a.drift.kind': 'unknown_skill' }),
      1000,
      'every drift counted',
    );
    const perAgent = new Map<string, number>();
    for (const e of events)
      perAgent.set(String(e.cardUrl), (perAgent.get(String(e.cardUrl)) ?? 0) + 1);
    assert.deepEqual(
      [...perAgent.values()],
      [1, 1],
      `callback calls per agent: ${JSON.stringify([...perAgent])}`,
    );
    assert.deepEqual(new Set(perAgent.keys()), new Set(peers.map((p) => p.cardUrl)));
    assert.equal(configured.length, 2, 'the configured onDrift is debounced the same way');
    assert.ok(sharedState().lastDispatch.size <= 2);
    assert.ok(sharedState().negotiations.size <= MAX_TRACKED);
  } finally {
    off();
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
    for (const p of peers) await p.close();
  }
});
