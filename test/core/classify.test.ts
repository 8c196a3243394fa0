import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyRequest, parseJsonSafe, type ClassifyOptions } from '../../src/core/classify';
import { DEFAULT_SKILL_ID_PATHS } from '../../src/core/protocol/jsonrpc';
import type { Classification } from '../../src/core/model';

const opts: ClassifyOptions = { skillIdPaths: DEFAULT_SKILL_ID_PATHS, maxBodyBytes: 1024 * 1024 };
const c = (
  method: string,
  url: string,
  body?: string,
  o: Partial<ClassifyOptions> = {},
): Classification => classifyRequest(method, url, body, { ...opts, ...o });

test('Agent Card fetches, any base path, any query; only GET', () => {
  for (const url of [
    'https://peer-a.example/.well-known/agent.json',
    'https://peer-a.example/.well-known/agent-card.json',
    'http://127.0.0.1:4000/v03/.well-known/agent-card.json?x=1',
    '/tenant/a/.well-known/agent.json#f',
  ]) {
    assert.deepEqual(c('GET', url), { type: 'card', extended: false }, url);
    assert.deepEqual(c('get', url), { type: 'card', extended: false }, url);
  }
  // names a card but is not a known card path: a card only if its answer is one
  assert.deepEqual(c('GET', 'https://x/.well-known/agent.json.bak'), {
    type: 'card',
    extended: false,
    sniff: true,
  });
  assert.equal(c('GET', 'https://x/?u=/.well-known/agent.json'), undefined);
  assert.equal(c('DELETE', 'https://x/.well-known/agent.json'), undefined);
  assert.deepEqual(c('GET', 'https://x/.well-known/agent-card.json?v=2'), {
    type: 'card',
    extended: false,
  });
  assert.deepEqual(c('GET', 'https://x/agent-card.json'), {
    type: 'card',
    extended: false,
    sniff: true,
  });
});

test('Agent Cards of real implementations: per-agent well-known paths are cards; other card-like paths are sniffed', () => {
  // Mastra, VoltAgent: one card per agent
  for (const url of [
    'http://h/api/.well-known/weather/agent-card.json',
    'http://h/.well-known/translator/agent-card.json',
  ]) {
    assert.deepEqual(c('GET', url), { type: 'card', extended: false }, url);
  }
  // python-a2a (/agent.json, /a2a/agent.json), reactive-agents ({url}/agent/card): only if the answer is a card
  for (const url of [
    'http://h/agent.json',
    'http://h/a2a/agent.json',
    'http://h/agent/card',
    'http://h/x/y/agent-card.json',
  ]) {
    assert.deepEqual(c('GET', url), { type: 'card', extended: false, sniff: true }, url);
  }
  // nothing to do with cards: no cost beyond the path check
  for (const url of [
    'http://h/users/1',
    'http://h/api/data.json',
    'http://h/',
    'http://h/list?card=1',
  ]) {
    assert.equal(c('GET', url), undefined, url);
  }
  assert.equal(c('POST', 'http://h/agent/card', '{}'), undefined);
});

test('REST extended card fetches are cards (extended: true)', () => {
  assert.deepEqual(c('GET', 'http://h/a2a/rest/extendedAgentCard'), {
    type: 'card',
    extended: true,
  });
  assert.deepEqual(c('GET', 'http://h/a2a/rest/acme/extendedAgentCard?tenant=acme'), {
    type: 'card',
    extended: true,
  });
  // a2a-python 0.2's EXTENDED_AGENT_CARD_PATH, at the agent's base URL
  assert.deepEqual(c('GET', 'http://h/agent/authenticatedExtendedCard'), {
    type: 'card',
    extended: true,
  });
  assert.deepEqual(c('GET', 'http://h/svc/agent/authenticatedExtendedCard?x=1'), {
    type: 'card',
    extended: true,
  });
  // /v1/card is generic: needs the header or a known endpoint, else only sniffed (a card if its answer is one)
  assert.deepEqual(c('GET', 'http://h/api/v1/card'), {
    type: 'card',
    extended: false,
    sniff: true,
  });
  assert.deepEqual(c('GET', 'http://h/v03/rest/v1/card', undefined, { a2aVersionHeader: '0.3' }), {
    type: 'card',
    extended: true,
  });
  assert.deepEqual(c('GET', 'http://h/v03/rest/v1/card', undefined, { knownA2AEndpoint: true }), {
    type: 'card',
    extended: true,
  });
});

test('JSON-RPC by body: every version', () => {
  const cases: [unknown, string, string | undefined][] = [
    [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tasks/send',
        params: {
          id: 't',
          sessionId: 's',
          skillId: 'summarize-v2',
          message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
        },
      },
      'SendMessage',
      '0.1',
    ],
    [
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'message/stream',
        params: { message: { kind: 'message', messageId: 'm', parts: [] } },
      },
      'SendStreamingMessage',
      undefined,
    ],
    [{ jsonrpc: '2.0', id: 3, method: 'GetTask', params: { id: 't' } }, 'GetTask', '1.0'],
    [{ jsonrpc: '2.0', id: 4, method: 'GetExtendedAgentCard' }, 'GetExtendedAgentCard', '1.0'],
  ];
  for (const [body, op, version] of cases) {
    const r = c('POST', 'http://peer/a2a/jsonrpc', '\n  ' + JSON.stringify(body));
    assert.ok(r && r.type === 'operation', JSON.stringify(body));
    assert.equal(r.request.operation, op);
    assert.equal(r.request.binding, 'jsonrpc');
    assert.equal(r.request.protocolVersion, version);
  }
  const withSkill = c('POST', '/rpc', JSON.stringify(cases[0][0]));
  assert.ok(withSkill && withSkill.type === 'operation');
  assert.equal(withSkill.request.skillId, 'summarize-v2');
  assert.equal(withSkill.request.skillIdSource, 'params.skillId');
  const header = c(
    'POST',
    '/rpc',
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't' } }),
    { a2aVersionHeader: '0.3' },
  );
  assert.ok(header && header.type === 'operation');
  assert.equal(header.request.protocolVersion, '0.3');
});

test('JSON-RPC: not A2A, not JSON, too big → undefined', () => {
  assert.equal(
    c('POST', '/rpc', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [] })),
    undefined,
  );
  assert.equal(c('POST', '/rpc', '{"method": "SendMessage", broken'), undefined);
  assert.equal(c('POST', '/rpc', '[{"jsonrpc":"2.0","method":"SendMessage"}]'), undefined);
  assert.equal(c('POST', '/rpc', 'method=SendMessage'), undefined);
  assert.equal(c('POST', '/rpc', ''), undefined);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm', parts: [{ text: 'é'.repeat(600) }] } },
  });
  assert.ok(c('POST', '/rpc', body, { maxBodyBytes: 2000 }));
  assert.equal(c('POST', '/rpc', body, { maxBodyBytes: 1000 }), undefined); // 600 × 2 bytes UTF-8 > 1000
  assert.equal(c('POST', '/rpc', body, { maxBodyBytes: body.length }), undefined); // chars fit, bytes do not
  assert.equal(c('GET', '/rpc', body), undefined); // JSON-RPC is POST
  // deep nesting: JSON.parse may give up; still no throw
  const deep =
    '{"method":"SendMessage","params":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
  assert.doesNotThrow(() => c('POST', '/rpc', deep, { maxBodyBytes: 10_000_000 }));
});

test('REST by path: distinctive paths alone; generic ones need a hint', () => {
  const send = c(
    'POST',
    'http://peer/a2a/rest/message:send',
    JSON.stringify({ message: { messageId: 'm' }, metadata: { skillId: 'summarize-v2' } }),
  );
  assert.ok(send && send.type === 'operation');
  assert.equal(send.request.operation, 'SendMessage');
  assert.equal(send.request.binding, 'http+json');
  assert.equal(send.request.skillId, 'summarize-v2');
  assert.equal(send.request.messageId, 'm');

  const cancel = c('POST', 'http://peer/rest/tasks/t-1:cancel');
  assert.ok(cancel && cancel.type === 'operation');
  assert.equal(cancel.request.taskId, 't-1');

  const sub = c('GET', 'http://peer/rest/v1/tasks/t-1:subscribe');
  assert.ok(sub && sub.type === 'operation');
  assert.equal(sub.request.operation, 'SubscribeToTask');
  assert.equal(sub.request.protocolVersion, '0.3');
  assert.equal(sub.request.streaming, true);

  // a todo app is not an A2A agent
  assert.equal(c('GET', 'https://todo.example/api/tasks/42'), undefined);
  assert.equal(c('GET', 'https://todo.example/api/tasks'), undefined);
  assert.equal(
    c('DELETE', 'https://todo.example/api/tasks/1/pushNotificationConfigs/2'),
    undefined,
  );
  const hinted = c('GET', 'https://peer/rest/tasks/42', undefined, { a2aVersionHeader: '1.0' });
  assert.ok(hinted && hinted.type === 'operation');
  assert.equal(hinted.request.operation, 'GetTask');
  assert.equal(hinted.request.taskId, '42');
  const known = c('DELETE', 'https://peer/rest/tasks/1/pushNotificationConfigs/2', undefined, {
    knownA2AEndpoint: true,
  });
  assert.ok(known && known.type === 'operation');
  assert.equal(known.request.operation, 'DeleteTaskPushNotificationConfig');
});

test('POST with the body not known yet', () => {
  assert.deepEqual(c('POST', 'http://peer/a2a/jsonrpc', undefined), { type: 'maybe-operation' });
  const rest = c('POST', 'http://peer/message:stream', undefined);
  assert.ok(rest && rest.type === 'operation');
  assert.equal(rest.request.operation, 'SendStreamingMessage');
  assert.equal(rest.request.skillId, undefined);
  // body known but not A2A → undefined (not maybe)
  assert.equal(c('POST', 'http://peer/login', '{"user":"x"}'), undefined);
});

test('the common non-A2A request is undefined', () => {
  for (const [m, u, b] of [
    ['GET', 'https://api.example/users/1', undefined],
    ['GET', '/', undefined],
    ['PUT', '/message:send', '{}'],
    ['OPTIONS', '/.well-known/agent.json', undefined],
    ['HEAD', '/.well-known/agent.json', undefined],
    ['POST', 'https://api.example/upload', 'binary\u0000data'],
    ['PATCH', '/tasks/1', '{"method":"SendMessage"}'],
  ] as [string, string, string | undefined][]) {
    assert.equal(c(m, u, b), undefined, `${m} ${u}`);
  }
});

test('hostile arguments never throw', () => {
  const values: unknown[] = [
    undefined,
    null,
    0,
    {},
    [],
    'GET',
    '/.well-known/agent.json',
    'x'.repeat(100_000),
  ];
  for (const m of values) {
    for (const u of values) {
      for (const b of [
        undefined,
        null,
        5,
        '{"method"',
        '{"jsonrpc":"2.0","method":"SendMessage","params":{"skillId":{"a":1}}}',
      ]) {
        for (const o of [
          opts,
          undefined,
          null,
          { skillIdPaths: null, maxBodyBytes: NaN },
          { skillIdPaths: [5], maxBodyBytes: 1e9 },
        ]) {
          let r: Classification;
          assert.doesNotThrow(() => {
            r = classifyRequest(m as string, u as string, b as string, o as ClassifyOptions);
          });
          if (r! && r.type === 'operation') assert.equal(r.request.skillId, undefined);
        }
      }
    }
  }
});

test('parseJsonSafe', () => {
  assert.deepEqual(parseJsonSafe('{"a":1}'), { ok: true, value: { a: 1 } });
  assert.deepEqual(parseJsonSafe('null'), { ok: true, value: null });
  const bad = parseJsonSafe('{');
  assert.equal(bad.ok, false);
  assert.equal(parseJsonSafe(undefined as unknown as string).ok, false);
  assert.equal(parseJsonSafe('['.repeat(1_000_000)).ok, false);
});

test('the non-A2A fast path says no to ordinary traffic (its cost is measured by bench/, not here)', () => {
  const urls = [
    'https://api.example/users/1?expand=true',
    'https://cdn.example/static/app.js',
    'http://localhost:3000/health',
  ];
  for (const url of urls) assert.equal(c('GET', url), undefined, url);
  assert.equal(c('POST', 'https://api.example/upload', 'not json at all'), undefined);
  assert.equal(
    c('POST', 'https://api.example/rpc', '{"jsonrpc":"2.0","id":1,"method":"eth_call"}'),
    undefined,
  );
});
