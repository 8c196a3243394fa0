import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveMediaType, mediaTypeEssence, partMatchesModes } from '../../src/core/media-type';
import type { DecodedPart } from '../../src/core/model';

/** The MIME rules alone: a part that states `actual` matches one of `allowed`. */
const mediaTypeMatches = (actual: string, allowed: readonly string[]): boolean =>
  partMatchesModes({ kind: 'file', mediaType: actual }, allowed) === 'match';

test('mediaTypeMatches: exact, case-insensitive, parameters ignored, whitespace trimmed', () => {
  assert.equal(mediaTypeMatches('text/markdown', ['text/markdown']), true);
  assert.equal(mediaTypeMatches('Text/Markdown', ['text/MARKDOWN']), true);
  assert.equal(mediaTypeMatches('text/plain; charset=utf-8', ['text/plain']), true);
  assert.equal(mediaTypeMatches('text/plain', ['text/plain;charset=utf-8']), true);
  assert.equal(mediaTypeMatches('  application/json  ', [' application/json ']), true);
  assert.equal(mediaTypeMatches('text/plain', ['text/markdown']), false);
  assert.equal(mediaTypeMatches('text/plain', []), false);
  assert.equal(mediaTypeMatches('application/vnd.api+json', ['application/json']), false);
});

test('mediaTypeMatches: wildcards only in the allowed list', () => {
  assert.equal(mediaTypeMatches('image/png', ['image/*']), true);
  assert.equal(mediaTypeMatches('image/png', ['*/*']), true);
  assert.equal(mediaTypeMatches('imagex/png', ['image/*']), false);
  assert.equal(mediaTypeMatches('text/plain', ['image/*']), false);
  assert.equal(mediaTypeMatches('image/*', ['image/png']), false); // an actual wildcard matches no concrete type
  assert.equal(mediaTypeMatches('image/*', ['image/*']), true);
  assert.equal(mediaTypeMatches('text/plain', ['*/plain']), false); // not a valid range
  assert.equal(mediaTypeMatches('text/plain', ['te*t/plain']), false);
});

test('mediaTypeMatches: malformed inputs never match and never throw', () => {
  for (const bad of [
    '',
    'text',
    'text/',
    '/plain',
    'text/plain/x',
    'te xt/plain',
    '*/*;',
    'a/b\u0000',
    'x'.repeat(300) + '/y',
  ]) {
    assert.equal(mediaTypeMatches(bad, ['*/*', bad]), bad === '*/*;', bad);
  }
  assert.equal(mediaTypeMatches(5 as unknown as string, ['*/*']), false);
  assert.equal(mediaTypeMatches('text/plain', null as unknown as string[]), false);
  assert.equal(
    mediaTypeMatches('text/plain', [5, null, 'text/plain'] as unknown as string[]),
    true,
  );
  assert.equal(mediaTypeEssence(' Text/Plain ; q=1'), 'text/plain');
  assert.equal(mediaTypeEssence('text'), undefined);
});

test('effectiveMediaType: explicit wins; data → application/json; file without one unjudgeable; text anyText or strict', () => {
  const lax = { strictTextParts: false };
  const strict = { strictTextParts: true };
  assert.deepEqual(effectiveMediaType({ kind: 'text', mediaType: 'text/markdown' }, lax), {
    mediaType: 'text/markdown',
  });
  assert.deepEqual(effectiveMediaType({ kind: 'data', mediaType: 'application/vnd.x+json' }, lax), {
    mediaType: 'application/vnd.x+json',
  });
  assert.deepEqual(effectiveMediaType({ kind: 'data' }, lax), { mediaType: 'application/json' });
  assert.deepEqual(effectiveMediaType({ kind: 'file', mediaType: 'image/png' }, lax), {
    mediaType: 'image/png',
  });
  assert.equal(
    effectiveMediaType({ kind: 'file' }, lax).unjudgeable,
    'file part without a media type',
  );
  assert.deepEqual(effectiveMediaType({ kind: 'text' }, lax), { anyText: true });
  assert.deepEqual(effectiveMediaType({ kind: 'text' }, strict), { mediaType: 'text/plain' });
  assert.ok(effectiveMediaType({ kind: 'unknown' }, lax).unjudgeable);
  assert.ok(effectiveMediaType({ kind: 'text', mediaType: 'garbage' }, lax).unjudgeable);
  assert.deepEqual(effectiveMediaType({ kind: 'text', mediaType: '   ' }, lax), { anyText: true });
  assert.ok(effectiveMediaType(null as unknown as DecodedPart, lax).unjudgeable);
});

test('partMatchesModes: the seed variants', () => {
  const lax = { strictTextParts: false };
  const strict = { strictTextParts: true };
  const markdownModes = ['text/markdown'];
  // 1.0: explicit text/plain against a text/markdown skill → drift (variant B)
  assert.equal(
    partMatchesModes({ kind: 'text', mediaType: 'text/plain' }, markdownModes, lax),
    'mismatch',
  );
  assert.equal(
    partMatchesModes(
      { kind: 'text', mediaType: 'text/markdown; charset=utf-8' },
      markdownModes,
      lax,
    ),
    'match',
  );
  // 0.x text part without a type: matches any text/* by default, strict reading says text/plain
  assert.equal(partMatchesModes({ kind: 'text' }, markdownModes, lax), 'match');
  assert.equal(partMatchesModes({ kind: 'text' }, markdownModes, strict), 'mismatch');
  assert.equal(partMatchesModes({ kind: 'text' }, ['text/plain'], strict), 'match');
  // a typeless text part may carry JSON (fasta2a advertises application/json and answers in text parts)
  assert.equal(partMatchesModes({ kind: 'text' }, ['application/json'], lax), 'unjudgeable');
  assert.equal(partMatchesModes({ kind: 'text' }, ['application/json'], strict), 'mismatch');
  assert.equal(partMatchesModes({ kind: 'text' }, ['image/png'], lax), 'mismatch');
  assert.equal(partMatchesModes({ kind: 'text' }, ['*/*'], lax), 'match');
  // data and files
  assert.equal(partMatchesModes({ kind: 'data' }, ['application/json'], lax), 'match');
  assert.equal(partMatchesModes({ kind: 'data' }, ['text/plain'], lax), 'mismatch');
  assert.equal(
    partMatchesModes({ kind: 'file', mediaType: 'image/png' }, ['image/*'], lax),
    'match',
  );
  assert.equal(partMatchesModes({ kind: 'file' }, ['image/*'], lax), 'unjudgeable');
  assert.equal(partMatchesModes({ kind: 'unknown' }, ['*/*'], lax), 'unjudgeable');
});

test('bare-word modes (VoltAgent "text", older cards "file" / "data") are read as the media types they stand for', () => {
  const lax = { strictTextParts: false };
  assert.equal(
    partMatchesModes({ kind: 'text', mediaType: 'text/markdown' }, ['text'], lax),
    'match',
  );
  assert.equal(partMatchesModes({ kind: 'text' }, ['Text'], lax), 'match');
  assert.equal(partMatchesModes({ kind: 'data' }, ['json'], lax), 'match');
  assert.equal(partMatchesModes({ kind: 'data' }, ['data'], lax), 'match');
  assert.equal(partMatchesModes({ kind: 'file', mediaType: 'image/png' }, ['image'], lax), 'match');
  assert.equal(
    partMatchesModes({ kind: 'file', mediaType: 'application/pdf' }, ['file'], lax),
    'match',
  );
  // a reused skill id: the card said text, the answer is data / an image
  assert.equal(partMatchesModes({ kind: 'data' }, ['text'], lax), 'mismatch');
  assert.equal(
    partMatchesModes({ kind: 'file', mediaType: 'image/png' }, ['text'], lax),
    'mismatch',
  );
  assert.equal(partMatchesModes({ kind: 'text' }, ['image', 'audio'], lax), 'mismatch');
  // an actual part's media type is never read as a bare word
  assert.equal(partMatchesModes({ kind: 'text', mediaType: 'text' }, ['text'], lax), 'unjudgeable');
});

test('partMatchesModes: no modes, or modes that are not media types → unjudgeable, never mismatch', () => {
  const lax = { strictTextParts: false };
  assert.equal(partMatchesModes({ kind: 'text', mediaType: 'text/plain' }, [], lax), 'unjudgeable');
  // modes that are neither media types nor known bare words cannot be read under MIME rules
  assert.equal(
    partMatchesModes({ kind: 'text', mediaType: 'text/plain' }, ['txt'], lax),
    'unjudgeable',
  );
  assert.equal(partMatchesModes({ kind: 'text' }, ['plain-words', 'stuff'], lax), 'unjudgeable');
  // ... but a valid match among them still matches
  assert.equal(
    partMatchesModes({ kind: 'text', mediaType: 'text/plain' }, ['text', 'text/plain'], lax),
    'match',
  );
  assert.equal(
    partMatchesModes({ kind: 'text', mediaType: 'text/plain' }, null as unknown as string[], lax),
    'unjudgeable',
  );
  assert.equal(
    partMatchesModes(undefined as unknown as DecodedPart, ['text/plain'], lax),
    'unjudgeable',
  );
  assert.equal(partMatchesModes({ kind: 'text' }, ['text/plain'], undefined), 'match');
});
