/**
 * The agent's side: the inbound tap's delegate for the A2A requests this process answers as an
 * agent, and for the Agent Cards it serves.
 *
 * - A GET of a card path (`/.well-known/agent-card.json`, `/.well-known/agent.json`, the
 *   per-agent `/.well-known/{agentId}/agent-card.json`): the bytes the app's server writes for it
 *   are read (capped) and, when they are an Agent Card, remembered as the card served at that
 *   path (core/served-card.ts), whatever framework wrote them.
 * - A POST (JSON or no content type) or DELETE, or a GET of an A2A REST path: its body bytes are
 *   read as the app's server reads them (capped; a body not starting with `{` is let go at its
 *   first chunk) and classified as the client side classifies its requests (core/classify.ts).
 *   An A2A operation gets a SERVER span, named as the client's, started at the request's arrival
 *   and made when its answer's headers are about to be sent: inside the app's own context, so
 *   with an HTTP server instrumentation active it is the child of that span; without one it
 *   joins the caller's trace (traceparent). The answer gains the served card's fingerprint
 *   header; its bytes are otherwise untouched. The span ends with the answer.
 * - The served card is known from the first A2A request the process answers: when none judges
 *   the request's route and the caller says it speaks A2A (saysA2A), the process asks its own
 *   server for its card over loopback (its card
 *   paths for the route, in turn), untraced, unref'd, bounded in time and bytes, one at a time per
 *   port and not again for LEARN_RETRY_MS after it found none; the span waits for it (at most
 *   LEARN_WAIT_MS) before it is judged. `setServedAgentCard` declares a card served elsewhere.
 * - A stale caller (judgeCaller): `a2a.drift.kind` and an `a2a.drift` event on the span (its
 *   status stays the server's own), counted in `a2a.server.stale_calls` with bounded labels.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  context,
  propagation,
  trace,
  type Counter,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { decodeCard, isAgentCard } from '../core/card';
import { classifyRequest, parseJsonSafe, type ClassifyOptions } from '../core/classify';
import { skillFingerprintBounded } from '../core/fingerprint';
import type { DecodedRequest } from '../core/model';
import { normaliseVersion } from '../core/protocol/versions';
import {
  ServedCards,
  SkillLabels,
  cardPathCandidates,
  isFingerprint,
  judgeCaller,
  routePath,
  type CallerVerdict,
  type ServedCard,
} from '../core/served-card';
import { normaliseUrl, originOfNormalised } from '../core/url';
import { backgroundGet } from '../hooks/background-get';
import type { InboundObserver, InboundRequestInfo, InboundTapDelegate } from '../hooks/inbound-tap';
import type { ResolvedConfig } from '../config';
import { logger } from '../diag-logger';
import { HEADER_CARD_FINGERPRINT } from '../semconv';
import { PACKAGE_NAME } from '../version';
import { MAX_CARD_BYTES } from './card-refetch';
import { runAsOwnRequest } from './own-requests';
import { sharedState } from './shared-state';
import { dispatchStaleCaller } from './drift-events';
import {
  callerDriftEvent,
  operationSpanName,
  serverCallAttributes,
  serverResponseUpdate,
  staleCallMetricAttributes,
  staleCallerEvent,
} from './span-attributes';

/** How long a span waits for the process's own card to be learned before it is judged. */
export const LEARN_WAIT_MS = 2000;
/** One loopback request for the card: its time limit. */
const LEARN_FETCH_TIMEOUT_MS = 1500;
/** After the process's own server had no card for a route, it is not asked again this long. */
export const LEARN_RETRY_MS = 30_000;
/** Ports whose learning is remembered at most. */
const MAX_LEARNING = 64;

export interface ServerCallDeps {
  tracer: Tracer;
  staleCalls: Counter | undefined;
  config: ResolvedConfig;
}

const getter: TextMapGetter<InboundRequestInfo> = {
  keys: () => ['traceparent', 'tracestate', 'baggage'],
  get: (carrier, key) => carrier.header(key.toLowerCase()),
};

/** The cards this process serves, process-wide (every copy of the package sees the same). */
export function servedCards(): ServedCards {
  const state = sharedState();
  return (state.served ??= new ServedCards());
}

/**
 * Declare the Agent Card this process serves at `options.url` (an app that serves it from
 * somewhere this process's HTTP server does not, or before anyone fetched it): the card its A2A
 * answers are judged against and whose fingerprint they announce. Returns false (and keeps
 * nothing) when `card` is not an Agent Card or `url` is not an absolute http(s) URL. Never throws.
 */
export function setServedAgentCard(card: unknown, options: { url: string }): boolean {
  try {
    const url = normaliseUrl(options?.url ?? '');
    if (url === undefined || !/^https?:\/\//.test(url) || !isAgentCard(card)) return false;
    const fingerprint = skillFingerprintBounded(card).fingerprint;
    if (fingerprint === undefined) return false;
    servedCards().set({
      path: routePath(url),
      url,
      fingerprint,
      card: decodeCard(card),
      source: 'declared',
    });
    return true;
  } catch (err) {
    logger.debug('could not declare the served card', err);
    return false;
  }
}

/** A Host header as a URL authority, or undefined when it is not one. */
function safeHost(host: string | undefined): string | undefined {
  return host !== undefined && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : undefined;
}

function firstNonBlankIsBrace(chunk: Buffer): boolean | undefined {
  for (const c of chunk) {
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === 0xef) return true; // a UTF-8 byte order mark: let the parse decide
    return c === 123;
  }
  return undefined; // blank so far
}

/**
 * The request says it comes from an A2A client: an `A2A-Version` header, or the card fingerprint
 * it holds. Only then is the app's own server asked for its card: a GET of its well-known path
 * is something an A2A server answers (the specification has it serve its card there), and an
 * app that is no A2A server, or a hand-written one that never expects a GET, is never sent a
 * request it did not expect.
 */
function saysA2A(info: InboundRequestInfo): boolean {
  return (
    normaliseVersion(info.header('a2a-version')) !== undefined ||
    isFingerprint(info.header(HEADER_CARD_FINGERPRINT))
  );
}

interface Learning {
  pending?: Promise<void>;
  /** When the last attempt settled without a card for the route. */
  failedAt?: number;
}

export class ServerCalls implements InboundTapDelegate {
  private readonly labels = new SkillLabels();
  private readonly learning = new Map<string, Learning>();
  private classifyOptions: ClassifyOptions | undefined;
  private optionsFor: ResolvedConfig | undefined;

  constructor(
    /** The dependencies, or undefined when the instrumentation is not active. */
    private readonly deps: () => ServerCallDeps | undefined,
  ) {}

  onRequest(info: InboundRequestInfo): InboundObserver | undefined {
    const method = info.method;
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') return undefined;
    const deps = this.deps();
    if (deps === undefined) return undefined;
    if (method === 'POST') {
      const type = (info.header('content-type') ?? '').toLowerCase();
      if (!(type === '' || type.includes('json'))) return undefined;
      const encoding = info.header('content-encoding');
      if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
      // A caller that says it speaks A2A (its version, or the card it holds) is answered by an
      // A2A server, which serves its card: asked for now, so that even the first answer after a
      // redeploy can carry its fingerprint (the app reads and handles the body meanwhile).
      if (saysA2A(info)) void this.learn(info);
      return this.operation(info, deps, undefined);
    }
    const cls = classifyRequest(method, info.target, undefined, this.options(deps.config, info));
    if (cls === undefined) return undefined;
    if (cls.type === 'card')
      return cls.extended || cls.sniff === true ? undefined : this.cardServed(info);
    if (cls.type === 'operation') return this.operation(info, deps, cls.request);
    return undefined;
  }

  private options(config: ResolvedConfig, info: InboundRequestInfo): ClassifyOptions {
    if (this.classifyOptions === undefined || this.optionsFor !== config) {
      this.optionsFor = config;
      this.classifyOptions = {
        skillIdPaths: config.skillIdPaths,
        maxBodyBytes: config.maxRequestBodyBytes,
      };
    }
    const header = info.header('a2a-version');
    const known = servedCards().declaresRoute(info.localPort, info.target);
    return header === undefined && !known
      ? this.classifyOptions
      : { ...this.classifyOptions, a2aVersionHeader: header, knownA2AEndpoint: known };
  }

  /** A GET of a card path: the bytes the app's server answers with, read for the card. */
  private cardServed(info: InboundRequestInfo): InboundObserver {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    return {
      tapResponse: true,
      onResponseBody: (chunk) => {
        if (over) return;
        size += chunk.length;
        if (size > MAX_CARD_BYTES) {
          over = true;
          chunks.length = 0;
        } else chunks.push(chunk);
      },
      onResponseEnd: (statusCode, finished, header) => {
        if (over || !finished || statusCode !== 200) return;
        const encoding = (header('content-encoding') ?? 'identity').toLowerCase();
        // a compressed card is learned by the loopback request (which asks for identity)
        if (encoding !== 'identity') return;
        this.noteServed(info, routePath(info.target), Buffer.concat(chunks, size).toString('utf8'));
      },
    };
  }

  /** A card's text served at `path`: remembered when it is an Agent Card. */
  private noteServed(info: InboundRequestInfo, path: string, text: string): boolean {
    const parsed = parseJsonSafe(text);
    if (!parsed.ok || !isAgentCard(parsed.value)) return false;
    const fingerprint = skillFingerprintBounded(parsed.value).fingerprint;
    if (fingerprint === undefined) return false;
    const card = decodeCard(parsed.value);
    // where callers fetch it: the origin the card declares for its endpoints, else the Host
    let origin: string | undefined;
    for (const e of card.endpoints) {
      const n = normaliseUrl(e.url);
      origin = n === undefined ? undefined : originOfNormalised(n);
      if (origin !== undefined) break;
    }
    origin ??= `${info.encrypted ? 'https' : 'http'}://${safeHost(info.header('host')) ?? 'localhost'}`;
    const port = info.localPort;
    const held = servedCards().at(port, path);
    if (held?.fingerprint !== fingerprint)
      logger.debug(`served card at ${path}: fingerprint ${fingerprint.slice(0, 12)}…`);
    servedCards().set({
      port,
      path,
      url: `${origin}${path}`,
      fingerprint,
      card,
      source: 'served',
    });
    return true;
  }

  /** A request that may be (`request` undefined: its body decides) or is an A2A operation. */
  private operation(
    info: InboundRequestInfo,
    deps: ServerCallDeps,
    request: DecodedRequest | undefined,
  ): InboundObserver {
    const startTime = Date.now();
    let req = request;
    let chunks: Buffer[] | undefined = request === undefined ? [] : undefined;
    let size = 0;
    let seenBrace = false;
    let span: Span | undefined;
    let verdict: CallerVerdict | undefined;
    let served: ServedCard | undefined;
    let learn: Promise<void> | undefined;
    const target = info.target;
    const max = deps.config.maxRequestBodyBytes;

    const judge = (): void => {
      served = servedCards().forRequest(info.localPort, target);
      verdict = judgeCaller(served, req!, info.header(HEADER_CARD_FINGERPRINT));
    };
    const start = (ctx: ReturnType<typeof context.active>): void => {
      if (served === undefined) served = servedCards().forRequest(info.localPort, target);
      if (served !== undefined) judge();
      // with an HTTP server instrumentation, the active context holds its span: the parent
      const parent =
        trace.getSpan(ctx) !== undefined ? ctx : propagation.extract(ROOT_CONTEXT, info, getter);
      const attributes = serverCallAttributes({
        request: req!,
        verdict: verdict ?? {},
        served,
      });
      span = deps.tracer.startSpan(
        operationSpanName(req!.operation, attributes, deps.config.genAiSpanNames),
        { kind: SpanKind.SERVER, attributes, startTime },
        parent,
      );
    };
    const finish = (statusCode: number, finished: boolean, endTime: number): void => {
      const s = span!;
      const update = serverResponseUpdate(statusCode, finished);
      s.setAttributes(update.attributes);
      if (update.status) s.setStatus(update.status);
      if (verdict === undefined || served === undefined) {
        judge();
        s.setAttributes(serverCallAttributes({ request: req!, verdict: verdict!, served }));
      }
      const v = verdict!;
      if (v.drift !== undefined) {
        const event = callerDriftEvent(v);
        s.addEvent(event.name, event.attributes);
        const label =
          v.skillId === undefined
            ? undefined
            : this.labels.label(
                v.skillId,
                v.skillListed === true || servedCards().listsAnywhere(v.skillId),
              );
        deps.staleCalls?.add(1, staleCallMetricAttributes(v.drift, label, served));
        dispatchStaleCaller(staleCallerEvent(req!.operation, v, served));
      }
      // ended when the answer ended, though judged later when the card was being learned
      s.end(endTime);
    };

    return {
      onBody:
        chunks === undefined
          ? undefined
          : (chunk) => {
              if (chunks === undefined) return;
              if (!seenBrace) {
                const brace = firstNonBlankIsBrace(chunk);
                if (brace === false) {
                  chunks = undefined; // not JSON: let it go
                  return;
                }
                if (brace === true) seenBrace = true;
              }
              size += chunk.length;
              if (size > max) chunks = undefined;
              else chunks.push(chunk);
            },
      onEnd:
        request !== undefined
          ? (complete) => {
              if (complete && saysA2A(info)) learn = this.learn(info);
            }
          : (complete) => {
              const body = chunks;
              chunks = undefined;
              if (!complete || body === undefined || body.length === 0) return;
              const text = Buffer.concat(body, size).toString('utf8');
              const cls = classifyRequest('POST', target, text, this.options(deps.config, info));
              if (cls?.type !== 'operation') return;
              req = cls.request;
              if (saysA2A(info)) learn = this.learn(info);
            },
      responseHeaders: () => {
        if (req === undefined) return undefined;
        try {
          start(context.active());
        } catch (err) {
          logger.debug('could not start a SERVER span', err);
          return undefined;
        }
        return served !== undefined && deps.config.cardFingerprintHeaders
          ? { [HEADER_CARD_FINGERPRINT]: served.fingerprint }
          : undefined;
      },
      onResponseEnd: (statusCode, finished) => {
        if (req === undefined) return;
        const endTime = Date.now();
        if (span === undefined) start(ROOT_CONTEXT); // closed before any answer
        if (served !== undefined || learn === undefined) {
          finish(statusCode, finished, endTime);
          return;
        }
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, LEARN_WAIT_MS);
          timer.unref?.();
        });
        void Promise.race([learn, timeout])
          .then(() => {
            if (timer) clearTimeout(timer);
            finish(statusCode, finished, endTime);
          })
          .catch((err: unknown) => logger.debug('could not end a SERVER span', err));
      },
    };
  }

  /**
   * The card judging this request's route, learned from the process's own server when it is not
   * known: undefined when it is known (or being learned in vain lately).
   */
  private learn(info: InboundRequestInfo): Promise<void> | undefined {
    const cards = servedCards();
    const port = info.localPort;
    if (cards.forRequest(port, info.target) !== undefined) return undefined;
    if (port === undefined) return undefined;
    const key = `${info.localAddress ?? ''} ${port}`;
    const l = this.learning.get(key) ?? {};
    if (l.pending !== undefined) return l.pending;
    const now = Date.now();
    if (l.failedAt !== undefined && now < l.failedAt + LEARN_RETRY_MS) return undefined;
    const address = info.localAddress ?? '127.0.0.1';
    const pending = runAsOwnRequest(async () => {
      for (const path of cardPathCandidates(info.target)) {
        const text = await ownGet(
          info.encrypted,
          address,
          port,
          safeHost(info.header('host')),
          path,
        );
        if (text !== undefined && this.noteServed(info, path, text)) {
          if (cards.forRequest(port, info.target) !== undefined) return true;
        }
      }
      return cards.forRequest(port, info.target) !== undefined;
    })
      .catch((err: unknown) => {
        logger.debug('could not learn the served card', err);
        return false;
      })
      .then((found) => {
        delete l.pending;
        if (!found) l.failedAt = Date.now();
      });
    l.pending = pending;
    this.learning.delete(key);
    this.learning.set(key, l);
    if (this.learning.size > MAX_LEARNING) {
      const oldest = this.learning.keys().next().value;
      if (oldest !== undefined) this.learning.delete(oldest);
    }
    return pending;
  }
}

/**
 * GET `path` of this process's own server (loopback, the address and port a request came in
 * on): the body as text when it is a 200 within MAX_CARD_BYTES, else undefined. The package's
 * background GET: never keeps the process alive, never follows a redirect, aborted on disable;
 * never throws.
 */
async function ownGet(
  encrypted: boolean,
  address: string,
  port: number,
  host: string | undefined,
  path: string,
): Promise<string | undefined> {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  const url = `${encrypted ? 'https' : 'http'}://${ip.includes(':') ? `[${ip}]` : ip}:${port}${path}`;
  try {
    const answer = await backgroundGet(
      url,
      {
        accept: 'application/json',
        'accept-encoding': 'identity',
        'user-agent': PACKAGE_NAME,
        ...(host !== undefined ? { host } : {}),
      },
      { timeoutMs: LEARN_FETCH_TIMEOUT_MS, maxBytes: MAX_CARD_BYTES, ownServer: encrypted },
    );
    return answer.status === 200 ? answer.body : undefined;
  } catch {
    return undefined;
  }
}
