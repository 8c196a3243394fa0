/**
 * A protocol version on every operation span when the card or the answer tells it: pydantic
 * fasta2a serves a 1.0 card and answers the 0.3 method names with 1.0-shaped results in 0.3
 * states; a raw client's `message/send` then `tasks/get` poll gets spans that say the version the
 * card states. Replayed from the recorded exchange (test/fixtures/fasta2a-live/) on a local
 * server.
 *
 *   node --import tsx --test test/instrumentation/fasta2a-poll-version.test.ts
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setupOtel, type Harness } from '../helpers/otel';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'fasta2a-live');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

let h: Harness;
let server: http.Server;
let origin = '';

before(async () => {
  h = setupOtel();
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET') {
      res.end(read('card.json').replace(/http:\/\/127\.0\.0\.1:\d+/g, origin));
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const method = (JSON.parse(body) as { method?: string }).method;
      res.end(
        method === 'message/send'
          ? read('jsonrpc-v0.3.message-send.summarize.json')
          : method === 'tasks/get'
            ? read('variant-a.jsonrpc-v0.3.tasks-get.translate.json')
            : '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await h.shutdown();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => h.reset());

const rpc = (body: unknown) =>
  fetch(`${origin}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

test('fasta2a raw poll: message/send and every tasks/get span say the version of the 1.0 card', async () => {
  await fetch(`${origin}/.well-known/agent-card.json`).then((r) => r.json());
  const sent = (await rpc({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: 'rec-1',
        parts: [{ kind: 'text', text: 'summarize: hi' }],
        metadata: { skillId: 'summarize' },
      },
    },
  })) as { result: { task: { id: string } } };
  for (let i = 0; i < 2; i++)
    await rpc({
      jsonrpc: '2.0',
      id: 2 + i,
      method: 'tasks/get',
      params: { id: sent.result.task.id },
    });
  const spans = await h.waitForSpans(
    (s) =>
      s.filter((x) => x.name === 'GetTask').length >= 2 && s.some((x) => x.name === 'SendMessage'),
  );
  const ops = spans.filter((s) => s.name === 'SendMessage' || s.name === 'GetTask');
  assert.deepEqual(
    ops.map((s) => [s.name, s.attributes['a2a.protocol.version']]),
    [
      ['SendMessage', '1.0'],
      ['GetTask', '1.0'],
      ['GetTask', '1.0'],
    ],
  );
});
