// Lint for the package and its tests: typescript-eslint's recommended rules, plus the few that
// keep an instrumentation safe to load into someone else's process. Formatting is prettier's
// (.prettierrc.json, 100 columns).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---------------------------------------------------------------------------------------------
// The layers, checked on every import (`import`, `export … from`, `import x = require()`, type
// imports too). The instrumentation (core, hooks, telemetry, instrumentation.ts, recognise.ts)
// never imports the distro (src/distro/: SDK start, exporters) or the fleet receiver
// (src/fleet/), nor the register entry; core and hooks import nothing outside their own folder
// (Node built-ins aside), so nothing from OpenTelemetry. Import strings are matched as written:
// the instrumentation uses no import() or require() calls (checked below), so none escapes.
// test/lint/import-rule.test.ts shows each rule failing on a forbidden import.
// ---------------------------------------------------------------------------------------------
const NOT_DISTRO_OR_FLEET = {
  regex: String.raw`^\.{1,2}/(?:.*/)?(?:(?:distro|fleet)(?:/.*)?|register)$`,
  caseSensitive: true,
  message:
    'the instrumentation (core, hooks, telemetry) never imports the distro (src/distro/), the fleet receiver (src/fleet/) or the register entry: they are built on it, not it on them',
};
const NOT_OPENTELEMETRY = {
  regex: '^@opentelemetry/',
  caseSensitive: true,
  message: 'core and hooks import nothing from OpenTelemetry (that is telemetry/)',
};
/** Relative imports that climb out of a folder, from a file `depth` folders below it. */
const outOf = (layer, depth, why) => ({
  regex: `^(?:\\.\\./){${depth}}`,
  caseSensitive: true,
  message: `${layer} imports nothing outside ${layer} (Node built-ins aside): ${why}`,
});
const restrict = (files, patterns) => ({
  files,
  rules: {
    'no-restricted-imports': 'off',
    '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
    'no-restricted-syntax': [
      'error',
      {
        selector: 'ImportExpression',
        message: 'static imports only in the instrumentation: the layer rule reads them',
      },
      {
        selector: "CallExpression[callee.name='require']",
        message: 'static imports only in the instrumentation: the layer rule reads them',
      },
    ],
  },
});
const CORE_WHY = 'it is pure (no OpenTelemetry, no hooks, no telemetry)';
const HOOKS_WHY = 'hooks only move bytes (no core, no telemetry, no OpenTelemetry)';
const layerRules = [
  restrict(
    ['src/telemetry/**/*.ts', 'src/instrumentation.ts', 'src/recognise.ts'],
    [NOT_DISTRO_OR_FLEET],
  ),
  ...[1, 2, 3].flatMap((depth) => {
    const below = Array(depth - 1)
      .fill('*')
      .join('/');
    const at = (layer) => `src/${layer}/${below ? `${below}/` : ''}*.ts`;
    return [
      restrict(
        [at('core')],
        [NOT_DISTRO_OR_FLEET, NOT_OPENTELEMETRY, outOf('core', depth, CORE_WHY)],
      ),
      restrict(
        [at('hooks')],
        [NOT_DISTRO_OR_FLEET, NOT_OPENTELEMETRY, outOf('hooks', depth, HOOKS_WHY)],
      ),
    ];
  }),
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      '.bench-out/',
      'test/real-world/clients/node_modules/',
      'test/real-world/python/*/.venv/',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        ReadableStream: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        exports: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // The package must not print: diagnostics go through diag (src/diag-logger.ts).
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // The package itself: no printing (diagnostics go through diag), and no promise left to
    // reject unobserved into the host application (type-aware rules, src/ only: fast enough).
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  ...layerRules,
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
