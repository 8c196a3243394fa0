/**
 * The agent's side, measured: CPU and latency per inbound SendMessage answered by a real
 * `@a2a-js/sdk` express agent (test/peers/sdk-peer.ts), in a process of its own per row, side by
 * side in one run:
 *
 * - bare: no OpenTelemetry at all;
 * - http: the OpenTelemetry SDK with `@opentelemetry/instrumentation-http` (its SERVER span);
 * - a2a: the SDK with this package (its SERVER span, the served card, the fingerprint header);
 * - a2a+http: both (the A2A span the child of the HTTP one).
 *
 * Spans go to a no-op exporter through a batch processor (what an app runs). The load is
 * sequential JSON-RPC SendMessage over one keep-alive connection from this process (which loads
 * nothing of the package); the agent's CPU is its own `process.cpuUsage()` over the measured
 * requests, divided by their number. A benchmark, not a test: it prints figures.
 *
 *   npm run build && node --import tsx bench/server.ts          (BENCH_SERVER_N=2000 by default)
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fmtUs, median, quantile } from './stats';

const N = Number(process.env.BENCH_SERVER_N ?? 2000);
const WARMUP = Math.min(500, Math.ceil(N / 4));
const ROWS = ['bare', 'http', 'a2a', 'a2a+http'] as const;
type Row = (typeof ROWS)[number];

interface Ready {
  type: 'ready';
  url: string;
}
interface Cpu {
  type: 'cpu';
  userUs: number;
  systemUs: number;
}

function startAgent(row: Row): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(__filename, ['--agent', row], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, OTEL_SDK_DISABLED: undefined },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: Ready) => resolve({ child, url: m.url }));
    child.once('exit', (code) => reject(new Error(`${row} agent exited ${code}`)));
  });
}

function cpu(child: ChildProcess): Promise<Cpu> {
  return new Promise((resolve) => {
    child.once('message', (m: Cpu) => resolve(m));
    child.send({ type: 'cpu' });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let id = 0;
function send(url: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: ++id,
    method: 'SendMessage',
    params: {
      message: { messageId: `m${id}`, role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      metadata: { skillId: 'summarize-v2' },
    },
  });
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(row: Row): Promise<{ row: Row; p50: number; p99: number; cpuUs: number }> {
  const { child, url } = await startAgent(row);
  try {
    for (let i = 0; i < WARMUP; i++) await send(url);
    const before = await cpu(child);
    const lat: number[] = [];
    for (let i = 0; i < N; i++) lat.push(await send(url));
    const after = await cpu(child);
    const cpuUs = (after.userUs + after.systemUs - before.userUs - before.systemUs) / N;
    return { row, p50: median(lat), p99: quantile(lat, 0.99), cpuUs };
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  console.log(`The agent's side: ${N} sequential SendMessage per row (after ${WARMUP} warm-up)`);
  const results = [];
  for (const row of ROWS) results.push(await measure(row));
  const bare = results.find((r) => r.row === 'bare')!;
  console.log('row        latency p50  latency p99  agent CPU/request  CPU over bare  (all in µs)');
  for (const r of results)
    console.log(
      `${r.row.padEnd(10)} ${fmtUs(r.p50).padStart(11)}  ${fmtUs(r.p99).padStart(11)}  ${fmtUs(r.cpuUs).padStart(17)}  ${fmtUs(r.cpuUs - bare.cpuUs).padStart(13)}`,
    );
  agent.destroy();
}

/** The agent process of one row. */
async function runAgent(row: Row): Promise<void> {
  if (row !== 'bare') {
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const instrumentations: unknown[] = [];
    if (row.includes('http')) {
      const { HttpInstrumentation } = await import('@opentelemetry/instrumentation-http');
      instrumentations.push(new HttpInstrumentation());
    }
    if (row.startsWith('a2a')) {
      const { A2AInstrumentation } = await import(
        path.join(__dirname, '..', 'dist', 'cjs', 'index.js')
      );
      instrumentations.push(new A2AInstrumentation({ cardRevalidationMs: 0 }));
    }
    const noop = {
      export: (_spans: unknown, done: (r: { code: number }) => void) => done({ code: 0 }),
      shutdown: async () => {},
    };
    const sdk = new NodeSDK({
      spanProcessors: [new BatchSpanProcessor(noop as never)],
      instrumentations: instrumentations as never,
    });
    sdk.start();
  }
  // loaded after the SDK started: instrumentation-http patches `http` as the agent loads it
  const { startSdkPeer } = await import('../test/peers/sdk-peer.js');
  const peer = await startSdkPeer({ behaviour: { settleDelayMs: 0 } });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ type: 'cpu', userUs: u.user, systemUs: u.system });
    }
  });
  process.send!({ type: 'ready', url: peer.jsonRpcUrl });
}

if (process.argv[2] === '--agent') void runAgent(process.argv[3] as Row);
else void main();
