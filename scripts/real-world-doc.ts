/**
 * Writes docs/real-world.md from the real-world table (test/real-world/conformance/).
 * `npm run docs:real-world`; test/docs/real-world-doc.test.ts fails while the page is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realWorldMarkdown } from '../test/real-world/conformance/doc';

const path = join(__dirname, '..', 'docs', 'real-world.md');
const next = realWorldMarkdown();
if (readFileSync(path, 'utf8') === next) console.log('docs/real-world.md: up to date');
else {
  writeFileSync(path, next);
  console.log('docs/real-world.md: rewritten');
}
