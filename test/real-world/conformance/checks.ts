/**
 * The conformance checks, written once for every row of the table (implementations.ts). Each
 * check says which rows it applies to (`applies`: true, or the reason it is N/A for that row,
 * taken from the row's own data) and what it asserts (`asserts`, shown in docs/real-world.md).
 *
 * Adding a check: one entry of CHECKS. It picks its rows by what they declare — a capability
 * (`capabilities.streaming`...), a path list (`variantA.paths`), or a fact on a path, e.g. a check
 * for "a failing call of a skill the redeployed card no longer lists is confirmed by the card"
 * takes the variant A paths whose `says.value` is 'failure' or 'words' and is N/A elsewhere with
 * the row's `says.source`. Rows opt in by data; no row file changes.
 */
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { activeCallCount, type Harness } from '../../helpers/otel';
import { pythonSeedFingerprint } from '../../helpers/seed-fingerprint';
import { skillFingerprint } from '../../../src/index';
import { decodeCard } from '../../../src/core/card';
import { partMatchesModes } from '../../../src/core/media-type';
import type { SkillInfo } from '../../../src/core/model';
import { cardOutputModes } from '../../../src/core/skill-names';
import { caughtByRevalidation, getCard, spanChecks, type Json } from '../lib';
import { checkGrpcSpanAttributes } from '../grpc-clients';
import { normaliseWire } from '../live-checks';
import { call, fetchesCard } from './drivers';
import { AGENT_SIDE_CHECKS } from './agent-side';
import {
  endpoint,
  isNA,
  type Deploy,
  type Expect,
  type Op,
  type Outcome,
  type Path,
  type Peer,
  type Row,
  type Variant,
} from './types';

const SPAN: Record<Op, string> = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  get: 'GetTask',
};
/** the order a path's operations run in (a get reads the task of the send before it) */
const ORDER: Op[] = ['send', 'stream', 'get'];

/** A row's running agents and the harness, shared by its checks (one test file, in order). */
export class RowContext {
  /** why the row did not run (its agent could not start), once known */
  notRun: string | undefined;
  readonly spans: ReturnType<typeof spanChecks>;
  private readonly healthyPeers = new Map<string, Promise<Peer>>();
  private variant: { key: string; got: Promise<{ peer: Peer; card: Json }> } | undefined;
  private readonly started: Peer[] = [];

  constructor(
    readonly row: Row,
    readonly h: () => Harness,
  ) {
    this.spans = spanChecks(h);
  }

  /** run by stopAll after the agents stopped (receivers the checks started) */
  readonly cleanups: Array<() => Promise<void>> = [];

  /** Starts a deployment the row's context stops with the others. */
  async start(d: Deploy, same?: Peer): Promise<Peer> {
    const peer = await this.row.start(d, same);
    this.started.push(peer);
    return peer;
  }

  /** The healthy agent with these options (started once, stopped by stopAll). */
  healthy(opts: Record<string, unknown> = {}): Promise<Peer> {
    const key = JSON.stringify(opts);
    let p = this.healthyPeers.get(key);
    if (!p) {
      p = this.start({ variant: 'healthy', opts });
      this.healthyPeers.set(key, p);
    }
    return p;
  }

  /**
   * The app reads the card from a healthy deployment, which is then replaced on the SAME port
   * by the variant: that peer and the card the app holds. One variant runs at a time.
   */
  redeployed(variant: Variant, opts: Record<string, unknown> = {}, fresh = false) {
    const key = `${variant} ${JSON.stringify(opts)}`;
    if (this.variant?.key === key && !fresh) return this.variant.got;
    const previous = this.variant?.got;
    const got = (async () => {
      if (previous) await (await previous.catch(() => undefined))?.peer.stop();
      // the healthy agent with these options, if one runs, is the one replaced (it starts
      // again when a later check wants it): one start fewer per redeploy
      const running = this.healthyPeers.get(JSON.stringify(opts));
      this.healthyPeers.delete(JSON.stringify(opts));
      const healthy =
        (await running?.catch(() => undefined)) ?? (await this.start({ variant: 'healthy', opts }));
      let card: Json;
      try {
        await this.h().reset();
        card = (await getCard(healthy.cardUrl)).card;
        await this.spans.spansSettled(1);
      } finally {
        await healthy.stop();
      }
      return { peer: await this.start({ variant, opts }, healthy), card };
    })();
    this.variant = { key, got };
    return got;
  }

  /** The healthy agent, with the app's state and the spans of earlier tests dropped. */
  async freshHealthy(opts: Record<string, unknown> = {}): Promise<Peer> {
    const peer = await this.healthy(opts);
    await this.h().reset();
    return peer;
  }

  /** The skill id on the wire of a skill the row names (the same, unless the row maps it). */
  skillOn(peer: Peer, name: string): string {
    return this.row.skillId?.(peer, name) ?? name;
  }

  /** Every agent the row started, stopped; their pids. */
  async stopAll(): Promise<Array<number | undefined>> {
    const started = this.started.splice(0);
    this.healthyPeers.clear();
    this.variant = undefined;
    await Promise.all(started.map((p) => p.stop()));
    await Promise.all(this.cleanups.splice(0).map((c) => c()));
    return started.map((p) => p.pid);
  }
}

export interface Check {
  id: string;
  title: string;
  /** what it asserts, for the doc */
  asserts: string;
  /** runs after the row's quirks (it stops the row's agents) */
  last?: boolean;
  /** true, or why the row cannot be checked so (N/A) */
  applies(row: Row): true | string;
  run(ctx: RowContext): Promise<void>;
}

/** `actual` cut down to the keys `expected` names, at every depth (arrays kept whole in length). */
function subset(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual))
    return actual.map((a, i) => (i < expected.length ? subset(a, expected[i]) : a));
  if (expected && typeof expected === 'object' && actual && typeof actual === 'object')
    return Object.fromEntries(
      Object.keys(expected).map((k) => [k, subset((actual as Json)[k], (expected as Json)[k])]),
    );
  return actual;
}

/** The outcome matches every field `e` gives. */
function expectOutcome(o: Outcome, e: Expect | undefined, what: string): void {
  if (!e) return;
  const show = `${what}: ${JSON.stringify(o).slice(0, 600)}`;
  if (e.error) {
    assert.ok(o.error !== undefined, `${what} fails: ${show}`);
    assert.match(o.error, e.error, show);
  } else if (o.error !== undefined && !e.wire) assert.fail(`${what} failed: ${show}`);
  if (e.state !== undefined) assert.equal(o.state, e.state, show);
  if (e.answered !== undefined) assert.equal(o.answered, e.answered, show);
  if (e.part !== undefined) assert.deepEqual(subset(o.part ?? {}, e.part), e.part, show);
  if (e.statusText !== undefined) assert.equal(o.statusText, e.statusText, show);
  if (e.statusMatch !== undefined) assert.match(o.statusText ?? '', e.statusMatch, show);
  if (e.answer !== undefined) assert.equal(o.answer, e.answer, show);
  if (e.artifacts !== undefined) assert.equal(o.artifacts, e.artifacts, show);
  if (e.firstEvent !== undefined) assert.equal(o.events?.[0], e.firstEvent, show);
  if (e.events !== undefined) assert.deepEqual(o.events, e.events, show);
  if (e.minEvents !== undefined) assert.ok((o.events?.length ?? 0) >= e.minEvents, show);
  if (e.wire !== undefined) assert.match(o.wire ?? '', e.wire, show);
  if (e.contentType !== undefined) assert.equal(o.contentType, e.contentType, show);
}

/** The span that carries an operation's verdict: its own, or the polled GetTask that judged. */
function judged(ctx: RowContext, path: Path, op: Op): ReturnType<RowContext['spans']['only']> {
  if (op !== 'send' || path.judgedOn !== 'GetTask') return ctx.spans.only(SPAN[op]);
  const polls = ctx.h().spans('GetTask');
  const s = polls.find((x) => x.attributes['a2a.drift.kind'] !== undefined) ?? polls.at(-1);
  assert.ok(s, `a GetTask span: ${ctx.spans.describeSpans()}`);
  return s;
}

/**
 * Calls a path's operations in order with `skill` (a get: of the task its send made, or the id it
 * names), each outcome handed to `check` as it comes, and waits for their spans.
 */
async function callOps(
  ctx: RowContext,
  path: Path,
  peer: Peer,
  held: Json | undefined,
  skill: (op: Op) => string,
  check?: (op: Op, skill: string, o: Outcome) => void,
): Promise<{ ops: Op[]; outcomes: Map<Op, Outcome> }> {
  const ops = ORDER.filter((op) => path.ops[op] !== undefined);
  let sent: string | undefined;
  const outcomes = new Map<Op, Outcome>();
  for (const op of ops) {
    const s = skill(op === 'get' ? 'send' : op);
    const subject =
      op === 'get' ? (path.ops.get?.taskId ?? sent ?? 'no task sent') : ctx.skillOn(peer, s);
    const o = await call(
      path.client,
      peer,
      held,
      op,
      subject,
      path.prompt ?? ctx.row.skills.prompts[s] ?? s,
    );
    if (op !== 'get') sent ??= o.taskId;
    check?.(op, s, o);
    outcomes.set(op, o);
  }
  await ctx.spans.spansSettled(ops.length);
  return { ops, outcomes };
}

/**
 * Runs a path's operations with `skill` (a get: of the task its send made, or the id it names)
 * and checks what each span carries by the path's and the operation's own words: the span by
 * operation.
 */
async function runPath(
  ctx: RowContext,
  path: Path,
  peer: Peer,
  held: Json | undefined,
  skill: (op: Op) => string,
): Promise<Array<[Op, ReturnType<RowContext['spans']['only']>]>> {
  const { ops, outcomes } = await callOps(ctx, path, peer, held, skill, (op, s, o) =>
    expectOutcome(o, path.ops[op], `${path.label} ${op} ${s}`),
  );
  const got = ops.map((op): [Op, ReturnType<RowContext['spans']['only']>] => [
    op,
    judged(ctx, path, op),
  ]);
  const card = path.grpc ? (held ?? (await getCard(peer.cardUrl)).card) : undefined;
  for (const [op, span] of got) {
    const e = path.ops[op];
    for (const [k, v] of Object.entries(e?.spanAttributes ?? {}))
      assert.deepEqual(span.attributes[k], v, `${op} ${k}: ${ctx.spans.describeSpans()}`);
    if (e?.spanStatusMessage) assert.match(span.status.message ?? '', e.spanStatusMessage);
    if (e?.countsEvents)
      assert.equal(span.attributes['a2a.stream.event_count'], outcomes.get(op)?.events?.length);
    if (path.grpc)
      checkGrpcSpanAttributes(
        span,
        {
          service: path.grpc.service,
          version: path.grpc.version,
          port: (peer as unknown as { grpcPort?: number }).grpcPort,
          cardUrl: peer.cardUrl,
          card: card as Json,
          agentName: path.grpc.agentName,
          methodOf: path.grpc.methodOf,
        },
        ctx.spans.describeSpans,
      );
  }
  return got;
}

/** The span's `a2a.protocol.version` ('none': it claims none). */
function assertProtocol(
  attributes: Readonly<Record<string, unknown>>,
  protocol: NonNullable<Path['protocol']>,
  describe: () => string,
): void {
  assert.equal(
    attributes['a2a.protocol.version'],
    protocol === 'none' ? undefined : protocol,
    describe(),
  );
}

/** What an SDK-shaped client got, as text: uuids, message ids and timestamps normalised. */
function normaliseResult(v: unknown): string {
  return (typeof v === 'string' ? v : JSON.stringify(v))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/msg-\d+-\d+-\d+/g, 'MSGID')
    .replace(/\bcall-\d+\b/g, 'CALL')
    .replace(/"seconds":"?\d+"?,"nanos":\d+/g, 'TS')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TS');
}

/** Prefixes a path's failure with its label. */
async function labelled(label: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof Error) e.message = `[${label}] ${e.message}`;
    throw e;
  }
}

/** The skill a variant A row calls to show what is still listed: its `send` skill, or one left. */
function stillSkill(row: Row): string {
  const a = variantAOf(row);
  return a.left.includes(row.skills.send) ? row.skills.send : a.left[a.left.length - 1];
}

function sameBytesOf(row: Row) {
  assert.ok(!isNA(row.sameBytes));
  return row.sameBytes;
}
function variantAOf(row: Row) {
  assert.ok(!isNA(row.variantA));
  return row.variantA;
}
function variantBOf(row: Row) {
  assert.ok(!isNA(row.variantB));
  return row.variantB;
}

/** A path as a client that names no skill drives it (the row's own client, the skill dropped). */
function withoutSkill(path: Path): Path {
  return { ...path, client: { ...path.client, noSkill: true } };
}

/**
 * A path's calls by a client that names no skill: what the app got per operation and the span
 * that carries each verdict. What the agent answers is its own (it routes by the words), so no
 * outcome is expected of it.
 */
async function runWithoutSkill(
  ctx: RowContext,
  path: Path,
  peer: Peer,
  held: Json | undefined,
  skill: (op: Op) => string,
): Promise<Array<[Op, Outcome, ReturnType<RowContext['spans']['only']>]>> {
  const { ops, outcomes } = await callOps(ctx, path, peer, held, skill);
  return ops.map((op) => [op, outcomes.get(op)!, judged(ctx, path, op)]);
}

/**
 * What a call that names no skill is judged against on `card`: the one skill (a card of one), or
 * whether `mediaType` is outside every output mode of the card as a whole (the product's rule,
 * src/core/skill-names.ts), or why the card says nothing.
 */
function cardWideExpectation(
  card: Json,
  mediaType: string,
): { only: string } | { outside: boolean } | { unjudged: string } {
  const decoded = decodeCard(card);
  const skills = new Map<string, SkillInfo>(decoded.skills.map((x) => [x.id, x]));
  if (skills.size === 1 && decoded.skillsTruncated !== true)
    return { only: [...skills.keys()][0]! };
  const wide = cardOutputModes(decoded, skills);
  if (!('modes' in wide)) return { unjudged: wide.unjudged };
  const kind = /^text\//.test(mediaType)
    ? 'text'
    : mediaType === 'application/json'
      ? 'data'
      : 'file';
  return {
    outside:
      partMatchesModes({ kind, mediaType }, wide.modes, { strictTextParts: false }) === 'mismatch',
  };
}

/** The skill a row's path calls per operation (a get: of the task its `send` skill made). */
function rowSkill(row: Row): (op: Op) => string {
  return (op) => row.skills[op === 'get' ? 'send' : op];
}

/**
 * A healthy path on its own healthy agent, the app's state and spans dropped, holding the card
 * unless its client fetches it itself, run by `run` with the row's skills.
 */
async function onHealthy<T>(
  ctx: RowContext,
  path: Path,
  run: (
    ctx: RowContext,
    path: Path,
    peer: Peer,
    held: Json | undefined,
    skill: (op: Op) => string,
  ) => Promise<T>,
): Promise<{ peer: Peer; held: Json | undefined; got: T }> {
  const peer = await ctx.healthy(path.deploy);
  await ctx.h().reset();
  const held = fetchesCard(path.client) ? undefined : (await getCard(peer.cardUrl)).card;
  return { peer, held, got: await run(ctx, path, peer, held, rowSkill(ctx.row)) };
}

/** After `ms`: no verdict on any span, the drift counter unmoved. */
async function noDriftAfter(ctx: RowContext, ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
  assert.equal(await ctx.h().driftCount(), 0);
}

/** Every verdict so far is output_mode_mismatch. */
function onlyMismatches(ctx: RowContext): void {
  for (const [name, kind] of ctx.spans.driftKinds())
    assert.equal(kind, 'output_mode_mismatch', `${name}: ${ctx.spans.describeSpans()}`);
}

/**
 * Each path on its deployment redeployed as `variant` (the app holding the healthy card), the
 * spans before dropped; `refetch`: the app fetches the card again first (it holds it once more).
 */
async function eachRedeployed<P extends Path>(
  ctx: RowContext,
  variant: Variant,
  paths: readonly P[],
  fn: (path: P, v: { peer: Peer; card: Json }) => Promise<void>,
  { refetch = false, suffix = '' } = {},
): Promise<void> {
  for (const path of paths)
    await labelled(`${path.label}${suffix}`, async () => {
      const v = await ctx.redeployed(variant, path.deploy);
      if (refetch) await getCard(v.peer.cardUrl);
      ctx.h().exporter.reset();
      await fn(path, v);
    });
}

/** What a row declares applies (true), or the reason it gives for being N/A. */
function declared(x: unknown): true | string {
  return isNA(x) ? x.na : true;
}
/** A check of variant A or B applies where the row declares it (else the row's reason). */
const hasVariantA = (row: Row) => declared(row.variantA);
const hasVariantB = (row: Row) => declared(row.variantB);
/** A check of healthy traffic applies where the row has a healthy client path. */
function hasHealthy(row: Row): true | string {
  return row.healthy.length ? true : 'no healthy client path';
}

export const CHECKS: Check[] = [
  {
    id: 'card',
    title: 'card and fingerprint',
    asserts:
      'GetAgentCard span with the fingerprint, skill count and protocol version, no verdict; the field report’s Python fingerprint of the live bytes (python3 and the agent’s own interpreter) agrees (or, where the row says the field report’s Python cannot read the card, raises the error it names); the card’s skills, modes and fields',
    applies: () => true,
    async run(ctx) {
      const { row, spans } = ctx;
      const peer = await ctx.healthy();
      await ctx.h().reset();
      const { card, raw } = await getCard(peer.cardUrl);
      assert.deepEqual(
        card.skills.map((s: Json) => [s.id, s.outputModes]),
        row.card.skills.map(([id, modes]) => [ctx.skillOn(peer, id), modes]),
      );
      const fields = row.card.fields?.(peer) ?? {};
      assert.deepEqual(subset(card, fields), fields, 'the card’s fields');
      await spans.spansSettled(1);
      const get = spans.only('GetAgentCard');
      const fp = skillFingerprint(card as never);
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp, spans.describeSpans());
      assert.equal(get.attributes['a2a.agent_card.skill_count'], row.card.skills.length);
      assert.equal(
        get.attributes['a2a.protocol.version'],
        row.card.protocol,
        spans.describeSpans(),
      );
      assert.equal(get.attributes['a2a.drift.kind'], undefined, spans.describeSpans());
      for (const [k, v] of Object.entries(row.card.spanAttributes?.(peer) ?? {}))
        assert.deepEqual(get.attributes[k], v, `GetAgentCard ${k}`);
      if (row.card.judged)
        assert.equal(get.attributes['a2a.drift.unjudged_reason'], undefined, spans.describeSpans());
      const raises = row.card.seedRaises;
      if (raises) {
        // a fact of this card: the field report's Python fails on it (the instrumentation does not)
        assert.throws(() => pythonSeedFingerprint(raw), raises.value, raises.source);
        if (row.agentPython)
          assert.throws(() => pythonSeedFingerprint(raw, row.agentPython), raises.value);
        return;
      }
      assert.equal(
        pythonSeedFingerprint(raw),
        fp,
        'python3 runs the field report on the live bytes',
      );
      if (row.agentPython)
        assert.equal(pythonSeedFingerprint(raw, row.agentPython), fp, 'the agent’s own Python');
    },
  },
  {
    id: 'healthy',
    title: 'healthy traffic, zero drift',
    asserts:
      'per client, with the cards in use revalidated every 50 ms: send and stream of listed skills complete as the agent answers them; each span names the skill, COMPLETED, the protocol version, not an error (and the held card’s fingerprint where the row pins it); no verdict on any span, the drift counter unmoved, no revalidation finds a change',
    applies: hasHealthy,
    async run(ctx) {
      const { row, spans } = ctx;
      const instrumentation = ctx.h().instrumentation;
      const config = instrumentation.getConfig();
      instrumentation.setConfig({ ...config, cardRevalidationMs: 50 });
      const changedBefore = instrumentation.cardRevalidations.changed;
      const startedBefore = instrumentation.cardRevalidations.started;
      try {
        await healthyPaths();
      } finally {
        instrumentation.setConfig(config);
      }
      assert.equal(instrumentation.cardRevalidations.changed, changedBefore, 'no change found');
      console.log(
        `# ${row.id}: ${instrumentation.cardRevalidations.started - startedBefore} revalidations during healthy traffic, no change`,
      );
      async function healthyPaths(): Promise<void> {
        for (const path of row.healthy) {
          await labelled(path.label, async () => {
            const { peer, held, got } = await onHealthy(ctx, path, runPath);
            for (const [op, s] of got) {
              assert.equal(
                s.attributes['a2a.skill.id'],
                ctx.skillOn(peer, row.skills[op === 'get' ? 'send' : op]),
                spans.describeSpans(),
              );
              assert.equal(
                s.attributes['a2a.task.state'],
                path.ops[op]?.spanState ?? 'TASK_STATE_COMPLETED',
                spans.describeSpans(),
              );
              if (path.protocol) assertProtocol(s.attributes, path.protocol, spans.describeSpans);
              assert.notEqual(s.status.code, SpanStatusCode.ERROR, spans.describeSpans());
              if (path.judged)
                assert.equal(
                  s.attributes['a2a.drift.unjudged_reason'],
                  undefined,
                  spans.describeSpans(),
                );
              if (path.skillSource === 'application')
                assert.equal(s.attributes['a2a.skill.id_source'], 'application');
              if (path.skillSource === 'wire')
                assert.notEqual(s.attributes['a2a.skill.id_source'], 'application');
              if (path.cardFingerprint)
                assert.equal(
                  s.attributes['a2a.agent_card.fingerprint'],
                  skillFingerprint((held ?? (await getCard(peer.cardUrl)).card) as never),
                  `${op}: the card's fingerprint`,
                );
            }
            await noDriftAfter(ctx, 120); // revalidations due meanwhile answer
          });
        }
      }
    },
  },
  {
    id: 'errors',
    title: 'error spans without drift',
    asserts:
      'the agent’s JSON-RPC and HTTP errors (unknown task, a path it does not serve...) as the app sees them; each an error span; no verdict',
    applies: (row) => (isNA(row.errors) && !row.errorCalls?.length ? row.errors.na : true),
    async run(ctx) {
      const { spans } = ctx;
      const probes = isNA(ctx.row.errors) ? [] : ctx.row.errors;
      const peer = await ctx.healthy();
      for (const path of ctx.row.errorCalls ?? []) {
        await labelled(path.label, async () => {
          await ctx.h().reset();
          const card = (await getCard(peer.cardUrl)).card;
          await spans.spansSettled(1);
          ctx.h().exporter.reset();
          for (const [, s] of await runPath(ctx, path, peer, card, rowSkill(ctx.row))) {
            if (path.errorSpan !== false)
              assert.equal(s.status.code, SpanStatusCode.ERROR, spans.describeSpans());
            assert.equal(s.attributes['a2a.drift.kind'], undefined, spans.describeSpans());
          }
          assert.equal(await ctx.h().driftCount(), 0);
        });
      }
      if (!probes.length) return;
      await ctx.h().reset();
      await getCard(peer.cardUrl);
      for (const p of probes) {
        const { url, init } = p.request(peer, 'probe');
        const res = await fetch(url, init);
        const text = await res.text();
        assert.equal(res.status, p.status, `${p.label}: ${text.slice(0, 300)}`);
        if (p.contentType) assert.equal(res.headers.get('content-type'), p.contentType, p.label);
        if (p.body) assert.match(text, p.body, p.label);
      }
      const withSpan = probes.filter((p) => p.span);
      await spans.spansSettled(1 + withSpan.length);
      for (const name of new Set(withSpan.map((p) => p.span!.name))) {
        const mine = withSpan.filter((p) => p.span!.name === name);
        // the app's own card fetch before the probes is a GetAgentCard span too: the last ones
        const all = ctx.h().spans(name);
        assert.ok(all.length >= mine.length, `${name} spans: ${spans.describeSpans()}`);
        const got = all.slice(-mine.length);
        mine.forEach((p, i) => {
          const s = got[i];
          assert.equal(
            s.status.code === SpanStatusCode.ERROR,
            p.span!.error,
            `${p.label}: ${spans.describeSpans()}`,
          );
          assert.equal(
            s.attributes['a2a.drift.kind'],
            p.span!.drift,
            `${p.label}: ${spans.describeSpans()}`,
          );
          if (p.span!.httpStatus !== undefined)
            assert.equal(s.attributes['http.response.status_code'], p.span!.httpStatus, p.label);
          for (const [k, v] of Object.entries(p.span!.attributes ?? {}))
            assert.deepEqual(s.attributes[k], v, `${p.label} ${k}`);
        });
      }
      // a verdict only where a probe expects one (a listed skill's own invalid params)
      assert.deepEqual(
        spans.driftKinds(),
        withSpan.filter((p) => p.span!.drift).map((p) => [p.span!.name, p.span!.drift]),
        spans.describeSpans(),
      );
    },
  },
  {
    id: 'same-bytes',
    title: 'the same bytes with and without the instrumentation',
    asserts:
      'card, calls and errors fetched twice, instrumented and not: the same status, content type and body (ids and timestamps normalised); the instrumented run made spans',
    applies: (row) => declared(row.sameBytes),
    async run(ctx) {
      const { row, spans } = ctx;
      const { probes, calls = [], drift = [] } = sameBytesOf(row);
      const peer = await ctx.healthy();
      await ctx.h().reset();
      const run = async (tag: string): Promise<Array<[number, string | null, string]>> => {
        const out: Array<[number, string | null, string]> = [];
        for (const p of probes) {
          const { url, init } = p.request(peer, tag);
          const res = await fetch(url, init);
          const text = await res.text();
          out.push([res.status, res.headers.get('content-type'), normaliseWire(text, tag)]);
        }
        return out;
      };
      // what the app's client got, ids and timestamps normalised
      const viaClient = async (): Promise<string[]> => {
        const out: string[] = [];
        for (const path of calls)
          for (const op of (['send', 'stream', 'get'] as Op[]).filter((o) => path.ops[o])) {
            const e = path.ops[op];
            const s = row.skills[op === 'get' ? 'send' : op];
            const o = await call(
              path.client,
              peer,
              undefined,
              op,
              e?.taskId ?? ctx.skillOn(peer, s),
              row.skills.prompts[s] ?? s,
            );
            expectOutcome(o, e, `${path.label} ${op}`);
            out.push(normaliseResult(o.raw));
          }
        return out;
      };
      const on = await run('probe-instrumented');
      const onCalls = await viaClient();
      ctx.h().instrumentation.disable();
      let off: Array<[number, string | null, string]>;
      let offCalls: string[];
      try {
        off = await run('probe-bare');
        offCalls = await viaClient();
      } finally {
        ctx.h().instrumentation.enable();
      }
      assert.deepEqual(on, off);
      assert.deepEqual(onCalls, offCalls);
      probes.forEach((p, i) => {
        const [status, type, body] = on[i];
        assert.equal(status, p.status, `${p.label}: ${body.slice(0, 200)}`);
        if (p.contentType) assert.equal(type, p.contentType, p.label);
        if (p.body) assert.match(body, p.body, p.label);
      });
      assert.ok(
        ctx.h().spans().length >= probes.length + onCalls.length - 1,
        'the instrumented run made spans',
      );
      assert.deepEqual(spans.driftKinds(), drift, spans.describeSpans());
    },
  },
  {
    id: 'second-agent',
    title: 'another agent on the origin is judged against its own card',
    asserts:
      'with only the first agent’s card fetched, a call to the second agent (send and stream) carries neither the first card’s fingerprint nor its name and gets no verdict; with both cards fetched, each call carries its own card',
    applies: (row) =>
      row.secondAgent
        ? true
        : 'one agent per origin (no second agent beside it in this deployment)',
    async run(ctx) {
      const { spans } = ctx;
      const second = ctx.row.secondAgent!;
      const peer = await ctx.healthy();
      const skill = ctx.skillOn(peer, second.skill);
      const client = { kind: 'jsonrpc', version: '0.3', endpoint: second.rpcUrl } as const;
      const firstName = (card: Json) => card.name as string;
      await ctx.h().reset();
      const first = (await getCard(peer.cardUrl)).card;
      for (const op of ['send', 'stream'] as Op[])
        expectOutcome(
          await call(client, peer, undefined, op, skill, second.prompt),
          { state: 'completed' },
          `second agent ${op}`,
        );
      await spans.spansSettled(3);
      for (const name of ['SendMessage', 'SendStreamingMessage']) {
        const s = spans.only(name);
        assert.equal(s.attributes['a2a.skill.id'], skill, spans.describeSpans());
        assert.notEqual(
          s.attributes['a2a.agent_card.fingerprint'],
          skillFingerprint(first as never),
        );
        assert.notEqual(s.attributes['gen_ai.agent.name'], firstName(first));
      }
      assert.deepEqual(spans.driftKinds(), [], spans.describeSpans());

      await ctx.h().reset();
      const a = (await getCard(peer.cardUrl)).card;
      const b = (await getCard(endpoint(peer, second.cardUrl))).card;
      await call(client, peer, undefined, 'send', skill, second.prompt);
      const own = ctx.skillOn(peer, ctx.row.skills.send);
      await call(
        { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        peer,
        undefined,
        'send',
        own,
        ctx.row.skills.prompts[ctx.row.skills.send] ?? own,
      );
      await spans.spansSettled(4);
      const bySkill = new Map(
        ctx
          .h()
          .spans('SendMessage')
          .map((s) => [s.attributes['a2a.skill.id'], s]),
      );
      assert.equal(
        bySkill.get(skill)?.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(b as never),
      );
      if (second.agentName)
        assert.equal(bySkill.get(skill)?.attributes['gen_ai.agent.name'], second.agentName);
      assert.equal(
        bySkill.get(own)?.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(a as never),
      );
      assert.notEqual(skillFingerprint(a as never), skillFingerprint(b as never));
      assert.deepEqual(spans.driftKinds(), [], spans.describeSpans());
    },
  },
  {
    id: 'variant-a',
    title: 'variant A caught (unknown_skill)',
    asserts:
      'the app holding the healthy card calls the skill removed by a redeploy on the same port: per path, what the agent answers, and the span: that skill, judged against the held card, unknown_skill (where the agent says nothing that names it, a failure the card fetched again settles: evidence `card`), with the evidence kind, suspicion and confirmation the row pins; where a polled GetTask carries the verdict, the send’s own span none and its status unset; the card of each other deployment the paths name: the skills left, the same version',
    applies: hasVariantA,
    async run(ctx) {
      const { spans } = ctx;
      const a = variantAOf(ctx.row);
      await eachRedeployed(ctx, 'A', a.paths, async (path, v) => {
        const counted = {
          'a2a.drift.kind': path.verdict,
          'a2a.skill.id': ctx.skillOn(v.peer, a.gone),
        };
        const before = await ctx.h().driftCount(counted);
        const got = await runPath(ctx, path, v.peer, v.card, () => a.gone);
        if (path.judgedOn === 'GetTask' && path.ops.send) {
          // the send only accepted the task: nothing wrong yet on its own span
          const own = spans.only('SendMessage');
          assert.equal(own.attributes['a2a.drift.kind'], undefined, spans.describeSpans());
          assert.equal(own.status.code, SpanStatusCode.UNSET, spans.describeSpans());
        }
        // the drift counter moved once per verdict, under that kind and skill
        if (path.verdict !== 'none')
          assert.equal(
            (await ctx.h().driftCount(counted)) - before,
            got.length,
            'the drift counter',
          );
        for (const [op, s] of got) {
          const at = s.attributes;
          assert.equal(at['a2a.skill.id'], ctx.skillOn(v.peer, a.gone), spans.describeSpans());
          assert.equal(at['a2a.agent_card.fingerprint'], skillFingerprint(v.card as never));
          assert.equal(
            at['a2a.drift.kind'],
            path.verdict === 'none' ? undefined : path.verdict,
            spans.describeSpans(),
          );
          if (path.verdict === 'none')
            assert.deepEqual(
              Object.keys(at).filter((k) => k.startsWith('a2a.drift.')),
              [],
              `no drift attribute: ${spans.describeSpans()}`,
            );
          if (path.evidence) assert.equal(at['a2a.drift.evidence'], path.evidence);
          if (path.suspicion) assert.equal(at['a2a.drift.suspicion'], path.suspicion);
          if (path.rpcCode !== undefined) assert.equal(at['a2a.drift.rpc_code'], path.rpcCode);
          const spanState = path.ops[op]?.spanState;
          if (spanState) assert.equal(at['a2a.task.state'], spanState, spans.describeSpans());
          if (path.confirmed !== undefined)
            assert.equal(at['a2a.drift.confirmed'], path.confirmed, 'confirmed by the card');
          if (path.protocol) assertProtocol(at, path.protocol, spans.describeSpans);
          if (path.errorSpan !== undefined)
            assert.equal(
              s.status.code === SpanStatusCode.ERROR,
              path.errorSpan,
              spans.describeSpans(),
            );
        }
        if (path.verdict === 'none')
          assert.deepEqual(spans.driftKinds(), [], spans.describeSpans());
      });
      // the card of each other deployment (the card-changed check reads the first one's):
      // the skills left, the same version
      const first = JSON.stringify(a.paths[0]?.deploy ?? {});
      const others = new Set(a.paths.map((p) => JSON.stringify(p.deploy ?? {})));
      others.delete(first);
      for (const d of others) {
        const v = await ctx.redeployed('A', JSON.parse(d) as Record<string, unknown>);
        const { card } = await getCard(v.peer.cardUrl);
        assert.equal(card.version, v.card.version, `${d}: the same card version`);
        assert.deepEqual(
          card.skills.map((s: Json) => s.id),
          a.left.map((id) => ctx.skillOn(v.peer, id)),
          `${d}: the skills left`,
        );
      }
    },
  },
  {
    id: 'still-listed',
    title: 'a skill still listed is unaffected',
    asserts: 'after the variant A redeploy, a call of a skill the card still lists: no verdict',
    applies: hasVariantA,
    async run(ctx) {
      const a = variantAOf(ctx.row);
      const skill = stillSkill(ctx.row);
      const v = await ctx.redeployed('A', a.paths[0]?.deploy);
      ctx.h().exporter.reset();
      await runPath(ctx, a.still, v.peer, v.card, () => skill);
      assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
    },
  },
  {
    id: 'names-another',
    title: 'words naming another tool are not drift',
    asserts:
      'after the variant A redeploy, a skill still listed whose answer (a COMPLETED task or an error) names ANOTHER tool as unavailable: no verdict',
    applies: (row) =>
      isNA(row.variantA)
        ? row.variantA.na
        : row.variantA.namesAnother?.length
          ? true
          : 'the agent’s words are never about another tool than the one called (no scripted call of another tool)',
    async run(ctx) {
      const a = variantAOf(ctx.row);
      for (const path of a.namesAnother ?? []) {
        await labelled(path.label, async () => {
          const skill = stillSkill(ctx.row);
          let peer: Peer;
          let card: Json;
          if (path.on === 'healthy') {
            peer = await ctx.healthy();
            // not h.reset(): the app still holds the healthy card of the redeployed agent
            ctx.h().exporter.reset();
            card = (await getCard(peer.cardUrl)).card;
            await ctx.spans.spansSettled(1);
          } else ({ peer, card } = await ctx.redeployed('A', a.paths[0]?.deploy));
          ctx.h().exporter.reset();
          for (const [, s] of await runPath(ctx, path, peer, card, () => skill))
            assert.equal(s.attributes['a2a.skill.id'], ctx.skillOn(peer, skill));
          assert.deepEqual(ctx.spans.driftKinds(), [], ctx.spans.describeSpans());
        });
      }
    },
  },
  {
    id: 'revalidation',
    title: 'variant A seen by revalidation within the interval',
    asserts:
      'after the variant A redeploy, the app holding the healthy card and calling a skill still listed, with `cardRevalidationMs` 200 ms: card_changed from the background fetch within 10 intervals, its diff naming exactly the skills removed; no call of the app fetched the card; where a path names the verdict that follows, on a fresh redeploy of its deployment: card_changed while calling the gone skill, then that verdict (evidence `card`) on the next call',
    applies: (row) =>
      isNA(row.variantA) ? row.variantA.na : (row.variantA.cardChanged?.na ?? true),
    async run(ctx) {
      const a = variantAOf(ctx.row);
      const v = await ctx.redeployed('A', a.paths[0]?.deploy);
      const skill = stillSkill(ctx.row);
      ctx.h().exporter.reset();
      const { changed, tookMs } = await caughtByRevalidation(ctx.h(), () => {
        // each call's spans on their own: the background fetch may take more than one call
        ctx.h().exporter.reset();
        return runPath(ctx, a.still, v.peer, v.card, () => skill);
      });
      const held: string[] = (v.card.skills as Json[]).map((s) => s.id as string);
      assert.deepEqual(
        changed.diff?.removed,
        held.filter((id) => !a.left.includes(id)),
        `the diff (${tookMs} ms)`,
      );
      assert.equal(changed.previousFingerprint, skillFingerprint(v.card as never));
      assert.equal(ctx.spans.driftKinds().length, 0, 'the calls of a listed skill: no verdict');
      assert.equal(ctx.h().spans('GetAgentCard').length, 0, 'the background fetch is untraced');
      // paths whose verdict on the gone skill comes once the newer card is seen: each on a
      // fresh redeploy, calling the gone skill until the background fetch sees the card changed
      for (const path of a.paths.filter((p) => p.afterRevalidation)) {
        await labelled(path.label, async () => {
          const w = await ctx.redeployed('A', path.deploy, true);
          ctx.h().exporter.reset();
          const { changed: c, next } = await caughtByRevalidation(ctx.h(), () =>
            call(
              path.client,
              w.peer,
              w.card,
              'send',
              ctx.skillOn(w.peer, a.gone),
              path.prompt ?? ctx.row.skills.prompts[a.gone] ?? a.gone,
            ),
          );
          assert.deepEqual(
            c.diff?.removed,
            held.filter((id) => !a.left.includes(id)),
          );
          assert.deepEqual(c.diff?.added, []);
          assert.equal(next.attributes['a2a.skill.id'], ctx.skillOn(w.peer, a.gone));
          assert.equal(
            next.attributes['a2a.drift.kind'],
            path.afterRevalidation,
            ctx.spans.describeSpans(),
          );
          assert.equal(next.attributes['a2a.drift.evidence'], 'card');
        });
      }
    },
  },
  {
    id: 'card-changed',
    title: 'card_changed on re-fetch',
    asserts:
      'after the variant A redeploy (same card version), re-fetching the card: card_changed, the previous fingerprint the held card’s, the new one the field report’s Python on the live bytes; the skills left; what changed on the span (the skills removed)',
    applies: (row) =>
      isNA(row.variantA) ? row.variantA.na : (row.variantA.cardChanged?.na ?? true),
    async run(ctx) {
      const { spans } = ctx;
      const a = variantAOf(ctx.row);
      const v = await ctx.redeployed('A', a.paths[0]?.deploy);
      ctx.h().exporter.reset();
      const { card, raw } = await getCard(v.peer.cardUrl);
      assert.equal(card.version, v.card.version, 'the same card version');
      assert.deepEqual(
        card.skills.map((s: Json) => s.id),
        a.left,
      );
      await spans.spansSettled(1);
      const get = spans.only('GetAgentCard');
      const fp = skillFingerprint(card as never);
      assert.equal(
        get.attributes['a2a.agent_card.previous_fingerprint'],
        skillFingerprint(v.card as never),
      );
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp);
      assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', spans.describeSpans());
      assert.equal(pythonSeedFingerprint(raw), fp);
      const held: string[] = (v.card.skills as Json[]).map((s) => s.id as string);
      const removed = held.filter((id) => !a.left.includes(id));
      assert.deepEqual(
        get.attributes['a2a.agent_card.skills_removed'],
        removed.length > 0 ? removed : undefined,
        'what changed',
      );
      if (!a.afterRefetch) return;
      // the app now holds the new card: the gone skill is not in it
      ctx.h().exporter.reset();
      for (const [, s] of await runPath(ctx, a.afterRefetch, v.peer, card, () => a.gone)) {
        assert.equal(s.attributes['a2a.agent_card.fingerprint'], fp);
        assert.equal(s.attributes['a2a.drift.kind'], 'skill_not_in_card', spans.describeSpans());
      }
    },
  },
  {
    id: 'variant-b',
    title: 'variant B caught (output_mode_mismatch)',
    asserts:
      'a listed skill answering, after a redeploy with the card unchanged, with a media type its card does not list: per path, the part the app gets, and output_mode_mismatch with that media type (the span’s error status and the held card’s fingerprint where the row pins them)',
    applies: hasVariantB,
    async run(ctx) {
      const b = variantBOf(ctx.row);
      await eachRedeployed(ctx, 'B', b.paths, async (path, v) => {
        const got = await runPath(ctx, path, v.peer, v.card, () => b.skill);
        for (const [, s] of got) {
          assert.equal(s.attributes['a2a.skill.id'], ctx.skillOn(v.peer, b.skill));
          assert.equal(
            s.attributes['a2a.drift.kind'],
            'output_mode_mismatch',
            ctx.spans.describeSpans(),
          );
          assert.equal(s.attributes['a2a.drift.actual_media_type'], path.mediaType);
          if (path.expectedModes)
            assert.deepEqual(s.attributes['a2a.drift.expected_output_modes'], path.expectedModes);
          if (path.protocol) assertProtocol(s.attributes, path.protocol, ctx.spans.describeSpans);
          if (path.evidence) assert.equal(s.attributes['a2a.drift.evidence'], path.evidence);
          if (path.errorSpan !== undefined)
            assert.equal(
              s.status.code === SpanStatusCode.ERROR,
              path.errorSpan,
              ctx.spans.describeSpans(),
            );
          if (path.cardFingerprint)
            assert.equal(
              s.attributes['a2a.agent_card.fingerprint'],
              skillFingerprint(v.card as never),
            );
        }
        onlyMismatches(ctx);
      });
    },
  },
  {
    id: 'healthy-no-skill',
    title: 'healthy traffic of a client that names no skill, zero drift',
    asserts:
      'each healthy path’s client with the skill id dropped (the style of ADK’s RemoteA2aAgent, Strands, Microsoft Agent Framework, Agno): no verdict on any span, the drift counter unmoved; each span names no skill, or the card’s only one (`only skill in card`)',
    applies: hasHealthy,
    async run(ctx) {
      const { row } = ctx;
      for (const original of row.healthy) {
        const path = withoutSkill(original);
        await labelled(`${path.label} (naming no skill)`, async () => {
          const { got } = await onHealthy(ctx, path, runWithoutSkill);
          for (const [op, o, s] of got) {
            const source = s.attributes['a2a.skill.id_source'];
            if (s.attributes['a2a.skill.id'] !== undefined)
              assert.equal(source, 'only skill in card', `${op}: ${ctx.spans.describeSpans()}`);
            console.log(
              `# ${row.id} [${path.label}] ${op} naming no skill: ${o.error ? `error ${o.error.slice(0, 80)}` : (o.state ?? 'answered')}, ${s.attributes['a2a.skill.id'] !== undefined ? 'the only skill' : `unjudged: ${String(s.attributes['a2a.drift.unjudged_reason'] ?? '-')}`}`,
            );
          }
          await noDriftAfter(ctx, 50);
        });
      }
    },
  },
  {
    id: 'variant-b-no-skill',
    title: 'variant B for a client that names no skill',
    asserts:
      'each variant B path’s client with the skill id dropped, after the same redeploy: where the agent answers the new media type and the held card lists it for no skill (nor in its defaults), output_mode_mismatch judged against the card as a whole (`a2a.drift.scope = card`, no skill id), or against the card’s only skill; where some skill lists it, or the card states no modes, no verdict and the reason on the span; never another verdict',
    applies: hasVariantB,
    async run(ctx) {
      const { row, spans } = ctx;
      const b = variantBOf(row);
      const paths = b.paths.map((p) => withoutSkill(p) as typeof p);
      // the card as the app holds it again (the variant B check before this one made its drift
      // callback evict it; the redeploy left it unchanged)
      await eachRedeployed(
        ctx,
        'B',
        paths,
        async (path, v) => {
          const got = await runWithoutSkill(ctx, path, v.peer, v.card, () => b.skill);
          const expect = cardWideExpectation(v.card, path.mediaType);
          const answered = got.find(([op]) => op === 'send')?.[1].part?.mediaType;
          for (const [op, , s] of got) {
            const kind = s.attributes['a2a.drift.kind'];
            const shown = answered === undefined || answered === path.mediaType;
            let verdict: string;
            if ('only' in expect) {
              assert.equal(s.attributes['a2a.skill.id'], expect.only, spans.describeSpans());
              assert.equal(s.attributes['a2a.skill.id_source'], 'only skill in card');
              if (kind !== undefined)
                assert.equal(kind, 'output_mode_mismatch', spans.describeSpans());
              if (answered === path.mediaType)
                assert.equal(kind, 'output_mode_mismatch', spans.describeSpans());
              verdict = kind === undefined ? 'not caught' : 'caught (only skill in card)';
            } else if ('outside' in expect && expect.outside) {
              assert.equal(s.attributes['a2a.skill.id'], undefined, spans.describeSpans());
              if (answered === path.mediaType)
                assert.equal(kind, 'output_mode_mismatch', spans.describeSpans());
              if (kind !== undefined) {
                assert.equal(kind, 'output_mode_mismatch', spans.describeSpans());
                assert.equal(s.attributes['a2a.drift.scope'], 'card', spans.describeSpans());
              }
              verdict =
                kind === undefined
                  ? `not caught (the agent answered ${answered})`
                  : 'caught (scope card)';
            } else {
              assert.equal(kind, undefined, spans.describeSpans());
              assert.notEqual(
                s.attributes['a2a.drift.unjudged_reason'],
                undefined,
                spans.describeSpans(),
              );
              verdict = `not caught: ${'unjudged' in expect ? expect.unjudged : `${path.mediaType} is listed by some skill of the card`}`;
            }
            console.log(
              `# ${row.id} [${path.label}] ${op} naming no skill: variant B ${verdict}${shown ? '' : ` (the agent answered ${answered})`}`,
            );
          }
          onlyMismatches(ctx);
        },
        { refetch: true, suffix: ' (naming no skill)' },
      );
    },
  },
  {
    id: 'b-card-same',
    title: 'variant B: the card unchanged, no card_changed',
    asserts:
      'after the variant B redeploy the card is the one the app holds; re-fetching it: no verdict',
    applies: hasVariantB,
    async run(ctx) {
      const b = variantBOf(ctx.row);
      const v = await ctx.redeployed('B', b.paths[0]?.deploy);
      ctx.h().exporter.reset();
      const { card } = await getCard(v.peer.cardUrl);
      assert.deepEqual(card, v.card);
      await ctx.spans.spansSettled(1);
      assert.equal(
        ctx.spans.only('GetAgentCard').attributes['a2a.drift.kind'],
        undefined,
        ctx.spans.describeSpans(),
      );
    },
  },
  {
    id: 'client-exits',
    title: 'the client exits',
    last: true,
    asserts:
      'after the row’s traffic no A2A call is left open in the instrumentation, and every agent it started stops (its process gone)',
    applies: () => true,
    async run(ctx) {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(activeCallCount(ctx.h()), 0, 'no A2A call left open');
      for (const pid of await ctx.stopAll()) {
        if (pid === undefined) continue;
        assert.throws(() => process.kill(pid, 0), 'the agent process is gone');
      }
    },
  },
  ...AGENT_SIDE_CHECKS,
];
