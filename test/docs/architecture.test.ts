/**
 * docs/ARCHITECTURE.md names every file of `src/` (by its path, `src/…ts`) and names no file
 * that does not exist: adding, moving or removing a source file without the page fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (e.isFile() && e.name.endsWith('.ts')) out.push(relative(ROOT, p).split(sep).join('/'));
  }
  return out;
}

/** What the page and the tree disagree on: files not named, names of no file. */
function disagreement(
  doc: string,
  files: readonly string[],
): { unnamed: string[]; missing: string[] } {
  const named = new Set([...doc.matchAll(/\bsrc\/[\w./-]+?\.ts\b/g)].map((m) => m[0]));
  const have = new Set(files);
  return {
    unnamed: files.filter((f) => !named.has(f)).sort(),
    missing: [...named].filter((f) => !have.has(f)).sort(),
  };
}

test('docs/ARCHITECTURE.md names every src/**/*.ts file, and only files that exist', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const files = sourceFiles(join(ROOT, 'src'));
  assert.ok(files.length > 50, `found only ${files.length} source files`);
  const d = disagreement(doc, files);
  assert.deepEqual(d.unnamed, [], 'source files docs/ARCHITECTURE.md does not name');
  assert.deepEqual(d.missing, [], 'paths docs/ARCHITECTURE.md names that do not exist');
});

test('the check sees a file added and a file moved', () => {
  const doc = '| `src/a.ts` | one |\n| `src/core/b.ts` | two |';
  assert.deepEqual(disagreement(doc, ['src/a.ts', 'src/core/b.ts']), { unnamed: [], missing: [] });
  assert.deepEqual(disagreement(doc, ['src/a.ts', 'src/core/b.ts', 'src/c.ts']), {
    unnamed: ['src/c.ts'],
    missing: [],
  });
  assert.deepEqual(disagreement(doc, ['src/a.ts', 'src/distro/b.ts']), {
    unnamed: ['src/distro/b.ts'],
    missing: ['src/core/b.ts'],
  });
});
