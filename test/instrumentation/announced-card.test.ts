/**
 * The caller's side of the card fingerprint on the wire, against an agent (a plain node:http
 * server in this process) that announces a random fingerprint on every answer: the caller sends
 * the fingerprint of the card it negotiated with; a forged or flapping announcement costs at most
 * one card fetch per debounce window and is never drift while the card is unchanged; the option
 * switches both headers off. Fails on main (no request header; announcements ignored, so the
 * unconfirmed mark is missing).
 *
 *   node --import tsx --test test/instrumentation/announced-card.test.ts
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setupOtel, type Harness } from '../helpers/otel';
import { skillFingerprint } from '../../src/core/fingerprint';

const CARD = {
  name: 'flapper',
  description: 'announces a random card fingerprint',
  version: '1.0',
  protocolVersion: '0.3.0',
  url: '', // set once listening
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'summarize', name: 'summarize', description: 'd', tags: [] }],
};

let server: http.Server;
let base = '';
let cardGets = 0;
const announcedByCaller: Array<string | undefined> = [];

before(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      cardGets++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(CARD));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      announcedByCaller.push(req.headers['a2a-card-fingerprint'] as string | undefined);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number };
      res.writeHead(200, {
        'content-type': 'application/json',
        'a2a-card-fingerprint': randomBytes(32).toString('hex'),
      });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: body.id,
          result: {
            kind: 'message',
            messageId: 'r',
            role: 'agent',
            parts: [{ kind: 'text', text: 'ok' }],
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  CARD.url = `${base}/a2a`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

let h: Harness;
before(() => {
  h = setupOtel();
});
after(() => h.shutdown());
beforeEach(async () => {
  await h.reset();
  cardGets = 0;
  announcedByCaller.length = 0;
});

let n = 0;
const send = () =>
  fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++n,
      method: 'message/send',
      params: {
        message: {
          messageId: `m${n}`,
          role: 'user',
          kind: 'message',
          parts: [{ kind: 'text', text: 'hi' }],
        },
        metadata: { skillId: 'summarize' },
      },
    }),
  }).then((r) => r.json());

test('a random fingerprint on every answer: one card fetch per debounce window, no drift', async () => {
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 60_000, cardRevalidationMs: 0 });
  await (await fetch(`${base}/.well-known/agent-card.json`)).json();
  assert.equal(cardGets, 1);
  for (let i = 0; i < 30; i++) await send();
  const spans = await h.waitForSpans(
    (s) => s.filter((x) => x.name === 'SendMessage').length === 30,
  );
  const sends = spans.filter((x) => x.name === 'SendMessage');
  assert.equal(cardGets - 1, 1, 'one confirming fetch for 30 forged announcements');
  assert.equal(await h.driftCount(), 0);
  for (const s of sends) assert.equal(s.attributes['a2a.drift.kind'], undefined);
  assert.ok(sends.every((s) => s.attributes['a2a.drift.unconfirmed'] === 'card_changed'));
  assert.equal(sends[0]!.attributes['a2a.drift.suspicion'], 'announced');
  // the caller announced the card it negotiated with, on every call
  const fp = skillFingerprint(CARD);
  assert.deepEqual(new Set(announcedByCaller), new Set([fp]));
});

test('cardFingerprintHeaders: false switches both headers off', async () => {
  h.instrumentation.setConfig({ cardFingerprintHeaders: false, cardRevalidationMs: 0 });
  await (await fetch(`${base}/.well-known/agent-card.json`)).json();
  for (let i = 0; i < 5; i++) await send();
  await h.waitForSpans((s) => s.filter((x) => x.name === 'SendMessage').length === 5);
  assert.equal(cardGets, 1, 'announcements ignored');
  assert.deepEqual(announcedByCaller, [undefined, undefined, undefined, undefined, undefined]);
});
