/**
 * Where the client's CPU goes, per configuration: runs one client process per
 * configuration under `node --cpu-prof` (same peer, same calls as bench/run.ts), then
 * reads the .cpuprofile and reports, per call:
 * - self time in this package's code (the built package, .bench-out/dist/cjs),
 * - the work this package starts: its own frames plus the OpenTelemetry SDK/API, native
 *   and Node-internal code they call (span creation, JSON.parse, URL parsing, promise
 *   hooks...), but not the fetch it wraps (Node's undici, socket writes),
 * - the same for @opentelemetry/instrumentation-undici, and for the OpenTelemetry
 *   SDK/API frames overall,
 * - the top self-time functions of this package and overall.
 *
 *   node --import tsx bench/profile.ts [configs=a2a,undici,both] [phases=send] [calls]
 *   (phases: send, stream, plainGet, plainPost; calls default 3000, 200 for streams;
 *    configs as in bench/client.ts, nodesdk-undici and register export to a local sink)
 *
 * By default the profile covers the measured phase only (the client starts the V8 CPU
 * profiler, the one behind `node --cpu-prof`, through node:inspector at 'begin' and
 * stops it at 'end'); BENCH_PROFILE_WHOLE=1 runs the client under `node --cpu-prof`
 * instead (start-up and warm-up included). Profiles stay in .bench-out/prof/.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConfigName, LatencyFigures, Phase, StreamFigures } from './client';
import {
  bundleClient,
  ClientProc,
  OUT,
  snapshotDist,
  startPeer,
  startSink,
  type OtlpSink,
  type Peer,
} from './procs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  config: string;
  phase: string;
  calls: number;
  totalMs: number;
  /** profile time per call before scaling, and the factor applied */
  profileUsPerCall: number;
  scale: number;
  /** µs per call (calls = warm-up + measured: the profile covers both) */
  packageSelfUs: number;
  /** work this package starts, including the SDK/API and Node internals it calls (see analyse) */
  packageInclusiveUs: number;
  undiciInstrSelfUs: number;
  undiciInstrInclusiveUs: number;
  /** OTLP serialisation and sending (@opentelemetry/otlp-*, exporter-*), with what they call */
  exportUs: number;
  otelSelfUs: number;
  topPackage: Array<{ fn: string; where: string; selfMs: number; usPerCall: number }>;
  topOverall: Array<{ fn: string; where: string; selfMs: number; usPerCall: number }>;
  packageByFile: Array<{ file: string; selfMs: number; usPerCall: number }>;
}

const isPackage = (url: string): boolean =>
  url.includes('/.bench-out/dist/cjs/') ||
  url.includes('/main/dist/cjs/') ||
  /\/main\/src\/.*\.ts$/.test(url);
const isUndiciInstr = (url: string): boolean => url.includes('/instrumentation-undici/');
const isExport = (url: string): boolean => /\/@opentelemetry\/(otlp-|exporter-)/.test(url);
const isOtel = (url: string): boolean =>
  url.includes('/node_modules/@opentelemetry/') && !isUndiciInstr(url) && !isExport(url);

function shortUrl(url: string): string {
  const i = url.indexOf('/node_modules/');
  if (i >= 0) return url.slice(i + '/node_modules/'.length);
  const j = url.indexOf('/dist/cjs/');
  if (j >= 0) return url.slice(j + 1);
  return url.replace(/^file:\/\//, '').replace(/^.*\/main\//, '') || '(native)';
}

/**
 * @param cpuUsPerCall the main thread's CPU per call over the same window: the profile's
 *   time is wall-clock sampled (a preempted thread still collects samples), so per-call
 *   figures are scaled to it (shares are kept, the unit becomes CPU µs).
 */
export function analyse(
  profile: CpuProfile,
  calls: number,
  config: string,
  phase: string,
  cpuUsPerCall?: number,
): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const self = new Map<number, number>();
  let total = 0;
  let pkgIncl = 0;
  let undIncl = 0;
  let expIncl = 0;
  // Attribution: walk up from the sampled frame, past frames that only serve (native
  // code, Node internals other than its undici, the OpenTelemetry SDK/API), to the first
  // frame that owns the work: this package, instrumentation-undici, or anything else
  // (Node's undici, the A2A SDK client, the app) — the latter stops the walk. So work this
  // package starts (spans, JSON.parse, URL parsing, ALS) counts as its own, while the
  // fetch it wraps (undici, socket writes) does not.
  const memo = new Map<number, number>(); // 1 = this package, 2 = instrumentation-undici, 3 = OTLP export, 0 = other
  const owner = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const url = byId.get(id)?.callFrame.url ?? '';
    let o: number;
    if (isPackage(url)) o = 1;
    else if (isUndiciInstr(url)) o = 2;
    else if (isExport(url)) o = 3;
    else if (
      url === '' ||
      isOtel(url) ||
      (url.startsWith('node:') && !url.startsWith('node:internal/deps/undici'))
    ) {
      const p = parent.get(id);
      o = p === undefined ? 0 : owner(p);
    } else o = 0;
    memo.set(id, o);
    return o;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const dt = profile.timeDeltas[i] ?? 0;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      if (name !== '(idle)') total += dt;
      if (name === '(garbage collector)') self.set(id, (self.get(id) ?? 0) + dt);
      continue;
    }
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
    const o = owner(id);
    if (o === 1) pkgIncl += dt;
    if (o === 2) undIncl += dt;
    if (o === 3) expIncl += dt;
  }
  // Aggregate self time per function (same name + location).
  const perFn = new Map<
    string,
    {
      fn: string;
      where: string;
      us: number;
      pkg: boolean;
      und: boolean;
      otel: boolean;
      file: string;
    }
  >();
  for (const [id, us] of self) {
    const cf = (byId.get(id) as ProfileNode).callFrame;
    const where = `${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
    const key = `${cf.functionName}@${where}`;
    const e = perFn.get(key) ?? {
      fn: cf.functionName || '(anonymous)',
      where,
      us: 0,
      pkg: isPackage(cf.url),
      und: isUndiciInstr(cf.url),
      otel: isOtel(cf.url),
      file: shortUrl(cf.url),
    };
    e.us += us;
    perFn.set(key, e);
  }
  const profileUsPerCall = total / calls;
  const scale =
    cpuUsPerCall !== undefined && Number.isFinite(cpuUsPerCall) && profileUsPerCall > 0
      ? cpuUsPerCall / profileUsPerCall
      : 1;
  for (const e of perFn.values()) e.us *= scale;
  pkgIncl *= scale;
  undIncl *= scale;
  expIncl *= scale;
  const all = [...perFn.values()].sort((a, b) => b.us - a.us);
  const sum = (f: (e: (typeof all)[number]) => boolean) =>
    all.filter(f).reduce((a, e) => a + e.us, 0);
  const byFile = new Map<string, number>();
  for (const e of all) if (e.pkg) byFile.set(e.file, (byFile.get(e.file) ?? 0) + e.us);
  const row = (e: (typeof all)[number]) => ({
    fn: e.fn,
    where: e.where,
    selfMs: e.us / 1000,
    usPerCall: e.us / calls,
  });
  return {
    config,
    phase,
    calls,
    totalMs: total / 1000,
    profileUsPerCall,
    scale,
    packageSelfUs: sum((e) => e.pkg) / calls,
    packageInclusiveUs: pkgIncl / calls,
    undiciInstrSelfUs: sum((e) => e.und) / calls,
    undiciInstrInclusiveUs: undIncl / calls,
    exportUs: expIncl / calls,
    otelSelfUs: sum((e) => e.otel) / calls,
    topPackage: all
      .filter((e) => e.pkg)
      .slice(0, 15)
      .map(row),
    topOverall: all.slice(0, 15).map(row),
    packageByFile: [...byFile]
      .sort((a, b) => b[1] - a[1])
      .map(([file, us]) => ({ file, selfMs: us / 1000, usPerCall: us / calls })),
  };
}

export interface ProfileRun {
  summary: ProfileSummary;
  /** process CPU per call over the profiled phase (µs) */
  cpuUsPerCall: number;
  /** main-thread CPU per call over the profiled phase (µs) */
  mainCpuUsPerCall: number;
}

/**
 * One client process of `config`, warmed up, then `calls` calls of `phase` with the V8 CPU
 * profiler on (the measured phase only, or with `whole` the whole process under
 * `node --cpu-prof`). Undefined when the configuration cannot run (register stub).
 */
export async function profileOne(
  env: {
    peer: Peer;
    sink: OtlpSink;
    distDir: string;
    clientScript: { script: string; execArgv: string[] };
  },
  config: ConfigName,
  phase: Phase,
  calls: number,
  warm: number,
  whole = false,
): Promise<ProfileRun | undefined> {
  const profDir = path.join(OUT, 'prof');
  const dir = path.join(profDir, `${config}-${phase}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await env.peer.reset();
  const execArgv = whole ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'] : [];
  const extraEnv: Record<string, string> = whole
    ? {}
    : { BENCH_PROFILE_FILE: path.join(dir, 'phase.cpuprofile') };
  const proc = new ClientProc(
    {
      config,
      baseUrl: env.peer.baseUrl,
      plainUrl: env.peer.plainUrl,
      distDir: env.distDir,
      round: 0,
    },
    env.sink,
    env.clientScript,
    execArgv,
    extraEnv,
  );
  try {
    const ready = await proc.ready();
    if (ready.type === 'ready' && ready.skipped) return undefined;
    await proc.send({
      cmd: 'warmup',
      phases: [phase],
      warmup: { send: warm, stream: warm, paced: Math.min(warm, 1), plain: warm },
    });
    await proc.send({ cmd: 'begin', phase });
    const size = phase === 'stream' ? 5 : phase === 'paced' ? 1 : 100;
    for (let done = 0; done < calls; done += size)
      await proc.send({ cmd: 'batch', phase, n: Math.min(size, calls - done) });
    const end = await proc.send({ cmd: 'end', phase });
    const fig = end.type === 'done' ? (end.value as LatencyFigures | StreamFigures) : undefined;
    await proc.stop();
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`${config}: no .cpuprofile written in ${dir}`);
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const cpu =
      fig && 'cpuUsPerCall' in fig
        ? fig.cpuUsPerCall
        : fig && 'cpuUsPerStream' in fig
          ? fig.cpuUsPerStream
          : NaN;
    const mainCpu = (fig?.mainThreadCpuUsWindow ?? NaN) / calls;
    const summary = analyse(
      profile,
      whole ? calls + warm : calls,
      config,
      phase,
      whole ? undefined : mainCpu,
    );
    return { summary, cpuUsPerCall: cpu, mainCpuUsPerCall: mainCpu };
  } finally {
    await proc.stop();
  }
}

async function main(): Promise<void> {
  const configs = (process.argv[2] ?? 'a2a,undici,both').split(',') as ConfigName[];
  const phases = (process.argv[3] ?? 'send').split(',') as Phase[];
  const callsArg = process.argv[4];
  const whole = process.env.BENCH_PROFILE_WHOLE === '1';
  const distDir = snapshotDist();
  const clientScript = bundleClient();
  const profDir = path.join(OUT, 'prof');
  mkdirSync(profDir, { recursive: true });
  const peer = await startPeer();
  const sink = await startSink();
  const summaries: ProfileSummary[] = [];
  try {
    for (const phase of phases) {
      const calls = Number(callsArg ?? (phase === 'stream' ? 200 : 3000));
      const warm = phase === 'stream' ? 10 : 300;
      for (const config of configs) {
        const run = await profileOne(
          { peer, sink, distDir, clientScript },
          config,
          phase,
          calls,
          warm,
          whole,
        );
        if (!run) {
          console.log(`${config}: skipped (register entry not implemented)`);
          continue;
        }
        const s = run.summary;
        summaries.push(s);
        console.log(
          whole
            ? `\n## ${config}, ${phase}: whole process (--cpu-prof), ${calls} measured + ${warm} warm-up calls, per-call figures over both; measured CPU ${run.cpuUsPerCall.toFixed(0)} µs/call`
            : `\n## ${config}, ${phase}: ${calls} calls, measured phase only; process CPU ${run.cpuUsPerCall.toFixed(0)} µs/call, main thread ${run.mainCpuUsPerCall.toFixed(0)} µs/call; profile ${s.profileUsPerCall.toFixed(0)} µs/call, scaled by ${s.scale.toFixed(3)} to the main thread's CPU`,
        );
        console.log(
          `this package: self ${s.packageSelfUs.toFixed(1)} µs/call, with what it calls ${s.packageInclusiveUs.toFixed(1)} | ` +
            `instrumentation-undici: self ${s.undiciInstrSelfUs.toFixed(1)}, with what it calls ${s.undiciInstrInclusiveUs.toFixed(1)} | OTLP export ${s.exportUs.toFixed(1)} | other @opentelemetry self ${s.otelSelfUs.toFixed(1)}`,
        );
        if (s.packageByFile.length)
          console.log(
            'this package, self time by file (µs/call): ' +
              s.packageByFile.map((f) => `${f.file} ${f.usPerCall.toFixed(1)}`).join(', '),
          );
        if (s.topPackage.length) {
          console.log('top self time in this package (µs/call):');
          for (const t of s.topPackage.slice(0, 12))
            console.log(`  ${t.usPerCall.toFixed(2).padStart(7)}  ${t.fn}  ${t.where}`);
        }
        console.log('top self time overall (µs/call):');
        for (const t of s.topOverall.slice(0, 10))
          console.log(`  ${t.usPerCall.toFixed(2).padStart(7)}  ${t.fn}  ${t.where}`);
      }
    }
  } finally {
    peer.stop();
    sink.close();
  }
  console.log(
    '\n| configuration | phase | this package self µs/call | this package + what it calls | instrumentation-undici self | instrumentation-undici + what it calls | OTLP export |',
  );
  console.log('|:--|:--|--:|--:|--:|--:|--:|');
  for (const s of summaries) {
    console.log(
      `| ${s.config} | ${s.phase} | ${s.packageSelfUs.toFixed(1)} | ${s.packageInclusiveUs.toFixed(1)} | ${s.undiciInstrSelfUs.toFixed(1)} | ${s.undiciInstrInclusiveUs.toFixed(1)} | ${s.exportUs.toFixed(1)} |`,
    );
  }
  const out = path.join(profDir, `summary-${phases.join('-')}.json`);
  writeFileSync(out, JSON.stringify(summaries, null, 1));
  console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
