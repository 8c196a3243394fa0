/**
 * docs/real-world.md is the page generated from the real-world table: a row, a check or a fact
 * changed without `npm run docs:real-world` fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realWorldMarkdown } from '../real-world/conformance/doc';
import { ROWS } from '../real-world/conformance/implementations';

test('docs/real-world.md is the page generated from the real-world table', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'real-world.md'), 'utf8');
  assert.equal(
    page,
    realWorldMarkdown(),
    'docs/real-world.md is stale: run `npm run docs:real-world`',
  );
});

/** Every `{ value, source }` fact in a row, however deep. */
function factSources(v: unknown, seen = new Set<unknown>(), out: string[] = []): string[] {
  if (v === null || typeof v !== 'object' || seen.has(v)) return out;
  seen.add(v);
  const o = v as Record<string, unknown>;
  if ('value' in o && typeof o.source === 'string') out.push(o.source);
  for (const child of Object.values(o)) factSources(child, seen, out);
  return out;
}

test("a row's facts name files of this repository that exist", () => {
  const root = join(__dirname, '..', '..');
  const missing: string[] = [];
  let files = 0;
  for (const row of ROWS)
    for (const source of factSources(row))
      for (const part of source.split(';')) {
        const path = part.trim().split(/[\s:]/)[0] ?? '';
        if (!/^(test|src|docs|scripts)\//.test(path)) continue;
        files++;
        if (!existsSync(join(root, path))) missing.push(`${row.id}: ${path}`);
      }
  assert.ok(files > 20, `only ${files} repository files named by the rows' facts`);
  assert.deepEqual(missing, []);
});
