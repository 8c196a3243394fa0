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
 *   node --import tsx bench/profile.ts [configs=a2a,undici,both] [phase=send] [calls=3000]
 *
 * The profile covers the whole process (start-up and warm-up too); with the default
 * 3000 measured calls the steady state dominates. Profiles stay in .bench-out/prof/.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConfigName, LatencyFigures, Phase, StreamFigures } from './client';
import { bundleClient, ClientProc, OUT, snapshotDist, startPeer } from './procs';

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
  /** µs per call (calls = warm-up + measured: the profile covers both) */
  packageSelfUs: number;
  /** work this package starts, including the SDK/API and Node internals it calls (see analyse) */
  packageInclusiveUs: number;
  undiciInstrSelfUs: number;
  undiciInstrInclusiveUs: number;
  otelSelfUs: number;
  topPackage: Array<{ fn: string; where: string; selfMs: number; usPerCall: number }>;
  topOverall: Array<{ fn: string; where: string; selfMs: number; usPerCall: number }>;
  packageByFile: Array<{ file: string; selfMs: number; usPerCall: number }>;
}

const isPackage = (url: string): boolean => url.includes('/.bench-out/dist/cjs/') || url.includes('/main/dist/cjs/') || /\/main\/src\/.*\.ts$/.test(url);
const isUndiciInstr = (url: string): boolean => url.includes('/instrumentation-undici/');
const isOtel = (url: string): boolean => url.includes('/node_modules/@opentelemetry/') && !isUndiciInstr(url);

function shortUrl(url: string): string {
  const i = url.indexOf('/node_modules/');
  if (i >= 0) return url.slice(i + '/node_modules/'.length);
  const j = url.indexOf('/dist/cjs/');
  if (j >= 0) return url.slice(j + 1);
  return url.replace(/^file:\/\//, '').replace(/^.*\/main\//, '') || '(native)';
}

export function analyse(profile: CpuProfile, calls: number, config: string, phase: string): ProfileSummary {
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
  // Attribution: walk up from the sampled frame, past frames that only serve (native
  // code, Node internals other than its undici, the OpenTelemetry SDK/API), to the first
  // frame that owns the work: this package, instrumentation-undici, or anything else
  // (Node's undici, the A2A SDK client, the app) — the latter stops the walk. So work this
  // package starts (spans, JSON.parse, URL parsing, ALS) counts as its own, while the
  // fetch it wraps (undici, socket writes) does not.
  const memo = new Map<number, number>(); // 1 = this package, 2 = instrumentation-undici, 0 = other
  const owner = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const url = byId.get(id)?.callFrame.url ?? '';
    let o: number;
    if (isPackage(url)) o = 1;
    else if (isUndiciInstr(url)) o = 2;
    else if (url === '' || isOtel(url) || (url.startsWith('node:') && !url.startsWith('node:internal/deps/undici'))) {
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
  }
  // Aggregate self time per function (same name + location).
  const perFn = new Map<string, { fn: string; where: string; us: number; pkg: boolean; und: boolean; otel: boolean; file: string }>();
  for (const [id, us] of self) {
    const cf = (byId.get(id) as ProfileNode).callFrame;
    const where = `${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
    const key = `${cf.functionName}@${where}`;
    const e = perFn.get(key) ?? { fn: cf.functionName || '(anonymous)', where, us: 0, pkg: isPackage(cf.url), und: isUndiciInstr(cf.url), otel: isOtel(cf.url), file: shortUrl(cf.url) };
    e.us += us;
    perFn.set(key, e);
  }
  const all = [...perFn.values()].sort((a, b) => b.us - a.us);
  const sum = (f: (e: (typeof all)[number]) => boolean) => all.filter(f).reduce((a, e) => a + e.us, 0);
  const byFile = new Map<string, number>();
  for (const e of all) if (e.pkg) byFile.set(e.file, (byFile.get(e.file) ?? 0) + e.us);
  const row = (e: (typeof all)[number]) => ({ fn: e.fn, where: e.where, selfMs: e.us / 1000, usPerCall: e.us / calls });
  return {
    config,
    phase,
    calls,
    totalMs: total / 1000,
    packageSelfUs: sum((e) => e.pkg) / calls,
    packageInclusiveUs: pkgIncl / calls,
    undiciInstrSelfUs: sum((e) => e.und) / calls,
    undiciInstrInclusiveUs: undIncl / calls,
    otelSelfUs: sum((e) => e.otel) / calls,
    topPackage: all.filter((e) => e.pkg).slice(0, 15).map(row),
    topOverall: all.slice(0, 15).map(row),
    packageByFile: [...byFile].sort((a, b) => b[1] - a[1]).map(([file, us]) => ({ file, selfMs: us / 1000, usPerCall: us / calls })),
  };
}


async function main(): Promise<void> {
  const configs = (process.argv[2] ?? 'a2a,undici,both').split(',') as ConfigName[];
  const phase = (process.argv[3] ?? 'send') as Phase;
  const calls = Number(process.argv[4] ?? (process.argv[3] === 'stream' ? 200 : 3000));
  const WARMUP = phase === 'stream' ? 10 : 300;
  const distDir = snapshotDist();
  const clientScript = bundleClient();
  const profDir = path.join(OUT, 'prof');
  mkdirSync(profDir, { recursive: true });
  const peer = await startPeer();
  const summaries: ProfileSummary[] = [];
  try {
    for (const config of configs) {
      const dir = path.join(profDir, `${config}-${phase}`);
      rmSync(dir, { recursive: true, force: true });
      await peer.reset();
      const proc = new ClientProc({ config, baseUrl: peer.baseUrl, plainUrl: peer.plainUrl, distDir, round: 0 }, undefined, clientScript, [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        '--cpu-prof-interval=250',
      ]);
      const ready = await proc.ready();
      if (ready.type === 'ready' && ready.skipped) {
        console.log(`${config}: skipped: ${ready.skipped}`);
        await proc.stop();
        continue;
      }
      await proc.send({ cmd: 'warmup', phases: [phase], warmup: { send: WARMUP, stream: WARMUP, plain: WARMUP } });
      await proc.send({ cmd: 'begin', phase });
      const size = phase === 'stream' ? 5 : 100;
      for (let done = 0; done < calls; done += size) await proc.send({ cmd: 'batch', phase, n: Math.min(size, calls - done) });
      const end = await proc.send({ cmd: 'end', phase });
      const fig = end.type === 'done' ? (end.value as LatencyFigures | StreamFigures) : undefined;
      await proc.stop();
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) throw new Error(`${config}: no .cpuprofile written in ${dir}`);
      const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
      const s = analyse(profile, calls + WARMUP, config, phase);
      summaries.push(s);
      const cpu = fig && 'cpuUsPerCall' in fig ? fig.cpuUsPerCall : fig && 'cpuUsPerStream' in fig ? fig.cpuUsPerStream : NaN;
      console.log(`\n## ${config} (${phase}, ${calls} measured + ${WARMUP} warm-up calls, per-call figures over both; measured CPU ${cpu.toFixed(0)} µs/call; profile covers the whole process, ${s.totalMs.toFixed(0)} ms on CPU)`);
      console.log(
        `this package: self ${s.packageSelfUs.toFixed(1)} µs/call, with what it calls ${s.packageInclusiveUs.toFixed(1)} µs/call | ` +
          `instrumentation-undici: self ${s.undiciInstrSelfUs.toFixed(1)}, with what it calls ${s.undiciInstrInclusiveUs.toFixed(1)} µs/call | other @opentelemetry self ${s.otelSelfUs.toFixed(1)} µs/call`,
      );
      if (s.packageByFile.length) console.log('this package, self time by file: ' + s.packageByFile.map((f) => `${f.file} ${f.usPerCall.toFixed(1)}`).join(', '));
      if (s.topPackage.length) {
        console.log('top self time in this package (µs/call):');
        for (const t of s.topPackage.slice(0, 12)) console.log(`  ${t.usPerCall.toFixed(2).padStart(7)}  ${t.fn}  ${t.where}`);
      }
      console.log('top self time overall (µs/call):');
      for (const t of s.topOverall.slice(0, 12)) console.log(`  ${t.usPerCall.toFixed(2).padStart(7)}  ${t.fn}  ${t.where}`);
    }
  } finally {
    peer.stop();
  }
  writeFileSync(path.join(profDir, `summary-${phase}.json`), JSON.stringify(summaries, null, 1));
  console.log(`\nwrote ${path.relative(process.cwd(), path.join(profDir, `summary-${phase}.json`))}`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
