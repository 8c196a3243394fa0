/**
 * One A2A exchange (an Agent Card fetch or an operation), from the request to the end
 * of its response: owns the span, feeds the response bytes to the core (decode, judge)
 * and turns what the core says into span attributes, status, events, the drift counter
 * and the drift callbacks.
 */
import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { safeExecuteInTheMiddle } from '@opentelemetry/instrumentation';
import { logger } from '../diag-logger';
import { BodyReader, type BodyMode } from '../core/body-reader';
import { decodeCard, isAgentCard } from '../core/card';
import { urlFacts, type UrlFacts } from '../core/url';
import { skillFingerprintBounded } from '../core/fingerprint';
import { judge, judgeCardChange, type DriftEvent, type NegotiationContext } from '../core/judge';
import type { DecodedRequest, DecodedResult } from '../core/model';
import { decodeResponse, decodeStreamEvent } from '../core/protocol/results';
import { endpointScope } from '../core/protocol/common';
import {
  cardProtocolVersion,
  normaliseVersion,
  versionForFamily,
  type VersionFamily,
} from '../core/protocol/versions';
import type { CardEntry } from '../core/registry';
import type { A2AInstrumentationConfig, ResolvedConfig } from '../config';
import type { WireObserver } from '../hooks/types';
import * as sc from '../semconv';
import { dispatchDrift } from './drift-events';
import {
  cap,
  cardAttributes,
  cardChangedEventAttributes,
  driftAttributes,
  driftMetricAttributes,
  freshness,
  safeMessage,
  type Freshness,
} from './span-attributes';
import { sharedState } from './shared-state';

const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);

export interface CallDeps {
  tracer: Tracer;
  driftCounter: Counter | undefined;
  config: ResolvedConfig;
  userConfig: A2AInstrumentationConfig;
  onFinished(call: A2ACall): void;
  /**
   * refetchCardOnDrift: fetch the card again, unobserved and untraced; resolves to its fingerprint,
   * or undefined.
   */
  refetchCard?: (cardUrl: string) => Promise<string | undefined>;
}

const REFETCH_WAIT_MS = 5000;

/**
 * `sniffed`: a card recognised by its content at a path that only hinted at one: it may speak only
 * for its own origin.
 */
export type CallTarget =
  { type: 'card'; sniffed?: boolean } | { type: 'operation'; request: DecodedRequest };

/**
 * Characters of a streamed answer kept before each delta (phrases naming a skill are far shorter).
 */
const STREAM_OVERLAP = 384;

export class A2ACall {
  readonly span: Span;
  readonly startedAt: number;
  /** Last time bytes or headers arrived: a response idle past the limit is taken as abandoned. */
  lastActivity: number;
  /**
   * Set by the fetch wrapper: redirects are followed by fetch, so a 3xx hop does not end the call.
   */
  followsRedirects = false;
  /**
   * The last undici request (hop) of this call: none yet; open; answered with a redirect (3xx
   * with Location), still open or ended; ended.
   */
  private lastHop: 'none' | 'open' | 'redirect' | 'redirect-ended' | 'ended' = 'none';
  /** The fetch promise settled (fetch wrapper only): no further hop will come. */
  private fetchSettled = false;
  /**
   * open → ending (finish() asked; a confirming re-fetch may hold the span) → ended (span ended).
   */
  private phase: 'open' | 'ending' | 'ended' = 'open';
  private refetch: Promise<void> | undefined;
  private drift: DriftEvent | undefined;
  private unjudged: string | undefined;
  private statusCode: number | undefined;
  private lastResult: DecodedResult | undefined;
  private events = 0;
  /** A card response's Cache-Control max-age, ETag and Last-Modified. */
  private cardFreshness: Freshness | undefined;
  /** The end of the streamed answer so far (judge only, never exported). */
  private streamTail: string | undefined;
  private ctx: NegotiationContext;
  private taskId: string | undefined;
  private negotiatedTaskId: string | undefined;
  private readonly url: UrlFacts;
  /** The conversation id and task state last set on the span. */
  private contextIdSet: string | undefined;
  private stateSet: string | undefined;
  /** cardEntry(): null until looked up. */
  private entryLookup: CardEntry | undefined | null = null;

  constructor(
    private readonly deps: CallDeps,
    readonly target: CallTarget,
    rawUrl: string,
    parent: Context,
    applicationSkillId: string | undefined,
    startTime?: number,
  ) {
    this.startedAt = startTime ?? Date.now();
    this.lastActivity = Date.now();
    const url = urlFacts(rawUrl);
    this.url = url;
    const name = target.type === 'card' ? sc.SPAN_GET_AGENT_CARD : target.request.operation;
    const attrs: Attributes = {};
    if (url.host !== undefined) {
      attrs[sc.ATTR_SERVER_ADDRESS] = url.host;
      attrs[sc.ATTR_SERVER_PORT] = url.port;
    }
    this.ctx = { cardKnown: false };
    if (target.type === 'operation') {
      const req = target.request;
      attrs[sc.ATTR_A2A_METHOD_NAME] = req.operation;
      attrs[sc.ATTR_A2A_BINDING] = req.binding;
      if (req.protocolVersion) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = req.protocolVersion;
      if (req.taskId !== undefined) attrs[sc.ATTR_A2A_TASK_ID] = cap(req.taskId);
      if (req.contextId !== undefined) attrs[sc.ATTR_GEN_AI_CONVERSATION_ID] = cap(req.contextId);
      if (req.messageId !== undefined) attrs[sc.ATTR_A2A_MESSAGE_ID] = cap(req.messageId);
      this.taskId = req.taskId;
      const links: Link[] = [];
      this.ctx = this.negotiationContext(req, applicationSkillId, attrs, links);
      if (!req.protocolVersion) {
        const v = this.versionFromCard(req);
        if (v !== undefined) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = v;
      }
      this.span = deps.tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: attrs, links, startTime },
        parent,
      );
    } else {
      this.span = deps.tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: attrs, startTime },
        parent,
      );
    }
    const requestHook = deps.userConfig.requestHook;
    if (requestHook)
      this.safeHook('requestHook', () =>
        requestHook(this.span, { operation: name, url: this.url.key, request: this.request }),
      );
  }

  get request(): DecodedRequest | undefined {
    return this.target.type === 'operation' ? this.target.request : undefined;
  }

  /**
   * The skill and card this call is judged against (lifecycle calls: those of the SendMessage that
   * created the task).
   */
  private negotiationContext(
    req: DecodedRequest,
    applicationSkillId: string | undefined,
    attrs: Attributes,
    links: Link[],
  ): NegotiationContext {
    const state = sharedState();
    const now = Date.now();
    const isSend = req.operation === 'SendMessage' || req.operation === 'SendStreamingMessage';
    if (!isSend && req.taskId !== undefined) {
      const n = state.negotiations.get(req.taskId, now, this.taskScope(req));
      // (An entry without a context: put by another copy of this package, of another shape.)
      if (n && typeof n.context === 'object' && n.context !== null) {
        const ctx = n.context;
        if (ctx.skillId !== undefined) {
          attrs[sc.ATTR_A2A_SKILL_ID] = cap(ctx.skillId);
          if (n.skillIdSource) attrs[sc.ATTR_A2A_SKILL_ID_SOURCE] = n.skillIdSource;
        }
        if (ctx.fingerprint) attrs[sc.ATTR_A2A_AGENT_CARD_FINGERPRINT] = ctx.fingerprint;
        if (ctx.cardUrl) attrs[sc.ATTR_A2A_AGENT_CARD_URL] = ctx.cardUrl;
        if (ctx.agentName !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_NAME] = cap(ctx.agentName);
        if (ctx.cardVersion !== undefined)
          attrs[sc.ATTR_GEN_AI_AGENT_VERSION] = cap(ctx.cardVersion);
        attrs[sc.ATTR_A2A_LIFECYCLE_NEGOTIATION_KNOWN] = true;
        const link = n.link as
          { traceId?: string; spanId?: string; traceFlags?: number } | undefined;
        if (link && typeof link.traceId === 'string' && typeof link.spanId === 'string') {
          links.push({
            context: {
              traceId: link.traceId,
              spanId: link.spanId,
              traceFlags: link.traceFlags ?? 0,
            },
          });
        }
        return ctx;
      }
      attrs[sc.ATTR_A2A_LIFECYCLE_NEGOTIATION_KNOWN] = false;
    }
    let skillId = req.skillId;
    let source = req.skillIdSource;
    if (skillId === undefined && applicationSkillId !== undefined) {
      skillId = applicationSkillId;
      source = 'application';
    }
    if (skillId !== undefined) {
      attrs[sc.ATTR_A2A_SKILL_ID] = cap(skillId);
      if (source) attrs[sc.ATTR_A2A_SKILL_ID_SOURCE] = source;
    }
    const entry = this.cardEntry();
    if (!entry) return { cardKnown: false, skillId };
    Object.assign(attrs, cardAttributes(entry));
    if (entry.suspect) {
      attrs[sc.ATTR_A2A_AGENT_CARD_SUSPECT] = true;
      attrs[sc.ATTR_A2A_AGENT_CARD_SUSPECT_SOURCE] = entry.suspectSource ?? 'local';
    }
    const skill = skillId !== undefined ? entry.skills.get(skillId) : undefined;
    return {
      skillId,
      cardKnown: true,
      cardUrl: entry.cardUrl,
      fingerprint: entry.fingerprint,
      agentName: entry.card.name,
      cardVersion: entry.card.version,
      // a card truncated at MAX_SKILLS may list the skill among those not read: not "not listed"
      skillInCard:
        skillId === undefined
          ? undefined
          : skill !== undefined
            ? true
            : entry.card.skillsTruncated === true
              ? undefined
              : false,
      outputModes: skill?.outputModes,
      inputModes: skill?.inputModes,
    };
  }

  /** The card held for this call's URL, looked up once (at the start of the call). */
  private cardEntry(): CardEntry | undefined {
    if (this.entryLookup === null)
      this.entryLookup = this.url.parsed
        ? sharedState().cards.forNormalisedUrl(this.url.key)
        : undefined;
    return this.entryLookup;
  }

  /** The agent endpoint this call's tasks live at (task ids are unique per agent only). */
  private taskScope(req: DecodedRequest): string | undefined {
    return this.url.parsed ? endpointScope(this.url.key, req) : undefined;
  }

  /**
   * The version a request that does not say its own speaks, from the card for its endpoint:
   * the version of the request's family (0.x method names or 1.x) the card offers there
   * (a card may list JSON-RPC 1.0 and 0.3 at one URL).
   */
  private versionFromCard(req: DecodedRequest): string | undefined {
    const entry = this.cardEntry();
    if (!entry) return undefined;
    const family: VersionFamily =
      req.binding === 'jsonrpc' && !/^[A-Z]/.test(req.wireMethod) ? '0' : '1';
    let atEndpoint = entry.endpointVersions.get(this.url.key);
    if (atEndpoint === undefined) {
      // the request URL is below the endpoint (REST paths): the card's versions of any endpoint
      atEndpoint = [];
      for (const vs of entry.endpointVersions.values())
        for (const v of vs) if (atEndpoint.length < 16) atEndpoint.push(v);
    }
    return versionForFamily(family, atEndpoint, entry.card.protocolVersion);
  }

  /** Follow one undici request (one hop of a redirect chain) of this call. */
  attachHop(): WireObserver {
    this.lastHop = 'open';
    let reader: BodyReader | undefined;
    let redirect = false;
    const endHop = (complete: boolean, error?: unknown): void => {
      this.lastHop = this.lastHop === 'redirect' ? 'redirect-ended' : 'ended';
      if (redirect && this.followsRedirects && !this.fetchSettled) return; // the next hop or the fetch promise ends the call
      if (reader) {
        if (error !== undefined) this.recordError(error);
        reader.end(complete);
      } else {
        if (error !== undefined) this.recordError(error);
        this.finish();
      }
    };
    return {
      onResponseHeaders: (statusCode, headers) => {
        this.lastActivity = Date.now();
        this.statusCode = statusCode;
        if (REDIRECT_CODES.has(statusCode) && headers['location'] !== undefined) {
          redirect = true;
          this.lastHop = 'redirect';
          return;
        }
        this.span.setAttribute(sc.ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
        if (this.target.type === 'card') this.cardFreshness = freshness(headers);
        const type = (headers['content-type'] ?? '').toLowerCase();
        let mode: BodyMode | undefined;
        if (type.includes('text/event-stream')) mode = 'sse';
        else if (type === '' || type.includes('json')) mode = 'json';
        if (statusCode >= 400) this.httpError(statusCode);
        if (!mode) {
          this.setUnjudged(`response is ${cap(type.split(';')[0])}, not JSON`);
          return;
        }
        reader = new BodyReader(
          mode,
          headers['content-encoding'],
          this.deps.config.maxInspectBytes,
          {
            onDocument: (value, eventName) => this.onDocument(value, mode === 'sse', eventName),
            onProblem: (problem) => this.setUnjudged(problem),
            onEnd: () => this.finish(),
          },
          // A stream's events are judged after the app got their bytes (enforce mode needs
          // each verdict before the app reads on).
          { deferEvents: !this.deps.config.enforce },
        );
      },
      onResponseBody: (chunk) => {
        this.lastActivity = Date.now();
        if (reader) reader.push(chunk);
      },
      onComplete: () => endHop(true),
      onError: (err) => endHop(false, err),
    };
  }

  /** The fetch promise settled (fetch wrapper only). */
  fetchResolved(): void {
    this.fetchSettled = true;
    if (this.lastHop === 'none') {
      this.setUnjudged('response bytes not observed');
      this.finish();
    } else if (this.lastHop === 'redirect-ended') {
      this.finish(); // fetch returned the 3xx itself (redirect: 'manual')
    }
  }

  fetchRejected(err: unknown): void {
    this.fetchSettled = true;
    this.recordError(err);
    this.finish();
  }

  private onDocument(value: unknown, isEvent: boolean, eventName?: string): void {
    if (this.phase === 'ended') return;
    try {
      if (this.target.type === 'card') this.onCard(value);
      else
        this.onResult(
          isEvent
            ? decodeStreamEvent(value, this.target.request, eventName)
            : decodeResponse(value, this.target.request, this.statusCode),
        );
    } catch (err) {
      logger.debug('could not process a response document', err);
      this.setUnjudged('internal error while judging');
    }
  }

  private onCard(value: unknown): void {
    if (this.statusCode !== undefined && (this.statusCode < 200 || this.statusCode >= 300)) {
      this.setUnjudged(`card fetch answered ${this.statusCode}`);
      return;
    }
    if (!isAgentCard(value)) {
      const card = decodeCard(value);
      this.setUnjudged(
        `not an Agent Card (${cap(card.problem ?? 'no name, skills and url / supportedInterfaces / protocolVersion')})`,
      );
      return;
    }
    const card = decodeCard(value);
    const fp = skillFingerprintBounded(value);
    const state = sharedState();
    if (fp.fingerprint === undefined) {
      // A card too complex to fingerprint within the work budget: nothing is judged against
      // it, nor against an earlier card of that URL (it may no longer be what the peer serves).
      state.cards.evict(this.url.key);
      this.setUnjudged(cap(`could not fingerprint the Agent Card (${fp.problem})`));
      return;
    }
    const fingerprint = fp.fingerprint;
    const fresh = this.cardFreshness;
    const update = state.cards.put(this.url.key, card, fingerprint, Date.now(), {
      sameOriginOnly: this.target.type === 'card' && this.target.sniffed === true,
      etag: fresh?.etag,
      lastModified: fresh?.lastModified,
    });
    logger.debug(
      `Agent Card recognised at ${this.url.key}: ${card.skills.length} skills, fingerprint ${fingerprint.slice(0, 12)}…`,
    );
    if (fresh?.maxAge !== undefined)
      this.span.setAttribute(sc.ATTR_A2A_AGENT_CARD_MAX_AGE, fresh.maxAge);
    if (fresh?.etag !== undefined) this.span.setAttribute(sc.ATTR_A2A_AGENT_CARD_ETAG, fresh.etag);
    if (fresh?.lastModified !== undefined)
      this.span.setAttribute(sc.ATTR_A2A_AGENT_CARD_LAST_MODIFIED, fresh.lastModified);
    this.span.setAttributes(cardAttributes(update.entry));
    this.span.setAttribute(sc.ATTR_A2A_AGENT_CARD_SKILL_COUNT, card.skills.length);
    const version = cardProtocolVersion(
      card.protocolVersion,
      card.endpoints.map((e) => e.protocolVersion),
    );
    if (version !== undefined) this.span.setAttribute(sc.ATTR_A2A_PROTOCOL_VERSION, version);
    if (update.previousFingerprint !== undefined && update.previousFingerprint !== fingerprint) {
      this.span.setAttribute(
        sc.ATTR_A2A_AGENT_CARD_PREVIOUS_FINGERPRINT,
        update.previousFingerprint,
      );
    }
    if (update.versionChanged) {
      this.span.setAttribute(sc.ATTR_A2A_AGENT_CARD_VERSION_CHANGED, true);
      if (update.previousVersion !== undefined)
        this.span.setAttribute(
          sc.ATTR_A2A_AGENT_CARD_PREVIOUS_VERSION,
          cap(update.previousVersion),
        );
    }
    if (update.changed && update.previousFingerprint !== undefined) {
      this.recordDrift(
        judgeCardChange(
          this.url.key,
          card.name,
          card.version,
          update.previousFingerprint,
          fingerprint,
        ),
      );
    }
  }

  private onResult(result: DecodedResult): void {
    this.lastResult = result;
    this.events++;
    const req = this.target.type === 'operation' ? this.target.request : undefined;
    if (result.taskId !== undefined && result.taskId !== this.negotiatedTaskId) {
      if (this.taskId === undefined) {
        this.taskId = result.taskId;
        this.span.setAttribute(sc.ATTR_A2A_TASK_ID, cap(result.taskId));
      }
      if (req && (req.operation === 'SendMessage' || req.operation === 'SendStreamingMessage')) {
        this.negotiatedTaskId = result.taskId;
        this.rememberNegotiation(result.taskId);
      }
    }
    // A stream repeats its context id and state on every event: each is set when it changes.
    if (result.contextId !== undefined && result.contextId !== this.contextIdSet) {
      this.contextIdSet = result.contextId;
      this.span.setAttribute(sc.ATTR_GEN_AI_CONVERSATION_ID, cap(result.contextId));
    }
    if (result.state !== undefined && result.state !== this.stateSet) {
      this.stateSet = result.state;
      this.span.setAttribute(sc.ATTR_A2A_TASK_STATE, result.state);
    }
    if (result.protocolVersion && !req?.protocolVersion)
      this.span.setAttribute(
        sc.ATTR_A2A_PROTOCOL_VERSION,
        normaliseVersion(result.protocolVersion) ?? result.protocolVersion,
      );
    if (result.error?.code !== undefined && !this.drift)
      this.span.setAttribute(sc.ATTR_ERROR_TYPE, String(result.error.code));
    // The peer's error text may echo the request: only its code and reason go on the span.
    if (result.error)
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message:
          `A2A error ${result.error.code ?? ''}${result.error.reason ? ` ${cap(result.error.reason)}` : ''}`.trim(),
      });
    if (result.problem) this.setUnjudged(cap(result.problem));
    if (this.drift) return;
    const verdict = judge(req, this.ctx, this.withStreamedAnswer(result), this.deps.config);
    if (verdict.drift) this.recordDrift(verdict.drift);
    else if (verdict.unjudged) this.setUnjudged(verdict.unjudged);
  }

  /**
   * A streamed answer comes in artifact updates: word-sized deltas (`append: true`, Mastra)
   * or whole snapshots (VoltAgent). The judge sees each delta together with the last
   * STREAM_OVERLAP characters before it, so a phrase split across chunks is whole in one
   * window, and each character of a long stream is looked at a bounded number of times
   * (judging the whole answer so far at every event would be quadratic).
   */
  private withStreamedAnswer(result: DecodedResult): DecodedResult {
    if (result.kind !== 'artifact-update' || result.artifactText === undefined) return result;
    const delta = result.artifactText;
    const window =
      result.append === true && this.streamTail !== undefined ? this.streamTail + delta : delta;
    this.streamTail =
      window.length > STREAM_OVERLAP ? window.slice(window.length - STREAM_OVERLAP) : window;
    return window === delta ? result : { ...result, artifactText: window };
  }

  private rememberNegotiation(taskId: string): void {
    const spanContext = this.span.spanContext();
    sharedState().negotiations.put({
      taskId,
      scope: this.request ? this.taskScope(this.request) : undefined,
      context: this.ctx,
      skillIdSource:
        this.request?.skillIdSource ?? (this.ctx.skillId !== undefined ? 'application' : undefined),
      link: {
        traceId: spanContext.traceId,
        spanId: spanContext.spanId,
        traceFlags: spanContext.traceFlags,
      },
      createdAt: Date.now(),
    });
  }

  private recordDrift(event: DriftEvent): void {
    if (this.drift) return;
    this.drift = event;
    logger.debug(
      `drift: ${event.kind} on ${this.span.isRecording() ? 'a recorded' : 'an unrecorded'} A2A call to ${this.url.key}`,
    );
    const span = this.span;
    // card_changed is the confirmation, not a failure: the fetch that refreshes the card did
    // its job. Its span keeps status UNSET and gets an event; every other kind is an error.
    const changed = event.kind === 'card_changed';
    if (!changed)
      span.setStatus({ code: SpanStatusCode.ERROR, message: safeMessage(event.error.message) });
    span.setAttributes(driftAttributes(event));
    if (changed) span.addEvent(sc.EVENT_AGENT_CARD_CHANGED, cardChangedEventAttributes(event));
    else span.recordException(event.error);
    this.deps.driftCounter?.add(1, driftMetricAttributes(event, this.url));
    const state = sharedState();
    if (event.kind !== 'card_changed' && event.cardUrl) state.cards.markSuspect(event.cardUrl);
    dispatchDrift(
      event,
      this.deps.config.driftCallbackDebounceMs,
      Date.now(),
      this.deps.userConfig.onDrift,
    );
    if (
      this.deps.refetchCard &&
      event.kind !== 'card_changed' &&
      event.cardUrl &&
      event.fingerprint
    )
      this.confirmByRefetch(event.cardUrl, event.fingerprint);
  }

  /**
   * Fetch the card again and say on this span whether it really changed (confirmed drift) or not
   * (the peer is broken, not the cache).
   */
  private confirmByRefetch(cardUrl: string, inUse: string): void {
    const refetch = this.deps.refetchCard;
    if (!refetch) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), REFETCH_WAIT_MS);
    });
    this.refetch = Promise.race([refetch(cardUrl).catch(() => undefined), timeout]).then(
      (fingerprint) => {
        if (timer) clearTimeout(timer);
        if (fingerprint === undefined) {
          this.span.setAttribute(sc.ATTR_A2A_DRIFT_REFETCH, 'failed');
        } else {
          this.span.setAttribute(
            sc.ATTR_A2A_DRIFT_REFETCH,
            fingerprint === inUse ? 'unchanged' : 'changed',
          );
          this.span.setAttribute(sc.ATTR_A2A_DRIFT_CONFIRMED, fingerprint !== inUse);
          if (fingerprint !== inUse)
            this.span.setAttribute(sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT, fingerprint);
        }
      },
    );
  }

  /** The drift this exchange showed, if any (enforce mode reads it). */
  get driftEvent(): DriftEvent | undefined {
    return this.drift;
  }

  get isStreaming(): boolean {
    return this.target.type === 'operation' && this.target.request.streaming;
  }

  /**
   * An HTTP 4xx/5xx answer: the span is an error whatever the body says (a decoded A2A error
   * refines it).
   */
  private httpError(statusCode: number): void {
    if (this.drift) return;
    this.span.setAttribute(sc.ATTR_ERROR_TYPE, String(statusCode));
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${statusCode}` });
  }

  private recordError(err: unknown): void {
    if (this.drift) return;
    // The app aborting (or the peer closing) after the peer said what went wrong: the peer's code
    // stays.
    if (this.lastResult?.error !== undefined) return;
    if (!(err instanceof Error)) {
      // Not an error but a cancel reason (the app's `reader.cancel()`, `cancel('done')`): the
      // call did not fail, the app stopped reading.
      this.setUnjudged('the response was cancelled before its end');
      return;
    }
    const name = err instanceof Error ? err.name : typeof err;
    this.span.setAttribute(sc.ATTR_ERROR_TYPE, cap(name || 'Error'));
    this.span.setStatus({
      code: SpanStatusCode.ERROR,
      message: err instanceof Error ? safeMessage(err.message) : undefined,
    });
  }

  private setUnjudged(reason: string): void {
    if (this.unjudged === undefined) {
      this.unjudged = reason;
      this.span.setAttribute(sc.ATTR_A2A_UNJUDGED_REASON, reason);
    }
  }

  /** End the span (idempotent). `reason` marks a span ended by the safety timeout. */
  finish(reason?: string): void {
    if (this.phase !== 'open') return;
    this.phase = 'ending';
    if (this.refetch && !reason) {
      // Keep the span open until the confirming re-fetch has said what it found (bounded by its
      // timeout).
      void this.refetch.then(() => this.end());
      return;
    }
    this.end(reason);
  }

  private end(reason?: string): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    if (reason) this.setUnjudged(reason);
    if (this.events > 1) this.span.setAttribute(sc.ATTR_A2A_STREAM_EVENTS, this.events);
    const responseHook = this.deps.userConfig.responseHook;
    if (responseHook)
      this.safeHook('responseHook', () =>
        responseHook(this.span, {
          operation:
            this.target.type === 'card' ? sc.SPAN_GET_AGENT_CARD : this.target.request.operation,
          url: this.url.key,
          request: this.request,
          statusCode: this.statusCode,
          result: this.lastResult,
          drift: this.drift,
        }),
      );
    try {
      this.span.end();
    } catch (err) {
      logger.debug('span end failed', err);
    } finally {
      this.deps.onFinished(this); // never left in the in-flight set, whatever the span did
    }
  }

  get isFinished(): boolean {
    return this.phase === 'ended';
  }

  /** The context to make active around the call (so child HTTP spans nest under this one). */
  activeContext(parent: Context): Context {
    return trace.setSpan(parent, this.span);
  }

  private safeHook(name: string, fn: () => void): void {
    safeExecuteInTheMiddle(
      fn,
      (err) => {
        if (err) logger.warn(`${name} threw`, err);
      },
      true,
    );
  }
}
