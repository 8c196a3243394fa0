/**
 * `npm run bench` (= `npm run build && node --import tsx bench/run.ts`): the overhead
 * benchmark of issue 7, against a real `@a2a-js/sdk` server on 127.0.0.1.
 *
 * Method
 * - The peer (bench/peer-process.ts) runs in its own process for the whole run; its
 *   stored tasks are dropped (and GC run) before each client process.
 * - Every client configuration (bench/client.ts) runs in a FRESH process per round:
 *   instrumentations patch globals. Each round runs every configuration once, in an
 *   order rotated by one per round; each process warms up before each timed phase.
 *   Client CPU = `process.cpuUsage()` (user + system) delta of the client process over
 *   the timed loop, per call. Calls are sequential (one in flight).
 * - Figures are medians across rounds (of each process's p50 / p99 / CPU per call);
 *   ratios are the median of the per-round ratios (configurations of one round ran
 *   back to back), with their min–max across rounds.
 * - The "as users run it" rows export OTLP/HTTP to a sink in this process that answers 200.
 * - The built package is copied to .bench-out/dist first, so a concurrent `npm run build`
 *   cannot pull it from under a running bench.
 *
 * Knobs (environment): BENCH_QUICK=1 (~30 s smoke run), BENCH_ROUNDS, BENCH_BIG_ROUNDS,
 * BENCH_SEND_WARMUP, BENCH_SEND, BENCH_STREAM_WARMUP, BENCH_STREAM, BENCH_PLAIN_WARMUP,
 * BENCH_PLAIN, BENCH_BIG_CALLS, BENCH_TASKS (row 5), BENCH_MICRO_* (row 6),
 * BENCH_CONFIGS (comma list to restrict the client configurations).
 * Output: a table on stdout and .bench-out/results.json.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ClientJob, ClientResult, ConfigName, Phase } from './client';
import type { MicroResults } from './micro';
import type { RegistryMemoryResult } from './registry-memory';
import { envNumber, fmtMiB, fmtMs, fmtRatio, fmtUs, median } from './stats';

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, '.bench-out');
const quick = process.env.BENCH_QUICK === '1';

const counts: ClientJob['counts'] = {
  sendWarmup: envNumber('BENCH_SEND_WARMUP', 300, 100),
  send: envNumber('BENCH_SEND', 700, 200),
  streamWarmup: envNumber('BENCH_STREAM_WARMUP', 8, 3),
  stream: envNumber('BENCH_STREAM', 30, 10),
  plainWarmup: envNumber('BENCH_PLAIN_WARMUP', 300, 100),
  plain: envNumber('BENCH_PLAIN', 700, 200),
  bigCalls: envNumber('BENCH_BIG_CALLS', 2, 1),
};
const rounds = envNumber('BENCH_ROUNDS', 5, 2);
const bigRounds = Math.min(rounds, envNumber('BENCH_BIG_ROUNDS', 3, 1));

/** Which phases each configuration runs (row 3 only in the first `bigRounds` rounds). */
const PLAN: Record<ConfigName, Phase[]> = {
  bare: ['send', 'stream', 'plain', 'big'],
  sdk: ['send', 'plain'],
  undici: ['send', 'stream', 'plain', 'big'],
  a2a: ['send', 'stream', 'plain', 'big'],
  both: ['send', 'stream', 'plain', 'big'],
  'a2a-inspect16': ['big'],
  'nodesdk-undici': ['send'],
  register: ['send'],
};

const DESCRIPTION: Record<ConfigName, string> = {
  bare: 'bare client (no OpenTelemetry)',
  sdk: 'SDK only: NodeTracerProvider + BatchSpanProcessor (spans dropped), no instrumentation',
  undici: 'SDK floor: same SDK + instrumentation-undici',
  a2a: 'same SDK + this instrumentation alone',
  both: 'same SDK + instrumentation-undici + this instrumentation',
  'a2a-inspect16': 'this instrumentation alone, maxInspectBytes 16 MiB (row 3 only)',
  'nodesdk-undici': 'NodeSDK + instrumentation-undici + OTLP/HTTP exporter (to local sink)',
  register: 'this package as users run it: --require dist/cjs/register.js (OTLP/HTTP to local sink)',
};

// ------------------------------------------------------------------------------ processes

function snapshotDist(): string {
  const src = path.join(ROOT, 'dist');
  if (!existsSync(path.join(src, 'cjs', 'index.js'))) throw new Error('dist/cjs/index.js missing: run `npm run build` first (npm run bench does)');
  const dst = path.join(OUT, 'dist');
  rmSync(dst, { recursive: true, force: true });
  cpSync(src, dst, { recursive: true });
  return dst;
}

interface OtlpSink {
  url: string;
  requests: number;
  bytes: number;
  close(): void;
}

function startSink(): Promise<OtlpSink> {
  const sink = { url: '', requests: 0, bytes: 0, close: () => server.close() };
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (sink.bytes += c.length));
    req.on('end', () => {
      sink.requests++;
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve(sink);
    }),
  );
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OTEL_') && !k.startsWith('BENCH_')) env[k] = v;
  return { ...env, ...extra };
}

interface Peer {
  child: ChildProcess;
  baseUrl: string;
  plainUrl: string;
  reset(): Promise<void>;
  stop(): void;
}

function startPeer(): Promise<Peer> {
  const child = fork(path.join(__dirname, 'peer-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: cleanEnv(process.env.BENCH_BIG_ARTIFACT_BYTES ? { BENCH_BIG_ARTIFACT_BYTES: process.env.BENCH_BIG_ARTIFACT_BYTES } : {}),
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.once('exit', (code) => reject(new Error(`peer exited (${code}) before it was ready`)));
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /BENCH_PEER (.*)\n/.exec(buf);
      if (!m) return;
      const info = JSON.parse(m[1]) as { baseUrl: string; plainUrl: string };
      resolve({
        child,
        ...info,
        reset: () =>
          new Promise<void>((done) => {
            const onMessage = (msg: { type?: string }): void => {
              if (msg?.type !== 'reset-done') return;
              child.off('message', onMessage);
              done();
            };
            child.on('message', onMessage);
            child.send({ type: 'reset' });
          }),
        stop: () => {
          child.removeAllListeners('exit');
          child.kill();
        },
      });
    });
  });
}

/** Forks a bench script and resolves with the `{type: 'result'}` it sends. */
function runChild<T>(script: string, execArgv: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, script), [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new Error(`${script} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', (msg: { type?: string; result?: T; message?: string }) => {
      if (settled) return;
      if (msg?.type === 'result') {
        settled = true;
        clearTimeout(timer);
        resolve(msg.result as T);
      } else if (msg?.type === 'error') {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`${script}: ${msg.message}`));
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(new Error(`${script} exited (${code ?? signal}) without a result`));
    });
  });
}

function runClient(job: ClientJob, sink: OtlpSink): Promise<ClientResult> {
  const execArgv = ['--import', 'tsx', '--expose-gc'];
  const extra: Record<string, string> = { BENCH_CLIENT: JSON.stringify(job) };
  if (job.config === 'register' || job.config === 'nodesdk-undici') {
    Object.assign(extra, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'a2a-bench-client' });
  }
  if (job.config === 'register') execArgv.unshift('--require', path.join(job.distDir, 'cjs', 'register.js'));
  return runChild<ClientResult>('client.ts', execArgv, cleanEnv(extra), 180_000);
}

// ------------------------------------------------------------------------------ aggregation

type Getter = (r: ClientResult) => number | undefined;

const byConfig = (all: ClientResult[], c: ConfigName): ClientResult[] => all.filter((r) => r.config === c && !r.skipped);

function med(all: ClientResult[], c: ConfigName, get: Getter): number {
  return median(byConfig(all, c).map(get).filter((v): v is number => v !== undefined && Number.isFinite(v)));
}

interface Ratio {
  median: number;
  min: number;
  max: number;
  rounds: number;
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
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), rounds: values.length };
}

const fmtR = (r: Ratio): string => (r.rounds === 0 ? 'n/a' : `${fmtRatio(r.median)} [${fmtRatio(r.min)}–${fmtRatio(r.max)}]`);

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  return [line(headers), '|' + widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|') + '|', ...rows.map(line)].join('\n');
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
      return (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'missing';
    }
  };
  return {
    cpus: os.cpus().length,
    cpu,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
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
  const m = machine();
  const loadStart = os.loadavg();
  console.log(`machine: ${m.cpus} CPUs (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}; load average at start ${loadStart.map((v) => v.toFixed(2)).join(' ')}`);
  console.log(`rounds ${rounds} (row 3: ${bigRounds}), counts ${JSON.stringify(counts)}${quick ? ' [BENCH_QUICK]' : ''}`);

  const only = process.env.BENCH_CONFIGS ? new Set(process.env.BENCH_CONFIGS.split(',').map((s) => s.trim())) : undefined;
  let configs = (Object.keys(PLAN) as ConfigName[]).filter((c) => !only || only.has(c));

  const sink = await startSink();
  const peer = await startPeer();
  const results: ClientResult[] = [];
  const errors: string[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const order = configs.map((_, i) => configs[(i + round) % configs.length]);
      for (const config of order) {
        const phases = PLAN[config].filter((p) => p !== 'big' || round < bigRounds);
        if (phases.length === 0) continue;
        await peer.reset();
        const t0 = Date.now();
        try {
          const r = await runClient({ config, phases, baseUrl: peer.baseUrl, plainUrl: peer.plainUrl, distDir, round, counts }, sink);
          results.push(r);
          if (r.skipped) {
            console.log(`round ${round + 1}/${rounds} ${config.padEnd(15)} skipped: ${r.skipped}`);
            configs = configs.filter((c) => c !== config); // no point retrying in this run
          } else {
            const s = r.send ? ` send p50 ${fmtMs(r.send.p50Ms)} ms cpu ${fmtUs(r.send.cpuUsPerCall)} µs` : '';
            console.log(`round ${round + 1}/${rounds} ${config.padEnd(15)} ${((Date.now() - t0) / 1000).toFixed(1)} s${s}`);
          }
        } catch (err) {
          const msg = `round ${round + 1} ${config}: ${(err as Error).message}`;
          errors.push(msg);
          console.log(`ERROR ${msg}`);
        }
      }
    }
  } finally {
    peer.stop();
  }

  console.log('row 5: 100,000 tasks negotiated, never polled …');
  let memory: RegistryMemoryResult | undefined;
  try {
    memory = await runChild<RegistryMemoryResult>('registry-memory.ts', ['--import', 'tsx', '--expose-gc'], cleanEnv({ BENCH_DIST: distDir, ...(process.env.BENCH_TASKS ? { BENCH_TASKS: process.env.BENCH_TASKS } : {}), ...(quick ? { BENCH_QUICK: '1' } : {}) }), 300_000);
  } catch (err) {
    errors.push(`row 5: ${(err as Error).message}`);
  }
  console.log('row 6: fingerprint and judge, per call …');
  let micro: MicroResults | undefined;
  try {
    const microEnv: Record<string, string> = quick ? { BENCH_QUICK: '1' } : {};
    for (const k of ['BENCH_MICRO_ROUNDS', 'BENCH_MICRO_SAMPLES', 'BENCH_MICRO_WARMUP']) if (process.env[k]) microEnv[k] = process.env[k] as string;
    micro = await runChild<MicroResults>('micro.ts', ['--import', 'tsx'], cleanEnv(microEnv), 300_000);
  } catch (err) {
    errors.push(`row 6: ${(err as Error).message}`);
  }
  sink.close();
  const loadEnd = os.loadavg();
  const elapsedS = (Date.now() - started) / 1000;

  const report = render(results, memory, micro, sink, { rounds, bigRounds, counts, quick, elapsedS, loadStart, loadEnd, machine: m, errors });
  console.log('\n' + report.text);
  writeFileSync(
    path.join(OUT, 'results.json'),
    JSON.stringify({ date: new Date().toISOString(), machine: m, method: { rounds, bigRounds, counts, quick, loadStart, loadEnd, elapsedS }, summary: report.summary, targets: report.targets, clients: results, registryMemory: memory, micro, sink: { requests: sink.requests, bytes: sink.bytes }, errors }, null, 1),
  );
  writeFileSync(path.join(OUT, 'results.md'), report.text + '\n');
  console.log(`\nwrote .bench-out/results.json and .bench-out/results.md (${elapsedS.toFixed(0)} s)`);
  if (errors.length > 0) process.exitCode = 1;
}

interface RenderContext {
  rounds: number;
  bigRounds: number;
  counts: ClientJob['counts'];
  quick: boolean;
  elapsedS: number;
  loadStart: number[];
  loadEnd: number[];
  machine: Record<string, string | number>;
  errors: string[];
}

interface Target {
  id: string;
  target: string;
  measured: string;
  verdict: 'met' | 'missed' | 'not measured' | 'within noise';
}

function render(all: ClientResult[], memory: RegistryMemoryResult | undefined, micro: MicroResults | undefined, sink: OtlpSink, ctx: RenderContext) {
  const out: string[] = [];
  const targets: Target[] = [];
  const summary: Record<string, unknown> = {};
  const present = (c: ConfigName) => byConfig(all, c).length > 0;
  const skippedRegister = all.find((r) => r.config === 'register' && r.skipped)?.skipped;

  out.push(`Machine: ${ctx.machine.cpus} CPUs (${ctx.machine.cpu}), ${ctx.machine.memoryGiB} GiB RAM, Node ${ctx.machine.node}, ${ctx.machine.platform}; @a2a-js/sdk ${ctx.machine['@a2a-js/sdk']}, instrumentation-undici ${ctx.machine['@opentelemetry/instrumentation-undici']}, sdk-node ${ctx.machine['@opentelemetry/sdk-node']}.`);
  out.push(`Run: ${ctx.rounds} rounds (row 3: ${ctx.bigRounds}), fresh client process per configuration per round, order rotated; counts per process ${JSON.stringify(ctx.counts)}; ${ctx.elapsedS.toFixed(0)} s; load average ${ctx.loadStart.map((v) => v.toFixed(2)).join('/')} → ${ctx.loadEnd.map((v) => v.toFixed(2)).join('/')}${ctx.quick ? '; BENCH_QUICK smoke run, figures indicative only' : ''}.`);
  out.push('Ratios: median of per-round ratios [min–max over rounds].');

  // Row 1 -----------------------------------------------------------------------------
  const sendCfgs = (['bare', 'sdk', 'undici', 'a2a', 'both', 'nodesdk-undici', 'register'] as ConfigName[]).filter(present);
  const p50: Getter = (r) => r.send?.p50Ms;
  const p99: Getter = (r) => r.send?.p99Ms;
  const cpu: Getter = (r) => r.send?.cpuUsPerCall;
  const tput: Getter = (r) => r.send?.perSecond;
  out.push('\n### 1. SendMessage round trips (small task, one artifact), sequential\n');
  out.push(
    table(
      ['configuration', 'calls/s', 'p50 ms', 'p99 ms', 'client CPU µs/call', 'p50 vs bare', 'CPU vs bare', 'p50 vs SDK floor', 'CPU vs SDK floor'],
      sendCfgs.map((c) => [
        c,
        med(all, c, tput).toFixed(0),
        fmtMs(med(all, c, p50)),
        fmtMs(med(all, c, p99)),
        fmtUs(med(all, c, cpu)),
        fmtR(ratio(all, c, 'bare', p50)),
        fmtR(ratio(all, c, 'bare', cpu)),
        fmtR(ratio(all, c, 'undici', p50)),
        fmtR(ratio(all, c, 'undici', cpu)),
      ]),
    ),
  );
  if (skippedRegister) out.push(`\n\`register\`: not measured: ${skippedRegister}. The row runs as soon as the entry exists.`);
  summary.send = Object.fromEntries(sendCfgs.map((c) => [c, { perSecond: med(all, c, tput), p50Ms: med(all, c, p50), p99Ms: med(all, c, p99), cpuUsPerCall: med(all, c, cpu) }]));

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
      target: 'this instrumentation alone ≤ 1.05 × instrumentation-undici alone (same SDK set-up, spans dropped), latency and client CPU',
      measured: `latency ${fmtR(rl)}, CPU ${fmtR(rc)} (SDK floor vs bare: latency ${fmtR(floorL)}, CPU ${fmtR(floorC)})`,
      verdict: rl.median <= 1.05 && rc.median <= 1.05 ? 'met' : 'missed',
    });
    const bl = ratio(all, 'both', 'undici', p50);
    const bc = ratio(all, 'both', 'undici', cpu);
    targets.push({
      id: 'T1b',
      target: '(informative) adding this instrumentation to instrumentation-undici: both ÷ undici',
      measured: `latency ${fmtR(bl)}, CPU ${fmtR(bc)}`,
      verdict: bl.median <= 1.05 && bc.median <= 1.05 ? 'met' : 'missed',
    });
  }
  // T2: register as users run it vs NodeSDK + instrumentation-undici, same exporter.
  if (present('register') && present('nodesdk-undici')) {
    const rl = ratio(all, 'register', 'nodesdk-undici', p50);
    const rc = ratio(all, 'register', 'nodesdk-undici', cpu);
    targets.push({
      id: 'T2',
      target: 'register entry (OTLP export) ≤ NodeSDK + instrumentation-undici + same exporter, latency and client CPU',
      measured: `latency ${fmtR(rl)}, CPU ${fmtR(rc)}`,
      verdict: rl.median <= 1.0 && rc.median <= 1.0 ? 'met' : rl.median <= 1.02 && rc.median <= 1.02 ? 'within noise' : 'missed',
    });
  } else {
    targets.push({ id: 'T2', target: 'register entry (OTLP export) ≤ NodeSDK + instrumentation-undici + same exporter', measured: skippedRegister ?? 'not run', verdict: 'not measured' });
  }

  // Row 2 -----------------------------------------------------------------------------
  const streamCfgs = (['bare', 'undici', 'a2a', 'both'] as ConfigName[]).filter((c) => byConfig(all, c).some((r) => r.stream));
  if (streamCfgs.length) {
    const f50: Getter = (r) => r.stream?.firstEventP50Ms;
    const l50: Getter = (r) => r.stream?.lastEventP50Ms;
    const scpu: Getter = (r) => r.stream?.cpuUsPerStream;
    out.push('\n### 2. SendStreamingMessage, 100 events per stream (task, WORKING, 97 artifact updates, COMPLETED; sent back to back)\n');
    out.push(
      table(
        ['configuration', 'first event p50 ms', 'first p99 ms', 'last event p50 ms', 'last p99 ms', 'client CPU µs/stream', 'first vs bare', 'first vs SDK floor', 'last vs SDK floor', 'CPU vs SDK floor'],
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
    summary.stream = Object.fromEntries(streamCfgs.map((c) => [c, { firstP50Ms: med(all, c, f50), lastP50Ms: med(all, c, l50), cpuUsPerStream: med(all, c, scpu) }]));
    if (present('a2a') && present('undici')) {
      // Noise: spread of the floor's own per-round first-event medians.
      const floorFirsts = byConfig(all, 'undici').map(f50).filter((v): v is number => v !== undefined);
      const floorMed = median(floorFirsts);
      const noise = floorFirsts.length > 1 ? (Math.max(...floorFirsts) - Math.min(...floorFirsts)) / floorMed : NaN;
      const ra = ratio(all, 'a2a', 'undici', f50);
      const rb = ratio(all, 'both', 'undici', f50);
      const within = (r: Ratio) => Number.isFinite(noise) && Math.abs(r.median - 1) <= Math.max(noise, 0.02);
      targets.push({
        id: 'T4',
        target: 'streaming: time to first event unchanged within noise',
        measured: `first event a2a ÷ SDK floor ${fmtR(ra)}, both ÷ SDK floor ${fmtR(rb)}; noise (SDK floor's own spread across rounds) ±${(noise * 50).toFixed(1)}% (range ${(noise * 100).toFixed(1)}%)`,
        verdict: within(ra) && within(rb) ? 'met' : 'missed',
      });
    }
  }

  // Row 3 -----------------------------------------------------------------------------
  const bigCfgs = (['bare', 'undici', 'a2a', 'both', 'a2a-inspect16'] as ConfigName[]).filter((c) => byConfig(all, c).some((r) => r.big));
  if (bigCfgs.length) {
    const bt: Getter = (r) => r.big?.msPerCallMedian;
    const bc: Getter = (r) => r.big?.cpuMsPerCall;
    const br: Getter = (r) => r.big?.peakRssDeltaBytes;
    const bh: Getter = (r) => r.big?.peakHeapDeltaBytes;
    const size = byConfig(all, bigCfgs[0]).find((r) => r.big)?.big?.artifactBytes ?? 0;
    out.push(`\n### 3. One ${fmtMiB(size)} MiB text artifact (SendMessage), ${ctx.counts.bigCalls} call(s) per process\n`);
    out.push(
      table(
        ['configuration', 'ms/call', 'client CPU ms/call', 'added time vs bare ms', 'added CPU vs bare ms', 'peak RSS Δ MiB', 'peak heap+buffers Δ MiB', 'added peak RSS vs bare MiB'],
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
    summary.big = Object.fromEntries(bigCfgs.map((c) => [c, { msPerCall: med(all, c, bt), cpuMsPerCall: med(all, c, bc), peakRssDeltaBytes: med(all, c, br), peakHeapDeltaBytes: med(all, c, bh) }]));
  }

  // Row 4 -----------------------------------------------------------------------------
  const plainCfgs = (['bare', 'sdk', 'undici', 'a2a', 'both'] as ConfigName[]).filter((c) => byConfig(all, c).some((r) => r.plainGet));
  if (plainCfgs.length) {
    out.push('\n### 4. Plain (non-A2A) fetch traffic: small JSON GET and JSON POST to a plain HTTP server, sequential\n');
    const rows: string[][] = [];
    for (const kind of ['plainGet', 'plainPost'] as const) {
      const g50: Getter = (r) => r[kind]?.p50Ms;
      const gc: Getter = (r) => r[kind]?.cpuUsPerCall;
      for (const c of plainCfgs) {
        const base = c === 'a2a' ? 'sdk' : c === 'both' ? 'undici' : undefined;
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
        const ok = [la, ca, lb, cb].every((r) => r.median <= 1.01);
        targets.push({
          id: kind === 'plainGet' ? 'T3-GET' : 'T3-POST',
          target: `non-A2A ${kind === 'plainGet' ? 'GET' : 'JSON POST'}: ≤ 1% added over the same SDK set-up without this package`,
          measured: `a2a ÷ sdk: latency ${fmtR(la)}, CPU ${fmtR(ca)}; both ÷ undici: latency ${fmtR(lb)}, CPU ${fmtR(cb)}`,
          verdict: ok ? 'met' : 'missed',
        });
      }
    }
    out.push(table(['request / configuration', 'p50 ms', 'p99 ms', 'client CPU µs/call', 'p50 vs bare', 'p50 vs same SDK w/o this package', 'CPU vs same SDK w/o this package'], rows));
    summary.plain = Object.fromEntries(plainCfgs.map((c) => [c, { getP50Ms: med(all, c, (r) => r.plainGet?.p50Ms), getCpuUs: med(all, c, (r) => r.plainGet?.cpuUsPerCall), postP50Ms: med(all, c, (r) => r.plainPost?.p50Ms), postCpuUs: med(all, c, (r) => r.plainPost?.cpuUsPerCall) }]));
  }

  // Row 5 -----------------------------------------------------------------------------
  if (memory) {
    out.push(`\n### 5. ${memory.tasks.toLocaleString('en-US')} SendMessage tasks negotiated, never polled (one instrumentation, real wire path without the network)\n`);
    out.push(
      table(
        ['tasks negotiated', 'heap used MiB (after GC)', 'RSS MiB', 'negotiations held', 'cards held', 'spans in flight'],
        memory.checkpoints.map((c) => [c.tasks.toLocaleString('en-US'), fmtMiB(c.heapUsedBytes), fmtMiB(c.rssBytes), String(c.negotiations), String(c.cards), String(c.activeCalls ?? 'n/a')]),
      ),
    );
    const at = (n: number) => memory.checkpoints.find((c) => c.tasks === n);
    const first = at(0);
    const cap = at(memory.maxTrackedTasks) ?? at(10_000);
    const last = memory.checkpoints[memory.checkpoints.length - 1];
    const perEntry = first && cap ? (cap.heapUsedBytes - first.heapUsedBytes) / Math.max(1, cap.negotiations) : NaN;
    const growthAfterCap = cap ? last.heapUsedBytes - cap.heapUsedBytes : NaN;
    out.push(
      `\n≈ ${perEntry.toFixed(0)} B of heap per held negotiation; heap growth from ${cap?.tasks.toLocaleString('en-US')} to ${last.tasks.toLocaleString('en-US')} tasks: ${fmtMiB(growthAfterCap)} MiB. ` +
        `${memory.spansEnded.toLocaleString('en-US')} spans ended; ${memory.usPerExchange.toFixed(1)} µs per exchange on this path; last SendMessage span carried the card fingerprint: ${memory.cardKnownOnLastSpan}.`,
    );
    const ok = last.negotiations <= memory.maxTrackedTasks && last.cards <= memory.maxCards && (last.activeCalls ?? 0) === 0 && growthAfterCap < 2 * 1024 * 1024;
    targets.push({
      id: 'T5',
      target: `${memory.tasks.toLocaleString('en-US')} pending tasks: memory bounded by the caps (maxTrackedTasks ${memory.maxTrackedTasks.toLocaleString('en-US')}, maxCards ${memory.maxCards})`,
      measured: `negotiations held ${last.negotiations}, cards ${last.cards}, heap ${fmtMiB(last.heapUsedBytes)} MiB at ${last.tasks.toLocaleString('en-US')} vs ${fmtMiB(cap?.heapUsedBytes ?? NaN)} MiB at the cap (growth ${fmtMiB(growthAfterCap)} MiB)`,
      verdict: ok ? 'met' : 'missed',
    });
    summary.registryMemory = { perEntryBytes: perEntry, growthAfterCapBytes: growthAfterCap, last };
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
    out.push(table(['operation', 'median µs', 'p99 µs', 'min µs', 'round medians µs'], rows.map(([n, r]) => [n, fmtUs(r.medianUs), fmtUs(r.p99Us), fmtUs(r.minUs), r.roundMedians.map(fmtUs).join(', ')])));
    out.push(`\nJudge verdict on the typical response: ${micro.judgeVerdict}.`);
    const fp = Math.max(micro.fingerprint20v03.medianUs, micro.fingerprint20v10.medianUs);
    targets.push({ id: 'T6a', target: 'fingerprint of a 20-skill card ≤ 10 µs', measured: `${fmtUs(micro.fingerprint20v03.medianUs)} µs (0.3 shape), ${fmtUs(micro.fingerprint20v10.medianUs)} µs (1.0 shape), median`, verdict: fp <= 10 ? 'met' : 'missed' });
    targets.push({
      id: 'T6b',
      target: 'decode and judge a typical response ≤ 10 µs',
      measured: `${fmtUs(micro.decodeJudge.medianUs)} µs parsed; ${fmtUs(micro.parseDecodeJudge.medianUs)} µs with JSON.parse`,
      verdict: micro.parseDecodeJudge.medianUs <= 10 && micro.decodeJudge.medianUs <= 10 ? 'met' : 'missed',
    });
  }

  out.push(`\nOTLP sink received ${sink.requests} requests, ${fmtMiB(sink.bytes)} MiB.`);
  out.push('\n### Targets\n');
  out.push(table(['', 'target', 'measured', 'verdict'], targets.map((t) => [t.id, t.target, t.measured, t.verdict])));
  if (ctx.errors.length) out.push('\nErrors:\n' + ctx.errors.map((e) => `- ${e}`).join('\n'));
  out.push('\nConfigurations:\n' + (Object.keys(DESCRIPTION) as ConfigName[]).map((c) => `- \`${c}\`: ${DESCRIPTION[c]}`).join('\n'));
  return { text: out.join('\n'), targets, summary };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

