/**
 * Process plumbing shared by bench/run.ts and bench/profile.ts: the built-package
 * snapshot, the client bundle, the peer process, the OTLP sink, client processes
 * driven over IPC (see bench/client.ts) and one-shot bench scripts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ClientSpec, Command, ConfigName, Reply } from './client';

export const ROOT = path.resolve(__dirname, '..');
export const OUT = path.join(ROOT, '.bench-out');

/**
 * The client, bundled once to plain JavaScript (esbuild, which tsx ships), so client
 * processes start fast and run without a loader hook; falls back to tsx.
 */
export function bundleClient(): { script: string; execArgv: string[] } {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as { buildSync(o: Record<string, unknown>): unknown };
    const outfile = path.join(OUT, 'client.cjs');
    esbuild.buildSync({
      entryPoints: [path.join(__dirname, 'client.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'error',
    });
    return { script: outfile, execArgv: [] };
  } catch (err) {
    console.log(`(esbuild unavailable, client runs under tsx: ${(err as Error).message})`);
    return { script: path.join(__dirname, 'client.ts'), execArgv: ['--import', 'tsx'] };
  }
}

export function snapshotDist(): string {
  mkdirSync(OUT, { recursive: true });
  const src = path.join(ROOT, 'dist');
  if (!existsSync(path.join(src, 'cjs', 'index.js')))
    throw new Error('dist/cjs/index.js missing: run `npm run build` first (npm run bench does)');
  const dst = path.join(OUT, 'dist');
  rmSync(dst, { recursive: true, force: true });
  cpSync(src, dst, { recursive: true });
  return dst;
}

export interface OtlpSink {
  url: string;
  requests: number;
  bytes: number;
  /** Requests per first path segment (each configuration exports to `${url}/<config>`). */
  byPath: Record<string, { requests: number; bytes: number }>;
  close(): void;
}

export function startSink(): Promise<OtlpSink> {
  const sink: OtlpSink = {
    url: '',
    requests: 0,
    bytes: 0,
    byPath: {},
    close: () => server.close(),
  };
  const server = http.createServer((req, res) => {
    const key = (req.url ?? '/').split('/')[1] ?? '';
    const slot = (sink.byPath[key] ??= { requests: 0, bytes: 0 });
    req.on('data', (c: Buffer) => {
      sink.bytes += c.length;
      slot.bytes += c.length;
    });
    req.on('end', () => {
      sink.requests++;
      slot.requests++;
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

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('OTEL_') && !k.startsWith('BENCH_')) env[k] = v;
  return { ...env, ...extra };
}

export interface Peer {
  child: ChildProcess;
  baseUrl: string;
  plainUrl: string;
  reset(): Promise<void>;
  stop(): void;
}

export function startPeer(): Promise<Peer> {
  const child = fork(path.join(__dirname, 'peer-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: cleanEnv(
      process.env.BENCH_BIG_ARTIFACT_BYTES
        ? { BENCH_BIG_ARTIFACT_BYTES: process.env.BENCH_BIG_ARTIFACT_BYTES }
        : {},
    ),
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
export function runChild<T>(
  script: string,
  execArgv: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, script), [], {
      execArgv,
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
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

/** A client process of one configuration, driven by commands (see bench/client.ts). */
/** The node binary client processes run on: BENCH_NODE (e.g. a Node 22 or 24 binary), else this one. */
export function clientNode(): string {
  return process.env.BENCH_NODE || process.execPath;
}

export class ClientProc {
  readonly child: ChildProcess;
  private waiting: Array<{ resolve: (r: Reply) => void; reject: (e: Error) => void }> = [];
  private exited = false;

  constructor(
    readonly spec: ClientSpec,
    sink: OtlpSink | undefined,
    clientScript: { script: string; execArgv: string[] },
    extraExecArgv: string[] = [],
    extraEnv: Record<string, string> = {},
  ) {
    const execArgv = [...clientScript.execArgv, '--expose-gc', ...extraExecArgv];
    const extra: Record<string, string> = { ...extraEnv, BENCH_CLIENT: JSON.stringify(spec) };
    if (sink && (spec.config === 'register' || spec.config === 'nodesdk-undici')) {
      Object.assign(extra, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${sink.url}/${spec.config}`,
        OTEL_SERVICE_NAME: 'a2a-bench-client',
      });
    }
    if (spec.config === 'register')
      execArgv.unshift('--require', path.join(spec.distDir, 'cjs', 'register.js'));
    this.child = fork(clientScript.script, [], {
      execArgv,
      execPath: clientNode(),
      env: cleanEnv(extra),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (r: Reply) => {
      const w = this.waiting.shift();
      if (!w) return;
      if (r.type === 'error') w.reject(new Error(`${spec.config}: ${r.message}`));
      else w.resolve(r);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      for (const w of this.waiting.splice(0))
        w.reject(new Error(`${spec.config} client exited (${code ?? signal})`));
    });
  }

  get config(): ConfigName {
    return this.spec.config;
  }

  /** The first reply (set-up done). */
  ready(): Promise<Reply> {
    return this.next(180_000);
  }

  send(c: Command, timeoutMs = 180_000): Promise<Reply> {
    if (this.exited) return Promise.reject(new Error(`${this.spec.config} client is not running`));
    const p = this.next(timeoutMs);
    this.child.send(c);
    return p;
  }

  private next(timeoutMs: number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.spec.config}: no reply within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting.push({
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  stop(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      this.child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      try {
        this.child.send({ cmd: 'exit' });
      } catch {
        this.child.kill('SIGKILL');
      }
    });
  }
}
