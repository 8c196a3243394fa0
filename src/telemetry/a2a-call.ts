/**
 * One A2A exchange (an Agent Card fetch or an operation), from the request to the end
 * of its response: owns the span, feeds the response bytes to the core (decode, judge)
 * and turns what the core says into span attributes, status, events, the drift counter
 * and the drift callbacks.
 */
import {
  SpanKind,
  trace,
  type Context,
  type Counter,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { safeExecuteInTheMiddle } from '@opentelemetry/instrumentation';
import { logger } from '../diag-logger';
import { BodyReader, STREAM_CUT_SHORT, bodyModeOf, bodyProblem } from '../core/body-reader';
import { urlFacts, type UrlFacts } from '../core/url';
import { confirmSuspicion, confirmedDrift } from '../core/confirm';
import { EventShape } from '../core/event-shape';
import {
  judge,
  sameVersionCardChange,
  type DriftEvent,
  type NegotiationContext,
} from '../core/judge';
import { isFingerprint } from '../core/served-card';
import { StreamJudge } from '../core/stream-judge';
import type { DecodedRequest, DecodedResult, Suspicion } from '../core/model';
import { isSendOperation } from '../core/protocol/common';
import { decodeResponse, decodeStreamEvent, jsonRpcExtendedCard } from '../core/protocol/results';
import type { CardEntry } from '../core/card-registry';
import type { A2AInstrumentationConfig, ResolvedConfig } from '../config';
import type { WireObserver } from '../hooks/types';
import * as sc from '../semconv';
import { familyOf } from '../core/protocol/versions';
import {
  isRefetched,
  type Refetched,
  type RefetchFailure,
  type RefetchResult,
} from './card-refetch';
import { cardResponse } from './card-response';
import { dispatchDrift } from './drift-events';
import {
  negotiationAtStart,
  rememberNegotiation,
  taskScope,
  versionFromCard,
  versionFromCardOtherFamily,
} from './negotiation';
import {
  callEndAttributes,
  operationSpanName,
  protocolVersionAttributes,
  cap,
  cardFetchStartAttributes,
  driftMetricAttributes,
  driftUpdate,
  freshness,
  grpcStatusAttributes,
  httpErrorUpdate,
  operationStartAttributes,
  pushPayloadAttributes,
  NO_RESULT_UPDATE,
  refetchAttributes,
  responseHeadersAttributes,
  resultUpdate,
  thrownErrorUpdate,
  unconfirmedAttributes,
  unjudgedAttributes,
  type Freshness,
  type ResultSeen,
  type SpanUpdate,
} from './span-attributes';
import { sharedState } from './shared-state';
import { pushRegistry, registerPushWebhook } from './push-registrations';
import type { PushRegistration } from '../core/push';

const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
/**
 * Shapes a call may take (core/event-shape.ts): a model's answer needs one or two (its first
 * update, then its appends); updates that never repeat one stop costing a look after these.
 */
const MAX_SHAPES_PER_CALL = 8;

export interface CallDeps {
  tracer: Tracer;
  driftCounter: Counter | undefined;
  config: ResolvedConfig;
  userConfig: A2AInstrumentationConfig;
  onFinished(call: A2ACall): void;
  /**
   * refetchCardOnDrift: fetch the card again, unobserved and untraced; resolves to its fingerprint,
   * or undefined; no promise when the card cannot be re-fetched (CardRefetcher.refetch).
   */
  refetchCard?: (cardUrl: string) => Promise<string | undefined> | undefined;
  /**
   * Fetch the card again to confirm a content-level suspicion (always on): resolves to the card
   * now, or undefined; no promise when the card cannot be re-fetched.
   */
  confirmCard?: (cardUrl: string, cause: Suspicion) => Promise<RefetchResult> | undefined;
  /**
   * A call uses the card at this URL (CardRevalidator.noteUse): a promise when the card, not
   * confirmed within the revalidation interval, is being fetched again for this call.
   */
  cardInUse?: (cardUrl: string) => Promise<void> | undefined;
  /**
   * A card change found because an agent announced another fingerprint: true the first time this
   * newer fingerprint of the card is reported (every caller of a busy agent reads it).
   */
  firstAnnouncedChange?: (cardUrl: string, fingerprint: string) => boolean;
}

const REFETCH_WAIT_MS = 5000;
/** How long a span is held open for the card fetched again to confirm a suspicion. */
const CONFIRM_WAIT_MS = 2000;

/**
 * `sniffed`: a card recognised by its content at a path that only hinted at one: it may speak only
 * for its own origin.
 */
export type CallTarget =
  /** `credentials`: fetched with the app's credentials (never revalidated in the background). */
  | { type: 'card'; sniffed?: boolean; extended?: boolean; credentials?: boolean }
  /**
   * `push`: a task update the agent pushed to the app's webhook (deliverPush); `request` is the
   * lifecycle request it stands for (its task id, the registering call's binding and version).
   */
  | { type: 'operation'; request: DecodedRequest; push?: boolean };

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
  /** A content-level suspicion waiting for the card fetched again (confirm.ts). */
  private confirmation: Promise<void> | undefined;
  private suspicion: DriftEvent | undefined;
  /** The agent announced another card's fingerprint: the card fetched again decides. */
  private announcement: Promise<void> | undefined;
  /**
   * The span's end time when it ends later than the exchange: when finish() was asked and
   * something held the span open (Date.now()).
   */
  private endTime: number | undefined;
  /**
   * The card's version for a request whose method names are of the other family
   * (versionFromCardOtherFamily): set at the end unless an answer showed a version, or the other
   * family.
   */
  private cardVersion: string | undefined;
  /**
   * A lifecycle call (GetTask, …) whose request and card do not say its version: the version the
   * span of the SendMessage that created its task said. fasta2a answers the 0.3 names with
   * results half 1.0 (wrappers), half 0.3 (states): its send is judged by the 1.0 card, and a
   * polled task's bare result, whose states alone speak 0.3, is the same conversation.
   */
  private lifecycleVersion: string | undefined;
  private drift: DriftEvent | undefined;
  private unjudged: string | undefined;
  private statusCode: number | undefined;
  private lastResult: DecodedResult | undefined;
  private events = 0;
  /** A card response's Cache-Control max-age, ETag and Last-Modified. */
  private cardFreshness: Freshness | undefined;
  /** The last artifact update's shape: the next with another text is read without a parse. */
  private eventShape: EventShape | undefined;
  private shapesTaken = 0;
  /**
   * Judges this call's results from its first artifact update on: the streamed answer's window,
   * the verdicts per part media type (core/stream-judge.ts).
   */
  private streamJudge: StreamJudge | undefined;
  private ctx: NegotiationContext;
  private negotiatedTaskId: string | undefined;
  private readonly url: UrlFacts;
  /** What the span already says of the results (task id, conversation id, state, version). */
  private readonly seen: ResultSeen = { drifted: false };
  /** GetAgentCard, TaskPushNotification or the operation: the span's name and the hooks' `operation`. */
  private readonly spanName: string;
  /** The push webhook this call registers, until its task id is known (SendMessage). */
  private pushRegistration: PushRegistration | undefined;

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
    const push = target.type === 'operation' && target.push === true;
    const name = (this.spanName =
      target.type === 'card'
        ? sc.SPAN_GET_AGENT_CARD
        : push
          ? sc.SPAN_TASK_PUSH_NOTIFICATION
          : target.request.operation);
    this.ctx = { cardKnown: false };
    if (target.type === 'operation') {
      const req = target.request;
      this.seen.taskId = req.taskId;
      this.seen.requestVersion = req.protocolVersion;
      let entry: CardEntry | undefined | null = null; // null: not looked up yet
      const cardEntry = (): CardEntry | undefined =>
        entry === null
          ? (entry = url.parsed ? sharedState().cards.forNormalisedUrl(url.key) : undefined)
          : entry;
      const negotiated = negotiationAtStart(req, url, applicationSkillId, cardEntry);
      this.ctx = negotiated.context;
      const revalidation =
        this.ctx.cardUrl !== undefined && !push ? deps.cardInUse?.(this.ctx.cardUrl) : undefined;
      if (revalidation !== undefined) this.awaitRevalidation(revalidation);
      const fromCard = req.protocolVersion ? undefined : versionFromCard(req, url, cardEntry());
      const attributes = operationStartAttributes({
        url,
        request: req,
        push,
        negotiated,
        versionFromCard: fromCard,
      });
      if (!req.protocolVersion && fromCard === undefined) {
        this.cardVersion = versionFromCardOtherFamily(req, url, cardEntry());
        this.lifecycleVersion = negotiated.protocolVersion;
      }
      // A push is an asynchronous delivery the agent produced for the negotiation (linked):
      // CONSUMER, as a message processed on receipt; the HTTP server span, if any, is the
      // transport's.
      this.span = deps.tracer.startSpan(
        push ? name : operationSpanName(req.operation, attributes, deps.config.genAiSpanNames),
        {
          kind: push ? SpanKind.CONSUMER : SpanKind.CLIENT,
          attributes,
          links: negotiated.link ? [negotiated.link] : [],
          startTime,
        },
        parent,
      );
      if (req.pushWebhook !== undefined && !push) {
        const reg = registerPushWebhook(req, rawUrl);
        if (reg !== undefined && reg.taskId === undefined) this.pushRegistration = reg;
      }
    } else {
      this.span = deps.tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: cardFetchStartAttributes(url), startTime },
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

  /** Follow one undici request (one hop of a redirect chain) of this call. */
  attachHop(): WireObserver {
    this.lastHop = 'open';
    let reader: BodyReader | undefined;
    let redirect = false;
    const endHop = (complete: boolean, error?: unknown): void => {
      this.lastHop = this.lastHop === 'redirect' ? 'redirect-ended' : 'ended';
      if (redirect && this.followsRedirects && !this.fetchSettled) return; // the next hop or the fetch promise ends the call
      if (reader) {
        if (error !== undefined) {
          // The events the app had before the error are judged first: after a terminal one,
          // the app's cancel or the peer's close is no failure.
          reader.parseDeferred();
          this.recordError(error);
        }
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
        this.span.setAttributes(responseHeadersAttributes(statusCode));
        if (this.target.type === 'card') this.cardFreshness = freshness(headers);
        const announced = headers[sc.HEADER_CARD_FINGERPRINT];
        if (announced !== undefined) this.onAnnounced(announced);
        const type = (headers['content-type'] ?? '').toLowerCase();
        const { mode, sniffed } = bodyModeOf(type);
        if (statusCode >= 400) this.httpError(statusCode);
        if (!mode) {
          this.setUnjudged(`response is ${cap(type.split(';')[0])}, not JSON`);
          return;
        }
        // A JSON answer is judged when its last byte arrives, before the app's read of it
        // resolves: its span is complete when the app holds the result (an app may flush its
        // provider at once). Deferring the judgement past the app saved about 1 % of a loopback
        // call, within noise, and left the span pending for a flush. A stream's events are
        // parsed when its next chunk comes (or its end, or an idle timer): never within the
        // onData of the chunk the app is being handed (body-reader.ts); the end's judgement
        // comes before the app reads the end. Enforce mode parses them at once, before the app
        // reads on.
        reader = new BodyReader(
          mode,
          headers['content-encoding'],
          this.deps.config.maxInspectBytes,
          {
            onDocument: (value, eventName, data) =>
              this.onDocument(value, mode === 'sse', eventName, data),
            onEventText: (data, eventName) => this.onEventText(data, eventName),
            onProblem: (problem) => {
              // Nothing can follow a terminal event: a stream stopped after one is complete.
              if (problem === STREAM_CUT_SHORT && this.terminalSeen()) return;
              this.setUnjudged(bodyProblem(problem, sniffed));
            },
            onEnd: () => this.finish(),
          },
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

  /** gRPC binding (grpc-calls.ts): one decoded response message or stream message. */
  grpcMessage(result: DecodedResult): void {
    if (this.phase === 'ended') return;
    this.lastActivity = Date.now();
    try {
      this.onResult(result);
    } catch (err) {
      logger.debug('could not judge a gRPC message', err);
      this.setUnjudged('internal error while judging');
    }
  }

  /**
   * gRPC binding: the call's final status (`error`: a non-OK status decoded); ends the call. A
   * call the app cancelled is not a failure: the app stopped reading.
   */
  grpcStatus(code: number, error: DecodedResult | undefined, cancelled: boolean): void {
    if (this.phase === 'ended') return;
    this.span.setAttributes(grpcStatusAttributes(code));
    if (cancelled) {
      if (!this.drift && !this.terminalSeen())
        this.setUnjudged('the response was cancelled before its end');
    } else if (error !== undefined) {
      this.events--; // the status is not one more stream event
      this.grpcMessage(error);
    }
    this.finish();
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

  private onDocument(value: unknown, isEvent: boolean, eventName?: string, data?: string): void {
    if (this.phase === 'ended') return;
    try {
      const target = this.target;
      if (target.type === 'card') this.onCard(value, target.extended ? 'rest' : undefined);
      else if (isEvent) {
        const result = decodeStreamEvent(value, target.request, eventName);
        // A status update between two words keeps the words' shape: decoding is stateless. A
        // stream whose updates never repeat a shape stops looking for one.
        if (data !== undefined && this.shapesTaken < MAX_SHAPES_PER_CALL) {
          const shape = EventShape.of(data, result, eventName);
          if (shape !== undefined) {
            this.eventShape = shape;
            this.shapesTaken++;
          }
        }
        this.onResult(result);
      } else {
        const card = jsonRpcExtendedCard(target.request, value);
        if (card !== undefined) this.onCard(card, 'jsonrpc');
        else this.onResult(decodeResponse(value, target.request, this.statusCode));
      }
    } catch (err) {
      logger.debug('could not process a response document', err);
      this.setUnjudged('internal error while judging');
    }
  }

  /**
   * A stream event that repeats the last artifact update's shape with another text: decoded from
   * its bytes, without JSON.parse (event-shape.ts). False: it is parsed as any event.
   */
  private onEventText(data: string, eventName?: string): boolean {
    const shape = this.eventShape;
    if (shape === undefined || this.phase === 'ended') return false;
    let result: DecodedResult | undefined;
    try {
      result = shape.match(data, eventName);
    } catch (err) {
      logger.debug('could not match a stream event with its shape', err);
      return false;
    }
    if (result === undefined) return false;
    try {
      this.onResult(result);
    } catch (err) {
      logger.debug('could not process a stream event', err);
      this.setUnjudged('internal error while judging');
    }
    return true;
  }

  private onCard(value: unknown, extended?: 'rest' | 'jsonrpc'): void {
    const sniffed = this.target.type === 'card' && this.target.sniffed === true;
    const r = cardResponse(
      value,
      this.url.cardKey,
      this.statusCode,
      this.cardFreshness,
      sniffed,
      extended,
      this.target.type === 'card' && this.target.credentials === true,
    );
    if (r.unjudged !== undefined) this.setUnjudged(r.unjudged);
    if (r.attributes) this.span.setAttributes(r.attributes);
    if (r.drift) this.recordDrift(r.drift);
  }

  private onResult(result: DecodedResult): void {
    this.lastResult = result;
    this.events++;
    const req = this.target.type === 'operation' ? this.target.request : undefined;
    const seen = this.seen;
    seen.drifted = this.drift !== undefined;
    this.apply(resultUpdate(result, seen));
    if (result.protocolVersion) seen.resultVersion = result.protocolVersion;
    else if (
      this.cardVersion !== undefined &&
      result.versionFamily !== undefined &&
      result.versionFamily !== familyOf(this.cardVersion)
    )
      this.cardVersion = undefined; // the answer speaks the other family: the card is not told
    if (result.taskId !== undefined && result.taskId !== this.negotiatedTaskId) {
      seen.taskId ??= result.taskId;
      if (req && isSendOperation(req.operation)) {
        this.negotiatedTaskId = result.taskId;
        rememberNegotiation(
          result.taskId,
          this.request,
          this.url,
          this.ctx,
          this.span,
          req.protocolVersion ?? seen.resultVersion ?? this.cardVersion,
        );
        this.bindPushRegistration(result.taskId);
      }
    }
    // A stream repeats its context id and state on every event: each is set when it changes.
    if (result.contextId !== undefined) seen.contextId = result.contextId;
    if (result.state !== undefined) seen.state = result.state;
    if (result.problem) this.setUnjudged(cap(result.problem));
    if (this.drift) return;
    const verdict =
      result.kind === 'artifact-update' || this.streamJudge !== undefined
        ? (this.streamJudge ??= new StreamJudge()).judge(req, this.ctx, result, this.deps.config)
        : judge(req, this.ctx, result, this.deps.config);
    if (verdict.drift) this.recordDrift(verdict.drift);
    else if (verdict.suspicion) this.suspect(verdict.suspicion);
    else if (verdict.unjudged) this.setUnjudged(verdict.unjudged);
  }

  /** The SendMessage named its task: its webhook's pushes are now genuine; held ones are judged. */
  private bindPushRegistration(taskId: string): void {
    const reg = this.pushRegistration;
    if (reg === undefined) return;
    this.pushRegistration = undefined;
    const held = pushRegistry().bind(reg, taskId);
    if (held)
      for (const h of held) deliverPush(this.deps, reg, h.result, h.at, h.parent as Context);
  }

  /** Push: the pushed update, judged as a lifecycle result; ends the span. */
  deliver(result: DecodedResult): void {
    try {
      this.span.setAttributes(pushPayloadAttributes(result));
      this.onResult(result);
    } catch (err) {
      logger.debug('could not judge a pushed update', err);
      this.setUnjudged('internal error while judging');
    }
    this.finish();
  }

  private recordDrift(event: DriftEvent, confirmedBy?: Refetched): void {
    if (this.drift) return;
    if (event.evidence === 'content' && confirmedBy === undefined) {
      // a newer card of the agent, fetched by this package, already dropped the skill: it
      // confirms the answer's words without another fetch
      const newer = this.ctx.droppedByNewerCard;
      if (newer !== undefined) confirmedBy = { fingerprint: newer.fingerprint };
      else {
        this.suspect(event);
        return;
      }
    }
    this.drift = event;
    logger.debug(
      `drift: ${event.kind} on ${this.span.isRecording() ? 'a recorded' : 'an unrecorded'} A2A call to ${this.url.key}`,
    );
    const update = driftUpdate(event, confirmedBy);
    this.apply(update);
    if (update.event) this.span.addEvent(update.event.name, update.event.attributes);
    else this.span.recordException(event.error);
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
      confirmedBy === undefined &&
      event.kind !== 'card_changed' &&
      event.cardUrl &&
      event.fingerprint
    )
      this.confirmByRefetch(event.cardUrl, event.fingerprint);
  }

  /**
   * A suspicion: an answer's words say the skill is missing (content evidence), a call for the
   * skill failed, or its answer names it with words of absence (Judgement.suspicion). Fetch the
   * card again and make it drift only if the card no longer lists the skill (or changed its
   * modes). Until then the span is held open (at most CONFIRM_WAIT_MS) and nothing is counted or
   * called back; a card that answers later settles the next call instead (CardEntry.newer).
   */
  private suspect(event: DriftEvent): void {
    if (this.suspicion !== undefined) return;
    this.suspicion = event;
    const cause: Suspicion = event.suspicion ?? 'words';
    const pending = event.cardUrl ? this.deps.confirmCard?.(event.cardUrl, cause) : undefined;
    if (pending === undefined) {
      this.unconfirmed(event, 'failed');
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), CONFIRM_WAIT_MS);
      timer.unref?.();
    });
    const held = { inputModes: this.ctx.inputModes, outputModes: this.ctx.outputModes };
    this.confirmation = Promise.race([pending.catch(() => undefined), timeout]).then((got) => {
      if (timer) clearTimeout(timer);
      try {
        const r = isRefetched(got) ? got : undefined;
        const verdict = confirmSuspicion(event.skillId, held, r?.card);
        if (verdict === 'confirmed' && r !== undefined && !this.drift) {
          // content evidence keeps its own kind and evidence; a failure or an answer's own
          // words become what the card says (confirm.ts)
          const drift = event.evidence === 'card' ? confirmedDrift(event, held, r) : event;
          if (drift !== undefined) this.recordDrift(drift, r);
        } else if (verdict !== 'confirmed')
          this.unconfirmed(
            event,
            verdict === 'refuted'
              ? 'unchanged'
              : got !== undefined && 'failed' in got
                ? got.failed
                : 'failed',
          );
      } catch (err) {
        logger.debug('could not confirm a suspicion', err);
      }
    });
  }

  /**
   * The card of this call was older than the revalidation interval and is being fetched again:
   * hold the span (and, in enforce mode, the answer) as for a confirming fetch, at most
   * CONFIRM_WAIT_MS; a newer card that dropped the call's skill then decides this call
   * (evidence `card`, suspicion `revalidation`), not only the next one.
   */
  private awaitRevalidation(pending: Promise<void>): void {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CONFIRM_WAIT_MS);
      timer.unref?.();
    });
    this.confirmation = Promise.race([pending.catch(() => undefined), timeout]).then(() => {
      if (timer) clearTimeout(timer);
      try {
        this.revalidated();
      } catch (err) {
        logger.debug('could not judge a call against its revalidated card', err);
      }
    });
  }

  /** The revalidation this call waited for has answered: judge it against a newer card. */
  private revalidated(): void {
    const ctx = this.ctx;
    if (this.drift || this.phase === 'ended' || this.target.type !== 'operation') return;
    if (ctx.droppedByNewerCard !== undefined || ctx.skillInCard !== true) return;
    if (ctx.cardUrl === undefined || ctx.skillId === undefined) return;
    const entry = sharedState().cards.get(ctx.cardUrl);
    const newer = entry?.newer;
    // (the app fetched another card meanwhile: its own calls are judged by it)
    if (entry === undefined || entry.fingerprint !== ctx.fingerprint || newer === undefined) return;
    if (newer.skills.has(ctx.skillId) || newer.card.skillsTruncated === true) return;
    this.ctx = {
      ...ctx,
      droppedByNewerCard: { fingerprint: newer.fingerprint, cause: newer.cause },
    };
    const last = this.lastResult;
    if (last === undefined) return; // the answer to come is judged with it
    const verdict = judge(this.target.request, this.ctx, last, this.deps.config);
    if (verdict.drift) this.recordDrift(verdict.drift);
  }

  /** The card fingerprint this call sends to the agent: the one of the card it negotiated with. */
  get announcedFingerprint(): string | undefined {
    return this.target.type === 'operation' && this.deps.config.cardFingerprintHeaders
      ? this.ctx.fingerprint
      : undefined;
  }

  /**
   * The agent announced the fingerprint of another card than the one this call negotiated with: a
   * suspicion (the header may be forged or flap), so the card decides. It is fetched again through
   * the same conditional, debounced fetch as any suspicion (one per card per debounce window
   * whatever the announcements); a card that changed under the same version is card_changed on
   * this span with what changed, once per newer card; an unchanged one is said on the span,
   * nothing else. Nothing is fetched when the app already holds the announced card, or this
   * package already found it newer; never a card fetched with credentials or an extended one.
   */
  private onAnnounced(announced: string): void {
    try {
      const cardUrl = this.ctx.cardUrl;
      const negotiated = this.announcedFingerprint;
      if (cardUrl === undefined || negotiated === undefined || announced === negotiated) return;
      if (!isFingerprint(announced) || this.announcement !== undefined) return;
      const entry = sharedState().cards.get(cardUrl);
      if (entry === undefined || entry.credentials === true || entry.extended !== undefined) return;
      if (entry.fingerprint === announced || entry.newer?.fingerprint === announced) return;
      const pending = this.deps.confirmCard?.(cardUrl, 'announced');
      if (pending === undefined) return;
      const held = { card: entry.card, fingerprint: entry.fingerprint, version: entry.version };
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), CONFIRM_WAIT_MS);
        timer.unref?.();
      });
      const suspicion = { kind: 'card_changed', suspicion: 'announced' } as const;
      this.announcement = Promise.race([pending.catch(() => undefined), timeout]).then((got) => {
        if (timer) clearTimeout(timer);
        try {
          if (this.phase === 'ended') return;
          const r = isRefetched(got) ? got : undefined;
          if (r === undefined || r.fingerprint === held.fingerprint) {
            this.span.setAttributes(
              unconfirmedAttributes(
                suspicion,
                r !== undefined
                  ? 'unchanged'
                  : got !== undefined && 'failed' in got
                    ? got.failed
                    : 'failed',
              ),
            );
            return;
          }
          const change = sameVersionCardChange(cardUrl, held, r);
          if (change === undefined) return;
          if (this.deps.firstAnnouncedChange?.(cardUrl, r.fingerprint) === false) return;
          const event: DriftEvent = { ...change, suspicion: 'announced' };
          const update = driftUpdate(event);
          this.apply(update);
          if (update.event) this.span.addEvent(update.event.name, update.event.attributes);
          this.deps.driftCounter?.add(1, driftMetricAttributes(event, this.url));
          dispatchDrift(
            event,
            this.deps.config.driftCallbackDebounceMs,
            Date.now(),
            this.deps.userConfig.onDrift,
          );
        } catch (err) {
          logger.debug('could not settle an announced card fingerprint', err);
        }
      });
    } catch (err) {
      logger.debug('could not follow an announced card fingerprint', err);
    }
  }

  /** A suspicion the card fetched again did not confirm: said on the span, nothing else. */
  private unconfirmed(event: DriftEvent, refetch: 'unchanged' | RefetchFailure['failed']): void {
    if (this.drift || this.phase === 'ended') return;
    this.span.setAttributes(unconfirmedAttributes(event, refetch));
  }

  /** A suspicion being confirmed: enforce mode waits for it (bounded) before it judges. */
  get pendingConfirmation(): Promise<void> | undefined {
    return this.confirmation;
  }

  /**
   * Fetch the card again and say on this span whether it really changed (confirmed drift) or not
   * (the peer is broken, not the cache).
   */
  private confirmByRefetch(cardUrl: string, inUse: string): void {
    const pending = this.deps.refetchCard?.(cardUrl);
    if (pending === undefined) return; // nothing to say: no a2a.drift.refetch
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), REFETCH_WAIT_MS);
    });
    this.refetch = Promise.race([pending.catch(() => undefined), timeout]).then((fingerprint) => {
      if (timer) clearTimeout(timer);
      this.span.setAttributes(refetchAttributes(fingerprint, inUse));
    });
  }

  /**
   * The stale-card drift this exchange showed, if any: what enforce mode rejects with. Not
   * card_changed (a card answer that refreshes the cache, e.g. an extended card in a JSON-RPC
   * result, did its job).
   */
  get enforceableDrift(): DriftEvent | undefined {
    return this.drift?.kind === 'card_changed' ? undefined : this.drift;
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
    this.apply(httpErrorUpdate(statusCode));
  }

  /**
   * An HTTP 4xx/5xx answer whose body gave no result (an HTML error page, an empty body, a body
   * past the cap): judged as the bare error it is, so a call for a known skill that failed so is
   * still a suspicion and a skill the card does not list is still reported.
   */
  private judgeBodilessHttpError(): void {
    const code = this.statusCode;
    if (code === undefined || code < 400 || this.lastResult !== undefined) return;
    if (this.drift || this.target.type !== 'operation' || REDIRECT_CODES.has(code)) return;
    const req = this.target.request;
    const verdict = judge(
      req,
      this.ctx,
      { kind: 'error', error: { code }, artifacts: [] },
      this.deps.config,
    );
    if (verdict.drift) this.recordDrift(verdict.drift);
    else if (verdict.suspicion) this.suspect(verdict.suspicion);
  }

  /**
   * The last result ends the exchange: a JSON-RPC / HTTP error, or a stream event that is final
   * (0.x `final`, a terminal or interrupted state). Nothing the peer sends can follow it.
   */
  private terminalSeen(): boolean {
    const last = this.lastResult;
    return last !== undefined && (last.error !== undefined || last.final === true);
  }

  private recordError(err: unknown): void {
    if (this.drift) return;
    // The app aborting (or the peer closing) after the peer said what went wrong, or after the
    // stream's final event: the peer's answer stays, and nothing was cut.
    if (this.terminalSeen()) return;
    if (!(err instanceof Error)) {
      // Not an error but a cancel reason (the app's `reader.cancel()`, `cancel('done')`): the
      // call did not fail, the app stopped reading.
      this.setUnjudged('the response was cancelled before its end');
      return;
    }
    this.apply(thrownErrorUpdate(err));
  }

  private setUnjudged(reason: string): void {
    if (this.unjudged === undefined) {
      this.unjudged = reason;
      this.span.setAttributes(unjudgedAttributes(reason));
    }
  }

  /** End the span (idempotent). `reason` marks a span ended by the safety timeout. */
  finish(reason?: string): void {
    if (this.phase !== 'open') return;
    if (!reason) {
      try {
        this.judgeBodilessHttpError();
      } catch (err) {
        logger.debug('could not judge an HTTP error', err);
      }
    }
    this.phase = 'ending';
    if ((this.refetch || this.confirmation || this.announcement) && !reason) {
      // Keep the span open until the re-fetch has said what it found (bounded by its timeout),
      // then end it at the time the exchange really ended.
      this.endTime ??= Date.now();
      void Promise.all([this.confirmation, this.refetch, this.announcement]).then(() => this.end());
      return;
    }
    this.end(reason);
  }

  private end(reason?: string): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    if (this.pushRegistration !== undefined) {
      // the call ended without naming its task: its webhook will get no genuine push
      pushRegistry().remove(this.pushRegistration);
      this.pushRegistration = undefined;
    }
    if (reason) this.setUnjudged(reason);
    this.span.setAttributes(callEndAttributes(this.events));
    const version = this.cardVersion ?? this.lifecycleVersion;
    if (version !== undefined && this.seen.resultVersion === undefined)
      this.span.setAttributes(protocolVersionAttributes(version));
    const responseHook = this.deps.userConfig.responseHook;
    if (responseHook)
      this.safeHook('responseHook', () =>
        responseHook(this.span, {
          operation: this.spanName,
          url: this.url.key,
          request: this.request,
          statusCode: this.statusCode,
          result: this.lastResult,
          drift: this.drift,
        }),
      );
    try {
      this.span.end(this.endTime);
    } catch (err) {
      logger.debug('span end failed', err);
    } finally {
      this.deps.onFinished(this); // never left in the in-flight set, whatever the span did
    }
  }

  /** Tell the span what the builder (span-attributes.ts) said: attributes, then any status. */
  private apply(update: SpanUpdate): void {
    if (update === NO_RESULT_UPDATE) return;
    this.span.setAttributes(update.attributes);
    if (update.status) this.span.setStatus(update.status);
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

/**
 * A genuine push (its webhook and secret match `reg`, bound to the task it names): one
 * TaskPushNotification span, judged against the task's negotiation like a poll of it, linked to
 * the negotiation's span. Nothing when the negotiation is not (or no longer) remembered: a push
 * for a task the app did not negotiate in this process is not judged against a guess.
 */
export function deliverPush(
  deps: CallDeps,
  reg: PushRegistration,
  result: DecodedResult,
  at: number,
  parent: Context,
): void {
  const taskId = reg.taskId;
  if (taskId === undefined || result.taskId !== taskId) return;
  const request: DecodedRequest = {
    operation: 'GetTask',
    wireMethod: reg.origin.wireMethod,
    binding: reg.origin.binding,
    streaming: false,
    taskId,
    ...(reg.origin.protocolVersion !== undefined
      ? { protocolVersion: reg.origin.protocolVersion }
      : {}),
  };
  const url = urlFacts(reg.origin.endpointUrl);
  if (!url.parsed || !sharedState().negotiations.get(taskId, Date.now(), taskScope(url, request)))
    return;
  const call = new A2ACall(
    deps,
    { type: 'operation', request, push: true },
    reg.origin.endpointUrl,
    parent,
    undefined,
    at,
  );
  call.deliver(result);
}
