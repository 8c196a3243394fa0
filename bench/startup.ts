/**
 * Start-up cost of the register entry (issue 13): wall time of
 *
 *   ours    node --require <repo>/dist/cjs/register.js -e 0
 *   anchor  node --require bench/fixtures/anchor-register.cjs -e 0
 *           (NodeSDK + instrumentation-undici, the stock way to trace outgoing HTTP)
 *   bare    node -e 0
 *
 * each a fresh process, in interleaved rounds whose order rotates, with the same environment
 * for all (printed). Prints the median wall ms of each, ours / anchor (goal <= 1.2) and the
 * preload's own cost (ours - bare) / (anchor - bare), as medians of per-round figures too.
 *
 *   npm run bench:startup            # = npm run build && node --import tsx bench/startup.ts
 *   STARTUP_ROUNDS=41 STARTUP_WARMUP=3 node --import tsx bench/startup.ts
 *   STARTUP_NODE=/path/to/node ...   # another node binary
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const REGISTER = path.join(ROOT, 'dist', 'cjs', 'register.js');
const ANCHOR = path.join(__dirname, 'fixtures', 'anchor-register.cjs');
const NODE = process.env.STARTUP_NODE || process.execPath;
const ROUNDS = Math.max(1, Number(process.env.STARTUP_ROUNDS) || 31);
const WARMUP = Math.max(0, Number(process.env.STARTUP_WARMUP ?? 3));

type Name = 'ours' | 'anchor' | 'bare';
const CONFIGS: Record<Name, string[]> = {
  ours: ['--require', REGISTER, '-e', '0'],
  anchor: ['--require', ANCHOR, '-e', '0'],
  bare: ['-e', '0'],
};
const NAMES = Object.keys(CONFIGS) as Name[];

/** The same environment for every process: no inherited OTEL_* or NODE_OPTIONS, then these. */
const STARTUP_ENV: Record<string, string> = {
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_METRICS_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
  OTEL_SERVICE_NAME: 'startup-bench',
  // Nothing listens there; `-e 0` makes no spans, so nothing is sent.
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
};

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('OTEL_') || k === 'NODE_OPTIONS' || k.startsWith('NODE_DEBUG')) continue;
    env[k] = v;
  }
  return { ...env, ...STARTUP_ENV };
}

function runOnce(name: Name, env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(NODE, CONFIGS[name], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 || r.signal) {
    throw new Error(
      `${name} exited with ${r.status ?? r.signal}: ${(r.stderr || '').slice(0, 2000)}`,
    );
  }
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const fmt = (x: number, d = 1): string => x.toFixed(d);

function main(): void {
  if (!existsSync(REGISTER)) throw new Error(`${REGISTER} missing: run \`npm run build\` first`);
  const env = childEnv();
  const nodeVersion = spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const load = (): string =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`start-up bench: node ${nodeVersion}, ${os.cpus().length} CPUs, load ${load()}`);
  console.log(
    `env (all three): ${Object.entries(STARTUP_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  console.log(`${ROUNDS} rounds (+${WARMUP} warm-up), order rotated each round\n`);

  for (let w = 0; w < WARMUP; w++) for (const n of NAMES) runOnce(n, env);
  const times: Record<Name, number[]> = { ours: [], anchor: [], bare: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = NAMES.map((_, i) => NAMES[(i + r) % NAMES.length]!);
    for (const n of order) times[n].push(runOnce(n, env));
  }

  const med = { ours: median(times.ours), anchor: median(times.anchor), bare: median(times.bare) };
  for (const n of NAMES) {
    const s = [...times[n]].sort((a, b) => a - b);
    const line = `${n.padEnd(7)} median ${fmt(med[n]).padStart(6)} ms`;
    console.log(`${line}   min ${fmt(s[0]!)}   max ${fmt(s[s.length - 1]!)}`);
  }
  const perRound = times.ours.map((o, i) => o / times.anchor[i]!);
  const ownPerRound = times.ours.map(
    (o, i) => (o - times.bare[i]!) / (times.anchor[i]! - times.bare[i]!),
  );
  const ratio = med.ours / med.anchor;
  const own = (med.ours - med.bare) / (med.anchor - med.bare);
  const range = (xs: number[]): string => `[${fmt(Math.min(...xs), 3)}–${fmt(Math.max(...xs), 3)}]`;
  console.log('');
  const verdict = ratio <= 1.2 ? 'met' : 'MISSED';
  console.log(`ours / anchor (medians)                 ${fmt(ratio, 3)}   goal <= 1.2: ${verdict}`);
  console.log(
    `ours / anchor (median per round)        ${fmt(median(perRound), 3)} ${range(perRound)}`,
  );
  const ownRound = fmt(median(ownPerRound), 3);
  console.log(
    `(ours - bare) / (anchor - bare)         ${fmt(own, 3)}   (median per round ${ownRound})`,
  );
  console.log(
    `preload cost: ours ${fmt(med.ours - med.bare)} ms, anchor ${fmt(med.anchor - med.bare)} ms over bare`,
  );
  console.log(`load at end ${load()}`);
}

main();
