/**
 * A stream whose last event is terminal (a JSON-RPC error event, a final task state) and whose
 * body the app then cancels before the server ends it: nothing can follow a terminal event, so
 * the cancel is not a cut, and the span carries no unjudged note. The same bytes give the same
 * attributes whether the app's cancel or the server's end comes first (a client that throws on
 * the error event, as the @a2a-js/sdk client does, cancels the body in a race with its end).
 * A cancel after an event that is not terminal still says what was not judged.
 *
 * The server is a plain HTTP server replaying the recorded bytes of a2a-sdk (Python) 1.0
 * JSON-RPC, with the connection held open after the last event (so the cancel always comes first).
 */
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import type * as UndiciNs from 'undici';
import { harnessWithLoopbackServer } from '../helpers/loopback-server';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici: typeof UndiciNs = require('undici');

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'a2a-python-live');
const CARD = fs.readFileSync(path.join(FIXTURES, 'card.a2a-version-1.0.json'), 'utf8');
const ERROR_STREAM = fs.readFileSync(
  path.join(FIXTURES, 'jsonrpc.send-streaming-message.invalid-params.sse'),
  'utf8',
);
const TASK_ID = 'c6fff184-5005-4be7-8f75-4a9059d6ccad';
const CONTEXT_ID = '8113578b-a6c0-474f-bf78-8f1e621a08be';
const statusEvent = (state: string): string =>
  `data: ${JSON.stringify({
    jsonrpc: '2.0',
    id: 6,
    result: { statusUpdate: { taskId: TASK_ID, contextId: CONTEXT_ID, status: { state } } },
  })}\n\n`;
const FIRST_EVENT = ERROR_STREAM.slice(0, ERROR_STREAM.indexOf('event: error'));

/** The stream body each test serves (its connection then stays open until the client goes). */
let streamBody = '';

const { h, base } = harnessWithLoopbackServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(CARD.replaceAll('http://127.0.0.1:45249', base()));
    return;
  }
  req.resume();
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  res.write(streamBody); // and no end: only the client's cancel ends this exchange
});

beforeEach(async () => {
  await fetch(`${base()}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } }).then(
    (r) => r.json(),
  );
});

const REQUEST = {
  jsonrpc: '2.0',
  id: 6,
  method: 'SendStreamingMessage',
  params: {
    message: {
      messageId: 'rec-9',
      role: 'ROLE_USER',
      parts: [{ text: 'summarize: max_words=-1' }],
    },
    metadata: { skillId: 'summarize' },
  },
};
const HEADERS = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
  accept: 'text/event-stream',
};

/** Reads the stream with fetch until `until` matches what was read, then cancels it, as a client does. */
async function fetchAndCancel(until: RegExp): Promise<void> {
  const res = await fetch(`${base()}/a2a/jsonrpc`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(REQUEST),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
}

/** The same with undici.request: the app destroys the body once `until` matches. */
async function undiciAndDestroy(until: RegExp): Promise<void> {
  const res = await undici.request(`${base()}/a2a/jsonrpc`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(REQUEST),
  });
  let text = '';
  for await (const chunk of res.body) {
    text += String(chunk);
    if (until.test(text)) break; // ends the iteration: the body is destroyed
  }
}

const streamSpan = async () => {
  const sp = (await h().waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'))).find(
    (s) => s.name === 'SendStreamingMessage',
  )!;
  return sp;
};

for (const [client, read] of [
  ['fetch, reader.cancel()', fetchAndCancel],
  ['undici.request, body destroyed', undiciAndDestroy],
] as const) {
  test(`${client}: after an error event, the cancel is not a cut (the verdict alone)`, async () => {
    streamBody = ERROR_STREAM;
    await read(/event: error\r?\ndata: [^\r\n]*\r?\n\r?\n/);
    const span = await streamSpan();
    assert.equal(span.attributes['a2a.drift.unjudged_reason'], undefined);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.attributes['a2a.drift.kind'], 'invalid_params');
    assert.equal(span.attributes['a2a.drift.rpc_code'], -32602);
  });

  test(`${client}: after a final task state, the cancel is not a cut`, async () => {
    streamBody = FIRST_EVENT + statusEvent('TASK_STATE_COMPLETED');
    await read(/TASK_STATE_COMPLETED[^\n]*\n\n/);
    const span = await streamSpan();
    assert.equal(span.attributes['a2a.drift.unjudged_reason'], undefined);
    assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
    assert.notEqual(
      span.status.code,
      SpanStatusCode.ERROR,
      'the app stopping after the end is no error',
    );
    assert.equal(span.attributes['error.type'], undefined);
  });

  test(`${client}: after an event that is not terminal, the cancel is said`, async () => {
    streamBody = FIRST_EVENT + statusEvent('TASK_STATE_WORKING');
    await read(/TASK_STATE_WORKING[^\n]*\n\n/);
    const span = await streamSpan();
    assert.match(String(span.attributes['a2a.drift.unjudged_reason']), /cancelled|cut short/);
  });
}
