/**
 * A2AInstrumentation: wires the hooks (global fetch wrapper, undici diagnostics
 * channels) to the core (classify, decode, judge) and the telemetry (spans, the drift
 * counter, the drift callbacks).
 *
 * - The global fetch wrapper recognises A2A calls from the URL and the request body
 *   string, and makes the A2A span active around the original fetch, so an HTTP span
 *   from instrumentation-undici nests under it. It never reads the response.
 * - The wire tap sees every undici request (any copy, any dispatcher) and its bytes as
 *   they pass. Requests made inside a wrapped fetch attach to its span; other A2A
 *   requests (undici.request, undici.fetch, ...) get a span of their own.
 */
import { context, createContextKey, type Context } from '@opentelemetry/api';
import { logger } from './diag-logger';
import { BodyReader, parseAllPending } from './core/body-reader';
import { isAgentCard } from './core/card';
import {
  InstrumentationBase,
  safeExecuteInTheMiddle,
  type InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { classifyRequest, type ClassifyOptions } from './core/classify';
import { withJsonRpcVersionHeader } from './core/protocol/jsonrpc';
import type { Classification } from './core/model';
import {
  isIgnoredUrl,
  resolveConfig,
  type A2AInstrumentationConfig,
  type ResolvedConfig,
} from './config';
import { FetchHook, type FetchFn } from './hooks/fetch';
import {
  bodyText,
  headerFromInit,
  originAndPath,
  startsLikeJsonObject,
  type FetchInit,
  type FetchInput,
} from './fetch-arguments';
import { enforceResponse } from './telemetry/enforce';
import { propagate, wireParent } from './telemetry/propagation';
import { CardRefetcher, MAX_CARD_BYTES } from './telemetry/card-refetch';
import { OWN_REQUEST_KEY } from './telemetry/own-requests';
import type { WireObserver, WireRequestInfo } from './hooks/types';
import { WireTap } from './hooks/wire-tap';
import * as sc from './semconv';
import { A2ACall, type CallDeps, type CallTarget } from './telemetry/a2a-call';
import { sharedState } from './telemetry/shared-state';
import { applicationSkillId } from './telemetry/skill-context';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version';

const CALL_KEY = createContextKey('opentelemetry-instrumentation-a2a.call');
/** fetchInProgress marker: the fetch wrapper decided the running call is not A2A. */
const NOT_A2A = Symbol('not-a2a');

export class A2AInstrumentation extends InstrumentationBase<A2AInstrumentationConfig> {
  // No field initialisers: InstrumentationBase calls enable() from its constructor,
  // before they would run (and they would wipe what enable() set up).
  private fetchHook: FetchHook | undefined;
  private wireTap: WireTap | undefined;
  private resolvedConfig: ResolvedConfig | undefined;
  private driftCounter: CallDeps['driftCounter'];
  private activeCalls: Set<A2ACall> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private enabled: boolean | undefined;
  /**
   * The call whose original fetch() is running right now (undici publishes `create` synchronously
   * inside it).
   */
  private fetchInProgress: A2ACall | typeof NOT_A2A | undefined;
  private readonly cardRefetcher = new CardRefetcher(() => ({
    fetch: this.fetchHook?.originalFetch ?? globalThis.fetch,
    maxInspectBytes: this.config.maxInspectBytes,
    debounceMs: this.config.driftCallbackDebounceMs,
  }));
  private cachedDeps: CallDeps | undefined;
  /** classifyRequest options without a version header, reused while the config is the same. */
  private classifyOptions: ClassifyOptions | undefined;

  constructor(config: A2AInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    return [];
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
            ],
          },
          (where, err) => logger.debug(`${where}`, err),
        );
      }
      if (!this.activeCalls) this.activeCalls = new Set();
      this.fetchHook.install();
      this.wireTap.enable();
      this.startSweeper();
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
      if (this.sweeper) clearInterval(this.sweeper);
      this.sweeper = undefined;
      if (this.activeCalls)
        for (const call of [...this.activeCalls]) call.finish('instrumentation disabled');
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

  private startSweeper(): void {
    const max = this.config.maxSpanDurationMs;
    this.sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const call of this.activeCalls ?? []) {
          if (now - call.lastActivity > max)
            call.finish(`no response bytes for ${max} ms (abandoned)`);
        }
      },
      Math.max(1000, Math.min(30_000, Math.floor(max / 2))),
    );
    this.sweeper.unref();
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
    };
    this.cachedDeps = deps;
    return deps;
  }

  /**
   * How fleet alerts (telemetry/fleet-alerts.ts) reach this instance: its debounce window,
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
          .then((fp) =>
            logger.debug(
              `fleet alert: re-fetched ${cardUrl}: ${fp === undefined ? 'failed' : `fingerprint ${fp.slice(0, 12)}…`}`,
            ),
          );
      },
    };
  }

  /**
   * Fetch a card again, untraced and unseen by the wire tap; resolves to its fingerprint.
   * Only ever the card URL the app itself fetched. A conditional request when the card's
   * response had validators (If-None-Match / If-Modified-Since): 304 means the card held
   * (whose validators they are) is unchanged.
   */
  private newCall(target: CallTarget, url: string, parent: Context, startTime?: number): A2ACall {
    parseAllPending(); // what earlier streams said comes first (their negotiations, their cards)
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

  private classify(
    method: string,
    url: string,
    body: string | undefined,
    versionHeader: string | undefined,
  ): Classification {
    const cfg = this.config;
    if (cfg.ignoreUrls.length > 0 && isIgnoredUrl(originAndPath(url), cfg.ignoreUrls))
      return undefined;
    let opts = this.classifyOptions;
    if (
      !opts ||
      opts.skillIdPaths !== cfg.skillIdPaths ||
      opts.maxBodyBytes !== cfg.maxRequestBodyBytes
    ) {
      opts = { skillIdPaths: cfg.skillIdPaths, maxBodyBytes: cfg.maxRequestBodyBytes };
      this.classifyOptions = opts;
    }
    if (versionHeader !== undefined) opts = { ...opts, a2aVersionHeader: versionHeader };
    const cls = classifyRequest(method, url, body, opts);
    // REST paths common outside A2A (GET …/tasks/{id}) count only at an endpoint a fetched card
    // advertises.
    if (
      cls === undefined &&
      versionHeader === undefined &&
      url.includes('/tasks') &&
      sharedState().cards.forRequestUrl(url)
    ) {
      return classifyRequest(method, url, body, { ...opts, knownA2AEndpoint: true });
    }
    return cls;
  }

  /**
   * classify(), reading the A2A-Version header only when the URL and body leave the answer
   * open (an ambiguous REST path, or a method name shared by 0.2 and 0.3): reading a header
   * costs microseconds, and this runs for every request of the host application.
   */
  private classifyLazily(
    method: string,
    url: string,
    body: string | undefined,
    header: () => string | undefined,
  ): Classification {
    const cls = this.classify(method, url, body, undefined);
    const open =
      cls === undefined
        ? url.includes('/tasks') || url.includes('/card')
        : cls.type === 'operation' && cls.request.protocolVersion === undefined;
    if (!open) return cls;
    const version = header();
    if (version === undefined) return cls;
    // A JSON-RPC request is not parsed again: the header only refines its version.
    if (cls?.type === 'operation' && cls.request.binding === 'jsonrpc')
      return { type: 'operation', request: withJsonRpcVersionHeader(cls.request, version) };
    return this.classify(method, url, body, version);
  }

  private handleFetch(original: FetchFn, input: FetchInput, init: FetchInit): ReturnType<FetchFn> {
    if (!this.isActive()) return original(input, init);
    let call: A2ACall | typeof NOT_A2A | undefined;
    try {
      call = this.callForFetch(input, init);
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
    // A patched fetch may return anything: only a thenable is followed.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    if (!result || typeof (result as Promise<Response>).then !== 'function') {
      active.fetchResolved();
      return result;
    }
    if (this.config.enforce && active.target.type === 'operation') {
      return result.then(
        (response) => {
          active.fetchResolved();
          return enforceResponse(active, response, this.config.maxInspectBytes);
        },
        (err: unknown) => {
          active.fetchRejected(err);
          throw err;
        },
      );
    }
    // Observe mode: the app gets fetch's own promise (no extra hop). These reactions were
    // registered first, so they run before the app's; the rejection is handled here and
    // still reaches the app through the original promise.
    result.then(
      () => settleQuietly(() => active.fetchResolved()),
      (err: unknown) => settleQuietly(() => active.fetchRejected(err)),
    );
    return result;
  }

  /**
   * An A2ACall, NOT_A2A when the URL and body say it is not A2A, undefined when only the wire can
   * tell (streamed body).
   */
  private callForFetch(input: FetchInput, init: FetchInit): A2ACall | typeof NOT_A2A | undefined {
    let url: string | undefined;
    let request: Request | undefined;
    if (typeof input === 'string') url = input;
    else if (input instanceof URL) url = input.href;
    else if (input && typeof (input as Request).url === 'string') {
      request = input as Request;
      url = request.url;
    }
    if (!url) return undefined;
    // Body first, as native fetch reads it. Where `init` has getters the fetch hook passes a
    // memoising Proxy (also to the original fetch), so each getter runs once.
    const initBody = init?.body;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const body =
      initBody !== undefined ? bodyText(initBody, this.config.maxRequestBodyBytes) : undefined;
    if (method !== 'GET' && body === undefined) return undefined; // a streamed body: the wire tap decides when it has seen it
    const cls = this.classifyLazily(method, url, body, () => headerFromInit(init, 'a2a-version'));
    if (!cls) return NOT_A2A;
    if (cls.type === 'maybe-operation') return undefined;
    if (cls.type === 'card' && cls.sniff === true) return undefined; // a card only if its answer is one: the wire tap sniffs it
    const call = this.newCall(
      cls.type === 'card' ? { type: 'card' } : { type: 'operation', request: cls.request },
      url,
      context.active(),
    );
    call.followsRedirects = (init?.redirect ?? request?.redirect ?? 'follow') === 'follow';
    return call;
  }

  private onWireCreate(info: WireRequestInfo): WireObserver | undefined {
    if (!this.isActive()) return undefined;
    const inFetch = this.fetchInProgress;
    if (inFetch === NOT_A2A) return undefined; // decided by the fetch wrapper: no context lookup
    const ctx = context.active();
    if (ctx.getValue(OWN_REQUEST_KEY)) return undefined;
    const pending = inFetch ?? (ctx.getValue(CALL_KEY) as A2ACall | undefined);
    if (pending && !pending.isFinished) return this.followHop(pending, info, ctx);
    const url = info.origin + info.path;
    const method = info.method.toUpperCase();
    const body = bodyText(info.body, this.config.maxRequestBodyBytes);
    if (method !== 'GET' && body === undefined) {
      // A body not whole at creation (fetch bodies never are): decide once it has been sent.
      if (info.body !== undefined || method !== 'POST') return undefined;
      return this.deferredObserver(url, method, ctx, info.header('a2a-version'));
    }
    const cls = this.classifyLazily(method, url, body, () => info.header('a2a-version'));
    if (!cls || cls.type === 'maybe-operation') return undefined;
    if (cls.type === 'card' && cls.sniff === true) return this.cardSniffer(url, ctx);
    const parent = wireParent(info, ctx);
    return this.followHop(
      this.newCall(
        cls.type === 'card' ? { type: 'card' } : { type: 'operation', request: cls.request },
        url,
        parent,
      ),
      info,
      parent,
    );
  }

  /** Follows one undici request of `call`, carrying the call's trace context to the peer. */
  private followHop(call: A2ACall, info: WireRequestInfo, ctx: Context): WireObserver {
    try {
      propagate(call, info, ctx);
    } catch (err) {
      logger.debug('could not add trace context headers', err);
    }
    return call.attachHop();
  }

  /**
   * A GET whose path only hints at an Agent Card (`…/agent/card`, `…/agent.json` outside
   * `.well-known`): its JSON answer is kept (capped) and, if it is an Agent Card
   * (`isAgentCard`), replayed into a GetAgentCard call that starts when the request did.
   * Anything else gets no span and costs only the copy of a small JSON body.
   */
  private cardSniffer(url: string, parent: Context): WireObserver {
    const startTime = Date.now();
    const max = Math.min(this.config.maxInspectBytes, MAX_CARD_BYTES);
    let chunks: Buffer[] | undefined;
    let size = 0;
    let status = 0;
    let headers: Record<string, string> = {};
    return {
      onResponseHeaders: (statusCode, h) => {
        const type = (h['content-type'] ?? '').toLowerCase();
        if (statusCode < 200 || statusCode >= 300 || !(type === '' || type.includes('json')))
          return;
        status = statusCode;
        headers = h;
        chunks = [];
      },
      onResponseBody: (chunk) => {
        if (!chunks) return;
        size += chunk.byteLength;
        if (size > max) chunks = undefined;
        else chunks.push(Buffer.from(chunk)); // the chunk belongs to undici
      },
      onComplete: () => {
        const body = chunks;
        chunks = undefined;
        if (!body || body.length === 0) return;
        let card = false;
        const reader = new BodyReader('json', headers['content-encoding'], max, {
          onDocument: (value) => {
            card = isAgentCard(value);
          },
          onProblem: () => {},
          onEnd: () => {},
        });
        for (const c of body) reader.push(c);
        reader.end(true);
        if (!card) return;
        const hop = this.newCall(
          { type: 'card', sniffed: true },
          url,
          parent,
          startTime,
        ).attachHop();
        hop.onResponseHeaders?.(status, headers);
        for (const c of body) hop.onResponseBody?.(c);
        hop.onComplete?.();
      },
      onError: () => {
        chunks = undefined;
      },
    };
  }

  /**
   * A JSON request whose body is streamed: collect it (capped) and decide at the response headers.
   */
  private deferredObserver(
    url: string,
    method: string,
    parent: Context,
    versionHeader: string | undefined,
  ): WireObserver {
    const startTime = Date.now();
    const max = this.config.maxRequestBodyBytes;
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    let inner: WireObserver | undefined;
    return {
      onRequestBody: (chunk) => {
        if (!chunks) return;
        if (size === 0 && !startsLikeJsonObject(chunk)) {
          chunks = undefined; // not a JSON object: not A2A, stop looking
          return;
        }
        size += chunk.byteLength;
        if (size > max) chunks = undefined;
        else chunks.push(Buffer.from(chunk));
      },
      onResponseHeaders: (status, headers) => {
        if (!chunks) return;
        const text = Buffer.concat(chunks, size).toString('utf8');
        chunks = undefined;
        const cls = this.classify(method, url, text, versionHeader);
        if (!cls || cls.type !== 'operation') return;
        inner = this.newCall(
          { type: 'operation', request: cls.request },
          url,
          parent,
          startTime,
        ).attachHop();
        inner.onResponseHeaders?.(status, headers);
      },
      onResponseBody: (chunk) => inner?.onResponseBody?.(chunk),
      onComplete: () => inner?.onComplete?.(),
      onError: (err) => inner?.onError?.(err),
    };
  }
}

/**
 * Runs the call's settle step on a side branch of the app's promise: a failure there must not
 * become an unhandled rejection.
 */
function settleQuietly(fn: () => void): void {
  safeExecuteInTheMiddle(
    fn,
    (err) => {
      if (err) logger.debug('ending a fetch span failed', err);
    },
    true,
  );
}
