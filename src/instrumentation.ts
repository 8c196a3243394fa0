/**
 * A2AInstrumentation: the OpenTelemetry lifecycle (enable/disable, config, the drift counter,
 * the sweeper of abandoned calls) wiring the hooks (global fetch wrapper, undici diagnostics
 * channels) to the recogniser (recognise.ts) and the calls (telemetry/a2a-call.ts).
 *
 * - The global fetch wrapper has A2A calls recognised from the URL and the request body
 *   string, and makes the A2A span active around the original fetch, so an HTTP span
 *   from instrumentation-undici nests under it. It never reads the response (unless enforcing).
 * - The wire tap sees every undici request (any copy, any dispatcher) and its bytes as
 *   they pass. Requests made inside a wrapped fetch attach to its span; other A2A
 *   requests (undici.request, undici.fetch, ...) get a span of their own.
 */
import { context, createContextKey, type Context } from '@opentelemetry/api';
import { parseAllPending } from './core/body-reader';
import { logger } from './diag-logger';
import {
  InstrumentationBase,
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { resolveConfig, type A2AInstrumentationConfig, type ResolvedConfig } from './config';
import { FetchHook, type FetchFn } from './hooks/fetch';
import type { FetchInit, FetchInput } from './fetch-arguments';
import { followFetchResult } from './telemetry/fetch-result';
import { followHop } from './telemetry/propagation';
import { ActiveCalls } from './telemetry/active-calls';
import {
  CardRefetcher,
  type CardRequestPurpose,
  type CardRequestResult,
} from './telemetry/card-refetch';
import { abortBackgroundRequests } from './hooks/background-get';
import { CardRevalidator } from './telemetry/card-revalidation';
import { dispatchDrift } from './telemetry/drift-events';
import { cardRequestAttributes, driftMetricAttributes } from './telemetry/span-attributes';
import { urlFacts } from './core/url';
import type { DriftEvent } from './core/judge';
import { NOT_A2A, Recogniser } from './recognise';
import { OWN_REQUEST_KEY } from './telemetry/own-requests';
import type { WireObserver, WireRequestInfo } from './hooks/types';
import { WireTap } from './hooks/wire-tap';
import { InboundTap } from './hooks/inbound-tap';
import { GrpcClientHook } from './hooks/grpc-client';
import { GrpcCalls } from './telemetry/grpc-calls';
import { PushReceiver } from './telemetry/push-notifications';
import { ServerCalls, type ServerCallDeps } from './telemetry/server-calls';
import { pushRegistry } from './telemetry/push-registrations';
import * as sc from './semconv';
import { A2ACall, type CallDeps } from './telemetry/a2a-call';
import type { CallTarget } from './telemetry/call-judgement';
import { sharedState } from './telemetry/shared-state';
import { applicationSkillId } from './telemetry/skill-context';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version';

/** Cards whose announced change is remembered (so reported once), at most. */
const MAX_ANNOUNCED_CHANGES = 1000;

const CALL_KEY = createContextKey('opentelemetry-instrumentation-a2a.call');

export class A2AInstrumentation extends InstrumentationBase<A2AInstrumentationConfig> {
  // No field initialisers: InstrumentationBase calls enable() from its constructor,
  // before they would run (and they would wipe what enable() set up).
  private fetchHook: FetchHook | undefined;
  private wireTap: WireTap | undefined;
  private inboundTap: InboundTap | undefined;
  /** Made at the first use (init() runs inside super(), before field initialisers). */
  private grpcHook: GrpcClientHook | undefined;
  private resolvedConfig: ResolvedConfig | undefined;
  private driftCounter: CallDeps['driftCounter'];
  private cardRequestCounter: CallDeps['driftCounter'];
  private staleCallsCounter: ServerCallDeps['staleCalls'];
  private activeCalls: ActiveCalls | undefined;
  private enabled: boolean | undefined;
  /**
   * The call whose original fetch() is running right now (undici publishes `create` synchronously
   * inside it); NOT_A2A when the fetch wrapper decided it is not A2A.
   */
  private fetchInProgress: A2ACall | typeof NOT_A2A | undefined;
  private readonly cardRefetcher = new CardRefetcher(() => ({
    maxInspectBytes: this.config.maxInspectBytes,
    debounceMs: this.config.driftCallbackDebounceMs,
    onRequest: (purpose, result) => this.cardRequestCounted(purpose, result),
  }));
  private readonly cardRevalidator = new CardRevalidator(
    () => ({
      intervalMs: this.enabled ? this.config.cardRevalidationMs : 0,
      debounceMs: this.config.driftCallbackDebounceMs,
    }),
    this.cardRefetcher,
    (event) => this.cardChangedInBackground(event),
  );
  private cachedDeps: CallDeps | undefined;
  /** Card URL → the newer fingerprint an announcement led to, last reported (bounded). */
  private announcedChanges: Map<string, string> | undefined;
  private readonly recogniser = new Recogniser(
    () => this.config,
    (target, url, parent, startTime) => this.newCall(target, url, parent, startTime),
  );

  constructor(config: A2AInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
  }

  /**
   * `@grpc/grpc-js`, the APP's copy, as it loads (require, and import through the ESM hook):
   * its `make-client` module's `makeClientConstructor` wrapped (hooks/grpc-client.ts); the
   * package index covers a copy whose make-client loaded before the hooks.
   */
  protected init(): InstrumentationNodeModuleDefinition[] {
    const versions = ['>=1.0.0 <2'];
    return [
      new InstrumentationNodeModuleDefinition(
        '@grpc/grpc-js',
        versions,
        (exports) => this.grpcClientHook().patchPackage(exports),
        undefined,
        [
          new InstrumentationNodeModuleFile(
            '@grpc/grpc-js/build/src/make-client.js',
            versions,
            (exports) => this.grpcClientHook().patchMakeClient(exports),
            (exports) => this.grpcClientHook().unpatchMakeClient(exports),
          ),
        ],
      ),
    ];
  }

  private grpcClientHook(): GrpcClientHook {
    return (this.grpcHook ??= new GrpcClientHook((where, err) => logger.debug(where, err)));
  }

  override setConfig(config: A2AInstrumentationConfig = {}): void {
    super.setConfig(config);
    this.resolvedConfig = undefined;
    if (this.enabled) this.applyRegistryLimits();
  }

  protected override _updateMetricInstruments(): void {
    this.driftCounter = this.meter.createCounter(sc.METRIC_CARD_DRIFT, {
      description: 'A2A exchanges that showed a stale Agent Card (skill drift), by kind',
      unit: sc.METRIC_CARD_DRIFT_UNIT,
    });
    this.cardRequestCounter = this.meter.createCounter(sc.METRIC_CARD_REQUESTS, {
      description:
        "The instrumentation's own Agent Card requests (confirming re-fetch, background revalidation), by purpose and result",
      unit: sc.METRIC_CARD_REQUESTS_UNIT,
    });
    this.staleCallsCounter = this.meter.createCounter(sc.METRIC_SERVER_STALE_CALLS, {
      description:
        'A2A requests this agent answered from stale callers (a skill its card does not list, another card announced), by kind',
      unit: sc.METRIC_SERVER_STALE_CALLS_UNIT,
    });
  }

  /** One of the package's own card requests (or one skipped): counted by purpose and result. */
  private cardRequestCounted(purpose: CardRequestPurpose, result: CardRequestResult): void {
    try {
      if (!this.isActive()) return;
      this.cardRequestCounter?.add(1, cardRequestAttributes(purpose, result));
    } catch (err) {
      logger.debug('could not count a card request', err);
    }
  }

  private get config(): ResolvedConfig {
    return (this.resolvedConfig ??= resolveConfig(this.getConfig()));
  }

  /** The process-wide registries take their limits from the enabled instance's config. */
  private applyRegistryLimits(): void {
    const cfg = this.config;
    const state = sharedState();
    state.negotiations.setLimits(cfg.maxTrackedTasks, cfg.taskTtlMs);
    state.cards.setMaxCards(cfg.maxCards);
    pushRegistry().setLimits(cfg.maxTrackedTasks, cfg.taskTtlMs);
  }

  override enable(): void {
    if (this.enabled) return;
    this.enabled = true;
    try {
      this.applyRegistryLimits();
      if (!this.fetchHook)
        this.fetchHook = new FetchHook((original, input, init) =>
          this.handleFetch(original, input, init),
        );
      if (!this.wireTap) {
        this.wireTap = new WireTap(
          {
            onCreate: (info) => this.onWireCreate(info),
            responseHeaderNames: [
              'content-type',
              'content-encoding',
              'location',
              'cache-control',
              'etag',
              'last-modified',
              sc.HEADER_CARD_FINGERPRINT,
            ],
          },
          (where, err) => logger.debug(`${where}`, err),
        );
      }
      this.inboundTap ??= new InboundTap(
        [
          new PushReceiver(() => (this.isActive() ? this.deps() : undefined)),
          new ServerCalls(() =>
            this.isActive() && this.config.serverSpans
              ? { tracer: this.tracer, staleCalls: this.staleCallsCounter, config: this.config }
              : undefined,
          ),
        ],
        (where, err) => logger.debug(`inbound ${where}`, err),
      );
      this.activeCalls ??= new ActiveCalls();
      this.grpcClientHook().enable(
        new GrpcCalls({
          isActive: () => this.isActive(),
          config: () => this.config,
          newCall: (target, url, parent, startTime) => this.newCall(target, url, parent, startTime),
        }),
      );
      super.enable(); // the module hooks of init() (grpc-js)
      this.fetchHook.install();
      this.wireTap.enable();
      this.inboundTap.enable();
      this.activeCalls.startSweeping(this.config.maxSpanDurationMs);
      this.installFleetListener();
      logger.debug('enabled: global fetch wrapped, undici diagnostics channels tapped');
      const owner = sharedState().owner;
      if (owner !== undefined && owner !== this) {
        logger.warn(
          'another A2AInstrumentation is already active in this process; this one stays idle (no duplicate spans) until that one is disabled',
        );
      }
    } catch (err) {
      logger.error('enable failed', err);
    }
  }

  override disable(): void {
    if (!this.enabled) return;
    this.enabled = false;
    try {
      const state = sharedState();
      if (state.owner === this) state.owner = undefined;
      if (state.fleet?.owner === this) state.fleet = undefined;
      this.fetchHook?.uninstall();
      this.wireTap?.disable();
      this.inboundTap?.disable();
      this.grpcHook?.disable();
      super.disable();
      this.activeCalls?.stopSweeping();
      this.cardRevalidator.stop();
      // the package's own card requests in flight end with it: nothing of ours holds the process
      abortBackgroundRequests();
      parseAllPending(); // what was deferred is judged before the calls end
      this.activeCalls?.finishAll('instrumentation disabled');
    } catch (err) {
      logger.error('disable failed', err);
    }
  }

  /** Enabled, and the one instance that makes spans in this process (see SharedState.owner). */
  private isActive(): boolean {
    if (this.enabled !== true || this.getConfig().enabled === false) return false;
    const state = sharedState();
    if (state.owner === undefined) state.owner = this;
    return state.owner === this;
  }

  /** The calls' dependencies, rebuilt only when the tracer, meter or config changed. */
  private deps(): CallDeps {
    const tracer = this.tracer;
    const config = this.config;
    const userConfig = this.getConfig();
    const cached = this.cachedDeps;
    if (
      cached &&
      cached.tracer === tracer &&
      cached.config === config &&
      cached.userConfig === userConfig &&
      cached.driftCounter === this.driftCounter
    ) {
      return cached;
    }
    const deps: CallDeps = {
      tracer,
      driftCounter: this.driftCounter,
      config,
      userConfig,
      onFinished: (call) => this.activeCalls?.delete(call),
      refetchCard: config.refetchCardOnDrift ? (url) => this.cardRefetcher.refetch(url) : undefined,
      confirmCard: (url, cause) => this.cardRefetcher.refetchCard(url, cause),
      cardInUse:
        config.cardRevalidationMs > 0
          ? (url) => this.cardRevalidator.noteUse(url, Date.now())
          : undefined,
      firstAnnouncedChange: (url, fingerprint) => this.firstAnnouncedChange(url, fingerprint),
    };
    this.cachedDeps = deps;
    return deps;
  }

  /**
   * How fleet alerts (src/fleet/) reach this instance: its debounce window,
   * its onDrift and, with refetchCardOnDrift, the card re-fetch. The first enabled instance
   * keeps it until it is disabled.
   */
  private installFleetListener(): void {
    const state = sharedState();
    if (state.fleet !== undefined && state.fleet.owner !== this) return;
    state.fleet = {
      owner: this,
      debounceMs: () => this.config.driftCallbackDebounceMs,
      onDrift: () => this.getConfig().onDrift,
      refetch: (cardUrl) => {
        if (!this.enabled || !this.config.refetchCardOnDrift) return;
        void this.cardRefetcher
          .refetch(cardUrl)
          ?.then((fp) =>
            logger.debug(
              `fleet alert: re-fetched ${cardUrl}: ${fp === undefined ? 'failed' : `fingerprint ${fp.slice(0, 12)}…`}`,
            ),
          );
      },
    };
  }

  /**
   * A card revalidated in the background changed under the same version: card_changed (with what
   * changed) counted and handed to the drift callbacks; no span (the fetch is untraced).
   */
  private cardChangedInBackground(event: DriftEvent): void {
    try {
      if (!this.isActive()) return;
      const peer = urlFacts(event.cardUrl ?? '');
      this.driftCounter?.add(1, driftMetricAttributes(event, peer));
      dispatchDrift(
        event,
        this.config.driftCallbackDebounceMs,
        Date.now(),
        this.getConfig().onDrift,
      );
      logger.debug(`card revalidation: ${event.cardUrl} changed`);
    } catch (err) {
      logger.debug('could not report a revalidated card change', err);
    }
  }

  /** A newer card found because an agent announced it: reported once per card and fingerprint. */
  private firstAnnouncedChange(cardUrl: string, fingerprint: string): boolean {
    const changes = (this.announcedChanges ??= new Map());
    if (changes.get(cardUrl) === fingerprint) return false;
    changes.delete(cardUrl);
    changes.set(cardUrl, fingerprint);
    if (changes.size > MAX_ANNOUNCED_CHANGES) {
      const oldest = changes.keys().next().value;
      if (oldest !== undefined) changes.delete(oldest);
    }
    return true;
  }

  /** Revalidations made by this instrumentation, by result. */
  get cardRevalidations(): Readonly<CardRevalidator['counts']> {
    return this.cardRevalidator.counts;
  }

  private newCall(target: CallTarget, url: string, parent: Context, startTime?: number): A2ACall {
    // What earlier responses said comes first (their negotiations) for a call that continues a
    // task or fetches a card: the responses still waiting for their turn are judged now. A new
    // SendMessage of its own does not wait for them: that keeps their judgement off the app's
    // path, where it would add to the latency the app sees.
    if (target.type !== 'operation' || target.request.taskId !== undefined) parseAllPending();
    const call = new A2ACall(
      this.deps(),
      target,
      url,
      parent,
      applicationSkillId(parent),
      startTime,
    );
    this.activeCalls?.add(call);
    return call;
  }

  private handleFetch(original: FetchFn, input: FetchInput, init: FetchInit): ReturnType<FetchFn> {
    if (!this.isActive()) return original(input, init);
    let call: A2ACall | typeof NOT_A2A | undefined;
    try {
      call = this.recogniser.fetchCall(input, init);
    } catch (err) {
      logger.debug('fetch classification failed', err);
    }
    if (call === NOT_A2A) {
      // Decided here already: the wire tap need not look at this request again.
      const previous = this.fetchInProgress;
      this.fetchInProgress = NOT_A2A;
      try {
        return original(input, init);
      } finally {
        this.fetchInProgress = previous;
      }
    }
    if (!call) return original(input, init);
    const active = call;
    const parent = context.active();
    let result: ReturnType<FetchFn>;
    const previous = this.fetchInProgress;
    this.fetchInProgress = active;
    try {
      result = context.with(
        active.activeContext(parent).setValue(CALL_KEY, active),
        original,
        undefined,
        input,
        init,
      );
    } catch (err) {
      active.fetchRejected(err);
      throw err;
    } finally {
      this.fetchInProgress = previous;
    }
    return followFetchResult(active, result, this.config);
  }

  private onWireCreate(info: WireRequestInfo): WireObserver | undefined {
    if (!this.isActive()) return undefined;
    const inFetch = this.fetchInProgress;
    if (inFetch === NOT_A2A) return undefined; // decided by the fetch wrapper: no context lookup
    const ctx = context.active();
    if (ctx.getValue(OWN_REQUEST_KEY)) return undefined;
    const pending = inFetch ?? (ctx.getValue(CALL_KEY) as A2ACall | undefined);
    if (pending && !pending.isFinished) return followHop(pending, info, ctx);
    return this.recogniser.wireRequest(info, ctx);
  }
}
