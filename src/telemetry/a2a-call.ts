/**
 * One A2A exchange (an Agent Card fetch or an operation), from the request to the end of its
 * response: follows its hops (redirects, the fetch promise, a gRPC status), feeds the response
 * bytes to the core's decoding, hands each result to its judgement (call-judgement.ts: what the
 * call is judged against, the verdicts, the waits they need) and to its span (call-span.ts: the
 * span's books), and ends the span once nothing it waits for can still say something.
 */
import type { Context, Span } from '@opentelemetry/api';
import { logger } from '../diag-logger';
import { BodyReader, STREAM_CUT_SHORT, bodyModeOf, bodyProblem } from '../core/body-reader';
import { urlFacts, type UrlFacts } from '../core/url';
import { EventShape } from '../core/event-shape';
import type { DriftEvent } from '../core/judge';
import type { DecodedRequest, DecodedResult } from '../core/model';
import { isSendOperation } from '../core/protocol/common';
import { decodeResponse, decodeStreamEvent, jsonRpcExtendedCard } from '../core/protocol/results';
import type { CardEntry } from '../core/card-registry';
import type { WireObserver } from '../hooks/types';
import * as sc from '../semconv';
import {
  CallJudgement,
  type CallRecord,
  type CallTarget,
  type JudgementDeps,
} from './call-judgement';
import { CallSpan, type SpanDeps } from './call-span';
import type { Refetched, RefetchFailure } from './card-refetch';
import { cardResponse } from './card-response';
import { negotiationAtStart, rememberNegotiation, taskScope } from './negotiation';
import { cap, freshness, type Freshness } from './span-attributes';
import { sharedState } from './shared-state';
import { pushRegistry, registerPushWebhook } from './push-registrations';
import type { PushRegistration } from '../core/push';

const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
/**
 * Shapes a call may take (core/event-shape.ts): a model's answer needs one or two (its first
 * update, then its appends); updates that never repeat one stop costing a look after these.
 */
const MAX_SHAPES_PER_CALL = 8;

export interface CallDeps extends JudgementDeps, SpanDeps {
  onFinished(call: A2ACall): void;
}

export class A2ACall implements CallRecord {
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
  /** What the call is judged against, its verdicts and the waits they need. */
  private readonly judgement: CallJudgement;
  /** The span and what it says. */
  private readonly callSpan: CallSpan;
  /**
   * The span's end time when it ends later than the exchange: when finish() was asked and
   * something held the span open (Date.now()).
   */
  private endTime: number | undefined;
  private statusCode: number | undefined;
  /** A card response's Cache-Control max-age, ETag and Last-Modified. */
  private cardFreshness: Freshness | undefined;
  /** The last artifact update's shape: the next with another text is read without a parse. */
  private eventShape: EventShape | undefined;
  private shapesTaken = 0;
  private negotiatedTaskId: string | undefined;
  private readonly url: UrlFacts;
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
    if (target.type === 'operation') {
      const req = target.request;
      let entry: CardEntry | undefined | null = null; // null: not looked up yet
      const cardEntry = (): CardEntry | undefined =>
        entry === null
          ? (entry = url.parsed ? sharedState().cards.forNormalisedUrl(url.key) : undefined)
          : entry;
      const negotiated = negotiationAtStart(req, url, applicationSkillId, cardEntry);
      this.judgement = new CallJudgement(deps, target, negotiated.context, this);
      this.callSpan = new CallSpan(deps, target, url, parent, startTime, negotiated, cardEntry);
      if (req.pushWebhook !== undefined && target.push !== true) {
        const reg = registerPushWebhook(req, rawUrl);
        if (reg !== undefined && reg.taskId === undefined) this.pushRegistration = reg;
      }
    } else {
      this.judgement = new CallJudgement(deps, target, { cardKnown: false }, this);
      this.callSpan = new CallSpan(deps, target, url, parent, startTime);
    }
    this.callSpan.requestHook(this.request);
  }

  /** The call's span. */
  get span(): Span {
    return this.callSpan.span;
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
        this.callSpan.responseHeaders(statusCode);
        if (this.target.type === 'card') this.cardFreshness = freshness(headers);
        const announced = headers[sc.HEADER_CARD_FINGERPRINT];
        if (announced !== undefined) this.judgement.onAnnounced(announced);
        const type = (headers['content-type'] ?? '').toLowerCase();
        const { mode, sniffed } = bodyModeOf(type);
        if (statusCode >= 400) this.httpError(statusCode);
        if (!mode) {
          this.unjudged(`response is ${cap(type.split(';')[0])}, not JSON`);
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
              if (problem === STREAM_CUT_SHORT && this.judgement.terminalSeen()) return;
              this.unjudged(bodyProblem(problem, sniffed));
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
      this.unjudged('internal error while judging');
    }
  }

  /**
   * gRPC binding: the call's final status (`error`: a non-OK status decoded); ends the call. A
   * call the app cancelled is not a failure: the app stopped reading.
   */
  grpcStatus(code: number, error: DecodedResult | undefined, cancelled: boolean): void {
    if (this.phase === 'ended') return;
    this.callSpan.grpcStatus(code);
    if (cancelled) {
      if (!this.judgement.drift && !this.judgement.terminalSeen())
        this.unjudged('the response was cancelled before its end');
    } else if (error !== undefined) {
      this.callSpan.statusIsNoEvent();
      this.grpcMessage(error);
    }
    this.finish();
  }

  /** The fetch promise settled (fetch wrapper only). */
  fetchResolved(): void {
    this.fetchSettled = true;
    if (this.lastHop === 'none') {
      this.unjudged('response bytes not observed');
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
      this.unjudged('internal error while judging');
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
      this.unjudged('internal error while judging');
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
    if (r.unjudged !== undefined) this.unjudged(r.unjudged);
    this.callSpan.cardAnswer(r.attributes);
    if (r.drift) this.judgement.recordDrift(r.drift);
  }

  private onResult(result: DecodedResult): void {
    const judgement = this.judgement;
    judgement.see(result);
    this.callSpan.result(result, judgement.drift !== undefined);
    const req = this.target.type === 'operation' ? this.target.request : undefined;
    if (result.taskId !== undefined && result.taskId !== this.negotiatedTaskId) {
      if (req && isSendOperation(req.operation)) {
        this.negotiatedTaskId = result.taskId;
        rememberNegotiation(
          result.taskId,
          this.request,
          this.url,
          judgement.ctx,
          this.span,
          this.callSpan.versionSaid(req),
        );
        this.bindPushRegistration(result.taskId);
      }
    }
    judgement.judgeResult(result);
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
      this.callSpan.pushPayload(result);
      this.onResult(result);
    } catch (err) {
      logger.debug('could not judge a pushed update', err);
      this.unjudged('internal error while judging');
    }
    this.finish();
  }

  // The CallRecord (call-judgement.ts): what the judgement decided, said on this call's span.

  drift(event: DriftEvent, confirmedBy?: Refetched): void {
    this.callSpan.drift(event, confirmedBy);
  }

  announcedChange(event: DriftEvent): void {
    this.callSpan.announcedChange(event);
  }

  unconfirmed(
    event: Pick<DriftEvent, 'kind' | 'suspicion'>,
    refetch: 'unchanged' | RefetchFailure['failed'],
  ): void {
    this.callSpan.unconfirmed(event, refetch);
  }

  unjudged(reason: string): void {
    this.callSpan.setUnjudged(reason);
  }

  /** The card fingerprint this call sends to the agent: the one of the card it negotiated with. */
  get announcedFingerprint(): string | undefined {
    return this.judgement.announcedFingerprint;
  }

  /** A suspicion being confirmed: enforce mode waits for it (bounded) before it judges. */
  get pendingConfirmation(): Promise<void> | undefined {
    return this.judgement.pendingConfirmation;
  }

  /**
   * The stale-card drift this exchange showed, if any: what enforce mode rejects with. Not
   * card_changed (a card answer that refreshes the cache, e.g. an extended card in a JSON-RPC
   * result, did its job).
   */
  get enforceableDrift(): DriftEvent | undefined {
    return this.judgement.enforceableDrift;
  }

  get isStreaming(): boolean {
    return this.target.type === 'operation' && this.target.request.streaming;
  }

  /**
   * An HTTP 4xx/5xx answer: the span is an error whatever the body says (a decoded A2A error
   * refines it).
   */
  private httpError(statusCode: number): void {
    if (this.judgement.drift) return;
    this.callSpan.httpError(statusCode);
  }

  private recordError(err: unknown): void {
    if (this.judgement.drift) return;
    // The app aborting (or the peer closing) after the peer said what went wrong, or after the
    // stream's final event: the peer's answer stays, and nothing was cut.
    if (this.judgement.terminalSeen()) return;
    if (!(err instanceof Error)) {
      // Not an error but a cancel reason (the app's `reader.cancel()`, `cancel('done')`): the
      // call did not fail, the app stopped reading.
      this.unjudged('the response was cancelled before its end');
      return;
    }
    this.callSpan.thrownError(err);
  }

  /** End the span (idempotent). `reason` marks a span ended by the safety timeout. */
  finish(reason?: string): void {
    if (this.phase !== 'open') return;
    if (!reason) {
      try {
        this.judgement.judgeBodilessHttpError(this.statusCode);
      } catch (err) {
        logger.debug('could not judge an HTTP error', err);
      }
    }
    this.phase = 'ending';
    const confirmation = this.judgement.pendingConfirmation;
    const announcement = this.judgement.pendingAnnouncement;
    const refetch = this.callSpan.pendingRefetch;
    if ((refetch || confirmation || announcement) && !reason) {
      // Keep the span open until the re-fetch has said what it found (bounded by its timeout),
      // then end it at the time the exchange really ended.
      this.endTime ??= Date.now();
      void Promise.all([confirmation, refetch, announcement]).then(() => this.end());
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
    this.callSpan.end(
      reason,
      this.endTime,
      this.request,
      this.statusCode,
      this.judgement.lastResult,
      this.judgement.drift,
    );
    this.deps.onFinished(this); // never left in the in-flight set, whatever the span did
  }

  get isFinished(): boolean {
    return this.phase === 'ended';
  }

  /** The context to make active around the call (so child HTTP spans nest under this one). */
  activeContext(parent: Context): Context {
    return this.callSpan.activeContext(parent);
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
