/**
 * A stream event read from its bytes (core/event-shape.ts) must decode exactly as the event
 * parsed and decoded: differential tests against `decodeStreamEvent(JSON.parse(data))` on every
 * recorded stream of every framework, on generated artifact updates of each protocol version,
 * and on their bytes mutated at random; plus the cases where no shape may be taken.
 *
 *   node --import tsx --test test/core/event-shape.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { EventShape } from '../../src/core/event-shape';
import { sseJsonText } from '../../src/core/body-reader';
import { SseParser } from '../../src/core/sse';
import { decodeStreamEvent } from '../../src/core/protocol/results';
import { MAX_STATUS_TEXT } from '../../src/core/protocol/result-parts';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const SEED = Number(process.env.FUZZ_SEED ?? 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** The slow path: what the event decodes to when parsed; undefined when it is not JSON. */
function parsed(
  data: string,
  eventName?: string,
): ReturnType<typeof decodeStreamEvent> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  return decodeStreamEvent(value, undefined, eventName);
}

function sseFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sseFiles(p) : e.name.endsWith('.sse') ? [p] : [];
  });
}

function eventsOf(file: string): { data: string; event?: string }[] {
  const out: { data: string; event?: string }[] = [];
  const parser = new SseParser({});
  parser.feed(fs.readFileSync(file, 'utf8'), (data, event) => {
    const json = sseJsonText(data);
    if (json.length > 0) out.push({ data: json, event });
  });
  parser.end();
  return out;
}

test('recorded streams of every framework: an event read by its shape decodes as parsed', () => {
  const files = sseFiles(FIXTURES);
  assert.ok(files.length >= 40, `${files.length} recorded streams`);
  let read = 0;
  let events = 0;
  const framesRead = new Set<string>();
  for (const file of files) {
    let shape: EventShape | undefined;
    for (const e of eventsOf(file)) {
      events++;
      const slow = parsed(e.data, e.event);
      const fast = shape?.match(e.data, e.event);
      if (fast !== undefined) {
        read++;
        framesRead.add(path.basename(path.dirname(file)));
        assert.deepEqual(fast, slow, `${file}: ${e.data.slice(0, 200)}`);
        continue;
      }
      if (slow !== undefined) shape = EventShape.of(e.data, slow, e.event) ?? shape;
    }
  }
  // Mastra's and ADK's recordings answer in several artifact updates (the others in one): the
  // shape must be taken there, or this test compares nothing.
  assert.ok(read >= 20, `${read} of ${events} recorded events read by their shape`);
  assert.ok(
    framesRead.has('mastra') && framesRead.has('adk'),
    `read by shape in ${[...framesRead].join(', ')}`,
  );
});

/** Artifact updates of each protocol version, with `text` as the part's text. */
const VERSIONS: Record<string, (text: string, extra: Record<string, unknown>) => unknown> = {
  '0.3': (text, extra) => ({
    jsonrpc: '2.0',
    id: 7,
    result: {
      kind: 'artifact-update',
      taskId: 't-1',
      contextId: 'c-1',
      append: true,
      lastChunk: false,
      artifact: { artifactId: 'a-1', parts: [{ kind: 'text', text, ...extra }] },
    },
  }),
  '1.0': (text, extra) => ({
    jsonrpc: '2.0',
    id: 'r-1',
    result: {
      artifactUpdate: {
        taskId: 't-1',
        contextId: 'c-1',
        append: true,
        artifact: { artifactId: 'a-1', parts: [{ text, mediaType: 'text/markdown', ...extra }] },
      },
    },
  }),
  '0.1': (text, extra) => ({
    jsonrpc: '2.0',
    id: 3,
    result: { id: 't-1', artifact: { parts: [{ type: 'text', text, ...extra }], append: true } },
  }),
  rest: (text, extra) => ({
    artifactUpdate: {
      taskId: 't-1',
      artifact: { artifactId: 'a-1', parts: [{ text, ...extra }] },
      append: true,
    },
  }),
};

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\u0000', 'a', ' ', '\u2028', '\ud800'),
    maxLength: 12,
  }),
  fc.constantFrom('', 'word ', 'unknown skill ', 'x'.repeat(MAX_STATUS_TEXT + 10)),
);

test('generated artifact updates: the shape of one reads every other text exactly', () => {
  for (const [version, make] of Object.entries(VERSIONS)) {
    let read = 0;
    fc.assert(
      fc.property(anyText, anyText, fc.boolean(), (first, next, spaced) => {
        const json = (t: string): string =>
          spaced ? JSON.stringify(make(t, {}), null, 1) : JSON.stringify(make(t, {}));
        const one = json(first);
        const slowOne = parsed(one);
        assert.ok(slowOne);
        const shape = EventShape.of(one, slowOne);
        if (first.length > MAX_STATUS_TEXT) {
          assert.equal(shape, undefined, 'a capped text is not the document text');
          return;
        }
        assert.ok(shape, `${version}: a shape of ${one}`);
        const other = json(next);
        const fast = shape.match(other);
        assert.ok(fast, `${version}: ${other} read by its shape`);
        read++;
        assert.deepEqual(fast, parsed(other));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(read > RUNS / 2, `${version}: ${read} read`);
  }
});

test('mutated bytes: whatever the shape reads is JSON and decodes as parsed', () => {
  const base = JSON.stringify(VERSIONS['0.3']('hello ', {}));
  const shape = EventShape.of(base, parsed(base)!);
  assert.ok(shape);
  let read = 0;
  fc.assert(
    fc.property(
      anyText,
      fc.array(
        fc.record({
          at: fc.nat(),
          cut: fc.nat({ max: 3 }),
          put: fc.string({
            unit: fc.constantFrom('"', '\\', '}', ',', 'a', ' ', 'u', '\n'),
            maxLength: 3,
          }),
        }),
        { maxLength: 3 },
      ),
      (text, edits) => {
        let data = JSON.stringify(VERSIONS['0.3'](text, {}));
        for (const e of edits) {
          const at = e.at % (data.length + 1);
          data = data.slice(0, at) + e.put + data.slice(at + e.cut);
        }
        const fast = shape.match(data);
        if (fast === undefined) return;
        read++;
        const slow = parsed(data);
        assert.ok(slow, `read by its shape but not JSON: ${data}`);
        assert.deepEqual(fast, slow, data);
      },
    ),
    { seed: SEED, numRuns: RUNS * 3 },
  );
  assert.ok(read > 0);
});

test('no shape where the text is not the one thing that differs', () => {
  const of = (doc: unknown): EventShape | undefined => {
    const data = JSON.stringify(doc);
    return EventShape.of(data, parsed(data)!);
  };
  const update = (parts: unknown[], artifact: Record<string, unknown> = {}): unknown => ({
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'artifact-update',
      taskId: 't',
      artifact: { artifactId: 'a', parts, ...artifact },
    },
  });
  assert.ok(of(update([{ kind: 'text', text: 'one' }])), 'positive control');
  assert.equal(
    of(
      update([
        { kind: 'text', text: 'a' },
        { kind: 'text', text: 'b' },
      ]),
    ),
    undefined,
  );
  assert.equal(of(update([{ kind: 'text', text: 'a', metadata: { text: 'b' } }])), undefined);
  assert.equal(of(update([{ kind: 'data', data: { error: 'unknown skill' } }])), undefined);
  assert.equal(
    of(update([{ kind: 'file', file: { uri: 'x', mimeType: 'image/png' } }])),
    undefined,
  );
  // ADK marks a thought as intermediate work: its text is not the answer.
  assert.equal(
    of(update([{ kind: 'text', text: 'thinking', metadata: { adk_thought: true } }])),
    undefined,
  );
  assert.equal(
    of({
      jsonrpc: '2.0',
      id: 1,
      result: { kind: 'status-update', taskId: 't', status: { state: 'working' } },
    }),
    undefined,
  );
  // A second text key spelled with an escape: JSON.parse keeps the last; no shape is taken.
  const escaped =
    '{"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t","artifact":{"parts":[{"kind":"text","text":"a","te\\u0078t":"a"}]}}}';
  assert.equal(EventShape.of(escaped, parsed(escaped)!), undefined);
});

test('a shape reads only its own event name and well-formed strings', () => {
  const data = (t: string): string =>
    `{"kind":"artifact-update","taskId":"t","artifact":{"parts":[{"kind":"text","text":${t}}]}}`;
  const one = data('"a"');
  const shape = EventShape.of(one, parsed(one, 'message')!, 'message');
  assert.ok(shape);
  assert.equal(shape.match(data('"b"'), undefined), undefined, 'another event name');
  assert.deepEqual(shape.match(data('"b"'), 'message'), parsed(data('"b"'), 'message'));
  assert.equal(shape.match(data('"b\\"')), undefined, 'the closing quote escaped');
  assert.equal(shape.match(data('"b\u0001"'), 'message'), undefined, 'a raw control character');
  assert.equal(shape.match(data('"\\x"'), 'message'), undefined, 'not a JSON escape');
  assert.equal(shape.match(data('"a","text":"b"'), 'message'), undefined, 'two strings');
  assert.deepEqual(
    shape.match(data('"\\u0041\\n\\""'), 'message'),
    parsed(data('"\\u0041\\n\\""'), 'message'),
  );
  assert.equal(shape.match(data('"\\u0041\\n\\""'), 'message')?.artifactText, 'A\n"');
});
