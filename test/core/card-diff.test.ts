/** diffCards (src/core/card-diff.ts): what changed between two cards, ids only, bounded. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import { diffCards, diffSummary, MAX_DIFF_IDS, MAX_DIFF_MODES } from '../../src/core/card-diff';

function card(skills: unknown[], capabilities: Record<string, boolean> = {}) {
  return decodeCard({
    name: 'a',
    version: '1',
    url: 'http://127.0.0.1:1/a2a',
    capabilities,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  });
}
const s = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: `${id} name`,
  description: `does ${id}`,
  tags: [],
  ...over,
});

test('a skill removed, a skill added, output modes changed, streaming flipped', () => {
  const before = card([s('summarize'), s('translate'), s('ocr')], { streaming: false });
  const after = card([s('summarize', { outputModes: ['image/png'] }), s('ocr'), s('search')], {
    streaming: true,
  });
  assert.deepEqual(diffCards(before, after), {
    removed: ['translate'],
    added: ['search'],
    modesChanged: [{ id: 'summarize', output: { before: ['text/plain'], after: ['image/png'] } }],
    capabilities: ['streaming'],
    truncated: false,
  });
  assert.equal(
    diffSummary(diffCards(before, after)),
    '-translate +search ~summarize streaming flipped',
  );
});

test('input modes and push notifications; descriptions and names are not part of it', () => {
  const before = card([s('a')], { pushNotifications: true });
  const after = card([s('a', { inputModes: ['application/json'], description: 'other' })]);
  assert.deepEqual(diffCards(before, after), {
    removed: [],
    added: [],
    modesChanged: [{ id: 'a', input: { before: ['text/plain'], after: ['application/json'] } }],
    capabilities: ['push_notifications'],
    truncated: false,
  });
  // modes reordered are the same modes
  const x = card([s('a', { outputModes: ['a/b', 'c/d'] })]);
  const y = card([s('a', { outputModes: ['c/d', 'a/b'] })]);
  assert.deepEqual(diffCards(x, y)?.modesChanged, []);
});

test('bounded: 10,000 skills removed and added give 32 ids each, truncated; long modes cut', () => {
  const many = (prefix: string) => Array.from({ length: 10_000 }, (_, i) => s(`${prefix}${i}`));
  const [a, b] = [card(many('old-')), card(many('new-'))];
  const started = process.hrtime.bigint();
  const d = diffCards(a, b);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.ok(d);
  assert.equal(d.removed.length, MAX_DIFF_IDS);
  assert.equal(d.added.length, MAX_DIFF_IDS);
  assert.equal(d.truncated, true);
  assert.ok(JSON.stringify(d).length < 4096, 'a few KiB at most');
  console.log(`# diff of two 10,000-skill cards: ${ms.toFixed(1)} ms`);
  const modes = Array.from({ length: 100 }, (_, i) => `text/x-${'y'.repeat(1000)}${i}`);
  const m = diffCards(card([s('a')]), card([s('a', { outputModes: modes })]));
  const after = m?.modesChanged[0]?.output?.after ?? [];
  assert.ok(after.length <= MAX_DIFF_MODES);
  assert.ok(after.every((x) => x.length <= 256));
});

test('no earlier card, or hostile input: no diff, no exception', () => {
  assert.equal(diffCards(undefined, card([])), undefined);
  assert.equal(diffSummary(undefined).startsWith('(what changed is not known'), true);
  const hostile = { skills: 'nope', streaming: 1 } as never;
  assert.deepEqual(diffCards(hostile, card([s('a')]))?.added, ['a']);
});
