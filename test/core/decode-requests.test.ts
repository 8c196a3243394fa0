import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJsonRpcRequest, DEFAULT_SKILL_ID_PATHS } from '../../src/core/protocol/jsonrpc';
import {
  decodeHttpJsonRequest,
  looksLikeRestPath,
  isDistinctiveRestOperation,
  pathOnly,
} from '../../src/core/protocol/http-json';
import { getPath, own, isRecord, str } from '../../src/core/json-path';
import type { DecodedRequest } from '../../src/core/model';

// ---------------------------------------------------------------------------
// json-path helpers
// ---------------------------------------------------------------------------

test('own() sees own properties only, never the prototype', () => {
  assert.equal(own({}, 'constructor'), undefined);
  assert.equal(own({}, 'toString'), undefined);
  assert.equal(own({}, '__proto__'), undefined);
  const parsed = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}') as unknown;
  assert.deepEqual(own(parsed, '__proto__'), { x: 1 }); // JSON.parse makes it an own data property
  assert.equal(own(parsed, 'constructor'), 'c');
  assert.equal(own(null, 'a'), undefined);
  assert.equal(own('abc', 'length'), undefined);
  assert.equal(own(Object.create({ inherited: 1 }), 'inherited'), undefined);
  const throwing = new Proxy(
    {},
    {
      getOwnPropertyDescriptor() {
        throw new Error('boom');
      },
    },
  );
  assert.equal(own(throwing, 'a'), undefined);
});

test('isRecord / str', () => {
  assert.equal(isRecord({}), true);
  assert.equal(isRecord([]), false);
  assert.equal(isRecord(null), false);
  assert.equal(str('a'), 'a');
  assert.equal(str(1), undefined);
  assert.equal(str(new String('a')), undefined);
});

test('getPath walks own properties and array indexes', () => {
  const o = { a: { b: { c: 'x' } }, list: [{ t: 'first' }, { t: 'second' }] };
  assert.equal(getPath(o, 'a.b.c'), 'x');
  assert.equal(getPath(o, ['a', 'b', 'c']), 'x');
  assert.equal(getPath(o, 'list.1.t'), 'second');
  assert.equal(getPath(o, 'list.01.t'), undefined); // not a canonical index
  assert.equal(getPath(o, 'list.length'), undefined);
  assert.equal(getPath(o, 'a.b.c.d'), undefined);
  assert.equal(getPath(o, 'a..b'), undefined);
  assert.equal(getPath(o, ''), undefined);
  assert.equal(getPath(o, 'a.constructor'), undefined);
  assert.equal(getPath(o, 'a.__proto__'), undefined);
  assert.equal(getPath({ a: { toString: 'own' } }, 'a.toString'), 'own');
  assert.equal(getPath(null, 'a'), undefined);
  assert.equal(getPath(o, 123 as unknown as string), undefined);
});

// ---------------------------------------------------------------------------
// JSON-RPC, every version
// ---------------------------------------------------------------------------

const rpc = (method: string, params: unknown, id: unknown = 1): unknown => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

test('0.1 tasks/send: SendMessage, version 0.1, task id and session from params, params.skillId', () => {
  const r = decodeJsonRpcRequest(
    rpc(
      'tasks/send',
      {
        id: 'task-1',
        sessionId: 'sess-1',
        skillId: 'summarize-v2',
        message: { role: 'user', parts: [{ type: 'text', text: 'Summarize this' }] },
        acceptedOutputModes: ['text/markdown'],
      },
      'req-7',
    ),
  );
  assert.deepEqual(r, {
    operation: 'SendMessage',
    wireMethod: 'tasks/send',
    binding: 'jsonrpc',
    protocolVersion: '0.1',
    streaming: false,
    rpcId: 'req-7',
    taskId: 'task-1',
    contextId: 'sess-1',
    skillId: 'summarize-v2',
    skillIdSource: 'params.skillId',
    messageParts: [{ kind: 'text' }], // kinds and media types only, never content
  });
});

test('0.1 method table', () => {
  const cases: [string, string, boolean, string | undefined][] = [
    ['tasks/sendSubscribe', 'SendStreamingMessage', true, '0.1'],
    ['tasks/get', 'GetTask', false, undefined],
    ['tasks/cancel', 'CancelTask', false, undefined],
    ['tasks/resubscribe', 'SubscribeToTask', true, undefined],
    ['tasks/pushNotification/set', 'CreateTaskPushNotificationConfig', false, '0.1'],
    ['tasks/pushNotification/get', 'GetTaskPushNotificationConfig', false, '0.1'],
  ];
  for (const [method, op, streaming, version] of cases) {
    const r = decodeJsonRpcRequest(rpc(method, { id: 'task-9' }));
    assert.ok(r, method);
    assert.equal(r.operation, op, method);
    assert.equal(r.streaming, streaming, method);
    assert.equal(r.protocolVersion, version, method);
    assert.equal(r.taskId, 'task-9', method);
  }
});

test('0.2/0.3 message/send: ids from params.message, version not told by the name', () => {
  const r = decodeJsonRpcRequest(
    rpc(
      'message/send',
      {
        message: {
          kind: 'message',
          messageId: 'msg-1',
          role: 'user',
          contextId: 'ctx-1',
          taskId: 'task-2',
          parts: [{ kind: 'text', text: 'hello' }],
          metadata: { skillId: 'translate-v1' },
        },
        configuration: { acceptedOutputModes: ['text/plain'], blocking: true },
      },
      11,
    ),
  );
  assert.deepEqual(r, {
    operation: 'SendMessage',
    wireMethod: 'message/send',
    binding: 'jsonrpc',
    streaming: false,
    rpcId: 11,
    taskId: 'task-2',
    contextId: 'ctx-1',
    messageId: 'msg-1',
    skillId: 'translate-v1',
    skillIdSource: 'params.message.metadata.skillId',
    messageParts: [{ kind: 'text' }], // kinds and media types only, never content
  });
});

test('0.2/0.3 method table, incl. push configs and the 0.3 extended card', () => {
  const cases: [string, unknown, string, string | undefined, string | undefined][] = [
    [
      'message/stream',
      { message: { messageId: 'm', parts: [] } },
      'SendStreamingMessage',
      undefined,
      undefined,
    ],
    [
      'tasks/pushNotificationConfig/set',
      { taskId: 't-1', pushNotificationConfig: { url: 'https://cb' } },
      'CreateTaskPushNotificationConfig',
      't-1',
      undefined,
    ],
    [
      'tasks/pushNotificationConfig/get',
      { id: 't-1', pushNotificationConfigId: 'c' },
      'GetTaskPushNotificationConfig',
      't-1',
      undefined,
    ],
    [
      'tasks/pushNotificationConfig/list',
      { id: 't-1' },
      'ListTaskPushNotificationConfigs',
      't-1',
      undefined,
    ],
    [
      'tasks/pushNotificationConfig/delete',
      { id: 't-1', pushNotificationConfigId: 'c' },
      'DeleteTaskPushNotificationConfig',
      't-1',
      undefined,
    ],
    ['agent/getAuthenticatedExtendedCard', undefined, 'GetExtendedAgentCard', undefined, '0.3'],
  ];
  for (const [method, params, op, taskId, version] of cases) {
    const r = decodeJsonRpcRequest(rpc(method, params));
    assert.ok(r, method);
    assert.equal(r.operation, op, method);
    assert.equal(r.taskId, taskId, method);
    assert.equal(r.protocolVersion, version, method);
  }
});

test('1.0 SendMessage as @a2a-js/sdk 1.3 sends it', () => {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: {
        messageId: 'm-1',
        role: 'ROLE_USER',
        parts: [{ text: 'hello' }],
        contextId: 'ctx-10',
        taskId: 'task-10',
      },
      metadata: { skillId: 'summarize-v2' },
      tenant: 'acme',
    },
  };
  assert.deepEqual(decodeJsonRpcRequest(body, undefined, '1.0'), {
    operation: 'SendMessage',
    wireMethod: 'SendMessage',
    binding: 'jsonrpc',
    protocolVersion: '1.0',
    streaming: false,
    rpcId: 1,
    taskId: 'task-10',
    contextId: 'ctx-10',
    messageId: 'm-1',
    tenant: 'acme',
    skillId: 'summarize-v2',
    skillIdSource: 'params.metadata.skillId',
    messageParts: [{ kind: 'text' }], // kinds and media types only, never content
  });
});

test('1.0 method table', () => {
  const cases: [string, unknown, string, string | undefined, boolean][] = [
    [
      'SendStreamingMessage',
      { message: { messageId: 'm' } },
      'SendStreamingMessage',
      undefined,
      true,
    ],
    ['GetTask', { id: 't-1', historyLength: 2 }, 'GetTask', 't-1', false],
    ['GetTask', { name: 'tasks/t-2' }, 'GetTask', 't-2', false],
    ['CancelTask', { id: 't-1' }, 'CancelTask', 't-1', false],
    ['SubscribeToTask', { id: 't-1' }, 'SubscribeToTask', 't-1', true],
    ['ListTasks', { contextId: 'ctx' }, 'ListTasks', undefined, false],
    ['GetExtendedAgentCard', {}, 'GetExtendedAgentCard', undefined, false],
    [
      'CreateTaskPushNotificationConfig',
      { taskId: 't-1', url: 'https://cb' },
      'CreateTaskPushNotificationConfig',
      't-1',
      false,
    ],
    // 1.0: `id` is the CONFIG id here, the task is `taskId`
    [
      'GetTaskPushNotificationConfig',
      { taskId: 't-1', id: 'cfg-1' },
      'GetTaskPushNotificationConfig',
      't-1',
      false,
    ],
    [
      'ListTaskPushNotificationConfigs',
      { taskId: 't-1' },
      'ListTaskPushNotificationConfigs',
      't-1',
      false,
    ],
    [
      'DeleteTaskPushNotificationConfig',
      { taskId: 't-1', id: 'cfg-1' },
      'DeleteTaskPushNotificationConfig',
      't-1',
      false,
    ],
    [
      'SetTaskPushNotificationConfig',
      { parent: 'tasks/t-3' },
      'CreateTaskPushNotificationConfig',
      't-3',
      false,
    ],
    [
      'GetTaskPushNotificationConfig',
      { name: 'tasks/t-4/pushNotificationConfigs/c' },
      'GetTaskPushNotificationConfig',
      't-4',
      false,
    ],
    [
      'ListTaskPushNotificationConfig',
      { taskId: 't-1' },
      'ListTaskPushNotificationConfigs',
      't-1',
      false,
    ],
  ];
  for (const [method, params, op, taskId, streaming] of cases) {
    const r = decodeJsonRpcRequest(rpc(method, params));
    assert.ok(r, method);
    assert.equal(r.operation, op, method);
    assert.equal(r.taskId, taskId, method);
    assert.equal(r.streaming, streaming, method);
    assert.equal(r.protocolVersion, '1.0', method);
  }
  assert.equal(decodeJsonRpcRequest(rpc('ListTasks', { contextId: 'ctx' }))?.contextId, 'ctx');
});

test('A2A-Version header: supplies the version for shared names, refines 1.x, never contradicts the name', () => {
  const v = (method: string, header?: string): string | undefined =>
    decodeJsonRpcRequest(rpc(method, { id: 't' }), undefined, header)?.protocolVersion;
  assert.equal(v('tasks/get', '0.3'), '0.3');
  assert.equal(v('tasks/get', '0.1'), '0.1');
  assert.equal(v('message/send', '0.2.6'), '0.2');
  assert.equal(v('message/send', '0.1'), undefined); // message/send does not exist in 0.1
  assert.equal(v('message/send', '1.0'), undefined); // a 0.x name is never 1.0
  assert.equal(v('tasks/send', '0.3'), '0.1'); // the name wins
  assert.equal(v('SendMessage', '1.1'), '1.1');
  assert.equal(v('SendMessage', '0.3'), '1.0');
  assert.equal(v('SendMessage', 'garbage'), '1.0');
  assert.equal(v('tasks/get', ' 0.3 '), '0.3');
  assert.equal(v('tasks/get', '1.0'), undefined);
});

test('skill id: configurable paths, first string wins, non-strings skipped', () => {
  const body = rpc('message/send', {
    skillId: 42,
    metadata: { skillId: '' },
    message: { messageId: 'm', metadata: { skillId: 'from-message' } },
  });
  const r = decodeJsonRpcRequest(body);
  assert.equal(r?.skillId, 'from-message');
  assert.equal(r?.skillIdSource, 'params.message.metadata.skillId');

  const custom = decodeJsonRpcRequest(
    rpc('SendMessage', { metadata: { x: { skill: 'custom' } } }),
    ['params.metadata.x.skill'],
  );
  assert.equal(custom?.skillId, 'custom');
  assert.equal(custom?.skillIdSource, 'params.metadata.x.skill');

  const none = decodeJsonRpcRequest(rpc('SendMessage', { metadata: { skillId: 'x' } }), []);
  assert.equal(none?.skillId, undefined);
  assert.equal(none?.skillIdSource, undefined);

  // bad path entries are ignored
  const bad = decodeJsonRpcRequest(rpc('SendMessage', { skillId: 's' }), [
    7 as unknown as string,
    '',
    'a..b',
    'params.skillId',
  ]);
  assert.equal(bad?.skillId, 's');
  assert.deepEqual(
    [...DEFAULT_SKILL_ID_PATHS],
    [
      'params.skillId',
      'params.metadata.skillId',
      'params.message.metadata.skillId',
      'params.message.metadata.skill_id',
    ],
  );
  // crewAI's client: `message.metadata.skill_id`
  const crew = decodeJsonRpcRequest(
    rpc('message/send', { message: { messageId: 'm', metadata: { skill_id: 'research' } } }),
  );
  assert.equal(crew?.skillId, 'research');
  assert.equal(crew?.skillIdSource, 'params.message.metadata.skill_id');
});

test('not A2A JSON-RPC → undefined', () => {
  assert.equal(decodeJsonRpcRequest(rpc('eth_blockNumber', [])), undefined);
  assert.equal(decodeJsonRpcRequest({ jsonrpc: '1.0', method: 'SendMessage', id: 1 }), undefined);
  assert.equal(decodeJsonRpcRequest([rpc('SendMessage', {})]), undefined); // batch
  assert.equal(decodeJsonRpcRequest({ method: 'toString' }), undefined);
  assert.equal(decodeJsonRpcRequest({ method: '__proto__' }), undefined);
  assert.equal(decodeJsonRpcRequest({ method: 'constructor' }), undefined);
  assert.equal(decodeJsonRpcRequest({ method: 'hasOwnProperty' }), undefined);
  assert.equal(
    decodeJsonRpcRequest(rpc('tasks/sendSubscribe', { id: 't' }))?.operation,
    'SendStreamingMessage',
  );
  // jsonrpc member absent is tolerated
  assert.equal(
    decodeJsonRpcRequest({ method: 'tasks/get', params: { id: 't' } })?.operation,
    'GetTask',
  );
});

test('ids: non-string ids are not used; rpc id only string or finite number', () => {
  const r = decodeJsonRpcRequest({
    jsonrpc: '2.0',
    id: { x: 1 },
    method: 'tasks/send',
    params: { id: 5, sessionId: ['s'], message: { messageId: 9, taskId: null } },
  });
  assert.ok(r);
  assert.equal(r.rpcId, undefined);
  assert.equal(r.taskId, undefined);
  assert.equal(r.contextId, undefined);
  assert.equal(r.messageId, undefined);
  assert.equal(decodeJsonRpcRequest(rpc('tasks/get', {}, NaN))?.rpcId, undefined);
  assert.equal(decodeJsonRpcRequest(rpc('tasks/get', {}, null))?.rpcId, undefined);
  assert.equal(decodeJsonRpcRequest(rpc('tasks/get', {}, 0))?.rpcId, 0);
});

// ---------------------------------------------------------------------------
// HTTP+JSON
// ---------------------------------------------------------------------------

function rest(
  method: string,
  path: string,
  body?: unknown,
  header?: string,
): DecodedRequest | undefined {
  return decodeHttpJsonRequest(method, path, body, undefined, header);
}

test('1.0 REST paths (with a base path and a query)', () => {
  const cases: [string, string, string, string | undefined, string][] = [
    ['POST', '/a2a/rest/message:send', 'SendMessage', undefined, 'POST /message:send'],
    ['POST', '/a2a/rest/message:stream', 'SendStreamingMessage', undefined, 'POST /message:stream'],
    ['GET', '/a2a/rest/tasks/t-1?historyLength=3', 'GetTask', 't-1', 'GET /tasks/{id}'],
    ['GET', '/a2a/rest/tasks?contextId=c', 'ListTasks', undefined, 'GET /tasks'],
    ['POST', '/a2a/rest/tasks/t-1:cancel', 'CancelTask', 't-1', 'POST /tasks/{id}:cancel'],
    ['GET', '/a2a/rest/tasks/t-1:subscribe', 'SubscribeToTask', 't-1', 'GET /tasks/{id}:subscribe'],
    [
      'POST',
      '/a2a/rest/tasks/t-1:subscribe',
      'SubscribeToTask',
      't-1',
      'POST /tasks/{id}:subscribe',
    ],
    [
      'POST',
      '/tasks/t-1/pushNotificationConfigs',
      'CreateTaskPushNotificationConfig',
      't-1',
      'POST /tasks/{id}/pushNotificationConfigs',
    ],
    [
      'GET',
      '/tasks/t-1/pushNotificationConfigs',
      'ListTaskPushNotificationConfigs',
      't-1',
      'GET /tasks/{id}/pushNotificationConfigs',
    ],
    [
      'GET',
      '/tasks/t-1/pushNotificationConfigs/c-1',
      'GetTaskPushNotificationConfig',
      't-1',
      'GET /tasks/{id}/pushNotificationConfigs/{configId}',
    ],
    [
      'DELETE',
      '/tasks/t-1/pushNotificationConfigs/c-1',
      'DeleteTaskPushNotificationConfig',
      't-1',
      'DELETE /tasks/{id}/pushNotificationConfigs/{configId}',
    ],
    ['GET', '/extendedAgentCard', 'GetExtendedAgentCard', undefined, 'GET /extendedAgentCard'],
    ['get', 'http://agent.example:8080/acme/tasks/t%2F1#frag', 'GetTask', 't/1', 'GET /tasks/{id}'],
  ];
  for (const [method, path, op, taskId, wire] of cases) {
    const r = rest(method, path);
    assert.ok(r, `${method} ${path}`);
    assert.equal(r.operation, op, path);
    assert.equal(r.taskId, taskId, path);
    assert.equal(r.wireMethod, wire, path);
    assert.equal(r.binding, 'http+json', path);
    assert.equal(r.protocolVersion, '1.0', path);
    assert.equal(r.streaming, op === 'SendStreamingMessage' || op === 'SubscribeToTask', path);
  }
});

test('0.3 REST paths under /v1 → 0.3; GET /v1/card is the 0.3 extended card', () => {
  const send = rest('POST', '/v03/rest/v1/message:send', {
    message: { messageId: 'm-2', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    metadata: { skillId: 'summarize-v2' },
  });
  assert.deepEqual(send, {
    operation: 'SendMessage',
    wireMethod: 'POST /v1/message:send',
    binding: 'http+json',
    protocolVersion: '0.3',
    streaming: false,
    messageId: 'm-2',
    skillId: 'summarize-v2',
    skillIdSource: 'params.metadata.skillId',
    messageParts: [{ kind: 'text' }], // kinds and media types only, never content
  });
  assert.equal(rest('GET', '/v1/tasks/abc:subscribe')?.protocolVersion, '0.3');
  assert.equal(rest('GET', '/v1/tasks/abc')?.wireMethod, 'GET /v1/tasks/{id}');
  const card = rest('GET', '/v1/card');
  assert.equal(card?.operation, 'GetExtendedAgentCard');
  assert.equal(card?.protocolVersion, '0.3');
  // a 1.0 agent whose base URL ends in /v1: the header tells
  assert.equal(rest('POST', '/api/v1/message:send', {}, '1.0')?.protocolVersion, '1.0');
  // 0.3 REST had no ListTasks; /v1/tasks without a header: version unknown
  assert.equal(rest('GET', '/v1/tasks')?.protocolVersion, undefined);
  // contradiction: a 0.3 header on a path without /v1
  assert.equal(rest('POST', '/message:send', {}, '0.3')?.protocolVersion, undefined);
});

test('REST body is the params: skill paths lose their params. prefix; ids from message; tenant', () => {
  const r = rest('POST', '/message:stream', {
    tenant: 't-acme',
    message: {
      messageId: 'm',
      contextId: 'c',
      taskId: 't',
      parts: [{ text: 'x' }],
      metadata: { skillId: 'deep' },
    },
    metadata: {},
  });
  assert.equal(r?.skillId, 'deep');
  assert.equal(r?.skillIdSource, 'params.message.metadata.skillId');
  assert.equal(r?.messageId, 'm');
  assert.equal(r?.contextId, 'c');
  assert.equal(r?.taskId, 't');
  assert.equal(r?.tenant, 't-acme');
  const custom = decodeHttpJsonRequest('POST', '/message:send', { hint: { skill: 'h' } }, [
    'hint.skill',
  ]);
  assert.equal(custom?.skillId, 'h');
  assert.equal(custom?.skillIdSource, 'hint.skill');
});

test('REST: wrong method or unrelated paths → undefined', () => {
  assert.equal(rest('GET', '/message:send'), undefined);
  assert.equal(rest('DELETE', '/tasks/t-1'), undefined);
  assert.equal(rest('POST', '/tasks/t-1'), undefined);
  assert.equal(rest('GET', '/tasks/t-1:cancel'), undefined);
  assert.equal(rest('PUT', '/message:send'), undefined);
  assert.equal(rest('GET', '/api/users/1'), undefined);
  assert.equal(rest('GET', '/card'), undefined);
  assert.deepEqual(rest('GET', '/tasks/'), rest('GET', '/tasks')); // trailing slash → ListTasks
  assert.equal(rest('GET', '/tasks/')?.operation, 'ListTasks');
  assert.equal(rest('GET', '/tasks/:cancel'), undefined);
  assert.equal(rest('POST', '/tasks//pushNotificationConfigs'), undefined);
});

test('looksLikeRestPath / isDistinctiveRestOperation / pathOnly', () => {
  assert.equal(looksLikeRestPath('/a2a/message:send'), true);
  assert.equal(looksLikeRestPath('/a/tasks/1'), true);
  assert.equal(looksLikeRestPath('/extendedAgentCard'), true);
  assert.equal(looksLikeRestPath('/v1/card'), true);
  assert.equal(looksLikeRestPath('/api/users/1'), false);
  assert.equal(looksLikeRestPath('/'), false);
  assert.equal(looksLikeRestPath(undefined as unknown as string), false);
  assert.equal(isDistinctiveRestOperation(rest('POST', '/message:send')!), true);
  assert.equal(isDistinctiveRestOperation(rest('POST', '/tasks/x:cancel')!), true);
  assert.equal(isDistinctiveRestOperation(rest('GET', '/tasks/x')!), false);
  assert.equal(isDistinctiveRestOperation(rest('GET', '/tasks')!), false);
  assert.equal(isDistinctiveRestOperation(rest('GET', '/v1/card')!), false);
  assert.equal(pathOnly('https://h:1/a/b?x=1#y'), '/a/b');
  assert.equal(pathOnly('https://h'), '/');
  assert.equal(pathOnly('/p?q'), '/p');
});

// ---------------------------------------------------------------------------
// Hostile inputs
// ---------------------------------------------------------------------------

function hostileValues(): unknown[] {
  const deep: Record<string, unknown> = {};
  let cur = deep;
  for (let i = 0; i < 5000; i++) {
    const next: Record<string, unknown> = {};
    cur.params = next;
    cur = next;
  }
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    undefined,
    null,
    true,
    0,
    -1,
    1.5,
    NaN,
    Infinity,
    '',
    'SendMessage',
    '{"method":"SendMessage"}',
    [],
    [rpc('SendMessage', {})],
    {},
    Object.create(null),
    JSON.parse('{"__proto__": {"method": "SendMessage", "params": {"skillId": "evil"}}}'),
    JSON.parse(
      '{"jsonrpc":"2.0","method":"SendMessage","params":{"__proto__":{"skillId":"evil"}}}',
    ),
    { method: 1 },
    { method: null },
    { method: ['SendMessage'] },
    { method: 'SendMessage'.repeat(100) },
    { jsonrpc: '2.0', method: 'SendMessage', params: [] },
    { jsonrpc: '2.0', method: 'SendMessage', params: 'x' },
    { jsonrpc: '2.0', method: 'SendMessage', params: { message: [] } },
    { jsonrpc: '2.0', method: 'SendMessage', params: { message: { metadata: [] } } },
    { jsonrpc: '2.0', method: 'SendMessage', params: { skillId: { toString: () => 'evil' } } },
    { jsonrpc: '2.0', method: 'SendMessage', params: new Array(100_000).fill('x') },
    deep,
    new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
        get() {
          throw new Error('boom');
        },
      },
    ),
    revocable.proxy,
  ];
}

test('hostile values: JSON-RPC decoder never throws and never fabricates a skill', () => {
  for (const v of hostileValues()) {
    let r: DecodedRequest | undefined;
    assert.doesNotThrow(() => {
      r = decodeJsonRpcRequest(v);
    });
    if (r !== undefined) {
      assert.equal(r.binding, 'jsonrpc');
      assert.notEqual(r.skillId, 'evil');
      assert.equal(r.skillId, undefined);
      assert.equal(r.taskId, undefined);
    }
  }
  // the hostile table is not vacuous: some of it still decodes as an operation
  assert.equal(
    decodeJsonRpcRequest({ jsonrpc: '2.0', method: 'SendMessage', params: [] })?.operation,
    'SendMessage',
  );
});

test('hostile values: REST decoder never throws and never fabricates a skill', () => {
  const paths: unknown[] = [
    '/message:send',
    '/tasks/x',
    'x'.repeat(20_000) + '/message:send',
    '',
    '/tasks/%E0%A4%A:cancel',
    null,
    42,
  ];
  for (const p of paths) {
    for (const v of hostileValues()) {
      for (const m of ['POST', 'GET', 'post', '', null]) {
        let r: DecodedRequest | undefined;
        assert.doesNotThrow(() => {
          r = decodeHttpJsonRequest(m as string, p as string, v);
        });
        if (r !== undefined) assert.equal(r.skillId, undefined);
      }
    }
  }
  // malformed percent-encoding keeps the raw id
  assert.equal(rest('POST', '/tasks/%E0%A4%A:cancel')?.taskId, '%E0%A4%A');
});

test('prototype pollution does not leak into decoding', () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto.method = 'SendMessage';
  proto.skillId = 'polluted';
  proto.jsonrpc = '2.0';
  try {
    assert.equal(decodeJsonRpcRequest({}), undefined);
    // (read with hasOwn: a plain `r.skillId` would itself see the polluted prototype)
    const r = decodeJsonRpcRequest({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { metadata: {} },
    });
    assert.ok(r);
    assert.equal(Object.prototype.hasOwnProperty.call(r, 'skillId'), false);
    const q = decodeHttpJsonRequest('POST', '/message:send', { metadata: {} });
    assert.ok(q);
    assert.equal(Object.prototype.hasOwnProperty.call(q, 'skillId'), false);
  } finally {
    delete proto.method;
    delete proto.skillId;
    delete proto.jsonrpc;
  }
});
