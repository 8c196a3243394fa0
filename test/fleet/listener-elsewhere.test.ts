/**
 * The register entry's fleet webhook listener yields its port to the application's server
 * wherever that server listens from: a `worker_threads` Worker, a `child_process.fork` child
 * (test/fleet/fixtures/off-main-app.js). Before, with OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT set
 * to the app's port, both failed with EADDRINUSE (the fork child after a warning that the
 * webhook yielded the port); bare, both listen.
 *
 *   npm run build && node --import tsx --test test/fleet/listener-elsewhere.test.ts
 *
 * Needs the built package (dist/); REGISTER_DIST=<dir> runs another build.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';
import { startAlertWebhookListener, YIELD_PATH } from '../../src/fleet/listener';
import { freePort } from '../helpers/free-port';

const REPO = path.resolve(__dirname, '..', '..');
const DIST = process.env.REGISTER_DIST ?? path.join(REPO, 'dist');
const REGISTER_CJS = path.join(DIST, 'cjs', 'register.js');
const APP = path.join(__dirname, 'fixtures', 'off-main-app.js');
const TOKEN = 'elsewhere-token';

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
  served: string;
}

/** Runs the app until it ends, fetching its page once it says it listens. */
async function run(mode: string, env: Record<string, string>, withRegister = true): Promise<Run> {
  const args = withRegister ? ['--require', REGISTER_CJS, APP] : [APP];
  const proc = spawn(process.execPath, args, {
    cwd: REPO,
    env: cleanEnv({
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      MODE: mode,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let served = '';
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (c: string) => {
    stdout += c;
    if (c.includes('app listening'))
      void fetch(`http://127.0.0.1:${env.APP_PORT}/`)
        .then((r) => r.text())
        .then(
          (t) => (served = t),
          (err: Error) => (served = `fetch failed: ${err.message}`),
        );
  });
  proc.stderr.on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => proc.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  await new Promise((r) => setTimeout(r, 50));
  return { stdout, stderr, code, served };
}

before(() => {
  assert.ok(fs.existsSync(REGISTER_CJS), `${REGISTER_CJS} is missing (run npm run build first)`);
});

describe(
  'the webhook yields its port to a server started off the main thread',
  { timeout: 90_000 },
  () => {
    for (const [mode, where] of [
      ['thread', /\(in worker thread \d+ of this process\)/],
      ['fork', /\(in its child process \d+\)/],
    ] as const) {
      test(`${mode === 'thread' ? 'a worker_threads Worker' : 'a child_process.fork child'} listening on the webhook's port: it listens, one warning names it`, async () => {
        const port = await freePort();
        const bare = await run(mode, { APP_PORT: String(port), APP_HOST: '127.0.0.1' }, false);
        assert.equal(bare.served, 'the app itself', 'bare, the app listens');
        const r = await run(mode, {
          APP_PORT: String(port),
          APP_HOST: '127.0.0.1',
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
        });
        assert.ok(!r.stdout.includes('APP ERROR'), `${r.stdout}\n${r.stderr}`);
        assert.equal(r.served, 'the app itself', `${r.stdout}\n${r.stderr}`);
        assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
        const warnings = r.stderr.split('\n').filter((l) => l.trim() !== '');
        assert.equal(warnings.length, 1, `exactly one warning:\n${r.stderr}`);
        assert.match(warnings[0], new RegExp(`listens on port ${port} itself`));
        assert.match(warnings[0], where);
        assert.match(warnings[0], /yields it/);
      });
    }

    test('the listener yields only to its own process and its children, with its credentials', async () => {
      const port = await freePort();
      const warnings: string[] = [];
      const listener = startAlertWebhookListener({ port, host: '127.0.0.1', token: TOKEN }, (m) =>
        warnings.push(m),
      );
      await new Promise((r) => setTimeout(r, 50));
      const ask = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}${YIELD_PATH}`, { method: 'POST', headers }).then(
          (r) => r.status,
        );
      const from = (pid: number, ppid: number) => ({
        'x-opentelemetry-instrumentation-a2a-yield': `port=${port}; pid=${pid}; ppid=${ppid}; thread=1`,
      });
      assert.equal(await ask(from(process.pid, process.ppid)), 403, 'no token');
      const auth = { authorization: `Bearer ${TOKEN}` };
      assert.equal(await ask({ ...auth, ...from(1, 1) }), 403, 'another process');
      assert.equal(
        await ask({
          ...auth,
          'x-opentelemetry-instrumentation-a2a-yield': `port=1; pid=${process.pid}`,
        }),
        403,
        'another port',
      );
      assert.ok(listener.address(), 'still listening');
      assert.equal(warnings.length, 0);
      assert.equal(
        await ask({ ...auth, ...from(process.pid + 100_000, process.pid) }),
        200,
        'a child',
      );
      assert.equal(listener.address(), undefined, 'yielded');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /in its child process \d+/);
      listener.close();
    });
  },
);
