/**
 * Fleet-wide eviction, live: one instance's evidence evicts the stale Agent Card in every
 * instance, through a REAL Prometheus and a REAL Alertmanager (Debian packages `prometheus`
 * and `prometheus-alertmanager`), run as child processes of this test with their own
 * configs, data in a temp dir and loopback ports.
 *
 *   peer (@a2a-js/sdk, in this process) ── redeployed in place, same card version
 *   A, B, C: test/e2e/fleet/instance-app.js under `node --require dist/cjs/register.js`,
 *            OTEL_METRICS_EXPORTER=prometheus on their own ports
 *            A: calls the peer after the drift (the only one); also polls Alertmanager
 *            B: webhook listener (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT / _TOKEN)
 *            C: polls Alertmanager (OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL / _POLL_MS)
 *   Prometheus: examples/observability/prometheus.yaml + alerts.yaml, scrape and evaluation 1 s
 *   Alertmanager: examples/observability/alertmanager.yml, group_wait 1 s; the fleet receiver
 *            posts to B and to a plain HTTP receiver in this process
 *
 * Prints the time from A's failing call to each instance's eviction.
 *
 *   npm run build && node --import tsx --test test/e2e/fleet-live.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here. Without the binaries the test is
 * skipped locally and fails under CI.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startSdkPeer, DEFAULT_SKILL, TRANSLATE_SKILL, type SdkPeer } from '../peers/sdk-peer';
import { cleanEnv } from '../helpers/clean-env';
import { freePort } from '../helpers/free-port';
import { startPlainReceiver } from '../helpers/alertmanager';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const APP = path.join(__dirname, 'fleet', 'instance-app.js');
const OBS = path.join(REPO, 'examples', 'observability');
const TOKEN = 'fleet-live-test-token-0123456789';
const POLL_MS = 250;
/** From A's failing call to the last eviction: generous (the goal is < 3 s), for a loaded CI box. */
const EVICTION_DEADLINE_MS = 20_000;
const STARTUP_DEADLINE_MS = 20_000;

// ---------------------------------------------------------------------------------------
// Binaries

function onPath(names: string[]): string | undefined {
  for (const n of names) {
    const r = spawnSync(n, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    if (!r.error) return n;
  }
  return undefined;
}

const PROMETHEUS = onPath(['prometheus']);
/** Debian names the binary prometheus-alertmanager; upstream alertmanager. */
const ALERTMANAGER = onPath(['prometheus-alertmanager', 'alertmanager']);
const MISSING = [
  !PROMETHEUS && 'prometheus',
  !ALERTMANAGER && 'alertmanager (prometheus-alertmanager)',
]
  .filter(Boolean)
  .join(' and ');
const SKIP = MISSING
  ? `${MISSING} not on PATH (Debian/Ubuntu: apt-get install -y prometheus prometheus-alertmanager); the live fleet test did not run`
  : false;
if (SKIP && process.env.CI) {
  test('fleet-live: Prometheus and Alertmanager are installed', () =>
    assert.fail(`${SKIP}; CI must install them`));
}

// ---------------------------------------------------------------------------------------
// Helpers

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil<T>(
  what: string,
  deadlineMs: number,
  probe: () => Promise<T | undefined> | T | undefined,
  everyMs = 25,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > end)
      throw new Error(
        `timed out after ${deadlineMs} ms waiting for ${what}${lastErr ? ` (last error: ${String(lastErr)})` : ''}\n${diagnostics()}`,
      );
    await sleep(everyMs);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function getJson(url: string): Promise<any> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

async function ready(url: string): Promise<true | undefined> {
  const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
  await res.arrayBuffer();
  return res.ok ? true : undefined;
}

// ---------------------------------------------------------------------------------------
// Child processes

interface Proc {
  name: string;
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<void>;
}

const procs: Proc[] = [];

function startProc(
  name: string,
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: boolean } = {},
): Proc {
  const child = spawn(cmd, args, {
    cwd: opts.cwd ?? REPO,
    env: opts.env ?? process.env,
    stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const p: Proc = {
    name,
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('close', () => resolve())),
  };
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (p.stdout += c));
  child
    .stderr!.setEncoding('utf8')
    .on('data', (c: string) => (p.stderr = (p.stderr + c).slice(-20_000)));
  child.on('error', (err) => (p.stderr += `\nspawn error: ${String(err)}`));
  procs.push(p);
  return p;
}

async function stopProc(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const killed = await Promise.race([p.exited.then(() => true), sleep(3000).then(() => false)]);
  if (!killed) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

// ---------------------------------------------------------------------------------------
// The instances' JSON lines

interface Line {
  instance: string;
  t: number;
  type: 'ready' | 'call-start' | 'call-end' | 'drift' | 'error';
  [k: string]: unknown;
}

function lines(p: Proc): Line[] {
  return p.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        return undefined;
      }
    })
    .filter((l): l is Line => l !== undefined);
}

const drifts = (p: Proc): Line[] => lines(p).filter((l) => l.type === 'drift');

function diagnostics(): string {
  return procs
    .map(
      (p) =>
        `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'})\n${p.stdout.slice(-3000)}\n${p.stderr.slice(-3000)}`,
    )
    .join('\n');
}

// ---------------------------------------------------------------------------------------
// Configs: the example files, with test ports and short intervals

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function prometheusConfig(o: { targets: string[]; alertmanager: string }): any {
  const cfg = parse(fs.readFileSync(path.join(OBS, 'prometheus.yaml'), 'utf8'));
  cfg.global.scrape_interval = '1s';
  cfg.global.evaluation_interval = '1s';
  cfg.rule_files = cfg.rule_files.map((f: string) => path.resolve(OBS, f)); // alerts.yaml as shipped
  cfg.alerting.alertmanagers[0].static_configs = [{ targets: [o.alertmanager] }];
  cfg.scrape_configs = [
    {
      job_name: 'a2a-fleet',
      scrape_interval: '1s',
      scrape_timeout: '900ms',
      static_configs: [{ targets: o.targets }],
    },
  ];
  return cfg;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function alertmanagerConfig(o: { webhooks: string[] }): any {
  const cfg = parse(fs.readFileSync(path.join(OBS, 'alertmanager.yml'), 'utf8'));
  type Route = { receiver: string; group_by?: string[] };
  type Receiver = { name: string; webhook_configs?: unknown[] };
  const fleet = (cfg.route.routes as Route[]).find(
    (r) =>
      (r.group_by ?? []).includes('a2a_agent_card_url') &&
      // the stale-callers route groups by the card too, and reaches no webhook
      (cfg.receivers as Receiver[]).some((x) => x.name === r.receiver && x.webhook_configs),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ) as any;
  assert.ok(fleet, 'alertmanager.yml has no route grouping by a2a_agent_card_url');
  fleet.group_wait = '1s';
  fleet.group_interval = '1s';
  fleet.repeat_interval = '2s'; // re-sent every ~2 s while firing: an instance must act once
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const receiver = cfg.receivers.find((r: any) => r.name === fleet.receiver);
  const template = receiver.webhook_configs[0];
  receiver.webhook_configs = o.webhooks.map((url) => ({
    ...template,
    url,
    http_config: {
      ...template.http_config,
      authorization: { ...template.http_config.authorization, credentials: TOKEN },
    },
  }));
  return cfg;
}

// ---------------------------------------------------------------------------------------

describe(
  'fleet-wide eviction, live (Prometheus + Alertmanager + instances under the register entry)',
  { skip: SKIP, timeout: 90_000 },
  () => {
    let tmp: string;
    let peer: SdkPeer;
    let plain: Awaited<ReturnType<typeof startPlainReceiver>>;
    let promUrl: string;
    let amUrl: string;
    let A: Proc;
    let B: Proc;
    let C: Proc;
    /** peer.executions.length at the redeploy */
    let executionsAtRedeploy = 0;
    /** A's failing call (its call-start line's t) */
    let t0 = 0;

    before(async () => {
      assert.ok(
        fs.existsSync(REGISTER_CJS),
        `${path.relative(REPO, REGISTER_CJS)} is missing (run npm run build first)`,
      );
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-fleet-live-'));
      peer = await startSdkPeer({ name: 'Summarizer', skills: [DEFAULT_SKILL] });
      plain = await startPlainReceiver();

      const [metricsA, metricsB, metricsC, webhookB, promPort, amPort] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      promUrl = `http://127.0.0.1:${promPort}`;
      amUrl = `http://127.0.0.1:${amPort}`;

      fs.writeFileSync(
        path.join(tmp, 'alertmanager.yml'),
        stringify(
          alertmanagerConfig({ webhooks: [`http://127.0.0.1:${webhookB}/a2a/alerts`, plain.url] }),
        ),
      );
      fs.writeFileSync(
        path.join(tmp, 'prometheus.yaml'),
        stringify(
          prometheusConfig({
            targets: [metricsA, metricsB, metricsC].map((p) => `127.0.0.1:${p}`),
            alertmanager: `127.0.0.1:${amPort}`,
          }),
        ),
      );

      startProc(
        'alertmanager',
        ALERTMANAGER!,
        [
          `--config.file=${path.join(tmp, 'alertmanager.yml')}`,
          `--storage.path=${path.join(tmp, 'am-data')}`,
          `--web.listen-address=127.0.0.1:${amPort}`,
          '--cluster.listen-address=',
          '--log.level=warn',
        ],
        { cwd: tmp },
      );
      startProc(
        'prometheus',
        PROMETHEUS!,
        [
          `--config.file=${path.join(tmp, 'prometheus.yaml')}`,
          `--storage.tsdb.path=${path.join(tmp, 'prom-data')}`,
          `--web.listen-address=127.0.0.1:${promPort}`,
          '--log.level=warn',
        ],
        { cwd: tmp },
      );

      const instance = (name: string, metricsPort: number, extra: Record<string, string>): Proc =>
        startProc(name, process.execPath, ['--require', REGISTER_CJS, APP], {
          stdin: true,
          env: cleanEnv({
            INSTANCE: name,
            PEER_URL: peer.baseUrl,
            SKILL_ID: DEFAULT_SKILL.id,
            OTEL_SERVICE_NAME: 'fleet-live',
            OTEL_TRACES_EXPORTER: 'none',
            OTEL_METRICS_EXPORTER: 'prometheus',
            OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
            OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPort),
            ...extra,
          }),
        });
      A = instance('A', metricsA, {
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: amUrl,
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: String(POLL_MS),
      });
      B = instance('B', metricsB, {
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(webhookB),
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
      });
      C = instance('C', metricsC, {
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL: amUrl,
        OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS: String(POLL_MS),
      });

      await Promise.all([
        waitUntil('Alertmanager ready', STARTUP_DEADLINE_MS, () => ready(`${amUrl}/-/ready`)),
        waitUntil('Prometheus ready', STARTUP_DEADLINE_MS, () => ready(`${promUrl}/-/ready`)),
        ...[A, B, C].map((p) =>
          waitUntil(
            `instance ${p.name} ready`,
            STARTUP_DEADLINE_MS,
            () => lines(p).some((l) => l.type === 'ready') || undefined,
          ),
        ),
      ]);
      // Every instance scraped (up == 1) before the drift, so the counter's first sample is the drift.
      await waitUntil('Prometheus scraping the three instances', STARTUP_DEADLINE_MS, async () => {
        const r = await getJson(
          `${promUrl}/api/v1/query?query=${encodeURIComponent('up{job="a2a-fleet"} == 1')}`,
        );
        return r.data.result.length === 3 || undefined;
      });
    });

    after(async () => {
      for (const p of [A, B, C]) p?.child.stdin?.end('exit\n');
      await Promise.all(procs.map(stopProc));
      await plain?.close();
      await peer?.close();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    });

    test('before the drift: healthy calls, no drift, no alert', async () => {
      for (const p of [A, B, C]) {
        const l = lines(p);
        assert.ok(
          l.some((x) => x.type === 'call-end' && x.state === 'TASK_STATE_COMPLETED'),
          `${p.name}: warm-up call did not complete\n${p.stdout}`,
        );
        assert.deepEqual(drifts(p), [], `${p.name}: a healthy call was flagged`);
      }
      const alerts = await getJson(`${amUrl}/api/v2/alerts`);
      assert.deepEqual(alerts, []);
    });

    test("A's drift reaches Alertmanager: the webhook posts it (v4, bearer token) and the poll API lists it", async () => {
      executionsAtRedeploy = peer.executions.length;
      peer.redeploy([TRANSLATE_SKILL]); // same card version; summarize-v2 is gone
      A.child.stdin!.write('call\n');
      const failing = await waitUntil("A's failing call", 10_000, () =>
        lines(A).find((l) => l.type === 'call-start' && l.n === 2),
      );
      t0 = failing.t;
      await waitUntil("A's failing call to end", 10_000, () =>
        lines(A).find((l) => l.type === 'call-end' && l.n === 2),
      );
      // The client re-negotiates from a fresh card, as it would: the next call re-fetches (card_changed).
      await waitUntil("A's local drift event", 5000, () =>
        drifts(A).find((d) => d.kind !== 'card_changed'),
      );
      A.child.stdin!.write('call\n');

      const note = await waitUntil(
        'a notification at the plain receiver',
        EVICTION_DEADLINE_MS,
        () =>
          plain.notifications.find((n) =>
            (n.body?.alerts ?? []).some((a: { status: string }) => a.status === 'firing'),
          ),
      );
      assert.equal(note.authorization, `Bearer ${TOKEN}`);
      assert.equal(note.body.version, '4');
      assert.deepEqual(note.body.groupLabels, { a2a_agent_card_url: peer.cardUrl });
      const alert = note.body.alerts.find((a: { status: string }) => a.status === 'firing');
      assert.equal(alert.labels.alertname, 'A2AAgentCardDrift');
      assert.equal(alert.labels.a2a_agent_card_url, peer.cardUrl);
      assert.equal(alert.labels.a2a_drift_kind, 'unknown_skill');
      assert.equal(alert.labels.a2a_skill_id, DEFAULT_SKILL.id);
      assert.equal(alert.labels.server_address, '127.0.0.1');
      assert.equal(alert.labels.server_port, String(peer.port));
      assert.equal(alert.labels.gen_ai_agent_name, 'Summarizer');
      assert.equal(alert.labels.job, 'a2a-fleet');
      assert.ok(
        alert.fingerprint && alert.startsAt,
        'fingerprint and startsAt: what an instance dedupes on',
      );

      const polled = await getJson(
        `${amUrl}/api/v2/alerts?active=true&silenced=false&inhibited=false`,
      );
      const listed = polled.find(
        (a: { labels: Record<string, string> }) => a.labels.a2a_agent_card_url === peer.cardUrl,
      );
      assert.ok(listed, `the poll endpoint does not list the alert: ${JSON.stringify(polled)}`);
      assert.equal(listed.status.state, 'active');
      assert.equal(listed.fingerprint, alert.fingerprint);

      const activeAt = new Date(alert.startsAt).getTime();
      console.log(
        `fleet-live: A's failing call → alert active in Prometheus ${activeAt - t0} ms → webhook at the plain receiver ${note.t - t0} ms (scrape 1 s, evaluation 1 s, group_wait 1 s)`,
      );
    });

    test('every instance evicts the card: A on its own evidence, B by webhook, C by poll; only A called the peer', async () => {
      assert.ok(t0 > 0, 'the drift step did not run');
      const local = await waitUntil("A's local eviction", EVICTION_DEADLINE_MS, () =>
        drifts(A).find((d) => d.kind === 'unknown_skill'),
      );
      const fleetEvent = (p: Proc) => drifts(p).find((d) => d.source === 'fleet');
      const [b, c] = await Promise.all(
        [B, C].map((p) =>
          waitUntil(`${p.name}'s fleet eviction (source 'fleet')`, EVICTION_DEADLINE_MS, () =>
            fleetEvent(p),
          ).catch((err: Error) => err),
        ),
      );
      const ms = (l: Line | Error) => (l instanceof Error ? 'none' : `${l.t - t0} ms`);
      console.log(
        `fleet-live: from A's failing call to eviction: A (local) ${ms(local)}, B (webhook) ${ms(b)}, C (poll every ${POLL_MS} ms) ${ms(c)}; goal < 3000 ms`,
      );
      if (b instanceof Error) throw b;
      if (c instanceof Error) throw c;

      assert.notEqual(local.source, 'fleet');
      assert.equal(local.evicted, true);
      for (const [p, e] of [
        [B, b],
        [C, c],
      ] as const) {
        assert.equal(e.kind, 'unknown_skill', p.name);
        assert.equal(e.cardUrl, peer.cardUrl, p.name);
        assert.equal(e.skillId, DEFAULT_SKILL.id, p.name);
        assert.equal(e.agentName, 'Summarizer', p.name);
        assert.equal(e.evicted, true, `${p.name}: the event did not name the card it holds`);
      }
      // Only A called the peer after the drift: B and C made their warm-up call only.
      for (const p of [B, C])
        assert.equal(
          lines(p).filter((l) => l.type === 'call-start').length,
          1,
          `${p.name} called the peer`,
        );
      const aCalls = lines(A).filter((l) => l.type === 'call-start' && (l.n as number) >= 2).length;
      assert.equal(
        peer.executions.length - executionsAtRedeploy,
        aCalls,
        "tasks on the peer after the redeploy are A's",
      );
    });

    test('each instance acts once per alert (re-sent every 2 s, polled every 250 ms); card_changed pages nobody', async () => {
      assert.ok(t0 > 0, 'the drift step did not run');
      // A's re-fetch counted card_changed; let Prometheus scrape and evaluate it a few times.
      await waitUntil('the card_changed series in Prometheus', EVICTION_DEADLINE_MS, async () => {
        const r = await getJson(
          `${promUrl}/api/v1/query?query=${encodeURIComponent('a2a_client_card_drift_total{a2a_drift_kind="card_changed"}')}`,
        );
        return r.data.result.length > 0 || undefined;
      });
      await waitUntil(
        'two re-sends of the notification',
        EVICTION_DEADLINE_MS,
        () => plain.notifications.length >= 3 || undefined,
      );
      await sleep(3 * POLL_MS + 3000);

      const prom = await getJson(`${promUrl}/api/v1/alerts`);
      const kinds = prom.data.alerts.map(
        (a: { labels: Record<string, string> }) => a.labels.a2a_drift_kind,
      );
      assert.ok(kinds.includes('unknown_skill'), JSON.stringify(prom.data.alerts));
      assert.ok(
        !kinds.includes('card_changed'),
        `card_changed raised an alert: ${JSON.stringify(prom.data.alerts)}`,
      );
      const am = await getJson(`${amUrl}/api/v2/alerts`);
      assert.ok(
        !am.some(
          (a: { labels: Record<string, string> }) => a.labels.a2a_drift_kind === 'card_changed',
        ),
      );

      // A: its own unknown_skill and its re-fetch's card_changed, nothing from the fleet (debounced per card URL).
      assert.deepEqual(
        drifts(A)
          .map((d) => `${d.source ?? 'local'}:${d.kind}`)
          .sort(),
        ['local:card_changed', 'local:unknown_skill'],
      );
      for (const p of [B, C]) {
        assert.deepEqual(
          drifts(p).map((d) => `${d.source}:${d.kind}`),
          ['fleet:unknown_skill'],
          `${p.name} acted more than once`,
        );
      }
      for (const p of [A, B, C])
        assert.deepEqual(
          lines(p).filter((l) => l.type === 'error'),
          [],
          p.name,
        );
    });
  },
);
