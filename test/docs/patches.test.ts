/**
 * Every `*.patch` kept in the repository applies to the tree it sits in (`git apply --check`),
 * so a patch cannot rot unseen: two did (an ablation patch for the benchmarks and a matrix
 * compatibility patch) and were removed once they no longer applied. Passes when there are none.
 *
 * The patches are the ones git tracks; in a copy without `.git` (the runtime matrix copies the
 * tree), the `*.patch` files found by walking it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SKIP_DIRS = new Set(['node_modules', '.git', '.venv', 'dist', '.bench-out']);

function walkPatches(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walkPatches(join(dir, e.name), out);
    } else if (e.isFile() && e.name.endsWith('.patch')) out.push(relative(ROOT, join(dir, e.name)));
  }
  return out;
}

function trackedPatches(): string[] {
  const inRepo = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT });
  if (inRepo.status !== 0) return walkPatches(ROOT);
  return execFileSync('git', ['ls-files', '-z', '--', '*.patch'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f.length > 0);
}

/** The patches under `root` that do not apply, each with git's first complaint. */
function rotten(root: string, patches: readonly string[]): string[] {
  const bad: string[] = [];
  for (const p of patches) {
    const r = spawnSync('git', ['apply', '--check', p], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) bad.push(`${p}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  }
  return bad;
}

test('every *.patch in the repository applies (git apply --check)', () => {
  const patches = trackedPatches();
  assert.deepEqual(rotten(ROOT, patches), [], 'a patch no longer applies: refresh or remove it');
});

test('the check tells a patch that applies from one that does not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-patches-'));
  try {
    writeFileSync(join(dir, 'f.txt'), 'one\ntwo\nthree\n');
    const patch = (from: string, to: string): string =>
      `--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-${from}\n+${to}\n three\n`;
    writeFileSync(join(dir, 'good.patch'), patch('two', 'TWO'));
    writeFileSync(join(dir, 'rotten.patch'), patch('deux', 'TWO'));
    const bad = rotten(dir, ['good.patch', 'rotten.patch']);
    assert.equal(bad.length, 1);
    assert.match(bad[0], /^rotten\.patch: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
