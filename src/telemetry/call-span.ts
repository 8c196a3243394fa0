/**
 * The span of one A2A call and its books: opened with what the call is (and is judged against),
 * told each result (task id, conversation id, state, version: each set when it changes), each
 * drift (attributes, status, event, the drift counter, the callbacks, the card marked suspect, the
 * card fetched again for refetchCardOnDrift), each suspicion left unconfirmed and why a part of
 * the call could not be judged, and ended with the call's totals and the response hook. What is
 * said is built by span-attributes.ts; when it is said is the call's (a2a-call.ts), what it says
 * is its judgement's (call-judgement.ts).
 */
import {
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { safeExecuteInTheMiddle } from '@opentelemetry/instrumentation';
import { logger } from '../diag-logger';
import type { UrlFacts } from '../core/url';
import type { DriftEvent } from '../core/judge';
import type { DecodedRequest, DecodedResult } from '../core/model';
import type { CardEntry } from '../core/card-registry';
import { familyOf } from '../core/protocol/versions';
import type { A2AInstrumentationConfig, ResolvedConfig } from '../config';
import * as sc from '../semconv';
import type { Refetched, RefetchFailure } from './card-refetch';
import { afterBoundedWait, type CallTarget } from './call-judgement';
import { dispatchDrift } from './drift-events';
import {
  versionFromCard,
  versionFromCardOtherFamily,
  type NegotiationAtStart,
} from './negotiation';
import {
  callEndAttributes,
  operationSpanName,
  protocolVersionAttributes,
  cap,
  cardFetchStartAttributes,
  driftMetricAttributes,
  driftUpdate,
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
  type ResultSeen,
  type SpanUpdate,
} from './span-attributes';
import { sharedState } from './shared-state';

/** What the span of a call needs from the instrumentation. */
export interface SpanDeps {
  tracer: Tracer;
  driftCounter: Counter | undefined;
  config: ResolvedConfig;
  userConfig: A2AInstrumentationConfig;
  /**
   * refetchCardOnDrift: fetch the card again, unobserved and untraced; resolves to its fingerprint,
   * or undefined; no promise when the card cannot be re-fetched (CardRefetcher.refetch).
   */
  refetchCard?: (cardUrl: string) => Promise<string | undefined> | undefined;
}

const REFETCH_WAIT_MS = 5000;

export class CallSpan {
  readonly span: Span;
  /** GetAgentCard, TaskPushNotification or the operation: the span's name and the hooks' `operation`. */
  readonly name: string;
  /** refetchCardOnDrift: the card fetched again after a drift, to say on the span what it is. */
  private refetch: Promise<void> | undefined;
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
  private unjudged: string | undefined;
  private events = 0;
  /** What the span already says of the results (task id, conversation id, state, version). */
  private readonly seen: ResultSeen = { drifted: false };

  /**
   * Open the span. An operation's also says what it is judged against (`negotiated`, settled at
   * its start) and the version of the card held for its URL (`cardEntry`, looked up at most once).
   */
  constructor(
    private readonly deps: SpanDeps,
    target: CallTarget,
    private readonly url: UrlFacts,
    parent: Context,
    startTime?: number,
    negotiated?: NegotiationAtStart,
    cardEntry?: () => CardEntry | undefined,
  ) {
    const push = target.type === 'operation' && target.push === true;
    const name = (this.name =
      target.type === 'card'
        ? sc.SPAN_GET_AGENT_CARD
        : push
          ? sc.SPAN_TASK_PUSH_NOTIFICATION
          : target.request.operation);
    if (target.type === 'operation' && negotiated !== undefined && cardEntry !== undefined) {
      const req = target.request;
      this.seen.taskId = req.taskId;
      this.seen.requestVersion = req.protocolVersion;
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
    } else {
      this.span = deps.tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: cardFetchStartAttributes(url), startTime },
        parent,
      );
    }
  }

  /** The user's request hook, told the span as it starts. */
  requestHook(request: DecodedRequest | undefined): void {
    const requestHook = this.deps.userConfig.requestHook;
    if (requestHook)
      this.safeHook('requestHook', () =>
        requestHook(this.span, { operation: this.name, url: this.url.key, request }),
      );
  }

  responseHeaders(statusCode: number): void {
    this.span.setAttributes(responseHeadersAttributes(statusCode));
  }

  grpcStatus(code: number): void {
    this.span.setAttributes(grpcStatusAttributes(code));
  }

  /** A gRPC call's non-OK final status, decoded as a result: not one more stream event. */
  statusIsNoEvent(): void {
    this.events--;
  }

  pushPayload(result: DecodedResult): void {
    this.span.setAttributes(pushPayloadAttributes(result));
  }

  /** What a card answer says on its span (card-response.ts). */
  cardAnswer(attributes: Attributes | undefined): void {
    if (attributes) this.span.setAttributes(attributes);
  }

  /**
   * One result of the call: counted, and what it says that the span does not say yet (a stream
   * repeats its context id and state on every event: each is set when it changes). `drifted`: a
   * drift already stands.
   */
  result(result: DecodedResult, drifted: boolean): void {
    this.events++;
    const seen = this.seen;
    seen.drifted = drifted;
    this.apply(resultUpdate(result, seen));
    if (result.protocolVersion) seen.resultVersion = result.protocolVersion;
    else if (
      this.cardVersion !== undefined &&
      result.versionFamily !== undefined &&
      result.versionFamily !== familyOf(this.cardVersion)
    )
      this.cardVersion = undefined; // the answer speaks the other family: the card is not told
    if (result.taskId !== undefined) seen.taskId ??= result.taskId;
    if (result.contextId !== undefined) seen.contextId = result.contextId;
    if (result.state !== undefined) seen.state = result.state;
    if (result.problem) this.setUnjudged(cap(result.problem));
  }

  /** The version this call's span says (or will say), as remembered for its task's later calls. */
  versionSaid(req: DecodedRequest): string | undefined {
    return req.protocolVersion ?? this.seen.resultVersion ?? this.cardVersion;
  }

  /** A drift that stands: on the span, in the counter, to the callbacks; the card is suspect. */
  drift(event: DriftEvent, confirmedBy?: Refetched): void {
    logger.debug(
      `drift: ${event.kind} on ${this.span.isRecording() ? 'a recorded' : 'an unrecorded'} A2A call to ${this.url.key}`,
    );
    // suspect before the callbacks run, so an app that reads the registry from them sees it
    if (event.kind !== 'card_changed' && event.cardUrl)
      sharedState().cards.markSuspect(event.cardUrl);
    this.publish(event, confirmedBy);
    if (
      this.deps.refetchCard &&
      confirmedBy === undefined &&
      event.kind !== 'card_changed' &&
      event.cardUrl &&
      event.fingerprint
    )
      this.confirmByRefetch(event.cardUrl, event.fingerprint);
  }

  /** A card change found from an announced fingerprint: on the span, counted, called back. */
  announcedChange(event: DriftEvent): void {
    this.publish(event);
  }

  /**
   * What every drift gets: the span's attributes and status, the card-change event (or, for a
   * failure, the error recorded), the counter and the callbacks.
   */
  private publish(event: DriftEvent, confirmedBy?: Refetched): void {
    const update = driftUpdate(event, confirmedBy);
    this.apply(update);
    if (update.event) this.span.addEvent(update.event.name, update.event.attributes);
    else this.span.recordException(event.error);
    this.deps.driftCounter?.add(1, driftMetricAttributes(event, this.url));
    dispatchDrift(
      event,
      this.deps.config.driftCallbackDebounceMs,
      Date.now(),
      this.deps.userConfig.onDrift,
    );
  }

  /** A suspicion the card fetched again did not confirm: said on the span, nothing else. */
  unconfirmed(
    event: Pick<DriftEvent, 'kind' | 'suspicion'>,
    refetch: 'unchanged' | RefetchFailure['failed'],
  ): void {
    this.span.setAttributes(unconfirmedAttributes(event, refetch));
  }

  /** The card fetched again for refetchCardOnDrift, until it has answered (bounded). */
  get pendingRefetch(): Promise<void> | undefined {
    return this.refetch;
  }

  /**
   * Fetch the card again and say on this span whether it really changed (confirmed drift) or not
   * (the peer is broken, not the cache).
   */
  private confirmByRefetch(cardUrl: string, inUse: string): void {
    const pending = this.deps.refetchCard?.(cardUrl);
    if (pending === undefined) return; // nothing to say: no a2a.drift.refetch
    this.refetch = afterBoundedWait(
      pending,
      REFETCH_WAIT_MS,
      (fingerprint) => this.span.setAttributes(refetchAttributes(fingerprint, inUse)),
      true,
    );
  }

  /**
   * An HTTP 4xx/5xx answer: the span is an error whatever the body says (a decoded A2A error
   * refines it).
   */
  httpError(statusCode: number): void {
    this.apply(httpErrorUpdate(statusCode));
  }

  thrownError(err: Error): void {
    this.apply(thrownErrorUpdate(err));
  }

  /** Why (a part of) the call could not be judged: the first reason is the one said. */
  setUnjudged(reason: string): void {
    if (this.unjudged === undefined) {
      this.unjudged = reason;
      this.span.setAttributes(unjudgedAttributes(reason));
    }
  }

  /**
   * End the span at `endTime` (now when undefined), after its totals and the response hook (told
   * the call's request, HTTP status, last result and drift); `reason` marks a span ended by the
   * safety timeout. Never throws for the span's end.
   */
  end(
    reason: string | undefined,
    endTime: number | undefined,
    request: DecodedRequest | undefined,
    statusCode: number | undefined,
    result: DecodedResult | undefined,
    drift: DriftEvent | undefined,
  ): void {
    if (reason) this.setUnjudged(reason);
    this.span.setAttributes(callEndAttributes(this.events));
    const version = this.cardVersion ?? this.lifecycleVersion;
    if (version !== undefined && this.seen.resultVersion === undefined)
      this.span.setAttributes(protocolVersionAttributes(version));
    const responseHook = this.deps.userConfig.responseHook;
    if (responseHook)
      this.safeHook('responseHook', () =>
        responseHook(this.span, {
          operation: this.name,
          url: this.url.key,
          request,
          statusCode,
          result,
          drift,
        }),
      );
    try {
      this.span.end(endTime);
    } catch (err) {
      logger.debug('span end failed', err);
    }
  }

  /** The context to make active around the call (so child HTTP spans nest under this one). */
  activeContext(parent: Context): Context {
    return trace.setSpan(parent, this.span);
  }

  /** Tell the span what the builder (span-attributes.ts) said: attributes, then any status. */
  private apply(update: SpanUpdate): void {
    if (update === NO_RESULT_UPDATE) return;
    this.span.setAttributes(update.attributes);
    if (update.status) this.span.setStatus(update.status);
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
