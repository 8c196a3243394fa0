/**
 * Issue 26 item 6: evidence read from the words of a completed answer is a suspicion, confirmed by
 * fetching the card again. A healthy answer quoting the user's own request ("My agent logs
 * \"unknown tool: search\"") or a proofreading answer ("Skill proofread does not exist.") is no
 * drift while the card still lists the skill; it is drift once the card re-served no longer lists
 * it. The span keeps its true end time while it waits; enforce mode waits for the confirmation.
 * A plain node:http peer on 127.0.0.1 (card + JSON-RPC), the real SDK with in-memory exporters.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import { drifted, setupOtel, type Harness } from '../helpers/otel';

let h: Harness;
let server: http.Server;
let base = '';
/** The skills the peer's card lists now; the delay of card answers after the first. */
let skills = ['search', 'proofread'];
let cardDelayMs = 0;
let cardFetches = 0;

function card(): string {
  return JSON.stringify({
    name: 'helper',
    version: '1.0.0',
    protocolVersion: '0.3.0',
    url: `${base}/a2a`,
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: skills.map((id) => ({ id, name: id, description: id, tags: [] })),
  });
}

/** A COMPLETED task whose answer is `answer` (the model's words). */
function completed(id: unknown, answer: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: {
      kind: 'task',
      id: 't-1',
      contextId: 'c-1',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: answer }] }],
    },
  });
}

before(async () => {
  h = setupOtel({ mode: 'enforce' });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/.well-known/agent-card.json') {
        const delay = cardFetches++ === 0 ? 0 : cardDelayMs;
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(card());
        }, delay);
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: unknown;
        params: { message: { parts: Array<{ text: string }> } };
      };
      const text = body.params.message.parts[0].text;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        completed(
          body.id,
          text.startsWith('proofread:')
            ? text.slice(10).trim()
            : `You asked: ${text} It means the tool was not registered.`,
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise((r) => server.close(r));
  await h.shutdown();
});

beforeEach(async () => {
  await h.reset();
  skills = ['search', 'proofread'];
  cardDelayMs = 0;
  cardFetches = 0;
});

async function fetchCard(): Promise<void> {
  await fetch(`${base}/.well-known/agent-card.json`).then((r) => r.json());
}

function send(skillId: string, text: string): Promise<Response> {
  return fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text }] },
        metadata: { skillId },
      },
    }),
  });
}

const QUOTE = 'My agent logs "unknown tool: search". What does that mean?';

test('an answer quoting the user\'s request ("unknown tool: search") is no drift while the card lists search; enforce passes it', async () => {
  await fetchCard();
  const res = await send('search', QUOTE);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /unknown tool: search/);
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.equal(op?.attributes['a2a.drift.kind'], undefined);
  assert.equal(op?.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
  assert.equal(op?.attributes['a2a.drift.refetch'], 'unchanged');
  assert.notEqual(op?.status.code, SpanStatusCode.ERROR);
  assert.equal(drifted(spans).length, 0);
  assert.equal(await h.driftCount(), 0);
});

test('a proofreading answer "Skill proofread does not exist." is no drift while the card lists proofread', async () => {
  await fetchCard();
  const res = await send('proofread', 'proofread: Skill proofread does not exist.');
  assert.equal(await res.text().then((t) => t.includes('does not exist')), true);
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  assert.equal(drifted(spans).length, 0);
  assert.equal(
    spans.find((x) => x.name === 'SendMessage')?.attributes['a2a.drift.unconfirmed'],
    'unknown_skill',
  );
});

test('the same answer after a redeploy that removed the skill: confirmed unknown_skill, counted, enforce rejects', async () => {
  await fetchCard();
  skills = ['proofread'];
  await assert.rejects(send('search', QUOTE), (err: Error) => err.name === 'StaleAgentCardError');
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.equal(op?.attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(op?.attributes['a2a.drift.evidence'], 'content');
  assert.equal(op?.attributes['a2a.drift.confirmed'], true);
  assert.equal(op?.status.code, SpanStatusCode.ERROR);
  assert.equal(await h.driftCount({ 'a2a.drift.kind': 'unknown_skill' }), 1);
});

test("the span waits for a slow confirmation but keeps the exchange's true end time", async () => {
  await fetchCard();
  cardDelayMs = 700; // the card fetched again answers late
  const t0 = Date.now();
  const res = await send('search', QUOTE);
  await res.text();
  const answered = Date.now() - t0;
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'), 5000);
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.ok(op);
  assert.ok(Date.now() - t0 >= 700, 'the span was held for the confirmation');
  const durationMs = op.duration[0] * 1e3 + op.duration[1] / 1e6;
  assert.ok(
    durationMs < 700,
    `span duration ${durationMs.toFixed(0)} ms is the exchange's (enforce answered after ${answered} ms), not the wait`,
  );
  assert.equal(op.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
});

test('no protocol-level change: a FAILED task saying "unknown skill" is drift at once, no re-fetch needed', async () => {
  await fetchCard();
  const orig = server.listeners('request')[0] as http.RequestListener;
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (req.url !== '/a2a') return orig(req, res);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            kind: 'task',
            id: 't-2',
            contextId: 'c',
            status: {
              state: 'failed',
              message: {
                kind: 'message',
                role: 'agent',
                messageId: 'x',
                parts: [{ kind: 'text', text: 'unknown skill: search' }],
              },
            },
          },
        }),
      );
    });
  });
  try {
    await assert.rejects(send('search', 'hi'), (err: Error) => err.name === 'StaleAgentCardError');
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    const op = spans.find((x) => x.name === 'SendMessage');
    assert.equal(op?.attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(op?.attributes['a2a.drift.evidence'], 'protocol');
    assert.equal(cardFetches, 1, 'no card re-fetch for protocol evidence');
  } finally {
    server.removeAllListeners('request');
    server.on('request', orig);
  }
});

test('observe mode: the app gets the answer at once; the span waits for the confirmation, true end time kept', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  try {
    await fetchCard();
    cardDelayMs = 700;
    const t0 = Date.now();
    const res = await send('search', QUOTE);
    await res.text();
    const answered = Date.now() - t0;
    assert.ok(answered < 600, `the app waited ${answered} ms: observe mode must not wait`);
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'SendMessage'), 5000);
    const op = spans.find((x) => x.name === 'SendMessage');
    assert.ok(op);
    assert.ok(Date.now() - t0 >= 700, 'the span was held for the confirmation');
    const durationMs = op.duration[0] * 1e3 + op.duration[1] / 1e6;
    assert.ok(durationMs < 600, `span duration ${durationMs.toFixed(0)} ms`);
    assert.equal(op.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
  } finally {
    h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, mode: 'enforce' });
  }
});
