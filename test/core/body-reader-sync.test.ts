/**
 * Observe mode (deferEvents) holds a stream chunk's text and parses it when the next
 * chunk comes, the stream ends, the stream is idle (one timer per stream, refreshed), or for
 * parseAllPending: never within the push of the chunk the app is being handed. Without it
 * (enforce mode) a chunk's events are parsed within its own push, nothing scheduled. An
 * operation's JSON body is parsed within end(), before the app's read resolves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { BodyReader, STREAM_IDLE_MS, parseAllPending } from '../../src/core/body-reader';

function sink() {
  const docs: unknown[] = [];
  const problems: string[] = [];
  let ended = 0;
  return {
    docs,
    problems,
    ended: () => ended,
    s: {
      onDocument: (v: unknown) => docs.push(v),
      onProblem: (p: string) => problems.push(p),
      onEnd: () => void ended++,
    },
  };
}

/** Counts the timers and immediates scheduled while `fn` runs (a timer's refresh() is not one). */
function scheduled(fn: () => void): number {
  const g = globalThis as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = {
    setImmediate: g.setImmediate,
    setTimeout: g.setTimeout,
    queueMicrotask: g.queueMicrotask,
  };
  let n = 0;
  for (const k of Object.keys(saved) as Array<keyof typeof saved>)
    g[k] = (...a: unknown[]) => {
      n++;
      return saved[k](...a);
    };
  try {
    fn();
  } finally {
    Object.assign(g, saved);
  }
  return n;
}

test('SSE without deferEvents (enforce mode): each complete event is a document within its chunk’s push; an incomplete tail waits for its end; nothing is scheduled', () => {
  const k = sink();
  const reader = new BodyReader('sse', undefined, 1 << 20, k.s);
  const n = scheduled(() => {
    reader.push(Buffer.from('data: {"a":1}\n\n'));
    assert.deepEqual(k.docs, [{ a: 1 }], 'the first event, within the push');
    reader.push(Buffer.from('data: {"b":'));
    assert.equal(k.docs.length, 1, 'an incomplete event waits');
    reader.push(Buffer.from('2}\r\n\r\ndata: {"c":3}\n\ndata: {"d"'));
    assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }, { c: 3 }]);
    // a UTF-8 character split across chunks
    const bytes = Buffer.from('data: {"e":"é"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    reader.push(Buffer.from(':4}\n\n'));
    reader.push(bytes.subarray(0, cut));
    reader.push(bytes.subarray(cut));
  });
  assert.equal(n, 0, 'no timer, immediate or microtask per chunk');
  assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }, { c: 3 }, { d: 4 }, { e: 'é' }]);
  reader.end(true);
  assert.equal(k.ended(), 1);
  assert.deepEqual(k.problems, []);
});

test('JSON: parsed and judged at its end, within end(); nothing is scheduled', () => {
  const k = sink();
  const reader = new BodyReader('json', undefined, 1 << 20, k.s);
  const n = scheduled(() => {
    reader.push(Buffer.from('{"ok":'));
    reader.push(Buffer.from('true}'));
    assert.equal(k.docs.length, 0, 'not before its end');
    reader.end(true);
  });
  assert.equal(n, 0, 'no timer, immediate or microtask');
  assert.deepEqual(k.docs, [{ ok: true }], 'judged within end(): before the app reads it');
  assert.equal(k.ended(), 1);
});

test('SSE with deferEvents: a chunk’s events are parsed when the next chunk comes, not within its own push; all by the end; one timer per stream', () => {
  const k = sink();
  const order: string[] = [];
  const reader = new BodyReader(
    'sse',
    undefined,
    1 << 20,
    {
      onDocument: (v) => {
        k.docs.push(v);
        order.push('doc');
      },
      onProblem: (p) => k.problems.push(p),
      onEnd: () => order.push('end'),
    },
    { deferEvents: true },
  );
  const n = scheduled(() => {
    reader.push(Buffer.from('data: {"a":1}\n\n'));
    assert.equal(k.docs.length, 0, 'chunk 1: held, not parsed within its push');
    reader.push(Buffer.from('data: {"b":2}\n\ndata: {"c"'));
    assert.deepEqual(k.docs, [{ a: 1 }], 'chunk 2 parses chunk 1 only');
    reader.push(Buffer.from(':3}\n\n'));
    assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }], 'chunk 3 parses chunk 2 (the "c" event waits)');
    // a UTF-8 character split across chunks
    const bytes = Buffer.from('data: {"e":"é"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    reader.push(bytes.subarray(0, cut));
    reader.push(bytes.subarray(cut));
    assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }, { c: 3 }]);
  });
  assert.equal(n, 1, 'one idle timer for the whole stream (refreshed, not one per chunk)');
  reader.end(true);
  assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }, { c: 3 }, { e: 'é' }], 'the end parses the rest');
  assert.deepEqual(order, ['doc', 'doc', 'doc', 'doc', 'end'], 'onEnd after every document');
  assert.deepEqual(k.problems, []);
});

test('SSE with deferEvents: the idle timer parses a lone pending chunk; parseAllPending parses it at once', async () => {
  const k = sink();
  const reader = new BodyReader('sse', undefined, 1 << 20, k.s, { deferEvents: true });
  reader.push(Buffer.from('data: {"a":1}\n\n'));
  assert.equal(k.docs.length, 0);
  // A timer armed later for longer fires after the reader's (timers run in order of expiry).
  await new Promise((r) => setTimeout(r, STREAM_IDLE_MS * 3));
  assert.deepEqual(k.docs, [{ a: 1 }], 'parsed by the idle timer, the stream still open');
  reader.push(Buffer.from('data: {"b":2}\n\n'));
  assert.equal(k.docs.length, 1);
  parseAllPending();
  assert.deepEqual(k.docs, [{ a: 1 }, { b: 2 }], 'parseAllPending: held text parsed now');
  await new Promise((r) => setTimeout(r, STREAM_IDLE_MS * 3));
  assert.equal(k.docs.length, 2, 'once');
  reader.end(true);
  assert.equal(k.ended(), 1);
  assert.deepEqual(k.problems, []);
});

test('SSE with deferEvents: the stream-end problems come after the held events (ended inside an event, cut short)', () => {
  const k = sink();
  const r1 = new BodyReader('sse', undefined, 1 << 20, k.s, { deferEvents: true });
  r1.push(Buffer.from('data: {"a":1}\n\ndata: {"b"'));
  r1.end(false);
  assert.deepEqual(k.docs, [{ a: 1 }]);
  assert.equal(k.problems.length, 1);
  assert.match(k.problems[0], /stream ended inside an event/);

  const k2 = sink();
  const r2 = new BodyReader('sse', undefined, 1 << 20, k2.s, { deferEvents: true });
  r2.push(Buffer.from('data: {"a":1}\n\n'));
  r2.end(false);
  assert.deepEqual(k2.docs, [{ a: 1 }]);
  assert.deepEqual(k2.problems, ['stream cut short: what followed not judged']);
});

test('SSE with deferEvents, gzip: every event judged by the end, in order', async () => {
  const k = sink();
  let ended!: () => void;
  const done = new Promise<void>((r) => (ended = r));
  const reader = new BodyReader(
    'sse',
    'gzip',
    1 << 20,
    { ...k.s, onEnd: () => ended() },
    { deferEvents: true },
  );
  const text = Array.from({ length: 50 }, (_, i) => `data: {"i":${i}}\n\n`).join('');
  const gz = zlib.gzipSync(Buffer.from(text));
  for (let i = 0; i < gz.length; i += 37) {
    reader.push(gz.subarray(i, i + 37));
    await new Promise((r) => setImmediate(r));
  }
  reader.end(true);
  await done;
  assert.deepEqual(
    k.docs,
    Array.from({ length: 50 }, (_, i) => ({ i })),
  );
  assert.deepEqual(k.problems, []);
});
