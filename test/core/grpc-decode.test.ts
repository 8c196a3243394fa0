/** core/protocol/grpc.ts: targets, requests, messages and statuses of the gRPC binding. Pure. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeGrpcRequest,
  decodeGrpcStatus,
  decodeGrpcStreamMessage,
  errorInfoReason,
  grpcTargetUrl,
  isA2AGrpcService,
  protoToJson,
} from '../../src/core/protocol/grpc';

test('channel targets as grpc://host:port', () => {
  assert.equal(grpcTargetUrl('127.0.0.1:50051'), 'grpc://127.0.0.1:50051');
  assert.equal(grpcTargetUrl('localhost:7'), 'grpc://localhost:7');
  assert.equal(grpcTargetUrl('dns:///Agent.Example:443'), 'grpc://agent.example:443');
  assert.equal(grpcTargetUrl('ipv4:10.0.0.1:9,10.0.0.2:9'), 'grpc://10.0.0.1:9');
  assert.equal(grpcTargetUrl('[::1]:5'), 'grpc://[::1]:5');
  assert.equal(grpcTargetUrl('grpc://h:5'), 'grpc://h:5');
  assert.equal(grpcTargetUrl('agent.example'), 'grpc://agent.example:443');
  for (const bad of ['', 'unix:/tmp/s', 'h:99999', 'a b:1', 42, undefined, 'x'.repeat(600)])
    assert.equal(grpcTargetUrl(bad), undefined, String(bad).slice(0, 20));
});

test('services by full name; requests decoded from the SDK objects', () => {
  assert.equal(isA2AGrpcService('lf.a2a.v1.A2AService'), true);
  assert.equal(isA2AGrpcService('a2a.v1.A2AService'), true);
  assert.equal(isA2AGrpcService('A2AService'), false);
  assert.equal(isA2AGrpcService('__proto__'), false);
  const req = decodeGrpcRequest('/lf.a2a.v1.A2AService/SendMessage', {
    tenant: '',
    message: {
      messageId: 'm1',
      taskId: '',
      role: 1,
      parts: [{ content: { $case: 'text', value: 'hi' }, filename: '', mediaType: 'text/plain' }],
      metadata: { skillId: 'summarize-v2' },
    },
    metadata: undefined,
  });
  assert.equal(req?.operation, 'SendMessage');
  assert.equal(req?.binding, 'grpc');
  assert.equal(req?.protocolVersion, '1.0');
  assert.equal(req?.skillId, 'summarize-v2');
  assert.equal(req?.messageId, 'm1');
  assert.equal(req?.taskId, undefined);
  assert.deepEqual(req?.messageParts, [{ kind: 'text', mediaType: 'text/plain' }]);
  const get = decodeGrpcRequest('/a2a.v1.A2AService/GetTask', { name: 'tasks/t-9' });
  assert.equal(get?.taskId, 't-9');
  assert.equal(get?.protocolVersion, '0.3');
  assert.equal(decodeGrpcRequest('/test.Echo/Ping', {}), undefined);
  assert.equal(decodeGrpcRequest('/lf.a2a.v1.A2AService/Nope', {}), undefined);
  assert.equal(decodeGrpcRequest(undefined, undefined), undefined);
});

test('stream messages: $case payloads, numeric states; bounded on deep input', () => {
  const ev = decodeGrpcStreamMessage(
    {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: 't',
          contextId: 'c',
          status: {
            state: 4,
            message: {
              role: 2,
              parts: [{ content: { $case: 'text', value: 'unknown skill: x' }, mediaType: '' }],
            },
          },
        },
      },
    },
    decodeGrpcRequest('/lf.a2a.v1.A2AService/SendStreamingMessage', {})!,
  );
  assert.equal(ev.kind, 'status-update');
  assert.equal(ev.state, 'TASK_STATE_FAILED');
  assert.match(ev.statusText ?? '', /unknown skill: x/);
  let deep: Record<string, unknown> = {};
  const root = deep;
  for (let i = 0; i < 10_000; i++) deep = (deep['a'] = {}) as Record<string, unknown>;
  assert.doesNotThrow(() => protoToJson(root));
});

test('statuses: code, details, the ErrorInfo reason from grpc-status-details-bin', () => {
  // google.rpc.Status { code: 5, details: [Any { type_url, value: ErrorInfo { reason } }] }
  const reason = Buffer.from('TASK_NOT_FOUND');
  const info = Buffer.concat([Buffer.from([0x0a, reason.length]), reason]);
  const type = Buffer.from('type.googleapis.com/google.rpc.ErrorInfo');
  const any = Buffer.concat([
    Buffer.from([0x0a, type.length]),
    type,
    Buffer.from([0x12, info.length]),
    info,
  ]);
  const status = Buffer.concat([Buffer.from([0x08, 5, 0x1a, any.length]), any]);
  assert.equal(errorInfoReason(status), 'TASK_NOT_FOUND');
  assert.equal(errorInfoReason(Buffer.from([0x1a, 0xff])), undefined);
  const r = decodeGrpcStatus(5, 'task not found', status);
  assert.deepEqual(r.error, { code: 5, message: 'task not found', reason: 'TASK_NOT_FOUND' });
  assert.equal(decodeGrpcStatus(3, '').error?.reason, 'INVALID_ARGUMENT');
});

test('0.3 proto objects (a2a.v1.A2AService): status `update`, `content` parts, `msg`, file parts with mimeType', () => {
  const req = decodeGrpcRequest('/a2a.v1.A2AService/SendStreamingMessage', {
    request: { messageId: 'm', role: 1, content: [{ part: { $case: 'text', value: 'hi' } }] },
    metadata: { skillId: 'translate' },
  })!;
  assert.equal(req.protocolVersion, '0.3');
  assert.equal(req.skillId, 'translate');
  // the SDK's 0.3 server fails the task with a status message: TaskStatus.update (json "message")
  const ev = decodeGrpcStreamMessage(
    {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: 't',
          contextId: 'c',
          status: {
            state: 4,
            update: { role: 2, content: [{ part: { $case: 'text', value: 'unknown skill: x' } }] },
            timestamp: undefined,
          },
          final: true,
        },
      },
    },
    req,
  );
  assert.equal(ev.kind, 'status-update');
  assert.equal(ev.state, 'TASK_STATE_FAILED');
  assert.equal(ev.statusText, 'unknown skill: x');
  // a file part: its mimeType is the media type (variant B over 0.3)
  const art = decodeGrpcStreamMessage(
    {
      payload: {
        $case: 'artifactUpdate',
        value: {
          taskId: 't',
          artifact: {
            artifactId: 'a',
            parts: [
              {
                part: {
                  $case: 'file',
                  value: {
                    file: { $case: 'fileWithBytes', value: new Uint8Array(3) },
                    mimeType: 'image/png',
                    name: '',
                  },
                },
              },
            ],
          },
        },
      },
    },
    req,
  );
  assert.equal(art.kind, 'artifact-update');
  assert.deepEqual(
    art.artifacts.flatMap((a) => a.parts.map((p) => p.mediaType)),
    ['image/png'],
  );
  // an object with `update` but no `state` is not a TaskStatus: left as it is
  assert.deepEqual(protoToJson({ update: { x: 1 } }), { update: { x: 1 } });
});

test('push webhooks registered over gRPC (1.0 and 0.3 shapes): path, authority, a secret digest; none without a config', () => {
  const url = 'http://127.0.0.1:9999/hooks/a2a?x=1';
  const cases: Array<[string, unknown]> = [
    [
      '/lf.a2a.v1.A2AService/SendMessage',
      {
        message: { messageId: 'm', content: [] },
        configuration: { taskPushNotificationConfig: { url, token: 'tok' } },
      },
    ],
    [
      '/lf.a2a.v1.A2AService/CreateTaskPushNotificationConfig',
      { tenant: '', id: '', taskId: 't1', url, token: 'tok' },
    ],
    [
      '/a2a.v1.A2AService/SendMessage',
      { request: { messageId: 'm' }, configuration: { pushNotification: { url, token: 'tok' } } },
    ],
    [
      '/a2a.v1.A2AService/CreateTaskPushNotificationConfig',
      {
        parent: 'tasks/t1',
        configId: 'c',
        config: { name: '', pushNotificationConfig: { url, token: 'tok' } },
      },
    ],
  ];
  for (const [path, body] of cases) {
    const req = decodeGrpcRequest(path, body)!;
    assert.ok(req.pushWebhook, path);
    assert.equal(req.pushWebhook.pathKey, '/hooks/a2a?x=1', path);
    assert.equal(req.pushWebhook.authority, '127.0.0.1:9999', path);
    assert.equal(req.pushWebhook.secrets.length, 1, path);
    if (path.endsWith('Config')) assert.equal(req.taskId, 't1', path);
  }
  assert.equal(
    decodeGrpcRequest('/lf.a2a.v1.A2AService/SendMessage', { message: {} })!.pushWebhook,
    undefined,
  );
  assert.equal(
    decodeGrpcRequest('/a2a.v1.A2AService/SendMessage', { configuration: { pushNotification: 7 } })!
      .pushWebhook,
    undefined,
  );
});

test("a2a-go's gRPC statuses: the error sentinel ending the details names the A2A error (its toGRPCError drops the code)", () => {
  // ErrInvalidParams → INTERNAL, the wrapped text ending with the sentinel's
  assert.deepEqual(
    decodeGrpcStatus(
      13,
      `skill "summarize": 'max_words' must be a positive integer: invalid params`,
    ).error?.reason,
    'INVALID_PARAMS',
  );
  assert.equal(decodeGrpcStatus(13, 'invalid params').error?.reason, 'INVALID_PARAMS');
  // ErrUnsupportedContentType → INVALID_ARGUMENT, like a malformed request
  assert.equal(
    decodeGrpcStatus(3, 'skill "s": cannot produce application/pdf: incompatible content types')
      .error?.reason,
    'CONTENT_TYPE_NOT_SUPPORTED',
  );
  // only the whole text or after ": ", case-sensitive; otherwise the status name
  for (const [code, details, reason] of [
    [13, 'the invalid params check failed', 'INTERNAL'],
    [13, 'unknown skill: translate', 'INTERNAL'],
    [13, 'x: Invalid Params', 'INTERNAL'],
    [13, 'xinvalid params', 'INTERNAL'],
    [3, 'bad request', 'INVALID_ARGUMENT'],
    [2, undefined, 'UNKNOWN'],
  ] as const)
    assert.equal(decodeGrpcStatus(code, details).error?.reason, reason, details);
  // a google.rpc.ErrorInfo in grpc-status-details-bin wins over the text
  const errorInfo = Buffer.concat([Buffer.from([0x0a, 14]), Buffer.from('TASK_NOT_FOUND')]);
  const any = Buffer.concat([
    Buffer.from([0x0a, 40]),
    Buffer.from('type.googleapis.com/google.rpc.ErrorInfo'),
    Buffer.from([0x12, errorInfo.length]),
    errorInfo,
  ]);
  const status = Buffer.concat([Buffer.from([0x1a, any.length]), any]);
  assert.equal(decodeGrpcStatus(13, 'x: invalid params', status).error?.reason, 'TASK_NOT_FOUND');
  // bounded: a huge text is not scanned
  assert.equal(
    decodeGrpcStatus(13, `${'x'.repeat(5000)}: invalid params`).error?.reason,
    'INTERNAL',
  );
});
