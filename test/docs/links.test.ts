/**
 * The documentation's links within the repository lead somewhere: every relative link of the
 * README, BENCHMARKS.md, CHANGELOG.md and docs/*.md names a file that exists and, for a
 * Markdown file, a heading that exists (GitHub's anchors). Nothing points outside the
 * repository by a relative path (`../shared/…`), and none says "the seed" or cites an issue number.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const PAGES = [
  'README.md',
  'BENCHMARKS.md',
  'CHANGELOG.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const body = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const m of body.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a page (inline links and images), code blocks and spans left out. */
function links(markdown: string): string[] {
  const body = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((t) => !/^[a-z][a-z+.-]*:/i.test(t));
}

function problems(page: string): string[] {
  const out: string[] = [];
  const text = readFileSync(join(ROOT, page), 'utf8');
  for (const target of links(text)) {
    const [path, anchor] = target.split('#', 2);
    const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
    const rel = relative(ROOT, file);
    if (rel.startsWith('..') || rel.split(sep)[0] === '..') {
      out.push(`${page}: ${target} leaves the repository`);
      continue;
    }
    if (!existsSync(file)) {
      out.push(`${page}: ${target}: no such file`);
      continue;
    }
    if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor))
      out.push(`${page}: ${target}: no such heading`);
  }
  return out;
}

test('relative links in the README and docs lead to files and headings that exist', () => {
  assert.ok(PAGES.length >= 8, PAGES.join(', '));
  assert.deepEqual(PAGES.flatMap(problems), []);
});

test('no page refers to files outside the repository, or speaks project jargon', () => {
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    assert.doesNotMatch(text, /\.\.\/shared\//, `${page} refers to ../shared/`);
    // "the field report" is what the README explains; issue numbers mean nothing to a reader.
    assert.doesNotMatch(text, /\bthe seed\b/i, `${page} says "the seed"`);
    assert.doesNotMatch(text, /\bissues? \d+/i, `${page} cites an issue number`);
  }
});

test("the anchors are GitHub's", () => {
  const a = anchors(
    '# Top\n## Issue 16: speed\n### Row 4: non-A2A `fetch` traffic\n## Top\n```\n# not a heading\n```\n',
  );
  assert.deepEqual([...a], ['top', 'issue-16-speed', 'row-4-non-a2a-fetch-traffic', 'top-1']);
  assert.deepEqual(links('[a](x.md#y) `[b](z.md)` [c](https://e.org) ![d](p.png)'), [
    'x.md#y',
    'p.png',
  ]);
});
