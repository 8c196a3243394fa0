/** confirmSuspicion (src/core/confirm.ts): what the card fetched again says of an answer's words. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import { confirmSuspicion } from '../../src/core/confirm';

function card(skills: unknown[]): ReturnType<typeof decodeCard> {
  return decodeCard({
    name: 'a',
    version: '1',
    url: 'http://127.0.0.1:1/a2a',
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  });
}

const held = { inputModes: ['text/plain'], outputModes: ['text/plain'] };

test('the skill gone from the card fetched again confirms; still listed unchanged refutes', () => {
  assert.equal(confirmSuspicion('search', held, card([{ id: 'other' }])), 'confirmed');
  assert.equal(confirmSuspicion('search', held, card([{ id: 'search' }])), 'refuted');
});

test('the skill listed with other modes confirms (in either direction, order ignored)', () => {
  assert.equal(
    confirmSuspicion('search', held, card([{ id: 'search', outputModes: ['image/png'] }])),
    'confirmed',
  );
  assert.equal(
    confirmSuspicion('search', held, card([{ id: 'search', inputModes: ['application/json'] }])),
    'confirmed',
  );
  assert.equal(
    confirmSuspicion(
      'search',
      { outputModes: ['a/b', 'text/plain'] },
      card([{ id: 'search', outputModes: ['text/plain', 'a/b'] }]),
    ),
    'refuted',
  );
});

test('nothing to go on: unknown', () => {
  assert.equal(confirmSuspicion('search', held, undefined), 'unknown');
  assert.equal(confirmSuspicion(undefined, held, card([])), 'unknown');
  const many = card(Array.from({ length: 10_001 }, (_, i) => ({ id: `s${i}` })));
  assert.equal(many.skillsTruncated, true);
  assert.equal(confirmSuspicion('search', held, many), 'unknown', 'a truncated card may list it');
  assert.equal(confirmSuspicion('search', held, { skills: null } as never), 'unknown');
});
