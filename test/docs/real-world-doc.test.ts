/**
 * docs/real-world.md is the page generated from the real-world table: a row, a check or a fact
 * changed without `npm run docs:real-world` fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realWorldMarkdown } from '../real-world/conformance/doc';

test('docs/real-world.md is the page generated from the real-world table', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'real-world.md'), 'utf8');
  assert.equal(
    page,
    realWorldMarkdown(),
    'docs/real-world.md is stale: run `npm run docs:real-world`',
  );
});
