/**
 * Agent Cards where real implementations put them, recognised by what they are, and
 * operations attributed to the right agent on a shared origin; HTTP errors on A2A calls.
 * A raw HTTP server stands in for the framework's routes here (the frameworks themselves
 * run in test/real-world/).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as undici from 'undici';
import { SpanStatusCode } from '@opentelemetry/api';
import { drifted } from '../helpers/otel';
import { harnessWithLoopbackServer } from '../helpers/loopback-server';
import { sharedState } from '../../src/telemetry/shared-state';

/** What the weather agent's card lists now (a redeploy removes `forecast`). */
let weatherSkills = ['forecast'];

function card(name: string, url: string, skills: string[]): unknown {
  return {
    name,
    description: name,
    url,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: skills.map((id) => ({ id, name: id, description: id, tags: [] })),
  };
}

function completed(id: string, text: string): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id,
      contextId: 'c',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text }] }],
    },
  };
}

const { h, base } = harnessWithLoopbackServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const json = (status: number, v: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    const url = req.url ?? '';
    // Mastra-like: per-agent cards, url on another host name than the one called
    if (url === '/api/.well-known/weather/agent-card.json')
      return json(200, card('weather', 'http://localhost:4111/api/a2a/weather', weatherSkills));
    if (url === '/api/.well-known/translator/agent-card.json')
      return json(
        200,
        card('translator', 'http://localhost:4111/api/a2a/translator', ['translate']),
      );
    // reactive-agents-like: {url}/agent/card
    if (url === '/ra/agent/card') return json(200, card('ra', `${base()}/ra`, ['summarize']));
    if (url === '/fresh/.well-known/agent-card.json') {
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=300',
        etag: '"v7"',
        'last-modified': 'Wed, 02 Dec 2026 10:00:00 GMT',
      });
      return res.end(JSON.stringify(card('fresh', `${base()}/fresh`, ['summarize'])));
    }
    // LangGraph-server-like: every assistant's card at one path, told apart by the query
    if (url.startsWith('/.well-known/agent-card.json?assistant_id=')) {
      const id = url.split('=')[1];
      return json(200, card(`lg-${id}`, `${base()}/a2a/${id}`, [`${id}-main`]));
    }
    if (url === '/other/agent/card') return json(200, { skills: ['not', 'a', 'card'], total: 3 });
    // a card at an odd path claiming another agent's endpoint (the translator's)
    if (url === '/hostile/agent/card')
      return json(200, card('hostile', 'http://honest.example/api/a2a/translator', ['nothing']));
    if (url === '/gone/agent.json') return json(404, { error: 'no card here' });
    if (url.startsWith('/api/a2a/')) {
      const req1 = JSON.parse(body) as { params?: { metadata?: { skillId?: string } } };
      const skill = req1.params?.metadata?.skillId ?? '';
      if (url.endsWith('/translator') && skill === 'translate')
        return json(
          200,
          completed('t-1', 'Bonjour. (Tool "dictionary" not found. Available tools: translate)'),
        );
      if (skill === 'boom')
        return json(500, {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32603, message: 'Internal error' },
        });
      return json(200, completed('t-2', `Tool "${skill}" not found. Available tools: forecast`));
    }
    if (url === '/stream-error') {
      // an error event, then the stream stays open until the client gives up
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'event: error\r\ndata: {"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad","details":[{"reason":"INVALID_PARAMS"}]}}\r\n\r\n',
      );
      return;
    }
    if (url === '/html-error') {
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<h1>down</h1>');
    }
    json(404, {});
  });
});

function send(path: string, skillId: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [{ kind: 'text', text: 'hi' }],
      },
      metadata: { skillId },
    },
  });
  return fetch(`${base()}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  }).then((r) => r.text());
}

test('per-agent cards (Mastra, VoltAgent paths) are cards; each agent is judged against its own card only', async () => {
  await fetch(`${base()}/api/.well-known/weather/agent-card.json`).then((r) => r.json());
  const cards = await h().waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
  const c = cards.find((x) => x.name === 'GetAgentCard');
  assert.equal(typeof c?.attributes['a2a.agent_card.fingerprint'], 'string');
  assert.equal(c?.attributes['a2a.protocol.version'], '0.3');
  // another agent on the same origin, whose card the client never fetched: not judged against weather's card
  await send('/api/a2a/translator', 'translate');
  const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.equal(
    op?.attributes['a2a.agent_card.fingerprint'],
    undefined,
    'no card speaks for the translator',
  );
  assert.equal(op?.attributes['a2a.protocol.version'], undefined);
  assert.equal(drifted(spans).length, 0);
});

test('a completed task saying the requested tool is gone, the card re-served without it → unknown_skill (content evidence, confirmed); the version comes from the card', async () => {
  await fetch(`${base()}/api/.well-known/weather/agent-card.json`).then((r) => r.json());
  weatherSkills = []; // the redeploy: the card no longer lists forecast
  try {
    const text = await send('/api/a2a/weather', 'forecast');
    assert.match(text, /Tool \\?"forecast\\?" not found/);
    const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
    const op = spans.find((x) => x.name === 'SendMessage');
    assert.equal(op?.attributes['a2a.drift.kind'], 'unknown_skill');
    assert.equal(op?.attributes['a2a.drift.evidence'], 'content');
    assert.equal(op?.attributes['a2a.drift.confirmed'], true);
    assert.equal(op?.attributes['a2a.drift.refetch'], 'changed');
    assert.equal(op?.attributes['a2a.drift.matched_pattern'], 'tool not found');
    assert.equal(op?.attributes['a2a.protocol.version'], '0.3');
    assert.equal(op?.status.code, SpanStatusCode.ERROR);
  } finally {
    weatherSkills = ['forecast'];
  }
});

test('the same answer while the card still lists the tool: a suspicion the card refutes, no drift', async () => {
  await fetch(`${base()}/api/.well-known/weather/agent-card.json`).then((r) => r.json());
  const text = await send('/api/a2a/weather', 'forecast');
  assert.match(text, /Tool \\?"forecast\\?" not found/);
  const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.equal(op?.attributes['a2a.drift.kind'], undefined);
  assert.equal(op?.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
  assert.equal(op?.attributes['a2a.drift.refetch'], 'unchanged');
  assert.notEqual(op?.status.code, SpanStatusCode.ERROR);
  assert.equal(drifted(spans).length, 0);
  assert.equal(await h().driftCount(), 0, 'an unconfirmed suspicion is not counted');
});

test('the same text about another tool is no drift', async () => {
  await fetch(`${base()}/api/.well-known/translator/agent-card.json`).then((r) => r.json());
  const text = await send('/api/a2a/translator', 'translate');
  assert.match(text, /dictionary/);
  const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  const op = spans.find((x) => x.name === 'SendMessage');
  assert.equal(op?.attributes['a2a.skill.id'], 'translate');
  assert.equal(typeof op?.attributes['a2a.agent_card.fingerprint'], 'string');
  assert.equal(drifted(spans).length, 0);
});

test('a card at {url}/agent/card is recognised by its content; other JSON there gets no span', async () => {
  const viaFetch = await fetch(`${base()}/ra/agent/card`).then((r) => r.json());
  const viaUndici = await undici.request(`${base()}/ra/agent/card`).then((r) => r.body.json());
  assert.deepEqual(viaFetch, viaUndici);
  await fetch(`${base()}/other/agent/card`).then((r) => r.json());
  await fetch(`${base()}/gone/agent.json`).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 50));
  const cards = h().spans('GetAgentCard');
  assert.equal(cards.length, 2, 'the two fetches of the real card');
  for (const c of cards) {
    assert.equal(c.attributes['gen_ai.agent.name'], 'ra');
    assert.equal(typeof c.attributes['a2a.agent_card.fingerprint'], 'string');
    assert.ok(c.endTime[0] * 1e9 + c.endTime[1] >= c.startTime[0] * 1e9 + c.startTime[1]);
  }
  assert.equal(h().spans().length, 2);
});

test('every HTTP 4xx/5xx on an A2A call sets status ERROR, JSON or not', async () => {
  await fetch(`${base()}/api/.well-known/weather/agent-card.json`).then((r) => r.json());
  await send('/api/a2a/weather', 'boom');
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [] } },
  });
  await fetch(`${base()}/html-error`, { method: 'POST', body }).then((r) => r.text());
  const spans = await h().waitForSpans(
    (s) => s.filter((x) => x.name === 'SendMessage').length === 2,
  );
  const [json500, html503] = spans.filter((x) => x.name === 'SendMessage');
  assert.equal(json500.status.code, SpanStatusCode.ERROR);
  // `boom` is not in the weather card: a skill the card in use does not list is reported
  // whatever the answer, an error included
  assert.equal(json500.attributes['a2a.drift.kind'], 'skill_not_in_card');
  assert.equal(json500.attributes['a2a.drift.rpc_code'], -32603);
  assert.equal(json500.attributes['error.type'], 'StaleAgentCardError');
  assert.equal(html503.status.code, SpanStatusCode.ERROR);
  assert.equal(html503.attributes['error.type'], '503');
  assert.deepEqual(
    drifted(spans).map((s) => s.attributes['a2a.drift.kind']),
    ['skill_not_in_card'],
  );
});

test("the app aborting a stream after the peer's error event keeps the peer's error code on the span", async () => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/stream',
    params: {
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [{ kind: 'text', text: 'x' }],
      },
    },
  });
  const controller = new AbortController();
  const res = await fetch(`${base()}/stream-error`, {
    method: 'POST',
    body,
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.match(Buffer.from(first.value!).toString(), /INVALID_ARGUMENT/);
  await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  await reader.read().catch(() => undefined);
  const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'));
  const op = spans.find((x) => x.name === 'SendStreamingMessage')!;
  assert.equal(op.status.code, SpanStatusCode.ERROR);
  assert.equal(op.attributes['error.type'], '400', 'not AbortError');
  assert.match(op.status.message ?? '', /INVALID_PARAMS/);
});

test('a card sniffed at an odd path cannot claim an endpoint on another origin', async () => {
  await fetch(`${base()}/api/.well-known/translator/agent-card.json`).then((r) => r.json());
  // the hostile card names honest.example's translator; it is recorded, but speaks only for its own origin
  await fetch(`${base()}/hostile/agent/card`).then((r) => r.json());
  const spans = await h().waitForSpans(
    (s) => s.filter((x) => x.name === 'GetAgentCard').length === 2,
  );
  assert.equal(
    spans.filter((x) => x.attributes['gen_ai.agent.name'] === 'hostile').length,
    1,
    'it is a card',
  );
  assert.equal(
    sharedState().cards.forRequestUrl('http://honest.example/api/a2a/translator'),
    undefined,
  );
  // and our translator is still judged against its own card
  await send('/api/a2a/translator', 'translate');
  const after = await h().waitForSpans((s) => s.some((x) => x.name === 'SendMessage'));
  assert.equal(
    after.find((x) => x.name === 'SendMessage')?.attributes['gen_ai.agent.name'],
    'translator',
  );
});

test('card freshness: Cache-Control max-age, ETag and Last-Modified on the GetAgentCard span, kept for a conditional re-fetch', async () => {
  await fetch(`${base()}/fresh/.well-known/agent-card.json`).then((r) => r.json());
  const spans = await h().waitForSpans((s) => s.some((x) => x.name === 'GetAgentCard'));
  const c = spans.find((x) => x.name === 'GetAgentCard')!;
  assert.equal(c.attributes['a2a.agent_card.max_age_s'], 300);
  assert.equal(c.attributes['a2a.agent_card.etag'], '"v7"');
  assert.equal(c.attributes['a2a.agent_card.last_modified'], 'Wed, 02 Dec 2026 10:00:00 GMT');
  const entry = sharedState().cards.get(`${base()}/fresh/.well-known/agent-card.json`);
  assert.equal(entry?.etag, '"v7"');
  assert.equal(entry?.lastModified, 'Wed, 02 Dec 2026 10:00:00 GMT');
});

test('cards at one path told apart by the query (LangGraph: ?assistant_id=): two cards, no card_changed, the query kept out of telemetry', async () => {
  for (const id of ['a', 'b', 'a'])
    await (await fetch(`${base()}/.well-known/agent-card.json?assistant_id=${id}`)).text();
  const spans = await h().waitForSpans((s) => s.length >= 3);
  assert.deepEqual(drifted(spans), [], 'the second assistant is another card, not a changed one');
  const fps = spans.map((s) => s.attributes['a2a.agent_card.fingerprint']);
  assert.notEqual(fps[0], fps[1]);
  assert.equal(fps[2], fps[0]);
  for (const s of spans)
    assert.equal(s.attributes['a2a.agent_card.url'], `${base()}/.well-known/agent-card.json`);
  assert.doesNotMatch(JSON.stringify(spans.map((s) => s.attributes)), /assistant_id/);
  assert.equal(
    sharedState().cards.get(`${base()}/.well-known/agent-card.json?assistant_id=b`)?.card.name,
    'lg-b',
  );
});
