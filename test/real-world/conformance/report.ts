/**
 * Prints the matrix of a run (implementation × check: pass / FAIL / n/a / not run) from the cells
 * conformance.test.ts wrote to the file named on the command line, then the reasons of every
 * N/A, not-run and failing cell, and the implementations still tested by their own file.
 *
 *   node --import tsx test/real-world/conformance/report.ts <cells.jsonl>
 */
import { existsSync, readFileSync } from 'node:fs';
import { CHECKS } from './checks';
import { ROWS } from './implementations';
import { NOT_MIGRATED } from './not-migrated';
import type { Cell } from './results';

const file = process.argv[2];
const cells: Cell[] =
  file && existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Cell)
    : [];

const columns = ['starts', ...CHECKS.map((c) => c.id), 'quirks'];
// in the table's order
const seen = new Set(cells.map((c) => c.row));
const rows = [
  ...ROWS.map((r) => r.id).filter((id) => seen.has(id)),
  ...[...seen].filter((id) => !ROWS.some((r) => r.id === id)),
];
const mark = { pass: 'pass', fail: 'FAIL', 'n/a': 'n/a', 'not run': 'not run' };

function cell(row: string, column: string): string {
  if (column === 'quirks') {
    const q = cells.filter((c) => c.row === row && c.check.startsWith('quirk: '));
    if (!q.length) return '-';
    const passed = q.filter((c) => c.status === 'pass').length;
    return passed === q.length ? `${passed} pass` : `${q.length - passed} FAIL`;
  }
  const c = cells.find((x) => x.row === row && x.check === column);
  return c ? mark[c.status] : '-';
}

const table = [
  ['implementation', ...columns],
  ...rows.map((r) => [r, ...columns.map((c) => cell(r, c))]),
];
const widths = columns.map((_, i) => Math.max(...table.map((line) => line[i + 1].length)));
const first = Math.max(...table.map((line) => line[0].length));
console.log('\n[real-world] conformance matrix (implementation × check)');
for (const line of table)
  console.log(
    [line[0].padEnd(first), ...line.slice(1).map((v, i) => v.padEnd(widths[i]))].join('  '),
  );
const notes = cells.filter((c) => c.status !== 'pass' && c.reason);
if (notes.length) {
  console.log('\nwhy:');
  for (const c of notes) console.log(`  ${c.row} ${c.check}: ${c.status}: ${c.reason}`);
}
if (!rows.length) console.log('(no conformance cells recorded)');
if (NOT_MIGRATED.length)
  console.log(
    `\nstill in their own test files: ${NOT_MIGRATED.map((r) => `${r.id} (${r.file})`).join(', ')}`,
  );
