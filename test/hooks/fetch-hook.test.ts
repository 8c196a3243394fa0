/**
 * The global fetch wrapper is indistinguishable from the native fetch it wraps: same name,
 * length and own keys (no marker property), each `init` getter read exactly as often as bare
 * fetch reads it, and a throwing `init` getter gives the same rejection (same error object).
 * With the real A2AInstrumentation (its handler classifies the call from `init`) and a real
 * local server.
 *
 * Run: node --import tsx --test test/hooks/fetch-hook.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupOtel, type Harness } from '../helpers/otel';

/** Captured before anything is installed. */
const nativeFetch = globalThis.fetch;

const A2A_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: { message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm1' } },
});
const ANSWER = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: {
    kind: 'message',
    role: 'agent',
    parts: [{ kind: 'text', text: 'ok' }],
    messageId: 'r1',
  },
});

/** Every RequestInit member undici (6 and 7) reads, with a value native fetch accepts. */
function initValues(body: string): Record<string, unknown> {
  return {
    body,
    cache: 'default',
    credentials: 'same-origin',
    dispatcher: undefined,
    duplex: 'half',
    headers: { 'content-type': 'application/json' },
    integrity: '',
    keepalive: false,
    method: 'POST',
    mode: 'cors',
    redirect: 'follow',
    referrer: undefined,
    referrerPolicy: '',
    signal: undefined,
    window: undefined,
  };
}

type Counts = Record<string, number>;

/** A plain object whose every member is a counting getter. */
function countingInit(
  values: Record<string, unknown>,
  counts: Counts,
  throwing?: [string, Error],
): RequestInit {
  const init: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    counts[key] = 0;
    Object.defineProperty(init, key, {
      enumerable: true,
      configurable: true,
      get() {
        counts[key]++;
        if (throwing && throwing[0] === key) throw throwing[1];
        return values[key];
      },
    });
  }
  return init as RequestInit;
}

/** A class instance with private state and getters on its prototype. */
class InitLike {
  readonly #values: Record<string, unknown>;
  readonly #counts: Counts;
  constructor(values: Record<string, unknown>, counts: Counts) {
    this.#values = values;
    this.#counts = counts;
    for (const k of ['body', 'headers', 'method', 'redirect', 'signal', 'cache', 'mode'])
      counts[k] = 0;
  }
  #read(k: string): unknown {
    this.#counts[k]++;
    return this.#values[k];
  }
  get body(): unknown {
    return this.#read('body');
  }
  get headers(): unknown {
    return this.#read('headers');
  }
  get method(): unknown {
    return this.#read('method');
  }
  get redirect(): unknown {
    return this.#read('redirect');
  }
  get signal(): unknown {
    return this.#read('signal');
  }
  get cache(): unknown {
    return this.#read('cache');
  }
  get mode(): unknown {
    return this.#read('mode');
  }
}

describe('global fetch wrapper', () => {
  let server: http.Server;
  let base: string;
  let otel: Harness;
  let requests = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(req.url === '/plain' ? '{"plain":true}' : ANSWER);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    otel = setupOtel();
  });

  after(async () => {
    await otel.shutdown();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('is installed and has the native name, length and own keys', () => {
    assert.notEqual(globalThis.fetch, nativeFetch, 'the wrapper is installed');
    assert.equal(globalThis.fetch.name, nativeFetch.name);
    assert.equal(globalThis.fetch.length, nativeFetch.length);
    assert.deepEqual(Reflect.ownKeys(globalThis.fetch), Reflect.ownKeys(nativeFetch));
    for (const key of Reflect.ownKeys(nativeFetch)) {
      const ours = Object.getOwnPropertyDescriptor(globalThis.fetch, key);
      const theirs = Object.getOwnPropertyDescriptor(nativeFetch, key);
      assert.ok(ours && theirs);
      assert.equal(ours.writable, theirs.writable, String(key));
      assert.equal(ours.enumerable, theirs.enumerable, String(key));
      assert.equal(ours.configurable, theirs.configurable, String(key));
      if (key !== 'prototype') assert.equal(ours.value, theirs.value, String(key));
    }
    assert.equal(Object.getOwnPropertySymbols(globalThis.fetch).length, 0);
    assert.equal(Object.getPrototypeOf(globalThis.fetch), Object.getPrototypeOf(nativeFetch));
  });

  for (const [what, path, body] of [
    ['A2A JSON-RPC POST', '/a2a', A2A_BODY],
    ['non-A2A POST', '/plain', '{"x":1}'],
  ] as const) {
    test(`${what}: each init getter is read as often as bare fetch reads it`, async () => {
      const bareCounts: Counts = {};
      const r1 = await nativeFetch(base + path, countingInit(initValues(body), bareCounts));
      await r1.text();
      const ourCounts: Counts = {};
      await otel.reset();
      const r2 = await globalThis.fetch(base + path, countingInit(initValues(body), ourCounts));
      await r2.text();
      assert.ok(Object.values(bareCounts).some((n) => n > 0));
      assert.deepEqual(ourCounts, bareCounts);
      if (path === '/a2a') {
        // The handler really classified this call from init (a span was made).
        await otel.waitForSpans((s) => s.length > 0);
      }
    });

    test(`${what}: a class-instance init is read as often as bare fetch reads it`, async () => {
      const bareCounts: Counts = {};
      const r1 = await nativeFetch(
        base + path,
        new InitLike(initValues(body), bareCounts) as RequestInit,
      );
      await r1.text();
      const ourCounts: Counts = {};
      const r2 = await globalThis.fetch(
        base + path,
        new InitLike(initValues(body), ourCounts) as RequestInit,
      );
      await r2.text();
      assert.equal(bareCounts.body, 1);
      assert.deepEqual(ourCounts, bareCounts);
    });
  }

  test('a plain data init reaches the server unchanged', async () => {
    const before = requests;
    const init = {
      method: 'POST',
      body: A2A_BODY,
      headers: { 'content-type': 'application/json' },
    };
    const r = await globalThis.fetch(`${base}/a2a`, init);
    assert.equal(await r.text(), ANSWER);
    assert.equal(requests, before + 1);
  });

  for (const key of ['body', 'method', 'redirect']) {
    test(`a throwing ${key} getter: the same rejection (same error object) as bare fetch`, async () => {
      const err = new Error(`boom ${key}`);
      const bareCounts: Counts = {};
      const bare = nativeFetch(
        `${base}/a2a`,
        countingInit(initValues(A2A_BODY), bareCounts, [key, err]),
      );
      await assert.rejects(bare, (e) => e === err);
      const ourCounts: Counts = {};
      let ours: Promise<Response> | undefined;
      assert.doesNotThrow(() => {
        ours = globalThis.fetch(
          `${base}/a2a`,
          countingInit(initValues(A2A_BODY), ourCounts, [key, err]),
        );
      }, 'never throws synchronously');
      assert.ok(ours instanceof Promise);
      await assert.rejects(ours, (e) => e === err);
      assert.equal(ourCounts[key], bareCounts[key], `${key} getter calls`);
      if (key === 'body') assert.deepEqual(ourCounts, bareCounts);
    });
  }
});
