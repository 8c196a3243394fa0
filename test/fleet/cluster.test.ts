/**
 * Fleet alerts in a `node:cluster` application (test/fleet/fixtures/cluster-app.js, 4 workers,
 * started with `node --require dist/cjs/register.js`): one receiver per application. Before the
 * cluster fan-out (fleet/cluster.ts) one alert acted in 1 worker of 4 and was answered 200, the
 * primary's listener yielded its port to the workers' listens with a wrong warning, a bare
 * primary's workers shared the webhook's port round-robin, and every process polled: each test
 * here failed then, except two that guard what already worked (a primary with no workers; a
 * bare primary's workers polling for themselves).
 *
 *   npm run build && node --import tsx --test test/fleet/cluster.test.ts
 *
 * FIGURES=1 prints the figures (workers acting per alert, alert-to-eviction time). Needs the
 * built package (dist/); REGISTER_DIST=<dir> runs another build (the code before a change).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';
import { freePort } from '../helpers/free-port';
import { alertmanagerNotification } from '../helpers/alertmanager';

const REPO = path.resolve(__dirname, '..', '..');
const DIST = process.env.REGISTER_DIST ?? path.join(REPO, 'dist');
const REGISTER_CJS = path.join(DIST, 'cjs', 'register.js');
const INDEX_CJS = path.join(DIST, 'cjs', 'index.js');
const APP = path.join(__dirname, 'fixtures', 'cluster-app.js');
const TOKEN = 'cluster-fleet-token';
const FIGURES = process.env.FIGURES === '1';

interface Line {
  type: string;
  worker: number;
  pid: number;
  t: number;
  [k: string]: unknown;
}

interface App {
  proc: ChildProcessWithoutNullStreams;
  lines: Line[];
  stderr(): string;
  waitFor(pred: (lines: Line[]) => boolean, what: string, ms?: number): Promise<void>;
  send(cmd: string): void;
  stop(): Promise<void>;
}

const running = new Set<App>();

function startApp(env: Record<string, string>, withRegister = true): App {
  const lines: Line[] = [];
  let stderr = '';
  let partial = '';
  const args = withRegister
    ? ['--expose-gc', '--require', REGISTER_CJS, APP]
    : ['--expose-gc', APP];
  const proc = spawn(process.execPath, args, {
    cwd: REPO,
    env: cleanEnv({
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      INDEX_CJS,
      REGISTER_CJS,
      ...env,
    }),
    stdio: 'pipe',
  });
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (c: string) => {
    partial += c;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const p of parts)
      if (p.trim() !== '')
        try {
          lines.push(JSON.parse(p) as Line);
        } catch {
          stderr += `(stdout) ${p}\n`;
        }
  });
  proc.stderr.on('data', (c: string) => (stderr += c));
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()));
  const app: App = {
    proc,
    lines,
    stderr: () => stderr,
    async waitFor(pred, what, ms = 15_000) {
      const end = Date.now() + ms;
      while (!pred(lines)) {
        if (Date.now() > end || proc.exitCode !== null)
          throw new Error(
            `not seen: ${what}\n--- stdout\n${lines.map((l) => JSON.stringify(l)).join('\n')}\n--- stderr\n${stderr}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    send: (cmd) => proc.stdin.write(`${cmd}\n`),
    async stop() {
      running.delete(app);
      if (proc.exitCode === null) {
        app.send('exit');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(app);
  return app;
}

after(async () => {
  for (const app of [...running]) await app.stop();
});

function alert(cardUrl: string, fingerprint: string): Record<string, unknown> {
  return {
    status: 'firing',
    labels: {
      alertname: 'A2AAgentCardDrift',
      a2a_agent_card_url: cardUrl,
      a2a_drift_kind: 'unknown_skill',
      a2a_skill_id: 'summarize-v2',
    },
    annotations: {},
    startsAt: new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    fingerprint,
  };
}

function notification(alerts: Array<Record<string, unknown>>): Record<string, unknown> {
  return alertmanagerNotification(alerts, { groupKey: '{}:{}' });
}

/** POST a notification (an http.Agent of its own: no connection kept between tests). */
async function post(
  port: number,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/a2a/alerts',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          authorization: `Bearer ${TOKEN}`,
          connection: 'close',
        },
      },
      (res) => {
        let got = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (got += c));
        res.on('end', () => {
          try {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(got) as Record<string, unknown>,
            });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { raw: got } });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** POST, retrying while nothing listens yet. */
async function postWhenUp(
  port: number,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let i = 0; ; i++) {
    try {
      return await post(port, body);
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const drifts = (lines: Line[], cardUrl?: string): Line[] =>
  lines.filter((l) => l.type === 'drift' && (cardUrl === undefined || l.cardUrl === cardUrl));
const workerDrifts = (lines: Line[], cardUrl?: string): Line[] =>
  drifts(lines, cardUrl).filter((l) => l.worker > 0);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

before(() => {
  for (const f of [REGISTER_CJS, INDEX_CJS])
    assert.ok(fs.existsSync(f), `${f} is missing (run npm run build first)`);
});

async function clusterUp(env: Record<string, string> = {}, withRegister = true) {
  const webhookPort = await freePort();
  const appPort = await freePort();
  const app = startApp(
    {
      APP_PORT: String(appPort),
      OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(webhookPort),
      OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
      ...env,
    },
    withRegister,
  );
  await app.waitFor((ls) => ls.some((l) => l.type === 'ready'), 'the workers listening');
  return { app, webhookPort, appPort };
}

describe('a node:cluster app with 4 workers under the register entry', { timeout: 180_000 }, () => {
  test(
    'one alert reaches all 4 workers (each once), the answer says so, the app keeps its port and its own messages; a worker started later learns it',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort, appPort } = await clusterUp();
      await app.waitFor((ls) => ls.filter((l) => l.type === 'pong').length === 4, 'the app pongs');
      // Each alert: how many workers acted, and how long until the last of them did.
      const perAlert: number[] = [];
      const latencies: number[] = [];
      const cards: string[] = [];
      const answers: Array<{ status: number; body: Record<string, unknown> }> = [];
      for (let i = 0; i < 7; i++) {
        const card = `http://peer-${i}.internal/.well-known/agent-card.json`;
        cards.push(card);
        const t0 = Date.now();
        answers.push(await postWhenUp(webhookPort, notification([alert(card, `c${i}`)])));
        await app
          .waitFor((ls) => workerDrifts(ls, card).length >= 4, `4 workers evicting ${card}`, 3_000)
          .catch(() => undefined);
        const acted = workerDrifts(app.lines, card);
        perAlert.push(new Set(acted.map((l) => l.worker)).size);
        if (acted.length > 0) latencies.push(Math.max(...acted.map((l) => l.t)) - t0);
      }
      if (FIGURES)
        console.log(
          `# workers acting per alert: ${perAlert.join(', ')} of 4; alert-to-eviction in all 4 workers: median ${median(latencies)} ms (${latencies.join(', ')})`,
        );
      assert.deepEqual(perAlert, [4, 4, 4, 4, 4, 4, 4], 'every worker acted on every alert');
      for (const res of answers) {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, { accepted: 1, ignored: 0, workers: 4, told: 4 });
      }
      // The same alert again (Alertmanager re-sends): nobody acts twice.
      const again = await post(webhookPort, notification([alert(cards[0], 'c0')]));
      assert.equal(again.status, 200);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(workerDrifts(app.lines, cards[0]).length, 4, 'a re-sent alert acts nowhere');
      // The app's server is the workers' (round-robin on its port), untouched.
      const served = await (await fetch(`http://127.0.0.1:${appPort}/`)).text();
      assert.match(served, /^[1-4]$/);
      // A worker started later gets the recent alerts from the primary.
      app.send('fork');
      await app.waitFor(
        (ls) => cards.every((c) => workerDrifts(ls, c).some((l) => l.worker === 5)),
        'worker 5 learning every card',
      );
      assert.equal(app.stderr(), '', 'no warning');
      await app.stop();
    },
  );

  test(
    "the webhook's port set to the app's own port: the workers' server gets it, one warning",
    { timeout: 45_000 },
    async () => {
      const port = await freePort();
      const app = startApp({
        APP_PORT: String(port),
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
      });
      await app.waitFor((ls) => ls.some((l) => l.type === 'ready'), 'the workers listening');
      const served = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      assert.match(served, /^[1-4]$/, 'the app answers on its port');
      const warnings = app
        .stderr()
        .split('\n')
        .filter((l) => l.trim() !== '');
      assert.equal(warnings.length, 1, app.stderr());
      assert.match(warnings[0], new RegExp(`listens on port ${port} itself.*yields it`));
      await app.stop();
    },
  );

  test(
    'a worker that dies while the alert is fanned out: the others act, the answer says 3 of 4 were told, no hang',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort } = await clusterUp();
      app.send('block 2 5000'); // worker 2 cannot read its channel
      await new Promise((r) => setTimeout(r, 200));
      const card = 'http://dying.internal/.well-known/agent-card.json';
      const t0 = Date.now();
      const pending = postWhenUp(webhookPort, notification([alert(card, 'd1')]));
      await new Promise((r) => setTimeout(r, 300));
      app.send('kill 2');
      const res = await pending;
      const took = Date.now() - t0;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { accepted: 1, ignored: 0, workers: 4, told: 3 });
      assert.ok(took < 2_500, `answered in ${took} ms`);
      await app.waitFor((ls) => workerDrifts(ls, card).length === 3, 'the 3 others acting');
      assert.deepEqual(
        workerDrifts(app.lines, card)
          .map((l) => l.worker)
          .sort(),
        [1, 3, 4],
      );
      await app.stop();
    },
  );

  test(
    'a worker that does not acknowledge in time: 503 (Alertmanager sends again), then 200; each worker acts once',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort } = await clusterUp();
      app.send('block 3 3000');
      await new Promise((r) => setTimeout(r, 200));
      const card = 'http://slow.internal/.well-known/agent-card.json';
      const first = await postWhenUp(webhookPort, notification([alert(card, 's1')]));
      assert.equal(first.status, 503, JSON.stringify(first.body));
      assert.deepEqual(first.body, { accepted: 1, ignored: 0, workers: 4, told: 3 });
      await app.waitFor((ls) => ls.some((l) => l.type === 'unblocked'), 'worker 3 back');
      const second = await post(webhookPort, notification([alert(card, 's1')]));
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.deepEqual(second.body, { accepted: 1, ignored: 0, workers: 4, told: 4 });
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        workerDrifts(app.lines, card)
          .map((l) => l.worker)
          .sort(),
        [1, 2, 3, 4],
        'each worker once',
      );
      await app.stop();
    },
  );

  test(
    'an alert storm (1,000 alerts in at most 10 s, 20 cards): every alert told to 4 workers, each worker evicts each card once, the primary stays bounded',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort } = await clusterUp({
        // the storm must fit in one debounce window for "once" to be the rule being checked
        OTEL_INSTRUMENTATION_A2A_DRIFT_CALLBACK_DEBOUNCE_MS: '60000',
      });
      app.send('mem');
      await app.waitFor((ls) => ls.some((l) => l.type === 'mem'), 'heap before');
      const heapBefore = Number(app.lines.find((l) => l.type === 'mem')!.heapUsed);
      const cards = Array.from(
        { length: 20 },
        (_, i) => `http://storm-${i}.internal/.well-known/agent-card.json`,
      );
      const t0 = Date.now();
      let next = 0;
      const statuses: number[] = [];
      const told: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < 1000) {
            const i = next++;
            const res = await postWhenUp(
              webhookPort,
              notification([alert(cards[i % 20], `storm-${i}`)]),
            );
            statuses.push(res.status);
            told.push(Number(res.body.told));
          }
        }),
      );
      const took = Date.now() - t0;
      assert.ok(took <= 10_000, `the storm took ${took} ms`);
      assert.ok(
        statuses.every((s) => s === 200),
        `statuses: ${JSON.stringify([...new Set(statuses)])}`,
      );
      assert.ok(told.every((n) => n === 4));
      await new Promise((r) => setTimeout(r, 500));
      for (const w of [1, 2, 3, 4]) {
        const mine = workerDrifts(app.lines).filter((l) => l.worker === w);
        assert.equal(mine.length, 20, `worker ${w} evicted each card once`);
        assert.equal(new Set(mine.map((l) => l.cardUrl)).size, 20);
      }
      app.send('mem');
      await app.waitFor((ls) => ls.filter((l) => l.type === 'mem').length === 2, 'heap after');
      const heapAfter = Number(app.lines.filter((l) => l.type === 'mem')[1].heapUsed);
      if (FIGURES)
        console.log(
          `# storm: 1,000 alerts in ${took} ms, all told to 4 workers; primary heap ${(heapBefore / 1e6).toFixed(1)} → ${(heapAfter / 1e6).toFixed(1)} MB`,
        );
      assert.ok(heapAfter - heapBefore < 10e6, `primary heap grew ${heapAfter - heapBefore} bytes`);
      await app.stop();
    },
  );

  test(
    "a handler the app mounts in its workers' server: the worker that gets the alert relays it through the primary, all 4 act",
    { timeout: 45_000 },
    async () => {
      const appPort = await freePort();
      const app = startApp({ APP_PORT: String(appPort), MOUNT: '1', MOUNT_TOKEN: TOKEN });
      await app.waitFor((ls) => ls.some((l) => l.type === 'ready'), 'ready');
      await app.waitFor((ls) => ls.filter((l) => l.type === 'pong').length === 4, 'the app pongs');
      // the workers' handshake with the primary (HELLO_TIMEOUT_MS at most)
      await new Promise((r) => setTimeout(r, 300));
      const card = 'http://mounted.internal/.well-known/agent-card.json';
      const res = await post(appPort, notification([alert(card, 'm1')]));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { accepted: 1, ignored: 0, workers: 4, told: 4 });
      await app.waitFor((ls) => workerDrifts(ls, card).length === 4, 'the 4 workers acting');
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(workerDrifts(app.lines, card).length, 4, 'each once');
      assert.equal(app.stderr(), '');
      await app.stop();
    },
  );

  test(
    'a primary with no workers (cluster API used, none forked): it acts itself and answers at once',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort } = await clusterUp({ WORKERS: '0' });
      const card = 'http://alone.internal/.well-known/agent-card.json';
      const t0 = Date.now();
      const res = await postWhenUp(webhookPort, notification([alert(card, 'z1')]));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { accepted: 1, ignored: 0 });
      assert.ok(Date.now() - t0 < 1_000);
      await app.waitFor((ls) => drifts(ls, card).some((l) => l.worker === 0), 'the primary acting');
      assert.equal(app.stderr(), '');
      await app.stop();
    },
  );

  test(
    'the primary without the register entry (as pm2 runs it), the workers with it: no worker takes the webhook port, each says why',
    { timeout: 45_000 },
    async () => {
      const { app, webhookPort } = await clusterUp({ PRIMARY_BARE: '1' }, false);
      await app.waitFor(
        () => app.stderr().split('primary does not run').length - 1 >= 4,
        'a warning per worker',
      );
      await assert.rejects(
        post(webhookPort, notification([alert('http://x/', 'p1')])),
        /ECONNREFUSED/,
      );
      assert.equal(workerDrifts(app.lines).length, 0);
      await app.stop();
    },
  );
});

describe('the poll in a node:cluster app', { timeout: 60_000 }, () => {
  let am: http.Server;
  let amPort = 0;
  let gets = 0;
  const card = 'http://polled.internal/.well-known/agent-card.json';
  before(async () => {
    am = http.createServer((req, res) => {
      gets++;
      const body = JSON.stringify([
        {
          labels: {
            alertname: 'A2AAgentCardDrift',
            a2a_agent_card_url: card,
            a2a_drift_kind: 'unknown_skill',
          },
          annotations: {},
          startsAt: new Date(Date.now() - 1000).toISOString(),
          endsAt: new Date(Date.now() + 600_000).toISOString(),
          fingerprint: 'poll0001',
          status: { state: 'active', silencedBy: [], inhibitedBy: [] },
        },
      ]);
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(body);
    });
    await new Promise<void>((resolve) => am.listen(0, '127.0.0.1', () => resolve()));
    amPort = (am.address() as net.AddressInfo).port;
  });
  after(() => am.close());

  test(
    'one poller for the application (the primary), every worker acting on what it finds',
    { timeout: 45_000 },
    async () => {
      const appPort = await freePort();
      gets = 0;
      const app = startApp({
        APP_PORT: String(appPort),
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: `http://127.0.0.1:${amPort}`,
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: '200',
      });
      await app.waitFor((ls) => ls.some((l) => l.type === 'ready'), 'ready');
      await app.waitFor((ls) => workerDrifts(ls, card).length === 4, 'the 4 workers acting');
      const from = gets;
      await new Promise((r) => setTimeout(r, 2_000));
      const polls = gets - from;
      if (FIGURES) console.log(`# polls in 2 s at 200 ms: ${polls} (one poller: about 10)`);
      assert.ok(polls <= 13, `${polls} polls in 2 s: more than one poller`);
      assert.equal(workerDrifts(app.lines, card).length, 4, 'each worker once');
      await app.stop();
    },
  );

  test(
    'the primary without the register entry (as pm2 runs it): each worker polls for itself and acts',
    { timeout: 45_000 },
    async () => {
      const appPort = await freePort();
      const app = startApp(
        {
          APP_PORT: String(appPort),
          PRIMARY_BARE: '1',
          OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: `http://127.0.0.1:${amPort}`,
          OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: '200',
        },
        false,
      );
      await app.waitFor((ls) => ls.some((l) => l.type === 'ready'), 'ready');
      await app.waitFor(
        (ls) => workerDrifts(ls, card).length === 4,
        'the 4 workers acting',
        20_000,
      );
      assert.equal(app.stderr(), '', 'no warning: the poll needs no port');
      await app.stop();
    },
  );
});
