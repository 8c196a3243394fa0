import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_EVENT_BYTES, SseParser, type SseEvent } from '../../src/core/sse';
import { BodyReader, bodyModeOf, bodyProblem, sseJsonText } from '../../src/core/body-reader';

function parseAll(
  chunks: string[],
  opts?: ConstructorParameters<typeof SseParser>[0],
): { events: SseEvent[]; parser: SseParser } {
  const parser = new SseParser(opts);
  const events: SseEvent[] = [];
  for (const c of chunks) events.push(...parser.push(c));
  events.push(...parser.end());
  return { events, parser };
}

const SAMPLE =
  '\uFEFF: welcome comment\r\n' +
  'retry: 2500\r\n' +
  '\r\n' +
  'data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","status":{"state":"TASK_STATE_SUBMITTED"}}}}\r\n' +
  '\r\n' +
  'event: update\r\n' +
  'id: 42\r\n' +
  'data: line one\r\n' +
  'data:line two\n' +
  'data:  indented\n' +
  ': a comment in the middle\n' +
  'unknownfield: ignored\n' +
  '\n' +
  'data: cr only\r' +
  'data: second\r' +
  '\r' +
  'data\n' +
  '\n' +
  'data: ünïcødé 😀 \u2028 done\r\n' +
  '\r\n' +
  ':keepalive\n\n' +
  'event: error\r' +
  'data: {"error":{"code":500}}\r\n' +
  '\n' +
  'data: never finished';

const EXPECTED: SseEvent[] = [
  {
    data: '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","status":{"state":"TASK_STATE_SUBMITTED"}}}}',
  },
  { event: 'update', id: '42', data: 'line one\nline two\n indented' },
  { data: 'cr only\nsecond' },
  { data: '' },
  { data: 'ünïcødé 😀 \u2028 done' },
  { event: 'error', data: '{"error":{"code":500}}' },
];

test('whole sample: events, BOM, comments, retry, multi-line data, mixed line ends, truncated tail', () => {
  const { events, parser } = parseAll([SAMPLE]);
  assert.deepEqual(events, EXPECTED);
  assert.equal(parser.retry, 2500);
  assert.equal(parser.lastEventId, '42');
  assert.equal(parser.truncated, true);
  assert.equal(parser.discardedTrailingChars, 'data: never finished'.length);
  assert.equal(parser.oversizedEvents, 0);
});

test('split at EVERY position gives the same events', () => {
  for (let i = 0; i <= SAMPLE.length; i++) {
    const { events, parser } = parseAll([SAMPLE.slice(0, i), SAMPLE.slice(i)]);
    assert.deepEqual(events, EXPECTED, `split at ${i}`);
    assert.equal(parser.truncated, true, `split at ${i}`);
    assert.equal(parser.discardedTrailingChars, 'data: never finished'.length, `split at ${i}`);
  }
});

test('split at every pair of positions (three chunks) and one char at a time', () => {
  const step = 7;
  for (let i = 0; i <= SAMPLE.length; i += step) {
    for (let j = i; j <= SAMPLE.length; j += 3) {
      const { events } = parseAll([SAMPLE.slice(0, i), SAMPLE.slice(i, j), SAMPLE.slice(j)]);
      assert.deepEqual(events, EXPECTED, `split at ${i},${j}`);
    }
  }
  assert.deepEqual(parseAll([...SAMPLE]).events, EXPECTED);
});

test('CR at the end of a chunk and LF at the start of the next are ONE line break', () => {
  // If they were two breaks the blank line would dispatch "a" alone.
  const { events } = parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
  assert.deepEqual(events, [{ data: 'a\nb' }]);
  // ... while CR CR is two breaks
  assert.deepEqual(parseAll(['data: a\r', '\rdata: b\n\n']).events, [{ data: 'a' }, { data: 'b' }]);
});

test('field parsing details', () => {
  assert.deepEqual(parseAll(['data:no-space\n\n']).events, [{ data: 'no-space' }]);
  assert.deepEqual(parseAll(['data:   three\n\n']).events, [{ data: '  three' }]);
  assert.deepEqual(parseAll(['data\n\n']).events, [{ data: '' }]);
  assert.deepEqual(parseAll(['data:\ndata:\n\n']).events, [{ data: '\n' }]);
  assert.deepEqual(parseAll(['event: only\n\n']).events, []); // no data → no event
  assert.deepEqual(parseAll(['event:\ndata: x\n\n']).events, [{ data: 'x' }]); // empty type = default
  assert.deepEqual(parseAll(['id: a\u0000b\ndata: x\n\n']).events, [{ data: 'x' }]); // id with NUL ignored
  assert.deepEqual(parseAll(['DATA: x\n\n']).events, []); // names are case-sensitive
  assert.deepEqual(parseAll(['\uFEFFdata: x\n\n\uFEFFdata: y\n\n']).events, [{ data: 'x' }]); // only a leading BOM is dropped
  const r = parseAll(['retry: 12a\nretry: 300\nretry: x\ndata: x\n\n']);
  assert.equal(r.parser.retry, 300);
  // id persists as lastEventId but SseEvent.id is per event
  const ids = parseAll(['id: 1\ndata: a\n\ndata: b\n\n']);
  assert.deepEqual(ids.events, [{ id: '1', data: 'a' }, { data: 'b' }]);
  assert.equal(ids.parser.lastEventId, '1');
});

test('EOF: an event without its blank line is discarded and reported', () => {
  const a = parseAll(['data: x\n']);
  assert.deepEqual(a.events, []);
  assert.equal(a.parser.truncated, true);
  assert.equal(a.parser.discardedTrailingChars, 8);
  const b = parseAll(['data: x\n\n']);
  assert.deepEqual(b.events, [{ data: 'x' }]);
  assert.equal(b.parser.truncated, false);
  assert.equal(b.parser.discardedTrailingChars, 0);
  const c = parseAll(['data: x\r\n\r']); // a final CR is a complete line break
  assert.deepEqual(c.events, [{ data: 'x' }]);
  assert.equal(c.parser.truncated, false);
  const d = parseAll(['data: x\n\n: trailing comment']);
  assert.equal(d.parser.truncated, false); // a comment is not an event
  assert.equal(d.parser.discardedTrailingChars, ': trailing comment'.length);
  const e = parseAll([]);
  assert.equal(e.parser.truncated, false);
  assert.equal(e.parser.discardedTrailingChars, 0);
});

test('oversized events are dropped and counted; the stream goes on', () => {
  const big = 'x'.repeat(100);
  const { events, parser } = parseAll([`data: small\n\ndata: ${big}\n\ndata: after\n\n`], {
    maxEventBytes: 64,
  });
  assert.deepEqual(events, [{ data: 'small' }, { data: 'after' }]);
  assert.equal(parser.oversizedEvents, 1);
  // many small lines adding up over the cap
  const many = Array.from({ length: 20 }, () => 'data: 0123456789\n').join('') + '\n';
  const m = parseAll([many, 'data: ok\n\n'], { maxEventBytes: 100 });
  assert.deepEqual(m.events, [{ data: 'ok' }]);
  assert.equal(m.parser.oversizedEvents, 1);
  // a long comment does not spoil the event around it
  const c = parseAll([`data: a\n:${'c'.repeat(500)}\ndata: b\n\n`], { maxEventBytes: 64 });
  assert.deepEqual(c.events, [{ data: 'a\nb' }]);
  assert.equal(c.parser.oversizedEvents, 0);
  // the cap holds for an event exactly at the limit
  const exact = parseAll([`data:${'y'.repeat(58)}\n\n`], { maxEventBytes: 64 });
  assert.equal(exact.events.length, 1);
  const over = parseAll([`data:${'y'.repeat(59)}\n\n`], { maxEventBytes: 64 });
  assert.equal(over.events.length, 0);
});

test('while skipping an oversized event nothing beyond the cap is buffered', () => {
  const cap = 1000;
  const parser = new SseParser({ maxEventBytes: cap });
  const internals = parser as unknown as { line: string; data: string; dataMore?: string[] };
  const buffered = (): number =>
    internals.line.length +
    internals.data.length +
    (internals.dataMore ?? []).reduce((n, s) => n + s.length, 0);
  let maxSeen = 0;
  assert.deepEqual(parser.push('data: '), []);
  for (let i = 0; i < 10_000; i++) {
    parser.push('z'.repeat(97));
    if (i % 7 === 0) parser.push('\ndata: ');
    maxSeen = Math.max(maxSeen, buffered());
  }
  assert.ok(maxSeen <= cap, `buffered ${maxSeen}`);
  assert.deepEqual(parser.push('\n\ndata: next\n\n'), [{ data: 'next' }]);
  assert.equal(parser.oversizedEvents, 1);
});

test('totality: bad options, non-string chunks, push after end', () => {
  for (const o of [
    undefined,
    null,
    {},
    { maxEventBytes: -1 },
    { maxEventBytes: NaN },
    { maxEventBytes: 'x' },
  ]) {
    const p = new SseParser(o as ConstructorParameters<typeof SseParser>[0]);
    assert.equal((p as unknown as { max: number }).max, DEFAULT_MAX_EVENT_BYTES);
  }
  assert.equal((new SseParser({ maxEventSize: 10 }) as unknown as { max: number }).max, 10);
  const p = new SseParser();
  for (const v of [undefined, null, 5, {}, ['data: x\n\n']])
    assert.deepEqual(p.push(v as unknown as string), []);
  assert.deepEqual(p.push('data: x\n\n'), [{ data: 'x' }]);
  assert.deepEqual(p.end(), []);
  assert.deepEqual(p.end(), []);
  assert.deepEqual(p.push('data: y\n\n'), []);
});

test('VoltAgent frames events as `data: \\x1e{json}`: the record separator is dropped before parsing', () => {
  assert.equal(sseJsonText('\x1e{"a":1}'), '{"a":1}');
  assert.equal(sseJsonText('{"a":1}'), '{"a":1}');
  const docs: Array<[unknown, string | undefined]> = [];
  const problems: string[] = [];
  const reader = new BodyReader('sse', undefined, 1 << 20, {
    onDocument: (v, e) => docs.push([v, e]),
    onProblem: (p) => problems.push(p),
    onEnd: () => {},
  });
  reader.push(Buffer.from('data: \x1e{"n":1}\n\nevent: error\r\ndata: {"n":2}\r\n\r\n'));
  reader.end(true);
  assert.deepEqual(docs, [
    [{ n: 1 }, undefined],
    [{ n: 2 }, 'error'],
  ]);
  assert.deepEqual(problems, []);
});

/** The spec's algorithm on the whole text at once (no chunks, no caps): the reference for the tests below. */
function referenceEvents(text: string): SseEvent[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop(); // the part after the last line break is not a complete line
  const out: SseEvent[] = [];
  let data: string[] = [];
  let type = '';
  let id: string | undefined;
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) {
        const ev: SseEvent = { data: data.join('\n') };
        if (type) ev.event = type;
        if (id !== undefined) ev.id = id;
        out.push(ev);
      }
      data = [];
      type = '';
      id = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data.push(value);
    else if (name === 'event') type = value;
    else if (name === 'id' && !value.includes('\0')) id = value;
  }
  return out;
}

test('floods of blank lines (LF, CR, CRLF, mixed) around events, short and long lines, any split: the events of the reference algorithm', () => {
  let seed = 15;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const eols = ['\n', '\r', '\r\n'];
  const pieces = (): string => {
    switch (rand(8)) {
      case 0:
        return eols[rand(3)].repeat(1 + rand(300)); // a flood of blank lines
      case 1:
        return `data: ${'L'.repeat(60 + rand(200))}${eols[rand(3)]}`; // past the char-by-char scan
      case 2:
        return `: keep-alive${eols[rand(3)]}`;
      case 3:
        return `event: e${rand(3)}${eols[rand(3)]}`;
      case 4:
        return `id: ${rand(100)}${eols[rand(3)]}`;
      case 5:
        return `data${eols[rand(3)]}`;
      default:
        return `data: {"n":${rand(1000)}}${eols[rand(3)]}`;
    }
  };
  for (let round = 0; round < 60; round++) {
    let text = '';
    const n = 5 + rand(60);
    for (let i = 0; i < n; i++) text += pieces();
    const want = referenceEvents(text);
    const chunks: string[] = [];
    for (let pos = 0; pos < text.length;) {
      const len = 1 + rand(round % 3 === 0 ? 4 : 400);
      chunks.push(text.slice(pos, pos + len));
      pos += len;
    }
    assert.deepEqual(parseAll(chunks).events, want, `round ${round}`);
    assert.deepEqual(parseAll([text]).events, want, `round ${round}, one chunk`);
  }
});

test('a blank-line flood between the lines of one event does not end it early, nor leave state behind', () => {
  const { events, parser } = parseAll([
    'data: a\n',
    '\r\n'.repeat(1000),
    'data: b\n',
    '\n'.repeat(1000),
    ': c\n',
    '\r'.repeat(1000),
  ]);
  assert.deepEqual(events, [{ data: 'a' }, { data: 'b' }]);
  assert.equal(parser.truncated, false);
  assert.equal(parser.discardedTrailingChars, 0);
  const p = new SseParser();
  p.push('\n'.repeat(5000));
  const internals = p as unknown as {
    data: string;
    dataMore?: string[];
    hasFields: boolean;
    eventSize: number;
  };
  assert.equal(internals.data, '');
  assert.equal(internals.dataMore, undefined);
  assert.equal(internals.hasFields, false);
  assert.equal(internals.eventSize, 0);
});

test("bodyModeOf: SSE, JSON (named, missing, or text/plain as Go's net/http sniffs it), else not read", () => {
  assert.deepEqual(bodyModeOf('text/event-stream'), { mode: 'sse', sniffed: false });
  assert.deepEqual(bodyModeOf('application/json'), { mode: 'json', sniffed: false });
  assert.deepEqual(bodyModeOf('application/problem+json'), { mode: 'json', sniffed: false });
  assert.deepEqual(bodyModeOf(''), { mode: 'json', sniffed: false });
  assert.deepEqual(bodyModeOf('text/plain; charset=utf-8'), { mode: 'json', sniffed: true });
  assert.deepEqual(bodyModeOf('text/html; charset=utf-8'), { sniffed: false });
  assert.deepEqual(bodyModeOf('text/plainish'), { sniffed: false });
  assert.equal(
    bodyProblem('response body is not JSON (Unexpected token)', true),
    'response is text/plain, not JSON',
  );
  assert.equal(
    bodyProblem('response body is not JSON (x)', false),
    'response body is not JSON (x)',
  );
  assert.equal(bodyProblem('response body cut short', true), 'response body cut short');
});
