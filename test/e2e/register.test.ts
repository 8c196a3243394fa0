/**
 * End to end: the register entry (`node --require dist/cjs/register.js`, `node --import
 * dist/esm/register.mjs`) in a child process running the fleet demo (real @a2a-js/sdk
 * peers and client), exporting OTLP/HTTP to a real receiver that stores the spans and
 * data points flattened, as Jaeger/Tempo and Prometheus would show them.
 *
 *   npm run build && node --import tsx --test test/e2e/register.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedDataPoint,
  type ReceivedSpan,
} from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';
import { describeRun, runNode, type RunResult } from '../helpers/run-node';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const REGISTER_ESM = path.join(REPO, 'dist', 'esm', 'register.mjs');
const DEMO_CJS = path.join(REPO, 'examples', 'fleet-demo.js');
const DEMO_ESM = path.join(REPO, 'examples', 'fleet-demo.mjs');
const RUN_DEMO = path.join(REPO, 'examples', 'run-demo.js');
const IDLE_APP = path.join(__dirname, 'fixtures', 'idle-app.js');
const SCOPE = 'opentelemetry-instrumentation-a2a';
/** The register entry's own cap on the shutdown flush (src/register.ts SHUTDOWN_TIMEOUT_MS). */
const SHUTDOWN_CAP_MS = 3000;
const SPAN_WAIT_MS = 5000;

/** The seed's skill fingerprint (its Python, run as is) of the demo's three cards. */
const FP_SUMMARIZE_MARKDOWN = '66eb6a79ac58b8a83cd0cdab70ece2d2b2b1e5c97be4edb81883e78a552e5806';
const FP_TRANSLATE_PLAIN = 'ab1043b54dcd24986582640292c3a026184171aba215ab868d6b2607e7a2e058';
const FP_SUMMARIZE_PLAIN = '8268d6b7ee1b9ed48f4cef395d526f7d1d1b4f3ca48c39936e67ce4e993a4e3a';

const STATUS_ERROR = 2;
const KIND_CLIENT = 3;
const KIND_SERVER = 2;

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let rx: OtlpReceiver;
let serial = 0;

before(async () => {
  for (const f of [REGISTER_CJS, REGISTER_ESM, DEMO_CJS, DEMO_ESM])
    assert.ok(fs.existsSync(f), `${path.relative(REPO, f)} is missing (run npm run build first)`);
  rx = await startOtlpReceiver();
});

after(async () => {
  await rx?.close();
});

function serviceName(label: string): string {
  return `a2a-e2e-${label}-${process.pid}-${++serial}`;
}

const ofService = (name: string) => (s: { resource: Record<string, unknown> }) =>
  s.resource['service.name'] === name;

/** Environment for a demo run exporting to the receiver. */
function exportEnv(service: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
    OTEL_METRIC_EXPORT_INTERVAL: '500',
    OTEL_SERVICE_NAME: service,
    // round 4: the client learns of the new card at its next call, with no revalidation
    OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS: '0',
    ...extra,
  });
}

/** Lines of the demo's stdout that do not depend on ports, task ids, timings or where the telemetry went. */
function normalisedDemoOutput(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => !l.startsWith('Telemetry:'))
    .map((l) =>
      l
        .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
        .replace(/task=[0-9a-f-]+…?/g, 'task=ID')
        .replace(/\d+ GetTask polls/g, 'N GetTask polls')
        // a task's polls carry the client's card too: as many as the polls
        .replace(/calls=\d+ \(SendMessage, GetTask\)/g, 'calls=N (SendMessage, GetTask)')
        .replace(/: \d+ calls from stale callers/g, ': N calls from stale callers')
        .replace(/\(\d+ ms\)/g, '(T ms)'),
    );
}

const latest = (points: ReceivedDataPoint[]): ReceivedDataPoint[] => {
  const bySeries = new Map<string, ReceivedDataPoint>();
  for (const p of points) {
    const key = JSON.stringify(Object.entries(p.attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
    const prev = bySeries.get(key);
    if (!prev || BigInt(p.timeUnixNano) >= BigInt(prev.timeUnixNano)) bySeries.set(key, p);
  }
  return [...bySeries.values()];
};

/** What the seed's fleet must leave in a trace backend and a metrics backend. */
async function checkFleetTelemetry(service: string, run: RunResult): Promise<void> {
  assert.equal(run.code, 0, describeRun(run));
  assert.equal(run.signal, null);
  for (const line of [
    "evicted peer-a's cached card; re-fetching",
    "evicted peer-b's cached card; re-fetching",
    'DRIFT  unknown_skill  agent=peer-a skill=summarize-v2',
    'DRIFT  output_mode_mismatch  agent=peer-b skill=summarize-v2',
    'CARD CHANGED  peer-a',
    'CARD CHANGED  peer-b',
    // what changed, from the card_changed event's diff
    'removed summarize-v2; added translate-v1',
    'summarize-v2 output text/markdown → text/plain',
    'healthy calls flagged: 0',
    // round 4, the agent's side: a caller without the package asks for the removed skill, and
    // the client learns of the next card at its next call (revalidation off)
    "Round 4: the agent's side (revalidation off)",
    'STALE CALLER  caller_skill_not_in_card  agent=peer-a skill=summarize-v2 calls=1 (SendMessage)',
    'STALE CALLER  caller_card_stale  agent=peer-a skill=translate-v1 calls=',
    'added detect-language-v1  (announced by the agent at this call)',
    "evicted peer-a's cached card; the next call re-fetches it",
    "1 new card learnt from the agent's announcement",
    'OK: everything expected was caught',
  ]) {
    assert.ok(run.stdout.includes(line), `the demo printed ${JSON.stringify(line)}\n${run.stdout}`);
  }
  assert.match(
    run.stdout,
    new RegExp(`Telemetry: traces: OTLP/HTTP → ${rx.url.replace(/[.]/g, '\\.')}/v1/traces`),
  );

  const mine = ofService(service);
  // Everything was flushed before the child exited; the wait only absorbs the receiver's own I/O.
  await rx.waitForSpans(
    (s) => mine(s) && s.attributes['a2a.drift.kind'] !== undefined,
    SPAN_WAIT_MS,
    4,
  );
  const all = rx.spans.filter(mine);
  // The demo's agents run in the demo's process: the package sees them answer as well (the
  // agent's side: SERVER spans of their answers, named as the calls).
  const spans = all.filter((s) => s.kind !== KIND_SERVER);
  assert.ok(spans.length > 0);
  for (const s of spans) {
    assert.equal(s.scopeName, SCOPE, `${s.name} comes from the instrumentation`);
    assert.equal(s.kind, KIND_CLIENT, `${s.name} is a CLIENT span`);
    assert.equal(s.resource['service.name'], service);
  }
  const served = all.filter((s) => s.kind === KIND_SERVER);
  assert.ok(served.length > 0, 'the agents of the demo have SERVER spans');
  for (const s of served) {
    assert.equal(s.scopeName, SCOPE);
    assert.match(String(s.attributes['a2a.agent_card.fingerprint']), /^[0-9a-f]{64}$/);
  }
  // Round 4: the agent sees its stale callers on its SERVER spans.
  const staleServed = served
    .filter((s) => s.attributes['a2a.drift.kind'] !== undefined)
    .map((s) => `${s.name}:${s.attributes['a2a.drift.kind']}@${s.attributes['gen_ai.agent.name']}`);
  assert.equal(
    staleServed.filter((x) => x === 'SendMessage:caller_skill_not_in_card@peer-a').length,
    1,
    `the caller without the package, naming the removed skill: ${staleServed}`,
  );
  assert.ok(
    staleServed.includes('SendMessage:caller_card_stale@peer-a'),
    `the client on the older card: ${staleServed}`,
  );
  assert.deepEqual(
    [...new Set(staleServed.map((x) => x.replace(/^\w+:/, '')))].sort(),
    ['caller_card_stale@peer-a', 'caller_skill_not_in_card@peer-a'],
    'nothing else is a stale caller (the in-place redeploys of rounds 2 are unseen by the agent)',
  );
  const notInCard = served.find(
    (s) => s.attributes['a2a.drift.kind'] === 'caller_skill_not_in_card',
  )!;
  assert.equal(notInCard.attributes['a2a.skill.id'], 'summarize-v2');

  // GetAgentCard: the two first fetches and the two re-fetches after eviction.
  const cards = spans.filter((s) => s.name === 'GetAgentCard');
  assert.equal(cards.length, 4, `4 GetAgentCard spans, got ${cards.length}`);
  for (const c of cards) {
    assert.match(
      String(c.attributes['a2a.agent_card.fingerprint']),
      /^[0-9a-f]{64}$/,
      'GetAgentCard carries the skill fingerprint',
    );
    assert.match(
      String(c.attributes['a2a.agent_card.url']),
      /^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json$/,
    );
  }
  const byStart = (a: ReceivedSpan, b: ReceivedSpan) =>
    BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1;
  const fingerprints = new Map<string, { first: string; last: string }>();
  for (const c of [...cards].sort(byStart)) {
    const agent = String(c.attributes['gen_ai.agent.name']);
    const fp = String(c.attributes['a2a.agent_card.fingerprint']);
    const seen = fingerprints.get(agent);
    fingerprints.set(agent, { first: seen?.first ?? fp, last: fp });
  }
  assert.deepEqual([...fingerprints.keys()].sort(), ['peer-a', 'peer-b']);
  // Byte-for-byte the seed's algorithm: the values its Python gives for these cards.
  assert.deepEqual(fingerprints.get('peer-a'), {
    first: FP_SUMMARIZE_MARKDOWN,
    last: FP_TRANSLATE_PLAIN,
  });
  assert.deepEqual(fingerprints.get('peer-b'), {
    first: FP_SUMMARIZE_MARKDOWN,
    last: FP_SUMMARIZE_PLAIN,
  });

  const drifted = spans.filter((s) => s.attributes['a2a.drift.kind'] !== undefined);
  assert.deepEqual(
    drifted
      .map(
        (s) => `${s.name}:${s.attributes['a2a.drift.kind']}@${s.attributes['gen_ai.agent.name']}`,
      )
      .sort(),
    [
      'GetAgentCard:card_changed@peer-a',
      'GetAgentCard:card_changed@peer-b',
      'GetTask:output_mode_mismatch@peer-b',
      'GetTask:unknown_skill@peer-a',
      // round 4: the answer announced the next card; the card fetched again decided
      'SendMessage:card_changed@peer-a',
    ],
    "exactly the seed's two drifts and the two card changes are flagged: healthy calls and the retries are not",
  );

  const linkedSend = (poll: ReceivedSpan): ReceivedSpan => {
    assert.ok(
      poll.links.length >= 1,
      `${poll.name} links to the SendMessage that created its task`,
    );
    const send = spans.find(
      (s) =>
        s.name === 'SendMessage' &&
        s.spanId === poll.links[0].spanId &&
        s.traceId === poll.links[0].traceId,
    );
    assert.ok(send, 'the link resolves to a SendMessage span of this run');
    assert.equal(send.attributes['a2a.task.id'], poll.attributes['a2a.task.id'], 'same task');
    assert.equal(
      send.attributes['a2a.drift.kind'],
      undefined,
      'the SendMessage itself is not flagged (its reply was SUBMITTED)',
    );
    return send;
  };

  // Variant A: the poll shows the failure.
  const unknown = drifted.find(
    (s) => s.attributes['a2a.drift.kind'] === 'unknown_skill',
  ) as ReceivedSpan;
  assert.equal(unknown.status.code, STATUS_ERROR);
  assert.equal(unknown.attributes['error.type'], 'StaleAgentCardError');
  assert.equal(unknown.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(unknown.attributes['a2a.method.name'], 'GetTask');
  assert.equal(unknown.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
  assert.equal(
    unknown.attributes['a2a.agent_card.fingerprint'],
    fingerprints.get('peer-a')?.first,
    'judged against the card used at negotiation',
  );
  assert.equal(unknown.attributes['server.address'], '127.0.0.1');
  assert.ok(
    unknown.events.some(
      (e) => e.name === 'exception' && e.attributes['exception.type'] === 'StaleAgentCardError',
    ),
    'exception event',
  );
  const sendA = linkedSend(unknown);
  assert.equal(sendA.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(
    sendA.attributes['a2a.task.state'],
    'TASK_STATE_SUBMITTED',
    'returnImmediately: the reply was SUBMITTED',
  );

  // Variant B: the poll shows the completed task with the wrong media type.
  const mismatch = drifted.find(
    (s) => s.attributes['a2a.drift.kind'] === 'output_mode_mismatch',
  ) as ReceivedSpan;
  assert.equal(mismatch.status.code, STATUS_ERROR);
  assert.equal(mismatch.attributes['error.type'], 'ArtifactSchemaDriftError');
  assert.equal(mismatch.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(mismatch.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
  assert.deepEqual(mismatch.attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
  assert.equal(mismatch.attributes['a2a.drift.actual_media_type'], 'text/plain');
  assert.ok(
    mismatch.events.some(
      (e) =>
        e.name === 'exception' && e.attributes['exception.type'] === 'ArtifactSchemaDriftError',
    ),
    'exception event',
  );
  linkedSend(mismatch);

  // card_changed on the re-fetch, with both fingerprints.
  for (const agent of ['peer-a', 'peer-b']) {
    const changed = drifted.find(
      (s) =>
        s.attributes['a2a.drift.kind'] === 'card_changed' &&
        s.attributes['gen_ai.agent.name'] === agent,
    ) as ReceivedSpan;
    const fp = fingerprints.get(agent) as { first: string; last: string };
    assert.equal(changed.name, 'GetAgentCard');
    // the re-fetch that confirms the change is not an error: status UNSET, an event
    assert.notEqual(changed.status.code, STATUS_ERROR);
    assert.equal(changed.attributes['error.type'], undefined);
    assert.ok(
      changed.events.some((e) => e.name === 'a2a.agent_card.changed'),
      'a2a.agent_card.changed event',
    );
    assert.equal(changed.attributes['a2a.agent_card.previous_fingerprint'], fp.first);
    assert.equal(changed.attributes['a2a.agent_card.fingerprint'], fp.last);
    assert.equal(changed.attributes['gen_ai.agent.version'], '1.0', 'same version');
    assert.equal(changed.attributes['a2a.agent_card.version_changed'], undefined);
  }

  // The retries (and round 3) are negotiated with the NEW cards and are not flagged.
  const afterChange = (agent: string) =>
    spans.filter(
      (s) =>
        (s.name === 'SendMessage' || s.name === 'GetTask') &&
        s.attributes['gen_ai.agent.name'] === agent &&
        s.attributes['a2a.agent_card.fingerprint'] === fingerprints.get(agent)?.last,
    );
  const retryA = afterChange('peer-a');
  assert.ok(
    retryA.filter((s) => s.name === 'SendMessage').length >= 2,
    'peer-a: the retry and round 3 use the new card',
  );
  const announced = drifted.find((s) => s.name === 'SendMessage')!;
  assert.equal(announced.attributes['a2a.drift.suspicion'], 'announced');
  assert.equal(announced.attributes['a2a.skill.id'], 'translate-v1');
  const cardStale = served.find((s) => s.attributes['a2a.drift.kind'] === 'caller_card_stale')!;
  assert.equal(
    cardStale.attributes['a2a.caller.card_fingerprint'],
    fingerprints.get('peer-a')?.last,
    'the agent names the card the client negotiated with (the one of round 2)',
  );
  for (const s of retryA.filter((x) => x !== announced)) {
    assert.equal(
      s.attributes['a2a.skill.id'],
      'translate-v1',
      'the retry negotiated the skill of the new card',
    );
    assert.equal(s.attributes['a2a.drift.kind'], undefined);
    assert.notEqual(s.status.code, STATUS_ERROR);
  }
  const retryB = afterChange('peer-b');
  assert.ok(
    retryB.filter((s) => s.name === 'SendMessage').length >= 2,
    'peer-b: the retry and round 3 use the new card',
  );
  assert.ok(
    retryB.some(
      (s) => s.name === 'GetTask' && s.attributes['a2a.task.state'] === 'TASK_STATE_COMPLETED',
    ),
    'peer-b completed with the new card',
  );
  for (const s of retryB) {
    assert.equal(s.attributes['a2a.skill.id'], 'summarize-v2');
    assert.equal(
      s.attributes['a2a.drift.kind'],
      undefined,
      'text/plain is allowed by the new card',
    );
    assert.notEqual(s.status.code, STATUS_ERROR);
  }

  // The counter, as Prometheus would scrape it: by kind, never by fingerprint.
  await rx.waitForMetrics((p) => mine(p) && p.name === 'a2a.client.card_drift', SPAN_WAIT_MS, 1);
  const points = rx.metrics.filter((p) => mine(p) && p.name === 'a2a.client.card_drift');
  for (const p of points) {
    assert.equal(p.type, 'sum');
    assert.equal(p.isMonotonic, true);
    assert.equal(p.unit, '{event}');
    assert.equal(p.scopeName, SCOPE);
    assert.equal(typeof p.attributes['a2a.drift.kind'], 'string');
    assert.deepEqual(
      Object.keys(p.attributes).filter(
        (k) =>
          k.includes('fingerprint') ||
          (k.includes('url') && k !== 'a2a.agent_card.url') ||
          k.includes('task'),
      ),
      [],
      'no high-cardinality attribute on the metric (the card URL is bounded by the cards held: one series per card × skill × kind)',
    );
  }
  const totals: Record<string, number> = {};
  for (const p of latest(points)) {
    const key = `${p.attributes['a2a.drift.kind']}@${p.attributes['gen_ai.agent.name']}`;
    totals[key] = (totals[key] ?? 0) + p.value;
    assert.equal(p.attributes['server.address'], '127.0.0.1');
    assert.equal(typeof p.attributes['server.port'], 'number');
    assert.match(
      String(p.attributes['a2a.agent_card.url']),
      /^http:\/\/127\.0\.0\.1:\d+\/.*agent-card\.json$/,
      'which card: its URL as fetched',
    );
  }
  assert.deepEqual(totals, {
    'unknown_skill@peer-a': 1,
    'output_mode_mismatch@peer-b': 1,
    'card_changed@peer-a': 2,
    'card_changed@peer-b': 1,
  });
  // The agent's counter: by kind and skill, never by the caller's fingerprint.
  await rx.waitForMetrics((p) => mine(p) && p.name === 'a2a.server.stale_calls', SPAN_WAIT_MS, 1);
  const stalePoints = latest(
    rx.metrics.filter((p) => mine(p) && p.name === 'a2a.server.stale_calls'),
  );
  const staleTotals: Record<string, number> = {};
  for (const p of stalePoints) {
    assert.equal(p.unit, '{call}');
    assert.equal(p.attributes['a2a.caller.card_fingerprint'], undefined);
    const key = `${p.attributes['a2a.drift.kind']}/${p.attributes['a2a.skill.id'] ?? '-'}`;
    staleTotals[key] = (staleTotals[key] ?? 0) + p.value;
  }
  assert.equal(staleTotals['caller_skill_not_in_card/summarize-v2'], 1);
  assert.ok((staleTotals['caller_card_stale/translate-v1'] ?? 0) >= 1, JSON.stringify(staleTotals));
  const unknownPoint = latest(points).find(
    (p) => p.attributes['a2a.drift.kind'] === 'unknown_skill',
  );
  assert.equal(unknownPoint?.attributes['a2a.skill.id'], 'summarize-v2');
}

describe('register entry, end to end (fleet demo → OTLP receiver)', { timeout: 120_000 }, () => {
  let cjsStdout = '';

  test('node --require dist/cjs/register.js examples/fleet-demo.js', async () => {
    const service = serviceName('cjs');
    const run = await runNode(['--require', REGISTER_CJS, DEMO_CJS], exportEnv(service));
    cjsStdout = run.stdout;
    await checkFleetTelemetry(service, run);
  });

  test('node --import dist/esm/register.mjs examples/fleet-demo.mjs', async () => {
    const service = serviceName('esm');
    const run = await runNode(['--import', REGISTER_ESM, DEMO_ESM], exportEnv(service));
    assert.ok(run.stdout.includes('A2A fleet demo (ESM)'), run.stdout);
    await checkFleetTelemetry(service, run);
  });

  test('SIGTERM to an idle app: the queued span is flushed, then the process dies of the signal', async () => {
    const service = serviceName('sigterm');
    const marker = `m-${Date.now()}`;
    let sentAt = 0;
    const run = await runNode(
      ['--require', REGISTER_CJS, IDLE_APP],
      exportEnv(service, { E2E_MARKER: marker }),
      {
        onStdout: (out, child) => {
          if (sentAt === 0 && out.includes('ready')) {
            sentAt = Date.now();
            child.kill('SIGTERM');
          }
        },
      },
    );
    assert.ok(sentAt > 0, `the app got ready\n${describeRun(run)}`);
    assert.ok(
      run.signal === 'SIGTERM' || run.code === 143,
      `exits by the signal, got ${describeRun(run)}`,
    );
    const flushed = rx.spans.filter((s) => ofService(service)(s) && s.name === 'idle-app-work');
    assert.equal(
      flushed.length,
      1,
      'the span waiting in the batch processor was exported before the process ended',
    );
    assert.equal(flushed[0].attributes['e2e.marker'], marker);
    assert.ok(Date.now() - sentAt < SHUTDOWN_CAP_MS + 2000, 'and promptly');
  });

  test('OTEL_SDK_DISABLED=true: the demo runs and nothing arrives', async () => {
    const service = serviceName('disabled');
    const exportsBefore = rx.exports.length;
    const run = await runNode(
      ['--require', REGISTER_CJS, DEMO_CJS],
      exportEnv(service, { OTEL_SDK_DISABLED: 'true' }),
    );
    assert.equal(run.code, 0, describeRun(run));
    assert.ok(run.stdout.includes('Telemetry: nowhere (OTEL_SDK_DISABLED=true)'), run.stdout);
    await sleep(700); // more than one metric interval
    assert.equal(rx.spans.filter(ofService(service)).length, 0, 'no spans');
    assert.equal(rx.metrics.filter(ofService(service)).length, 0, 'no metrics');
    assert.equal(rx.exports.length, exportsBefore, 'no export request at all');
  });

  test('OTEL_INSTRUMENTATION_A2A_MAX_INSPECT_BYTES=abc: one warning, the default applies, no crash', async () => {
    const service = serviceName('bad-config');
    const run = await runNode(
      ['--require', REGISTER_CJS, DEMO_CJS],
      exportEnv(service, { OTEL_INSTRUMENTATION_A2A_MAX_INSPECT_BYTES: 'abc' }),
    );
    assert.equal(run.code, 0, describeRun(run));
    assert.ok(
      run.stdout.includes('OK: everything expected was caught'),
      'drift is still caught (default maxInspectBytes)',
    );
    const warnings = (run.stdout + run.stderr)
      .split('\n')
      .filter((l) => l.includes('MAX_INSPECT_BYTES'));
    assert.equal(
      warnings.length,
      1,
      `exactly one warning naming the variable, got ${warnings.length}:\n${describeRun(run)}`,
    );
    assert.match(warnings[0], /abc/, 'the warning shows the bad value');
    assert.ok(run.stderr.includes('MAX_INSPECT_BYTES'), 'on stderr');
    await rx.waitForSpans(
      (s) => ofService(service)(s) && s.attributes['a2a.drift.kind'] !== undefined,
      SPAN_WAIT_MS,
      4,
    );
  });

  for (const interval of [undefined, '500']) {
    test(`collector down${interval ? ` (OTEL_METRIC_EXPORT_INTERVAL=${interval})` : ''}: same exit code and output, telemetry dropped, exit within the shutdown cap`, async () => {
      assert.ok(cjsStdout, "needs the first test's output to compare with");
      const port = await closedPort();
      const env = cleanEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: serviceName('down'),
        OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS: '0',
        ...(interval ? { OTEL_METRIC_EXPORT_INTERVAL: interval } : {}),
      });
      const run = await runNode(['--require', REGISTER_CJS, DEMO_CJS], env, { timeoutMs: 20_000 });
      assert.equal(
        run.timedOut,
        false,
        `the process exits although the collector is down\n${describeRun(run)}`,
      );
      assert.equal(run.code, 0, describeRun(run));
      assert.deepEqual(
        normalisedDemoOutput(run.stdout),
        normalisedDemoOutput(cjsStdout),
        'the same output as with a collector (ports, ids and timings aside)',
      );
      assert.ok(
        run.afterLastOutputMs < SHUTDOWN_CAP_MS + 2000,
        `the flush to a dead collector holds the exit for at most the register's ${SHUTDOWN_CAP_MS} ms cap (+2 s slack); it took ${run.afterLastOutputMs} ms`,
      );
    });
  }
});

describe('examples/run-demo.js (npm run demo)', { timeout: 60_000 }, () => {
  test('no endpoint configured: exports nothing, prints the findings, exit 0', async () => {
    const exportsBefore = rx.exports.length;
    const run = await runNode([RUN_DEMO], cleanEnv({}));
    assert.equal(run.code, 0, describeRun(run));
    assert.ok(
      run.stdout.includes(
        'Telemetry: nowhere (OTEL_TRACES_EXPORTER=none, OTEL_METRICS_EXPORTER=none)',
      ),
      run.stdout,
    );
    assert.ok(run.stdout.includes('OK: everything expected was caught'), run.stdout);
    assert.equal(rx.exports.length, exportsBefore);
  });

  test('OTEL_EXPORTER_OTLP_ENDPOINT set: passed through, service.name defaults to a2a-fleet-client', async () => {
    const run = await runNode([RUN_DEMO], cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: rx.url }));
    assert.equal(run.code, 0, describeRun(run));
    const spans = await rx.waitForSpans(
      (s) =>
        s.resource['service.name'] === 'a2a-fleet-client' &&
        s.attributes['a2a.drift.kind'] === 'unknown_skill',
      SPAN_WAIT_MS,
    );
    assert.equal(spans.length >= 1, true);
    assert.ok(run.stdout.includes('service.name=a2a-fleet-client'), run.stdout);
  });
});
