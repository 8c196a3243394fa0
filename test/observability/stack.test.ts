/**
 * The observability stack of examples/observability/, live: real programs, nothing mocked.
 *
 *   demo fleet / instances (node --require dist/cjs/register.js, OTLP/HTTP)
 *     --> otelcol (built from test/observability/collector/, runs otel-collector.yaml)
 *           --> jaeger v2 (built from test/observability/jaeger/, runs jaeger.yaml)
 *           --> spanmetrics --> :prometheus exporter <--scrape-- Prometheus 3 (built from
 *               test/observability/prometheus/; prometheus.yaml + alerts.yaml)
 *     instances' metrics --OTLP--> Prometheus 3's own receiver (--web.enable-otlp-receiver):
 *               the same Prometheus (default translation), and a second one with
 *               `otlp: translation_strategy: NoUTF8EscapingWithSuffixes` (UTF-8 names)
 *     both Prometheus --> Alertmanager 0.35 (built from test/observability/alertmanager/;
 *               alertmanager.yml) --webhook--> instances + a plain receiver
 *
 * The Collector and Jaeger configs run UNCHANGED: they read their addresses from the
 * environment (`${env:NAME:-default}`), and this test sets loopback ports and a 1 s
 * span-metrics flush. prometheus.yaml and alertmanager.yml are parsed and given the test's
 * addresses and short intervals (scrape / evaluation 1 s, group_wait 1 s), as
 * test/e2e/fleet-live.test.ts does; alerts.yaml is loaded as shipped. Tempo's exporter points
 * at a closed port (Tempo and Grafana are not run: AGPL).
 *
 *   bash scripts/observability/build.sh     # the two Go builds, cached
 *   npm run build && node --import tsx --test test/observability/stack.test.ts
 *
 * Binaries: A2A_OTELCOL_BIN / A2A_JAEGER_BIN / A2A_PROMETHEUS_BIN / A2A_ALERTMANAGER_BIN, else
 * scripts/observability/build.sh is run (cached). Without them and without Go the test is
 * skipped locally and fails under CI.
 * The Jaeger UI screenshot needs a built Jaeger UI (A2A_JAEGER_UI_ASSETS, a directory with
 * index.html: scripts/observability/jaeger-ui.sh builds it from a jaeger-ui v1.75.0 checkout) and Chromium (/usr/bin/chromium); it writes A2A_SCREENSHOT_OUT (default: a temp file).
 * Prints the versions it ran, and the latencies from the drifting call to the span in Jaeger,
 * to the alert and to the other instance's eviction (span metrics; OTLP straight into
 * Prometheus under each translation).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startSdkPeer, DEFAULT_SKILL, TRANSLATE_SKILL, type SdkPeer } from '../peers/sdk-peer';
import { cleanEnv } from '../helpers/clean-env';
import { startPlainReceiver } from '../helpers/alertmanager';

const REPO = path.resolve(__dirname, '..', '..');
const OBS = path.join(REPO, 'examples', 'observability');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const INSTANCE_APP = path.join(REPO, 'test', 'e2e', 'fleet', 'instance-app.js');
const ODD_APP = path.join(__dirname, 'odd-skill-app.js');
const TOKEN = 'stack-live-test-token-0123456789';
const DEMO_SERVICE = 'a2a-fleet-demo';
/**
 * The demo's findings: its summary line, without the number of GetTask polls. The client polls
 * every 20 ms until a task ends, so that number follows the agents' timing (17 or 18 in runs of
 * the same build); what the instrumentation must not change is the rest: tasks, attempts, card
 * fetches, drifts, card changes, evictions.
 */
function demoFindings(stdout: string): string | undefined {
  return /^Summary: .*$/m.exec(stdout)?.[0].replace(/\d+ GetTask polls/, 'N GetTask polls');
}
const INSTANCES_SERVICE = 'a2a-fleet-instances';
const ODD_SERVICE = 'a2a-odd-skill';
const ODD_SKILL_ID = 'résumé "v2" \\ ✓ 技能';
const DEADLINE_MS = 60_000;

// ---------------------------------------------------------------------------------------
// What is needed

function onPath(names: string[], arg = '--version'): string | undefined {
  for (const n of names) {
    const r = spawnSync(n, [arg], { encoding: 'utf8', timeout: 10_000 });
    if (!r.error) return n;
  }
  return undefined;
}

const BIN_VARS = [
  'A2A_OTELCOL_BIN',
  'A2A_JAEGER_BIN',
  'A2A_PROMETHEUS_BIN',
  'A2A_PROMTOOL_BIN',
  'A2A_ALERTMANAGER_BIN',
] as const;
const GO = onPath(['go'], 'version');
const MISSING =
  !BIN_VARS.every((v) => process.env[v]) && !GO
    ? 'go (to build the Collector, Jaeger, Prometheus 3, its promtool and Alertmanager 0.35)'
    : '';
const SKIP = MISSING
  ? `${MISSING} not found; the live observability stack test did not run`
  : false;
if (SKIP && process.env.CI) {
  test('observability stack: its programs are installed', () =>
    assert.fail(`${SKIP}; CI must install them (.ci/run)`));
}

interface Binaries {
  otelcol: string;
  jaeger: string;
  prometheus: string;
  promtool: string;
  alertmanager: string;
}

/** The five binaries: from the environment, else built (cached) by the script. */
function binaries(): Binaries {
  const env = (v: (typeof BIN_VARS)[number]) => process.env[v] || undefined;
  let otelcol = env('A2A_OTELCOL_BIN');
  let jaeger = env('A2A_JAEGER_BIN');
  let prometheus = env('A2A_PROMETHEUS_BIN');
  let promtool = env('A2A_PROMTOOL_BIN');
  let alertmanager = env('A2A_ALERTMANAGER_BIN');
  if (!otelcol || !jaeger || !prometheus || !promtool || !alertmanager) {
    const r = spawnSync('bash', [path.join(REPO, 'scripts', 'observability', 'build.sh')], {
      cwd: REPO,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 40 * 60_000,
    });
    assert.equal(r.status, 0, `scripts/observability/build.sh failed (exit ${r.status})`);
    const vars = Object.fromEntries(
      r.stdout
        .trim()
        .split(/\s+/)
        .map((kv) => kv.split('=') as [string, string]),
    );
    otelcol ??= vars.A2A_OTELCOL_BIN;
    jaeger ??= vars.A2A_JAEGER_BIN;
    prometheus ??= vars.A2A_PROMETHEUS_BIN;
    promtool ??= vars.A2A_PROMTOOL_BIN;
    alertmanager ??= vars.A2A_ALERTMANAGER_BIN;
  }
  assert.ok(otelcol && fs.existsSync(otelcol), `no Collector binary (${otelcol})`);
  assert.ok(jaeger && fs.existsSync(jaeger), `no Jaeger binary (${jaeger})`);
  assert.ok(prometheus && fs.existsSync(prometheus), `no Prometheus binary (${prometheus})`);
  assert.ok(promtool && fs.existsSync(promtool), `no promtool binary (${promtool})`);
  assert.ok(
    alertmanager && fs.existsSync(alertmanager),
    `no Alertmanager binary (${alertmanager})`,
  );
  return { otelcol, jaeger, prometheus, promtool, alertmanager };
}

// ---------------------------------------------------------------------------------------
// Helpers

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A free loopback port BELOW the kernel's ephemeral range (32768-60999 on Linux): a port
 * picked there and bound seconds later by a program (Prometheus, Jaeger, ...) can meanwhile be
 * handed to any outgoing connection or port-0 listener on the machine; below it, only another
 * explicit bind can take it.
 */
const takenPorts = new Set<number>();
async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (takenPorts.has(candidate)) continue;
    const srv = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      srv.once('error', () => resolve(false));
      srv.listen(candidate, '127.0.0.1', () => resolve(true));
    });
    if (!ok) continue;
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    takenPorts.add(candidate);
    return candidate;
  }
}

async function waitUntil<T>(
  what: string,
  deadlineMs: number,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  everyMs = 100,
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
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
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
  exited: Promise<number | null>;
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
    exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
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
  const stopped = await Promise.race([p.exited.then(() => true), sleep(5000).then(() => false)]);
  if (!stopped) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

function diagnostics(): string {
  return procs
    .map(
      (p) =>
        `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'})\n${p.stdout.slice(-2000)}\n${p.stderr.slice(-2000)}`,
    )
    .join('\n');
}

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

/** Runs a node program under the register entry to its end; its exit code and output. */
async function runApp(
  name: string,
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startProc(name, process.execPath, ['--require', REGISTER_CJS, script], {
    env: cleanEnv(env),
  });
  const code = await p.exited;
  return { code, stdout: p.stdout, stderr: p.stderr };
}

/**
 * The fleet route for alerts that name their card by the dotted label only, which
 * alertmanager.yml ships commented out between two marker lines (Alertmanager 0.25 refuses
 * quoted UTF-8 names): uncommented and parsed, as a user enables it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function dottedRoute(): any {
  const text = fs.readFileSync(path.join(OBS, 'alertmanager.yml'), 'utf8');
  const m = /# a2a-fleet-utf8-route-begin\n([\s\S]*?)\n\s*# a2a-fleet-utf8-route-end/.exec(text);
  assert.ok(m, 'alertmanager.yml: no commented route between the a2a-fleet-utf8-route markers');
  const yaml = m[1]!
    .split('\n')
    .map((l) => l.replace(/^(\s*)# ?/, '$1'))
    .join('\n');
  const routes = parse(yaml);
  assert.ok(Array.isArray(routes) && routes.length === 1, yaml);
  return routes[0];
}

// ---------------------------------------------------------------------------------------
// Jaeger's HTTP API (the one its UI uses)

interface JaegerTag {
  key: string;
  type: string;
  value: unknown;
}
interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  startTime: number;
  tags: JaegerTag[];
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

const tag = (s: JaegerSpan, key: string): unknown => s.tags.find((t) => t.key === key)?.value;

// ---------------------------------------------------------------------------------------

describe(
  'observability stack, live (Collector, Jaeger v2, Prometheus 3, Alertmanager 0.35: built from their Go modules)',
  { skip: SKIP, timeout: 15 * 60_000 },
  () => {
    let tmp: string;
    let bins: Binaries;
    const port: Record<string, number> = {};
    let promUrl: string;
    /** The second Prometheus: OTLP in under NoUTF8EscapingWithSuffixes (UTF-8 names). */
    let promUtf8Url: string;
    let amUrl: string;
    let jaegerUrl: string;
    let otlpUrl: string;
    let collector: Proc;
    let jaeger: Proc;
    let plain: Awaited<ReturnType<typeof startPlainReceiver>>;
    let peer: SdkPeer;
    let A: Proc;
    let B: Proc;
    let startedAt = 0;
    const uiAssets = process.env.A2A_JAEGER_UI_ASSETS;

    const collectorEnv = (): NodeJS.ProcessEnv =>
      cleanEnv({
        OTELCOL_OTLP_GRPC_ENDPOINT: `127.0.0.1:${port.otlpGrpc}`,
        OTELCOL_OTLP_HTTP_ENDPOINT: `127.0.0.1:${port.otlpHttp}`,
        OTELCOL_JAEGER_ENDPOINT: `127.0.0.1:${port.jaegerOtlpGrpc}`,
        OTELCOL_TEMPO_ENDPOINT: `127.0.0.1:${port.tempoClosed}`,
        OTELCOL_PROMETHEUS_ENDPOINT: `127.0.0.1:${port.promExporter}`,
        OTELCOL_HEALTH_ENDPOINT: `127.0.0.1:${port.otelHealth}`,
        OTELCOL_TELEMETRY_HOST: '127.0.0.1',
        OTELCOL_TELEMETRY_PORT: String(port.otelTelemetry),
        SPANMETRICS_FLUSH_INTERVAL: '1s',
      });
    const jaegerEnv = (): NodeJS.ProcessEnv =>
      cleanEnv({
        JAEGER_OTLP_GRPC_ENDPOINT: `127.0.0.1:${port.jaegerOtlpGrpc}`,
        JAEGER_OTLP_HTTP_ENDPOINT: `127.0.0.1:${port.jaegerOtlpHttp}`,
        JAEGER_QUERY_HTTP_ENDPOINT: `127.0.0.1:${port.jaegerQuery}`,
        JAEGER_QUERY_GRPC_ENDPOINT: `127.0.0.1:${port.jaegerQueryGrpc}`,
        JAEGER_HEALTH_ENDPOINT: `127.0.0.1:${port.jaegerHealth}`,
        JAEGER_TELEMETRY_HOST: '127.0.0.1',
        JAEGER_TELEMETRY_PORT: String(port.jaegerTelemetry),
        PROMETHEUS_URL: promUrl,
        // Jaeger's own traces (its OTel SDK, default localhost:4317): not wanted here.
        OTEL_TRACES_EXPORTER: 'none',
        ...(uiAssets ? { JAEGER_UI_ASSETS_PATH: uiAssets } : {}),
      });

    async function startCollector(): Promise<Proc> {
      const p = startProc(
        'otelcol',
        bins.otelcol,
        [`--config=${path.join(OBS, 'otel-collector.yaml')}`],
        { env: collectorEnv(), cwd: tmp },
      );
      await waitUntil('the Collector healthy', DEADLINE_MS, () =>
        ready(`http://127.0.0.1:${port.otelHealth}/`),
      );
      return p;
    }
    async function startJaeger(): Promise<Proc> {
      const p = startProc('jaeger', bins.jaeger, [`--config=${path.join(OBS, 'jaeger.yaml')}`], {
        env: jaegerEnv(),
        cwd: tmp,
      });
      await waitUntil('Jaeger ready', DEADLINE_MS, () =>
        ready(`http://127.0.0.1:${port.jaegerHealth}/status`),
      );
      await waitUntil('Jaeger query API', DEADLINE_MS, () => ready(`${jaegerUrl}/api/services`));
      return p;
    }

    async function jaegerTraces(
      service: string,
      tags: Record<string, string>,
      startUs?: number,
    ): Promise<JaegerTrace[]> {
      const q = new URLSearchParams({
        service,
        tags: JSON.stringify(tags),
        lookback: '1h',
        limit: '100',
      });
      if (startUs !== undefined) {
        q.set('start', String(startUs));
        q.set('end', String(Date.now() * 1000 + 60_000_000));
        q.delete('lookback');
      }
      const r = await getJson(`${jaegerUrl}/api/traces?${q}`);
      return (r.data ?? []) as JaegerTrace[];
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function promQuery(expr: string, url = promUrl): Promise<any[]> {
      const r = await getJson(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      assert.equal(r.status, 'success', JSON.stringify(r));
      return r.data.result;
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function firingAlerts(url = promUrl): Promise<any[]> {
      const r = await getJson(`${url}/api/v1/alerts`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return r.data.alerts.filter((a: any) => a.state === 'firing');
    }

    before(async () => {
      assert.ok(
        fs.existsSync(REGISTER_CJS),
        `${path.relative(REPO, REGISTER_CJS)} is missing (run npm run build first)`,
      );
      bins = binaries();
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-stack-live-'));
      // Bound before the ports below are picked: a port 0 listener opened later could be
      // handed one of them (freed by freePort, not yet taken by its program).
      plain = await startPlainReceiver();
      for (const k of [
        'otlpGrpc',
        'otlpHttp',
        'jaegerOtlpGrpc',
        'jaegerOtlpHttp',
        'jaegerQuery',
        'jaegerQueryGrpc',
        'jaegerHealth',
        'jaegerTelemetry',
        'tempoClosed',
        'promExporter',
        'otelHealth',
        'otelTelemetry',
        'prom',
        'promUtf8',
        'promNoOtlp',
        'am',
        'webhookB',
        'webhookDefault',
        'webhookUtf8',
      ])
        port[k] = await freePort();
      promUrl = `http://127.0.0.1:${port.prom}`;
      promUtf8Url = `http://127.0.0.1:${port.promUtf8}`;
      amUrl = `http://127.0.0.1:${port.am}`;
      jaegerUrl = `http://127.0.0.1:${port.jaegerQuery}`;
      otlpUrl = `http://127.0.0.1:${port.otlpHttp}`;

      // prometheus.yaml with the test's addresses and 1 s intervals; alerts.yaml as shipped.
      const prom = parse(fs.readFileSync(path.join(OBS, 'prometheus.yaml'), 'utf8'));
      prom.global.scrape_interval = '1s';
      prom.global.evaluation_interval = '1s';
      prom.rule_files = prom.rule_files.map((f: string) => path.resolve(OBS, f));
      prom.alerting.alertmanagers[0].static_configs = [{ targets: [`127.0.0.1:${port.am}`] }];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const jobs = prom.scrape_configs.map((j: any) => j.job_name);
      assert.deepEqual(jobs, ['otel-collector', 'prometheus']);
      prom.scrape_configs[0].static_configs = [{ targets: [`127.0.0.1:${port.promExporter}`] }];
      prom.scrape_configs[1].static_configs = [{ targets: [`127.0.0.1:${port.prom}`] }];
      fs.writeFileSync(path.join(tmp, 'prometheus.yaml'), stringify(prom));
      // The second Prometheus: the same rules and Alertmanager, nothing scraped, OTLP in with
      // OpenTelemetry's own names kept (the counter is `a2a.client.card_drift_total`).
      fs.writeFileSync(
        path.join(tmp, 'prometheus-utf8.yaml'),
        stringify({
          ...prom,
          scrape_configs: [],
          otlp: { translation_strategy: 'NoUTF8EscapingWithSuffixes' },
        }),
      );

      // alertmanager.yml with the fleet route's waits at 1 s and the instances' webhooks.
      const am = parse(fs.readFileSync(path.join(OBS, 'alertmanager.yml'), 'utf8'));
      type Route = { receiver: string; group_by?: string[] };
      type Receiver = { name: string; webhook_configs?: unknown[] };
      const fleet = (am.route.routes as Route[]).find(
        (r) =>
          (r.group_by ?? []).includes('a2a_agent_card_url') &&
          // the stale-callers route groups by the card too, and reaches no webhook
          (am.receivers as Receiver[]).some((x) => x.name === r.receiver && x.webhook_configs),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
      ) as any;
      assert.ok(fleet, 'alertmanager.yml has no route grouping by a2a_agent_card_url');
      fleet.group_wait = '1s';
      fleet.group_interval = '1s';
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const receiver = am.receivers.find((r: any) => r.name === fleet.receiver);
      const template = receiver.webhook_configs[0];
      receiver.webhook_configs = [
        ...[port.webhookB, port.webhookDefault, port.webhookUtf8].map(
          (p) => `http://127.0.0.1:${p}/a2a/alerts`,
        ),
        plain.url,
      ].map((url) => ({
        ...template,
        url,
        http_config: {
          ...template.http_config,
          authorization: { ...template.http_config.authorization, credentials: TOKEN },
        },
      }));
      // The route alertmanager.yml ships commented out (Alertmanager 0.27 or later) for alerts
      // that name their card only by the dotted label: taken from the file, uncommented.
      const dotted = dottedRoute();
      assert.equal(dotted.receiver, fleet.receiver);
      Object.assign(dotted, { group_wait: '1s', group_interval: '1s' });
      am.route.routes.splice(am.route.routes.indexOf(fleet) + 1, 0, dotted);
      fs.writeFileSync(path.join(tmp, 'alertmanager.yml'), stringify(am));

      startProc(
        'alertmanager',
        bins.alertmanager,
        [
          `--config.file=${path.join(tmp, 'alertmanager.yml')}`,
          `--storage.path=${path.join(tmp, 'am-data')}`,
          `--web.listen-address=127.0.0.1:${port.am}`,
          '--cluster.listen-address=',
          '--log.level=warn',
        ],
        { cwd: tmp },
      );
      const startPrometheus = (name: string, config: string, listen: number, otlp = true) =>
        startProc(
          name,
          bins.prometheus,
          [
            `--config.file=${path.join(tmp, config)}`,
            `--storage.tsdb.path=${path.join(tmp, `${name}-data`)}`,
            `--web.listen-address=127.0.0.1:${listen}`,
            ...(otlp ? ['--web.enable-otlp-receiver'] : []),
            '--log.level=warn',
          ],
          { cwd: tmp },
        );
      startPrometheus('prometheus', 'prometheus.yaml', port.prom);
      startPrometheus('prometheus-utf8', 'prometheus-utf8.yaml', port.promUtf8);
      // A Prometheus 3 whose OTLP receiver is off (its default): what an app pointed at it gets.
      fs.writeFileSync(
        path.join(tmp, 'prometheus-no-otlp.yaml'),
        stringify({ global: prom.global }),
      );
      startPrometheus('prometheus-no-otlp', 'prometheus-no-otlp.yaml', port.promNoOtlp, false);
      jaeger = await startJaeger();
      collector = await startCollector();
      await Promise.all([
        waitUntil('Alertmanager ready', DEADLINE_MS, () => ready(`${amUrl}/-/ready`)),
        ...[port.prom, port.promUtf8, port.promNoOtlp].map((p) =>
          waitUntil(`Prometheus :${p} ready`, DEADLINE_MS, () =>
            ready(`http://127.0.0.1:${p}/-/ready`),
          ),
        ),
      ]);
      // The versions this test is about (the binaries of build.sh, not a package on PATH).
      const promVersion = (await getJson(`${promUrl}/api/v1/status/buildinfo`)).data.version;
      const amVersion = (await getJson(`${amUrl}/api/v2/status`)).versionInfo.version;
      assert.match(promVersion, /^3\./, 'Prometheus 3');
      assert.match(
        amVersion,
        /^0\.(2[7-9]|[3-9]\d)\./,
        'Alertmanager 0.27 or later (UTF-8 matchers)',
      );
      console.log(`stack-live: Prometheus ${promVersion}, Alertmanager ${amVersion}`);
      await waitUntil('Prometheus scraping the Collector', DEADLINE_MS, async () => {
        const r = await promQuery('up{job="otel-collector"} == 1');
        return r.length === 1 || undefined;
      });
      startedAt = Date.now();
    });

    after(async () => {
      for (const p of [A, B]) p?.child.stdin?.end('exit\n');
      await Promise.all(procs.map(stopProc));
      await plain?.close();
      await peer?.close();
      for (const p of morePeers) await p.close();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    });

    /** One instance of test/e2e/fleet/instance-app.js (a client of `to`), under the register entry. */
    const startInstance = (
      name: string,
      to: SdkPeer,
      service: string,
      extra: Record<string, string>,
    ): Proc =>
      startProc(name, process.execPath, ['--require', REGISTER_CJS, INSTANCE_APP], {
        stdin: true,
        env: cleanEnv({
          INSTANCE: name,
          PEER_URL: to.baseUrl,
          SKILL_ID: DEFAULT_SKILL.id,
          OTEL_SERVICE_NAME: service,
          ...extra,
        }),
      });
    const morePeers: SdkPeer[] = [];

    const demoEnv = (endpoint: string): Record<string, string> => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: DEMO_SERVICE,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS: '0',
    });
    let demoOut = '';

    test('the demo fleet (variants A and B) under the register entry, exporting OTLP to the Collector: exit 0, both drifts caught', async () => {
      const r = await runApp(
        'demo',
        path.join(REPO, 'examples', 'fleet-demo.js'),
        demoEnv(otlpUrl),
      );
      demoOut = r.stdout;
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /OK: everything expected was caught/);
      assert.match(r.stdout, /unknown_skill@peer-a\/summarize-v2/);
      assert.match(r.stdout, /output_mode_mismatch@peer-b\/summarize-v2/);
      assert.match(r.stdout, new RegExp(`traces: OTLP/HTTP → ${otlpUrl}/v1/traces`));
    });

    test('Jaeger: the drifted calls are found by tag a2a.drift.kind, with skill id and card fingerprint, in the caller’s trace', async () => {
      assert.ok(demoOut, 'the demo did not run');
      for (const [kind, agent] of [
        ['unknown_skill', 'peer-a'],
        ['output_mode_mismatch', 'peer-b'],
      ] as const) {
        const traces = await waitUntil(
          `Jaeger: a trace with a2a.drift.kind=${kind}`,
          DEADLINE_MS,
          async () => {
            const t = await jaegerTraces(DEMO_SERVICE, { 'a2a.drift.kind': kind });
            return t.length > 0 ? t : undefined;
          },
        );
        assert.equal(
          traces.length,
          1,
          `one drifted call of kind ${kind}: ${traces.map((t) => t.traceID)}`,
        );
        const trace: JaegerTrace = (await getJson(`${jaegerUrl}/api/traces/${traces[0]!.traceID}`))
          .data[0];
        const drifted = trace.spans.filter((s) => tag(s, 'a2a.drift.kind') === kind);
        assert.equal(drifted.length, 1, JSON.stringify(trace.spans.map((s) => s.operationName)));
        const span = drifted[0]!;
        assert.equal(
          trace.processes[span.processID]!.serviceName,
          DEMO_SERVICE,
          'the caller’s trace',
        );
        assert.equal(tag(span, 'a2a.skill.id'), 'summarize-v2');
        assert.match(String(tag(span, 'a2a.agent_card.fingerprint')), /^[0-9a-f]{64}$/);
        assert.equal(tag(span, 'gen_ai.agent.name'), agent);
        assert.match(
          String(tag(span, 'a2a.agent_card.url')),
          /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/,
        );
        assert.equal(tag(span, 'span.kind'), 'client');
        if (kind === 'unknown_skill') assert.equal(tag(span, 'error'), true);
        // Nothing else of the caller's trace is flagged.
        for (const s of trace.spans.filter((x) => x !== span))
          assert.equal(tag(s, 'a2a.drift.kind'), undefined, s.operationName);
      }
      // Healthy calls are there too, unflagged (the search is not returning everything).
      const all = await jaegerTraces(DEMO_SERVICE, {});
      assert.ok(all.length > 4, `only ${all.length} traces of the demo in Jaeger`);
    });

    test('Prometheus: span-metrics series carry a2a_drift_kind; the span-metrics alert fires; card_changed does not page', async () => {
      const series = await waitUntil(
        'span-metrics series with both drift kinds',
        DEADLINE_MS,
        async () => {
          const r = await promQuery(
            `traces_span_metrics_calls_total{service_name="${DEMO_SERVICE}", a2a_drift_kind!=""}`,
          );
          const kinds = new Set(
            r.map((s: { metric: Record<string, string> }) => s.metric.a2a_drift_kind),
          );
          return ['unknown_skill', 'output_mode_mismatch', 'card_changed'].every((k) =>
            kinds.has(k),
          )
            ? r
            : undefined;
        },
      );
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const unknown = series.find((s: any) => s.metric.a2a_drift_kind === 'unknown_skill');
      assert.equal(unknown.metric.a2a_skill_id, 'summarize-v2');
      assert.equal(unknown.metric.gen_ai_agent_name, 'peer-a');
      assert.equal(unknown.metric.span_kind, 'SPAN_KIND_CLIENT');
      assert.equal(unknown.metric.status_code, 'STATUS_CODE_ERROR');
      assert.match(
        unknown.metric.a2a_agent_card_url,
        /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/,
      );
      // The duration histogram of the same connector.
      const hist = await promQuery(
        `traces_span_metrics_duration_milliseconds_bucket{service_name="${DEMO_SERVICE}", a2a_drift_kind="unknown_skill"}`,
      );
      assert.ok(hist.length > 0, 'no traces_span_metrics_duration_milliseconds_bucket series');

      const firing = await waitUntil(
        'A2ADriftSpans firing for both kinds',
        DEADLINE_MS,
        async () => {
          const a = (await firingAlerts()).filter(
            (x) => x.labels.alertname === 'A2ADriftSpans' && x.labels.service_name === DEMO_SERVICE,
          );
          const kinds = new Set(a.map((x) => x.labels.a2a_drift_kind));
          return kinds.has('unknown_skill') && kinds.has('output_mode_mismatch') ? a : undefined;
        },
      );
      for (const a of firing) {
        assert.equal(a.labels.signal, 'span_metrics_collector');
        assert.equal(
          a.labels.severity,
          a.labels.a2a_drift_kind === 'output_mode_mismatch' ? 'critical' : 'warning',
        );
        assert.equal(a.labels.a2a_skill_id, 'summarize-v2');
        assert.ok(a.labels.a2a_agent_card_url, 'the span alert names the card');
        assert.match(
          a.annotations.action,
          new RegExp(`a2a\\.drift\\.kind=${a.labels.a2a_drift_kind}`),
        );
      }
      // The counter (OTLP metrics through the Collector) fires its own alerts too.
      await waitUntil('the counter alerts', DEADLINE_MS, async () => {
        const names = new Set((await firingAlerts()).map((x) => x.labels.alertname));
        return names.has('A2AAgentCardDrift') && names.has('A2AArtifactSchemaDrift')
          ? true
          : undefined;
      });
      const all = await getJson(`${promUrl}/api/v1/alerts`);
      const changed = all.data.alerts.filter(
        (a: { labels: Record<string, string> }) => a.labels.a2a_drift_kind === 'card_changed',
      );
      assert.deepEqual(changed, [], 'card_changed raised an alert');
      const am = await getJson(`${amUrl}/api/v2/alerts`);
      assert.ok(
        !am.some(
          (a: { labels: Record<string, string> }) => a.labels.a2a_drift_kind === 'card_changed',
        ),
        'card_changed reached Alertmanager',
      );
    });

    /**
     * The dashboard's Prometheus targets (Tempo's metrics-generator panel left out) and
     * variables against the Prometheus at `url`, `$agent` = `agent`: each must return a value
     * above 0 over the run. `only` keeps the targets (and variables) whose query matches it.
     * The titles checked.
     */
    async function dashboardHasData(url: string, agent = '.*', only = /./): Promise<string[]> {
      const dash = JSON.parse(
        fs.readFileSync(path.join(OBS, 'grafana', 'dashboards', 'a2a-drift.json'), 'utf8'),
      );
      const subst = (q: string) =>
        q
          .replaceAll('$agent', agent)
          .replaceAll('$kind', '.*')
          .replaceAll('$__rate_interval', '30s');
      const checked: string[] = [];
      const start = startedAt / 1000 - 5;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const panel of dash.panels as any[]) {
        for (const t of panel.targets ?? []) {
          if (t.datasource?.type !== 'prometheus') continue;
          if (/traces_spanmetrics_calls_total/.test(t.expr)) continue; // Tempo's metrics-generator
          if (!only.test(t.expr)) continue;
          const query = subst(t.expr);
          // The dashboard's time range: from the start of the run to now; some value above 0.
          await waitUntil(`data for panel "${panel.title}": ${query}`, DEADLINE_MS, async () => {
            const q = new URLSearchParams({
              query,
              start: String(start),
              end: String(Date.now() / 1000),
              step: '1',
            });
            const r = await getJson(`${url}/api/v1/query_range?${q}`);
            assert.equal(r.status, 'success', `${panel.title}: ${JSON.stringify(r)}`);
            return (
              r.data.result.some((series: { values: [number, string][] }) =>
                series.values.some(([, v]) => Number(v) > 0),
              ) || undefined
            );
          });
          checked.push(panel.title);
        }
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const v of dash.templating.list as any[]) {
        const m = /^label_values\((\w+), (\w+)\)$/.exec(v.definition);
        assert.ok(m, v.definition);
        if (!only.test(m[1]!)) continue;
        const r = await getJson(
          `${url}/api/v1/label/${m[2]}/values?${new URLSearchParams({ 'match[]': m[1]!, start: String(start), end: String(Date.now() / 1000) })}`,
        );
        assert.ok(r.data.length > 0, `variable ${v.name}: no values`);
        checked.push(`variable ${v.name}`);
      }
      return checked;
    }

    test('every Prometheus target of grafana/dashboards/a2a-drift.json returns data (Tempo’s panel: not run)', async () => {
      const checked = await dashboardHasData(promUrl);
      // 8 panels (the two of the agent's side among them: the demo's round 4 makes both
      // stale-caller kinds) and the 2 variables
      assert.equal(checked.length, 10, checked.join(', '));
      for (const title of [
        'Calls from stale callers, per agent, by kind and skill',
        'Callers on an older card (caller_card_stale), per agent',
      ])
        assert.ok(checked.includes(title), `${title}: ${checked.join(', ')}`);
    });

    test('the span-metrics alert is routed to the instances’ webhook and the fleet evicts (traces only, no metrics exported)', async () => {
      peer = await startSdkPeer({ name: 'Summarizer', skills: [DEFAULT_SKILL] });
      const instance = (name: string, extra: Record<string, string>): Proc =>
        startInstance(name, peer, INSTANCES_SERVICE, { OTEL_METRICS_EXPORTER: 'none', ...extra });
      A = instance('A', {
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      });
      B = instance('B', {
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port.webhookB),
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
      });
      for (const p of [A, B])
        await waitUntil(
          `instance ${p.name} ready`,
          DEADLINE_MS,
          () => lines(p).some((l) => l.type === 'ready') || undefined,
        );

      peer.redeploy([TRANSLATE_SKILL]); // same card version; the cached skill is gone
      A.child.stdin!.write('call\n');
      const failing = await waitUntil("A's failing call", DEADLINE_MS, () =>
        lines(A).find((l) => l.type === 'call-start' && l.n === 2),
      );
      const t0 = failing.t;
      const span = await waitUntil(
        'the drift span in Jaeger',
        DEADLINE_MS,
        async () => {
          const t = await jaegerTraces(INSTANCES_SERVICE, { 'a2a.drift.kind': 'unknown_skill' });
          return t.length > 0 ? Date.now() : undefined;
        },
        20,
      );
      const alert = await waitUntil(
        'A2ADriftSpans for the card in Prometheus',
        DEADLINE_MS,
        async () =>
          (await firingAlerts()).find(
            (a) =>
              a.labels.alertname === 'A2ADriftSpans' &&
              a.labels.a2a_agent_card_url === peer.cardUrl,
          ),
        50,
      );
      const seenFiring = Date.now();
      assert.equal(alert.labels.service_name, INSTANCES_SERVICE);
      assert.equal(alert.labels.a2a_skill_id, DEFAULT_SKILL.id);
      assert.equal(alert.labels.gen_ai_agent_name, 'Summarizer');

      const note = await waitUntil(
        'the notification at the plain receiver',
        DEADLINE_MS,
        () =>
          plain.notifications.find((n) =>
            (n.body?.alerts ?? []).some(
              (a: { status: string; labels: Record<string, string> }) =>
                a.status === 'firing' &&
                a.labels.alertname === 'A2ADriftSpans' &&
                a.labels.a2a_agent_card_url === peer.cardUrl,
            ),
          ),
        50,
      );
      assert.equal(note.authorization, `Bearer ${TOKEN}`);
      assert.deepEqual(note.body.groupLabels, { a2a_agent_card_url: peer.cardUrl });
      const evicted = await waitUntil(
        "B's fleet eviction",
        DEADLINE_MS,
        () =>
          lines(B).find(
            (l) => l.type === 'drift' && l.source === 'fleet' && l.cardUrl === peer.cardUrl,
          ),
        50,
      );
      assert.equal(evicted.kind, 'unknown_skill');
      assert.equal(evicted.skillId, DEFAULT_SKILL.id);
      assert.equal(evicted.evicted, true);
      assert.equal(lines(B).filter((l) => l.type === 'call-start').length, 1, 'B called the peer');
      console.log(
        `stack-live: from A's drifting call: span in Jaeger ${span - t0} ms, span-metrics alert firing in Prometheus ${seenFiring - t0} ms (activeAt ${new Date(alert.activeAt).getTime() - t0} ms), webhook ${note.t - t0} ms, B evicted ${evicted.t - t0} ms (OTEL_BSP_SCHEDULE_DELAY 200 ms; span-metrics flush, scrape, evaluation and group_wait 1 s)`,
      );
    });

    test('a skill id with quotes, a backslash and non-ASCII stays one series and is queryable (Prometheus and Jaeger)', async () => {
      const r = await runApp('odd', ODD_APP, {
        ODD_SKILL_ID,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_SERVICE_NAME: ODD_SERVICE,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
      });
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
      assert.deepEqual(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        out.events.filter((e: any) => e.kind === 'unknown_skill').map((e: any) => e.skillId),
        [ODD_SKILL_ID],
      );
      // JSON string syntax is PromQL string syntax for these characters.
      const selector = `traces_span_metrics_calls_total{service_name="${ODD_SERVICE}", a2a_skill_id=${JSON.stringify(ODD_SKILL_ID)}, a2a_drift_kind="unknown_skill"}`;
      const exact = await waitUntil('the odd skill id’s drift series', DEADLINE_MS, async () => {
        const s = await promQuery(selector);
        return s.length > 0 ? s : undefined;
      });
      assert.equal(exact.length, 1, JSON.stringify(exact));
      assert.equal(exact[0].metric.a2a_skill_id, ODD_SKILL_ID);
      const ids = await promQuery(
        `count by (a2a_skill_id) (traces_span_metrics_calls_total{service_name="${ODD_SERVICE}", a2a_skill_id!="", a2a_skill_id!="translate-v1"})`,
      );
      assert.deepEqual(
        ids.map((s: { metric: Record<string, string> }) => s.metric.a2a_skill_id),
        [ODD_SKILL_ID],
        'one skill id value, not split or escaped differently per span',
      );
      const alert = await waitUntil('A2ADriftSpans for the odd skill', DEADLINE_MS, async () =>
        (await firingAlerts()).find((a) => a.labels.a2a_skill_id === ODD_SKILL_ID),
      );
      assert.equal(alert.labels.a2a_drift_kind, 'unknown_skill');
      const traces = await waitUntil('Jaeger: the odd skill id by tag', DEADLINE_MS, async () => {
        const t = await jaegerTraces(ODD_SERVICE, {
          'a2a.skill.id': ODD_SKILL_ID,
          'a2a.drift.kind': 'unknown_skill',
        });
        return t.length > 0 ? t : undefined;
      });
      assert.equal(traces.length, 1);
    });

    test('the Collector and Jaeger restarted mid-run: the app’s calls and exit unchanged, spans after the restart arrive', async () => {
      assert.ok(A && B, 'the fleet step did not run');
      const callOnce = async (n: number) => {
        A.child.stdin!.write('call\n');
        return waitUntil(`A's call ${n}`, DEADLINE_MS, () =>
          lines(A).find((l) => l.type === 'call-end' && l.n === n),
        );
      };
      let n = lines(A).filter((l) => l.type === 'call-end').length;
      // Collector down: A's call completes as it does with the Collector up.
      await stopProc(collector);
      const down = await callOnce(++n);
      assert.equal(down.state, 'TASK_STATE_COMPLETED');
      const restartedUs = Date.now() * 1000;
      collector = await startCollector();
      const up = await callOnce(++n);
      assert.equal(up.state, 'TASK_STATE_COMPLETED');
      await waitUntil(
        'a span of A after the Collector restart in Jaeger',
        DEADLINE_MS,
        async () => {
          const t = await jaegerTraces(INSTANCES_SERVICE, {}, restartedUs);
          return t.length > 0 || undefined;
        },
      );
      // Jaeger down (in-memory storage: it comes back empty).
      await stopProc(jaeger);
      const jdown = await callOnce(++n);
      assert.equal(jdown.state, 'TASK_STATE_COMPLETED');
      jaeger = await startJaeger();
      const jRestartedUs = Date.now() * 1000;
      const jup = await callOnce(++n);
      assert.equal(jup.state, 'TASK_STATE_COMPLETED');
      await waitUntil('a span of A after the Jaeger restart', DEADLINE_MS, async () => {
        const t = await jaegerTraces(INSTANCES_SERVICE, {}, jRestartedUs);
        return t.length > 0 || undefined;
      });
      assert.deepEqual(
        lines(A).filter((l) => l.type === 'error'),
        [],
      );
      // The demo with no Collector at its endpoint: the same findings and exit code.
      const nowhere = await runApp(
        'demo-no-collector',
        path.join(REPO, 'examples', 'fleet-demo.js'),
        demoEnv(`http://127.0.0.1:${port.tempoClosed}`),
      );
      assert.equal(nowhere.code, 0, `${nowhere.stdout}\n${nowhere.stderr}`);
      assert.ok(demoFindings(demoOut), 'the demo printed its summary');
      assert.equal(demoFindings(nowhere.stdout), demoFindings(demoOut));
      assert.match(nowhere.stdout, /OK: everything expected was caught/);
    });

    test('Prometheus 3’s promtool: alerts.yaml and prometheus.yaml check, and the rule unit tests pass under the classic names (alerts.test.yaml) and under UTF-8 names (alerts-utf8.test.yaml)', () => {
      const run = (args: string[], cwd: string): string => {
        const r = spawnSync(bins.promtool, args, { cwd, encoding: 'utf8', timeout: 60_000 });
        assert.equal(r.status, 0, `promtool ${args.join(' ')}\n${r.stdout}${r.stderr}`);
        return `${r.stdout}${r.stderr}`;
      };
      assert.match(run(['--version'], OBS), /version 3\./);
      run(['check', 'rules', 'alerts.yaml'], OBS);
      run(['check', 'config', 'prometheus.yaml'], OBS);
      run(['test', 'rules', 'alerts.test.yaml'], OBS);
      run(['test', 'rules', 'alerts-utf8.test.yaml'], __dirname);
    });

    // OTLP straight into Prometheus 3 (no Collector in the metrics path), under its default
    // translation and with OpenTelemetry's own names kept: the same alert, the same eviction.
    for (const mode of ['default', 'utf8'] as const) {
      const setting =
        mode === 'default'
          ? 'default translation: a2a_client_card_drift_total{a2a_drift_kind}'
          : 'NoUTF8EscapingWithSuffixes: a2a.client.card_drift_total{a2a.drift.kind}';
      test(`metrics straight into Prometheus 3 over OTLP (${setting}): A2AAgentCardDrift fires with the underscored labels, the span-metrics alert is inhibited, the dashboard has data, another instance evicts`, async () => {
        const url = mode === 'default' ? promUrl : promUtf8Url;
        const service = `a2a-otlp-${mode}`;
        const agent = `Summarizer ${mode}`;
        const to = await startSdkPeer({ name: agent, skills: [DEFAULT_SKILL] });
        morePeers.push(to);
        const caller = startInstance(`A-${mode}`, to, service, {
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${url}/api/v1/otlp/v1/metrics`,
          OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
          OTEL_METRIC_EXPORT_INTERVAL: '500',
          // Traces to the Collector: its span-metrics alert is the one the counter's inhibits.
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlpUrl}/v1/traces`,
          OTEL_BSP_SCHEDULE_DELAY: '200',
        });
        const other = startInstance(`B-${mode}`, to, service, {
          OTEL_TRACES_EXPORTER: 'none',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(
            mode === 'default' ? port.webhookDefault : port.webhookUtf8,
          ),
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
        });
        try {
          for (const p of [caller, other])
            await waitUntil(
              `instance ${p.name} ready`,
              DEADLINE_MS,
              () => lines(p).some((l) => l.type === 'ready') || undefined,
            );
          to.redeploy([TRANSLATE_SKILL]);
          caller.child.stdin!.write('call\n');
          const failing = await waitUntil(`${caller.name}'s failing call`, DEADLINE_MS, () =>
            lines(caller).find((l) => l.type === 'call-start' && l.n === 2),
          );
          const t0 = failing.t;
          // The series as this translation names it (Prometheus 3's quoted-name syntax). Of the
          // drift kind only: the caller's re-fetch of the card may add a card_changed series.
          const raw =
            mode === 'default'
              ? `a2a_client_card_drift_total{a2a_agent_card_url=${JSON.stringify(to.cardUrl)}, a2a_drift_kind="unknown_skill"}`
              : `{"a2a.client.card_drift_total", "a2a.agent_card.url"=${JSON.stringify(to.cardUrl)}, "a2a.drift.kind"="unknown_skill"}`;
          const series = await waitUntil(
            `the counter series in Prometheus: ${raw}`,
            DEADLINE_MS,
            async () => {
              const r = await promQuery(raw, url);
              return r.length > 0 ? r : undefined;
            },
            50,
          );
          const seenSeries = Date.now();
          assert.equal(series.length, 1, JSON.stringify(series));
          const m = series[0].metric as Record<string, string>;
          assert.equal(m.job, service, 'job = service.name');
          if (mode === 'default') {
            assert.equal(m.__name__, 'a2a_client_card_drift_total');
            assert.equal(m.a2a_drift_kind, 'unknown_skill');
            assert.equal(m['a2a.drift.kind'], undefined);
          } else {
            assert.equal(m.__name__, 'a2a.client.card_drift_total');
            assert.equal(m['a2a.drift.kind'], 'unknown_skill');
            assert.equal(m['a2a.skill.id'], DEFAULT_SKILL.id);
            assert.equal(m['gen_ai.agent.name'], agent);
            assert.equal(m.a2a_drift_kind, undefined, 'no underscored label on the raw series');
          }
          const alert = await waitUntil(
            `A2AAgentCardDrift for ${to.cardUrl}`,
            DEADLINE_MS,
            async () =>
              (await firingAlerts(url)).find(
                (a) =>
                  a.labels.alertname === 'A2AAgentCardDrift' &&
                  a.labels.a2a_agent_card_url === to.cardUrl,
              ),
            50,
          );
          const seenFiring = Date.now();
          assert.equal(alert.labels.job, service);
          assert.equal(alert.labels.a2a_drift_kind, 'unknown_skill');
          assert.equal(alert.labels.a2a_skill_id, DEFAULT_SKILL.id);
          assert.equal(alert.labels.gen_ai_agent_name, agent);
          assert.equal(alert.labels.signal, 'card_drift_counter');
          const evicted = await waitUntil(
            `${other.name}'s fleet eviction`,
            DEADLINE_MS,
            () =>
              lines(other).find(
                (l) => l.type === 'drift' && l.source === 'fleet' && l.cardUrl === to.cardUrl,
              ),
            50,
          );
          assert.equal(evicted.kind, 'unknown_skill');
          assert.equal(evicted.skillId, DEFAULT_SKILL.id);
          assert.equal(evicted.agentName, agent);
          assert.equal(evicted.evicted, true);
          console.log(
            `stack-live: OTLP straight into Prometheus 3 (${mode === 'default' ? 'default translation' : 'NoUTF8EscapingWithSuffixes'}): from the drifting call: series ${seenSeries - t0} ms, A2AAgentCardDrift firing ${seenFiring - t0} ms (activeAt ${new Date(alert.activeAt).getTime() - t0} ms), ${other.name} evicted ${evicted.t - t0} ms (metric export 500 ms, evaluation and group_wait 1 s)`,
          );

          // The silencing rule: the Collector's span-metrics alert for the same drift reaches
          // Alertmanager and is inhibited by the counter's.
          const inhibited = await waitUntil(
            'A2ADriftSpans for the card inhibited in Alertmanager',
            DEADLINE_MS,
            async () => {
              const q = new URLSearchParams({ filter: 'alertname="A2ADriftSpans"' });
              const all = await getJson(`${amUrl}/api/v2/alerts?${q}`);
              return all.find(
                // eslint-disable-next-line @typescript-eslint/no-explicit-any
                (a: any) =>
                  a.labels.a2a_agent_card_url === to.cardUrl &&
                  a.status.state === 'suppressed' &&
                  a.status.inhibitedBy.length > 0,
              );
            },
          );
          assert.equal(inhibited.labels.a2a_drift_kind, 'unknown_skill');

          // The dashboard's counter panels and variables, for this agent.
          const checked = await dashboardHasData(url, agent, /a2a_client_card_drift_total/);
          assert.equal(checked.length, 5, checked.join(', '));
        } finally {
          for (const p of [caller, other]) p.child.stdin?.end('exit\n');
          await Promise.all([caller, other].map(stopProc));
        }
      });
    }

    test('an alert that names its card by dotted labels only (own rules on UTF-8 names) takes alertmanager.yml’s commented UTF-8 route to the fleet; the instance evicts', async () => {
      assert.ok(B, 'the fleet step did not run');
      const cardUrl = `http://127.0.0.1:${port.tempoClosed}/own-rule/.well-known/agent-card.json`;
      const res = await fetch(`${amUrl}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            labels: {
              alertname: 'OwnRuleA2ADrift',
              'a2a.agent_card.url': cardUrl,
              'a2a.drift.kind': 'output_mode_mismatch',
              'a2a.skill.id': ODD_SKILL_ID,
              'gen_ai.agent.name': 'Агент ✓',
            },
            startsAt: new Date().toISOString(),
          },
        ]),
        signal: AbortSignal.timeout(5000),
      });
      assert.equal(res.status, 200, await res.text());
      const note = await waitUntil('the notification at the plain receiver', DEADLINE_MS, () =>
        plain.notifications.find((n) =>
          (n.body?.alerts ?? []).some(
            (a: { labels: Record<string, string> }) => a.labels['a2a.agent_card.url'] === cardUrl,
          ),
        ),
      );
      assert.deepEqual(note.body.groupLabels, { 'a2a.agent_card.url': cardUrl });
      const evicted = await waitUntil("B's fleet event for the card", DEADLINE_MS, () =>
        lines(B).find((l) => l.type === 'drift' && l.source === 'fleet' && l.cardUrl === cardUrl),
      );
      assert.equal(evicted.kind, 'output_mode_mismatch');
      assert.equal(evicted.skillId, ODD_SKILL_ID);
      assert.equal(evicted.agentName, 'Агент ✓');
    });

    test('a Prometheus 3 whose OTLP receiver is off: the app’s calls, output and exit code unchanged, one diagnostic line', async () => {
      assert.ok(demoOut, 'the demo did not run');
      const r = await runApp(
        'demo-no-otlp-receiver',
        path.join(REPO, 'examples', 'fleet-demo.js'),
        {
          ...demoEnv(otlpUrl),
          OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `http://127.0.0.1:${port.promNoOtlp}/api/v1/otlp/v1/metrics`,
        },
      );
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.ok(demoFindings(demoOut), 'the demo printed its summary');
      assert.equal(demoFindings(r.stdout), demoFindings(demoOut));
      assert.match(r.stdout, /OK: everything expected was caught/);
      const diagLines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(diagLines.length, 1, `one diagnostic line, got:\n${r.stderr}`);
      assert.match(
        diagLines[0]!,
        /OTLP metrics export refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1\/otlp\/v1\/metrics: HTTP 404 .*--web\.enable-otlp-receiver/,
      );
      console.log(`stack-live: OTLP receiver off: the app's one diagnostic: ${diagLines[0]}`);
    });

    test('Jaeger UI: the drifted trace in headless Chromium shows the drift span and its attributes (screenshot)', async (t) => {
      if (!uiAssets || !fs.existsSync(path.join(uiAssets, 'index.html'))) {
        t.skip('no built Jaeger UI (A2A_JAEGER_UI_ASSETS): the Go module does not embed it');
        return;
      }
      if (!fs.existsSync('/usr/bin/chromium')) {
        if (process.env.CI) assert.fail('/usr/bin/chromium is missing (apt-get install chromium)');
        t.skip('no /usr/bin/chromium');
        return;
      }
      const { chromium } = await import('playwright-core');
      // Jaeger restarted above with empty storage: drift once more, through the demo.
      const r = await runApp(
        'demo-ui',
        path.join(REPO, 'examples', 'fleet-demo.js'),
        demoEnv(otlpUrl),
      );
      assert.equal(r.code, 0, r.stdout);
      const trace = await waitUntil('the drifted trace', DEADLINE_MS, async () => {
        const tr = await jaegerTraces(DEMO_SERVICE, { 'a2a.drift.kind': 'unknown_skill' });
        return tr[0];
      });
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-chromium-'));
      // A fresh profile (playwright passes it as --user-data-dir).
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: '/usr/bin/chromium',
        headless: true,
        viewport: { width: 1400, height: 820 },
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage();
        await page.goto(`${jaegerUrl}/trace/${trace.traceID}`, { waitUntil: 'networkidle' });
        // Open the drift span's detail row (click its row), then its attribute list if closed.
        await page.getByText(DEMO_SERVICE, { exact: true }).first().click();
        // Collapsed, the attributes are one line headed "Tags:"; expanded, a table.
        const collapsed = page.getByText('Tags:', { exact: true }).first();
        await collapsed.waitFor({ timeout: 20_000 });
        await collapsed.click();
        await page
          .getByText('Tags:', { exact: true })
          .waitFor({ state: 'detached', timeout: 20_000 });
        await page.getByText('a2a.drift.kind').first().waitFor({ timeout: 20_000 });
        const text = await page.locator('body').innerText();
        for (const needle of [
          'a2a.drift.kind',
          'unknown_skill',
          'a2a.skill.id',
          'summarize-v2',
          'a2a.agent_card.fingerprint',
        ])
          assert.ok(text.includes(needle), `the Jaeger UI does not show ${needle}`);
        const out = process.env.A2A_SCREENSHOT_OUT ?? path.join(tmp, 'jaeger-drift.png');
        await page.screenshot({ path: out });
        console.log(`stack-live: Jaeger UI screenshot ${out}`);
      } finally {
        await browser.close();
        fs.rmSync(profile, { recursive: true, force: true });
      }
    });
  },
);
