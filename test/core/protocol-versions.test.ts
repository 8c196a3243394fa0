// Protocol versions as data: the decoders are built from PROTOCOL_VERSIONS (versions.ts). These
// tests add a hypothetical version by adding nothing but a row to the table, and check that
// requests and results of that version decode, and that the known versions decode as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileVersions,
  PROTOCOL_VERSIONS,
  restVersion,
  VERSION_TABLE,
  type VersionRow,
} from '../../src/core/protocol/versions';
import { decodeJsonRpcRequest, withJsonRpcVersionHeader } from '../../src/core/protocol/jsonrpc';
import { decodeHttpJsonRequest, looksLikeRestPath } from '../../src/core/protocol/http-json';
import { A2A_GRPC_SERVICES, decodeGrpcRequest } from '../../src/core/protocol/grpc';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import type { DecodedRequest } from '../../src/core/model';

const row = (v: string): VersionRow => {
  const r = PROTOCOL_VERSIONS.find((x) => x.version === v);
  assert.ok(r, v);
  return r;
};
const V10 = row('1.0');

/** A 1.1 that reuses 1.0's wire everywhere: the only new thing is the row. */
const SAME_WIRE = compileVersions([...PROTOCOL_VERSIONS, { ...V10, version: '1.1' }]);

/**
 * A 1.1 served under its own REST prefix and gRPC package, with one new JSON-RPC alias: still
 * only a row (its operations, names and shapes are 1.0's).
 */
const OWN_WIRE = compileVersions([
  ...PROTOCOL_VERSIONS,
  {
    version: '1.1',
    family: '1',
    jsonRpcMethods: { ...V10.jsonRpcMethods, SendMessageV2: 'SendMessage' },
    rest: { prefix: '/v2', operations: V10.rest?.operations ?? [] },
    grpc: { service: 'lf.a2a.v2.A2AService', methods: V10.grpc?.methods ?? {} },
    resultShapes: V10.resultShapes,
  },
]);

const rpc = (method: string, params: unknown = {}): unknown => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params,
});
const sendParams = {
  message: {
    messageId: 'm1',
    taskId: 't1',
    contextId: 'c1',
    role: 'ROLE_USER',
    parts: [{ text: 'hi' }],
    metadata: { skillId: 'summarise' },
  },
};

test('the default table is the versions the decoders knew: 0.1, 0.2, 0.3, 1.0 and their names', () => {
  assert.deepEqual(
    PROTOCOL_VERSIONS.map((r) => r.version),
    ['0.1', '0.2', '0.3', '1.0'],
  );
  // 32 JSON-RPC names, 14 gRPC method names, two gRPC services, one REST prefix besides none
  assert.equal(VERSION_TABLE.jsonRpc.size, 32);
  assert.equal(VERSION_TABLE.grpcMethods.size, 14);
  assert.deepEqual(A2A_GRPC_SERVICES, {
    'a2a.v1.A2AService': '0.3',
    'lf.a2a.v1.A2AService': '1.0',
  });
  assert.deepEqual(VERSION_TABLE.restPrefixes, ['/v1']);
  const m = (name: string) => VERSION_TABLE.jsonRpc.get(name);
  assert.deepEqual(m('tasks/get')?.versions, ['0.1', '0.2', '0.3']);
  assert.equal(m('tasks/get')?.version, undefined);
  assert.equal(m('tasks/send')?.version, '0.1');
  assert.equal(m('tasks/send')?.taskSendParams, true);
  assert.equal(m('tasks/get')?.taskSendParams, false);
  assert.deepEqual(m('message/send')?.versions, ['0.2', '0.3']);
  assert.equal(m('agent/getAuthenticatedExtendedCard')?.version, '0.3');
  assert.equal(m('SetTaskPushNotificationConfig')?.op, 'CreateTaskPushNotificationConfig');
  assert.equal(m('SendMessage')?.version, '1.0');
  assert.equal(m('SendMessage')?.family, '1');
});

test('restVersion: prefix, operation, card path and header, as the HTTP+JSON decoder had them', () => {
  const v = (op: Parameters<typeof restVersion>[1], prefix: string, card: boolean, h?: string) =>
    restVersion(VERSION_TABLE, op, prefix, card, h);
  assert.equal(v('SendMessage', '', false), '1.0');
  assert.equal(v('SendMessage', '/v1', false), '0.3');
  assert.equal(v('ListTasks', '/v1', false), undefined); // 0.3 REST had no ListTasks
  assert.equal(v('GetExtendedAgentCard', '/v1', false), undefined);
  assert.equal(v('GetExtendedAgentCard', '/v1', true), '0.3');
  assert.equal(v('GetExtendedAgentCard', '/v1', true, '1.0'), undefined);
  assert.equal(v('SendMessage', '/v1', false, '1.2'), '1.2'); // a 1.x base path may end in /v1
  assert.equal(v('SendMessage', '/v1', false, '0.3.0'), '0.3');
  assert.equal(v('SendMessage', '', false, '0.3'), undefined); // 0.3 REST always had /v1
  assert.equal(v('SendMessage', '/v1', false, '0.1'), undefined); // 0.1 had no REST
});

test('a row reusing 1.0 wire: requests of 1.1 decode on every binding, told by the A2A-Version header', () => {
  const j = decodeJsonRpcRequest(rpc('SendMessage', sendParams), undefined, '1.1', SAME_WIRE);
  assert.equal(j?.operation, 'SendMessage');
  assert.equal(j?.protocolVersion, '1.1');
  assert.equal(j?.taskId, 't1');
  assert.equal(j?.skillId, 'summarise');
  // Without the header the name no longer tells 1.0 from 1.1 (as with 0.2 and 0.3)
  const bare = decodeJsonRpcRequest(
    rpc('SendMessage', sendParams),
    undefined,
    undefined,
    SAME_WIRE,
  );
  assert.equal(bare?.operation, 'SendMessage');
  assert.equal(bare?.protocolVersion, undefined);
  assert.equal(
    withJsonRpcVersionHeader(bare as DecodedRequest, '1.1', SAME_WIRE).protocolVersion,
    '1.1',
  );
  // while 0.x names are untouched by the new row
  assert.equal(
    decodeJsonRpcRequest(rpc('tasks/send', { id: 't' }), undefined, undefined, SAME_WIRE)
      ?.protocolVersion,
    '0.1',
  );

  const r = decodeHttpJsonRequest(
    'POST',
    '/a2a/message:send',
    sendParams,
    undefined,
    '1.1',
    SAME_WIRE,
  );
  assert.equal(r?.operation, 'SendMessage');
  assert.equal(r?.protocolVersion, '1.1');
  assert.equal(
    decodeHttpJsonRequest('POST', '/a2a/message:send', sendParams, undefined, undefined, SAME_WIRE)
      ?.protocolVersion,
    undefined,
  );
  assert.equal(
    decodeHttpJsonRequest('POST', '/v1/message:send', sendParams, undefined, undefined, SAME_WIRE)
      ?.protocolVersion,
    '0.3',
  );

  // One gRPC service now serves two versions: the service name no longer tells which
  const g = decodeGrpcRequest(
    '/lf.a2a.v1.A2AService/GetTask',
    { name: 'tasks/t9' },
    undefined,
    SAME_WIRE,
  );
  assert.equal(g?.operation, 'GetTask');
  assert.equal(g?.taskId, 't9');
  assert.equal(g?.protocolVersion, undefined);
});

test('a row with its own REST prefix, gRPC package and alias: its requests decode as 1.1, 1.0 as before', () => {
  const r = decodeHttpJsonRequest(
    'POST',
    '/a2a/v2/message:send',
    sendParams,
    undefined,
    undefined,
    OWN_WIRE,
  );
  assert.equal(r?.operation, 'SendMessage');
  assert.equal(r?.wireMethod, 'POST /v2/message:send');
  assert.equal(r?.protocolVersion, '1.1');
  assert.equal(r?.taskId, 't1');
  const c = decodeHttpJsonRequest(
    'POST',
    '/a2a/v2/tasks/t7:cancel',
    undefined,
    undefined,
    undefined,
    OWN_WIRE,
  );
  assert.equal(c?.operation, 'CancelTask');
  assert.equal(c?.wireMethod, 'POST /v2/tasks/{id}:cancel');
  assert.equal(c?.taskId, 't7');
  assert.equal(c?.protocolVersion, '1.1');
  assert.equal(
    decodeHttpJsonRequest('POST', '/a2a/message:send', sendParams, undefined, undefined, OWN_WIRE)
      ?.protocolVersion,
    '1.0',
  );
  assert.equal(
    decodeHttpJsonRequest('POST', '/v1/message:send', sendParams, undefined, undefined, OWN_WIRE)
      ?.protocolVersion,
    '0.3',
  );
  // The default table knows no /v2: the same path is a 1.0 call whose base path ends in /v2
  const d = decodeHttpJsonRequest('POST', '/a2a/v2/message:send', sendParams);
  assert.equal(d?.wireMethod, 'POST /message:send');
  assert.equal(d?.protocolVersion, '1.0');

  const g = decodeGrpcRequest('/lf.a2a.v2.A2AService/SendMessage', sendParams, undefined, OWN_WIRE);
  assert.equal(g?.operation, 'SendMessage');
  assert.equal(g?.protocolVersion, '1.1');
  assert.equal(g?.skillId, 'summarise');
  assert.equal(decodeGrpcRequest('/lf.a2a.v2.A2AService/SendMessage', sendParams), undefined);
  assert.equal(
    decodeGrpcRequest('/lf.a2a.v1.A2AService/SendMessage', sendParams, undefined, OWN_WIRE)
      ?.protocolVersion,
    '1.0',
  );

  const alias = decodeJsonRpcRequest(
    rpc('SendMessageV2', sendParams),
    undefined,
    undefined,
    OWN_WIRE,
  );
  assert.equal(alias?.operation, 'SendMessage');
  assert.equal(alias?.protocolVersion, '1.1'); // only the 1.1 row lists the name
  assert.equal(alias?.messageId, 'm1');
  assert.equal(decodeJsonRpcRequest(rpc('SendMessageV2', sendParams)), undefined);
  assert.equal(looksLikeRestPath('/a2a/v2/message:send'), true);
});

test('results of a version added as a row decode; shapes shared with 1.0 leave the version open', () => {
  const req: DecodedRequest = {
    operation: 'SendMessage',
    wireMethod: 'SendMessage',
    binding: 'jsonrpc',
    streaming: false,
    protocolVersion: '1.1',
  };
  const body = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      task: {
        id: 't1',
        contextId: 'c1',
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ artifactId: 'a1', parts: [{ text: '# hi', mediaType: 'text/markdown' }] }],
      },
    },
  };
  for (const table of [SAME_WIRE, OWN_WIRE]) {
    const r = decodeResponse(body, req, 200, table);
    assert.equal(r.kind, 'task');
    assert.equal(r.state, 'TASK_STATE_COMPLETED');
    assert.equal(r.taskId, 't1');
    assert.deepEqual(r.artifacts, [
      { artifactId: 'a1', parts: [{ kind: 'text', mediaType: 'text/markdown' }] },
    ]);
    assert.equal(r.problem, undefined);
    // 1.0's shapes are 1.1's too: they no longer pin one version
    assert.equal(r.protocolVersion, undefined);
    // the other versions' shapes still do
    const old = decodeStreamEvent(
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'working' }, final: false } },
      { ...req, operation: 'SendStreamingMessage', streaming: true, protocolVersion: '0.1' },
      undefined,
      table,
    );
    assert.equal(old.kind, 'status-update');
    assert.equal(old.protocolVersion, '0.1');
  }
  // the default table: 1.0
  assert.equal(decodeResponse(body, req, 200).protocolVersion, '1.0');
});
