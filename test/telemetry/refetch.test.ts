/**
 * refetchCardOnDrift: the re-fetch is a conditional request (the
 * validators of the card response the process holds), a 304 means "unchanged", and a drift
 * right after a redeploy is not answered from an earlier re-fetch's memo.
 *
 *   npm run build && node --import tsx --test --test-concurrency=1 test/telemetry/refetch.test.ts
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { sharedState } from '../../src/telemetry/shared-state';
import type { SeedSkill as Skill } from '../peers/wire';

const skill = (id: string): Skill => ({
  id,
  name: id,
  description: `does ${id}`,
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
});

interface CardRequest {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  status: number;
}

/** A 0.1 peer whose card answers with validators (ETag and/or Last-Modified) and honours conditional requests. */
interface ValidatorPeer {
  cardUrl: string;
  rpcUrl: string;
  cardRequests: CardRequest[];
  redeploy(skills: Skill[]): void;
  close(): Promise<void>;
}

async function startValidatorPeer(validators: {
  etag: boolean;
  lastModified: boolean;
}): Promise<ValidatorPeer> {
  let skills = [skill('summarize-v2')];
  let revision = 1;
  const cardRequests: CardRequest[] = [];
  let rpcUrl = '';
  const card = () => ({
    name: 'validator-peer',
    description: 'A2A 0.1 peer with card validators',
    url: rpcUrl,
    version: '1.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  });
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/agent.json') {
      const body = JSON.stringify(card());
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      const lastModified = new Date(Date.UTC(2024, 0, revision)).toUTCString();
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (validators.etag) headers.etag = etag;
      if (validators.lastModified) headers['last-modified'] = lastModified;
      const inm = req.headers['if-none-match'];
      const ims = req.headers['if-modified-since'];
      const notModified =
        validators.etag && inm !== undefined
          ? inm === etag
          : validators.lastModified && ims !== undefined
            ? ims === lastModified
            : false;
      const status = notModified ? 304 : 200;
      cardRequests.push({ ifNoneMatch: inm, ifModifiedSince: ims, status });
      res.writeHead(status, headers);
      res.end(notModified ? undefined : body);
      return;
    }
    if (req.method === 'POST' && req.url === '/rpc') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rpc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          id: unknown;
          params: { id: string; skillId: string };
        };
        const known = skills.some((s) => s.id === rpc.params.skillId);
        const status = known
          ? { state: 'completed', timestamp: new Date().toISOString() }
          : {
              state: 'failed',
              message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] },
              timestamp: new Date().toISOString(),
            };
        const task = {
          id: rpc.params.id,
          status,
          ...(known ? { artifacts: [{ parts: [{ type: 'text', text: 'done' }], index: 0 }] } : {}),
        };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: task }));
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rpcUrl = `${base}/rpc`;
  return {
    cardUrl: `${base}/.well-known/agent.json`,
    rpcUrl,
    cardRequests,
    redeploy(next) {
      skills = next;
      revision++;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

let h: Harness;
let peer: ValidatorPeer | undefined;
let taskSerial = 0;

before(() => {
  h = setupOtel();
});
after(async () => {
  await peer?.close();
  await h.shutdown();
});
beforeEach(async () => {
  await peer?.close();
  peer = undefined;
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 60_000, refetchCardOnDrift: true });
  await h.reset();
});

async function fetchCard(p: ValidatorPeer): Promise<void> {
  await fetch(p.cardUrl).then((r) => r.text());
}

/** Send a task for `skillId`; resolves with the span of the drift it showed. */
async function driftingSend(p: ValidatorPeer, skillId: string) {
  const id = `task-${++taskSerial}`;
  await fetch(p.rpcUrl, {
    method: 'POST',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tasks/send',
      params: { id, skillId, message: { role: 'user', parts: [{ type: 'text', text: 'x' }] } },
    }),
  }).then((r) => r.text());
  const spans = await h.waitForSpans((s) =>
    drifted(s).some((x) => x.attributes['a2a.task.id'] === id),
  );
  return drifted(spans).find((x) => x.attributes['a2a.task.id'] === id)!;
}

test('the re-fetch sends If-None-Match with the ETag the card had; 304 means unchanged', async () => {
  peer = await startValidatorPeer({ etag: true, lastModified: true });
  await fetchCard(peer);
  const etag = sharedState().cards.get(peer.cardUrl)?.etag;
  assert.match(String(etag), /^"[0-9a-f]{16}"$/, 'the card entry keeps the ETag');
  const span = await driftingSend(peer, 'no-such-skill');
  assert.equal(span.attributes['a2a.drift.kind'], 'skill_not_in_card');
  assert.equal(span.attributes['a2a.drift.refetch'], 'unchanged');
  assert.equal(span.attributes['a2a.drift.confirmed'], false);
  const refetch = peer.cardRequests[1];
  assert.equal(refetch.ifNoneMatch, etag);
  assert.equal(refetch.ifModifiedSince, sharedState().cards.get(peer.cardUrl)?.lastModified);
  assert.equal(refetch.status, 304, 'the peer answered Not Modified: no card body');
  assert.equal(h.spans('GetAgentCard').length, 1, 'the re-fetch is untraced');
});

test('with Last-Modified only: If-Modified-Since; a changed card is answered in full and reported changed', async () => {
  peer = await startValidatorPeer({ etag: false, lastModified: true });
  await fetchCard(peer);
  peer.redeploy([skill('translate-v1')]);
  const span = await driftingSend(peer, 'summarize-v2');
  assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(span.attributes['a2a.drift.refetch'], 'changed');
  assert.equal(span.attributes['a2a.drift.confirmed'], true);
  assert.equal(peer.cardRequests[1].ifNoneMatch, undefined);
  assert.equal(peer.cardRequests[1].ifModifiedSince, new Date(Date.UTC(2024, 0, 1)).toUTCString());
  assert.equal(peer.cardRequests[1].status, 200);
});

test('a drift on a card already re-fetched and found changed does not report "unchanged" (redeploy inside the window)', async () => {
  peer = await startValidatorPeer({ etag: true, lastModified: false });
  await fetchCard(peer);
  peer.redeploy([skill('translate-v1')]); // F1 -> F2
  const first = await driftingSend(peer, 'summarize-v2');
  assert.equal(first.attributes['a2a.drift.refetch'], 'changed');
  await fetchCard(peer); // the app evicted and re-fetched: it holds F2
  peer.redeploy([skill('translate-v2')]); // F2 -> F3, inside the 60 s window
  const second = await driftingSend(peer, 'translate-v1');
  assert.equal(second.attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(
    second.attributes['a2a.drift.refetch'],
    'changed',
    'not the memo of the re-fetch of F1',
  );
  assert.equal(second.attributes['a2a.drift.confirmed'], true);
});

test('an "unchanged" answer is not reused for the whole window: a redeploy a second later is seen', async () => {
  peer = await startValidatorPeer({ etag: true, lastModified: false });
  await fetchCard(peer);
  const first = await driftingSend(peer, 'no-such-skill');
  assert.equal(first.attributes['a2a.drift.refetch'], 'unchanged');
  peer.redeploy([skill('translate-v1')]);
  await new Promise((r) => setTimeout(r, 1100)); // past the 1 s memo of an "unchanged", well inside the 60 s window
  const second = await driftingSend(peer, 'summarize-v2');
  assert.equal(second.attributes['a2a.drift.refetch'], 'changed');
});

test('a storm of drifts on one card re-fetches it once (the memo still bounds the work)', async () => {
  peer = await startValidatorPeer({ etag: true, lastModified: false });
  await fetchCard(peer);
  peer.redeploy([skill('translate-v1')]);
  const spans = await Promise.all(
    Array.from({ length: 50 }, () => driftingSend(peer!, 'summarize-v2')),
  );
  for (const s of spans) assert.equal(s.attributes['a2a.drift.refetch'], 'changed');
  assert.equal(
    peer.cardRequests.length,
    2,
    'one card fetch by the app, one re-fetch for 50 drifts',
  );
});
