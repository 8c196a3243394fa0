/**
 * End to end: the register entry in a child process with the fleet alert webhook
 * (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT / _TOKEN): an Alertmanager notification POSTed to
 * it reaches the app's onAgentCardDrift callback as a fleet event; the listener makes no
 * span and does not keep the process alive; off loopback without a token it is not started
 * and one warning says why.
 *
 *   npm run build && node --import tsx --test test/e2e/fleet-webhook.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';
import { freePort } from '../helpers/free-port';
import { alertmanagerNotification } from '../helpers/alertmanager';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const INDEX_CJS = path.join(REPO, 'dist', 'cjs', 'index.js');
const CHILD_TIMEOUT_MS = 20_000;
const TOKEN = 'e2e-fleet-token';
const CARD_URL = 'http://peer.internal:8080/.well-known/agent-card.json';

interface Child {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>;
  waitFor(text: string, ms?: number): Promise<void>;
  kill(): void;
}

/** The app: registers a drift callback that prints the event, and waits for it (15 s at most). */
const APP = `
const { onAgentCardDrift } = require(${JSON.stringify(INDEX_CJS)});
const keep = setTimeout(() => console.log('NO FLEET EVENT'), 15000);
onAgentCardDrift((e) => {
  console.log('FLEET ' + JSON.stringify({ source: e.source, kind: e.kind, cardUrl: e.cardUrl, skillId: e.skillId, agentName: e.agentName, error: e.error.name }));
  clearTimeout(keep);
});
console.log('ready');
`;

function start(env: Record<string, string>): Child {
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  const child = spawn(process.execPath, ['--require', REGISTER_CJS, '-e', APP], {
    cwd: REPO,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    stdout += c;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on('data', (c: string) => {
    stderr += c;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, CHILD_TIMEOUT_MS);
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    timedOut: boolean;
  }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of waiters.splice(0)) w();
      resolve({ code, signal, timedOut });
    });
  });
  return {
    kill: () => child.kill('SIGKILL'),
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(text, ms = 10_000) {
      const end = Date.now() + ms;
      while (!stdout.includes(text)) {
        if (Date.now() > end || child.exitCode !== null)
          throw new Error(
            `the app did not print ${JSON.stringify(text)}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
          );
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
    },
  };
}

/** POST, retrying while the listener is not up yet (it starts right after the SDK). */
async function postAlert(url: string, body: unknown, token: string): Promise<Response> {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const NOTIFICATION = alertmanagerNotification(
  [
    {
      status: 'firing',
      labels: {
        alertname: 'A2AAgentCardDrift',
        a2a_agent_card_url: CARD_URL,
        a2a_drift_kind: 'unknown_skill',
        a2a_skill_id: 'summarize-v2',
        gen_ai_agent_name: 'peer-a',
      },
      annotations: {},
      startsAt: new Date().toISOString(),
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: '',
      fingerprint: 'e2e0000000000001',
    },
    {
      status: 'resolved',
      labels: {
        alertname: 'A2AAgentCardDrift',
        a2a_agent_card_url: CARD_URL,
        a2a_drift_kind: 'unknown_skill',
      },
      annotations: {},
      startsAt: new Date().toISOString(),
      endsAt: new Date().toISOString(),
      fingerprint: 'e2e0000000000002',
    },
  ],
  { groupLabels: { a2a_agent_card_url: CARD_URL } },
);

before(() => {
  for (const f of [REGISTER_CJS, INDEX_CJS])
    assert.ok(fs.existsSync(f), `${path.relative(REPO, f)} is missing (run npm run build first)`);
});

test('register + webhook: a POSTed alert reaches the app callback as a fleet event; no span; the process still ends by itself', async () => {
  const port = await freePort();
  const app = start({
    OTEL_SERVICE_NAME: 'fleet-e2e',
    OTEL_TRACES_EXPORTER: 'console',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
    OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
  });
  await app.waitFor('ready');
  const url = `http://127.0.0.1:${port}/a2a/alerts`;
  const wrong = await postAlert(url, NOTIFICATION, 'not-the-token');
  assert.equal(wrong.status, 401);
  const res = await postAlert(url, NOTIFICATION, TOKEN);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { accepted: 1, ignored: 1 });
  await app.waitFor('FLEET ');
  const line = app
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('FLEET '))!;
  assert.deepEqual(JSON.parse(line.slice('FLEET '.length)), {
    source: 'fleet',
    kind: 'unknown_skill',
    cardUrl: CARD_URL,
    skillId: 'summarize-v2',
    agentName: 'peer-a',
    error: 'StaleAgentCardError',
  });
  // The callback cleared the app's last timer: the listener (and the kept-alive connection
  // of this test's fetch) must not keep the process alive.
  const exit = await app.exited;
  assert.equal(exit.timedOut, false, 'the process ended by itself');
  assert.equal(exit.code, 0, app.stderr());
  assert.ok(
    !app.stdout().includes('traceId'),
    `no span printed by the console exporter:\n${app.stdout()}`,
  );
  assert.ok(!app.stdout().includes('NO FLEET EVENT'));
  assert.equal(app.stderr(), '');
});

test('register: off loopback without a token the listener is not started, and one warning says why', async () => {
  const port = await freePort();
  const app = start({
    OTEL_TRACES_EXPORTER: 'none',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
    OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: '0.0.0.0',
  });
  await app.waitFor('ready');
  await assert.rejects(
    fetch(`http://127.0.0.1:${port}/a2a/alerts`, { method: 'POST', body: '{}' }),
    'nothing listens',
  );
  const warnings = app
    .stderr()
    .split('\n')
    .filter((l) => l.includes('OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN'));
  assert.equal(warnings.length, 1, app.stderr());
  assert.match(
    warnings[0],
    /not a loopback address and OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN is not set; the fleet alert webhook is not started/,
  );
  app.kill(); // it would wait 15 s for a fleet event that cannot come
  await app.exited;
});
