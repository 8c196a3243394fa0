import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeResponse, decodeStreamEvent, resultPayload } from '../../src/core/protocol/results';
import {
  decodePart,
  MAX_ARTIFACTS,
  MAX_PARTS,
  MAX_STATUS_TEXT,
} from '../../src/core/protocol/result-parts';
import { isTerminalState, normaliseTaskState } from '../../src/core/protocol/task-states';
import type { DecodedRequest, DecodedResult, OperationName } from '../../src/core/model';

function rpcReq(operation: OperationName, protocolVersion?: string): DecodedRequest {
  const r: DecodedRequest = {
    operation,
    wireMethod: operation,
    binding: 'jsonrpc',
    streaming: operation === 'SendStreamingMessage' || operation === 'SubscribeToTask',
  };
  if (protocolVersion) r.protocolVersion = protocolVersion;
  return r;
}
function restReq(operation: OperationName, wireMethod: string): DecodedRequest {
  return {
    operation,
    wireMethod,
    binding: 'http+json',
    streaming: operation === 'SendStreamingMessage' || operation === 'SubscribeToTask',
  };
}
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// ---------------------------------------------------------------------------
// 1.0 (observed from @a2a-js/sdk 1.3.0)
// ---------------------------------------------------------------------------

test('1.0 JSON-RPC SendMessage → {task}: completed task with a text/markdown artifact', () => {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      task: {
        id: '8494bc2d-af3b-4d7e-a557-fca1bd5d0deb',
        contextId: '86a524fe-d06f-489e-8fe6-5f64bb4fe72d',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-12-02T11:11:19.522Z' },
        artifacts: [
          {
            artifactId: '988defca-7b3b-44ca-8402-4d20a625b470',
            name: 'summarize-v2-result',
            parts: [
              {
                text: '## summarize-v2\n\n- result from **summarize-v2**\n',
                mediaType: 'text/markdown',
              },
            ],
          },
        ],
        history: [{ messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }],
        metadata: { skillId: 'summarize-v2' },
      },
    },
  };
  assert.deepEqual(decodeResponse(body, rpcReq('SendMessage', '1.0'), 200), {
    kind: 'task',
    taskId: '8494bc2d-af3b-4d7e-a557-fca1bd5d0deb',
    contextId: '86a524fe-d06f-489e-8fe6-5f64bb4fe72d',
    state: 'TASK_STATE_COMPLETED',
    artifacts: [
      {
        artifactId: '988defca-7b3b-44ca-8402-4d20a625b470',
        parts: [{ kind: 'text', mediaType: 'text/markdown' }],
      },
    ],
    artifactText: '## summarize-v2\n\n- result from **summarize-v2**\n', // for the judge only
    protocolVersion: '1.0',
  });
});

test('1.0 failure inside the lifecycle (HTTP 200, no JSON-RPC error): FAILED + status text', () => {
  const body = {
    jsonrpc: '2.0',
    id: 2,
    result: {
      task: {
        id: 'cbc778d8',
        contextId: 'e67446f5',
        status: {
          state: 'TASK_STATE_FAILED',
          message: {
            messageId: '9b7e1dc7',
            role: 'ROLE_AGENT',
            parts: [{ text: 'unknown skill: translate', mediaType: 'text/plain' }],
          },
        },
      },
    },
  };
  const r = decodeResponse(body, rpcReq('SendMessage'));
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(r.statusText, 'unknown skill: translate');
  assert.deepEqual(r.artifacts, []);
  assert.equal(r.problem, undefined);
  // also without the request (shape only)
  assert.equal(decodeResponse(body).state, 'TASK_STATE_FAILED');
});

test('1.0 JSON-RPC stream: task, statusUpdate, artifactUpdate, terminal statusUpdate', () => {
  const req = rpcReq('SendStreamingMessage');
  const events = [
    {
      jsonrpc: '2.0',
      id: 3,
      result: { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } },
    },
    {
      jsonrpc: '2.0',
      id: 3,
      result: {
        statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
      },
    },
    {
      jsonrpc: '2.0',
      id: 3,
      result: {
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: {
            artifactId: 'a-1',
            name: 'translate-v1-result',
            parts: [{ text: 'result', mediaType: 'text/plain' }],
          },
          lastChunk: true,
        },
      },
    },
    {
      jsonrpc: '2.0',
      id: 3,
      result: {
        statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } },
      },
    },
  ];
  const d = events.map((e) => decodeStreamEvent(e, req));
  assert.deepEqual(
    d.map((x) => x.kind),
    ['task', 'status-update', 'artifact-update', 'status-update'],
  );
  assert.deepEqual(
    d.map((x) => x.state),
    ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', undefined, 'TASK_STATE_COMPLETED'],
  );
  assert.deepEqual(
    d.map((x) => x.final),
    [undefined, undefined, undefined, true],
  );
  assert.deepEqual(d[2].artifacts, [
    { artifactId: 'a-1', parts: [{ kind: 'text', mediaType: 'text/plain' }] },
  ]);
  assert.ok(
    d.every(
      (x) =>
        x.taskId === 't' &&
        x.contextId === 'c' &&
        x.protocolVersion === '1.0' &&
        x.problem === undefined,
    ),
  );
});

test('1.0 {message} result: parts exposed as messageParts; in a stream a Message ends it', () => {
  const body = {
    jsonrpc: '2.0',
    id: 9,
    result: {
      message: {
        messageId: 'r-1',
        contextId: 'c',
        role: 'ROLE_AGENT',
        parts: [
          { text: 'hi', mediaType: 'text/markdown' },
          { url: 'https://x/doc.pdf', filename: 'doc.pdf', mediaType: 'application/pdf' },
          { raw: 'iVBORw0KGgo=', mediaType: 'image/png' },
          { data: { a: 1 } },
          { url: 'https://x/unknown' },
          { something: 1 },
        ],
      },
    },
  };
  const r = decodeResponse(body, rpcReq('SendMessage'));
  assert.equal(r.kind, 'message');
  assert.equal(r.contextId, 'c');
  assert.deepEqual(r.messageParts, [
    { kind: 'text', mediaType: 'text/markdown' },
    { kind: 'file', mediaType: 'application/pdf' },
    { kind: 'file', mediaType: 'image/png' },
    { kind: 'data' },
    { kind: 'file' },
    { kind: 'unknown' },
  ]);
  assert.equal(r.final, undefined);
  assert.equal(decodeStreamEvent(body, rpcReq('SendStreamingMessage')).final, true);
});

test('1.0 GetTask / CancelTask: bare Task; ListTasks: task-list', () => {
  const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELED' } };
  const g = decodeResponse({ jsonrpc: '2.0', id: 4, result: task }, rpcReq('GetTask'));
  assert.equal(g.kind, 'task');
  assert.equal(g.state, 'TASK_STATE_CANCELED');
  assert.equal(g.protocolVersion, '1.0');
  const c = decodeResponse(task, restReq('CancelTask', 'POST /tasks/{id}:cancel'), 200);
  assert.equal(c.kind, 'task');
  assert.equal(c.state, 'TASK_STATE_CANCELED');
  const l = decodeResponse(
    {
      jsonrpc: '2.0',
      id: 6,
      result: { tasks: [task, task], nextPageToken: '', pageSize: 2, totalSize: 2 },
    },
    rpcReq('ListTasks'),
  );
  assert.equal(l.kind, 'task-list');
  assert.equal(l.state, undefined);
  assert.equal(l.problem, undefined);
  assert.equal(
    decodeResponse({ tasks: 'no' }, restReq('ListTasks', 'GET /tasks')).problem,
    'tasks is not an array',
  );
});

test('1.0 errors: JSON-RPC error with ErrorInfo data; REST google.rpc.Status body', () => {
  const e = decodeResponse(
    {
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32001,
        message: 'Task not found: missing',
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    },
    rpcReq('GetTask'),
  );
  assert.equal(e.kind, 'error');
  assert.equal(e.error?.code, -32001);
  assert.equal(e.error?.message, 'Task not found: missing');
  assert.equal(e.error?.reason, 'TASK_NOT_FOUND');
  assert.equal(e.state, undefined);

  const rest = decodeResponse(
    {
      error: {
        code: 404,
        status: 'NOT_FOUND',
        message: 'Task not found: missing',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'TASK_NOT_FOUND',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    },
    restReq('GetTask', 'GET /tasks/{id}'),
    404,
  );
  assert.equal(rest.kind, 'error');
  assert.deepEqual(rest.error, {
    code: 404,
    message: 'Task not found: missing',
    data: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
      },
    ],
    reason: 'TASK_NOT_FOUND',
  });
  const noDetails = decodeResponse(
    { error: { code: 400, status: 'FAILED_PRECONDITION', message: 'x' } },
    restReq('SendMessage', 'POST /message:send'),
  );
  assert.equal(noDetails.error?.reason, 'FAILED_PRECONDITION');
});

test('1.0 REST stream: bare events; `event: error` carries a REST error', () => {
  const req = restReq('SendStreamingMessage', 'POST /message:stream');
  const ev = decodeStreamEvent(
    { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_FAILED' } } },
    req,
  );
  assert.equal(ev.kind, 'status-update');
  assert.equal(ev.final, true);
  const err = decodeStreamEvent(
    { error: { code: 500, status: 'INTERNAL', message: 'boom', details: [] } },
    req,
    'error',
  );
  assert.equal(err.kind, 'error');
  assert.equal(err.error?.code, 500);
  assert.equal(err.error?.message, 'boom');
  const weird = decodeStreamEvent('not an object', req, 'error');
  assert.equal(weird.kind, 'error');
  assert.ok(weird.problem);
});

// ---------------------------------------------------------------------------
// 0.3 JSON-RPC (kind discriminator) and 0.3 HTTP+JSON (proto JSON)
// ---------------------------------------------------------------------------

test('0.3 JSON-RPC message/send → kind:task, lowercase states, kind parts without media type', () => {
  const body = {
    jsonrpc: '2.0',
    id: 11,
    result: {
      kind: 'task',
      id: '8c70338e',
      contextId: '8e75e883',
      status: { state: 'completed', timestamp: '2026-12-02T11:11:19.624Z' },
      history: [
        {
          kind: 'message',
          messageId: 'm-1',
          role: 'user',
          parts: [{ kind: 'text', text: 'hello' }],
        },
      ],
      artifacts: [
        {
          artifactId: '05b778e4',
          parts: [{ kind: 'text', text: '## summary' }],
          name: 'summarize-v2-result',
        },
      ],
      metadata: { skillId: 'summarize-v2' },
    },
  };
  const r = decodeResponse(body, rpcReq('SendMessage'));
  assert.deepEqual(r, {
    kind: 'task',
    taskId: '8c70338e',
    contextId: '8e75e883',
    state: 'TASK_STATE_COMPLETED',
    artifacts: [{ artifactId: '05b778e4', parts: [{ kind: 'text' }] }],
    artifactText: '## summary', // for the judge only
    versionFamily: '0', // 0.2 and 0.3 cannot be told apart, but both are 0.x
  });
  assert.equal(r.protocolVersion, undefined);
});

test('fasta2a: a 1.0 `result.task` wrapper with 0.3 lowercase states tells neither a version nor a family', () => {
  const r = decodeResponse(
    {
      jsonrpc: '2.0',
      id: 1,
      result: { task: { id: 't', contextId: 'c', status: { state: 'submitted' } } },
    },
    rpcReq('SendMessage'),
  );
  assert.equal(r.taskId, 't');
  assert.equal(r.protocolVersion, undefined);
  assert.equal(r.versionFamily, undefined, 'the shapes disagree: the card decides');
});

test('0.3 JSON-RPC stream: final flags, failed status text', () => {
  const req = rpcReq('SendStreamingMessage');
  const working = decodeStreamEvent(
    {
      id: 13,
      jsonrpc: '2.0',
      result: {
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: { state: 'working' },
        final: false,
      },
    },
    req,
  );
  assert.equal(working.kind, 'status-update');
  assert.equal(working.state, 'TASK_STATE_WORKING');
  assert.equal(working.final, undefined);
  const inputRequired = decodeStreamEvent(
    {
      id: 13,
      jsonrpc: '2.0',
      result: {
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: { state: 'input-required' },
        final: true,
      },
    },
    req,
  );
  assert.equal(inputRequired.state, 'TASK_STATE_INPUT_REQUIRED');
  assert.equal(inputRequired.final, true);
  const art = decodeStreamEvent(
    {
      id: 13,
      jsonrpc: '2.0',
      result: {
        kind: 'artifact-update',
        taskId: 't',
        contextId: 'c',
        artifact: {
          artifactId: 'a',
          parts: [{ kind: 'file', file: { uri: 'https://x/y.png', mimeType: 'image/png' } }],
        },
        append: false,
        lastChunk: true,
      },
    },
    req,
  );
  assert.deepEqual(art.artifacts, [
    { artifactId: 'a', parts: [{ kind: 'file', mediaType: 'image/png' }] },
  ]);
  const failed = decodeStreamEvent(
    {
      id: 13,
      jsonrpc: '2.0',
      result: {
        kind: 'status-update',
        taskId: 't',
        contextId: 'c',
        status: {
          state: 'failed',
          message: {
            kind: 'message',
            messageId: 'x',
            role: 'agent',
            parts: [
              { kind: 'text', text: 'unknown skill:' },
              { kind: 'data', data: {} },
              { kind: 'text', text: 'nope' },
            ],
          },
        },
        final: true,
      },
    },
    req,
  );
  assert.equal(failed.state, 'TASK_STATE_FAILED');
  assert.equal(failed.statusText, 'unknown skill: nope');
  assert.equal(failed.final, true);
});

test('0.3 HTTP+JSON (proto JSON): wrappers, `content`, TASK_STATE_CANCELLED, `final` → 0.3', () => {
  const req = restReq('SendStreamingMessage', 'POST /v1/message:stream');
  const ev = decodeStreamEvent(
    {
      statusUpdate: {
        taskId: 'e24afe17',
        contextId: '925f37b0',
        status: {
          state: 'TASK_STATE_FAILED',
          message: {
            messageId: '4186a821',
            role: 'ROLE_AGENT',
            content: [{ text: 'unknown skill: nope' }],
          },
        },
        final: true,
      },
    },
    req,
  );
  assert.equal(ev.kind, 'status-update');
  assert.equal(ev.state, 'TASK_STATE_FAILED');
  assert.equal(ev.statusText, 'unknown skill: nope');
  assert.equal(ev.final, true);
  assert.equal(ev.protocolVersion, '0.3');

  const send = decodeResponse(
    {
      task: {
        id: 't',
        contextId: 'c',
        status: { state: 'TASK_STATE_CANCELLED' },
        artifacts: [
          {
            artifactId: 'a',
            parts: [
              { file: { fileWithUri: 'https://x/y.pdf', mimeType: 'application/pdf' } },
              { data: { data: { k: 1 } } },
              { text: 'x' },
            ],
          },
        ],
      },
    },
    restReq('SendMessage', 'POST /v1/message:send'),
    201,
  );
  assert.equal(send.state, 'TASK_STATE_CANCELED');
  assert.deepEqual(send.artifacts[0].parts, [
    { kind: 'file', mediaType: 'application/pdf' },
    { kind: 'data' },
    { kind: 'text' },
  ]);
  assert.equal(send.protocolVersion, '0.3');

  const err = decodeResponse(
    { code: -32001, message: 'Task not found: missing' },
    restReq('GetTask', 'GET /v1/tasks/{id}'),
    404,
  );
  assert.deepEqual(err.error, { code: -32001, message: 'Task not found: missing' });
  assert.equal(err.kind, 'error');
});

// ---------------------------------------------------------------------------
// 0.2 and 0.1
// ---------------------------------------------------------------------------

test('0.2 shapes: kind message result with file and data parts; 0.2 states', () => {
  const r = decodeResponse(
    {
      jsonrpc: '2.0',
      id: 'x',
      result: {
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        contextId: 'c',
        parts: [
          { kind: 'text', text: 'here' },
          { kind: 'file', file: { name: 'a.csv', mimeType: 'text/csv', bytes: 'YQ==' } },
          { kind: 'file', file: { uri: 'https://x/unknown' } },
          { kind: 'data', data: { rows: 1 } },
          { kind: 'video' },
        ],
      },
    },
    rpcReq('SendMessage'),
  );
  assert.equal(r.kind, 'message');
  assert.deepEqual(r.messageParts, [
    { kind: 'text' },
    { kind: 'file', mediaType: 'text/csv' },
    { kind: 'file' },
    { kind: 'data' },
    { kind: 'unknown' },
  ]);
  for (const [s, want] of [
    ['rejected', 'TASK_STATE_REJECTED'],
    ['auth-required', 'TASK_STATE_AUTH_REQUIRED'],
    ['cancelled', 'TASK_STATE_CANCELED'],
  ] as const) {
    const t = decodeResponse(
      {
        jsonrpc: '2.0',
        id: 1,
        result: { kind: 'task', id: 't', contextId: 'c', status: { state: s } },
      },
      rpcReq('GetTask'),
    );
    assert.equal(t.state, want);
  }
});

test('0.1 tasks/send result: bare Task with sessionId and type parts → 0.1', () => {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      id: 'de38c76d',
      sessionId: 'c295ea44',
      status: {
        state: 'failed',
        message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] },
        timestamp: '2025-04-02T16:53:29.301Z',
      },
      artifacts: [
        {
          name: 'joke',
          index: 0,
          parts: [
            { type: 'text', text: 'Why did the chicken…' },
            { type: 'file', file: { mimeType: 'image/png', bytes: 'iVBO' } },
          ],
        },
      ],
      metadata: {},
    },
  };
  const r = decodeResponse(body, rpcReq('SendMessage', '0.1'));
  assert.deepEqual(r, {
    kind: 'task',
    taskId: 'de38c76d',
    contextId: 'c295ea44',
    state: 'TASK_STATE_FAILED',
    statusText: 'unknown skill',
    artifacts: [{ parts: [{ kind: 'text' }, { kind: 'file', mediaType: 'image/png' }] }],
    artifactText: 'Why did the chicken…',
    protocolVersion: '0.1',
  });
});

test('0.1 tasks/sendSubscribe stream events: {id,status,final} and {id,artifact}', () => {
  const req = rpcReq('SendStreamingMessage', '0.1');
  const s1 = decodeStreamEvent(
    { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'working' }, final: false } },
    req,
  );
  assert.equal(s1.kind, 'status-update');
  assert.equal(s1.taskId, 't');
  assert.equal(s1.state, 'TASK_STATE_WORKING');
  assert.equal(s1.final, undefined);
  assert.equal(s1.protocolVersion, '0.1');
  const a = decodeStreamEvent(
    {
      jsonrpc: '2.0',
      id: 1,
      result: {
        id: 't',
        artifact: {
          parts: [{ type: 'text', text: 'chunk' }],
          index: 0,
          append: false,
          lastChunk: true,
        },
      },
    },
    req,
  );
  assert.equal(a.kind, 'artifact-update');
  assert.equal(a.taskId, 't');
  assert.deepEqual(a.artifacts, [{ parts: [{ kind: 'text' }] }]);
  assert.equal(a.protocolVersion, '0.1');
  const s2 = decodeStreamEvent(
    { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'completed' }, final: true } },
    req,
  );
  assert.equal(s2.final, true);
  assert.equal(s2.state, 'TASK_STATE_COMPLETED');
  // `unknown` state maps to UNSPECIFIED
  assert.equal(
    decodeStreamEvent(
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'unknown' }, final: false } },
      req,
    ).state,
    'TASK_STATE_UNSPECIFIED',
  );
});

// ---------------------------------------------------------------------------
// States, parts, caps
// ---------------------------------------------------------------------------

test('normaliseTaskState: every spelling, proto numbers, and nothing else', () => {
  const ok: [unknown, string][] = [
    ['submitted', 'TASK_STATE_SUBMITTED'],
    ['working', 'TASK_STATE_WORKING'],
    ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
    ['auth-required', 'TASK_STATE_AUTH_REQUIRED'],
    ['completed', 'TASK_STATE_COMPLETED'],
    ['canceled', 'TASK_STATE_CANCELED'],
    ['cancelled', 'TASK_STATE_CANCELED'],
    ['failed', 'TASK_STATE_FAILED'],
    ['rejected', 'TASK_STATE_REJECTED'],
    ['unknown', 'TASK_STATE_UNSPECIFIED'],
    ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_INPUT_REQUIRED'],
    ['TASK_STATE_CANCELLED', 'TASK_STATE_CANCELED'],
    ['TASK_STATE_UNSPECIFIED', 'TASK_STATE_UNSPECIFIED'],
    ['COMPLETED', 'TASK_STATE_COMPLETED'],
    [' Completed ', 'TASK_STATE_COMPLETED'],
    [0, 'TASK_STATE_UNSPECIFIED'],
    [3, 'TASK_STATE_COMPLETED'],
    [4, 'TASK_STATE_FAILED'],
    [8, 'TASK_STATE_AUTH_REQUIRED'],
  ];
  for (const [v, want] of ok) assert.equal(normaliseTaskState(v), want, String(v));
  for (const v of [
    'done',
    '',
    'UNRECOGNIZED',
    'task_state_',
    'x'.repeat(100),
    -1,
    9,
    3.5,
    NaN,
    null,
    undefined,
    {},
    ['completed'],
    true,
    'constructor',
    '__proto__',
  ]) {
    assert.equal(normaliseTaskState(v), undefined, String(v));
  }
  assert.equal(isTerminalState('TASK_STATE_REJECTED'), true);
  assert.equal(isTerminalState('TASK_STATE_INPUT_REQUIRED'), false);
  assert.equal(isTerminalState(undefined), false);
});

test('decodePart: explicit mediaType wins over file.mimeType; hostile parts', () => {
  assert.deepEqual(
    decodePart({ kind: 'file', mediaType: 'image/jpeg', file: { mimeType: 'image/png' } }),
    { kind: 'file', mediaType: 'image/jpeg' },
  );
  assert.deepEqual(decodePart({ text: 'x', media_type: 'text/csv' }), {
    kind: 'text',
    mediaType: 'text/csv',
  });
  assert.deepEqual(decodePart({ text: 'x', mediaType: '' }), { kind: 'text' });
  assert.deepEqual(decodePart({ text: 5 }), { kind: 'unknown' });
  assert.deepEqual(decodePart({ type: 'text', mediaType: 7 }), { kind: 'text' });
  for (const v of [null, undefined, 1, 'text', [], [{ text: 'x' }]])
    assert.deepEqual(decodePart(v), { kind: 'unknown' });
});

test('status text: text parts only, joined by a space, capped at 4096', () => {
  const long = 'a'.repeat(3000);
  const r = decodeResponse({
    id: 't',
    status: {
      state: 'TASK_STATE_FAILED',
      message: { parts: [{ text: long }, { url: 'u' }, { text: long }, { text: 'tail' }] },
    },
  });
  assert.equal(r.statusText?.length, MAX_STATUS_TEXT);
  assert.equal(r.statusText, (long + ' ' + long).slice(0, MAX_STATUS_TEXT));
  const none = decodeResponse({
    id: 't',
    status: {
      state: 'failed',
      message: {
        parts: [
          { kind: 'data', data: { text: 'no' } },
          { type: 'file', text: 'no' },
        ],
      },
    },
  });
  assert.equal(none.statusText, undefined);
});

test('caps: at most 1000 artifacts and 1000 parts each, said in problem', () => {
  const artifacts = new Array(MAX_ARTIFACTS + 500).fill({
    artifactId: 'a',
    parts: [{ text: 'x' }],
  });
  const r = decodeResponse({ id: 't', status: { state: 'completed' }, artifacts });
  assert.equal(r.artifacts.length, MAX_ARTIFACTS);
  assert.match(r.problem ?? '', /first 1000 artifacts/);
  const parts = new Array(MAX_PARTS * 5).fill({ text: 'x', mediaType: 'text/plain' });
  const p = decodeResponse({ id: 't', status: { state: 'completed' }, artifacts: [{ parts }] });
  assert.equal(p.artifacts[0].parts.length, MAX_PARTS);
  assert.match(p.problem ?? '', /first 1000 parts/);
  assert.equal(p.state, 'TASK_STATE_COMPLETED');
});

test('what cannot be decoded is a problem, never guessed', () => {
  const cases: [unknown, DecodedRequest | undefined, number | undefined, RegExp][] = [
    [{ jsonrpc: '2.0', id: 1 }, rpcReq('SendMessage'), 200, /without result or error/],
    [{ jsonrpc: '2.0', id: 1, result: null }, rpcReq('SendMessage'), 200, /result is null/],
    [{ jsonrpc: '2.0', id: 1, result: [] }, rpcReq('SendMessage'), 200, /not an object/],
    [
      { jsonrpc: '2.0', id: 1, result: { kind: 'banana' } },
      rpcReq('SendMessage'),
      200,
      /unknown result kind/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'done' } } },
      rpcReq('GetTask'),
      200,
      /unrecognised task state/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: 'failed' } },
      rpcReq('GetTask'),
      200,
      /status is not an object/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: {} } },
      rpcReq('GetTask'),
      200,
      /no state/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { task: 'x' } },
      rpcReq('SendMessage'),
      200,
      /task is not an object/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { task: {}, message: {} } },
      rpcReq('SendMessage'),
      200,
      /several payload members/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { hello: 'world' } },
      rpcReq('SendMessage'),
      200,
      /unrecognised result shape/,
    ],
    [
      { jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'completed' }, artifacts: {} } },
      rpcReq('GetTask'),
      200,
      /artifacts is not an array/,
    ],
    [{ jsonrpc: '2.0', id: 1, result: { id: 't' } }, rpcReq('GetTask'), 200, /no status/],
    [{ jsonrpc: '2.0', id: 1, error: 'boom' }, rpcReq('GetTask'), 200, /malformed JSON-RPC error/],
    ['<html>Bad gateway</html>', rpcReq('SendMessage'), 502, /not a JSON-RPC response/],
    [
      '<html>Bad gateway</html>',
      restReq('SendMessage', 'POST /message:send'),
      502,
      /unrecognised error body/,
    ],
    [{ kind: 'artifact-update', taskId: 't' }, undefined, undefined, /without an artifact/],
  ];
  for (const [body, req, status, re] of cases) {
    const r = decodeResponse(body, req, status);
    assert.match(r.problem ?? '', re, JSON.stringify(body));
    if (!/artifacts is not/.test(String(re)))
      assert.equal(r.state, undefined, JSON.stringify(body));
  }
  const gw = decodeResponse('<html>', restReq('SendMessage', 'POST /message:send'), 503);
  assert.equal(gw.kind, 'error');
  assert.equal(gw.error?.code, 503);
  const problemJson = decodeResponse(
    { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'token expired' },
    restReq('GetTask', 'GET /tasks/{id}'),
    401,
  );
  assert.deepEqual(problemJson.error, { code: 401, message: 'token expired' });
});

test('opaque operations: card / push config results are "other"; resultPayload unwraps them', () => {
  const card = { name: 'x', skills: [] };
  const r = decodeResponse({ jsonrpc: '2.0', id: 1, result: card }, rpcReq('GetExtendedAgentCard'));
  assert.equal(r.kind, 'other');
  assert.equal(r.problem, undefined);
  assert.equal(
    decodeResponse(
      { jsonrpc: '2.0', id: 1, result: null },
      rpcReq('DeleteTaskPushNotificationConfig'),
    ).problem,
    undefined,
  );
  assert.deepEqual(resultPayload({ jsonrpc: '2.0', id: 1, result: card }, 'jsonrpc'), {
    ok: true,
    value: card,
  });
  assert.deepEqual(resultPayload(card, 'http+json'), { ok: true, value: card });
  assert.deepEqual(resultPayload({ jsonrpc: '2.0', id: 1, result: card }, undefined), {
    ok: true,
    value: card,
  });
  assert.equal(resultPayload({ jsonrpc: '2.0', id: 1, error: { code: 1 } }, 'jsonrpc').ok, false);
  assert.equal(resultPayload({ error: { code: 400 } }, 'http+json').ok, false);
  assert.equal(resultPayload(null, 'jsonrpc').ok, false);
});

test('binding detection without a request', () => {
  const env = decodeResponse({
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32602, message: 'Invalid params', data: { skillId: 'x' } },
  });
  assert.equal(env.kind, 'error');
  assert.equal(env.error?.code, -32602);
  assert.deepEqual(env.error?.data, { skillId: 'x' });
  const bare = decodeResponse({ id: 't', status: { state: 'TASK_STATE_WORKING' } });
  assert.equal(bare.kind, 'task');
  assert.equal(bare.state, 'TASK_STATE_WORKING');
});

// ---------------------------------------------------------------------------
// Hostile inputs
// ---------------------------------------------------------------------------

function hostileValues(): unknown[] {
  const deep: Record<string, unknown> = {};
  let cur = deep;
  for (let i = 0; i < 5000; i++) {
    const next: Record<string, unknown> = {};
    cur.result = next;
    cur = next;
  }
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    undefined,
    null,
    true,
    0,
    3,
    -1,
    1.5,
    NaN,
    '',
    'completed',
    'TASK_STATE_COMPLETED',
    [],
    [{ status: { state: 'completed' } }],
    {},
    Object.create(null),
    JSON.parse('{"__proto__": {"status": {"state": "completed"}, "kind": "task"}}'),
    JSON.parse(
      '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"task":{"status":{"state":"failed"}}}}}',
    ),
    { jsonrpc: '2.0', result: { status: { state: 42 } } },
    { jsonrpc: '2.0', result: { status: { state: ['completed'] } } },
    { jsonrpc: '2.0', result: { status: { state: { toString: () => 'completed' } } } },
    { jsonrpc: '2.0', result: { kind: 5 } },
    { jsonrpc: '2.0', result: { task: [] } },
    { jsonrpc: '2.0', result: { statusUpdate: null } },
    { jsonrpc: '2.0', result: { artifacts: new Array(50_000).fill(null) } },
    { jsonrpc: '2.0', error: { code: 'x', message: 5, data: new Array(100_000).fill({}) } },
    { error: [] },
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

test('hostile values: decodeResponse / decodeStreamEvent never throw nor fabricate a state', () => {
  const reqs: (DecodedRequest | undefined)[] = [
    undefined,
    rpcReq('SendMessage'),
    rpcReq('SendStreamingMessage'),
    restReq('GetTask', 'GET /tasks/{id}'),
    restReq('ListTasks', 'GET /tasks'),
    null as unknown as DecodedRequest,
    { operation: 'nope', binding: 'carrier-pigeon' } as unknown as DecodedRequest,
  ];
  let checked = 0;
  for (const v of hostileValues()) {
    for (const req of reqs) {
      for (const status of [undefined, 200, 500, NaN, -1]) {
        let r: DecodedResult | undefined;
        assert.doesNotThrow(() => {
          r = decodeResponse(v, req, status);
        });
        assert.ok(r);
        assert.equal(r.state, undefined);
        assert.ok(Array.isArray(r.artifacts));
        if (r.kind === 'other')
          assert.ok(r.problem !== undefined || req?.operation === 'ListTasks', JSON.stringify(r));
        checked++;
      }
      let e: DecodedResult | undefined;
      assert.doesNotThrow(() => {
        e = decodeStreamEvent(v, req, 'error');
      });
      assert.equal(e?.state, undefined);
      assert.doesNotThrow(() => {
        e = decodeStreamEvent(v, req);
      });
      assert.equal(e?.state, undefined);
    }
  }
  assert.ok(checked > 500);
});

test('prototype pollution does not leak into result decoding', () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto.status = { state: 'completed' };
  proto.task = { id: 'evil', status: { state: 'failed' } };
  proto.kind = 'task';
  proto.result = { task: {} };
  try {
    const r = decodeResponse({ jsonrpc: '2.0', id: 1, result: { id: 't' } }, rpcReq('GetTask'));
    assert.equal(hasOwn(r, 'state'), false);
    assert.match(r.problem ?? '', /no status/);
    const e = decodeResponse({}, undefined);
    assert.equal(hasOwn(e, 'state'), false);
    assert.equal(hasOwn(e, 'taskId'), false);
  } finally {
    delete proto.status;
    delete proto.task;
    delete proto.kind;
    delete proto.result;
  }
});

test('python-a2a: a 0.1 Task echoing the request `message` is a Task (state, ids), not a 1.0 Message wrapper', () => {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      id: 'task-1',
      sessionId: 's-1',
      status: {
        state: 'failed',
        message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] },
      },
      message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      artifacts: [],
    },
  };
  const r = decodeResponse(body, rpcReq('SendMessage', '0.1'));
  assert.equal(r.kind, 'task');
  assert.equal(r.taskId, 'task-1');
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(r.statusText, 'unknown skill');
});

test('python-a2a: bare Task objects on a JSON-RPC stream (no envelope) are decoded', () => {
  const r = decodeStreamEvent(
    {
      id: 'task-1',
      status: { state: 'completed' },
      artifacts: [{ parts: [{ type: 'text', text: 'done' }] }],
    },
    rpcReq('SendStreamingMessage'),
  );
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.final, true);
  assert.equal(r.artifactText, 'done');
});

test('`event: error` without an envelope is an error (the Python SDK on HTTP+JSON, also on a JSON-RPC call)', () => {
  const status = {
    error: {
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'bad',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_PARAMS' }],
    },
  };
  for (const req of [rpcReq('SendStreamingMessage'), undefined]) {
    const r = decodeStreamEvent(status, req, 'error');
    assert.equal(r.kind, 'error');
    assert.equal(r.error?.code, 400);
    assert.equal(r.error?.reason, 'INVALID_PARAMS');
  }
});

test('fasta2a: the last agent message of history is kept for the judge; user messages are not', () => {
  const r = decodeResponse(
    {
      jsonrpc: '2.0',
      id: 1,
      result: {
        kind: 'task',
        id: 't',
        context_id: 'c',
        status: { state: 'failed' },
        history: [
          { role: 'user', kind: 'message', parts: [{ kind: 'text', text: 'translate this' }] },
          {
            role: 'agent',
            kind: 'message',
            parts: [{ kind: 'text', text: 'Unknown skill: translate' }],
          },
          { role: 'user', kind: 'message', parts: [{ kind: 'text', text: 'please' }] },
        ],
      },
    },
    rpcReq('GetTask'),
  );
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(r.historyText, 'Unknown skill: translate');
});

test('artifact updates: append flag and text kept for the judge', () => {
  const r = decodeStreamEvent(
    {
      jsonrpc: '2.0',
      id: 1,
      result: {
        kind: 'artifact-update',
        taskId: 't',
        append: true,
        artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'Tool "tr' }] },
      },
    },
    rpcReq('SendStreamingMessage'),
  );
  assert.equal(r.append, true);
  assert.equal(r.artifactText, 'Tool "tr');
});

test('reactive-agents: a failed task whose status message is a plain string keeps that text for the judge', () => {
  const r = decodeResponse(
    {
      jsonrpc: '2.0',
      id: null,
      result: {
        kind: 'task',
        id: 't',
        contextId: 'c',
        status: { state: 'failed', message: 'Unknown skill: translate' },
      },
    },
    rpcReq('GetTask'),
  );
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(r.statusText, 'Unknown skill: translate');
});
