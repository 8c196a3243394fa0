/**
 * examples/observability: the alert rules run under promtool, and every name the stack's
 * configs use (span-metrics dimensions, Prometheus labels and metric names, TraceQL
 * attributes, drift kinds, mounted files) is checked against what the code emits
 * (src/semconv.ts, src/core/drift-kinds.ts). Docker is not needed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import * as sc from '../src/semconv';
import { DRIFT_KINDS } from '../src/core/drift-kinds';
import { CALLER_DRIFT_KINDS } from '../src/core/served-card';

const DIR = path.resolve(__dirname, '..', 'examples', 'observability');
const file = (rel: string): string => path.join(DIR, rel);
const text = (rel: string): string => readFileSync(file(rel), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const yamlFile = (rel: string): any => parse(withEnvDefaults(text(rel)));

/**
 * The Collector and Jaeger configs read addresses from the environment
 * (`${env:NAME:-default}`): read them as they run with no such variable set, i.e. in
 * docker-compose.yaml (test/observability/stack.test.ts runs them with its own values).
 */
function withEnvDefaults(yaml: string): string {
  return yaml.replace(/\$\{env:[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}/g, '$1');
}

// ---------------------------------------------------------------------------------------
// What the code emits.

/** Every attribute name exported by semconv.ts (ATTR_*). */
const ATTRS: ReadonlySet<string> = new Set(
  Object.entries(sc)
    .filter(([k, v]) => k.startsWith('ATTR_') && typeof v === 'string')
    .map(([, v]) => v as string),
);
/** Prometheus form of a name: what the Collector's exporter, Tempo and Prometheus do to dots. */
const promName = (name: string): string => name.replace(/[^a-zA-Z0-9_]/g, '_');
/** Prometheus label -> the attribute it comes from. */
const ATTR_LABELS: ReadonlyMap<string, string> = new Map([...ATTRS].map((a) => [promName(a), a]));
/** Counter a2a.client.card_drift, unit {event}: curly-brace units are dropped, counters get _total. */
const DRIFT_METRIC = `${promName(sc.METRIC_CARD_DRIFT)}_total`;
const COLLECTOR_CALLS = 'traces_span_metrics_calls_total';
const TEMPO_CALLS = 'traces_spanmetrics_calls_total';
/** Counter a2a.client.card_requests, unit {request}: the package's own card requests. */
const CARD_REQUESTS_METRIC = `${promName(sc.METRIC_CARD_REQUESTS)}_total`;
/** Counter a2a.server.stale_calls, unit {call}: the agent's side, calls from stale callers. */
const STALE_CALLS_METRIC = `${promName(sc.METRIC_SERVER_STALE_CALLS)}_total`;
/** The alert on it: about the agent's OWN card, never routed to the fleet's eviction. */
const STALE_CALLERS_ALERT = 'A2AStaleCallers';
/** Every value of a2a.drift.kind: the caller's side and the agent's side. */
const ALL_KINDS: readonly string[] = [...DRIFT_KINDS, ...CALLER_DRIFT_KINDS];
const KNOWN_METRICS = new Set([
  DRIFT_METRIC,
  CARD_REQUESTS_METRIC,
  STALE_CALLS_METRIC,
  COLLECTOR_CALLS,
  TEMPO_CALLS,
  'up',
]);
/**
 * Labels that do not come from an instrumentation attribute: Prometheus' own, the ones the
 * Collector's exporter derives from the resource (job, instance), the span-metrics
 * intrinsics (Collector: service_name; Tempo: service), and the rules' own labels.
 */
const INFRA_LABELS = new Set([
  '__name__',
  'job',
  'instance',
  'le',
  'source',
  'service_name',
  'service',
  'span_name',
  'span_kind',
  'status_code',
  // spanmetrics connector: the Collector process that counted the span (a restart: new series)
  'collector_instance_id',
  'alertname',
  'severity',
  'signal',
]);

test('semconv: the names this stack is built on exist', () => {
  assert.ok(ATTRS.has('a2a.drift.kind'));
  assert.equal(sc.ATTR_A2A_DRIFT_KIND, 'a2a.drift.kind');
  assert.equal(DRIFT_METRIC, 'a2a_client_card_drift_total');
  assert.match(
    sc.METRIC_CARD_DRIFT_UNIT,
    /^\{.*\}$/,
    'a unit other than {annotation} would add a suffix to the Prometheus name',
  );
  for (const label of ATTR_LABELS.keys())
    assert.ok(!INFRA_LABELS.has(label), `${label} is both an attribute label and an infra label`);
});

// ---------------------------------------------------------------------------------------
// PromQL / TraceQL scanning (enough for the expressions in this folder, not a parser).

interface PromRefs {
  labels: Set<string>;
  metrics: Set<string>;
  /** label -> values compared with = or != (not regexes). */
  values: Map<string, Set<string>>;
}

const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'topk',
  'bottomk',
]);

function scanPromQL(
  expr: string,
  refs: PromRefs = { labels: new Set(), metrics: new Set(), values: new Map() },
): PromRefs {
  // Grafana variables ($__rate_interval, $agent, ${kind}) are not PromQL.
  let e = expr.replace(/\$\{?\w+\}?/g, '');
  for (const sel of e.matchAll(/\{([^{}]*)\}/g)) {
    for (const m of sel[1].matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      refs.labels.add(m[1]);
      if (m[2] === '=' || m[2] === '!=') {
        if (!refs.values.has(m[1])) refs.values.set(m[1], new Set());
        refs.values.get(m[1])!.add(m[3]);
      }
    }
  }
  for (const g of e.matchAll(
    /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g,
  )) {
    for (const l of g[1]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      refs.labels.add(l);
  }
  e = e
    .replace(/\{[^{}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ');
  for (const m of e.matchAll(/\b([a-zA-Z_:][\w:]*)\b(\s*\()?/g)) {
    if (m[2] || PROMQL_WORDS.has(m[1])) continue; // function call or keyword
    if (/^\d/.test(m[1])) continue;
    refs.metrics.add(m[1]);
  }
  return refs;
}

function checkPromRefs(where: string, refs: PromRefs): void {
  for (const label of refs.labels) {
    if (INFRA_LABELS.has(label)) continue;
    assert.ok(
      ATTR_LABELS.has(label),
      `${where}: label ${label} is neither the Prometheus form of an attribute in src/semconv.ts nor a known infrastructure label`,
    );
  }
  for (const metric of refs.metrics) {
    assert.ok(
      KNOWN_METRICS.has(metric),
      `${where}: metric ${metric} is not one the stack produces (${[...KNOWN_METRICS].join(', ')})`,
    );
  }
  for (const kind of refs.values.get('a2a_drift_kind') ?? []) {
    if (kind === '') continue;
    assert.ok(ALL_KINDS.includes(kind), `${where}: a2a_drift_kind="${kind}" is not a drift kind`);
  }
}

/** `span.<attr>` references in a TraceQL query. */
function traceqlSpanAttrs(q: string): string[] {
  return [...q.matchAll(/\bspan\.([a-zA-Z_][\w.]*\w)/g)].map((m) => m[1]);
}

function checkTraceQL(where: string, q: string): void {
  const attrs = traceqlSpanAttrs(q);
  assert.ok(attrs.length > 0, `${where}: ${q} references no span attribute`);
  for (const a of attrs)
    assert.ok(
      ATTRS.has(a),
      `${where}: TraceQL span.${a} is not an attribute in src/semconv.ts (${q})`,
    );
  for (const m of q.matchAll(/(?<![.\w])name\s*=\s*"([^"]*)"/g)) {
    assert.equal(m[1], sc.SPAN_GET_AGENT_CARD, `${where}: span name ${m[1]}`);
  }
  for (const m of q.matchAll(/span\.a2a\.drift\.kind\s*=\s*"([^"]*)"/g)) {
    assert.ok(ALL_KINDS.includes(m[1]), `${where}: drift kind ${m[1]}`);
  }
}

test('the PromQL scanner sees labels, metrics and values', () => {
  const r = scanPromQL(
    'sum by (a, b) ((increase(m_total{x="1", y!~"z"}[5m]) > 0) or (m_total unless m_total offset 5m)) / on(c) rate(n[$__rate_interval])',
  );
  assert.deepEqual([...r.labels].sort(), ['a', 'b', 'c', 'x', 'y']);
  assert.deepEqual([...r.metrics].sort(), ['m_total', 'n']);
  assert.deepEqual([...(r.values.get('x') ?? [])], ['1']);
  assert.throws(
    () => checkPromRefs('t', scanPromQL('sum by (a2a_drift_kinds) (a2a_client_card_drift_total)')),
    /a2a_drift_kinds/,
  );
  assert.throws(
    () => checkPromRefs('t', scanPromQL('a2a_client_card_drifts_total')),
    /a2a_client_card_drifts_total/,
  );
  assert.throws(() => checkTraceQL('t', '{ span.a2a.drift.kinds != nil }'), /a2a\.drift\.kinds/);
});

// ---------------------------------------------------------------------------------------
// promtool

function promtool(args: string[], cwd = DIR): { ok: boolean; out: string } | null {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const NO_PROMTOOL =
  'promtool is not on PATH (Debian/Ubuntu: apt-get install -y prometheus); the alert rules were not checked';

function withPromtool(t: { skip(msg: string): void }, run: () => void): void {
  if (promtool(['--version']) === null) {
    if (process.env.CI) assert.fail(`${NO_PROMTOOL}; CI must install it`);
    t.skip(NO_PROMTOOL);
    return;
  }
  run();
}

test('promtool check rules alerts.yaml', (t) => {
  withPromtool(t, () => {
    const r = promtool(['check', 'rules', 'alerts.yaml'])!;
    assert.ok(r.ok, r.out);
  });
});

test('promtool test rules alerts.test.yaml (firing and non-firing cases)', (t) => {
  withPromtool(t, () => {
    const r = promtool(['test', 'rules', 'alerts.test.yaml'])!;
    assert.ok(r.ok, r.out);
  });
});

test('promtool check config prometheus.yaml (loads alerts.yaml)', (t) => {
  withPromtool(t, () => {
    const r = promtool(['check', 'config', 'prometheus.yaml'])!;
    assert.ok(r.ok, r.out);
  });
});

function amtool(args: string[], cwd = DIR): { ok: boolean; out: string } | null {
  const r = spawnSync('amtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return null;
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const NO_AMTOOL =
  'amtool is not on PATH (Debian/Ubuntu: apt-get install -y prometheus-alertmanager); alertmanager.yml was not checked';

test('amtool check-config alertmanager.yml; the fleet route delivers card alerts to the webhook and on-call', (t) => {
  if (amtool(['--version']) === null) {
    if (process.env.CI) assert.fail(`${NO_AMTOOL}; CI must install it`);
    t.skip(NO_AMTOOL);
    return;
  }
  const r = amtool(['check-config', 'alertmanager.yml'])!;
  assert.ok(r.ok, r.out);
  const route = (labels: string[]): string => {
    const x = amtool(['config', 'routes', 'test', '--config.file=alertmanager.yml', ...labels])!;
    assert.ok(x.ok, x.out);
    return x.out
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('Warning'))
      .join('\n');
  };
  const card = 'a2a_agent_card_url=http://flights.example:8080/.well-known/agent-card.json';
  assert.equal(route(['alertname=A2AAgentCardDrift', card]), 'a2a-fleet,on-call');
  assert.equal(route(['alertname=A2AArtifactSchemaDrift', card]), 'a2a-fleet,on-call');
  assert.equal(
    route(['alertname=A2ADriftSpans']),
    'on-call',
    'an alert without a card URL is not for the fleet',
  );
  assert.equal(
    route([`alertname=${STALE_CALLERS_ALERT}`, card, 'a2a_drift_kind=caller_skill_not_in_card']),
    'agent-owner',
    "a stale-caller alert names the agent's own card: never the fleet's eviction",
  );
});

test('promtool parses every dashboard PromQL expression', (t) => {
  withPromtool(t, () => {
    const exprs = dashboardTargets()
      .filter((x) => typeof x.target.expr === 'string')
      .map((x) => grafanaToPromQL(x.target.expr as string));
    assert.ok(exprs.length >= 5);
    const tmp = mkdtempSync(path.join(tmpdir(), 'a2a-dash-'));
    try {
      const rules = {
        groups: [
          {
            name: 'dashboard',
            rules: exprs.map((expr, i) => ({ record: `dashboard:expr${i}`, expr })),
          },
        ],
      };
      writeFileSync(path.join(tmp, 'rules.json'), JSON.stringify(rules)); // JSON is YAML
      const r = promtool(['check', 'rules', 'rules.json'], tmp)!;
      assert.ok(r.ok, r.out);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

/** Grafana's variables replaced by what they expand to, for promtool. */
function grafanaToPromQL(expr: string): string {
  return expr
    .replace(/\$__(?:rate_interval|interval|range)\b/g, '5m')
    .replace(/\$\{?\w+\}?/g, '.*');
}

// ---------------------------------------------------------------------------------------
// Alert rules

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function alertRules(): any[] {
  const doc = yamlFile('alerts.yaml');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return doc.groups.flatMap((g: any) => g.rules).filter((r: any) => r.alert);
}

test('alerts.yaml: the drift alerts exist, name agent/skill/kind and say what to do', () => {
  const rules = alertRules();
  const byName = new Map(rules.map((r) => [r.alert as string, r]));
  for (const name of [
    'A2AAgentCardDrift',
    'A2AArtifactSchemaDrift',
    'A2ADriftSpans',
    'A2ADriftSpansTempo',
  ]) {
    assert.ok(byName.has(name), `alert ${name} missing`);
  }
  assert.match(byName.get('A2AAgentCardDrift').expr, new RegExp(`\\b${DRIFT_METRIC}\\b`));
  assert.match(byName.get('A2AArtifactSchemaDrift').expr, /a2a_drift_kind="output_mode_mismatch"/);
  assert.equal(byName.get('A2AArtifactSchemaDrift').labels.severity, 'critical');
  assert.match(byName.get('A2ADriftSpans').expr, new RegExp(`\\b${COLLECTOR_CALLS}\\b`));
  assert.match(byName.get('A2ADriftSpans').expr, /\bservice_name\b/);
  assert.match(byName.get('A2ADriftSpansTempo').expr, new RegExp(`\\b${TEMPO_CALLS}\\b`));
  assert.match(byName.get('A2ADriftSpansTempo').expr, /\bservice\b/);

  for (const r of rules.filter((x) => x.alert !== STALE_CALLERS_ALERT)) {
    const refs = scanPromQL(r.expr);
    checkPromRefs(`alerts.yaml ${r.alert}`, refs);
    for (const l of ['a2a_drift_kind', 'a2a_skill_id', 'gen_ai_agent_name']) {
      assert.ok(refs.labels.has(l), `${r.alert} does not keep ${l}`);
    }
    // The pitfall: a series that first appears at 1 is invisible to increase().
    const metric = [...refs.metrics].find((m) => m !== 'up');
    assert.ok(
      new RegExp(`\\bunless\\s+${metric}\\s+offset\\b`).test(r.expr),
      `${r.alert}: no clause for series that first appear already at 1 (increase() misses them)`,
    );
    const annotations = Object.values(r.annotations ?? {}).join('\n');
    for (const m of annotations.matchAll(/\$labels\.(\w+)/g)) {
      assert.ok(
        INFRA_LABELS.has(m[1]) || ATTR_LABELS.has(m[1]),
        `${r.alert}: annotation uses $labels.${m[1]}`,
      );
      assert.ok(
        refs.labels.has(m[1]),
        `${r.alert}: annotation uses $labels.${m[1]}, which the expression drops`,
      );
    }
    assert.ok(
      /\$labels\.a2a_drift_kind/.test(annotations) ||
        DRIFT_KINDS.some((k) => annotations.includes(k)),
      `${r.alert}: annotations do not say which kind`,
    );
    assert.match(
      annotations,
      /\$labels\.a2a_skill_id/,
      `${r.alert}: annotations do not say which skill`,
    );
    assert.match(
      annotations,
      /\$labels\.gen_ai_agent_name/,
      `${r.alert}: annotations do not say which agent`,
    );
    assert.match(
      annotations,
      /[Ee]vict[\s\S]*re-fetch/,
      `${r.alert}: annotations do not say to evict and re-fetch the card`,
    );
    for (const q of annotations.matchAll(/TraceQL (\{[^}]*\})/g))
      checkTraceQL(`alerts.yaml ${r.alert}`, q[1]);
  }
});

test('alerts.yaml: the counter rules name the card; card_changed pages nowhere', () => {
  const rules = alertRules();
  const counterRules = rules.filter((r) => new RegExp(`\\b${DRIFT_METRIC}\\b`).test(r.expr));
  assert.deepEqual(counterRules.map((r) => r.alert).sort(), [
    'A2AAgentCardDrift',
    'A2AArtifactSchemaDrift',
  ]);
  for (const r of counterRules) {
    const refs = scanPromQL(r.expr);
    for (const l of [
      promName(sc.ATTR_A2A_AGENT_CARD_URL),
      promName(sc.ATTR_SERVER_PORT),
      promName(sc.ATTR_SERVER_ADDRESS),
    ]) {
      assert.ok(
        refs.labels.has(l),
        `${r.alert} does not keep ${l}: the alert could not say which card to evict`,
      );
    }
    assert.match(
      Object.values(r.annotations).join('\n'),
      /\$labels\.a2a_agent_card_url/,
      `${r.alert}: annotations do not name the card`,
    );
  }
  for (const r of rules) {
    assert.equal(
      r.for ?? '0s',
      '0s',
      `${r.alert}: one drift is the evidence, \`for:\` only delays the eviction`,
    );
    // The agent's counter never carries card_changed (its kinds are the callers').
    if (r.alert === STALE_CALLERS_ALERT) continue;
    // Either the rule selects one other kind (a2a_drift_kind="..."), or it excludes card_changed in every selector.
    const selectors = [...String(r.expr).matchAll(/\b\w+_total\{([^}]*)\}/g)].map((m) => m[1]);
    assert.ok(selectors.length > 0, r.alert);
    for (const sel of selectors) {
      // Span metrics hold the agent's SERVER spans too: their caller kinds name the agent's
      // own card and must not reach the fleet (the stale-callers alert covers them).
      if (/a2a_drift_kind!=""/.test(sel))
        assert.match(
          sel,
          /a2a_drift_kind!~"caller_\.\*"/,
          `${r.alert}: selector {${sel}} lets the agent's stale callers page the fleet`,
        );
      const only = /a2a_drift_kind="([^"]+)"/.exec(sel);
      if (only) assert.notEqual(only[1], 'card_changed', r.alert);
      else
        assert.match(
          sel,
          /a2a_drift_kind!="card_changed"/,
          `${r.alert}: selector {${sel}} lets card_changed page`,
        );
    }
  }
  // And promtool proves it: a test feeds card_changed series to every signal and expects nothing.
  const doc = yamlFile('alerts.test.yaml');
  const cc = doc.tests.find((t: { name: string }) => t.name === 'card_changed does not page');
  assert.ok(cc, 'alerts.test.yaml lacks the test "card_changed does not page"');
  for (const s of cc.input_series) assert.match(s.series, /a2a_drift_kind="card_changed"/);
  for (const r of rules) {
    const checks = cc.alert_rule_test.filter((a: { alertname: string }) => a.alertname === r.alert);
    assert.ok(checks.length > 0, `"card_changed does not page" does not check ${r.alert}`);
    for (const c of checks) assert.deepEqual(c.exp_alerts, [], r.alert);
  }
  for (const name of [
    'drift counter series appearing at 1',
    'drift counter incremented later',
    "second instance's first drift",
    'two cards on one host',
  ]) {
    assert.ok(
      doc.tests.some((t: { name: string }) => t.name === name),
      `alerts.test.yaml lacks the test "${name}"`,
    );
  }
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function alertmanagerConfig(): any {
  return yamlFile('alertmanager.yml');
}

/** Label names in Alertmanager matchers such as 'a2a_agent_card_url=~".+"'. */
function matcherLabels(matchers: string[] = []): string[] {
  return matchers.map((m) => {
    const x = /^\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/.exec(m);
    assert.ok(x, `matcher ${m}`);
    return x[1];
  });
}

test('alertmanager.yml: one group per card to the fleet webhook, bearer token, inhibition on known alerts', () => {
  const am = alertmanagerConfig();
  const known = (where: string, label: string): void => {
    assert.ok(
      INFRA_LABELS.has(label) || ATTR_LABELS.has(label),
      `${where}: label ${label} is neither an attribute label nor a known one`,
    );
  };
  const cardLabel = promName(sc.ATTR_A2A_AGENT_CARD_URL);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const walk = (r: any): any[] => [r, ...(r.routes ?? []).flatMap(walk)];
  const routes = walk(am.route);
  for (const r of routes) {
    for (const l of r.group_by ?? []) known('route group_by', l);
    for (const l of matcherLabels(r.matchers)) known('route matchers', l);
  }
  const receivers = new Map<string, any>(am.receivers.map((r: { name: string }) => [r.name, r])); // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const r of routes)
    assert.ok(receivers.has(r.receiver), `route receiver ${r.receiver} undefined`);

  const fleet = routes.filter((r) => (receivers.get(r.receiver)?.webhook_configs ?? []).length > 0);
  assert.equal(fleet.length, 1, 'one route to the webhook receiver');
  const f = fleet[0];
  assert.deepEqual(f.group_by, [cardLabel], 'the fleet route groups by the card URL');
  assert.deepEqual(
    matcherLabels(f.matchers),
    [cardLabel],
    'the fleet route takes the alerts that name a card',
  );
  for (const k of ['group_wait', 'group_interval', 'repeat_interval'])
    assert.ok(f[k], `fleet route without ${k}`);
  assert.equal(f.continue, true, 'the fleet route lets on-call see the alert too');

  for (const w of receivers.get(f.receiver).webhook_configs) {
    assert.equal(
      new URL(w.url).pathname,
      '/a2a/alerts',
      `webhook ${w.url}: the instrumentation listens on POST /a2a/alerts`,
    );
    const auth = w.http_config?.authorization;
    assert.ok(auth, `webhook ${w.url} sends no token`);
    assert.equal(auth.type ?? 'Bearer', 'Bearer');
    assert.ok(
      auth.credentials || auth.credentials_file,
      `webhook ${w.url}: authorization without credentials`,
    );
    assert.equal(
      w.send_resolved,
      false,
      'resolved alerts are ignored by the instances: do not send them',
    );
  }

  const alerts = new Set(alertRules().map((r) => r.alert as string));
  for (const ir of am.inhibit_rules ?? []) {
    for (const m of [...(ir.source_matchers ?? []), ...(ir.target_matchers ?? [])]) {
      const names = /^alertname=~?"([^"]*)"$/.exec(m);
      if (names)
        for (const n of names[1].split('|'))
          assert.ok(alerts.has(n), `inhibit rule names ${n}, not an alert of alerts.yaml`);
      else for (const l of matcherLabels([m])) known('inhibit matcher', l);
    }
    for (const l of ir.equal ?? []) known('inhibit equal', l);
  }
});

/**
 * Alertmanager's routing, as far as this folder's file uses it (equality and regex matchers on
 * label names, `continue`, a parent's receiver when no child matches): the receivers an alert
 * with `labels` is sent to. amtool does it for real when it is installed (the test above).
 */
function routeAlert(labels: Record<string, string>): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const matches = (r: any): boolean =>
    (r.matchers ?? []).every((m: string) => {
      const x = /^\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"?(.*?)"?\s*$/.exec(m);
      assert.ok(x, `matcher ${m}`);
      const v = labels[x[1]] ?? '';
      const re = new RegExp(`^(?:${x[3]})$`);
      return x[2] === '='
        ? v === x[3]
        : x[2] === '!='
          ? v !== x[3]
          : x[2] === '=~'
            ? re.test(v)
            : !re.test(v);
    });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const walk = (r: any): string[] => {
    const out: string[] = [];
    for (const child of r.routes ?? []) {
      if (!matches(child)) continue;
      out.push(...walk(child));
      if (!child.continue) return out;
    }
    return out.length > 0 ? out : [r.receiver];
  };
  return walk(alertmanagerConfig().route);
}

test("A2AStaleCallers: the agent's side, on a2a_server_stale_calls_total per agent, kind and skill; routed to its own receiver, never to the fleet webhook", () => {
  const rule = alertRules().find((r) => r.alert === STALE_CALLERS_ALERT);
  assert.ok(rule, `alerts.yaml lacks ${STALE_CALLERS_ALERT}`);
  assert.equal(STALE_CALLS_METRIC, 'a2a_server_stale_calls_total');
  assert.match(sc.METRIC_SERVER_STALE_CALLS_UNIT, /^\{.*\}$/);
  const refs = scanPromQL(rule.expr);
  checkPromRefs(`alerts.yaml ${STALE_CALLERS_ALERT}`, refs);
  assert.deepEqual([...refs.metrics], [STALE_CALLS_METRIC]);
  for (const l of ['job', 'a2a_agent_card_url', 'a2a_skill_id', 'a2a_drift_kind'])
    assert.ok(refs.labels.has(l), `${STALE_CALLERS_ALERT} does not keep ${l}`);
  assert.match(rule.expr, /\bunless\s+a2a_server_stale_calls_total\s+offset\b/);
  const annotations = Object.values(rule.annotations).join('\n');
  for (const m of annotations.matchAll(/\$labels\.(\w+)/g))
    assert.ok(refs.labels.has(m[1]), `annotation uses $labels.${m[1]}, which the expression drops`);
  assert.doesNotMatch(annotations, /[Ee]vict the/, 'a stale-caller alert asks for no eviction');
  for (const k of CALLER_DRIFT_KINDS)
    assert.ok(annotations.includes(k) || /\$labels\.a2a_drift_kind/.test(annotations), k);

  // The fleet route forwards every alert naming a card to the eviction webhook: this one names
  // the agent's own card and must be taken before it, by a route that reaches no webhook.
  const am = alertmanagerConfig();
  const webhooks = new Set(
    am.receivers
      .filter((r: { webhook_configs?: unknown[] }) => (r.webhook_configs ?? []).length > 0)
      .map((r: { name: string }) => r.name),
  );
  const card = { a2a_agent_card_url: 'http://flights.example:8080/.well-known/agent-card.json' };
  for (const kind of CALLER_DRIFT_KINDS) {
    const to = routeAlert({
      alertname: STALE_CALLERS_ALERT,
      severity: rule.labels.severity,
      signal: rule.labels.signal,
      job: 'flights-agent',
      a2a_drift_kind: kind,
      a2a_skill_id: 'summarize-v2',
      ...card,
    });
    assert.ok(to.length > 0);
    for (const r of to)
      assert.ok(!webhooks.has(r), `${STALE_CALLERS_ALERT} (${kind}) reaches ${r}`);
  }
  // The other alerts that name a card still reach the fleet (the route simulation is sound).
  assert.deepEqual(
    routeAlert({ alertname: 'A2AAgentCardDrift', a2a_drift_kind: 'unknown_skill', ...card }),
    ['a2a-fleet', 'on-call'],
  );
  assert.deepEqual(routeAlert({ alertname: 'A2ADriftSpansTempo' }), ['on-call']);

  // promtool cases: it fires, per agent; SERVER spans of stale callers page no span-metrics alert.
  const doc = yamlFile('alerts.test.yaml');
  for (const name of [
    "stale callers of the agent's own card",
    'stale callers in span metrics do not page the fleet',
  ])
    assert.ok(
      doc.tests.some((t: { name: string }) => t.name === name),
      `alerts.test.yaml lacks the test "${name}"`,
    );
  const utf8 = parse(
    readFileSync(path.join(__dirname, 'observability', 'alerts-utf8.test.yaml'), 'utf8'),
  );
  assert.ok(
    utf8.tests.some((t: { input_series: { series: string }[] }) =>
      t.input_series.some((x) => x.series.includes('"a2a.server.stale_calls_total"')),
    ),
    'alerts-utf8.test.yaml has no stale-caller case under the UTF-8 names',
  );
});

test('alerts.test.yaml: input series use the names the stack produces', () => {
  const doc = yamlFile('alerts.test.yaml');
  assert.deepEqual(doc.rule_files, ['alerts.yaml']);
  const firing = new Set<string>();
  for (const t of doc.tests) {
    for (const s of t.input_series)
      checkPromRefs(`alerts.test.yaml "${t.name}"`, scanPromQL(s.series));
    for (const a of t.alert_rule_test) if ((a.exp_alerts ?? []).length > 0) firing.add(a.alertname);
  }
  for (const r of alertRules()) assert.ok(firing.has(r.alert), `no test makes ${r.alert} fire`);
});

// ---------------------------------------------------------------------------------------
// Collector, Tempo, Prometheus, compose

test('otel-collector.yaml: spanmetrics dimensions are emitted attributes; pipelines as documented', () => {
  const c = yamlFile('otel-collector.yaml');
  assert.match(c.receivers.otlp.protocols.grpc.endpoint, /:4317$/);
  assert.match(c.receivers.otlp.protocols.http.endpoint, /:4318$/);

  const sm = c.connectors.spanmetrics;
  const dims: string[] = sm.dimensions.map((d: { name: string }) => d.name);
  for (const d of dims)
    assert.ok(ATTRS.has(d), `spanmetrics dimension ${d} is not an attribute in src/semconv.ts`);
  assert.deepEqual(
    [...dims].sort(),
    [
      sc.ATTR_A2A_DRIFT_KIND,
      sc.ATTR_A2A_SKILL_ID,
      sc.ATTR_GEN_AI_AGENT_NAME,
      sc.ATTR_A2A_METHOD_NAME,
      sc.ATTR_A2A_AGENT_CARD_URL,
    ].sort(),
  );
  assert.ok(
    !dims.includes(sc.ATTR_A2A_AGENT_CARD_FINGERPRINT) && !dims.includes(sc.ATTR_A2A_TASK_ID),
    'unbounded dimension',
  );
  assert.equal(`${promName(sm.namespace ?? 'traces.span.metrics')}_calls_total`, COLLECTOR_CALLS);

  const p = c.service.pipelines;
  for (const e of ['spanmetrics', 'otlp/jaeger', 'otlp/tempo'])
    assert.ok(p.traces.exporters.includes(e), `traces → ${e}`);
  assert.ok(p.traces.receivers.includes('otlp'));
  assert.deepEqual([...p.metrics.receivers].sort(), ['otlp', 'spanmetrics']);
  assert.deepEqual(p.metrics.exporters, ['prometheus']);
  for (const [name, pipe] of Object.entries(p) as [
    string,
    { receivers: string[]; exporters: string[] },
  ][]) {
    for (const r of pipe.receivers)
      assert.ok(c.receivers[r] ?? c.connectors[r], `${name}: receiver ${r} undefined`);
    for (const e of pipe.exporters)
      assert.ok(c.exporters[e] ?? c.connectors[e], `${name}: exporter ${e} undefined`);
  }
});

test('tempo.yaml: span-metrics dimensions are emitted attributes; remote write to Prometheus', () => {
  const t = yamlFile('tempo.yaml');
  const dims: string[] = t.metrics_generator.processor.span_metrics.dimensions;
  for (const d of dims)
    assert.ok(ATTRS.has(d), `Tempo dimension ${d} is not an attribute in src/semconv.ts`);
  assert.deepEqual(
    [...dims].sort(),
    [sc.ATTR_A2A_DRIFT_KIND, sc.ATTR_A2A_SKILL_ID, sc.ATTR_GEN_AI_AGENT_NAME].sort(),
  );
  for (const d of t.metrics_generator.processor.service_graphs?.dimensions ?? [])
    assert.ok(ATTRS.has(d), d);
  assert.ok(
    t.overrides.defaults.metrics_generator.processors.includes('span-metrics'),
    'span-metrics processor not enabled',
  );
  const rw = t.metrics_generator.storage.remote_write.map((w: { url: string }) => new URL(w.url));
  assert.ok(rw.some((u: URL) => u.hostname === 'prometheus' && u.pathname === '/api/v1/write'));
  assert.match(t.distributor.receivers.otlp.protocols.grpc.endpoint, /^0\.0\.0\.0:4317$/);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function compose(): any {
  return yamlFile('docker-compose.yaml');
}

/** host path (relative to DIR) -> container path, over all services. */
function mounts(service: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of compose().services[service].volumes ?? []) {
    const [src, dst] = String(v).split(':');
    if (src.startsWith('./')) out.set(path.normalize(src), dst);
  }
  return out;
}

test('docker-compose.yaml: services, pinned images, mounted files exist and are the ones used', () => {
  const c = compose();
  const services = c.services;
  for (const s of ['otel-collector', 'jaeger', 'tempo', 'prometheus', 'alertmanager', 'grafana'])
    assert.ok(services[s], `service ${s} missing`);
  const images: Record<string, RegExp> = {
    'otel-collector': /^otel\/opentelemetry-collector-contrib:/,
    jaeger: /^jaegertracing\/jaeger:2\./,
    tempo: /^grafana\/tempo:/,
    prometheus: /^prom\/prometheus:/,
    grafana: /^grafana\/grafana:/,
  };
  for (const [s, re] of Object.entries(images)) assert.match(services[s].image, re);
  for (const [name, s] of Object.entries(services) as [string, { image: string }][]) {
    assert.match(
      s.image,
      /:v?\d+\.\d+\.\d+$/,
      `${name}: image ${s.image} is not pinned to a version`,
    );
  }

  // Every ./file mounted into a container exists here.
  for (const name of Object.keys(services)) {
    for (const src of mounts(name).keys())
      assert.ok(existsSync(file(src)), `${name} mounts ${src}, which does not exist`);
  }
  // And every config file of this folder is mounted where its service reads it.
  const collectorMounts = mounts('otel-collector');
  const collectorCfg = collectorMounts.get('otel-collector.yaml');
  assert.ok(collectorCfg, 'otel-collector.yaml not mounted');
  assert.ok(
    services['otel-collector'].command.join(' ').includes(collectorCfg),
    'collector does not start with otel-collector.yaml',
  );
  const jaegerCfg = mounts('jaeger').get('jaeger.yaml');
  assert.ok(
    jaegerCfg && services.jaeger.command.join(' ').includes(jaegerCfg),
    'jaeger does not start with jaeger.yaml',
  );
  const tempoCfg = mounts('tempo').get('tempo.yaml');
  assert.ok(
    tempoCfg && services.tempo.command.join(' ').includes(tempoCfg),
    'tempo does not start with tempo.yaml',
  );
  const promMounts = mounts('prometheus');
  const promCfg = promMounts.get('prometheus.yaml');
  assert.ok(
    promCfg && services.prometheus.command.join(' ').includes(promCfg),
    'prometheus does not start with prometheus.yaml',
  );
  const alertsIn = promMounts.get('alerts.yaml');
  assert.ok(alertsIn, 'alerts.yaml not mounted');
  const promYaml = yamlFile('prometheus.yaml');
  const ruleFiles: string[] = promYaml.rule_files.map((f: string) =>
    path.posix.resolve(path.posix.dirname(promCfg), f),
  );
  assert.ok(
    ruleFiles.includes(alertsIn),
    `prometheus.yaml rule_files ${ruleFiles} do not load ${alertsIn}`,
  );
  assert.ok(
    services.prometheus.command.includes('--web.enable-remote-write-receiver'),
    'Tempo cannot remote-write',
  );

  const grafana = mounts('grafana');
  assert.equal(
    grafana.get('grafana/provisioning/datasources'),
    '/etc/grafana/provisioning/datasources',
  );
  assert.equal(
    grafana.get('grafana/provisioning/dashboards'),
    '/etc/grafana/provisioning/dashboards',
  );
  const providers = yamlFile('grafana/provisioning/dashboards/dashboards.yaml').providers;
  assert.ok(
    providers.some(
      (p: { options: { path: string } }) => p.options.path === grafana.get('grafana/dashboards'),
    ),
    'the dashboard provider does not read the mounted grafana/dashboards',
  );
  for (const f of [
    'grafana/dashboards',
    'grafana/provisioning/datasources',
    'grafana/provisioning/dashboards',
  ]) {
    assert.ok(statSync(file(f)).isDirectory());
  }

  // Alertmanager: started with alertmanager.yml, the target of prometheus.yaml's alerting block.
  assert.match(
    services.alertmanager?.image ?? '',
    /^prom\/alertmanager:/,
    'service alertmanager missing',
  );
  const amCfg = mounts('alertmanager').get('alertmanager.yml');
  assert.ok(
    amCfg && services.alertmanager.command.join(' ').includes(`--config.file=${amCfg}`),
    'alertmanager does not start with alertmanager.yml',
  );
  const amTargets: string[] = promYaml.alerting.alertmanagers.flatMap(
    (a: { static_configs: { targets: string[] }[] }) => a.static_configs.flatMap((x) => x.targets),
  );
  assert.deepEqual(
    amTargets,
    ['alertmanager:9093'],
    'prometheus.yaml does not send alerts to the alertmanager service',
  );
  assert.ok(
    services.alertmanager.ports.map(String).includes('9093:9093'),
    'Alertmanager API not published (the apps poll it)',
  );

  // The app's endpoint.
  const ports: string[] = services['otel-collector'].ports.map(String);
  assert.ok(ports.includes('4317:4317') && ports.includes('4318:4318'), 'OTLP ports not published');

  // Hosts that configs point at are services; the collector's exporter is what Prometheus scrapes.
  const collector = yamlFile('otel-collector.yaml');
  for (const e of ['otlp/jaeger', 'otlp/tempo']) {
    const host = String(collector.exporters[e].endpoint).split(':')[0];
    assert.ok(services[host], `${e} points at ${host}, not a compose service`);
  }
  const exporterPort = String(collector.exporters.prometheus.endpoint).split(':').pop();
  const targets: string[] = promYaml.scrape_configs.flatMap(
    (s: { static_configs: { targets: string[] }[] }) => s.static_configs.flatMap((x) => x.targets),
  );
  assert.ok(
    targets.includes(`otel-collector:${exporterPort}`),
    'Prometheus does not scrape the collector exporter',
  );
  const collectorJob = promYaml.scrape_configs.find(
    (s: { static_configs: { targets: string[] }[] }) =>
      s.static_configs.some((x) => x.targets.includes(`otel-collector:${exporterPort}`)),
  );
  assert.equal(
    collectorJob.honor_labels,
    true,
    'without honor_labels the app service.name lands in exported_job',
  );

  // Jaeger v2's Monitor tab reads the Collector's span metrics from the Prometheus service.
  const jaegerYaml = yamlFile('jaeger.yaml');
  const metricStores = jaegerYaml.extensions.jaeger_storage.metric_backends;
  const store = metricStores[jaegerYaml.extensions.jaeger_query.storage.metrics].prometheus;
  assert.equal(store.metric_namespace, COLLECTOR_CALLS.replace(/_calls_total$/, ''));
  assert.equal(new URL(store.endpoint).host, 'prometheus:9090');
  assert.equal(
    String(collector.exporters['otlp/jaeger'].endpoint).split(':')[1],
    String(jaegerYaml.receivers.otlp.protocols.grpc.endpoint).split(':')[1],
    'the Collector forwards to the port Jaeger receives OTLP/gRPC on',
  );
});

// ---------------------------------------------------------------------------------------
// Grafana

test('datasources.yaml: Prometheus, Tempo and Jaeger at their compose services', () => {
  const ds = yamlFile('grafana/provisioning/datasources/datasources.yaml').datasources as {
    type: string;
    uid: string;
    url: string;
    jsonData?: Record<string, unknown>;
  }[];
  const services = compose().services;
  const byType = new Map(ds.map((d) => [d.type, d]));
  for (const type of ['prometheus', 'tempo', 'jaeger']) {
    const d = byType.get(type);
    assert.ok(d, `${type} datasource missing`);
    const host = new URL(d.url).hostname;
    assert.ok(services[host], `${type} datasource points at ${host}, not a compose service`);
  }
  const tempo = byType.get('tempo')!;
  const t2m = tempo.jsonData?.tracesToMetrics as {
    tags: { key: string; value: string }[];
    queries: { query: string }[];
  };
  for (const tag of t2m.tags) {
    if (tag.key === 'service.name') continue; // resource attribute; Tempo's label is `service`
    assert.ok(ATTRS.has(tag.key), `tracesToMetrics tag ${tag.key}`);
    assert.equal(tag.value, promName(tag.key));
  }
  for (const q of t2m.queries)
    checkPromRefs(
      'datasources.yaml tracesToMetrics',
      scanPromQL(q.query.replace(/\$\$__tags,?/g, '')),
    );
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function dashboard(): any {
  return JSON.parse(text('grafana/dashboards/a2a-drift.json'));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function dashboardTargets(): { panel: any; target: any }[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const flat = (ps: any[]): any[] => ps.flatMap((p) => [p, ...flat(p.panels ?? [])]);
  return flat(dashboard().panels).flatMap((panel) =>
    (panel.targets ?? []).map((target: unknown) => ({ panel, target })),
  );
}

test('a2a-drift.json: panels by kind, agent, skill, span metrics and a TraceQL table, all on emitted names', () => {
  const d = dashboard();
  const uids = new Set(
    (
      yamlFile('grafana/provisioning/datasources/datasources.yaml').datasources as { uid: string }[]
    ).map((x) => x.uid),
  );
  const targets = dashboardTargets();
  const promTargets = targets.filter((x) => typeof x.target.expr === 'string');
  const traceql = targets.filter((x) => x.target.queryType === 'traceql');

  for (const { panel, target } of targets) {
    for (const ds of [panel.datasource, target.datasource]) {
      if (ds?.uid)
        assert.ok(
          uids.has(ds.uid),
          `panel "${panel.title}" uses datasource uid ${ds.uid}, not provisioned`,
        );
    }
  }
  for (const { panel, target } of promTargets) {
    const where = `dashboard panel "${panel.title}"`;
    checkPromRefs(where, scanPromQL(target.expr));
    const legend = String(target.legendFormat ?? '');
    const refs = scanPromQL(target.expr);
    for (const m of legend.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      assert.ok(INFRA_LABELS.has(m[1]) || ATTR_LABELS.has(m[1]), `${where}: legend {{${m[1]}}}`);
      assert.ok(refs.labels.has(m[1]), `${where}: legend {{${m[1]}}} is not kept by the query`);
    }
  }
  for (const v of d.templating.list) {
    if (v.type === 'query')
      checkPromRefs(
        `dashboard variable ${v.name}`,
        scanPromQL(
          String(v.definition).replace(/^label_values\((.*), *(\w+)\)$/, 'sum by ($2) ($1)'),
        ),
      );
  }

  const groupedBy = (label: string) =>
    promTargets.some(
      (x) =>
        x.target.expr.includes(DRIFT_METRIC) &&
        new RegExp(`by \\([^)]*\\b${label}\\b`).test(x.target.expr),
    );
  assert.ok(groupedBy('a2a_drift_kind'), 'no drift-by-kind panel');
  assert.equal(CARD_REQUESTS_METRIC, 'a2a_client_card_requests_total');
  assert.match(sc.METRIC_CARD_REQUESTS_UNIT, /^\{.*\}$/);
  assert.ok(
    promTargets.some(
      (x) =>
        x.target.expr.includes(CARD_REQUESTS_METRIC) &&
        /by \([^)]*\ba2a_agent_card_request_purpose\b/.test(x.target.expr) &&
        /by \([^)]*\ba2a_agent_card_request_result\b/.test(x.target.expr),
    ),
    "no panel of the package's own card requests by purpose and result",
  );
  assert.ok(groupedBy('gen_ai_agent_name'), 'no drift-by-agent panel');
  assert.ok(groupedBy('a2a_skill_id'), 'no drift-by-skill panel');
  assert.ok(
    promTargets.some(
      (x) => x.target.expr.includes(COLLECTOR_CALLS) && x.target.expr.includes('a2a_drift_kind'),
    ),
    'no Collector span-metrics drift panel',
  );
  assert.ok(
    promTargets.some(
      (x) => x.target.expr.includes(TEMPO_CALLS) && x.target.expr.includes('a2a_drift_kind'),
    ),
    'no Tempo span-metrics drift panel',
  );

  // The agent's side, per agent (job and its own card URL): calls from stale callers by kind
  // and skill, and the callers on an older card.
  const stale = promTargets.filter((x) => x.target.expr.includes(STALE_CALLS_METRIC));
  assert.ok(
    stale.some((x) =>
      ['job', 'a2a_agent_card_url', 'a2a_drift_kind', 'a2a_skill_id'].every((l) =>
        new RegExp(`by \\([^)]*\\b${l}\\b`).test(x.target.expr),
      ),
    ),
    'no panel of calls from stale callers per agent, by kind and skill',
  );
  assert.ok(
    stale.some(
      (x) =>
        /a2a_drift_kind="caller_card_stale"/.test(x.target.expr) &&
        /by \([^)]*\bjob\b[^)]*\ba2a_agent_card_url\b/.test(x.target.expr),
    ),
    'no panel of the callers on an older card (caller_card_stale) per agent',
  );

  assert.ok(traceql.length > 0, 'no TraceQL panel');
  for (const { panel, target } of traceql)
    checkTraceQL(`dashboard panel "${panel.title}"`, target.query);
  assert.ok(
    traceql.some(
      (x) =>
        x.panel.type === 'table' && /^\{ span\.a2a\.drift\.kind != nil \}/.test(x.target.query),
    ),
    'no table panel with { span.a2a.drift.kind != nil }',
  );
});

// ---------------------------------------------------------------------------------------
// README

test('README.md: start command, endpoint and every search use emitted names', () => {
  const md = text('README.md');
  assert.match(md, /docker compose up/);
  assert.match(md, /OTEL_EXPORTER_OTLP_ENDPOINT=http:\/\/localhost:4318/);
  const queries = [...md.matchAll(/`(\{[^`]*\})`/g)].map((m) => m[1]);
  for (const q of [
    '{ span.a2a.drift.kind != nil }',
    '{ span.a2a.drift.kind = "output_mode_mismatch" }',
    '{ name = "GetAgentCard" && span.a2a.agent_card.previous_fingerprint != nil }',
  ]) {
    assert.ok(queries.includes(q), `README lacks the TraceQL ${q}`);
  }
  for (const q of queries) checkTraceQL('README.md', q);
  for (const m of md.matchAll(/\| select\(([^)]*)\)/g)) checkTraceQL('README.md select', m[1]);

  // Jaeger tag searches: `attr=value`.
  const tags = [...md.matchAll(/`([a-z_][\w.]*)=([\w-]+)`/g)].filter(
    (m) => !m[1].startsWith('OTEL_'),
  );
  assert.ok(
    tags.some((m) => m[1] === 'a2a.drift.kind' && m[2] === 'unknown_skill'),
    'README lacks the Jaeger tag a2a.drift.kind=unknown_skill',
  );
  assert.ok(
    tags.some((m) => m[1] === 'error' && m[2] === 'true'),
    'README lacks the Jaeger tag error=true',
  );
  for (const [, attr, value] of tags) {
    if (attr === 'error') continue; // Jaeger's own tag for status ERROR
    assert.ok(ATTRS.has(attr), `README Jaeger tag ${attr} is not an attribute in src/semconv.ts`);
    if (attr === sc.ATTR_A2A_DRIFT_KIND)
      assert.ok((DRIFT_KINDS as readonly string[]).includes(value), value);
  }
  assert.match(md, /Monitor tab[\s\S]*error rate/);
  // The alert expression shown is the rule's, verbatim (whitespace aside).
  const squash = (x: string): string =>
    x.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
  const shown = [...md.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)]
    .map((m) => m[1])
    .filter((b) => b.startsWith('sum by') && b.includes(DRIFT_METRIC));
  assert.equal(shown.length, 1, 'README shows the counter rule expression once');
  assert.equal(
    squash(shown[0]),
    squash(alertRules().find((r) => r.alert === 'A2AAgentCardDrift').expr),
  );
  // Fleet-wide eviction: the Alertmanager file and the instances' settings.
  assert.match(md, /alertmanager\.yml/);
  for (const v of [
    'WEBHOOK_PORT',
    'WEBHOOK_HOST',
    'WEBHOOK_TOKEN',
    'ALERTMANAGER_URL',
    'ALERTMANAGER_POLL_MS',
  ]) {
    assert.ok(
      md.includes(`OTEL_INSTRUMENTATION_A2A_${v}`),
      `README does not document OTEL_INSTRUMENTATION_A2A_${v}`,
    );
  }
  // Every drift kind the code knows is documented.
  for (const k of DRIFT_KINDS)
    assert.ok(md.includes(`\`${k}\``), `README does not list drift kind ${k}`);
  // Prometheus names in inline code are ones the stack produces.
  for (const m of md.matchAll(/`(a2a_[a-z_]+|traces_[a-z_]+)(\{[^`]*\})?`/g)) {
    if (m[1].endsWith('_total')) assert.ok(KNOWN_METRICS.has(m[1]), `README metric ${m[1]}`);
    // The connector's duration histogram (seen live by test/observability/stack.test.ts).
    else if (/^traces_span_metrics_duration_milliseconds_(bucket|sum|count)$/.test(m[1])) continue;
    else assert.ok(ATTR_LABELS.has(m[1]), `README label ${m[1]}`);
  }
});

// ---------------------------------------------------------------------------------------
// The Collector the live test builds (test/observability/collector/) has exactly the
// components otel-collector.yaml uses, each at one Collector release.

test('collector builder-config.yaml: exactly the components of otel-collector.yaml, at one release', () => {
  const dir = path.join(__dirname, 'observability', 'collector');
  const manifest = parse(readFileSync(path.join(dir, 'builder-config.yaml'), 'utf8'));
  const cfg = yamlFile('otel-collector.yaml');
  const typeOf = (id: string) => id.split('/')[0]!;
  // The component type is the last path element of the module, minus its kind suffix.
  const kinds: [string, string, string[]][] = [
    ['receivers', 'receiver', Object.keys(cfg.receivers)],
    ['processors', 'processor', Object.keys(cfg.processors)],
    ['connectors', 'connector', Object.keys(cfg.connectors)],
    ['exporters', 'exporter', Object.keys(cfg.exporters)],
    ['extensions', 'extension', Object.keys(cfg.extensions)],
  ];
  const versions = new Set<string>();
  for (const [key, suffix, used] of kinds) {
    const built = (manifest[key] as { gomod: string }[]).map((m) => {
      const [mod, version] = m.gomod.split(' ');
      versions.add(version!.replace(/^v0\.(\d+)\.\d+$/, 'v0.$1'));
      return mod!
        .split('/')
        .pop()!
        .replace(new RegExp(`${suffix}$`), '');
    });
    const wanted = [...new Set(used.map(typeOf))].map((t) =>
      t === 'health_check' ? 'healthcheck' : t,
    );
    assert.deepEqual([...built].sort(), wanted.sort(), key);
  }
  assert.deepEqual(
    [...versions],
    ['v0.165'],
    'one Collector release (core v0.165.0, contrib v0.165.x)',
  );
  // The generated components.go imports exactly those modules; go.mod pins them.
  const components = readFileSync(path.join(dir, 'components.go'), 'utf8');
  const gomod = readFileSync(path.join(dir, 'go.mod'), 'utf8');
  for (const key of ['receivers', 'processors', 'connectors', 'exporters', 'extensions']) {
    for (const m of manifest[key] as { gomod: string }[]) {
      const [mod, version] = m.gomod.split(' ');
      assert.ok(components.includes(`"${mod}"`), `components.go does not import ${mod}`);
      assert.ok(gomod.includes(`${mod} ${version}`), `go.mod does not pin ${mod} ${version}`);
    }
  }
});

test('docker-compose.yaml pins the Prometheus and Alertmanager that the stack test builds (test/observability/*/go.mod)', () => {
  const services = compose().services;
  const pinned = (dir: string, mod: string): string => {
    const gomod = readFileSync(path.join(__dirname, 'observability', dir, 'go.mod'), 'utf8');
    const m = new RegExp(`^\\s*${mod.replaceAll('.', '\\.')} (v\\S+)`, 'm').exec(gomod);
    assert.ok(m, `test/observability/${dir}/go.mod does not require ${mod}`);
    return m[1]!;
  };
  // The Prometheus project tags its Go module v0.MNN.P for release M.NN.P (v0.316.0 = 3.16.0).
  const prom = /^v0\.(\d)(\d\d)\.(\d+)$/.exec(
    pinned('prometheus', 'github.com/prometheus/prometheus'),
  );
  assert.ok(prom, 'github.com/prometheus/prometheus is not a v0.MNN.P version');
  assert.equal(
    services.prometheus.image,
    `prom/prometheus:v${prom[1]}.${Number(prom[2])}.${prom[3]}`,
  );
  assert.equal(
    services.alertmanager.image,
    `prom/alertmanager:${pinned('alertmanager', 'github.com/prometheus/alertmanager')}`,
  );
});
