/**
 * Issue 31: a stream's events are parsed within the chunk's own push (nothing scheduled, no
 * text held per chunk); an operation's JSON body waits one turn when asked (observe mode).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyReader, parseAllPending } from '../../src/core/body-reader';

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

/** Counts the timers and immediates scheduled while `fn` runs. */
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

test('SSE: each complete event is a document within its chunk’s push; an incomplete tail waits for its end; nothing is scheduled', () => {
  const k = sink();
  const reader = new BodyReader('sse', undefined, 1 << 20, k.s, { deferJson: true });
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

test('JSON with deferJson: parsed on the next turn (or by parseAllPending), onEnd after the document; without it at once', async () => {
  const k = sink();
  const reader = new BodyReader('json', undefined, 1 << 20, k.s, { deferJson: true });
  reader.push(Buffer.from('{"ok":'));
  reader.push(Buffer.from('true}'));
  reader.end(true);
  assert.equal(k.docs.length, 0, 'not before the app had it');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(k.docs, [{ ok: true }]);
  assert.equal(k.ended(), 1);

  const k2 = sink();
  const r2 = new BodyReader('json', undefined, 1 << 20, k2.s, { deferJson: true });
  r2.push(Buffer.from('{"n":2}'));
  r2.end(true);
  parseAllPending();
  assert.deepEqual(k2.docs, [{ n: 2 }], 'judged now for a call that needs it');
  assert.equal(k2.ended(), 1);
  await new Promise((r) => setImmediate(r));
  assert.equal(k2.ended(), 1, 'once');

  const k3 = sink();
  const r3 = new BodyReader('json', undefined, 1 << 20, k3.s);
  r3.push(Buffer.from('{"n":3}'));
  r3.end(true);
  assert.deepEqual(k3.docs, [{ n: 3 }], 'enforce mode: at once');
});
