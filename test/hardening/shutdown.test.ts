/**
 * The register entry (`node --require dist/cjs/register.js`) at the end of a process: the
 * process must end exactly when and how it would without the register (same exit code or
 * signal, same output, the app's own handlers run to completion), plus at most a bounded
 * flush of telemetry (the register's 3 s cap) — whatever state the collector is in.
 *
 * Each case runs the same fixture app bare and loaded, as child processes, and compares.
 * The elapsed-time bound ("exits within 8 s") is behavioural: it only catches a process
 * held by the exporter for the length of its retries (12–41 s before the fix), not speed.
 *
 *   npm run build && node --import tsx --test test/hardening/shutdown.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';
import { describeRun, runNode, type RunResult } from '../helpers/run-node';

const REPO = path.resolve(__dirname, '..', '..');
/** A2A_REGISTER_ENTRY: another build of the entry (e.g. one made aside while dist/ is being rebuilt). */
const REGISTER = process.env.A2A_REGISTER_ENTRY ?? path.join(REPO, 'dist', 'cjs', 'register.js');
const FIXTURES = path.join(__dirname, 'fixtures');
const GRACEFUL_APP = path.join(FIXTURES, 'graceful-app.js');
const BEFORE_EXIT_APP = path.join(FIXTURES, 'before-exit-app.js');
const MANY_SPANS_APP = path.join(FIXTURES, 'many-spans-app.js');
const BLACKHOLE = path.join(FIXTURES, 'blackhole.js');
/** Generous: the register's 3 s flush cap plus process start-up on a busy machine. */
const EXIT_BOUND_MS = 8000;
/** A child still running after this is killed (and the test fails on the bound above). */
const CHILD_TIMEOUT_MS = 30_000;

/** One child of the case, with this file's longer kill timeout. */
const runChild = (
  args: string[],
  env: NodeJS.ProcessEnv,
  onStdout?: (text: string, child: ChildProcess) => void,
): Promise<RunResult> => runNode(args, env, { timeoutMs: CHILD_TIMEOUT_MS, onStdout });

/** Runs the app bare and under the register, with the same environment. */
async function bareAndLoaded(
  app: string,
  env: NodeJS.ProcessEnv,
  watch?: () => (text: string, child: ChildProcess) => void,
): Promise<{ bare: RunResult; loaded: RunResult; both: string }> {
  const bare = await runChild([app], env, watch?.());
  const loaded = await runChild(['--require', REGISTER, app], env, watch?.());
  return { bare, loaded, both: `bare: ${describeRun(bare)}\nloaded: ${describeRun(loaded)}` };
}

/** The same end as bare: exit code or signal, and output. */
function assertSameEnd(bare: RunResult, loaded: RunResult, both: string): void {
  assert.equal(loaded.timedOut, false, `the loaded process ended on its own\n${both}`);
  assert.equal(loaded.code, bare.code, `same exit code\n${both}`);
  assert.equal(loaded.signal, bare.signal, `same signal\n${both}`);
  assert.equal(loaded.stdout, bare.stdout, `same stdout\n${both}`);
  assert.equal(loaded.stderr, bare.stderr, `same stderr\n${both}`);
}

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** A collector that accepts connections, reads the requests and never answers. */
let silent: net.Server;
const silentSockets = new Set<net.Socket>();
/** A collector whose connection attempts hang (SYNs dropped): see fixtures/blackhole.js. */
let blackhole: ChildProcess | undefined;
let blackholePort = 0;
const backlogFillers: net.Socket[] = [];

async function startBlackhole(): Promise<void> {
  const child = spawn(process.execPath, [BLACKHOLE], { stdio: ['ignore', 'pipe', 'inherit'] });
  blackhole = child;
  blackholePort = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      out += c;
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', () => reject(new Error('blackhole exited')));
  });
  // Fill the kernel's accept queue: the connections that complete stay open, the first
  // attempt that does not complete within 300 ms proves the endpoint now drops SYNs.
  for (let i = 0; i < 16; i++) {
    const s = net.connect({ host: '127.0.0.1', port: blackholePort });
    s.on('error', () => {});
    backlogFillers.push(s);
    const connected = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 300);
      s.once('connect', () => {
        clearTimeout(t);
        resolve(true);
      });
    });
    if (!connected) return;
  }
  throw new Error('could not make a blackholed endpoint: every connection was accepted');
}

before(async () => {
  assert.ok(
    fs.existsSync(REGISTER),
    `${path.relative(REPO, REGISTER)} is missing (run npm run build first)`,
  );
  silent = net.createServer((s) => {
    silentSockets.add(s);
    s.on('close', () => silentSockets.delete(s));
    s.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
  await startBlackhole();
});

after(async () => {
  for (const s of backlogFillers) s.destroy();
  blackhole?.kill('SIGKILL');
  for (const s of silentSockets) s.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const exporting = (endpoint: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  cleanEnv({
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_SERVICE_NAME: 'a2a-shutdown-test',
    ...extra,
  });

/** Sends SIGTERM once the app printed "ready", and again once it printed `second` (if given). */
const sigtermOn = (second?: string) => (): ((text: string, child: ChildProcess) => void) => {
  let sent = 0;
  return (out, child) => {
    if (sent === 0 && out.includes('ready')) {
      sent = 1;
      child.kill('SIGTERM');
    } else if (sent === 1 && second !== undefined && out.includes(second)) {
      sent = 2;
      child.kill('SIGTERM');
    }
  };
};

describe(
  'register entry at process end: the app ends as it would bare',
  { timeout: 240_000 },
  () => {
    test("#3 an app's own process.once(SIGTERM) cleanup runs to completion (exit 0, not 143)", async () => {
      const env = exporting(`http://127.0.0.1:${await closedPort()}`);
      const { bare, loaded, both } = await bareAndLoaded(GRACEFUL_APP, env, sigtermOn());
      assert.equal(bare.code, 0, both);
      assert.equal(bare.stdout, 'ready\ncleanup start\ncleanup done\n', both);
      assertSameEnd(bare, loaded, both);
    });

    test('#3 a second SIGTERM during that cleanup, with no listener left, ends the process by the signal as bare', async () => {
      const env = exporting(`http://127.0.0.1:${await closedPort()}`, { CLEANUP_MS: '20000' });
      const { bare, loaded, both } = await bareAndLoaded(
        GRACEFUL_APP,
        env,
        sigtermOn('cleanup start'),
      );
      assert.equal(bare.signal, 'SIGTERM', both);
      assertSameEnd(bare, loaded, both);
      assert.ok(
        loaded.ms < EXIT_BOUND_MS,
        `exits within ${EXIT_BOUND_MS} ms, not after the app's 20 s cleanup\n${both}`,
      );
    });

    test('#4 work an app schedules from beforeExit runs: its output and exit code 7, not 0', async () => {
      const env = exporting(`http://127.0.0.1:${await closedPort()}`);
      const { bare, loaded, both } = await bareAndLoaded(BEFORE_EXIT_APP, env);
      assert.equal(bare.code, 7, both);
      assert.equal(bare.stdout, 'main done\nbeforeExit\nlate work done\n', both);
      assertSameEnd(bare, loaded, both);
    });

    const collectors: { name: string; endpoint: () => Promise<string> }[] = [
      {
        name: 'refusing connections',
        endpoint: async () => `http://127.0.0.1:${await closedPort()}`,
      },
      {
        name: 'accepting but never answering',
        endpoint: async () => `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
      },
      {
        name: 'dropping connection attempts (blackholed)',
        endpoint: async () => `http://127.0.0.1:${blackholePort}`,
      },
    ];
    for (const { name, endpoint } of collectors) {
      test(`#5 collector ${name}: 3,000 spans, the process exits within ${EXIT_BOUND_MS / 1000} s with bare's code and output`, async () => {
        const env = exporting(await endpoint(), { SPANS: '3000' });
        const { bare, loaded, both } = await bareAndLoaded(MANY_SPANS_APP, env);
        assert.equal(bare.code, 0, both);
        assert.equal(bare.stdout, 'made 3000 spans\n', both);
        assertSameEnd(bare, loaded, both);
        assert.ok(
          loaded.ms < EXIT_BOUND_MS,
          `the exporter's retries do not hold the process: exited after ${loaded.ms} ms\n${both}`,
        );
      });
    }

    // Issue 26 #4: over gRPC a collector accepting TCP and never answering held the process
    // (gRPC's channel refs an interval while a call waits for a connection, and reconnects
    // after the flush's abort with a socket the abort revived): killed after 30 s; now ~4 s.
    for (const { name, endpoint } of collectors) {
      test(`OTLP/gRPC, collector ${name}: 3,000 spans, the process exits within ${EXIT_BOUND_MS / 1000} s with bare's code and output`, async () => {
        const env = exporting(await endpoint(), {
          SPANS: '3000',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        });
        const { bare, loaded, both } = await bareAndLoaded(MANY_SPANS_APP, env);
        assert.equal(bare.code, 0, both);
        assert.equal(bare.stdout, 'made 3000 spans\n', both);
        assertSameEnd(bare, loaded, both);
        assert.ok(
          loaded.ms < EXIT_BOUND_MS,
          `the exporter's retries do not hold the process: exited after ${loaded.ms} ms\n${both}`,
        );
      });
    }
  },
);
