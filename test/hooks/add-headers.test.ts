/**
 * WireRequestInfo.addHeaders: headers added at undici request creation reach the server,
 * once; a create subscriber that runs after ours and adds the same name through
 * `request.addHeader` (as instrumentation-undici does for `traceparent`) wins, and the request
 * still carries exactly one; `info.header()` sees what earlier subscribers added. With the
 * real npm undici (request, fetch, own Agent) and Node's global fetch against a local server
 * that records raw request headers.
 *
 * Run: node --import tsx --test test/hooks/add-headers.test.ts
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import type * as UndiciNs from 'undici';
import { WireTap } from '../../src/hooks/wire-tap';
import { addRequestHeaders } from '../../src/hooks/undici-headers';
import type { WireRequestInfo } from '../../src/hooks/types';

// Node's bundled undici first (global fetch runs on it), then npm undici.
new Headers();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici: typeof UndiciNs = require('undici');

const OURS = '00-11111111111111111111111111111111-2222222222222222-01';
const THEIRS = '00-33333333333333333333333333333333-4444444444444444-01';
const CREATE = 'undici:request:create';

type Client = (url: string) => Promise<void>;
const npmAgent = new undici.Agent();
const CLIENTS: Record<string, Client> = {
  'global fetch': async (url) => {
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
  },
  'npm undici.request': async (url) => {
    await (await undici.request(url, { method: 'POST', body: '{}' })).body.text();
  },
  'npm undici.request on an npm Agent': async (url) => {
    await (
      await undici.request(url, { method: 'POST', body: '{}', dispatcher: npmAgent })
    ).body.text();
  },
  'npm undici.fetch': async (url) => {
    await (await undici.fetch(url, { method: 'POST', body: '{}' })).text();
  },
};

/** Raw header values of `name` (case-insensitive) in the request the server saw. */
function values(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i].toLowerCase() === name) out.push(raw[i + 1]);
  return out;
}

describe('WireRequestInfo.addHeaders', () => {
  let server: http.Server;
  let base: string;
  const seen = new Map<string, string[]>();
  let tap: WireTap | undefined;
  const cleanups: Array<() => void> = [];
  let n = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      seen.set(req.url ?? '', req.rawHeaders);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(() => {
    tap?.disable();
    tap = undefined;
    for (const c of cleanups.splice(0)) c();
  });

  after(async () => {
    await npmAgent.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  /** A tap whose delegate adds our headers to requests for /h/... unless `skipIfPresent` is on the request. */
  function ourTap(skipIfPresent?: string): { infos: WireRequestInfo[] } {
    const infos: WireRequestInfo[] = [];
    tap = new WireTap(
      {
        onCreate(info) {
          if (!info.path.startsWith('/h/')) return undefined;
          infos.push(info);
          if (skipIfPresent === undefined || info.header(skipIfPresent) === undefined) {
            info.addHeaders({ traceparent: OURS, 'x-a2a-added': 'yes' });
          }
          return undefined;
        },
      },
      (where, err) => assert.fail(`${where}: ${String(err)}`),
    );
    tap.enable();
    return { infos };
  }

  function otherSubscriber(): void {
    const fn = (m: unknown) => {
      const request = (m as { request: { path: string; addHeader(k: string, v: string): unknown } })
        .request;
      if (request.path.startsWith('/h/')) request.addHeader('traceparent', THEIRS);
    };
    diagnosticsChannel.subscribe(CREATE, fn);
    cleanups.push(() => diagnosticsChannel.unsubscribe(CREATE, fn));
  }

  for (const [name, client] of Object.entries(CLIENTS)) {
    test(`${name}: our headers alone reach the server once`, async () => {
      const { infos } = ourTap();
      const path = `/h/${++n}`;
      await client(base + path);
      assert.equal(infos.length, 1);
      const raw = seen.get(path);
      assert.ok(raw, 'request seen');
      assert.deepEqual(values(raw, 'traceparent'), [OURS]);
      assert.deepEqual(values(raw, 'x-a2a-added'), ['yes']);
    });

    test(`${name}: a later create subscriber's addHeader of the same name replaces ours`, async () => {
      ourTap();
      otherSubscriber(); // subscribed after our tap: runs after it
      const path = `/h/${++n}`;
      await client(base + path);
      const raw = seen.get(path);
      assert.ok(raw, 'request seen');
      assert.deepEqual(values(raw, 'traceparent'), [THEIRS]);
      assert.deepEqual(values(raw, 'x-a2a-added'), ['yes'], 'our other headers stay');
    });

    test(`${name}: info.header() sees what an earlier create subscriber added`, async () => {
      otherSubscriber(); // subscribed before our tap: runs before it
      const { infos } = ourTap('traceparent');
      const path = `/h/${++n}`;
      await client(base + path);
      assert.equal(infos.length, 1);
      const raw = seen.get(path);
      assert.ok(raw, 'request seen');
      assert.deepEqual(values(raw, 'traceparent'), [THEIRS]);
      assert.deepEqual(
        values(raw, 'x-a2a-added'),
        [],
        'skipped: the delegate saw the earlier traceparent',
      );
    });
  }

  test('a header undici refuses is skipped and reported, the others are added', async () => {
    const errors: string[] = [];
    tap = new WireTap(
      {
        onCreate(info) {
          if (info.path.startsWith('/h/'))
            info.addHeaders({ 'bad header': 'x', traceparent: OURS });
          return undefined;
        },
      },
      (where) => errors.push(where),
    );
    tap.enable();
    const path = `/h/${++n}`;
    await CLIENTS['npm undici.request'](base + path);
    assert.deepEqual(errors, ['addHeaders']);
    assert.deepEqual(values(seen.get(path) ?? [], 'traceparent'), [OURS]);
  });
});

describe('addRequestHeaders on undici 5 / 6.11 shaped requests', () => {
  test('undici 5: string headers with addHeader; a later add of the same name removes ours', () => {
    const request = {
      headers: 'accept: */*\r\n',
      addHeader(this: { headers: string }, k: string, v: string) {
        this.headers += `${k}: ${v}\r\n`;
        return this;
      },
    };
    addRequestHeaders(request, { traceparent: OURS, 'x-a2a-added': 'yes' });
    assert.equal(request.headers, `accept: */*\r\ntraceparent: ${OURS}\r\nx-a2a-added: yes\r\n`);
    assert.ok(Object.prototype.hasOwnProperty.call(request, 'addHeader'));
    request.addHeader('Traceparent', THEIRS);
    assert.equal(request.headers, `accept: */*\r\nx-a2a-added: yes\r\nTraceparent: ${THEIRS}\r\n`);
  });

  test('undici 6/7: array headers; addHeader wrapped once on the prototype, no own property, other requests pass through', () => {
    class Req {
      headers: string[] = ['accept', '*/*'];
      addHeader(k: string, v: string) {
        this.headers.push(k, v);
        return this;
      }
    }
    const protoAdd = Req.prototype.addHeader;
    const request = new Req();
    addRequestHeaders(request as never, { traceparent: OURS });
    const wrapped = Req.prototype.addHeader;
    assert.notEqual(wrapped, protoAdd, 'wrapped on the prototype');
    assert.equal(wrapped.name, 'addHeader');
    assert.equal(wrapped.length, protoAdd.length);
    assert.equal(Object.prototype.hasOwnProperty.call(request, 'addHeader'), false);
    assert.deepEqual(request.headers, ['accept', '*/*', 'traceparent', OURS]);
    request.addHeader('traceparent', THEIRS);
    assert.deepEqual(request.headers, ['accept', '*/*', 'traceparent', THEIRS]);
    request.addHeader('traceparent', 'third'); // not ours any more: left to undici
    assert.deepEqual(request.headers, [
      'accept',
      '*/*',
      'traceparent',
      THEIRS,
      'traceparent',
      'third',
    ]);
    // A request we added nothing to: its addHeader calls pass through unchanged.
    const other = new Req();
    assert.equal(other.addHeader('traceparent', THEIRS), other);
    assert.deepEqual(other.headers, ['accept', '*/*', 'traceparent', THEIRS]);
    // A second request of the class: the prototype is not wrapped twice.
    const again = new Req();
    addRequestHeaders(again as never, { traceparent: OURS });
    assert.equal(Req.prototype.addHeader, wrapped);
    again.addHeader('TraceParent', THEIRS);
    assert.deepEqual(again.headers, ['accept', '*/*', 'TraceParent', THEIRS]);
  });

  test('no addHeader (undici 6.11): pushed to the array; undici 5 without addHeader: appended to the string', () => {
    const arr = { headers: ['a', 'b'] as string[] };
    addRequestHeaders(arr, { traceparent: OURS });
    assert.deepEqual(arr.headers, ['a', 'b', 'traceparent', OURS]);
    const str = { headers: '' };
    addRequestHeaders(str, { traceparent: OURS });
    assert.equal(str.headers, `traceparent: ${OURS}\r\n`);
  });
});
