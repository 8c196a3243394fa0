/**
 * No held exit: the package's own card requests (a confirming re-fetch, a background
 * revalidation) never keep a process alive. A CLI app whose call fails against an agent whose
 * card endpoint stops answering (it answers the app's first card fetch, then never again) ends
 * as soon as it would bare: loaded exit ≤ bare + 300 ms, counted from the app's work done (the
 * register's start-up is not a held exit). On main's code the re-fetch held an
 * undici socket (a fetch with a 5 s timeout): the loaded process lived ~5 s longer.
 * Prints both times.
 *
 *   npm run build && node --import tsx --test test/hardening/own-requests-exit.test.ts
 *
 * Needs the built package (dist/).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER = path.join(REPO, 'dist', 'cjs', 'register.js');
const INDEX = path.join(REPO, 'dist', 'cjs', 'index.js');
const APP = path.join(__dirname, 'fixtures', 'cli-call-app.js');
/** The bound of the issue: a loaded exit at most this much after the bare one. */
const SLACK_MS = 300;

let server: http.Server;
let base = '';
/** Card requests answered per run (the first of each run only). */
let cardRequests = 0;
const held = new Set<http.ServerResponse>();

before(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/.well-known/agent-card.json')) {
      // the app's own fetch is answered; every later one (the package's) never is
      if (cardRequests++ > 0) {
        held.add(res);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: 'cli-agent',
          version: '1',
          description: 'an agent whose card endpoint stops answering',
          supportedInterfaces: [
            { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 'summarize', name: 'Summarize', description: 's', tags: [] }],
        }),
      );
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = (JSON.parse(body || '{}') as { id?: number }).id ?? null;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'failed' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/**
 * Runs the app: `ms` from spawn to exit, `afterDone` from the app's work done (its last line) to
 * exit (what the process is held for; start-up, which the register lengthens, is not in it).
 */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; afterDone: number; out: string }> {
  cardRequests = 0;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let out = '';
    const child = spawn(process.execPath, [...args, APP], { cwd: REPO, env });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (out += c));
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(kill);
      const now = Date.now();
      const doneAt = Number(/ at (\d+)/.exec(out)?.[1] ?? now);
      resolve({ ms: now - started, afterDone: now - doneAt, out });
    });
  });
}

const cases: Array<{ mode: string; loaded: string[] }> = [
  { mode: 'fail-call', loaded: ['--require', REGISTER] },
  { mode: 'revalidation-due', loaded: ['--require', REGISTER] },
  { mode: 'disable', loaded: [] },
];

for (const c of cases) {
  test(`${c.mode}: a card endpoint that never answers holds no exit (loaded ≤ bare + ${SLACK_MS} ms)`, async () => {
    const env = cleanEnv({
      CARD_URL: `${base}/.well-known/agent-card.json`,
      RPC_URL: `${base}/a2a/jsonrpc`,
      MODE: c.mode,
      REVALIDATE_MS: '100',
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS: '100',
    });
    const bare = await run([], { ...env, INDEX: '' });
    const loaded = await run(c.loaded, { ...env, INDEX });
    const ownRequests = cardRequests - 1;
    console.log(
      `# ${c.mode}: exit after the app's work was done: bare ${bare.afterDone} ms, loaded ${loaded.afterDone} ms (whole run: bare ${bare.ms} ms, loaded ${loaded.ms} ms; ${ownRequests} card request(s) of the package's own, never answered)`,
    );
    assert.match(bare.out, /^done in/);
    assert.match(loaded.out, /^done in/, loaded.out);
    assert.ok(ownRequests >= 1, 'the package did fetch the card again');
    assert.ok(
      loaded.afterDone <= bare.afterDone + SLACK_MS,
      `loaded exit ${loaded.afterDone} ms after its work, bare ${bare.afterDone} ms\n${loaded.out}`,
    );
  });
}
