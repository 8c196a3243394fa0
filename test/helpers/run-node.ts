/** A child `node` process for the end-to-end tests: its output, exit and timing. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const CHILD_TIMEOUT_MS = 25_000;

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** ms from spawn to exit */
  ms: number;
  /** ms from the last stdout chunk to exit (the shutdown flush, for the demo) */
  afterLastOutputMs: number;
  timedOut: boolean;
}

export function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { timeoutMs?: number; onStdout?: (text: string, child: ChildProcess) => void } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let lastOutput = started;
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      lastOutput = Date.now();
      opts.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? CHILD_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const now = Date.now();
      resolve({
        code,
        signal,
        stdout,
        stderr,
        ms: now - started,
        afterLastOutputMs: now - lastOutput,
        timedOut,
      });
    });
  });
}

export function describeRun(r: RunResult): string {
  return `exit code ${r.code} signal ${r.signal}${r.timedOut ? ' (KILLED: did not exit in time)' : ''} after ${r.ms} ms\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr.slice(0, 4000)}`;
}
