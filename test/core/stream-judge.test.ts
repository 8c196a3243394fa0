/**
 * A call's stream events judged through StreamJudge (the streamed-answer window put on the event
 * and taken off again, verdicts per part media type remembered in a JudgeMemo) give exactly the
 * verdicts of the plain path: judge() without a memo on a copy of each event carrying its window
 * (`{ ...result, artifactText: window }`, as A2ACall did before). Sequences of real 1.0 JSON-RPC
 * stream events, decoded as A2ACall decodes them; then the memo alone against partMatchesModes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  JudgeMemo,
  compilePatterns,
  judge,
  type JudgeOptions,
  type Judgement,
  type NegotiationContext,
} from '../../src/core/judge';
import { StreamJudge, STREAM_OVERLAP } from '../../src/core/stream-judge';
import { partMatchesModes } from '../../src/core/media-type';
import { decodeStreamEvent } from '../../src/core/protocol/results';
import type { DecodedPart, DecodedRequest, DecodedResult } from '../../src/core/model';
import { NOT_JSON, jsonProblem, parseJsonSafe, parseJsonValue } from '../../src/core/json-path';

const opts: JudgeOptions = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};
const strict: JudgeOptions = { ...opts, strictTextParts: true };

const req: DecodedRequest = {
  operation: 'SendStreamingMessage',
  wireMethod: 'SendStreamingMessage',
  binding: 'jsonrpc',
  streaming: true,
  protocolVersion: '1.0',
  skillId: 'summarize-v2',
  skillIdSource: 'params.metadata.skillId',
};

function ctx(outputModes: readonly string[] | undefined): NegotiationContext {
  return {
    skillId: 'summarize-v2',
    cardKnown: true,
    cardUrl: 'http://127.0.0.1:1/.well-known/agent-card.json',
    fingerprint: '66eb6a79ac58b8a83cd0cdab70ece2d2b2b1e5c97be4edb81883e78a552e5806',
    agentName: 'peer-a',
    cardVersion: '1.0',
    skillInCard: true,
    outputModes,
  };
}

const TASK = 't-1';
type Wire = Record<string, unknown>;
type PartSpec = Wire;

const text = (t: string, mediaType?: string): PartSpec =>
  mediaType === undefined ? { text: t } : { text: t, mediaType };
const file = (mediaType?: string): PartSpec =>
  mediaType === undefined ? { url: 'https://x/y' } : { url: 'https://x/y', mediaType };
const data = (mediaType?: string): PartSpec =>
  mediaType === undefined ? { data: { a: 1 } } : { data: { a: 1 }, mediaType };

function envelope(result: Wire): Wire {
  return { jsonrpc: '2.0', id: 1, result };
}
function taskEvent(state: string): Wire {
  return envelope({ task: { id: TASK, contextId: 'c-1', status: { state } } });
}
function status(state: string, said?: string, contextId = 'c-1'): Wire {
  const s: Wire = { state };
  if (said !== undefined)
    s.message = { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: said }] };
  return envelope({ statusUpdate: { taskId: TASK, contextId, status: s } });
}
function update(parts: PartSpec[], append = true, metadata?: Wire): Wire {
  const artifact: Wire = { artifactId: 'a-1', parts };
  if (metadata !== undefined) artifact.metadata = metadata;
  return envelope({ artifactUpdate: { taskId: TASK, contextId: 'c-1', append, artifact } });
}
function words(list: string[], mediaType?: string): Wire[] {
  return list.map((w, i) => update([text(w, mediaType)], i > 0));
}

/** The plain path: A2ACall's judgement before StreamJudge (a copy of each event per window). */
class PlainStream {
  private tail: string | undefined;
  judge(ctx: NegotiationContext, result: DecodedResult, o: JudgeOptions): Judgement {
    if (result.kind !== 'artifact-update' || result.artifactText === undefined)
      return judge(req, ctx, result, o);
    const delta = result.artifactText;
    const window = result.append === true && this.tail !== undefined ? this.tail + delta : delta;
    this.tail =
      window.length > STREAM_OVERLAP ? window.slice(window.length - STREAM_OVERLAP) : window;
    return judge(req, ctx, window === delta ? result : { ...result, artifactText: window }, o);
  }
}

/** A verdict as data: the drift's fields, its error's name and message; or the unjudged reason. */
function shape(v: Judgement): unknown {
  if (v.drift === undefined) return { unjudged: v.unjudged };
  const { error, ...rest } = v.drift;
  return { ...rest, error: { name: error.name, message: error.message } };
}

/**
 * Every event of `events` judged both ways under `c`: the same verdict each time, and the event
 * StreamJudge judged is left as decoded. Returns the verdicts.
 */
function both(events: Wire[], c: NegotiationContext, o: JudgeOptions = opts): unknown[] {
  const fast = new StreamJudge();
  const plain = new PlainStream();
  const verdicts: unknown[] = [];
  events.forEach((e, i) => {
    const r1 = decodeStreamEvent(e, req);
    const r2 = decodeStreamEvent(e, req);
    const a = shape(fast.judge(req, c, r1, o));
    const b = shape(plain.judge(c, r2, o));
    assert.deepEqual(a, b, `event ${i}: ${JSON.stringify(e)}`);
    assert.deepEqual(r1, decodeStreamEvent(e, req), `event ${i} left as decoded`);
    verdicts.push(a);
  });
  return verdicts;
}

const drifts = (vs: unknown[]): string[] =>
  vs.flatMap((v) => {
    const k = (v as { kind?: string }).kind;
    return k === undefined ? [] : [k];
  });
const unjudged = (vs: unknown[]): string[] =>
  vs.flatMap((v) => {
    const u = (v as { unjudged?: string }).unjudged;
    return u === undefined ? [] : [u];
  });

const MARKDOWN = ['text/markdown'];
const many = (n: number): string[] => Array.from({ length: n }, (_, i) => `word${i} `);

test('a long text/markdown answer in appended words: no verdict either way', () => {
  const vs = both(
    [
      taskEvent('TASK_STATE_SUBMITTED'),
      status('TASK_STATE_WORKING'),
      ...words(many(600), 'text/markdown'),
      status('TASK_STATE_COMPLETED'),
    ],
    ctx(MARKDOWN),
  );
  assert.deepEqual(drifts(vs), []);
  assert.deepEqual(unjudged(vs), []);
});

test('a phrase split across events (after a prefix longer than the window) is found the same way', () => {
  const split = ['unkn', 'own sk', 'ill: summ', 'arize-v2', ' sorry'];
  for (const prefix of [0, 50, STREAM_OVERLAP + 7, 3 * STREAM_OVERLAP]) {
    const head = prefix === 0 ? [] : ['x'.repeat(prefix)];
    const vs = both(
      [status('TASK_STATE_WORKING'), ...words([...head, ...split], 'text/markdown')],
      ctx(MARKDOWN),
    );
    assert.deepEqual(drifts(vs), ['unknown_skill', 'unknown_skill'], `prefix ${prefix}`);
    assert.equal((vs[head.length + 4] as { evidence?: string }).evidence, 'content');
  }
  // Not appended (snapshots): no window across events, so the split phrase is never whole.
  const snapshots = split.map((w) => update([text(w, 'text/markdown')], false));
  assert.deepEqual(drifts(both(snapshots, ctx(MARKDOWN))), []);
});

test('a late part of another media type, file and data parts, parts without a type', () => {
  const seq = [
    ...words(many(40), 'text/markdown'),
    update([text('plain', 'text/plain')]),
    ...words(many(5), 'text/markdown'),
    update([text('typeless')]),
    update([file('image/png'), text('caption', 'text/markdown')]),
    update([data()]),
    update([data('application/vnd.x+json'), file('image/png'), text('t', 'text/plain')]),
    update([file()]),
    update([text('bad', 'not a media type')]),
    update([text('thought', 'text/plain')], true, { adk_type: 'thought' }),
  ];
  for (const modes of [
    MARKDOWN,
    ['text/*'],
    ['text/markdown', 'image/*'],
    ['text', 'image'],
    ['*/*'],
    ['text/markdown', 'application/json'],
    ['bogus'],
    [],
  ]) {
    for (const o of [opts, strict]) {
      const vs = both(seq, ctx(modes), o);
      if (modes.length === 1 && modes[0] === 'text/markdown')
        assert.ok(drifts(vs).includes('output_mode_mismatch'), 'the test can see drift');
    }
  }
  // No output modes at all, no skill id, no card: the same reasons either way.
  both(seq, ctx(undefined));
  both(seq, { ...ctx(MARKDOWN), skillId: undefined });
  both(seq, { cardKnown: false, skillId: 'summarize-v2' });
  both(seq, { ...ctx(MARKDOWN), skillInCard: undefined });
});

test('state changes, repeated events, failures and a context that changes', () => {
  const seq = [
    taskEvent('TASK_STATE_SUBMITTED'),
    taskEvent('TASK_STATE_SUBMITTED'),
    status('TASK_STATE_WORKING'),
    status('TASK_STATE_WORKING'),
    ...words(many(10), 'text/markdown'),
    status('TASK_STATE_WORKING', undefined, 'c-2'),
    update([text('again', 'text/markdown')]),
    update([text('again', 'text/markdown')]),
    status('TASK_STATE_INPUT_REQUIRED', 'which one?'),
    update([file('image/png')]),
    status('TASK_STATE_FAILED', 'unsupported mode for summarize-v2'),
    update([file('image/png')]),
    status('TASK_STATE_FAILED', 'Unknown skill: summarize-v2'),
    status('TASK_STATE_CANCELED'),
    update([file('image/png')]),
    status('TASK_STATE_COMPLETED'),
    envelope({
      message: {
        messageId: 'm',
        role: 'ROLE_AGENT',
        parts: [{ text: 'unknown skill summarize-v2' }],
      },
    }),
    { jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'content type not supported' } },
  ];
  const vs = both(seq, ctx(MARKDOWN));
  assert.deepEqual(drifts(vs), [
    'output_mode_mismatch',
    'unsupported_mode',
    'output_mode_mismatch',
    'unknown_skill',
    'output_mode_mismatch',
    'unknown_skill',
    'unsupported_mode',
  ]);
  both(seq, ctx(['text/markdown', 'image/png']), strict);
});

test('random streams of these events: the same verdict at every event', () => {
  let seed = 31;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const types = [
    'text/markdown',
    'text/plain',
    'image/png',
    'application/json',
    undefined,
    'TEXT/Markdown; charset=utf-8',
  ];
  // Pieces of phrases and of the skill's names (split across events, in other cases), and runs
  // long enough to make the kept answer be cut.
  const phrase = [
    'unkn',
    'own ',
    'skill ',
    'summarize-v2',
    ' ok ',
    'x'.repeat(200),
    'summa',
    'rize-v2 ',
    'SUMMARIZE-V2',
    ' not found',
    'Tool "summarize-v2" not found. ',
    'Summar',
    'izer',
    'y'.repeat(1000),
    's',
  ];
  const modeSets = [MARKDOWN, ['text/*', 'image/png'], ['text'], ['application/json'], ['*/*']];
  for (let s = 0; s < 300; s++) {
    const seq: Wire[] = [];
    for (let i = 0; i < 60; i++) {
      const k = rnd(10);
      const mt = types[rnd(types.length)];
      if (k < 6) seq.push(update([text(phrase[rnd(phrase.length)], mt)], rnd(8) !== 0));
      else if (k === 6) seq.push(update([file(mt)]));
      else if (k === 7) seq.push(update([data(mt), text('w', mt)]));
      else if (k === 8)
        seq.push(
          status(
            ['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'][rnd(3)],
            rnd(2) ? 'unknown skill summarize-v2' : undefined,
          ),
        );
      else seq.push(seq.length > 0 ? seq[seq.length - 1] : taskEvent('TASK_STATE_SUBMITTED'));
    }
    const c = ctx(modeSets[s % modeSets.length]);
    const names = [{}, { skillAliases: ['Summarizer', 'sum'] }, { skillAliases: ['s'] }];
    both(seq, { ...c, ...names[s % 3] }, s % 3 === 0 ? strict : opts);
    both(seq, { ...c, skillId: undefined }); // no names to look for
  }
});

test('a skill name split across appended words, in any case, by its id or an alias', () => {
  const c = { ...ctx(MARKDOWN), skillAliases: ['Summarizer'] };
  for (const pieces of [
    ['Tool "summa', 'rize-v2" not found'],
    ['Tool "SUMMA', 'RIZE-V2', '" not found'],
    ['unknown skill: Summ', 'ar', 'izer'],
    ['unknown skill: ', 's', 'u', 'm', 'm', 'a', 'r', 'i', 'z', 'e', '-', 'v', '2'],
  ])
    for (const prefix of [0, 10, STREAM_OVERLAP - 3, 2000, 5000]) {
      const head = prefix === 0 ? [] : [`${'z'.repeat(prefix % 5)} ${'word '.repeat(prefix / 5)}`];
      const vs = both(words([...head, ...pieces, ' and more'], 'text/markdown'), c);
      assert.deepEqual(
        drifts(vs).slice(0, 1),
        ['unknown_skill'],
        `${pieces.join('|')} after ${prefix}`,
      );
    }
  // The kept answer cut (past 4 × STREAM_OVERLAP) just as the name arrives: the phrase it
  // begins is still completed by the next delta.
  for (const run of [1400, 1520, 1530, 1540])
    assert.deepEqual(
      drifts(
        both(words(['x'.repeat(run), ' Tool "summarize-v2"', ' not found'], 'text/markdown'), c),
      ),
      ['unknown_skill'],
      `after ${run}`,
    );
  // A name earlier in the answer, then far more words: judged the same way throughout.
  const vs = both(
    words(['summarize-v2 is here. ', ...many(400), 'unknown skill ', 'x'], 'text/markdown'),
    c,
  );
  assert.deepEqual(drifts(vs), []);
});

// --- the memo alone -----------------------------------------------------------------------

const parts: DecodedPart[] = [
  { kind: 'text' },
  { kind: 'text', mediaType: 'text/plain' },
  { kind: 'text', mediaType: 'text/markdown' },
  { kind: 'text', mediaType: 'TEXT/MARKDOWN;charset=utf-8' },
  { kind: 'text', mediaType: 'application/json' },
  { kind: 'text', mediaType: 'nonsense' },
  { kind: 'file' },
  { kind: 'file', mediaType: 'image/png' },
  { kind: 'file', mediaType: 'text/markdown' },
  { kind: 'data' },
  { kind: 'data', mediaType: 'application/vnd.a+json' },
  { kind: 'unknown' },
  { kind: 'unknown', mediaType: 'text/markdown' },
  { kind: 'text', mediaType: `text/${'x'.repeat(300)}` },
];
const modeLists: ReadonlyArray<readonly string[]> = [
  MARKDOWN,
  ['text/plain'],
  ['text/*'],
  ['text'],
  ['application/json'],
  ['image/*', 'text/markdown'],
  ['*/*'],
  ['bogus', 'text/markdown'],
  [],
];

test('JudgeMemo: the verdict of partMatchesModes for each kind and media type, modes and option', () => {
  const memo = new JudgeMemo();
  // Twice over, modes switching between (and within) rounds: a memo that kept verdicts
  // across modes or options would answer from the wrong list.
  for (let round = 0; round < 2; round++)
    for (const modes of modeLists)
      for (const strictTextParts of [false, true])
        for (const p of [...parts, ...parts])
          assert.equal(
            memo.verdict(p, modes, strictTextParts),
            partMatchesModes(p, modes as string[], { strictTextParts }),
            `${JSON.stringify(p)} against ${JSON.stringify(modes)} strict=${strictTextParts}`,
          );
});

test('JudgeMemo: a media type seen under one kind is judged anew under another', () => {
  const memo = new JudgeMemo();
  assert.equal(memo.verdict({ kind: 'text' }, MARKDOWN, false), 'match');
  assert.equal(memo.verdict({ kind: 'file' }, MARKDOWN, false), 'unjudgeable');
  assert.equal(memo.verdict({ kind: 'data' }, MARKDOWN, false), 'mismatch');
  assert.equal(memo.verdict({ kind: 'text' }, MARKDOWN, true), 'mismatch'); // text/plain, strict
  assert.equal(memo.verdict({ kind: 'text' }, ['text/plain'], true), 'match');
});

test('JudgeMemo: past its bound (more media types than it keeps) still the right verdicts', () => {
  const memo = new JudgeMemo();
  for (let round = 0; round < 2; round++)
    for (let i = 0; i < 100; i++) {
      const p: DecodedPart = { kind: 'file', mediaType: i % 2 ? `image/x-${i}` : `text/x-${i}` };
      assert.equal(memo.verdict(p, ['image/*'], false), i % 2 ? 'match' : 'mismatch');
    }
});

test('judge() with and without a memo: the same verdict for one event', () => {
  const memo = new JudgeMemo();
  for (const modes of modeLists)
    for (const p of parts) {
      const r: DecodedResult = { kind: 'artifact-update', artifacts: [{ parts: [p] }] };
      assert.deepEqual(
        shape(judge(req, ctx(modes), r, opts, memo)),
        shape(judge(req, ctx(modes), r, opts)),
      );
    }
});

test("the stream path's JSON parse (parseJsonValue): parseJsonSafe's value or problem, no wrapper", () => {
  const texts = [
    '{"a":1}',
    '\ufeff{"a":[1,2]}',
    'null',
    '"s"',
    '{"a":',
    '',
    '[',
    '['.repeat(500) + ']'.repeat(500),
    '['.repeat(250_000),
    'x',
    undefined as unknown as string,
  ];
  for (const t of texts) {
    const safe = parseJsonSafe(t);
    const v = parseJsonValue(t);
    if (safe.ok) assert.deepEqual(v, safe.value);
    else {
      assert.equal(v, NOT_JSON);
      assert.equal(jsonProblem(), safe.problem);
    }
  }
});
