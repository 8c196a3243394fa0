/**
 * WireTap against a real node:http server on 127.0.0.1, with Node's global fetch (bundled
 * undici 6 on Node 20) and npm undici 7 in the same process.
 *
 * Run: node --import tsx --test test/hooks/wire-tap.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable, Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type * as UndiciNs from 'undici';
import { WireTap } from '../../src/hooks/wire-tap';
import {
  lookupRequestHeader,
  responseHeaderRecord,
  headerFilter,
} from '../../src/hooks/undici-headers';
import type { WireObserver, WireRequestInfo, WireTapDelegate } from '../../src/hooks/types';

// Load order matters: whichever undici copy loads first installs ITS Agent as the process-wide
// global dispatcher (Symbol.for('undici.globalDispatcher.1')), which Node's fetch and
// npm undici's request()/fetch() both use. Touch Node's bundled undici first so that global
// fetch really runs on the bundled undici 6 (as in an app that fetches before importing undici);
// npm undici 7's Request is then used only through npm dispatchers (explicit Agent/Client/Pool,
// or after setGlobalDispatcher). The other load order equals the setGlobalDispatcher case.
new Headers();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici: typeof UndiciNs = require('undici');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Undici7Request: new (...args: never[]) => object = require('undici/lib/core/request.js');
/** Node's bundled undici Agent (the process-global dispatcher at this point). */
const bundledAgent = undici.getGlobalDispatcher();

const KiB = 1024;
const MiB = 1024 * KiB;

const sha = (b: Uint8Array | string): string => crypto.createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
let idCounter = 0;
const newId = () => `t${process.pid}-${++idCounter}`;

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, rej) => {
        timer = setTimeout(
          () => rej(new Error(`timeout: ${what} did not settle within ${ms} ms`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timeout waiting for ${what}`);
    await sleep(5);
  }
}

// ------------------------------------------------------------------ server

const BIG = crypto.randomBytes(4 * MiB);
const GZ_PLAIN = Buffer.from('{"jsonrpc":"2.0","result":"' + 'abcdefghij'.repeat(30000) + '"}');
const GZ = zlib.gzipSync(GZ_PLAIN);

interface ServerSide {
  reqSha: Map<string, string>;
  closed: Map<string, Promise<void>>;
  written: Map<string, number>;
}
const S: ServerSide = { reqSha: new Map(), closed: new Map(), written: new Map() };

let server: http.Server;
let base = '';
/** An npm undici 7 Agent: requests through it are npm undici's Request objects. */
let npmAgent: UndiciNs.Agent;

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const id = url.searchParams.get('id') ?? '';
  let closeResolve!: () => void;
  S.closed.set(id, new Promise<void>((r) => (closeResolve = r)));
  res.on('close', () => closeResolve());

  const h = crypto.createHash('sha256');
  req.on('data', (c: Buffer) => h.update(c));
  req.on('end', () => {
    S.reqSha.set(id, h.digest('hex'));
    switch (url.pathname) {
      case '/echo': {
        const size = Number(url.searchParams.get('size') ?? '0');
        const body = BIG.subarray(0, size);
        const chunked = url.searchParams.get('mode') === 'chunked';
        const headers: http.OutgoingHttpHeaders = {
          'content-type': 'application/octet-stream',
          'x-dup': ['a', 'b'],
        };
        if (!chunked) headers['content-length'] = String(size);
        res.writeHead(200, headers);
        void (async () => {
          for (let off = 0; off < size; off += 16 * KiB) {
            if (!res.write(body.subarray(off, Math.min(size, off + 16 * KiB)))) {
              await new Promise<void>((r) => res.once('drain', r));
            }
            if (chunked && off % (64 * KiB) === 0) await new Promise<void>((r) => setImmediate(r));
          }
          res.end();
        })();
        break;
      }
      case '/gzip':
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': GZ.length,
        });
        res.end(GZ);
        break;
      case '/redirect':
        res.writeHead(307, { location: `/echo?id=${id}-2&size=1000&mode=cl` });
        res.end();
        break;
      case '/sse': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let n = 0;
        const timer = setInterval(() => res.write(`data: ${n++}\n\n`), 5);
        res.on('close', () => clearInterval(timer));
        break;
      }
      case '/big': {
        // 64 MiB, honouring backpressure; counts the bytes the server managed to hand to the socket.
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': String(64 * MiB),
        });
        S.written.set(id, 0);
        const chunk = BIG.subarray(0, 64 * KiB);
        let stopped = false;
        const closed = new Promise<void>((r) =>
          res.on('close', () => {
            stopped = true;
            r();
          }),
        );
        void (async () => {
          for (let i = 0; i < 1024 && !stopped; i++) {
            const ok = res.write(chunk);
            S.written.set(id, (S.written.get(id) ?? 0) + chunk.length);
            if (!ok) await Promise.race([new Promise<void>((r) => res.once('drain', r)), closed]);
          }
          if (!stopped) res.end();
        })();
        break;
      }
      default:
        res.writeHead(404);
        res.end();
    }
  });
}

// ------------------------------------------------------------------ recording delegate

interface Rec {
  info: WireRequestInfo;
  method: string;
  path: string;
  body?: Uint8Array | string;
  store: unknown;
  reqHash: crypto.Hash;
  reqBytes: number;
  reqChunks: number;
  resHash: crypto.Hash;
  resBytes: number;
  resChunks: number;
  status?: number;
  headers?: Record<string, string>;
  complete: number;
  errors: unknown[];
  events: string[];
}

class Recorder implements WireTapDelegate {
  readonly recs: Rec[] = [];
  creates = 0;
  readonly internalErrors: Array<[string, unknown]> = [];
  constructor(readonly als?: AsyncLocalStorage<unknown>) {}
  onCreate(info: WireRequestInfo): WireObserver | undefined {
    this.creates++;
    const rec: Rec = {
      info,
      method: info.method,
      path: info.path,
      body: info.body,
      store: this.als?.getStore(),
      reqHash: crypto.createHash('sha256'),
      reqBytes: 0,
      reqChunks: 0,
      resHash: crypto.createHash('sha256'),
      resBytes: 0,
      resChunks: 0,
      complete: 0,
      errors: [],
      events: [],
    };
    this.recs.push(rec);
    return {
      onRequestBody(chunk) {
        rec.reqHash.update(chunk);
        rec.reqBytes += chunk.byteLength;
        rec.reqChunks++;
      },
      onResponseHeaders(status, headers) {
        rec.status = status;
        rec.headers = headers;
        rec.events.push('headers');
      },
      onResponseBody(chunk) {
        rec.resHash.update(chunk);
        rec.resBytes += chunk.byteLength;
        rec.resChunks++;
      },
      onComplete() {
        rec.complete++;
        rec.events.push('complete');
      },
      onError(err) {
        rec.errors.push(err);
        rec.events.push('error');
      },
    };
  }
  find(id: string): Rec {
    const found = this.recs.filter(
      (r) => r.path.includes(`id=${id}&`) || r.path.endsWith(`id=${id}`),
    );
    assert.equal(found.length, 1, `exactly one record for ${id}, got ${found.length}`);
    return found[0]!;
  }
  onInternalError = (where: string, err: unknown): void => {
    this.internalErrors.push([where, err]);
  };
}

function startTap(rec: Recorder): WireTap {
  const tap = new WireTap(rec, rec.onInternalError);
  tap.enable();
  return tap;
}

/** Final digest of the bytes the tap saw going out (whole body at create, or the chunks). */
function tapRequestSha(r: Rec): string {
  if (r.body !== undefined) {
    assert.equal(r.reqChunks, 0, 'a body whole at create is not also reported as chunks');
    return sha(r.body);
  }
  return r.reqHash.copy().digest('hex');
}

/** Remembers undici request objects by test id (subscribed after the tap), to inspect wrapping. */
const seenRequests = new Map<string, object>();
const rememberRequest = (m: unknown): void => {
  const request = (m as { request: { path: string } }).request;
  const id = /[?&]id=([^&]+)/.exec(request.path)?.[1];
  if (id) seenRequests.set(id, request);
};

// ------------------------------------------------------------------ clients

type Client = (url: string, body: Buffer) => Promise<Buffer>;
/** Which undici copy's Request the exchange must run on ('v6' = Node's bundled, 'v7' = npm). */
type Copy = 'v6' | 'v7';

function streamBody(body: Buffer): ReadableStream<Uint8Array> {
  let off = 0;
  return new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (off >= body.length) return ctrl.close();
      const n = Math.min(7 * KiB + 13, body.length - off);
      ctrl.enqueue(new Uint8Array(body.subarray(off, off + n)));
      off += n;
    },
  });
}

const toBuf = async (res: Response | UndiciNs.Response): Promise<Buffer> =>
  Buffer.from(await res.arrayBuffer());
const reqBuf = async (p: Promise<UndiciNs.Dispatcher.ResponseData>): Promise<Buffer> =>
  Buffer.from(await (await p).body.arrayBuffer());

/**
 * Node's global fetch POSTing `body` as a half-duplex ReadableStream. A `dispatcher` is passed
 * only when given, so the call without one runs on the process-global dispatcher as an app's would.
 */
const fetchStreamed = (url: string, body: Buffer, dispatcher?: object): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    body: streamBody(body),
    duplex: 'half',
    ...(dispatcher && { dispatcher }),
  } as unknown as RequestInit);

/** npm undici.request POSTing `body` as a Readable of 5 KiB chunks (`dispatcher` only when given). */
const requestReadable = (
  url: string,
  body: Buffer,
  dispatcher?: UndiciNs.Dispatcher,
): Promise<UndiciNs.Dispatcher.ResponseData> =>
  undici.request(url, {
    method: 'POST',
    body: Readable.from(chunks(body)),
    ...(dispatcher && { dispatcher }),
  });

/** undici.stream with `opts`, collecting the response body the factory's Writable receives. */
async function streamToBuf(
  url: string,
  opts: Parameters<typeof undici.stream>[1],
): Promise<Buffer> {
  const parts: Buffer[] = [];
  await undici.stream(
    url,
    opts,
    () =>
      new Writable({
        write(c: Buffer, _e, cb) {
          parts.push(c);
          cb();
        },
      }),
  );
  return Buffer.concat(parts);
}

const dispatchers: Array<{ close(): Promise<void> }> = [];
function keep<T extends { close(): Promise<void> }>(d: T): T {
  dispatchers.push(d);
  return d;
}

function clients(origin: string): Array<[string, Copy, Client]> {
  const agent = keep(new undici.Agent());
  const client = keep(new undici.Client(origin));
  const pool = keep(new undici.Pool(origin));
  const str = (b: Buffer) => b.toString('latin1');
  return [
    [
      'global fetch, string body',
      'v6',
      async (u, b) => toBuf(await fetch(u, { method: 'POST', body: str(b) })),
    ],
    [
      'global fetch, ReadableStream body duplex:half',
      'v6',
      async (u, b) => toBuf(await fetchStreamed(u, b)),
    ],
    [
      'global fetch, npm Agent as dispatcher',
      'v7',
      async (u, b) =>
        toBuf(
          await fetch(u, {
            method: 'POST',
            body: str(b),
            dispatcher: agent,
          } as unknown as RequestInit),
        ),
    ],
    [
      'undici.request on the (bundled) global dispatcher, string body',
      'v6',
      async (u, b) => reqBuf(undici.request(u, { method: 'POST', body: str(b) })),
    ],
    [
      'undici.request on the (bundled) global dispatcher, Readable body',
      'v6',
      async (u, b) => reqBuf(requestReadable(u, b)),
    ],
    [
      'undici.fetch on the (bundled) global dispatcher',
      'v6',
      async (u, b) => toBuf(await undici.fetch(u, { method: 'POST', body: str(b) })),
    ],
    [
      'undici.request, explicit Agent, string body',
      'v7',
      async (u, b) =>
        reqBuf(undici.request(u, { method: 'POST', body: str(b), dispatcher: agent })),
    ],
    [
      'undici.request, explicit Agent, Readable body',
      'v7',
      async (u, b) => reqBuf(requestReadable(u, b, agent)),
    ],
    [
      'undici.request, explicit Client, Buffer body',
      'v7',
      async (u, b) => reqBuf(undici.request(u, { method: 'POST', body: b, dispatcher: client })),
    ],
    [
      'undici.request, explicit Pool, Readable body',
      'v7',
      async (u, b) => reqBuf(requestReadable(u, b, pool)),
    ],
    [
      'undici.fetch, explicit Agent, string body',
      'v7',
      async (u, b) =>
        toBuf(await undici.fetch(u, { method: 'POST', body: str(b), dispatcher: agent })),
    ],
    [
      'undici.fetch, explicit Agent, ReadableStream body',
      'v7',
      async (u, b) =>
        toBuf(
          await undici.fetch(u, {
            method: 'POST',
            body: streamBody(b),
            duplex: 'half',
            dispatcher: agent,
          }),
        ),
    ],
    [
      'undici.stream, explicit Agent',
      'v7',
      async (u, b) => streamToBuf(u, { method: 'POST', body: str(b), dispatcher: agent }),
    ],
    [
      'undici.stream on the (bundled) global dispatcher',
      'v6',
      async (u, b) => streamToBuf(u, { method: 'POST', body: Readable.from(chunks(b)) }),
    ],
  ];
}

function* chunks(b: Buffer): Generator<Buffer> {
  for (let off = 0; off < b.length; off += 5 * KiB) yield b.subarray(off, off + 5 * KiB);
}

// ------------------------------------------------------------------ tests

before(async () => {
  server = http.createServer(handler);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  diagnosticsChannel.subscribe('undici:request:create', rememberRequest);
  npmAgent = keep(new undici.Agent());
});

after(async () => {
  diagnosticsChannel.unsubscribe('undici:request:create', rememberRequest);
  await Promise.all(dispatchers.map((d) => d.close().catch(() => undefined)));
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

// Request bodies are latin1 strings of the same bytes, so string and byte bodies compare equal.
const REQ_BODY = Buffer.from(
  crypto
    .randomBytes(150 * KiB)
    .toString('base64')
    .slice(0, 150 * KiB),
  'latin1',
);
const RES_SIZE = 700 * KiB + 123;

async function exchange(
  rec: Recorder,
  name: string,
  fn: Client,
  mode: 'chunked' | 'cl',
  copy: Copy,
): Promise<void> {
  const id = newId();
  const appBody = await fn(`${base}/echo?id=${id}&size=${RES_SIZE}&mode=${mode}`, REQ_BODY);
  const expected = BIG.subarray(0, RES_SIZE);
  assert.equal(sha(appBody), sha(expected), `${name}: app body`);
  await waitFor(
    () => rec.recs.some((r) => r.path.includes(`id=${id}&`) && r.complete > 0),
    2000,
    `${name} complete`,
  );
  const r = rec.find(id);
  assert.equal(r.method, 'POST');
  assert.equal(r.info.origin, base);
  assert.ok(r.path.startsWith('/echo?'), r.path);
  assert.equal(r.status, 200);
  assert.equal(r.headers?.['content-type'], 'application/octet-stream');
  assert.equal(r.headers?.['x-dup'], 'a, b');
  if (mode === 'cl') assert.equal(r.headers?.['content-length'], String(RES_SIZE));
  else assert.equal(r.headers?.['transfer-encoding'], 'chunked');
  // request: exact bytes, seen once
  assert.equal(tapRequestSha(r), sha(REQ_BODY), `${name}: tap request bytes`);
  assert.equal(S.reqSha.get(id), sha(REQ_BODY), `${name}: server request bytes`);
  // response: exact raw bytes, each chunk once
  assert.equal(r.resBytes, RES_SIZE, `${name}: tap response length`);
  assert.equal(r.resHash.copy().digest('hex'), sha(expected), `${name}: tap response bytes`);
  assert.ok(r.resChunks > 1, 'several chunks');
  assert.equal(r.complete, 1);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.events, ['headers', 'complete']);
  const request = seenRequests.get(id);
  assert.ok(request, 'request object seen');
  assert.equal(
    request instanceof Undici7Request ? 'v7' : 'v6',
    copy,
    `${name}: ran on the expected undici copy`,
  );
}

describe('WireTap: exact bytes on every undici path', () => {
  const rec = new Recorder();
  let tap: WireTap;
  before(() => {
    tap = startTap(rec);
  });
  after(() => tap.disable());

  for (const mode of ['chunked', 'cl'] as const) {
    test(`all clients, ${mode} response`, async (t) => {
      for (const [name, copy, fn] of clients(base)) {
        await t.test(`${name} [${copy}]`, () => exchange(rec, name, fn, mode, copy));
      }
    });
  }

  test('after undici.setGlobalDispatcher(new Agent()): undici.request, undici.fetch and global fetch', async () => {
    const previous = undici.getGlobalDispatcher();
    assert.equal(previous, bundledAgent);
    const agent = keep(new undici.Agent());
    undici.setGlobalDispatcher(agent);
    try {
      for (const mode of ['chunked', 'cl'] as const) {
        await exchange(
          rec,
          'undici.request',
          async (u, b) => reqBuf(undici.request(u, { method: 'POST', body: b })),
          mode,
          'v7',
        );
        await exchange(
          rec,
          'undici.request, Readable body',
          async (u, b) => reqBuf(requestReadable(u, b)),
          mode,
          'v7',
        );
        await exchange(
          rec,
          'undici.fetch',
          async (u, b) =>
            toBuf(await undici.fetch(u, { method: 'POST', body: b.toString('latin1') })),
          mode,
          'v7',
        );
        // Node's global fetch now goes through the npm Agent too (shared global dispatcher symbol).
        await exchange(
          rec,
          'global fetch',
          async (u, b) => toBuf(await fetchStreamed(u, b)),
          mode,
          'v7',
        );
      }
    } finally {
      undici.setGlobalDispatcher(previous);
    }
  });

  test('gzip response: tap sees the compressed bytes, fetch apps see the decoded body', async () => {
    const cases: Array<[string, (u: string) => Promise<Buffer>, Buffer]> = [
      ['global fetch [v6]', async (u) => toBuf(await fetch(u)), GZ_PLAIN],
      [
        'global fetch, npm Agent [v7]',
        async (u) => toBuf(await fetch(u, { dispatcher: npmAgent } as unknown as RequestInit)),
        GZ_PLAIN,
      ],
      [
        'undici.fetch, npm Agent [v7]',
        async (u) => toBuf(await undici.fetch(u, { dispatcher: npmAgent })),
        GZ_PLAIN,
      ],
      ['undici.request [v6]', async (u) => reqBuf(undici.request(u)), GZ],
      [
        'undici.request, npm Agent [v7]',
        async (u) => reqBuf(undici.request(u, { dispatcher: npmAgent })),
        GZ,
      ],
    ];
    for (const [name, fn, appExpected] of cases) {
      const id = newId();
      const app = await fn(`${base}/gzip?id=${id}`);
      assert.equal(sha(app), sha(appExpected), `${name}: app body`);
      await waitFor(() => rec.find(id).complete > 0, 2000, 'complete');
      const r = rec.find(id);
      assert.equal(r.headers?.['content-encoding'], 'gzip');
      assert.equal(r.resBytes, GZ.length);
      assert.equal(
        r.resHash.copy().digest('hex'),
        sha(GZ),
        `${name}: tap saw the compressed bytes`,
      );
      assert.equal(zlib.gunzipSync(GZ).equals(GZ_PLAIN), true);
    }
  });

  test('request headers: header() by lower-case name over the request object', async () => {
    const id1 = newId();
    await (
      await fetch(`${base}/echo?id=${id1}&size=10`, {
        method: 'POST',
        body: '{}',
        headers: { 'X-Test-Id': id1, 'Content-Type': 'application/json' },
      })
    ).arrayBuffer();
    const id2 = newId();
    await (
      await undici.request(`${base}/echo?id=${id2}&size=10`, {
        method: 'POST',
        body: '{}',
        headers: {
          'x-test-id': id2,
          'x-multi': ['1', '2'],
          'content-type': 'application/a2a+json',
        },
      })
    ).body.arrayBuffer();
    const r1 = rec.find(id1);
    assert.equal(r1.info.header('x-test-id'), id1);
    assert.equal(r1.info.header('X-Test-Id'), id1);
    assert.equal(r1.info.header('content-type'), 'application/json');
    assert.equal(r1.info.header('content-length'), '2');
    assert.equal(r1.info.header('x-absent'), undefined);
    assert.equal(r1.body, undefined, 'fetch bodies are streamed, not whole at create');
    const r2 = rec.find(id2);
    assert.equal(r2.info.header('x-test-id'), id2);
    assert.equal(r2.info.header('x-multi'), '1, 2');
    assert.equal(r2.info.header('content-type'), 'application/a2a+json');
    assert.equal(
      Buffer.from(r2.body as Uint8Array).toString(),
      '{}',
      'undici.request string body is whole at create',
    );
  });

  test('redirect: each hop is its own request with its own onCreate', async () => {
    const id = newId();
    const res = await fetch(`${base}/redirect?id=${id}`);
    assert.equal(res.redirected, true);
    assert.equal((await toBuf(res)).length, 1000);
    const hop1 = rec.find(id);
    await waitFor(() => rec.find(`${id}-2`).complete > 0, 2000, 'hop 2 complete');
    const hop2 = rec.find(`${id}-2`);
    assert.equal(hop1.status, 307);
    assert.equal(hop1.headers?.location, `/echo?id=${id}-2&size=1000&mode=cl`);
    assert.equal(hop1.complete, 1);
    assert.equal(hop2.status, 200);
    assert.equal(hop2.resBytes, 1000);
    assert.equal(hop2.path, `/echo?id=${id}-2&size=1000&mode=cl`);
  });
});

describe('WireTap: exactly once per chunk with two undici copies in one process', () => {
  test('concurrent global fetch (bundled undici) and npm undici; channel path for copies that publish, wrappers otherwise', async () => {
    const rec = new Recorder();
    const tap = startTap(rec);
    try {
      // Warm-up: lets the tap learn (per copy) that npm undici publishes the body channels.
      const warm = newId();
      await (
        await undici.request(`${base}/echo?id=${warm}&size=100000&mode=chunked`, {
          method: 'POST',
          body: Readable.from(chunks(REQ_BODY)),
          dispatcher: npmAgent,
        })
      ).body.arrayBuffer();
      const w = rec.find(warm);
      assert.equal(
        w.resBytes,
        100000,
        'the probe request (wrapped while the channel also fired) is reported once',
      );
      assert.equal(tapRequestSha(w), sha(REQ_BODY));
      assert.equal(
        tap.bodyPath(seenRequests.get(warm)!, 'recv') === 'wrapper',
        true,
        'first request of a copy is wrapped (probe)',
      );

      const jobs: Array<Promise<[string, 'bundled' | 'npm']>> = [];
      for (let i = 0; i < 6; i++) {
        const a = newId();
        jobs.push(
          fetchStreamed(`${base}/echo?id=${a}&size=${300 * KiB + i}&mode=chunked`, REQ_BODY)
            .then(toBuf)
            .then(() => [a, 'bundled']),
        );
        const b = newId();
        jobs.push(
          requestReadable(`${base}/echo?id=${b}&size=${300 * KiB + i}&mode=cl`, REQ_BODY, npmAgent)
            .then((r) => r.body.arrayBuffer())
            .then(() => [b, 'npm']),
        );
        const d = newId();
        jobs.push(
          requestReadable(`${base}/echo?id=${d}&size=${300 * KiB + i}&mode=cl`, REQ_BODY)
            .then((r) => r.body.arrayBuffer())
            .then(() => [d, 'bundled']),
        );
        const e = newId();
        jobs.push(
          fetch(`${base}/echo?id=${e}&size=${300 * KiB + i}&mode=chunked`, {
            method: 'POST',
            body: REQ_BODY.toString('latin1'),
            dispatcher: npmAgent,
          } as unknown as RequestInit)
            .then(toBuf)
            .then(() => [e, 'npm']),
        );
        const c = newId();
        jobs.push(
          undici
            .fetch(`${base}/echo?id=${c}&size=${300 * KiB + i}&mode=chunked`, {
              method: 'POST',
              body: REQ_BODY.toString('latin1'),
              dispatcher: npmAgent,
            })
            .then(toBuf)
            .then(() => [c, 'npm']),
        );
      }
      const done = await Promise.all(jobs);
      for (const [id, copy] of done) {
        await waitFor(() => rec.find(id).complete > 0, 2000, 'complete');
        const r = rec.find(id);
        const size = Number(/size=(\d+)/.exec(r.path)![1]);
        assert.equal(r.resBytes, size, `${id} (${copy}): response bytes reported exactly once`);
        assert.equal(r.resHash.copy().digest('hex'), sha(BIG.subarray(0, size)));
        assert.equal(
          tapRequestSha(r),
          sha(REQ_BODY),
          `${id} (${copy}): request bytes reported exactly once`,
        );
        const request = seenRequests.get(id)!;
        if (copy === 'npm') {
          assert.ok(request instanceof Undici7Request);
          assert.equal(
            tap.bodyPath(request, 'recv') === 'wrapper',
            false,
            'npm undici 7: channel path, request not wrapped',
          );
          assert.equal(tap.bodyPath(request, 'sent') === 'wrapper', false);
        } else {
          assert.ok(!(request instanceof Undici7Request));
          assert.equal(
            tap.bodyPath(request, 'recv') === 'wrapper',
            true,
            'bundled undici 6: request wrapped',
          );
          assert.equal(tap.bodyPath(request, 'sent') === 'wrapper', true);
        }
      }
      assert.deepEqual(rec.internalErrors, []);
    } finally {
      tap.disable();
    }
  });
});

describe('WireTap: the application sees no difference', () => {
  test('byte-identical bodies with the tap enabled vs disabled (4 MiB)', async () => {
    const get = async (fn: (u: string) => Promise<Buffer>) =>
      sha(await fn(`${base}/echo?id=${newId()}&size=${4 * MiB}&mode=chunked`));
    const fns: Array<(u: string) => Promise<Buffer>> = [
      async (u) => toBuf(await fetch(u, { method: 'POST', body: 'x' })),
      async (u) =>
        toBuf(await undici.fetch(u, { method: 'POST', body: 'x', dispatcher: npmAgent })),
      async (u) => reqBuf(undici.request(u, { method: 'POST', body: 'x' })),
      async (u) => reqBuf(undici.request(u, { method: 'POST', body: 'x', dispatcher: npmAgent })),
    ];
    for (const fn of fns) {
      const off = await get(fn);
      const rec = new Recorder();
      const tap = startTap(rec);
      let on: string;
      try {
        on = await get(fn);
      } finally {
        tap.disable();
      }
      assert.equal(on, off);
      assert.equal(on, sha(BIG));
      assert.equal(rec.recs.length, 1);
      assert.equal(rec.recs[0]!.resBytes, 4 * MiB, 'the tap was really on that request');
    }
  });

  for (const [name, doFetch] of [
    ['global fetch [v6]', (u: string) => fetch(u)],
    [
      'global fetch, npm Agent [v7]',
      (u: string) => fetch(u, { dispatcher: npmAgent } as unknown as RequestInit),
    ],
    [
      'undici.fetch, npm Agent [v7]',
      (u: string) => undici.fetch(u, { dispatcher: npmAgent }) as unknown as Promise<Response>,
    ],
  ] as const) {
    test(`${name}: SSE-like endless response, read 3 chunks then reader.cancel()`, async () => {
      const rec = new Recorder();
      const tap = startTap(rec);
      try {
        const id = newId();
        const res = await doFetch(`${base}/sse?id=${id}`);
        const reader = res.body!.getReader();
        for (let i = 0; i < 3; i++) {
          const { done, value } = await reader.read();
          assert.equal(done, false);
          assert.ok(value && value.byteLength > 0);
        }
        await withTimeout(reader.cancel(), 3000, 'reader.cancel()');
        await withTimeout(S.closed.get(id)!, 3000, 'server sees the connection closed');
        const r = rec.find(id);
        await waitFor(() => r.errors.length + r.complete > 0, 3000, 'onError/onComplete');
        assert.equal(r.errors.length + r.complete, 1, 'exactly one terminal callback');
        assert.ok(r.resBytes > 0);
      } finally {
        tap.disable();
      }
    });
  }

  test('AbortController abort mid-body: same error as without the tap', async () => {
    type Run = (u: string, signal: AbortSignal, abort: () => void) => Promise<string>;
    const viaFetch =
      (f: typeof fetch): Run =>
      async (u, signal, abort) => {
        const res = await f(u, { signal });
        const reader = res.body!.getReader();
        await reader.read();
        await reader.read();
        abort();
        try {
          for (;;) if ((await reader.read()).done) return 'done';
        } catch (e) {
          return (e as Error).name;
        }
      };
    const runs: Array<[string, Run]> = [
      ['global fetch [v6]', viaFetch(fetch)],
      [
        'global fetch, npm Agent [v7]',
        viaFetch(((u: string, init: RequestInit) =>
          fetch(u, { ...init, dispatcher: npmAgent } as unknown as RequestInit)) as typeof fetch),
      ],
      [
        'undici.fetch, npm Agent [v7]',
        viaFetch(((u: string, init: RequestInit) =>
          undici.fetch(u, {
            ...(init as UndiciNs.RequestInit),
            dispatcher: npmAgent,
          })) as unknown as typeof fetch),
      ],
      [
        'undici.request, npm Agent [v7]',
        async (u, signal, abort) => {
          const { body } = await undici.request(u, { signal, dispatcher: npmAgent });
          let n = 0;
          try {
            for await (const _ of body) if (++n === 2) abort();
            return 'done';
          } catch (e) {
            return (e as Error).name;
          }
        },
      ],
    ];
    for (const [name, run] of runs) {
      const once = async () => {
        const id = newId();
        const ac = new AbortController();
        const result = await withTimeout(
          run(`${base}/sse?id=${id}`, ac.signal, () => ac.abort()),
          3000,
          `${name} abort`,
        );
        await withTimeout(S.closed.get(id)!, 3000, 'server sees the connection closed');
        return { id, result };
      };
      const plain = await once();
      const rec = new Recorder();
      const tap = startTap(rec);
      let tapped: { id: string; result: string };
      try {
        tapped = await once();
        const r = rec.find(tapped.id);
        await waitFor(() => r.errors.length > 0, 3000, 'onError');
        assert.equal(r.complete, 0);
        assert.equal(r.errors.length, 1);
      } finally {
        tap.disable();
      }
      assert.equal(plain.result, 'AbortError', `${name} without tap`);
      assert.equal(tapped.result, plain.result, `${name}: same error name with the tap`);
    }
  });

  test('backpressure preserved: 64 MiB to a client that does not read for 500 ms', async () => {
    type Kind = 'global fetch [v6]' | 'undici.request [v6]' | 'undici.request, npm Agent [v7]';
    const measure = async (kind: Kind, withTap: boolean): Promise<number> => {
      const rec = new Recorder();
      const tap = withTap ? startTap(rec) : undefined;
      try {
        // warm-up so that npm undici is on its channel path (not the probe wrapper) when tapped
        await reqBuf(
          undici.request(`${base}/echo?id=${newId()}&size=50000`, { dispatcher: npmAgent }),
        );
        const id = newId();
        let cancel: () => Promise<unknown>;
        if (kind === 'global fetch [v6]') {
          const res = await fetch(`${base}/big?id=${id}`);
          cancel = () => res.body!.cancel();
        } else {
          const { body } = await undici.request(
            `${base}/big?id=${id}`,
            kind === 'undici.request [v6]' ? {} : { dispatcher: npmAgent },
          );
          cancel = async () => body.destroy();
        }
        await sleep(500);
        const written = S.written.get(id)!;
        await cancel();
        await withTimeout(S.closed.get(id)!, 3000, 'server closed');
        if (withTap) {
          assert.ok(rec.find(id).resBytes > 0, 'tap was on');
          assert.equal(
            tap!.bodyPath(seenRequests.get(id)!, 'recv') === 'wrapper',
            kind !== 'undici.request, npm Agent [v7]',
            'path used',
          );
        }
        return written;
      } finally {
        tap?.disable();
      }
    };
    for (const kind of [
      'global fetch [v6]',
      'undici.request [v6]',
      'undici.request, npm Agent [v7]',
    ] as const) {
      const plain = await measure(kind, false);
      const tapped = await measure(kind, true);
      assert.ok(
        plain < 32 * MiB,
        `${kind}: sanity, the server is held back without the tap (${plain})`,
      );
      assert.ok(tapped <= 2 * plain + MiB, `${kind}: with tap ${tapped} B vs without ${plain} B`);
    }
  });
});

describe('WireTap: robustness and lifecycle', () => {
  test('a throwing observer (and a throwing onCreate) never breaks the request', async () => {
    const errors: Array<[string, unknown]> = [];
    let throwOnCreate = false;
    const boom = () => {
      throw new Error('observer boom');
    };
    const tap = new WireTap(
      {
        onCreate() {
          if (throwOnCreate) throw new Error('create boom');
          return {
            onRequestBody: boom,
            onResponseHeaders: boom,
            onResponseBody: boom,
            onComplete: boom,
            onError: boom,
          };
        },
      },
      (where, err) => {
        errors.push([where, err]);
        throw new Error('even onInternalError throws'); // must be swallowed too
      },
    );
    tap.enable();
    try {
      const u = () => `${base}/echo?id=${newId()}&size=${200 * KiB}&mode=chunked`;
      const expected = sha(BIG.subarray(0, 200 * KiB));
      assert.equal(sha(await toBuf(await fetch(u(), { method: 'POST', body: 'hello' }))), expected);
      assert.equal(
        sha(
          await toBuf(
            await undici.fetch(u(), { method: 'POST', body: 'hello', dispatcher: npmAgent }),
          ),
        ),
        expected,
      );
      assert.equal(
        sha(
          await reqBuf(
            undici.request(u(), { method: 'POST', body: Readable.from([Buffer.from('hello')]) }),
          ),
        ),
        expected,
      );
      for (let i = 0; i < 2; i++) {
        // first: probe (wrapped), second: channel path
        assert.equal(
          sha(
            await reqBuf(
              undici.request(u(), {
                method: 'POST',
                body: Readable.from([Buffer.from('hello')]),
                dispatcher: npmAgent,
              }),
            ),
          ),
          expected,
        );
      }
      const wheres = new Set(errors.map(([w]) => w));
      for (const w of ['onRequestBody', 'onResponseHeaders', 'onResponseBody', 'onComplete'])
        assert.ok(wheres.has(w), `reported ${w}`);
      // onError throwing, via an abort
      const ac = new AbortController();
      const res = await fetch(`${base}/sse?id=${newId()}`, { signal: ac.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      await assert.rejects(reader.read(), { name: 'AbortError' });
      await waitFor(() => errors.some(([w]) => w === 'onError'), 2000, 'onError reported');
      throwOnCreate = true;
      const before = errors.length;
      assert.equal(sha(await toBuf(await fetch(u()))), expected);
      assert.equal(errors.length, before + 1);
      assert.equal(errors[before]![0], 'onCreate');
    } finally {
      tap.disable();
    }
  });

  test('disable() stops all reporting, also for in-flight requests (wrapped and channel paths)', async () => {
    const rec = new Recorder();
    const tap = startTap(rec);
    try {
      // make npm undici learn its channel path first
      await reqBuf(
        undici.request(`${base}/echo?id=${newId()}&size=50000`, { dispatcher: npmAgent }),
      );
      const id1 = newId();
      const res1 = await fetch(`${base}/sse?id=${id1}`);
      const r1reader = res1.body!.getReader();
      const id2 = newId();
      const res2 = await undici.request(`${base}/sse?id=${id2}`, { dispatcher: npmAgent });
      const it2 = res2.body[Symbol.asyncIterator]();
      await r1reader.read();
      await it2.next();
      assert.equal(tap.bodyPath(seenRequests.get(id1)!, 'recv') === 'wrapper', true);
      assert.equal(tap.bodyPath(seenRequests.get(id2)!, 'recv') === 'wrapper', false);
      await waitFor(
        () => rec.find(id1).resChunks > 0 && rec.find(id2).resChunks > 0,
        2000,
        'chunks before disable',
      );
      tap.disable();
      const frozen = [rec.find(id1).resChunks, rec.find(id2).resChunks];
      const creates = rec.creates;
      for (let i = 0; i < 5; i++) {
        await r1reader.read();
        await it2.next();
      }
      await r1reader.cancel();
      await it2.return?.();
      res2.body.destroy();
      await withTimeout(Promise.all([S.closed.get(id1)!, S.closed.get(id2)!]), 3000, 'closed');
      await (await fetch(`${base}/echo?id=${newId()}&size=10`)).arrayBuffer();
      await sleep(20);
      assert.deepEqual(
        [rec.find(id1).resChunks, rec.find(id2).resChunks],
        frozen,
        'no chunks after disable',
      );
      assert.deepEqual(
        [rec.find(id1).errors.length, rec.find(id2).errors.length],
        [0, 0],
        'no onError after disable',
      );
      assert.equal(rec.creates, creates, 'no onCreate after disable');
    } finally {
      tap.disable(); // idempotent; keeps a failed assertion from leaking an enabled tap
    }
  });

  test('an ended request keeps nothing of its observer reachable, even while undici still holds the request', async () => {
    // Issue 16: WeakMap entries keyed by undici's request kept every call's graph alive through
    // the young-generation collections (promoted, 4x longer scavenges). Here the request object
    // stays reachable (held by the test), which keeps any WeakMap value keyed by it alive: the
    // observer must not be such a value once the request has ended.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held: object[] = [];
    const hold = (m: unknown): void => void held.push((m as { request: object }).request);
    diagnosticsChannel.subscribe('undici:request:create', hold);
    let ref: WeakRef<WireObserver> | undefined;
    let completes = 0;
    const tap = new WireTap(
      {
        onCreate: () => {
          const observer: WireObserver = {
            onResponseBody: () => {},
            onComplete: () => void completes++,
          };
          ref = new WeakRef(observer);
          return observer;
        },
      },
      () => undefined,
    );
    tap.enable();
    try {
      const exchanges: Array<() => Promise<unknown>> = [
        async () =>
          (
            await fetch(`${base}/echo?id=${newId()}&size=${KiB}`, { method: 'POST', body: 'abc' })
          ).arrayBuffer(),
        async () =>
          (
            await undici.request(`${base}/echo?id=${newId()}&size=${KiB}`, {
              method: 'POST',
              body: 'abc',
            })
          ).body.arrayBuffer(),
      ];
      for (const exchange of exchanges) {
        await exchange();
        await waitFor(() => completes > 0, 2000, 'complete');
        completes = 0;
        for (let i = 0; i < 3 && ref?.deref() !== undefined; i++) {
          await new Promise((r) => setImmediate(r));
          gc();
        }
        assert.ok(held.length > 0, 'the request objects are held');
        assert.equal(ref?.deref(), undefined, 'the observer was collected');
      }
    } finally {
      tap.disable();
      diagnosticsChannel.unsubscribe('undici:request:create', hold);
    }
  });

  test('enable/disable twice is harmless; re-enable works', async () => {
    const rec = new Recorder();
    const tap = new WireTap(rec, rec.onInternalError);
    tap.enable();
    tap.enable();
    try {
      const id = newId();
      await (
        await fetch(`${base}/echo?id=${id}&size=${100 * KiB}`, { method: 'POST', body: 'abc' })
      ).arrayBuffer();
      await waitFor(() => rec.find(id).complete > 0, 2000, 'complete');
      assert.equal(rec.creates, 1);
      assert.equal(rec.find(id).resBytes, 100 * KiB, 'reported once despite double enable');
      assert.equal(tapRequestSha(rec.find(id)), sha('abc'));
      tap.disable();
      tap.disable();
      await (await fetch(`${base}/echo?id=${newId()}&size=10`)).arrayBuffer();
      assert.equal(rec.creates, 1);
      tap.enable();
      const id2 = newId();
      await (await undici.request(`${base}/echo?id=${id2}&size=${100 * KiB}`)).body.arrayBuffer();
      await waitFor(() => rec.find(id2).complete > 0, 2000, 'complete');
      assert.equal(rec.find(id2).resBytes, 100 * KiB);
      tap.disable();
    } finally {
      tap.disable();
    }
    assert.deepEqual(rec.internalErrors, []);
  });

  test('a delegate returning undefined gets no further calls and the request is left untouched', async () => {
    const infos: WireRequestInfo[] = [];
    const errors: unknown[] = [];
    const tap = new WireTap({ onCreate: (info) => void infos.push(info) }, (_w, e) =>
      errors.push(e),
    );
    tap.enable();
    try {
      const ids = [newId(), newId(), newId(), newId()];
      await (
        await fetch(`${base}/echo?id=${ids[0]}&size=${64 * KiB}`, {
          method: 'POST',
          body: streamBody(REQ_BODY),
          duplex: 'half',
        } as unknown as RequestInit)
      ).arrayBuffer();
      await (
        await undici.request(`${base}/echo?id=${ids[1]}&size=${64 * KiB}`, {
          method: 'POST',
          body: Readable.from(chunks(REQ_BODY)),
        })
      ).body.arrayBuffer();
      await (
        await undici.fetch(`${base}/echo?id=${ids[2]}&size=${64 * KiB}`, {
          method: 'POST',
          body: 'x',
          dispatcher: npmAgent,
        })
      ).arrayBuffer();
      await reqBuf(
        undici.request(`${base}/echo?id=${ids[3]}&size=${64 * KiB}`, {
          method: 'POST',
          body: Readable.from(chunks(REQ_BODY)),
          dispatcher: npmAgent,
        }),
      );
      assert.equal(infos.length, 4, 'one onCreate per request');
      for (const id of ids) {
        const req = seenRequests.get(id)!;
        assert.deepEqual(
          Object.keys(req).filter((k) => k.startsWith('on')),
          [],
          'no wrapper installed',
        );
      }
      assert.deepEqual(errors, []);
    } finally {
      tap.disable();
    }
  });

  test("onCreate runs with the caller's AsyncLocalStorage store active", async () => {
    const als = new AsyncLocalStorage<unknown>();
    const rec = new Recorder(als);
    const tap = startTap(rec);
    try {
      const calls: Array<(u: string) => Promise<unknown>> = [
        (u) => fetch(u).then(toBuf),
        (u) => fetch(u, { dispatcher: npmAgent } as unknown as RequestInit).then(toBuf),
        (u) => reqBuf(undici.request(u)),
        (u) => reqBuf(undici.request(u, { dispatcher: npmAgent })),
        (u) => undici.fetch(u, { dispatcher: npmAgent }).then(toBuf),
      ];
      // concurrent calls, each in its own store
      const ids = calls.map(() => newId());
      const stores = calls.map((_, i) => ({ caller: i }));
      await Promise.all(
        calls.map((call, i) => als.run(stores[i], () => call(`${base}/echo?id=${ids[i]}&size=10`))),
      );
      ids.forEach((id, i) => assert.equal(rec.find(id).store, stores[i], `call ${i}`));
      // and synchronously, inside the call itself (not deferred to a later tick)
      for (const call of calls) {
        const id = newId();
        const p = call(`${base}/echo?id=${id}&size=10`);
        assert.equal(
          rec.find(id).store,
          undefined,
          'recorded before the call returned; outside als.run',
        );
        await p;
      }
      const syncSeen: boolean[] = [];
      const tap2 = new WireTap({ onCreate: () => void syncSeen.push(inCall2) }, () => undefined);
      let inCall2 = false;
      tap2.enable();
      try {
        for (const call of calls) {
          inCall2 = true;
          const p = call(`${base}/echo?id=${newId()}&size=10`);
          inCall2 = false;
          await p;
        }
      } finally {
        tap2.disable();
      }
      assert.deepEqual(
        syncSeen,
        calls.map(() => true),
        'onCreate ran synchronously inside each call',
      );
    } finally {
      tap.disable();
    }
  });

  test('documents: a request queued in a connection-limited Pool is created later, outside the caller context', async () => {
    const als = new AsyncLocalStorage<unknown>();
    const rec = new Recorder(als);
    const tap = startTap(rec);
    const pool = keep(new undici.Pool(base, { connections: 1 }));
    try {
      const ids = [newId(), newId()];
      const stores = [{ caller: 1 }, { caller: 2 }];
      const p = ids.map((id, i) =>
        als.run(stores[i], () =>
          undici
            .request(`${base}/echo?id=${id}&size=1000`, { dispatcher: pool })
            .then((r) => r.body.arrayBuffer()),
        ),
      );
      assert.equal(
        rec.recs.filter((r) => ids.some((id) => r.path.includes(id))).length,
        1,
        'second create is deferred',
      );
      await Promise.all(p);
      assert.equal(rec.find(ids[0]!).store, stores[0]);
      assert.notEqual(
        rec.find(ids[1]!).store,
        stores[1],
        "queued request's onCreate does not see its caller's store",
      );
      assert.equal(rec.find(ids[1]!).resBytes, 1000, 'but its bytes are still seen');
    } finally {
      tap.disable();
    }
  });
});

describe('header helpers', () => {
  test('lookupRequestHeader handles string, flat array, pair array and object forms', () => {
    assert.equal(
      lookupRequestHeader({ headers: 'X-A: 1\r\nx-a: 2\r\nContent-Type: text/plain\r\n' }, 'x-a'),
      '1, 2',
    );
    assert.equal(lookupRequestHeader({ headers: 'X-A: 1\r\n' }, 'content-type'), undefined);
    assert.equal(lookupRequestHeader({ headers: ['X-A', '1', 'x-b', ['2', '3']] }, 'x-b'), '2, 3');
    assert.equal(
      lookupRequestHeader({ headers: [Buffer.from('X-A'), Buffer.from('v')] }, 'x-a'),
      'v',
    );
    assert.equal(
      lookupRequestHeader(
        {
          headers: [
            ['X-A', '1'],
            ['x-a', '2'],
          ],
        },
        'x-a',
      ),
      '1, 2',
    );
    assert.equal(lookupRequestHeader({ headers: { 'X-A': '1' } }, 'x-a'), '1');
    assert.equal(
      lookupRequestHeader({ headers: [], host: 'h:1', contentLength: 5 }, 'host'),
      'h:1',
    );
    assert.equal(
      lookupRequestHeader({ headers: [], host: null, contentLength: 5 }, 'content-length'),
      '5',
    );
    assert.equal(lookupRequestHeader({ headers: null }, 'x'), undefined);
  });

  test('responseHeaderRecord lower-cases and joins repeats', () => {
    const rec = responseHeaderRecord([
      Buffer.from('Set-Cookie'),
      Buffer.from('a=1'),
      'set-cookie',
      'b=2',
      'X-Y',
      Buffer.from('z'),
      '__proto__',
      'p',
    ]);
    assert.equal(rec['set-cookie'], 'a=1, b=2');
    assert.equal(rec['x-y'], 'z');
    assert.equal(Object.getOwnPropertyDescriptor(rec, '__proto__')?.value, 'p');
    assert.equal(Object.getPrototypeOf(rec), Object.prototype);
  });
});

test('responseHeaderRecord with a header filter decodes only the names asked for (Buffer and string forms)', () => {
  const filter = headerFilter(['content-type', 'Location']);
  const raw = [
    Buffer.from('Content-Type'),
    Buffer.from('application/json'),
    Buffer.from('X-Secret'),
    Buffer.from('s3cr3t'),
    Buffer.from('location'),
    Buffer.from('/next'),
    'Set-Cookie',
    'a=b',
  ];
  assert.deepEqual(responseHeaderRecord(raw, filter), {
    'content-type': 'application/json',
    location: '/next',
  });
  assert.deepEqual(responseHeaderRecord({ 'Content-Type': 'text/html', Vary: 'x' }, filter), {
    'content-type': 'text/html',
  });
  assert.equal(Object.keys(responseHeaderRecord(raw)).length, 4, 'no filter: every header');
  // Same length as a wanted name but another name (x-powered-by vs content-type), mixed case,
  // repeats joined, bytes that only match case-insensitively in ASCII.
  const tricky = [
    Buffer.from('X-Powered-By'),
    Buffer.from('Express'),
    Buffer.from('CONTENT-TYPE'),
    Buffer.from('text/plain'),
    Buffer.from('content-type'),
    Buffer.from('x'),
    Buffer.from('cONTENT\u00e9TYPE', 'latin1'),
    Buffer.from('no'),
  ];
  assert.deepEqual(responseHeaderRecord(tricky, filter), { 'content-type': 'text/plain, x' });
});
