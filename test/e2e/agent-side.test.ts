/**
 * Both ends of the wire, live: a real @a2a-js/sdk express agent (test/e2e/fixtures/sdk-agent.ts)
 * in a child process run with the register entry, exporting OTLP to a real receiver, called
 * - by a client without the package (node:http from this process, which loads no part of the
 *   instrumentation for these calls): SERVER spans, the fingerprint header, stale callers, the
 *   counter; bad input answered byte for byte as the bare agent answers it;
 * - by a Node client with the package (the in-memory harness in this process, revalidation
 *   off): after a redeploy (the agent restarted on the same URL without a skill) the caller
 *   learns card_changed at its next call, and the agent sees its stale caller.
 * Fails on main: no SERVER span, no `A2A-Card-Fingerprint` header, no card_changed without
 * revalidation.
 *
 *   npm run build && node --import tsx --test test/e2e/agent-side.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../peers/otlp-receiver';
import { cleanEnv } from '../helpers/clean-env';
import { freePort } from '../helpers/free-port';
import { setupOtel, type Harness } from '../helpers/otel';
import { A2A_V1, raw as rawHttp, sendMessage, type Answer } from '../helpers/raw-http';
import { skillFingerprint } from '../../src/core/fingerprint';
import type { DriftEvent } from '../../src/core/judge';
import { DEFAULT_SKILL, TRANSLATE_SKILL } from '../peers/sdk-peer';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const AGENT = path.join(__dirname, 'fixtures', 'sdk-agent.ts');
const SCOPE = 'opentelemetry-instrumentation-a2a';
const KIND_SERVER = 2;

interface Agent {
  child: ChildProcess;
  baseUrl: string;
  /** `CARD_GET` lines: the user agent of each card GET received. */
  cardGets: string[];
  stop(): Promise<void>;
}

let serial = 0;

function startAgent(opts: {
  instrumented: boolean;
  port: number;
  skills: string[];
  rx?: OtlpReceiver;
}): Promise<Agent> {
  const service = `a2a-agent-side-${process.pid}-${++serial}`;
  const env = cleanEnv({
    AGENT_PORT: String(opts.port),
    AGENT_SKILLS: opts.skills.join(','),
    ...(opts.rx
      ? {
          OTEL_SERVICE_NAME: service,
          OTEL_EXPORTER_OTLP_ENDPOINT: opts.rx.url,
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_METRIC_EXPORT_INTERVAL: '200',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_BSP_SCHEDULE_DELAY: '50',
        }
      : { OTEL_SDK_DISABLED: 'true' }),
  });
  const args = opts.instrumented
    ? ['--require', REGISTER_CJS, '--import', 'tsx', AGENT]
    : ['--import', 'tsx', AGENT];
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const cardGets: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${stderr}`)), 20_000);
    let buffered = '';
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.startsWith('CARD_GET ')) cardGets.push(line.slice(9));
        else if (line.startsWith('AGENT ')) {
          clearTimeout(timer);
          resolve({
            child,
            baseUrl: line.slice(6).trim(),
            cardGets,
            stop: () =>
              new Promise<void>((done) => {
                if (child.exitCode !== null) return done();
                child.once('exit', () => done());
                child.kill('SIGTERM');
              }),
          });
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`agent exited ${code}: ${stderr}`)));
  });
}

/** node:http requests; a cut connection (or any request error) is an answer, status -1. */
const raw = (...[url, method, body, headers, opts]: Parameters<typeof rawHttp>) =>
  rawHttp(url, method, body, headers, { ...opts, errorAsAnswer: true });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let rx: OtlpReceiver;

before(async () => {
  assert.ok(fs.existsSync(REGISTER_CJS), 'dist/ is missing (run npm run build first)');
  rx = await startOtlpReceiver();
});
after(async () => {
  await rx?.close();
});

const serverSpans = (service?: string) => (s: ReceivedSpan) =>
  s.scopeName === SCOPE &&
  s.kind === KIND_SERVER &&
  (service === undefined || s.resource['service.name'] === service);

describe(
  'the agent side with the register entry, called by a client without the package',
  { timeout: 120_000 },
  () => {
    test('SERVER spans joined to the caller, the fingerprint header, stale callers counted (bounded)', async () => {
      rx.clear();
      const agent = await startAgent({
        instrumented: true,
        port: await freePort(),
        skills: [DEFAULT_SKILL.id],
        rx,
      });
      try {
        const jsonrpc = `${agent.baseUrl}/a2a/jsonrpc`;
        // the very first request, before anyone fetched the card
        const traceId = '0af7651916cd43dd8448eb211c80319c';
        const parent = 'b7ad6b7169203331';
        const first = await raw(jsonrpc, 'POST', sendMessage(DEFAULT_SKILL.id), {
          ...A2A_V1,
          traceparent: `00-${traceId}-${parent}-01`,
        });
        assert.equal(first.status, 200);
        const card = await raw(`${agent.baseUrl}/.well-known/agent-card.json`, 'GET');
        const fp = skillFingerprint(JSON.parse(card.body));
        const second = await raw(jsonrpc, 'POST', sendMessage(DEFAULT_SKILL.id), A2A_V1);
        assert.equal(second.headers['a2a-card-fingerprint'], fp);
        // the card GET is no A2A operation: no header on it
        assert.equal(card.headers['a2a-card-fingerprint'], undefined);
        // one loopback request of the package's own, at the first A2A request
        assert.equal(agent.cardGets.filter((ua) => ua === SCOPE).length, 1, agent.cardGets.join());

        const spans = await rx.waitForSpans(serverSpans(), 10_000, 2);
        const firstSpan = spans.find((s) => s.traceId === traceId);
        assert.ok(firstSpan, 'the first SERVER span joined the caller trace');
        assert.equal(firstSpan.parentSpanId, parent);
        assert.equal(firstSpan.name, 'SendMessage');
        assert.equal(firstSpan.attributes['a2a.method.name'], 'SendMessage');
        assert.equal(firstSpan.attributes['a2a.protocol.version'], '1.0');
        assert.equal(firstSpan.attributes['a2a.skill.id'], DEFAULT_SKILL.id);
        assert.equal(firstSpan.attributes['a2a.agent_card.fingerprint'], fp);
        assert.equal(
          firstSpan.attributes['a2a.agent_card.url'],
          `${agent.baseUrl}/.well-known/agent-card.json`,
        );

        // thousands of made-up skills and a forged fingerprint: stale callers, series bounded
        for (let i = 0; i < 200; i++)
          await raw(jsonrpc, 'POST', sendMessage(`made-up-${i}`), A2A_V1);
        await raw(jsonrpc, 'POST', sendMessage(DEFAULT_SKILL.id), {
          ...A2A_V1,
          'a2a-card-fingerprint': 'ab'.repeat(32),
        });
        const points = await rx.waitForMetrics(
          (p) => p.name === 'a2a.server.stale_calls',
          10_000,
          1,
        );
        await sleep(600); // the last export holds every series
        const latest = new Map<string, number>();
        for (const p of rx.metrics.filter((m) => m.name === 'a2a.server.stale_calls'))
          latest.set(JSON.stringify(p.attributes), Number(p.value));
        void points;
        const series = [...latest.keys()].map((k) => JSON.parse(k) as Record<string, unknown>);
        const notInCard = series.filter((a) => a['a2a.drift.kind'] === 'caller_skill_not_in_card');
        assert.ok(notInCard.length <= 17, `series bounded: ${notInCard.length}`);
        const total = [...latest.entries()]
          .filter(([k]) => k.includes('caller_skill_not_in_card'))
          .reduce((a, [, v]) => a + v, 0);
        assert.equal(total, 200);
        assert.ok(notInCard.some((a) => a['a2a.skill.id'] === '_OTHER'));
        assert.ok(series.some((a) => a['a2a.drift.kind'] === 'caller_card_stale'));
        const stale = (await rx.waitForSpans(serverSpans(), 10_000, 203)).find(
          (s) => s.attributes['a2a.drift.kind'] === 'caller_card_stale',
        );
        assert.ok(stale);
        assert.equal(stale.attributes['a2a.caller.card_fingerprint'], 'ab'.repeat(32));
        assert.equal(stale.status.code, 0, "the span's status stays the server's own");
        assert.ok(stale.events.some((e) => e.name === 'a2a.drift'));
      } finally {
        await agent.stop();
      }
    });

    test('bad input: the answers are byte-identical with and without the package', async () => {
      const port = await freePort();
      const answers: Record<string, string[]> = {};
      for (const instrumented of [false, true]) {
        const agent = await startAgent({
          instrumented,
          port,
          skills: [DEFAULT_SKILL.id],
          rx: instrumented ? rx : undefined,
        });
        const jsonrpc = `${agent.baseUrl}/a2a/jsonrpc`;
        const huge = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { parts: [{ text: 'x'.repeat(3 * 1024 * 1024) }] } },
        });
        const cases: Array<() => Promise<Answer>> = [
          () => raw(jsonrpc, 'POST', '{"jsonrpc":"2.0","id":1,"method":"SendMe', A2A_V1),
          () => raw(jsonrpc, 'POST', 'not json at all', A2A_V1),
          () =>
            raw(jsonrpc, 'POST', '{"jsonrpc":"2.0","id":2,"method":"NoSuchMethod","params":{}}'),
          () => raw(jsonrpc, 'POST', huge, A2A_V1),
          () =>
            raw(
              jsonrpc,
              'POST',
              '{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{"id":"nope"}}',
              A2A_V1,
              { slowChunks: 5 },
            ),
          () =>
            raw(jsonrpc, 'POST', '{"jsonrpc":"2.0","id":4,"meth', A2A_V1, { declaredLength: 500 }),
          () => raw(`${agent.baseUrl}/not-a2a`, 'POST', '{"a":1}'),
          () => raw(`${agent.baseUrl}/a2a/rest/tasks/unknown-task`, 'GET', undefined, A2A_V1),
        ];
        const out: string[] = [];
        for (const c of cases) {
          const a = await c();
          const headers = { ...a.headers };
          delete headers['date'];
          delete headers['x-powered-by'];
          // an A2A answer gains the fingerprint header, nothing else
          delete headers['a2a-card-fingerprint'];
          out.push(JSON.stringify([a.status, headers, a.body.slice(0, 2000), a.body.length]));
        }
        answers[String(instrumented)] = out;
        await agent.stop();
      }
      assert.deepEqual(answers['true'], answers['false']);
    });
  },
);

describe(
  'the caller with the package learns of a redeploy at its next call',
  { timeout: 120_000 },
  () => {
    let h: Harness;
    before(() => {
      h = setupOtel({ cardRevalidationMs: 0 });
    });
    after(async () => {
      await h.shutdown();
    });

    test('redeploy without a skill: card_changed at the next answer (revalidation off), the agent sees its stale caller', async () => {
      rx.clear();
      await h.reset();
      const drifts: Array<{ at: number; event: DriftEvent }> = [];
      h.instrumentation.setConfig({
        cardRevalidationMs: 0,
        driftCallbackDebounceMs: 0,
        onDrift: (event) => void drifts.push({ at: Date.now(), event }),
      });
      const port = await freePort();
      let agent = await startAgent({
        instrumented: true,
        port,
        skills: [DEFAULT_SKILL.id, TRANSLATE_SKILL.id],
        rx,
      });
      try {
        const cardUrl = `${agent.baseUrl}/.well-known/agent-card.json`;
        const jsonrpc = `${agent.baseUrl}/a2a/jsonrpc`;
        const call = (skill: string) =>
          fetch(jsonrpc, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...A2A_V1 },
            body: sendMessage(skill),
          }).then((r) => r.json());
        const fpBefore = skillFingerprint(await (await fetch(cardUrl)).json());
        await call(TRANSLATE_SKILL.id);
        assert.equal(drifts.length, 0);
        // the redeploy: the same URL, the summarize skill gone, the version unchanged
        await agent.stop();
        agent = await startAgent({ instrumented: true, port, skills: [TRANSLATE_SKILL.id], rx });
        const redeployedAt = Date.now();
        const getsBefore = agent.cardGets.filter((ua) => ua !== SCOPE).length;
        // the first answer carries the new fingerprint when the agent learned its card before
        // answering (its loopback request races the app's answer); the next one always does
        let calls = 0;
        while (drifts.length === 0 && calls < 2) {
          await call(TRANSLATE_SKILL.id);
          calls++;
          await h.waitForSpans(() => drifts.length > 0, 2500).catch(() => undefined);
        }
        assert.equal(drifts.length, 1, 'card_changed after the redeploy');
        const learnedMs = drifts[0]!.at - redeployedAt;
        const changed = drifts[0]!.event;
        assert.equal(changed.kind, 'card_changed');
        assert.equal(changed.suspicion, 'announced');
        assert.deepEqual(changed.diff?.removed, [DEFAULT_SKILL.id]);
        const span = (
          await h.waitForSpans((s) =>
            s.some((x) => x.attributes['a2a.drift.kind'] === 'card_changed'),
          )
        ).find((x) => x.attributes['a2a.drift.kind'] === 'card_changed')!;
        assert.equal(span.attributes['a2a.drift.suspicion'], 'announced');
        // further calls: no further card fetch, no second card_changed
        for (let i = 0; i < 5; i++) await call(TRANSLATE_SKILL.id);
        const callerFetches = agent.cardGets.filter((ua) => ua !== SCOPE).length - getsBefore;
        assert.equal(callerFetches, 1);
        assert.equal(drifts.filter((d) => d.event.kind === 'card_changed').length, 1);
        // the agent's side saw the caller announce the earlier card
        const stale = (
          await rx.waitForSpans(
            (s) => serverSpans()(s) && s.attributes['a2a.drift.kind'] === 'caller_card_stale',
            10_000,
          )
        )[0]!;
        assert.equal(stale.attributes['a2a.caller.card_fingerprint'], fpBefore);
        process.stdout.write(
          `# redeploy → caller's card_changed: ${learnedMs} ms at call ${calls} after it (revalidation off); card fetches by the caller for the redeploy: ${callerFetches}\n`,
        );
      } finally {
        await agent.stop();
      }
    });
  },
);
