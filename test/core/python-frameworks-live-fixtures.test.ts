/**
 * The wire RECORDED from two live Python frameworks fed to the core decoders and the
 * judge, so `npm test` checks it without Python: Microsoft Agent Framework's A2A hosting
 * (test/fixtures/agent-framework-live, recorded by its row's `recording`) and
 * python-a2a (test/fixtures/python-a2a-live, likewise). Every
 * POST exchange is replayed against the card its healthy server served (`card.json`): the
 * verdicts named in EXPECTED, none for every other exchange; the cards' fingerprints are the
 * seed's in python3, and variant A's card is a card_changed (same version, other fingerprint).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCard, isAgentCard } from '../../src/core/card';
import { skillFingerprint } from '../../src/index';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { replayVerdicts, type RecordedExchange } from '../helpers/live-fixtures';

const SUITES: Array<{ dir: string; expected: Record<string, string[]> }> = [
  {
    dir: 'agent-framework-live',
    expected: {
      // `Error: Requested function "translate" not found.` as the model's answer (history /
      // a WORKING status message), and as a FAILED status (terminate_on_unknown_calls)
      'variant-a.jsonrpc-v1.0.send-message.translate': ['unknown_skill'],
      'variant-a.jsonrpc-v0.3.message-stream.translate': ['unknown_skill'],
      'variant-a-terminate.jsonrpc-v1.0.send-message.translate': ['unknown_skill'],
      'variant-b.stream-true.jsonrpc-v1.0.send-message.summarize': ['output_mode_mismatch'],
    },
  },
  {
    dir: 'python-a2a-live',
    expected: {
      // a COMPLETED task whose data part is {"error": "Error in message handler: Unknown skill: translate"}
      'variant-a.tasks-send.translate': ['unknown_skill'],
      'variant-a.tasks-sendSubscribe.translate': ['unknown_skill'],
      'variant-b.tasks-send.summarize': ['output_mode_mismatch'],
      'variant-b.tasks-sendSubscribe.summarize': ['output_mode_mismatch'],
    },
  },
];

for (const { dir, expected } of SUITES) {
  const DIR = join(__dirname, '..', 'fixtures', dir);
  const raw = (name: string): string => readFileSync(join(DIR, name), 'utf8');
  const index = JSON.parse(raw('index.json')) as {
    recordedWith: Record<string, string>;
    exchanges: RecordedExchange[];
  };
  const card = decodeCard(JSON.parse(raw('card.json')));

  test(`${dir} cards (${JSON.stringify(index.recordedWith)}): decode; fingerprints = the seed's in python3; A is card_changed`, (t) => {
    assert.equal(card.problem, undefined);
    assert.deepEqual(
      card.skills.map((s) => [s.id, s.outputModes]),
      [
        ['summarize', ['text/plain']],
        ['translate', ['text/plain']],
      ],
    );
    const a = decodeCard(JSON.parse(raw('variant-a.card.json')));
    assert.equal(a.version, card.version);
    assert.deepEqual(
      a.skills.map((s) => s.id),
      ['summarize'],
    );
    assert.notEqual(
      skillFingerprint(JSON.parse(raw('variant-a.card.json'))),
      skillFingerprint(JSON.parse(raw('card.json'))),
    );
    try {
      for (const f of ['card.json', 'variant-a.card.json'])
        assert.equal(pythonSeedFingerprint(raw(f)), skillFingerprint(JSON.parse(raw(f))), f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') t.skip('python3 is not installed');
      else throw e;
    }
  });

  for (const ex of index.exchanges) {
    if (ex.method !== 'POST') continue;
    const want = expected[ex.name] ?? [];
    test(`${dir} ${ex.name} → ${want.length ? want.join(', ') : 'no drift'}`, () => {
      assert.deepEqual(replayVerdicts(DIR, card, ex), want);
    });
  }
  for (const name of Object.keys(expected))
    test(`${dir}: ${name} was recorded`, () => {
      assert.ok(
        index.exchanges.some((e) => e.name === name),
        name,
      );
    });
}

test('python-a2a live: /.well-known/agent-card.json is an HTML page, not a card; /agent.json is the same card', () => {
  const DIR = join(__dirname, '..', 'fixtures', 'python-a2a-live');
  const html = readFileSync(join(DIR, 'agent-card-path.html.txt'), 'utf8');
  assert.match(html, /<!DOCTYPE html>/i);
  assert.equal(
    readFileSync(join(DIR, 'card.agent-json.json'), 'utf8'),
    readFileSync(join(DIR, 'card.json'), 'utf8'),
  );
  assert.equal(isAgentCard(JSON.parse(readFileSync(join(DIR, 'card.json'), 'utf8'))), true);
});
