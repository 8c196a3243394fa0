// Builds dist/cjs with tsc, then writes the thin ESM entry points in dist/esm.
// The ESM entries re-export the CommonJS build, so a process that loads the package
// through both `require` and `import` holds one copy of its state (no dual-package hazard).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
  stdio: 'inherit',
});
mkdirSync('dist/esm', { recursive: true });
writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');

const api = require('../dist/cjs/index.js');
const names = Object.keys(api).filter((n) => n !== 'default' && n !== '__esModule');
writeFileSync(
  'dist/esm/index.mjs',
  `import api from '../cjs/index.js';\nexport const { ${names.join(', ')} } = api;\nexport default api;\n`,
);
writeFileSync('dist/esm/register.mjs', `import '../cjs/register.js';\n`);

// Types of the ESM entries, for TypeScript's node16/nodenext and bundler resolution under the
// `import` condition: ESM declaration files that re-export the CommonJS build's declarations
// (as the .mjs files re-export its code), so `import` resolves to ESM-format types.
writeFileSync(
  'dist/esm/index.d.mts',
  `export * from '../cjs/index.js';\n` +
    `import * as api from '../cjs/index.js';\nexport default api;\n`,
);
writeFileSync('dist/esm/register.d.mts', 'export {};\n');
