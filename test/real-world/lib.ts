/**
 * Client-side helpers shared by the real-world suites that drive a peer with raw `fetch` and the
 * `@a2a-js/sdk` 1.3 client (adk, python-a2a-sdk, python-google-adk, python-fasta2a): reading a
 * card, JSON-RPC calls, 0.3 / 1.0 message builders, the SDK client from a card URL or a held card,
 * and the span checks on the in-memory exporter of test/helpers/otel.ts.
 */
import assert from 'node:assert/strict';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { AgentCard } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { SpanKind } from '@opentelemetry/api';
import { drifted, type Harness } from '../helpers/otel';
import { onAgentCardDrift, type DriftEvent } from '../../src/index';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const FOX = 'The quick brown fox jumps over the lazy dog';

let rpcId = 0;
/** The next JSON-RPC id (1, 2, ... per test process). */
export function nextRpcId(): number {
  return ++rpcId;
}

/** GET a card (asserting 200): the parsed card and its raw text. */
export async function getCard(url: string): Promise<{ card: Json; raw: string }> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, `GET ${url}`);
  const raw = await res.text();
  return { card: JSON.parse(raw) as Json, raw };
}
/** A JSON-RPC POST (asserting HTTP 200): the whole response body, result or error. */
export async function rpcRaw(
  url: string,
  method: string,
  params: Json,
  headers: Record<string, string> = {},
): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextRpcId(), method, params }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}
/** A JSON-RPC POST that must answer with a `result`: that result. */
export async function rpc(
  url: string,
  method: string,
  params: Json,
  headers: Record<string, string> = {},
): Promise<Json> {
  const body = await rpcRaw(url, method, params, headers);
  assert.ok(body.result, `expected a result, got ${JSON.stringify(body).slice(0, 300)}`);
  return body.result as Json;
}

/** Message builders whose message ids are `<prefix>1`, `<prefix>2`, ... */
export function messages(prefix: string) {
  let seq = 0;
  const nextMessageId = (): string => `${prefix}${++seq}`;
  /** A 0.3 text message; the skill (if any) in `metadata.skillId`. */
  const v03Message = (text: string, skillId?: string): Json => ({
    kind: 'message',
    role: 'user',
    messageId: nextMessageId(),
    parts: [{ kind: 'text', text }],
    ...(skillId === undefined ? {} : { metadata: { skillId } }),
  });
  return {
    nextMessageId,
    v03Message,
    /** 0.3 `message/send` params: `{message}` with the skill in the message's metadata. */
    v03Params: (text: string, skillId: string): Json => ({ message: v03Message(text, skillId) }),
    /** 1.0 `SendMessage` params: the skill in the request metadata. */
    v10Params: (text: string, skillId: string): Json => ({
      message: { messageId: nextMessageId(), role: 'ROLE_USER', parts: [{ text }] },
      metadata: { skillId },
    }),
  };
}

/**
 * The @a2a-js/sdk 1.3 client, from the card URL (`baseUrl`, and `path`, default
 * `/.well-known/agent-card.json` at the origin; `''` when `baseUrl` is the card's URL) or from a card the app
 * holds. `rest` adds the HTTP+JSON transport; `legacy` builds it in its 0.3 mode (legacyCompat).
 */
export async function sdkClient(
  from: { baseUrl: string; path?: string } | { card: Json },
  opts: { transport?: 'JSONRPC' | 'HTTP+JSON'; rest?: boolean; legacy?: boolean } = {},
): Promise<Client> {
  const legacy = opts.legacy ? [{ legacyCompat: { enabled: true } }] : [];
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory(...legacy),
        ...(opts.rest ? [new RestTransportFactory(...legacy)] : []),
      ],
      cardResolver: new DefaultAgentCardResolver(...legacy),
      preferredTransports: [opts.transport ?? 'JSONRPC'],
    }),
  );
  return 'baseUrl' in from
    ? factory.createFromUrl(from.baseUrl, from.path)
    : factory.createFromAgentCard(structuredClone(from.card) as unknown as AgentCard);
}

/** How long a settle waits for spans still open: a confirming card fetch's bound and a margin. */
const OPEN_SPAN_WAIT_MS = 2500;

/**
 * Span checks on the harness `h()` returns (it is created in a `before` hook):
 * `spansSettled(n)` waits up to `settleTimeoutMs` for n spans, then 50 ms for late span ends.
 */
export function spanChecks(h: () => Harness, settleTimeoutMs = 5000) {
  function describeSpans(): string {
    return JSON.stringify(
      h()
        .spans()
        .map((s) => ({ name: s.name, attrs: s.attributes, status: s.status })),
      null,
      1,
    );
  }
  return {
    describeSpans,
    /** The one span of that name. */
    only(name: string): ReadableSpan {
      const list = h().spans(name);
      assert.equal(list.length, 1, `one ${name} span, got ${list.length}: ${describeSpans()}`);
      return list[0];
    },
    /** [span name, drift kind] of every span with a drift verdict. */
    driftKinds(): Array<[string, unknown]> {
      return drifted(h().spans()).map((s) => [s.name, s.attributes['a2a.drift.kind']]);
    },
    async spansSettled(n: number): Promise<ReadableSpan[]> {
      await h().waitForSpans((s) => s.length >= n, settleTimeoutMs);
      // A span may still be open once n have ended: a polled task's last GetTask is held for
      // the card fetched again (at most 2 s), and on a loaded machine that fetch outlasts any
      // fixed pause. Wait for it, bounded, then for late span ends (stream settle, body reads).
      const until = Date.now() + OPEN_SPAN_WAIT_MS;
      while (h().openSpans() > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      return h().spans();
    },
  };
}

/**
 * Runs what the app does twice, with the instrumentation enabled and then disabled (enabled
 * again afterwards, whatever happens): what each run returned, for the caller to compare.
 * The enabled run must have made spans (else the comparison proves nothing).
 */
export async function sameWithAndWithout<T>(
  h: Harness,
  run: (pass: 'on' | 'off') => Promise<T>,
): Promise<{ on: T; off: T }> {
  const on = await run('on');
  const spansOn = h.spans().length;
  assert.ok(spansOn > 0, 'the instrumented run made spans');
  h.instrumentation.disable();
  let off: T;
  try {
    off = await run('off');
  } finally {
    h.instrumentation.enable();
  }
  return { on, off };
}

/**
 * What the instrumentation reported about one call, as the rows' quirks (rows/python-agno.quirks.ts)
 * record it: the drift verdict attributes that are
 * set (kind, evidence, confirmed, refetch, unjudged), the span status code, and whether a card
 * fingerprint was on the span (a card known for the endpoint).
 */
export function callVerdict(s: ReadableSpan): Json {
  const attrs: Json = {
    kind: s.attributes['a2a.drift.kind'],
    evidence: s.attributes['a2a.drift.evidence'],
    confirmed: s.attributes['a2a.drift.confirmed'],
    refetch: s.attributes['a2a.drift.refetch'],
    unjudged: s.attributes['a2a.drift.unjudged_reason'],
  };
  for (const k of Object.keys(attrs)) if (attrs[k] === undefined) delete attrs[k];
  return {
    ...attrs,
    status: s.status.code,
    fingerprint: s.attributes['a2a.agent_card.fingerprint'] !== undefined,
  };
}

/**
 * Bounded staleness against a live peer: with `cardRevalidationMs` set short on the harness's
 * instrumentation, `call()` is made until the card held (fetched before the redeploy) is found
 * changed in the background; returns the card_changed event (with its diff), how long it took,
 * and the span of one more call, judged against the newer card. The configuration is restored.
 */
export async function caughtByRevalidation(
  h: Harness,
  call: () => Promise<unknown>,
  intervalMs = 200,
): Promise<{ changed: DriftEvent; tookMs: number; next: ReadableSpan }> {
  const config = h.instrumentation.getConfig();
  const events: DriftEvent[] = [];
  const off = onAgentCardDrift((e) => {
    events.push(e);
  });
  h.instrumentation.setConfig({ ...config, cardRevalidationMs: intervalMs });
  try {
    const started = Date.now();
    while (
      !events.some((e) => e.kind === 'card_changed') &&
      Date.now() - started < 10 * intervalMs
    ) {
      await call();
      await new Promise((r) => setTimeout(r, intervalMs / 5));
    }
    const tookMs = Date.now() - started;
    const changed = events.find((e) => e.kind === 'card_changed');
    assert.ok(changed, `card_changed from the revalidation within ${tookMs} ms`);
    h.exporter.reset();
    await call();
    const spans = await h.waitForSpans((s) =>
      s.some((x) => x.kind === SpanKind.CLIENT && x.name !== 'GetAgentCard'),
    );
    const next = spans.find((x) => x.name !== 'GetAgentCard') as ReadableSpan;
    return { changed, tookMs, next };
  } finally {
    off();
    h.instrumentation.setConfig(config);
  }
}
