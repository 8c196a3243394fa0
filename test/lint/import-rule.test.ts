/**
 * The layer rule of eslint.config.mjs, shown to fail: ESLint's own Node API lints a snippet
 * as if it were a file of src/ (the path picks the rule's per-folder settings) and the
 * forbidden imports get the rule's error, the allowed ones none.
 *
 *   - the instrumentation (core, hooks, telemetry, instrumentation.ts, recognise.ts) never
 *     imports the distro (src/distro/), the fleet receiver (src/fleet/) or the register entry;
 *   - core and hooks import nothing from OpenTelemetry and nothing outside their folder;
 *   - the instrumentation makes no import() or require() calls (the rule reads static imports).
 *
 * Run: node --import tsx --test test/lint/import-rule.test.ts
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');
const IMPORT_RULE = '@typescript-eslint/no-restricted-imports';
const SYNTAX_RULE = 'no-restricted-syntax';

let eslint: ESLint;

before(() => {
  // typescript-eslint takes CI=true (set by CI) as a single run and then parses a file of the
  // project from disk, ignoring the text given to lintText: the snippets would never be seen.
  process.env.TSESTREE_SINGLE_RUN = 'false';
  // The project's own config (eslint.config.mjs); only the two layer rules are reported, so a
  // snippet is judged on its imports alone.
  eslint = new ESLint({
    cwd: ROOT,
    ruleFilter: ({ ruleId }) => ruleId === IMPORT_RULE || ruleId === SYNTAX_RULE,
  });
});

interface Found {
  ruleId: string | null;
  message: string;
}

/**
 * Lints `code` as the file `file` (an existing file of src/: the type-aware parser needs one
 * its tsconfig includes; only the text given is linted).
 */
async function lint(file: string, code: string): Promise<Found[]> {
  const filePath = path.join(ROOT, file);
  assert.ok(!(await eslint.isPathIgnored(filePath)), `${file} is linted`);
  const [result] = await eslint.lintText(code, { filePath });
  assert.equal(result.fatalErrorCount, 0, JSON.stringify(result.messages));
  return result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

function assertForbidden(found: Found[], ruleId: string, words: RegExp): void {
  assert.ok(
    found.some((f) => f.ruleId === ruleId && words.test(f.message)),
    `expected ${ruleId} matching ${words}; got ${JSON.stringify(found)}`,
  );
}

describe('the instrumentation never imports the distro or the fleet receiver', () => {
  const CASES: Array<[string, string]> = [
    ['src/core/url.ts', `import { parseWebhookPayload } from '../fleet/alerts';`],
    ['src/core/protocol/common.ts', `import { startFleetReceivers } from '../../fleet/receivers';`],
    ['src/telemetry/own-requests.ts', `import { abortExports } from '../distro/detached-export';`],
    ['src/telemetry/own-requests.ts', `import type { FleetAlert } from '../fleet/alerts';`],
    ['src/telemetry/own-requests.ts', `export { startFleetReceivers } from '../fleet/receivers';`],
    ['src/telemetry/own-requests.ts', `import '../register';`],
    ['src/instrumentation.ts', `import { startFleetReceivers } from './fleet/receivers';`],
    ['src/recognise.ts', `import * as distro from './distro/start-sdk';`],
    ['src/hooks/fetch.ts', `import { startAlertmanagerPoller } from '../fleet/receivers';`],
  ];
  for (const [file, code] of CASES)
    test(`${file}: ${code}`, async () => {
      assertForbidden(await lint(file, code), IMPORT_RULE, /never imports the distro/);
    });

  test('a dynamic import() or require() in the instrumentation is refused too', async () => {
    const found = await lint(
      'src/telemetry/own-requests.ts',
      `export const load = () => import('../fleet/receivers');\n` +
        `export const load2 = () => require('../distro/start-sdk');\n`,
    );
    assert.equal(found.filter((f) => f.ruleId === SYNTAX_RULE).length, 2, JSON.stringify(found));
  });
});

describe('core and hooks stay in their folders, without OpenTelemetry', () => {
  test('core: no @opentelemetry/*', async () => {
    assertForbidden(
      await lint('src/core/judge.ts', `import { trace } from '@opentelemetry/api';`),
      IMPORT_RULE,
      /nothing from OpenTelemetry/,
    );
  });
  test('core: no hooks, no telemetry, nothing outside core (from core/ and from core/protocol/)', async () => {
    for (const [file, code] of [
      ['src/core/judge.ts', `import type { WireRequestInfo } from '../hooks/types';`],
      ['src/core/judge.ts', `import { sharedState } from '../telemetry/shared-state';`],
      ['src/core/judge.ts', `import { logger } from '../diag-logger';`],
      ['src/core/protocol/common.ts', `import { A2ACall } from '../../telemetry/a2a-call';`],
    ]) {
      assertForbidden(await lint(file, code), IMPORT_RULE, /core imports nothing outside core/);
    }
  });
  test('hooks: no core, no telemetry, no @opentelemetry/*', async () => {
    for (const code of [
      `import { normaliseUrl } from '../core/url';`,
      `import { sharedState } from '../telemetry/shared-state';`,
    ])
      assertForbidden(
        await lint('src/hooks/fetch.ts', code),
        IMPORT_RULE,
        /hooks imports nothing outside hooks/,
      );
    assertForbidden(
      await lint('src/hooks/fetch.ts', `import { context } from '@opentelemetry/api';`),
      IMPORT_RULE,
      /nothing from OpenTelemetry/,
    );
  });
});

describe('allowed imports pass', () => {
  const CASES: Array<[string, string]> = [
    // within core, also from a subfolder up to core
    ['src/core/judge.ts', `import { normaliseUrl } from './url';`],
    ['src/core/protocol/common.ts', `import { isRecord } from '../json-path';`],
    ['src/hooks/fetch.ts', `import type { WireRequestInfo } from './types';\nimport 'node:http';`],
    // telemetry on core, hooks and OpenTelemetry
    [
      'src/telemetry/own-requests.ts',
      `import { normaliseUrl } from '../core/url';\nimport { trace } from '@opentelemetry/api';\nimport type { WireRequestInfo } from '../hooks/types';`,
    ],
    // a name that merely contains a restricted folder's name
    ['src/telemetry/own-requests.ts', `import { x } from './fleetish';`],
    // the fleet receiver and the distro are built on the instrumentation
    [
      'src/fleet/receivers.ts',
      `import { sharedState } from '../telemetry/shared-state';\nimport { SeenAlerts } from '../core/seen-alerts';`,
    ],
    [
      'src/distro/start-sdk.ts',
      `import { startFleetReceivers } from '../fleet/receivers';\nimport { A2AInstrumentation } from '../instrumentation';`,
    ],
    ['src/index.ts', `export { createAlertWebhookHandler } from './fleet/receivers';`],
  ];
  for (const [file, code] of CASES)
    test(`${file}: ${code.replace(/\n/g, ' ')}`, async () => {
      assert.deepEqual(await lint(file, code), []);
    });
});
