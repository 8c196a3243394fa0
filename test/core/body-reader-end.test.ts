/**
 * How a stream's end is told (bad input from live Python servers): a stream that ends
 * inside an event (a server closing or dropping the connection inside a `data:` line), or cut
 * short between events, says what was not judged; a whole stream says nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { BodyReader, type BodySink } from '../../src/core/body-reader';

function run(
  chunks: string[],
  complete: boolean,
  encoding?: string,
): Promise<{ docs: unknown[]; problems: string[] }> {
  const docs: unknown[] = [];
  const problems: string[] = [];
  return new Promise((resolve) => {
    const sink: BodySink = {
      onDocument: (v) => docs.push(v),
      onProblem: (p) => problems.push(p),
      onEnd: () => resolve({ docs, problems }),
    };
    const r = new BodyReader('sse', encoding, 1 << 20, sink);
    const bytes = Buffer.from(chunks.join(''));
    r.push(encoding === 'gzip' ? zlib.gzipSync(bytes) : bytes);
    r.end(complete);
  });
}
const EV = 'data: {"a":1}\n\n';

test('a whole stream: no problem', async () => {
  assert.deepEqual(await run([EV, EV], true), { docs: [{ a: 1 }, { a: 1 }], problems: [] });
});

test('ended inside a data: line (clean end, or dropped): the event is not judged, and it says so', async () => {
  for (const complete of [true, false]) {
    const r = await run([EV, 'data: {"a":'], complete);
    assert.deepEqual(r.docs, [{ a: 1 }]);
    assert.deepEqual(r.problems, [
      'stream ended inside an event (11 characters): that event not judged',
    ]);
  }
  // a whole data line without its blank line is still an unfinished event
  const r = await run([EV, 'data: {"a":2}\n'], true);
  assert.deepEqual(r.docs, [{ a: 1 }]);
  assert.match(r.problems[0], /^stream ended inside an event/);
});

test('cut short between events: says so; a trailing comment is not an event', async () => {
  assert.deepEqual((await run([EV], false)).problems, [
    'stream cut short: what followed not judged',
  ]);
  assert.deepEqual((await run([EV, ': keep-alive'], true)).problems, []);
});

test('gzip stream cut inside an event, and cut short: the same words', async () => {
  assert.match((await run([EV, 'data: {"a"'], true, 'gzip')).problems[0], /ended inside an event/);
  assert.deepEqual((await run([EV], false, 'gzip')).problems, [
    'stream cut short: what followed not judged',
  ]);
});
