/**
 * The wire RECORDED from the official Go SDK's live server (test/fixtures/a2a-go-live,
 * its README and the go-a2a-go row's recording, test/real-world/rows/go-a2a-go.ts) fed to the core decoders and the judge, so
 * `npm test` checks it without Go installed. Every exchange is replayed from its
 * `<name>.meta.json` against the card the healthy server served (`card.json`): the verdict each
 * should get is in EXPECTED; every exchange not named there must get none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCard } from '../../src/core/card';
import { bodyModeOf } from '../../src/core/body-reader';
import { skillFingerprint } from '../../src/index';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { replayVerdicts, type RecordedExchange } from '../helpers/live-fixtures';

const DIR = join(__dirname, '..', 'fixtures', 'a2a-go-live');
const index = JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')) as {
  recordedWith: Record<string, string>;
  exchanges: RecordedExchange[];
};
const raw = (name: string): string => readFileSync(join(DIR, name), 'utf8');
const meta = (name: string) => JSON.parse(raw(`${name}.meta.json`));
const card = decodeCard(JSON.parse(raw('card.json')));

/** Exchange name → the verdicts it must get; every other exchange: none. */
const EXPECTED: Record<string, string[]> = {
  'jsonrpc.message-send.invalid-params': ['invalid_params'],
  'jsonrpc.message-stream.invalid-params': ['invalid_params'],
  'variant-a.jsonrpc.message-send.unknown-skill': ['unknown_skill'],
  'variant-a.jsonrpc.message-stream.unknown-skill': ['unknown_skill'],
  // -32602 on a skill the card lists: the contract's invalid_params, whatever data.error says
  'variant-a-error.jsonrpc.message-send.unknown-skill': ['invalid_params'],
  'variant-a-error.jsonrpc.message-stream.unknown-skill': ['invalid_params'],
  // -32004 whose data.error names the skill as unknown
  'variant-a-unsupported.jsonrpc.message-send.unknown-skill': ['unknown_skill'],
  'variant-a-unsupported.jsonrpc.message-stream.unknown-skill': ['unknown_skill'],
  // 'variant-a-plain.*': -32603 "internal error", the text never reaches the client: none
  'variant-b.jsonrpc.message-send.image': ['output_mode_mismatch'],
  'variant-b.jsonrpc.message-stream.image': ['output_mode_mismatch'],
};

test(`a2a-go live cards (${JSON.stringify(index.recordedWith)}): decode; fingerprints = the seed's in python3; A is card_changed; "tags": null is no problem`, (t) => {
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
  // card_changed's condition: same version, another fingerprint
  assert.notEqual(
    skillFingerprint(JSON.parse(raw('variant-a.card.json'))),
    skillFingerprint(JSON.parse(raw('card.json'))),
  );
  const nil = JSON.parse(raw('nil-tags.card.json'));
  assert.equal(nil.skills[1].tags, null);
  assert.equal(decodeCard(nil).problem, undefined);
  // tags are not in the fingerprint: same as the healthy card
  assert.equal(skillFingerprint(nil), skillFingerprint(JSON.parse(raw('card.json'))));
  try {
    for (const f of ['card.json', 'variant-a.card.json', 'nil-tags.card.json'])
      assert.equal(pythonSeedFingerprint(raw(f)), skillFingerprint(JSON.parse(raw(f))), f);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') t.skip('python3 is not installed');
    else throw e;
  }
});

test('a2a-go answers non-streaming JSON-RPC as text/plain (no Content-Type set): read as JSON', () => {
  const type = meta('jsonrpc.message-send.completed').response.headers['content-type'];
  assert.equal(type, 'text/plain; charset=utf-8');
  assert.deepEqual(bodyModeOf(type), { mode: 'json', sniffed: true });
  assert.equal(
    meta('jsonrpc.message-stream').response.headers['content-type'],
    'text/event-stream',
  );
});

for (const ex of index.exchanges) {
  if (ex.method !== 'POST') continue;
  const expected = EXPECTED[ex.name] ?? [];
  test(`a2a-go-live ${ex.name} → ${expected.length ? expected.join(', ') : 'no drift'}`, () => {
    assert.deepEqual(replayVerdicts(DIR, card, ex), expected);
  });
}
