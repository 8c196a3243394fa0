'use strict';
/**
 * `npm run demo` (after `npm run build`): runs the fleet demo under the register entry.
 *
 *   node --require <repo>/dist/cjs/register.js examples/fleet-demo.js
 *
 * With no OTLP endpoint and no OTEL_TRACES_EXPORTER in the environment, nothing is
 * exported (OTEL_TRACES_EXPORTER=none, OTEL_METRICS_EXPORTER=none): no backend is
 * needed and the findings are printed to the terminal. With OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_TRACES_EXPORTER) set, the environment
 * is passed through and the demo exports as any instrumented app would, e.g.
 *
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 npm run demo
 *
 * Exits with the demo's exit code (128 + n when it was killed by signal n).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

const repo = path.resolve(__dirname, '..');
const register = path.join(repo, 'dist', 'cjs', 'register.js');
const demo = path.join(__dirname, 'fleet-demo.js');

if (!fs.existsSync(register)) {
  console.error(
    `run-demo: ${path.relative(process.cwd(), register)} is missing: run \`npm run build\` first (npm run demo does)`,
  );
  process.exit(1);
}

const env = { ...process.env };
const isSet = (name) => typeof env[name] === 'string' && env[name].trim() !== '';
if (
  !isSet('OTEL_EXPORTER_OTLP_ENDPOINT') &&
  !isSet('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') &&
  !isSet('OTEL_TRACES_EXPORTER')
) {
  env.OTEL_TRACES_EXPORTER = 'none';
  env.OTEL_METRICS_EXPORTER = 'none';
}
if (!isSet('OTEL_SERVICE_NAME')) env.OTEL_SERVICE_NAME = 'a2a-fleet-client';
// Round 4 shows a caller learning of a redeploy at its next call without any revalidation.
if (!isSet('OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS'))
  env.OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS = '0';

const child = spawn(process.execPath, ['--require', register, demo, ...process.argv.slice(2)], {
  cwd: repo,
  env,
  stdio: 'inherit',
});

// Ctrl-C reaches the child through the terminal's process group; forward explicit signals.
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
process.on('SIGINT', () => forward('SIGINT'));
process.on('SIGTERM', () => forward('SIGTERM'));

child.on('error', (err) => {
  console.error(`run-demo: could not start node: ${err.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) process.exit(128 + (os.constants.signals[signal] || 0));
  process.exit(code === null ? 1 : code);
});
