/**
 * Traffic that is not A2A passes untouched and gets no span: other JSON-RPC APIs, REST
 * paths that only look like A2A's, SSE streams, binary uploads, plain pages.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { setupOtel, type Harness } from '../helpers/otel';

let h: Harness;
let server: http.Server;
let base: string;

before(async () => {
  h = setupOtel();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          'data: {"result":{"status":{"state":"failed","message":{"parts":[{"kind":"text","text":"unknown skill"}]}}}}\n\n',
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: {
            echo: body.length,
            status: {
              state: 'failed',
              message: { parts: [{ kind: 'text', text: 'unknown skill' }] },
            },
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await h.shutdown();
});

test('non-A2A requests get no span, through global fetch and undici', async () => {
  await h.reset();
  const rpc = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: { skillId: 'x' },
  });
  await fetch(`${base}/rpc`, {
    method: 'POST',
    body: rpc,
    headers: { 'content-type': 'application/json' },
  }).then((r) => r.text());
  await undici.request(`${base}/rpc`, { method: 'POST', body: rpc }).then((r) => r.body.text());
  await undici.fetch(`${base}/rpc`, { method: 'POST', body: rpc }).then((r) => r.text());
  await fetch(`${base}/api/tasks/42`).then((r) => r.text()); // looks like REST GetTask, but no card advertises this endpoint
  await fetch(`${base}/events`).then((r) => r.text());
  await fetch(`${base}/upload`, { method: 'POST', body: new Uint8Array([0, 1, 2, 3]) }).then((r) =>
    r.text(),
  );
  await fetch(`${base}/page?x=1`).then((r) => r.text());
  await fetch(`${base}/stream`, {
    method: 'POST',
    body: new Blob(['{"jsonrpc":"2.0","id":2,"method":"other"}']).stream(),
    duplex: 'half',
  } as RequestInit).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(
    h.spans().map((s) => s.name),
    [],
  );
});

test('an A2A JSON-RPC call with a streamed body is still recognised once its body has been sent', async () => {
  await h.reset();
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { id: 't-1' } });
  await fetch(`${base}/a2a`, {
    method: 'POST',
    body: new Blob([rpc]).stream(),
    duplex: 'half',
  } as RequestInit).then((r) => r.text());
  const [span] = await h.waitForSpans((s) => s.length === 1);
  assert.equal(span.name, 'GetTask');
  assert.equal(span.attributes['a2a.task.id'], 't-1');
});
