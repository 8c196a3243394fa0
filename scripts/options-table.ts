/**
 * Writes the README's configuration table from the options table (src/options.ts), between its
 * markers. `npm run docs:options`; test/config.test.ts fails while the README is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionsMarkdownTable, README_TABLE_END, README_TABLE_START } from '../src/options';

const path = join(__dirname, '..', 'README.md');
const readme = readFileSync(path, 'utf8');
const a = readme.indexOf(README_TABLE_START);
const b = readme.indexOf(README_TABLE_END);
if (a < 0 || b < a) {
  console.error(`README.md has no "${README_TABLE_START}" … "${README_TABLE_END}" markers`);
  process.exit(1);
}
const next =
  readme.slice(0, a + README_TABLE_START.length) +
  '\n\n' +
  optionsMarkdownTable() +
  '\n' +
  readme.slice(b);
if (next === readme) console.log('README.md: options table up to date');
else {
  writeFileSync(path, next);
  console.log('README.md: options table rewritten');
}
