/**
 * The agent's side of the conformance table: a row that declares `agentSide` has its agent run
 * under this package's register entry (a child process exporting OTLP/HTTP to a real receiver,
 * test/peers/otlp-receiver.ts), called by clients WITHOUT the package: the Python a2a-sdk client
 * (python/a2a-sdk/client.py, from the a2a-sdk venv) for the healthy call, and bare-client.mjs (a
 * plain Node process sending the row's raw JSON-RPC with fetch) for the rest. The checks here run
 * for every such row:
 * - healthy: the call gets a SERVER span named as the client's, with the fingerprint of the card
 *   the agent serves (computed here from the bytes it served), the answer carries the
 *   `A2A-Card-Fingerprint` header, and no stale caller is seen;
 * - a caller naming a skill the served card does not list: `caller_skill_not_in_card` on the
 *   SERVER span and in `a2a.server.stale_calls`;
 * - the answers (the row's same-bytes probes and the call) byte for byte as the bare agent's;
 * - the same two calls from a2a-go's own client (Go, go/a2a-go/client.go: `peer client`, built
 *   with the Go peer by scripts/real-world-go.sh), which speaks A2A 0.3 only: it reads the
 *   row's card (or the 0.3 card the row names, `agentSide.card03Path`, beside a 1.0-only one).
 */
import assert from 'node:assert/strict';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../peers/otlp-receiver';
import { skillFingerprint } from '../../../src/index';
import { PACKAGE_NAME } from '../../../src/version';
import { METRIC_SERVER_STALE_CALLS } from '../../../src/semconv';
import type { RegisterEntry } from '../child-peer.mjs';
import { normaliseWire } from '../live-checks';
import { getCard, type Json } from '../lib';
import { call } from './drivers';
import { buildGoPeer, PEER_BIN } from '../go/a2a-go/peer-process.mjs';
import { isNA, type AgentSide, type Outcome, type Peer, type Probe, type Row } from './types';
import type { Check, RowContext } from './checks';

const REPO = path.resolve(__dirname, '..', '..', '..');
const BARE_CLIENT = path.join(__dirname, 'bare-client.mjs');
const KIND_SERVER = 2;

/** What the client without the package got. */
export interface BareAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  error?: string;
}

/** Sends the requests in order from a Node process that loads nothing of this package. */
export function bareFetch(requests: Array<ReturnType<Probe['request']>>): Promise<BareAnswer[]> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [BARE_CLIENT], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdin.end(JSON.stringify(requests));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`the bare client exited ${code}: ${err.slice(0, 2000)}`));
      else resolve(JSON.parse(out) as BareAnswer[]);
    });
  });
}

/** Node arguments and environment running a child under the register entry, exporting to `rx`. */
export function registerEntry(side: AgentSide, rx: OtlpReceiver, service: string): RegisterEntry {
  const esm = path.join(REPO, 'dist', 'esm', 'register.mjs');
  const cjs = path.join(REPO, 'dist', 'cjs', 'register.js');
  assert.ok(fs.existsSync(esm) && fs.existsSync(cjs), 'dist/ is missing (run npm run build first)');
  return {
    nodeArgs: side.load === 'import' ? ['--import', pathToFileURL(esm).href] : ['--require', cjs],
    env: {
      OTEL_SERVICE_NAME: service,
      OTEL_EXPORTER_OTLP_ENDPOINT: rx.url,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_METRIC_EXPORT_INTERVAL: '200',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
  };
}

interface Instrumented {
  peer: Peer;
  rx: OtlpReceiver;
  service: string;
}
const running = new WeakMap<RowContext, Promise<Instrumented>>();

/** The row's healthy agent under the register entry (started once per row, stopped by stopAll). */
export function instrumentedAgent(ctx: RowContext): Promise<Instrumented> {
  let got = running.get(ctx);
  if (!got) {
    got = (async () => {
      const side = ctx.row.agentSide;
      assert.ok(side && !isNA(side));
      const rx = await startOtlpReceiver();
      ctx.cleanups.push(() => rx.close());
      const service = `a2a-agent-side-${ctx.row.id}-${process.pid}`;
      const peer = await ctx.start({
        variant: 'healthy',
        register: registerEntry(side, rx, service),
      });
      return { peer, rx, service };
    })();
    running.set(ctx, got);
  }
  return got;
}

/** The row's instrumented agent and its declaration, the receiver cleared of what came before. */
async function clearedAgent(ctx: RowContext): Promise<{ a: Instrumented; s: AgentSide }> {
  const a = await instrumentedAgent(ctx);
  a.rx.clear();
  return { a, s: side(ctx.row) };
}

function side(row: Row): AgentSide {
  assert.ok(row.agentSide && !isNA(row.agentSide));
  return row.agentSide;
}

const serverSpans =
  (service: string) =>
  (s: ReceivedSpan): boolean =>
    s.scopeName === PACKAGE_NAME &&
    s.kind === KIND_SERVER &&
    s.resource['service.name'] === service;

function describe(spans: ReceivedSpan[]): string {
  return spans
    .map((s) => `${s.name} ${JSON.stringify(s.attributes)}`)
    .join('\n')
    .slice(0, 3000);
}

/** The stale-call counter's latest value per series of this agent. */
function staleCalls(
  a: Instrumented,
): Array<{ attributes: Record<string, unknown>; value: number }> {
  const latest = new Map<string, number>();
  for (const p of a.rx.metrics)
    if (p.name === METRIC_SERVER_STALE_CALLS && p.resource['service.name'] === a.service)
      latest.set(JSON.stringify(p.attributes), Number(p.value));
  return [...latest].map(([k, value]) => ({
    attributes: JSON.parse(k) as Record<string, unknown>,
    value,
  }));
}

/** Every stale call this agent counted so far (the counter is cumulative), read after a fresh export. */
async function staleTotal(a: Instrumented): Promise<number> {
  a.rx.clear();
  await sleep(700);
  return staleCalls(a).reduce((n, p) => n + p.value, 0);
}

/** The card GET and the one call a client made, and the fingerprint of the card bytes it read. */
function cardThenCall(
  exchanges: PyExchange[],
  show: string,
): { card: PyExchange; answer: PyExchange; fp: string } {
  const [card, answer] = exchanges;
  assert.ok(card && answer && exchanges.length === 2, `a card GET and one call: ${show}`);
  assert.equal(card.method, 'GET', show);
  assert.equal(card.status, 200, show);
  return { card, answer, fp: skillFingerprint(JSON.parse(card.body)) };
}

/**
 * The call's one SERVER span (the card GET makes none): named `name` as its method, the skill,
 * the attributes the row pins, the fingerprint of the card the client read (`seen` prefixes
 * that failure), no verdict; the answer carries the fingerprint header, the card GET none.
 */
async function oneServerSpan(
  a: Instrumented,
  { card, answer, fp }: ReturnType<typeof cardThenCall>,
  want: { name: string; skill: string; attributes?: Record<string, unknown>; seen?: string },
): Promise<void> {
  await a.rx.waitForSpans(serverSpans(a.service), 10_000);
  await sleep(300);
  const server = a.rx.spans.filter(serverSpans(a.service));
  assert.equal(server.length, 1, `one SERVER span (the card GET is none):\n${describe(server)}`);
  const span = server[0]!;
  assert.equal(span.name, want.name, describe(server));
  assert.equal(span.attributes['a2a.method.name'], want.name, describe(server));
  assert.equal(span.attributes['a2a.skill.id'], want.skill, describe(server));
  for (const [k, v] of Object.entries(want.attributes ?? {}))
    assert.deepEqual(span.attributes[k], v, `${k}: ${describe(server)}`);
  assert.equal(
    span.attributes['a2a.agent_card.fingerprint'],
    fp,
    `${want.seen ?? ''}${describe(server)}`,
  );
  assert.equal(answer.headers['a2a-card-fingerprint'], fp, JSON.stringify(answer.headers));
  assert.equal(card.headers['a2a-card-fingerprint'], undefined, 'none on the card GET');
  assert.equal(span.attributes['a2a.drift.kind'], undefined, describe(server));
}

/** This agent's SERVER spans of calls naming `skill`, once there is one. */
function serverSpansOf(a: Instrumented, skill: string): Promise<ReceivedSpan[]> {
  return a.rx.waitForSpans(
    (x) => serverSpans(a.service)(x) && x.attributes['a2a.skill.id'] === skill,
    10_000,
  );
}

/** The first SERVER span: a call of `skill`, judged against the card `fp`: a stale caller. */
function staleCallerSpan(spans: ReceivedSpan[], skill: string, fp: string): void {
  const span = spans[0]!;
  assert.equal(span.attributes['a2a.skill.id'], skill, describe(spans));
  assert.equal(span.attributes['a2a.agent_card.fingerprint'], fp, describe(spans));
  assert.equal(span.attributes['a2a.drift.kind'], 'caller_skill_not_in_card', describe(spans));
}

const PY_DIR = path.join(REPO, 'test', 'real-world', 'python', 'a2a-sdk');
const PY_CLIENT = path.join(PY_DIR, 'client.py');
const PY = path.join(PY_DIR, '.venv', 'bin', 'python');

interface PyExchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One non-streaming call by the Python a2a-sdk client (python/a2a-sdk/client.py). */
function pythonClient(
  peer: Peer,
  skill: string,
  text: string,
): { exchanges: PyExchange[]; events?: unknown[]; error?: string } {
  assert.ok(
    fs.existsSync(path.join(PY_DIR, '.venv', '.installed')),
    'the Python a2a-sdk venv is not installed (REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh)',
  );
  const card = new URL(peer.cardUrl);
  const out = execFileSync(PY, [PY_CLIENT, card.origin, card.pathname, skill, text], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as { exchanges: PyExchange[]; events?: unknown[]; error?: string };
}

/** What a2a-go's client (go/a2a-go/client.go) printed: every HTTP exchange, the result or error. */
interface GoClientRun {
  exchanges: PyExchange[] | null;
  result?: unknown;
  error?: string;
}

/**
 * One non-streaming `message/send` by a2a-go's own client (v0.3.3, JSON-RPC, the skill id in the
 * message metadata), after it read the card at `cardPath` of the agent's origin.
 */
function goClient(peer: Peer, cardPath: string, skill: string, text: string): GoClientRun {
  const built = buildGoPeer();
  assert.equal(built, true, `the Go client is not built: ${String(built)}`);
  const out = execFileSync(
    PEER_BIN,
    ['client', new URL(peer.cardUrl).origin, cardPath, skill, text],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out) as GoClientRun;
}

/** The card a2a-go's client (0.3 only) reads: the row's own, or the 0.3 card beside a 1.0 one. */
function goCardPath(row: Row, peer: Peer): string {
  return side(row).card03Path ?? new URL(peer.cardUrl).pathname;
}

/**
 * a2a-go's client calls `skill` on the row's instrumented agent (with the prompt of the row's
 * send skill), after the stale calls counted so far are read (the checks before counted their
 * own: the counter is cumulative) and the receiver cleared.
 */
async function goCall(
  ctx: RowContext,
  a: Instrumented,
  skill: string,
): Promise<{ before: number; got: GoClientRun; show: string }> {
  const before = await staleTotal(a);
  a.rx.clear();
  const got = goClient(
    a.peer,
    goCardPath(ctx.row, a.peer),
    skill,
    ctx.row.skills.prompts[ctx.row.skills.send] ?? skill,
  );
  return { before, got, show: JSON.stringify(got).slice(0, 1500) };
}

/** Where a2a-go's client can call the row's agent: a 0.3 card to read. */
function appliesGo(row: Row): true | string {
  const a = applies(row);
  if (a !== true) return a;
  if (row.card.protocol === '1.0' && !side(row).card03Path)
    return 'the agent serves a 1.0 card only; a2a-go v0.3.3’s client speaks 0.3 only (`NewFromCard` finds no `url` / `preferredTransport`: "no compatible transports")';
  return true;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The applies of every agent-side check: the row's declaration, or its reason. */
function applies(row: Row): true | string {
  if (row.agentSide === undefined)
    return 'the row declares no agent side (its agent is not a Node process)';
  return isNA(row.agentSide) ? row.agentSide.na : true;
}

export const AGENT_SIDE_CHECKS: Check[] = [
  {
    id: 'agent-side-healthy',
    title: "the agent's side: a client without the package gets a SERVER span with the served card",
    asserts:
      'the agent run under the register entry; the Python `a2a-sdk` 1.3 client (no part of this package: its `ClientFactory` from the card URL, non-streaming, the skill id in the request metadata) reads the card, then calls a listed skill: one SERVER span named as the client’s method, with `a2a.method.name`, `a2a.skill.id`, and `a2a.agent_card.fingerprint` equal to `skillFingerprint` of the card bytes the agent served; the answer carries `A2A-Card-Fingerprint` with the same value (the card GET none); no stale-caller verdict, no `a2a.server.stale_calls`',
    applies,
    async run(ctx) {
      const { a, s } = await clearedAgent(ctx);
      const skill = ctx.skillOn(a.peer, ctx.row.skills.send);
      const got = pythonClient(a.peer, skill, ctx.row.skills.prompts[ctx.row.skills.send] ?? skill);
      const show = JSON.stringify(got).slice(0, 1500);
      assert.equal(got.error, undefined, show);
      const exchange = cardThenCall(got.exchanges, show);
      assert.equal(exchange.answer.status, 200, show);
      await oneServerSpan(a, exchange, {
        name: s.send(skill).span?.name ?? 'SendMessage',
        skill,
        attributes: s.send(skill).span?.attributes,
        seen: `the served card (${s.card.value}) is seen: `,
      });
      await sleep(400);
      assert.deepEqual(staleCalls(a), [], 'no stale call counted');
    },
  },
  {
    id: 'agent-side-stale-caller',
    title: "the agent's side: a caller naming a skill the served card does not list",
    asserts:
      'a client without the package calls a made-up skill id the served card does not list: the SERVER span carries `a2a.drift.kind` `caller_skill_not_in_card` (its status the server’s own), and `a2a.server.stale_calls` counts it',
    applies,
    async run(ctx) {
      const { a, s } = await clearedAgent(ctx);
      const skill = 'no-such-skill-on-this-card';
      const call = s.send(skill);
      const [card, answer] = await bareFetch([
        { url: a.peer.cardUrl },
        call.request(a.peer, 'agent-side-stale'),
      ]);
      assert.equal(card.status, 200);
      assert.ok(answer.error === undefined, JSON.stringify(answer));
      const fp = skillFingerprint(JSON.parse(card.body));
      staleCallerSpan(await a.rx.waitForSpans(serverSpans(a.service), 10_000), skill, fp);
      const points = await a.rx.waitForMetrics(
        (p) => p.name === METRIC_SERVER_STALE_CALLS && p.resource['service.name'] === a.service,
        10_000,
      );
      void points;
      const series = staleCalls(a).filter(
        (p) => p.attributes['a2a.drift.kind'] === 'caller_skill_not_in_card',
      );
      assert.ok(
        series.reduce((n, p) => n + p.value, 0) >= 1,
        `counted: ${JSON.stringify(staleCalls(a))}`,
      );
    },
  },
  {
    id: 'agent-side-same-bytes',
    title: "the agent's side: the same bytes with and without the register entry",
    asserts:
      'the row’s same-bytes probes and the agent-side call, sent by a client without the package to the bare agent and to the agent under the register entry: the same status, content type and body (ids and timestamps normalised), the same header names but `A2A-Card-Fingerprint`',
    applies,
    async run(ctx) {
      const a = await instrumentedAgent(ctx);
      const bare = await ctx.healthy();
      const s = side(ctx.row);
      const probes = [
        ...(isNA(ctx.row.sameBytes) ? [] : ctx.row.sameBytes.probes),
        s.send(ctx.skillOn(bare, ctx.row.skills.send)),
      ];
      const run = async (peer: Peer, tag: string) =>
        (await bareFetch(probes.map((p) => p.request(peer, tag)))).map((r, i) => ({
          probe: probes[i]!.label,
          status: r.status,
          error: r.error,
          contentType: r.headers?.['content-type'],
          headers: Object.keys(r.headers ?? {})
            .filter((h) => !['date', 'a2a-card-fingerprint', 'content-length'].includes(h))
            .sort(),
          body: normaliseWire(r.body ?? '', tag)
            .split(String(peer.port))
            .join('PORT'),
        }));
      const off = await run(bare, 'agent-side-bare');
      const on = await run(a.peer, 'agent-side-instrumented');
      assert.deepEqual(on, off);
    },
  },
  {
    id: 'agent-side-go-client',
    title:
      "the agent's side: a2a-go's client (Go, without the package) gets a SERVER span with the served card",
    asserts:
      'the agent run under the register entry; a2a-go v0.3.3’s own client (Go, no part of this package; A2A 0.3 only: `agentcard.Resolver` reads the row’s card, or the 0.3 card beside a 1.0-only one, `a2aclient.NewFromCard` picks its JSON-RPC interface) sends one blocking `message/send` naming a listed skill in the message metadata: one SERVER span `SendMessage`, with `a2a.method.name`, `a2a.skill.id`, and `a2a.agent_card.fingerprint` equal to `skillFingerprint` of the card bytes the Go client read (a card without `preferredTransport` is given 0.3’s default JSONRPC by the Go program, as v0.3.3’s `NewFromCard` does not; a result without its `kind`, which a2a-go refuses to decode after the exchange, is the agent’s and is let through); the answer carries `A2A-Card-Fingerprint` with the same value; no stale-caller verdict, no `a2a.server.stale_calls`',
    applies: appliesGo,
    async run(ctx) {
      const a = await instrumentedAgent(ctx);
      const skill = ctx.skillOn(a.peer, ctx.row.skills.send);
      const { before, got, show } = await goCall(ctx, a, skill);
      if (got.error !== undefined) {
        // the one failure that is the agent's, not the check's: a 0.3 result without its `kind`
        // discriminator (VoltAgent's task), which a2a-go's decoder refuses after the exchange
        assert.match(
          got.error,
          /^result violates A2A spec - could not determine type: unknown event kind: ;/,
          show,
        );
        const result = (
          JSON.parse(got.exchanges?.[1]?.body ?? '{}') as { result?: Record<string, unknown> }
        ).result;
        assert.ok(result && result.kind === undefined, show);
      }
      const exchange = cardThenCall(got.exchanges ?? [], show);
      assert.equal(exchange.answer.method, 'POST', show);
      assert.equal(exchange.answer.status, 200, show);
      await oneServerSpan(a, exchange, { name: 'SendMessage', skill });
      assert.equal(await staleTotal(a), before, 'no stale call counted');
    },
  },
  {
    id: 'agent-side-go-stale-caller',
    title: "the agent's side: a2a-go's client naming a skill the served card does not list",
    asserts:
      'a2a-go v0.3.3’s own client (as in `agent-side-go-client`) reads the card and sends `message/send` with a made-up skill id in the message metadata: the SERVER span carries the read card’s fingerprint and `a2a.drift.kind` `caller_skill_not_in_card`, and `a2a.server.stale_calls` counts it (whatever the agent answers)',
    applies: appliesGo,
    async run(ctx) {
      const a = await instrumentedAgent(ctx);
      const skill = 'no-such-skill-from-go';
      const { before, got, show } = await goCall(ctx, a, skill);
      const [card, answer] = got.exchanges ?? [];
      assert.ok(card && answer, `a card GET and one call: ${show}`);
      assert.equal(card.status, 200, show);
      const fp = skillFingerprint(JSON.parse(card.body));
      staleCallerSpan(await serverSpansOf(a, skill), skill, fp);
      assert.equal(await staleTotal(a), before + 1, `counted: ${JSON.stringify(staleCalls(a))}`);
    },
  },
  {
    id: 'agent-side-both-ends',
    title: "the agent's side: a Node client with the package, before and after a redeploy",
    asserts:
      'the agent under the register entry, called by this process’s client with the package (the row’s first healthy path that sends, holding the card it fetched; a W3C propagator registered, as an app’s NodeSDK does): the CLIENT and SERVER spans in one trace, each with the served card’s fingerprint, no verdict on the SERVER span; then the agent redeployed in place without the variant A skill (still under the entry), and the same client, still holding the old card, calls the gone skill: the SERVER span says `caller_skill_not_in_card` and `a2a.caller.card_fingerprint` the held card’s fingerprint (the one the client announced)',
    applies: (row) => {
      const a = applies(row);
      if (a !== true) return a;
      if (isNA(row.variantA)) return row.variantA.na;
      return row.healthy.some((p) => p.ops.send)
        ? true
        : 'no healthy path sends (the client with the package has no call to make)';
    },
    async run(ctx) {
      assert.ok(!isNA(ctx.row.variantA));
      const gone = ctx.row.variantA;
      const a = await instrumentedAgent(ctx);
      const path = ctx.row.healthy.find((p) => p.ops.send)!;
      // the spans of the checks before, exported late, are not this check's
      await sleep(500);
      a.rx.clear();
      await ctx.h().reset();
      // the harness registers no propagator; an app's NodeSDK registers W3C trace context
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      const sendSkill = ctx.skillOn(a.peer, ctx.row.skills.send);
      let held: Json;
      let ok: Outcome;
      try {
        held = (await getCard(a.peer.cardUrl)).card;
        ok = await call(
          path.client,
          a.peer,
          held,
          'send',
          sendSkill,
          ctx.row.skills.prompts[ctx.row.skills.send] ?? sendSkill,
        );
      } finally {
        propagation.disable();
      }
      const fpOld = skillFingerprint(held);
      assert.equal(ok.error, undefined, JSON.stringify(ok).slice(0, 500));
      const client = ctx
        .h()
        .spans()
        .find((x) => x.name === 'SendMessage');
      assert.ok(client, ctx.spans.describeSpans());
      const traceId = client.spanContext().traceId;
      const server = await a.rx
        .waitForSpans((x) => serverSpans(a.service)(x) && x.traceId === traceId, 10_000)
        .then(
          (found) => found[0]!,
          () => assert.fail(`no SERVER span in the CLIENT span's trace: ${describe(a.rx.spans)}`),
        );
      assert.equal(server.parentSpanId, client.spanContext().spanId, 'under the CLIENT span');
      assert.equal(client.attributes['a2a.agent_card.fingerprint'], fpOld);
      assert.equal(server.attributes['a2a.agent_card.fingerprint'], fpOld, describe([server]));
      assert.equal(server.attributes['a2a.drift.kind'], undefined, describe([server]));

      // the redeploy in place: the same port, the skill gone, still under the register entry
      const side = ctx.row.agentSide;
      assert.ok(side && !isNA(side));
      await a.peer.stop();
      a.rx.clear();
      const v = await ctx.start(
        { variant: 'A', register: registerEntry(side, a.rx, a.service) },
        a.peer,
      );
      running.set(ctx, Promise.resolve({ ...a, peer: v }));
      const goneSkill = ctx.skillOn(v, gone.gone);
      const goneCall = gone.paths.find((p) => p.ops.send && !p.deploy && !p.prompt) ?? path;
      await call(
        goneCall.client,
        v,
        held,
        'send',
        goneSkill,
        ctx.row.skills.prompts[gone.gone] ?? goneSkill,
      );
      const spans = await serverSpansOf(a, goneSkill);
      const stale = spans[0]!;
      assert.equal(stale.attributes['a2a.drift.kind'], 'caller_skill_not_in_card', describe(spans));
      assert.equal(stale.attributes['a2a.caller.card_fingerprint'], fpOld, describe(spans));
      assert.notEqual(stale.attributes['a2a.agent_card.fingerprint'], fpOld, describe(spans));
      // the caller's span of the gone skill ends once its card is fetched again (the agent's
      // header announced another card); the row's own tests after this one read the harness's
      // spans from nothing
      await ctx
        .h()
        .waitForSpans((all) =>
          all.some((x) => x.name === 'SendMessage' && x.attributes['a2a.skill.id'] === goneSkill),
        );
      await ctx.h().reset();
    },
  },
];
