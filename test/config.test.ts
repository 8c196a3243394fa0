/**
 * The options: every one validated by resolveConfig (a bad value: one warning, the default),
 * read from its OTEL_INSTRUMENTATION_A2A_* variable by configFromEnv, and documented in the
 * README's configuration table, which is generated from the same table (src/options.ts).
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { configFromEnv, resolveConfig, type A2AInstrumentationConfig } from '../src/config';
import {
  OPTIONS,
  optionsMarkdownTable,
  README_TABLE_END,
  README_TABLE_START,
  type OptionSpec,
} from '../src/options';

let warnings: string[] = [];
function captureWarnings(): void {
  warnings = [];
  const noop = (): void => {};
  const logger: DiagLogger = {
    error: noop,
    warn: (m: string, ...args: unknown[]) => void warnings.push([m, ...args].join(' ')),
    info: noop,
    debug: noop,
    verbose: noop,
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}
afterEach(() => diag.disable());

test('resolveConfig({}) is the documented defaults, with no warning', () => {
  captureWarnings();
  const c = resolveConfig({});
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    c.unknownSkillPatterns.map((m) => m.label),
    ['unknown skill'],
  );
  assert.deepEqual(
    c.unsupportedModePatterns.map((m) => m.label),
    ['unsupported mode'],
  );
  assert.deepEqual(c.skillIdPaths, [
    'params.skillId',
    'params.metadata.skillId',
    'params.message.metadata.skillId',
    'params.message.metadata.skill_id',
  ]);
  assert.equal(c.strictTextParts, false);
  assert.equal(c.maxInspectBytes, 4 * 1024 * 1024);
  assert.equal(c.maxRequestBodyBytes, 1024 * 1024);
  assert.deepEqual(c.ignoreUrls, []);
  assert.equal(c.driftCallbackDebounceMs, 10_000);
  assert.equal(c.maxTrackedTasks, 10_000);
  assert.equal(c.taskTtlMs, 3_600_000);
  assert.equal(c.maxCards, 1_000);
  assert.equal(c.maxSpanDurationMs, 300_000);
  assert.equal(c.enforce, false);
  assert.equal(c.refetchCardOnDrift, false);
});

test('resolveConfig keeps valid values (integers floored, /g and /y patterns made stateless)', () => {
  captureWarnings();
  const c = resolveConfig({
    unknownSkillPatterns: ['no such skill', /tool .* not found/],
    unsupportedModePatterns: ['bad mode'],
    skillIdPaths: ['params.x'],
    strictTextParts: true,
    maxInspectBytes: 10.7,
    maxRequestBodyBytes: 20,
    ignoreUrls: ['http://a/', /health/g],
    driftCallbackDebounceMs: 0,
    maxTrackedTasks: 5,
    taskTtlMs: 6,
    maxCards: 7,
    maxSpanDurationMs: 8,
    mode: 'enforce',
    refetchCardOnDrift: true,
  });
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    c.unknownSkillPatterns.map((m) => m.label),
    ['no such skill', '/tool .* not found/'],
  );
  assert.deepEqual(
    c.unsupportedModePatterns.map((m) => m.label),
    ['bad mode'],
  );
  assert.deepEqual(c.skillIdPaths, ['params.x']);
  assert.equal(c.strictTextParts, true);
  assert.equal(c.maxInspectBytes, 10);
  assert.equal(c.maxRequestBodyBytes, 20);
  assert.equal(c.ignoreUrls[0], 'http://a/');
  assert.ok(c.ignoreUrls[1] instanceof RegExp);
  assert.equal((c.ignoreUrls[1] as RegExp).flags, '');
  assert.equal(c.driftCallbackDebounceMs, 0);
  assert.equal(c.maxTrackedTasks, 5);
  assert.equal(c.taskTtlMs, 6);
  assert.equal(c.maxCards, 7);
  assert.equal(c.maxSpanDurationMs, 8);
  assert.equal(c.enforce, true);
  assert.equal(c.refetchCardOnDrift, true);
});

test('resolveConfig: each invalid value gets one warning naming the option, and its default', () => {
  const bad: Array<[keyof A2AInstrumentationConfig, unknown]> = [
    ['unknownSkillPatterns', 'unknown skill'],
    ['unknownSkillPatterns', ['']],
    ['unsupportedModePatterns', [42]],
    ['skillIdPaths', [/x/]],
    ['strictTextParts', 'yes'],
    ['maxInspectBytes', 0],
    ['maxInspectBytes', '100'],
    ['maxRequestBodyBytes', Number.NaN],
    ['ignoreUrls', 'http://a/'],
    ['driftCallbackDebounceMs', -1],
    ['maxTrackedTasks', Infinity],
    ['taskTtlMs', null],
    ['maxCards', {}],
    ['maxSpanDurationMs', -5],
    ['mode', 'strict'],
    ['refetchCardOnDrift', 1],
  ];
  const defaults = resolveConfig({});
  for (const [option, value] of bad) {
    captureWarnings();
    const c = resolveConfig({ [option]: value } as A2AInstrumentationConfig);
    assert.equal(warnings.length, 1, `${option}: ${warnings.join(' | ')}`);
    assert.match(warnings[0]!, new RegExp(`invalid ${option} `));
    const key = option === 'mode' ? 'enforce' : option;
    const got = c[key as keyof typeof c];
    const want = defaults[key as keyof typeof defaults];
    if (key.endsWith('Patterns'))
      assert.deepEqual(
        (got as Array<{ label: string }>).map((m) => m.label),
        (want as Array<{ label: string }>).map((m) => m.label),
        option,
      );
    else assert.deepEqual(got, want, option);
  }
});

test('configFromEnv reads every documented variable', () => {
  captureWarnings();
  const p = 'OTEL_INSTRUMENTATION_A2A_';
  const c = configFromEnv({
    [`${p}UNKNOWN_SKILL_PATTERNS`]: 'no such skill, tool not found ,',
    [`${p}UNSUPPORTED_MODE_PATTERNS`]: 'bad mode',
    [`${p}SKILL_ID_PATHS`]: 'params.a,params.b',
    [`${p}IGNORE_URLS`]: 'http://a/',
    [`${p}STRICT_TEXT_PARTS`]: 'TRUE',
    [`${p}REFETCH_CARD_ON_DRIFT`]: 'false',
    [`${p}MODE`]: 'Enforce',
    [`${p}ENABLED`]: 'false',
    [`${p}MAX_INSPECT_BYTES`]: '11',
    [`${p}MAX_REQUEST_BODY_BYTES`]: '12',
    [`${p}DRIFT_CALLBACK_DEBOUNCE_MS`]: '0',
    [`${p}MAX_TRACKED_TASKS`]: '13',
    [`${p}TASK_TTL_MS`]: '14',
    [`${p}MAX_CARDS`]: ' 15 ',
    [`${p}MAX_SPAN_DURATION_MS`]: '16',
  });
  assert.deepEqual(warnings, []);
  assert.deepEqual(c, {
    unknownSkillPatterns: ['no such skill', 'tool not found'],
    unsupportedModePatterns: ['bad mode'],
    skillIdPaths: ['params.a', 'params.b'],
    ignoreUrls: ['http://a/'],
    strictTextParts: true,
    refetchCardOnDrift: false,
    mode: 'enforce',
    enabled: false,
    maxInspectBytes: 11,
    maxRequestBodyBytes: 12,
    driftCallbackDebounceMs: 0,
    maxTrackedTasks: 13,
    taskTtlMs: 14,
    maxCards: 15,
    maxSpanDurationMs: 16,
  });
  assert.deepEqual(configFromEnv({ [`${p}MAX_CARDS`]: '  ', [`${p}MODE`]: '' }), {});
});

test('configFromEnv: a bad value is one warning naming the variable, and is left out', () => {
  const p = 'OTEL_INSTRUMENTATION_A2A_';
  for (const [name, value] of [
    ['MAX_INSPECT_BYTES', 'abc'],
    ['MAX_CARDS', '-1'],
    ['TASK_TTL_MS', '1.5'],
    ['MAX_TRACKED_TASKS', '99999999999999999999'],
    ['STRICT_TEXT_PARTS', 'yes'],
    ['ENABLED', '0'],
    ['MODE', 'strict'],
  ] as const) {
    captureWarnings();
    assert.deepEqual(configFromEnv({ [p + name]: value }), {}, name);
    assert.equal(warnings.length, 1, `${name}: ${warnings.join(' | ')}`);
    assert.match(warnings[0]!, new RegExp(`invalid ${p}${name} `));
  }
});

test('every option of the config type is in the options table, with its variable', () => {
  const documented = Object.keys(OPTIONS).sort();
  // The keys of A2AInstrumentationConfig: the table's type requires each (src/options.ts);
  // this checks the environment names stay one per option and well formed.
  assert.ok(documented.includes('enabled'));
  const envs = (Object.values(OPTIONS) as OptionSpec[])
    .map((o) => o.env)
    .filter((e): e is string => e !== undefined);
  assert.equal(new Set(envs).size, envs.length, 'one variable per option');
  for (const e of envs) assert.match(e, /^[A-Z][A-Z_]*$/);
});

test("the README's configuration table is the one generated from the options table", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const a = readme.indexOf(README_TABLE_START);
  const b = readme.indexOf(README_TABLE_END);
  assert.ok(a >= 0 && b > a, 'README has the generated table markers');
  assert.equal(
    readme.slice(a + README_TABLE_START.length, b).trim(),
    optionsMarkdownTable().trim(),
    'README options table is stale: run `npm run docs:options`',
  );
});
