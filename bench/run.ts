/**
 * `npm run bench` (= `npm run build && node --import tsx bench/run.ts`): the overhead
 * benchmark of issue 7, against a real `@a2a-js/sdk` server on 127.0.0.1.
 *
 * Method
 * - The peer (bench/peer-process.ts) runs in its own process for the whole run; its
 *   stored tasks are dropped (and GC run) between phases.
 * - Every client configuration (bench/client.ts) runs in a FRESH process per round
 *   (instrumentations patch globals). In a round all configurations' processes are
 *   started and warmed up, then each phase is measured in small batches interleaved
 *   across the configurations (the order rotated per batch and per round), one call in
 *   flight at a time on the whole machine. A load burst from elsewhere then hits every
 *   configuration alike, and each round yields one paired comparison.
 * - Client CPU = `process.cpuUsage()` (user + system, all threads) of the client process
 *   during its own batches, plus the CPU of exporting the spans still queued at the end of
 *   the phase (the queue is emptied before the phase starts), per call. What a process
 *   does while the others run their batches is not counted (an idle, warmed-up client
 *   still burns 0.5–1.7 % of a core on GC and JIT tails, which would be charged to
 *   whichever configuration waits longest).
 * - After the rounds, an attribution pass runs a few configurations once more under the
 *   V8 CPU profiler (bench/profile.ts) and reports per call how much CPU this package's
 *   own code (and what it calls) takes: this resolves differences (the 1 % target of
 *   row 4) that are below the end-to-end noise.
 * - Figures are medians across rounds (of each process's p50 / p99 / CPU per call);
 *   ratios are the median of the per-round ratios, with their min–max across rounds.
 * - The "as users run it" rows export OTLP/HTTP to a sink in this process that answers 200.
 * - The built package is copied to .bench-out/dist first, so a concurrent `npm run build`
 *   cannot pull it from under a running bench.
 *
 * Knobs (environment): BENCH_QUICK=1 (~30 s smoke run), BENCH_ROUNDS, BENCH_BIG_ROUNDS,
 * BENCH_SEND_WARMUP, BENCH_SEND, BENCH_STREAM_WARMUP, BENCH_STREAM, BENCH_PLAIN_WARMUP,
 * BENCH_PLAIN, BENCH_BIG_CALLS, BENCH_BATCH (send/plain calls per batch), BENCH_TASKS
 * (row 5), BENCH_MICRO_* (row 6), BENCH_CONFIGS (comma list of client configurations),
 * BENCH_SKIP=5,6,prof (skip rows 5, 6 and/or the CPU-profile attribution pass),
 * BENCH_PHASES (comma list: send, stream, plainGet, plainPost, big), BENCH_NODE (the node
 * binary the client processes run on, e.g. Node 22 or 24; the peer stays on this one).
 * Output: a table on stdout, .bench-out/results.json and .bench-out/results.md (BENCH_OUT_NAME
 * renames them).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  BigFigures,
  ClientResult,
  ConfigName,
  LatencyFigures,
  Phase,
  StreamFigures,
  Warmup,
} from './client';
import { profileOne, type ProfileRun } from './profile';
import { execFileSync } from 'node:child_process';
import {
  bundleClient,
  ClientProc,
  clientNode,
  cleanEnv,
  OUT,
  ROOT,
  runChild,
  snapshotDist,
  startPeer,
  startSink,
  type OtlpSink,
  type Peer,
} from './procs';
import type { MicroResults } from './micro';
import { formatOwnWork, type OwnWorkResult } from './own-work';
import type { RegistryMemoryResult } from './registry-memory';
import { envNumber, fmtMiB, fmtMs, fmtRatio, fmtUs, median } from './stats';

const quick = process.env.BENCH_QUICK === '1';
/** BENCH_OUT_NAME: the output files' name under .bench-out/ (default results). */
const OUT_NAME = (process.env.BENCH_OUT_NAME ?? 'results').replace(/[^\w.-]/g, '_') || 'results';

const counts = {
  sendWarmup: envNumber('BENCH_SEND_WARMUP', 200, 100),
  send: envNumber('BENCH_SEND', 600, 200),
  streamWarmup: envNumber('BENCH_STREAM_WARMUP', 5, 3),
  stream: envNumber('BENCH_STREAM', 30, 10),
  pacedWarmup: envNumber('BENCH_PACED_WARMUP', 1, 1),
  paced: envNumber('BENCH_PACED', 3, 1),
  plainWarmup: envNumber('BENCH_PLAIN_WARMUP', 200, 100),
  plain: envNumber('BENCH_PLAIN', 400, 200),
  bigCalls: envNumber('BENCH_BIG_CALLS', 2, 1),
  batch: envNumber('BENCH_BATCH', 100, 50),
  streamBatch: 5,
};
type Counts = typeof counts;
const rounds = envNumber('BENCH_ROUNDS', 7, 1);
const bigRounds = Math.min(rounds, envNumber('BENCH_BIG_ROUNDS', 3, 1));
/** BENCH_PHASES: measure only these phases (comma list of send, stream, plainGet, plainPost, big). */
const onlyPhases = process.env.BENCH_PHASES
  ? new Set(process.env.BENCH_PHASES.split(',').map((x) => x.trim()))
  : undefined;
const skipRows = new Set((process.env.BENCH_SKIP ?? '').split(',').map((x) => x.trim()));

/** Which phases each configuration runs (row 3 only in the first `bigRounds` rounds). */
const PLAN: Record<ConfigName, Phase[]> = {
  bare: ['send', 'stream', 'plainGet', 'plainPost', 'big'],
  sdk: ['send', 'stream', 'plainGet', 'plainPost'],
  undici: ['send', 'stream', 'paced', 'plainGet', 'plainPost', 'big'],
  'undici-b': ['send', 'stream', 'paced'],
  a2a: ['send', 'stream', 'paced', 'plainGet', 'plainPost', 'big'],
  'a2a-base': ['send', 'stream', 'paced', 'plainGet', 'plainPost'],
  both: ['send', 'stream', 'plainGet', 'plainPost', 'big'],
  'a2a-inspect16': ['big'],
  'nodesdk-undici': ['send'],
  register: ['send'],
};

const DESCRIPTION: Record<ConfigName, string> = {
  bare: 'bare client (no OpenTelemetry)',
  sdk: 'SDK only: NodeTracerProvider + BatchSpanProcessor (spans dropped), no instrumentation',
  undici: 'SDK floor: same SDK + instrumentation-undici',
  'undici-b':
    'the control: the same as `undici`, a second process in the same rounds (its ratio to `undici` is the noise of a ratio)',
  a2a: 'same SDK + this instrumentation alone',
  both: 'same SDK + instrumentation-undici + this instrumentation',
  'a2a-inspect16': 'this instrumentation alone, maxInspectBytes 16 MiB (row 3 only)',
  'a2a-base':
    'this instrumentation alone, from another build (BENCH_BASE_DIST: the before of a before/after)',
  'nodesdk-undici': 'NodeSDK + instrumentation-undici + OTLP/HTTP exporter (to local sink)',
  register:
    'this package as users run it: --require dist/cjs/register.js (OTLP/HTTP to local sink)',
};

// ------------------------------------------------------------------------------ processes

let clientScript: { script: string; execArgv: string[] } = {
  script: path.join(__dirname, 'client.ts'),
  execArgv: ['--import', 'tsx'],
};

const MEASURED: Phase[] = ['send', 'stream', 'paced', 'plainGet', 'plainPost'];

/** Attribution pass (after the rounds): which configuration and phase get a CPU profile. */
const PROFILE_PLAN: Array<[ConfigName, Phase]> = [
  ['undici', 'send'],
  ['a2a', 'send'],
  ['register', 'send'],
  ['a2a', 'stream'],
  ['a2a', 'plainGet'],
  ['a2a', 'plainPost'],
];

/** One round: fresh processes for every configuration, warmed up, phases measured in interleaved batches. */
async function runRound(
  round: number,
  configs: ConfigName[],
  peer: Peer,
  sink: OtlpSink,
  distDir: string,
  c: Counts,
): Promise<{ results: ClientResult[]; skipped: Map<ConfigName, string> }> {
  const skipped = new Map<ConfigName, string>();
  const rotate = <T>(list: T[], by: number): T[] =>
    list.map((_, i) => list[(i + by) % list.length]);
  await peer.reset();
  const procs: ClientProc[] = configs.map(
    (config) =>
      new ClientProc(
        {
          config,
          baseUrl: peer.baseUrl,
          plainUrl: peer.plainUrl,
          distDir,
          baseDistDir: process.env.BENCH_BASE_DIST,
          round,
        },
        sink,
        clientScript,
      ),
  );
  const live: ClientProc[] = [];
  try {
    const tStart = Date.now();
    const ready = await Promise.all(procs.map((p) => p.ready()));
    ready.forEach((r, i) => {
      if (r.type === 'ready' && r.skipped) skipped.set(procs[i].config, r.skipped);
      else live.push(procs[i]);
    });
    const warmup: Warmup = {
      send: c.sendWarmup,
      stream: c.streamWarmup,
      paced: c.pacedWarmup,
      plain: c.plainWarmup,
    };
    const tReady = Date.now();
    await Promise.all(live.map((p) => p.send({ cmd: 'warmup', phases: PLAN[p.config], warmup })));
    console.log(
      `round ${round + 1} ${live.length} client processes started in ${((tReady - tStart) / 1000).toFixed(1)} s, warmed up in ${((Date.now() - tReady) / 1000).toFixed(1)} s`,
    );
    const results = new Map<ConfigName, ClientResult>(
      live.map((p) => [p.config, { config: p.config, round }]),
    );

    for (const phase of MEASURED) {
      if (onlyPhases && !onlyPhases.has(phase)) continue;
      const part = live.filter((p) => PLAN[p.config].includes(phase));
      if (part.length === 0) continue;
      await peer.reset();
      const total =
        phase === 'send'
          ? c.send
          : phase === 'stream'
            ? c.stream
            : phase === 'paced'
              ? c.paced
              : c.plain;
      const size = phase === 'stream' ? c.streamBatch : phase === 'paced' ? 1 : c.batch;
      const batches = Math.max(1, Math.ceil(total / size));
      const t0 = Date.now();
      for (const p of part) await p.send({ cmd: 'begin', phase });
      for (let b = 0; b < batches; b++) {
        const n = Math.min(size, total - b * size);
        for (const p of rotate(part, b + round)) await p.send({ cmd: 'batch', phase, n });
      }
      for (const p of part) {
        const r = await p.send({ cmd: 'end', phase });
        const value = r.type === 'done' ? r.value : undefined;
        const res = results.get(p.config) as ClientResult;
        if (phase === 'stream') res.stream = value as StreamFigures;
        else if (phase === 'paced') res.paced = value as StreamFigures;
        else res[phase as 'send' | 'plainGet' | 'plainPost'] = value as LatencyFigures;
      }
      const line = part
        .map((p) => {
          const r = results.get(p.config) as ClientResult;
          const sf = phase === 'paced' ? r.paced : r.stream;
          return phase === 'stream' || phase === 'paced'
            ? `${p.config} ${fmtMs(sf?.firstEventP50Ms ?? NaN)}/${fmtMs(sf?.lastEventP50Ms ?? NaN)}/${fmtUs(sf?.cpuUsPerStream ?? NaN)}`
            : `${p.config} ${fmtMs(r[phase as 'send']?.p50Ms ?? NaN)}/${fmtUs(r[phase as 'send']?.cpuUsPerCall ?? NaN)}`;
        })
        .join(', ');
      console.log(
        `round ${round + 1} ${phase.padEnd(9)} ${((Date.now() - t0) / 1000).toFixed(1)} s  ${phase === 'stream' || phase === 'paced' ? 'first/last ms/CPU µs' : 'p50 ms/CPU µs'}: ${line}`,
      );
    }

    if (round < bigRounds && (!onlyPhases || onlyPhases.has('big'))) {
      const part = live.filter((p) => PLAN[p.config].includes('big'));
      await peer.reset();
      const t0 = Date.now();
      for (const p of rotate(part, round)) {
        const r = await p.send({ cmd: 'big', n: c.bigCalls });
        (results.get(p.config) as ClientResult).big = (
          r.type === 'done' ? r.value : undefined
        ) as BigFigures;
      }
      console.log(`round ${round + 1} big       ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    return {
      results: [
        ...results.values(),
        ...[...skipped].map(([config, why]) => ({ config, round, skipped: why })),
      ],
      skipped,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
  }
}

// ------------------------------------------------------------------------------ aggregation

type Getter = (r: ClientResult) => number | undefined;

const byConfig = (all: ClientResult[], c: ConfigName): ClientResult[] =>
  all.filter((r) => r.config === c && !r.skipped);

function med(all: ClientResult[], c: ConfigName, get: Getter): number {
  return median(
    byConfig(all, c)
      .map(get)
      .filter((v): v is number => v !== undefined && Number.isFinite(v)),
  );
}

interface Ratio {
  median: number;
  min: number;
  max: number;
  rounds: number;
  /** The noise of the median: the median absolute deviation of the per-round ratios. */
  noise: number;
}

/** Median over rounds of (config / base) within the same round. */
function ratio(all: ClientResult[], c: ConfigName, base: ConfigName, get: Getter): Ratio {
  const values: number[] = [];
  for (const r of byConfig(all, c)) {
    const b = byConfig(all, base).find((x) => x.round === r.round);
    const vc = get(r);
    const vb = b ? get(b) : undefined;
    if (vc !== undefined && vb !== undefined && vb > 0 && Number.isFinite(vc)) values.push(vc / vb);
  }
  const m = median(values);
  return {
    median: m,
    min: Math.min(...values),
    max: Math.max(...values),
    rounds: values.length,
    noise: values.length > 1 ? median(values.map((v) => Math.abs(v - m))) : NaN,
  };
}

/**
 * Issue 16's verdicts: `met` when the median of the per-round ratios is at or under the
 * goal, `within noise` when it is over by no more than its noise (the median absolute
 * deviation of the per-round ratios, printed beside it), `missed` otherwise.
 */
function verdictFor(goal: number, ...rs: Ratio[]): Target['verdict'] {
  if (rs.some((r) => r.rounds === 0)) return 'not measured';
  if (rs.every((r) => r.median <= goal)) return 'met';
  if (rs.every((r) => r.median - (Number.isFinite(r.noise) ? r.noise : 0) <= goal))
    return 'within noise';
  return 'missed';
}

/** A ratio with its noise: `1.012 ±0.008 [0.990–1.050]`. */
const fmtRN = (r: Ratio): string =>
  r.rounds === 0
    ? 'n/a'
    : `${fmtRatio(r.median)} ±${Number.isFinite(r.noise) ? r.noise.toFixed(3) : 'n/a'} [${fmtRatio(r.min)}–${fmtRatio(r.max)}]`;

const fmtR = (r: Ratio): string =>
  r.rounds === 0 ? 'n/a' : `${fmtRatio(r.median)} [${fmtRatio(r.min)}–${fmtRatio(r.max)}]`;

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    '| ' +
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') +
    ' |';
  return [
    line(headers),
    '|' +
      widths
        .map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':'))
        .join('|') +
      '|',
    ...rows.map(line),
  ].join('\n');
}

function clientNodeVersion(): string {
  try {
    return execFileSync(clientNode(), ['-v'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function machine(): Record<string, string | number> {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1];
  } catch {
    /* not Linux */
  }
  const pkg = (name: string): string => {
    try {
      return (
        JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    } catch {
      return 'missing';
    }
  };
  return {
    cpus: os.cpus().length,
    cpu,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    clientNode: clientNodeVersion(),
    platform: `${process.platform}/${process.arch}`,
    '@a2a-js/sdk': pkg('@a2a-js/sdk'),
    '@opentelemetry/instrumentation-undici': pkg('@opentelemetry/instrumentation-undici'),
    '@opentelemetry/sdk-node': pkg('@opentelemetry/sdk-node'),
    '@opentelemetry/sdk-trace-node': pkg('@opentelemetry/sdk-trace-node'),
  };
}

// ------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(OUT, { recursive: true });
  const distDir = snapshotDist();
  clientScript = bundleClient();
  const m = machine();
  const loadStart = os.loadavg();
  console.log(
    `machine: ${m.cpus} CPUs (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node} (clients ${m.clientNode}); load average at start ${loadStart.map((v) => v.toFixed(2)).join(' ')}`,
  );
  console.log(
    `rounds ${rounds} (row 3: ${bigRounds}), counts ${JSON.stringify(counts)}${quick ? ' [BENCH_QUICK]' : ''}`,
  );

  const only = process.env.BENCH_CONFIGS
    ? new Set(process.env.BENCH_CONFIGS.split(',').map((s) => s.trim()))
    : undefined;
  const baseDistDir = process.env.BENCH_BASE_DIST;
  let configs = (Object.keys(PLAN) as ConfigName[]).filter(
    (c) => (!only || only.has(c)) && (c !== 'a2a-base' || baseDistDir !== undefined),
  );

  const sink = await startSink();
  const peer = await startPeer();
  const results: ClientResult[] = [];
  const profiles: ProfileRun[] = [];
  const errors: string[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      try {
        const r = await runRound(round, configs, peer, sink, distDir, counts);
        results.push(...r.results);
        for (const [config, why] of r.skipped) {
          console.log(`round ${round + 1} ${config}: skipped: ${why}`);
          configs = configs.filter((x) => x !== config); // no point retrying in this run
        }
      } catch (err) {
        const msg = `round ${round + 1}: ${(err as Error).message}`;
        errors.push(msg);
        console.log(`ERROR ${msg}`);
      }
    }
    if (!skipRows.has('prof')) {
      console.log('attribution: V8 CPU profiles of the measured phase …');
      for (const [config, phase] of PROFILE_PLAN) {
        if (!configs.includes(config)) continue;
        try {
          const calls =
            phase === 'stream'
              ? quick
                ? 20
                : 60
              : phase === 'send'
                ? quick
                  ? 500
                  : 1500
                : quick
                  ? 1000
                  : 3000;
          const run = await profileOne(
            { peer, sink, distDir, clientScript },
            config,
            phase,
            calls,
            phase === 'stream' ? 5 : 300,
          );
          if (run) profiles.push(run);
        } catch (err) {
          errors.push(`profile ${config} ${phase}: ${(err as Error).message}`);
        }
      }
    }
  } finally {
    peer.stop();
  }

  let memory: RegistryMemoryResult | undefined;
  if (!skipRows.has('5'))
    try {
      console.log('row 5: 100,000 tasks negotiated, never polled …');
      memory = await runChild<RegistryMemoryResult>(
        'registry-memory.ts',
        ['--import', 'tsx', '--expose-gc'],
        cleanEnv({
          BENCH_DIST: distDir,
          ...(process.env.BENCH_TASKS ? { BENCH_TASKS: process.env.BENCH_TASKS } : {}),
          ...(quick ? { BENCH_QUICK: '1' } : {}),
        }),
        300_000,
      );
    } catch (err) {
      errors.push(`row 5: ${(err as Error).message}`);
    }
  let micro: MicroResults | undefined;
  if (!skipRows.has('6'))
    try {
      console.log('row 6: fingerprint and judge, per call …');
      const microEnv: Record<string, string> = quick ? { BENCH_QUICK: '1' } : {};
      for (const k of ['BENCH_MICRO_ROUNDS', 'BENCH_MICRO_SAMPLES', 'BENCH_MICRO_WARMUP'])
        if (process.env[k]) microEnv[k] = process.env[k] as string;
      micro = await runChild<MicroResults>(
        'micro.ts',
        ['--import', 'tsx'],
        cleanEnv(microEnv),
        300_000,
      );
    } catch (err) {
      errors.push(`row 6: ${(err as Error).message}`);
    }
  let ownWork: OwnWorkResult | undefined;
  if (!skipRows.has('7'))
    try {
      console.log('row 7: own work per exchange without the network …');
      ownWork = await runChild<OwnWorkResult>(
        'own-work.ts',
        ['--import', 'tsx'],
        cleanEnv({
          BENCH_DIST: distDir,
          ...(quick ? { OWN_ROUNDS: '3' } : {}),
          ...(process.env.BENCH_NODE ? { OWN_NODE: process.env.BENCH_NODE } : {}),
        }),
        300_000,
      );
    } catch (err) {
      errors.push(`row 7: ${(err as Error).message}`);
    }
  sink.close();
  const loadEnd = os.loadavg();
  const elapsedS = (Date.now() - started) / 1000;

  const report = render(results, memory, micro, sink, {
    rounds,
    bigRounds,
    counts,
    quick,
    elapsedS,
    loadStart,
    loadEnd,
    machine: m,
    errors,
    profiles,
    ownWork,
  });
  console.log('\n' + report.text);
  writeFileSync(
    path.join(OUT, `${OUT_NAME}.json`),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: m,
        method: { rounds, bigRounds, counts, quick, loadStart, loadEnd, elapsedS },
        summary: report.summary,
        targets: report.targets,
        clients: results,
        profiles,
        registryMemory: memory,
        micro,
        sink: { requests: sink.requests, bytes: sink.bytes, byPath: sink.byPath },
        errors,
      },
      null,
      1,
    ),
  );
  writeFileSync(path.join(OUT, `${OUT_NAME}.md`), report.text + '\n');
  console.log(
    `\nwrote .bench-out/${OUT_NAME}.json and .bench-out/${OUT_NAME}.md (${elapsedS.toFixed(0)} s)`,
  );
  if (errors.length > 0) process.exitCode = 1;
}

interface RenderContext {
  rounds: number;
  bigRounds: number;
  counts: Counts;
  quick: boolean;
  elapsedS: number;
  loadStart: number[];
  loadEnd: number[];
  machine: Record<string, string | number>;
  errors: string[];
  profiles: ProfileRun[];
  ownWork: OwnWorkResult | undefined;
}

interface Target {
  id: string;
  target: string;
  measured: string;
  verdict: 'met' | 'missed' | 'not measured' | 'within noise' | 'faster' | 'not faster';
}

function render(
  all: ClientResult[],
  memory: RegistryMemoryResult | undefined,
  micro: MicroResults | undefined,
  sink: OtlpSink,
  ctx: RenderContext,
) {
  const out: string[] = [];
  const targets: Target[] = [];
  const summary: Record<string, unknown> = {};
  const present = (c: ConfigName) => byConfig(all, c).length > 0;
  const skippedRegister = all.find((r) => r.config === 'register' && r.skipped)?.skipped;

  out.push(
    `Machine: ${ctx.machine.cpus} CPUs (${ctx.machine.cpu}), ${ctx.machine.memoryGiB} GiB RAM, Node ${ctx.machine.node} (client processes ${ctx.machine.clientNode}), ${ctx.machine.platform}; @a2a-js/sdk ${ctx.machine['@a2a-js/sdk']}, instrumentation-undici ${ctx.machine['@opentelemetry/instrumentation-undici']}, sdk-node ${ctx.machine['@opentelemetry/sdk-node']}.`,
  );
  out.push(
    `Run: ${ctx.rounds} rounds (row 3: ${ctx.bigRounds}), fresh client process per configuration per round, order rotated; counts per process ${JSON.stringify(ctx.counts)}; ${ctx.elapsedS.toFixed(0)} s; load average ${ctx.loadStart.map((v) => v.toFixed(2)).join('/')} → ${ctx.loadEnd.map((v) => v.toFixed(2)).join('/')}${ctx.quick ? '; BENCH_QUICK smoke run, figures indicative only' : ''}.`,
  );
  out.push('Ratios: median of per-round ratios [min–max over rounds].');

  // Row 1 -----------------------------------------------------------------------------
  const sendCfgs = (
    [
      'bare',
      'sdk',
      'undici',
      'undici-b',
      'a2a',
      'a2a-base',
      'both',
      'nodesdk-undici',
      'register',
    ] as ConfigName[]
  ).filter(present);
  const p50: Getter = (r) => r.send?.p50Ms;
  const p99: Getter = (r) => r.send?.p99Ms;
  const cpu: Getter = (r) => r.send?.cpuUsPerCall;
  const tput: Getter = (r) => r.send?.perSecond;
  const mainCpu: Getter = (r) =>
    r.send?.mainThreadCpuUsWindow !== undefined
      ? r.send.mainThreadCpuUsWindow / r.send.calls
      : undefined;
  out.push('\n### 1. SendMessage round trips (small task, one artifact), sequential\n');
  out.push(
    table(
      [
        'configuration',
        'calls/s',
        'p50 ms',
        'p99 ms',
        'client CPU µs/call',
        'main-thread CPU µs/call',
        'p50 vs bare',
        'CPU vs bare',
        'p50 vs SDK floor',
        'CPU vs SDK floor',
      ],
      sendCfgs.map((c) => [
        c,
        med(all, c, tput).toFixed(0),
        fmtMs(med(all, c, p50)),
        fmtMs(med(all, c, p99)),
        fmtUs(med(all, c, cpu)),
        fmtUs(med(all, c, mainCpu)),
        fmtR(ratio(all, c, 'bare', p50)),
        fmtR(ratio(all, c, 'bare', cpu)),
        fmtR(ratio(all, c, 'undici', p50)),
        fmtR(ratio(all, c, 'undici', cpu)),
      ]),
    ),
  );
  if (skippedRegister)
    out.push(
      `\n\`register\`: not measured: ${skippedRegister}. The row runs as soon as the entry exists.`,
    );
  summary.send = Object.fromEntries(
    sendCfgs.map((c) => [
      c,
      {
        perSecond: med(all, c, tput),
        p50Ms: med(all, c, p50),
        p99Ms: med(all, c, p99),
        cpuUsPerCall: med(all, c, cpu),
        mainThreadCpuUsPerCall: med(all, c, mainCpu),
      },
    ]),
  );
  out.push(
    '\nclient CPU: user + system of the client process (all threads) during its own batches plus the final export flush; main-thread CPU: the JavaScript thread alone over the whole phase window (10 ms ticks, informative).',
  );

  // Increments over the bare SDK (this package's own work vs instrumentation-undici's).
  if (present('sdk') && present('undici') && present('a2a')) {
    const inc = (c: ConfigName, get: Getter) => med(all, c, get) - med(all, 'sdk', get);
    out.push(
      `\nAdded over the bare SDK set-up (\`sdk\`): instrumentation-undici ${fmtUs(inc('undici', p50) * 1000)} µs latency / ${fmtUs(inc('undici', cpu))} µs CPU per call; ` +
        `this instrumentation ${fmtUs(inc('a2a', p50) * 1000)} µs / ${fmtUs(inc('a2a', cpu))} µs; both ${fmtUs(inc('both', p50) * 1000)} µs / ${fmtUs(inc('both', cpu))} µs.`,
    );
  }

  // T1: this package alone vs instrumentation-undici alone, same SDK set-up.
  if (present('a2a') && present('undici')) {
    const rl = ratio(all, 'a2a', 'undici', p50);
    const rc = ratio(all, 'a2a', 'undici', cpu);
    const floorL = ratio(all, 'undici', 'bare', p50);
    const floorC = ratio(all, 'undici', 'bare', cpu);
    targets.push({
      id: 'T1',
      target:
        'this instrumentation alone ≤ 1.00 × instrumentation-undici alone (same SDK set-up, spans dropped), latency and client CPU',
      measured: `latency ${fmtRN(rl)}, CPU ${fmtRN(rc)} (SDK floor vs bare: latency ${fmtR(floorL)}, CPU ${fmtR(floorC)})`,
      verdict: verdictFor(1.0, rl, rc),
    });
    if (present('sdk')) {
      // Stricter reading: the work each instrumentation adds over the bare SDK set-up.
      const inc = (c: ConfigName, get: Getter) => med(all, c, get) - med(all, 'sdk', get);
      const il = inc('undici', p50) > 0 ? inc('a2a', p50) / inc('undici', p50) : Infinity;
      const ic = inc('undici', cpu) > 0 ? inc('a2a', cpu) / inc('undici', cpu) : Infinity;
      targets.push({
        id: 'T1-own',
        target:
          '(stricter reading) what this instrumentation adds over the bare SDK set-up ≤ 1.05 × what instrumentation-undici adds',
        measured: `latency ${fmtUs(inc('a2a', p50) * 1000)} µs vs ${fmtUs(inc('undici', p50) * 1000)} µs (${Number.isFinite(il) ? fmtRatio(il) + '×' : 'undici adds nothing measurable'}), CPU ${fmtUs(inc('a2a', cpu))} µs vs ${fmtUs(inc('undici', cpu))} µs (${Number.isFinite(ic) ? fmtRatio(ic) + '×' : 'n/a'}), differences of medians across rounds`,
        verdict: il <= 1.05 && ic <= 1.05 ? 'met' : 'missed',
      });
    }
    const bl = ratio(all, 'both', 'undici', p50);
    const bc = ratio(all, 'both', 'undici', cpu);
    targets.push({
      id: 'T1b',
      target: '(informative) adding this instrumentation to instrumentation-undici: both ÷ undici',
      measured: `latency ${fmtR(bl)}, CPU ${fmtR(bc)}`,
      verdict: bl.median <= 1.05 && bc.median <= 1.05 ? 'met' : 'missed',
    });
  }
  // Before/after in one run: this build ÷ BENCH_BASE_DIST's.
  if (present('a2a') && present('a2a-base')) {
    const rl = ratio(all, 'a2a', 'a2a-base', p50);
    const rc = ratio(all, 'a2a', 'a2a-base', cpu);
    const ou = ratio(all, 'a2a-base', 'undici', cpu);
    targets.push({
      id: 'T1-base',
      target: '(before/after) this build ÷ the BENCH_BASE_DIST build, SendMessage',
      measured: `latency ${fmtRN(rl)}, CPU ${fmtRN(rc)}; the base build ÷ instrumentation-undici: CPU ${fmtRN(ou)}`,
      verdict: rl.median <= 1 && rc.median <= 1 ? 'faster' : 'not faster',
    });
  }
  // T2: register as users run it vs NodeSDK + instrumentation-undici, same exporter.
  if (present('register') && present('nodesdk-undici')) {
    const rl = ratio(all, 'register', 'nodesdk-undici', p50);
    const rc = ratio(all, 'register', 'nodesdk-undici', cpu);
    targets.push({
      id: 'T2',
      target:
        'register entry (OTLP export) ≤ 1.00 × NodeSDK + instrumentation-undici + same exporter, latency and client CPU',
      measured: `latency ${fmtRN(rl)}, CPU ${fmtRN(rc)}`,
      verdict: verdictFor(1.0, rl, rc),
    });
  } else {
    targets.push({
      id: 'T2',
      target: 'register entry (OTLP export) ≤ NodeSDK + instrumentation-undici + same exporter',
      measured: skippedRegister ?? 'not run',
      verdict: 'not measured',
    });
  }

  // Row 2 -----------------------------------------------------------------------------
  const streamCfgs = (
    ['bare', 'sdk', 'undici', 'undici-b', 'a2a', 'a2a-base', 'both'] as ConfigName[]
  ).filter((c) => byConfig(all, c).some((r) => r.stream));
  if (streamCfgs.length) {
    const f50: Getter = (r) => r.stream?.firstEventP50Ms;
    const l50: Getter = (r) => r.stream?.lastEventP50Ms;
    const scpu: Getter = (r) => r.stream?.cpuUsPerStream;
    out.push(
      '\n### 2. SendStreamingMessage, 100 events per stream (task, WORKING, 97 artifact updates, COMPLETED; sent back to back)\n',
    );
    out.push(
      table(
        [
          'configuration',
          'first event p50 ms',
          'first p99 ms',
          'last event p50 ms',
          'last p99 ms',
          'client CPU µs/stream',
          'first vs bare',
          'first vs SDK floor',
          'last vs SDK floor',
          'CPU vs SDK floor',
        ],
        streamCfgs.map((c) => [
          c,
          fmtMs(med(all, c, f50)),
          fmtMs(med(all, c, (r) => r.stream?.firstEventP99Ms)),
          fmtMs(med(all, c, l50)),
          fmtMs(med(all, c, (r) => r.stream?.lastEventP99Ms)),
          fmtUs(med(all, c, scpu)),
          fmtR(ratio(all, c, 'bare', f50)),
          fmtR(ratio(all, c, 'undici', f50)),
          fmtR(ratio(all, c, 'undici', l50)),
          fmtR(ratio(all, c, 'undici', scpu)),
        ]),
      ),
    );
    summary.stream = Object.fromEntries(
      streamCfgs.map((c) => [
        c,
        {
          firstP50Ms: med(all, c, f50),
          lastP50Ms: med(all, c, l50),
          cpuUsPerStream: med(all, c, scpu),
        },
      ]),
    );
    if (present('a2a') && present('undici')) {
      // Issue 16: time to the first event ≤ 1.01 × the SDK floor (instrumentation-undici's
      // set-up, as the issue's figure 1.053 was measured); beside it, ÷ the SDK set-up alone.
      const ra = ratio(all, 'a2a', 'undici', f50);
      const rs = present('sdk') ? ratio(all, 'a2a', 'sdk', f50) : undefined;
      const rf = present('sdk') ? ratio(all, 'undici', 'sdk', f50) : undefined;
      targets.push({
        id: 'T4',
        target:
          'streaming: time to first event ≤ 1.01 × the SDK floor (a2a ÷ undici, same SDK set-up)',
        measured: `first event a2a ÷ undici ${fmtRN(ra)}${rs && rf ? ` (informative: a2a ÷ sdk ${fmtRN(rs)}, undici ÷ sdk ${fmtRN(rf)})` : ''}`,
        verdict: verdictFor(1.01, ra),
      });
    }
  }

  // Row 2b: a paced stream, and issue 31's targets with their control -----------------------
  const pacedCfgs = (['undici', 'undici-b', 'a2a', 'a2a-base'] as ConfigName[]).filter((c) =>
    byConfig(all, c).some((r) => r.paced),
  );
  const pcpu: Getter = (r) => r.paced?.cpuUsPerStream;
  if (pacedCfgs.length) {
    const events = byConfig(all, pacedCfgs[0]).find((r) => r.paced)?.paced?.eventsPerStream ?? 0;
    out.push(
      `\n### 2b. SendStreamingMessage, a paced answer: ${events} events (1,000 word-sized artifact updates ~1 ms apart, each in its own chunk)\n`,
    );
    out.push(
      table(
        [
          'configuration',
          'first event p50 ms',
          'last event p50 ms',
          'client CPU µs/stream',
          'CPU µs/event above undici (difference of medians)',
          'CPU vs SDK floor ± noise [min–max]',
        ],
        pacedCfgs.map((c) => [
          c,
          fmtMs(med(all, c, (r) => r.paced?.firstEventP50Ms)),
          fmtMs(med(all, c, (r) => r.paced?.lastEventP50Ms)),
          fmtUs(med(all, c, pcpu)),
          present('undici')
            ? ((med(all, c, pcpu) - med(all, 'undici', pcpu)) / Math.max(1, events)).toFixed(2)
            : '',
          fmtRN(ratio(all, c, 'undici', pcpu)),
        ]),
      ),
    );
    summary.paced = Object.fromEntries(
      pacedCfgs.map((c) => [c, { cpuUsPerStream: med(all, c, pcpu), events }]),
    );
  }
  if (present('a2a') && present('undici')) {
    const control = present('undici-b');
    const ctl = (get: Getter): string =>
      control ? `; control undici-b ÷ undici ${fmtRN(ratio(all, 'undici-b', 'undici', get))}` : '';
    const scpu: Getter = (r) => r.stream?.cpuUsPerStream;
    const rs = ratio(all, 'a2a', 'undici', scpu);
    if (rs.rounds > 0)
      targets.push({
        id: 'S1',
        target: '(issue 31) CPU per 100-event stream ≤ 1.10 × instrumentation-undici',
        measured: `a2a ÷ undici ${fmtRN(rs)}${ctl(scpu)}`,
        verdict: verdictFor(1.1, rs),
      });
    const rp = ratio(all, 'a2a', 'undici', pcpu);
    if (rp.rounds > 0) {
      const events =
        byConfig(all, 'a2a').find((r) => r.paced)?.paced?.eventsPerStream ?? Number.NaN;
      const perChunk = (med(all, 'a2a', pcpu) - med(all, 'undici', pcpu)) / events;
      targets.push({
        id: 'S2',
        target:
          '(issue 31) CPU per paced 1,000-word stream ≤ 1.10 × instrumentation-undici, ≤ ~5 µs per chunk above it',
        measured: `a2a ÷ undici ${fmtRN(rp)}, ${perChunk.toFixed(2)} µs per event above undici${ctl(pcpu)}`,
        verdict: verdictFor(1.1, rp),
      });
    }
    const own = ctx.ownWork?.phases.stream?.cpu;
    const sc = med(all, 'a2a', scpu) - med(all, 'undici', scpu);
    if (own && Number.isFinite(sc)) {
      const ownPerEvent = own.a2aOwnUs / 100;
      targets.push({
        id: 'S3',
        target:
          '(issue 31) own work per stream event ≤ 2 µs (row 7, process CPU), and end-to-end excess per event ≤ 2 × it',
        measured: `own ${ownPerEvent.toFixed(2)} µs per event; end to end a2a − undici ${(sc / 100).toFixed(2)} µs per event (${(sc / 100 / ownPerEvent).toFixed(2)} × own)`,
        verdict: ownPerEvent <= 2 && sc / 100 <= 2 * ownPerEvent ? 'met' : 'missed',
      });
    }
    const l: Getter = (r) => r.send?.p50Ms;
    const c: Getter = (r) => r.send?.cpuUsPerCall;
    const rl = ratio(all, 'a2a', 'undici', l);
    const rc = ratio(all, 'a2a', 'undici', c);
    const sendOwn = ctx.ownWork?.phases.send?.cpu;
    const excess = med(all, 'a2a', c) - med(all, 'undici', c);
    if (rl.rounds > 0)
      targets.push({
        id: 'S4',
        target:
          '(issue 31) SendMessage, observe mode: latency ≤ 1.01 × instrumentation-undici; CPU excess ≤ 2 × (own work − undici own work)',
        measured: `latency ${fmtRN(rl)}${ctl(l)}; CPU ${fmtRN(rc)}${ctl(c)}; excess ${fmtUs(excess)} µs${sendOwn ? ` vs 2 × (${sendOwn.a2aOwnUs.toFixed(1)} − ${sendOwn.undiciOwnUs.toFixed(1)}) = ${(2 * (sendOwn.a2aOwnUs - sendOwn.undiciOwnUs)).toFixed(1)} µs` : ''}`,
        verdict:
          verdictFor(1.01, rl) === 'missed' ||
          (sendOwn !== undefined && excess > 2 * (sendOwn.a2aOwnUs - sendOwn.undiciOwnUs))
            ? 'missed'
            : verdictFor(1.01, rl),
      });
  }
  if (present('a2a') && present('a2a-base')) {
    const scpu: Getter = (r) => r.stream?.cpuUsPerStream;
    const a = ratio(all, 'a2a', 'a2a-base', scpu);
    const b = ratio(all, 'a2a', 'a2a-base', pcpu);
    if (a.rounds > 0 || b.rounds > 0)
      targets.push({
        id: 'S-base',
        target: '(before/after) this build ÷ the BENCH_BASE_DIST build, stream CPU',
        measured: `100-event stream ${fmtRN(a)}; paced stream ${fmtRN(b)}`,
        verdict: a.median <= 1 && (b.rounds === 0 || b.median <= 1) ? 'faster' : 'not faster',
      });
  }

  // Row 3 -----------------------------------------------------------------------------
  const bigCfgs = (['bare', 'undici', 'a2a', 'both', 'a2a-inspect16'] as ConfigName[]).filter((c) =>
    byConfig(all, c).some((r) => r.big),
  );
  if (bigCfgs.length) {
    const bt: Getter = (r) => r.big?.msPerCallMedian;
    const bc: Getter = (r) => r.big?.cpuMsPerCall;
    const br: Getter = (r) => r.big?.peakRssDeltaBytes;
    const bh: Getter = (r) => r.big?.peakHeapDeltaBytes;
    const size = byConfig(all, bigCfgs[0]).find((r) => r.big)?.big?.artifactBytes ?? 0;
    out.push(
      `\n### 3. One ${fmtMiB(size)} MiB text artifact (SendMessage), ${ctx.counts.bigCalls} call(s) per process\n`,
    );
    out.push(
      table(
        [
          'configuration',
          'ms/call',
          'client CPU ms/call',
          'added time vs bare ms',
          'added CPU vs bare ms',
          'peak RSS Δ MiB',
          'peak heap+buffers Δ MiB',
          'added peak RSS vs bare MiB',
        ],
        bigCfgs.map((c) => [
          c,
          fmtMs(med(all, c, bt)),
          fmtMs(med(all, c, bc)),
          fmtMs(med(all, c, bt) - med(all, 'bare', bt)),
          fmtMs(med(all, c, bc) - med(all, 'bare', bc)),
          fmtMiB(med(all, c, br)),
          fmtMiB(med(all, c, bh)),
          fmtMiB(med(all, c, br) - med(all, 'bare', br)),
        ]),
      ),
    );
    summary.big = Object.fromEntries(
      bigCfgs.map((c) => [
        c,
        {
          msPerCall: med(all, c, bt),
          cpuMsPerCall: med(all, c, bc),
          peakRssDeltaBytes: med(all, c, br),
          peakHeapDeltaBytes: med(all, c, bh),
        },
      ]),
    );
  }

  // Row 4 -----------------------------------------------------------------------------
  const plainCfgs = (['bare', 'sdk', 'undici', 'a2a', 'a2a-base', 'both'] as ConfigName[]).filter(
    (c) => byConfig(all, c).some((r) => r.plainGet),
  );
  if (plainCfgs.length) {
    out.push(
      '\n### 4. Plain (non-A2A) fetch traffic: small JSON GET and JSON POST to a plain HTTP server, sequential\n',
    );
    const rows: string[][] = [];
    for (const kind of ['plainGet', 'plainPost'] as const) {
      const g50: Getter = (r) => r[kind]?.p50Ms;
      const gc: Getter = (r) => r[kind]?.cpuUsPerCall;
      for (const c of plainCfgs) {
        const base = c === 'a2a' || c === 'a2a-base' ? 'sdk' : c === 'both' ? 'undici' : undefined;
        rows.push([
          `${kind === 'plainGet' ? 'GET ' : 'POST'} ${c}`,
          fmtMs(med(all, c, g50)),
          fmtMs(med(all, c, (r) => r[kind]?.p99Ms)),
          fmtUs(med(all, c, gc)),
          fmtR(ratio(all, c, 'bare', g50)),
          base ? `${fmtR(ratio(all, c, base, g50))} (÷ ${base})` : '',
          base ? `${fmtR(ratio(all, c, base, gc))} (÷ ${base})` : '',
        ]);
      }
      if (present('a2a') && present('sdk') && present('both') && present('undici')) {
        const la = ratio(all, 'a2a', 'sdk', g50);
        const ca = ratio(all, 'a2a', 'sdk', gc);
        const lb = ratio(all, 'both', 'undici', g50);
        const cb = ratio(all, 'both', 'undici', gc);
        targets.push({
          id: kind === 'plainGet' ? 'T3-GET' : 'T3-POST',
          target: `non-A2A ${kind === 'plainGet' ? 'GET' : 'JSON POST'}: ≤ 1% added over the same SDK set-up without this package`,
          measured: `a2a ÷ sdk: latency ${fmtRN(la)}, CPU ${fmtRN(ca)}; both ÷ undici: latency ${fmtRN(lb)}, CPU ${fmtRN(cb)}`,
          verdict: verdictFor(1.01, la, ca, lb, cb),
        });
      }
    }
    out.push(
      table(
        [
          'request / configuration',
          'p50 ms',
          'p99 ms',
          'client CPU µs/call',
          'p50 vs bare',
          'p50 vs same SDK w/o this package',
          'CPU vs same SDK w/o this package',
        ],
        rows,
      ),
    );
    summary.plain = Object.fromEntries(
      plainCfgs.map((c) => [
        c,
        {
          getP50Ms: med(all, c, (r) => r.plainGet?.p50Ms),
          getCpuUs: med(all, c, (r) => r.plainGet?.cpuUsPerCall),
          postP50Ms: med(all, c, (r) => r.plainPost?.p50Ms),
          postCpuUs: med(all, c, (r) => r.plainPost?.cpuUsPerCall),
        },
      ]),
    );
  }

  // Row 5 -----------------------------------------------------------------------------
  if (memory) {
    out.push(
      `\n### 5. ${memory.tasks.toLocaleString('en-US')} SendMessage tasks negotiated, never polled (one instrumentation, real wire path without the network)\n`,
    );
    out.push(
      table(
        [
          'tasks negotiated',
          'distinct cards fetched',
          'heap used MiB (after GC)',
          'RSS MiB',
          'negotiations held',
          'cards held',
          'spans in flight',
        ],
        memory.checkpoints.map((c) => [
          c.tasks.toLocaleString('en-US'),
          (c.cardsFetched ?? 1).toLocaleString('en-US'),
          fmtMiB(c.heapUsedBytes),
          fmtMiB(c.rssBytes),
          String(c.negotiations),
          String(c.cards),
          String(c.activeCalls ?? 'n/a'),
        ]),
      ),
    );
    const at = (n: number) => memory.checkpoints.find((c) => c.tasks === n);
    const first = at(0);
    const cap = at(memory.maxTrackedTasks) ?? at(10_000);
    const afterCards = memory.checkpoints[memory.checkpoints.length - 1];
    const last =
      [...memory.checkpoints].reverse().find((c) => c.cardsFetched === undefined) ?? afterCards;
    const perEntry =
      first && cap
        ? (cap.heapUsedBytes - first.heapUsedBytes) / Math.max(1, cap.negotiations)
        : NaN;
    const growthAfterCap = cap ? last.heapUsedBytes - cap.heapUsedBytes : NaN;
    out.push(
      `\n≈ ${perEntry.toFixed(0)} B of heap per held negotiation; heap growth from ${cap?.tasks.toLocaleString('en-US')} to ${last.tasks.toLocaleString('en-US')} tasks: ${fmtMiB(growthAfterCap)} MiB. ` +
        `${memory.spansEnded.toLocaleString('en-US')} spans ended; ${memory.usPerExchange.toFixed(1)} µs per exchange on this path; last SendMessage span carried the card fingerprint: ${memory.cardKnownOnLastSpan}.`,
    );
    const ok =
      last.negotiations <= memory.maxTrackedTasks &&
      afterCards.negotiations <= memory.maxTrackedTasks &&
      afterCards.cards <= memory.maxCards &&
      (afterCards.activeCalls ?? 0) === 0 &&
      growthAfterCap < 2 * 1024 * 1024;
    targets.push({
      id: 'T5',
      target: `${memory.tasks.toLocaleString('en-US')} pending tasks: memory bounded by the caps (maxTrackedTasks ${memory.maxTrackedTasks.toLocaleString('en-US')}, maxCards ${memory.maxCards})`,
      measured: `negotiations held ${last.negotiations}; heap ${fmtMiB(last.heapUsedBytes)} MiB at ${last.tasks.toLocaleString('en-US')} tasks vs ${fmtMiB(cap?.heapUsedBytes ?? NaN)} MiB at the cap (growth ${fmtMiB(growthAfterCap)} MiB); cards held ${afterCards.cards} of ${afterCards.cardsFetched ?? 1} fetched (heap ${fmtMiB(afterCards.heapUsedBytes)} MiB)`,
      verdict: ok ? 'met' : 'missed',
    });
    summary.registryMemory = { perEntryBytes: perEntry, growthAfterCapBytes: growthAfterCap, last };
  }

  // Row 7 -----------------------------------------------------------------------------
  if (ctx.ownWork) {
    out.push('\n### 7. Own work per exchange, without the network (`bench/own-work.ts`)\n');
    out.push(formatOwnWork(ctx.ownWork));
    summary.ownWork = ctx.ownWork;
    const send = ctx.ownWork.phases.send;
    if (send)
      targets.push({
        id: 'T1-own-work',
        target:
          "(no network) this package's own work per SendMessage ≤ 1.00 × instrumentation-undici's, on the same undici channel messages",
        measured: `${send.a2aOwnUs.toFixed(1)} µs vs ${send.undiciOwnUs.toFixed(1)} µs (${send.ratio.toFixed(3)} [${send.ratioMin.toFixed(3)}–${send.ratioMax.toFixed(3)}])`,
        verdict: send.ratio <= 1 ? 'met' : send.ratioMin <= 1 ? 'within noise' : 'missed',
      });
  }

  // Row 6 -----------------------------------------------------------------------------
  if (micro) {
    out.push('\n### 6. Fingerprinting and judging, per call (src/core, in-process loop)\n');
    const rows = [
      ['skillFingerprint, 20-skill card (0.3 wire shape)', micro.fingerprint20v03],
      ['skillFingerprint, 20-skill card (1.0 SDK shape)', micro.fingerprint20v10],
      ['decodeResponse + judge, typical 1.0 SendMessage response (parsed)', micro.decodeJudge],
      ['JSON.parse + decodeResponse + judge (what runs per response)', micro.parseDecodeJudge],
      ['classifyRequest, SendMessage request body (informative)', micro.classifySend],
      ['classifyRequest, non-A2A GET (informative)', micro.classifyPlainGet],
      ['classifyRequest, non-A2A JSON POST (informative)', micro.classifyPlainPost],
    ] as const;
    out.push(
      table(
        ['operation', 'median µs', 'p99 µs', 'min µs', 'round medians µs'],
        rows.map(([n, r]) => [
          n,
          fmtUs(r.medianUs),
          fmtUs(r.p99Us),
          fmtUs(r.minUs),
          r.roundMedians.map(fmtUs).join(', '),
        ]),
      ),
    );
    out.push(`\nJudge verdict on the typical response: ${micro.judgeVerdict}.`);
    const fp = Math.max(micro.fingerprint20v03.medianUs, micro.fingerprint20v10.medianUs);
    targets.push({
      id: 'T6a',
      target: 'fingerprint of a 20-skill card ≤ 10 µs',
      measured: `${fmtUs(micro.fingerprint20v03.medianUs)} µs (0.3 shape), ${fmtUs(micro.fingerprint20v10.medianUs)} µs (1.0 shape), median`,
      verdict: fp <= 10 ? 'met' : 'missed',
    });
    targets.push({
      id: 'T6b',
      target: 'decode and judge a typical response ≤ 10 µs',
      measured: `${fmtUs(micro.decodeJudge.medianUs)} µs parsed; ${fmtUs(micro.parseDecodeJudge.medianUs)} µs with JSON.parse`,
      verdict:
        micro.parseDecodeJudge.medianUs <= 10 && micro.decodeJudge.medianUs <= 10
          ? 'met'
          : 'missed',
    });
  }

  // Attribution -------------------------------------------------------------------------
  if (ctx.profiles.length) {
    out.push(
      '\n### Where the client CPU goes (V8 CPU profile of the measured phase, one process per row)\n',
    );
    out.push(
      'Per call, in CPU µs (profile shares scaled to the main thread\'s measured CPU). "+ what it calls" = its own frames plus the OpenTelemetry SDK/API, Node-internal and native code they call (span creation, JSON.parse, URL parsing, ...), not the fetch it wraps. ' +
        'Costs an instrumentation causes outside its own stack (undici publishing diagnostics-channel messages, promise hooks, GC) are not attributed, so these are lower bounds.\n',
    );
    out.push(
      table(
        [
          'configuration / phase',
          'calls',
          'process CPU µs/call',
          'main-thread CPU µs/call',
          'this package self',
          'this package + what it calls',
          'instrumentation-undici + what it calls',
          'OTLP export',
        ],
        ctx.profiles.map((p) => [
          `${p.summary.config} ${p.summary.phase}`,
          String(p.summary.calls),
          fmtUs(p.cpuUsPerCall),
          fmtUs(p.mainCpuUsPerCall),
          fmtUs(p.summary.packageSelfUs),
          fmtUs(p.summary.packageInclusiveUs),
          fmtUs(p.summary.undiciInstrInclusiveUs),
          fmtUs(p.summary.exportUs),
        ]),
      ),
    );
    for (const p of ctx.profiles) {
      if (p.summary.topPackage.length === 0) continue;
      out.push(
        `\nTop self time in this package, ${p.summary.config} ${p.summary.phase} (µs/call): ` +
          p.summary.topPackage
            .slice(0, 8)
            .map((t) => `${t.fn} (${t.where}) ${fmtUs(t.usPerCall)}`)
            .join('; ') +
          '.',
      );
      out.push(
        `By file: ` +
          p.summary.packageByFile
            .slice(0, 8)
            .map((f) => `${f.file} ${fmtUs(f.usPerCall)}`)
            .join(', ') +
          '.',
      );
    }
    const prof = (c: ConfigName, ph: Phase) =>
      ctx.profiles.find((p) => p.summary.config === c && p.summary.phase === ph);
    const a = prof('a2a', 'send');
    const u = prof('undici', 'send');
    if (a && u) {
      targets.push({
        id: 'T1-prof',
        target:
          "(attribution) this instrumentation's own work per SendMessage vs instrumentation-undici's, from the profiles",
        measured: `${fmtUs(a.summary.packageInclusiveUs)} µs vs ${fmtUs(u.summary.undiciInstrInclusiveUs)} µs per call (${fmtRatio(a.summary.packageInclusiveUs / u.summary.undiciInstrInclusiveUs)}×)`,
        verdict:
          a.summary.packageInclusiveUs <= 1.05 * u.summary.undiciInstrInclusiveUs
            ? 'met'
            : 'missed',
      });
    }
    for (const kind of ['plainGet', 'plainPost'] as const) {
      const pr = prof('a2a', kind);
      const base = med(all, 'sdk', (r) => r[kind]?.cpuUsPerCall);
      if (!pr || !Number.isFinite(base)) continue;
      const share = pr.summary.packageInclusiveUs / base;
      targets.push({
        id: kind === 'plainGet' ? 'T3-prof-GET' : 'T3-prof-POST',
        target: `(attribution) non-A2A ${kind === 'plainGet' ? 'GET' : 'JSON POST'}: this package's own work ≤ 1% of the same SDK set-up's client CPU`,
        measured: `${fmtUs(pr.summary.packageInclusiveUs)} µs per request = ${(share * 100).toFixed(2)}% of ${fmtUs(base)} µs (\`sdk\` configuration)`,
        verdict: share <= 0.01 ? 'met' : 'missed',
      });
    }
  }

  out.push(
    `\nOTLP sink received ${sink.requests} requests, ${fmtMiB(sink.bytes)} MiB: ${
      Object.entries(sink.byPath)
        .map(([k, v]) => `${k} ${v.requests} requests / ${fmtMiB(v.bytes)} MiB`)
        .join(', ') || 'none'
    }.`,
  );
  out.push('\n### Targets\n');
  out.push(
    table(
      ['', 'target', 'measured', 'verdict'],
      targets.map((t) => [t.id, t.target, t.measured, t.verdict]),
    ),
  );
  if (ctx.errors.length) out.push('\nErrors:\n' + ctx.errors.map((e) => `- ${e}`).join('\n'));
  out.push(
    '\nConfigurations:\n' +
      (Object.keys(DESCRIPTION) as ConfigName[])
        .map((c) => `- \`${c}\`: ${DESCRIPTION[c]}`)
        .join('\n'),
  );
  return { text: out.join('\n'), targets, summary };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
