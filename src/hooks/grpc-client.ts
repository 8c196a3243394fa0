/**
 * GrpcClientHook: sees the calls an application makes through `@grpc/grpc-js` clients, as
 * objects (the request message before serialisation, each decoded response message, the final
 * status), through a client interceptor. Moves objects only; what they mean is the layer above's.
 *
 * How it is reached
 * - grpc-js publishes no diagnostics channels. Generated client classes come from
 *   `makeClientConstructor` (`makeGenericClientConstructor` is the same function) in grpc-js's
 *   `build/src/make-client.js`; their methods call copies of `Client.prototype.make*Request` taken
 *   when that module loaded, so patching `Client.prototype` later reaches nothing. The package
 *   index re-exports `makeClientConstructor` through a getter (no setter) that reads the
 *   make-client module's exports at each access: {@link patchMakeClient} replaces the function
 *   there (the instrumentation applies it to the APP's copy as it loads, CommonJS or ESM, via
 *   `@opentelemetry/instrumentation`'s module hooks). `loadPackageDefinition` calls
 *   `makeClientConstructor` internally, so its result is walked too.
 * - For a service the delegate wants (a service-name check, once per class; every other
 *   service's class is returned untouched), the class is replaced by a subclass whose constructor
 *   adds an interceptor to the client's options (`interceptors`, or `interceptor_providers` when
 *   the app uses those: grpc-js refuses both at once), and a `callInvocationTransformer` (the
 *   app's own runs first) that adds it to a call's own `interceptors` / `interceptor_providers`
 *   when the app passes some (grpc-js then ignores the client's). It is first in either list:
 *   it sees what the app sends and what the app gets.
 * - The interceptor asks the delegate at the start of each call (synchronously, inside the app's
 *   call, so the app's async context is active) whether to follow it; when not, the call is the
 *   next layer's own object, untouched. A followed call passes every operation through unchanged,
 *   except when the observer answers a message or the status with a status of its own (enforce
 *   mode): then the app gets that status and, mid-stream, the call below is cancelled.
 * - Every delegate / observer call is wrapped in try/catch and reported via `onInternalError`.
 */
import { copyNameAndLength } from './look-alike';

/** The final status of a call, as grpc-js reports it (`metadata`: the app's copy's Metadata). */
export interface GrpcStatus {
  code: number;
  details: string;
  metadata: unknown;
}

/** Request metadata, as far as the layer above may touch it (trace propagation). */
export interface GrpcMetadataCarrier {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

export interface GrpcCallInfo {
  /** `/lf.a2a.v1.A2AService/SendMessage` */
  path: string;
  responseStream: boolean;
  /** The channel target the client was constructed with (`127.0.0.1:50051`, `dns:///h:443`). */
  target: string;
  /**
   * The request message of a unary or server-streaming call, before serialisation (the client's
   * call transformer hands it to the interceptor); undefined otherwise (then onRequest has it).
   */
  request?: unknown;
}

/** Per-call observer. A returned status replaces what the app would have got. */
export interface GrpcCallObserver {
  /** The request metadata, before it is sent. */
  onStart?(metadata: GrpcMetadataCarrier): void;
  /** The request message, before serialisation. */
  onRequest?(message: unknown): void;
  /** A decoded response message; a status returned instead ends the call with it (not passed). */
  onMessage?(message: unknown): GrpcStatusAnswer | undefined;
  /** The final status; the app gets the returned one instead (waited for when a promise). */
  onStatus?(
    status: GrpcStatus,
  ): GrpcStatusAnswer | Promise<GrpcStatusAnswer | undefined> | undefined;
}

/** A status the observer answers with (metadata: that of the call's status, or empty). */
export interface GrpcStatusAnswer {
  code: number;
  details: string;
}

export interface GrpcClientDelegate {
  /** Whether calls of this service (its full name) are to be followed. Once per client class. */
  wantsService(serviceName: string): boolean;
  /** A call of a wanted service starts: an observer to follow it, or undefined. */
  onCall(info: GrpcCallInfo): GrpcCallObserver | undefined;
}

type AnyFn = (...args: unknown[]) => unknown;
type Ctor = new (...args: unknown[]) => object;

interface Listener {
  onReceiveMetadata?(metadata: unknown): void;
  onReceiveMessage?(message: unknown): void;
  onReceiveStatus?(status: GrpcStatus): void;
}

interface NextCall {
  cancelWithStatus(code: number, details: string): void;
  getPeer(): string;
  start(metadata: unknown, listener: Listener): void;
  sendMessageWithContext(context: unknown, message: unknown): void;
  sendMessage(message: unknown): void;
  startRead(): void;
  halfClose(): void;
  getAuthContext?(): unknown;
}

interface InterceptorOptions {
  method_definition?: { path?: unknown; responseStream?: unknown };
  [ARGUMENT]?: unknown;
}

type Interceptor = (
  options: InterceptorOptions,
  nextCall: (o: InterceptorOptions) => NextCall,
) => NextCall;

/** Marks our wrappers (a function we made is never wrapped twice). */
const WRAPPED = Symbol.for('opentelemetry-instrumentation-a2a.grpc.wrapped');
/** Marks client classes we made. */
const OUR_CLASS = Symbol.for('opentelemetry-instrumentation-a2a.grpc.class');
/** Marks our interceptors (never added twice to one list). */
const OUR_INTERCEPTOR = Symbol.for('opentelemetry-instrumentation-a2a.grpc.interceptor');
/** The call's request message, from our call transformer to our interceptor (call options). */
const ARGUMENT = Symbol('opentelemetry-instrumentation-a2a.grpc.argument');
const CANCELLED = 1;

export class GrpcClientHook {
  /** Undefined while disabled: every interceptor we added is then a pass-through. */
  private delegate: GrpcClientDelegate | undefined;

  constructor(private readonly onInternalError: (where: string, err: unknown) => void) {}

  enable(delegate: GrpcClientDelegate): void {
    this.delegate = delegate;
  }

  disable(): void {
    this.delegate = undefined;
  }

  /**
   * Wraps `makeClientConstructor` and `loadPackageDefinition` on the exports of grpc-js's
   * `make-client` module (idempotent). Returns the exports.
   */
  patchMakeClient<T>(exports: T): T {
    try {
      const ex = exports as Record<string, unknown>;
      if (!ex || typeof ex !== 'object') return exports;
      const make = ex['makeClientConstructor'];
      if (typeof make === 'function' && !(WRAPPED in make)) {
        const original = make as AnyFn;
        const clientClass = (cls: unknown, name: unknown): unknown => this.clientClass(cls, name);
        const wrapped = function makeClientConstructor(this: unknown, ...args: unknown[]): unknown {
          return clientClass(original.apply(this, args), args[1]);
        };
        markWrapper(wrapped, original);
        ex['makeClientConstructor'] = wrapped;
      }
      const load = ex['loadPackageDefinition'];
      if (typeof load === 'function' && !(WRAPPED in load)) {
        const original = load as AnyFn;
        const replace = (result: unknown, def: unknown): void =>
          this.replaceLoadedClients(result, def);
        const wrapped = function loadPackageDefinition(this: unknown, ...args: unknown[]): unknown {
          const result = original.apply(this, args);
          replace(result, args[0]);
          return result;
        };
        markWrapper(wrapped, original);
        ex['loadPackageDefinition'] = wrapped;
      }
    } catch (err) {
      this.onInternalError('grpc patch', err);
    }
    return exports;
  }

  /**
   * The package's index, required after its `make-client` module was loaded unhooked (grpc-js
   * loaded before the instrumentation was enabled): that module is found in the require cache
   * by the very function the index re-exports, and patched there. Returns the exports.
   */
  patchPackage<T>(exports: T): T {
    try {
      const make = (exports as Record<string, unknown> | undefined)?.['makeClientConstructor'];
      if (typeof make !== 'function' || WRAPPED in make) return exports;
      const cache = typeof require === 'function' ? require.cache : undefined;
      if (cache === undefined) return exports;
      for (const key of Object.keys(cache)) {
        if (!key.endsWith('make-client.js')) continue;
        const ex = cache[key]?.exports as Record<string, unknown> | undefined;
        if (ex?.['makeClientConstructor'] === make) {
          this.patchMakeClient(ex);
          break;
        }
      }
    } catch (err) {
      this.onInternalError('grpc patch package', err);
    }
    return exports;
  }

  /** Puts the originals back on the make-client exports (classes already made stay ours). */
  unpatchMakeClient(exports: unknown): void {
    try {
      const ex = exports as Record<string, unknown>;
      for (const name of ['makeClientConstructor', 'loadPackageDefinition']) {
        const f = ex[name] as { [WRAPPED]?: unknown } | undefined;
        if (typeof f === 'function' && WRAPPED in f) ex[name] = f[WRAPPED];
      }
    } catch (err) {
      this.onInternalError('grpc unpatch', err);
    }
  }

  /** `cls` for a service the delegate wants: our subclass; else `cls` itself. */
  private clientClass(cls: unknown, serviceName: unknown): unknown {
    try {
      if (typeof cls !== 'function' || OUR_CLASS in cls) return cls;
      const name =
        typeof serviceName === 'string'
          ? serviceName
          : (cls as { serviceName?: unknown }).serviceName;
      if (typeof name !== 'string' || !this.delegate?.wantsService(name)) return cls;
      return this.subclass(cls as Ctor);
    } catch (err) {
      this.onInternalError('grpc client class', err);
      return cls;
    }
  }

  /** `loadPackageDefinition`'s result: the client classes of wanted services replaced by ours. */
  private replaceLoadedClients(result: unknown, packageDef: unknown): void {
    try {
      if (!result || typeof result !== 'object' || !packageDef || typeof packageDef !== 'object')
        return;
      const names = Object.keys(packageDef);
      for (let i = 0; i < names.length && i < 4096; i++) {
        const fqn = names[i];
        if (!this.delegate?.wantsService(fqn)) continue;
        const parts = fqn.split('.');
        let holder = result as Record<string, unknown>;
        for (let j = 0; j < parts.length - 1 && holder; j++)
          holder = holder[parts[j]] as Record<string, unknown>;
        const last = parts[parts.length - 1];
        const cls = holder?.[last];
        if (typeof cls === 'function' && !(OUR_CLASS in cls))
          holder[last] = this.subclass(cls as Ctor);
      }
    } catch (err) {
      this.onInternalError('grpc loadPackageDefinition', err);
    }
  }

  private subclass(Base: Ctor): Ctor {
    const options = (address: unknown, o: unknown): unknown => this.clientOptions(address, o);
    const Sub = class extends Base {
      constructor(...args: unknown[]) {
        super(args[0], args[1], options(args[0], args[2]));
      }
    };
    Object.defineProperty(Sub, 'name', { value: Base.name, configurable: true });
    Object.defineProperty(Sub, OUR_CLASS, { value: true });
    return Sub as Ctor;
  }

  /** The client's options with our interceptor and call transformer added (a copy). */
  private clientOptions(address: unknown, options: unknown): unknown {
    try {
      const target = typeof address === 'string' ? address : '';
      const interceptor = this.interceptor(target);
      const o: Record<string, unknown> =
        options && typeof options === 'object' ? { ...(options as Record<string, unknown>) } : {};
      const providers = o['interceptor_providers'];
      if (Array.isArray(providers) && providers.length > 0) {
        o['interceptor_providers'] = [() => interceptor, ...(providers as unknown[])];
      } else {
        const list = Array.isArray(o['interceptors']) ? (o['interceptors'] as unknown[]) : [];
        o['interceptors'] = [interceptor, ...list];
      }
      const theirs = o['callInvocationTransformer'];
      o['callInvocationTransformer'] = (props: unknown): unknown => {
        const p = typeof theirs === 'function' ? (theirs as AnyFn)(props) : props;
        return withCallInterceptor(p, interceptor, this.onInternalError);
      };
      return o;
    } catch (err) {
      this.onInternalError('grpc client options', err);
      return options;
    }
  }

  /** The interceptor of one client (its channel target). */
  private interceptor(target: string): Interceptor {
    const interceptor: Interceptor = (options, nextCall) => {
      const next = nextCall(options);
      const delegate = this.delegate;
      if (delegate === undefined) return next;
      let observer: GrpcCallObserver | undefined;
      try {
        const md = options.method_definition;
        const path = md && typeof md.path === 'string' ? md.path : '';
        observer = delegate.onCall({
          path,
          responseStream: md?.responseStream === true,
          target,
          request: options[ARGUMENT],
        });
      } catch (err) {
        this.onInternalError('grpc onCall', err);
      }
      if (observer === undefined) return next;
      return new FollowedCall(next, observer, this.onInternalError);
    };
    Object.defineProperty(interceptor, OUR_INTERCEPTOR, { value: true });
    return interceptor;
  }
}

function markWrapper(wrapped: AnyFn, original: AnyFn): void {
  copyNameAndLength(original, wrapped);
  Object.defineProperty(wrapped, WRAPPED, { value: original });
}

/** A call's properties with our interceptor added to the call's own list, when it has one. */
function withCallInterceptor(
  props: unknown,
  interceptor: Interceptor,
  onInternalError: (where: string, err: unknown) => void,
): unknown {
  try {
    const p = props as { callOptions?: Record<string, unknown> };
    const co = p?.callOptions;
    if (!co || typeof co !== 'object') return props;
    // a copy: the app's call options object may be shared by all its calls
    const own: Record<string | symbol, unknown> = {
      ...co,
      [ARGUMENT]: (props as { argument?: unknown }).argument,
    };
    const list = co['interceptors'];
    const providers = co['interceptor_providers'];
    if (Array.isArray(providers) && providers.length > 0) {
      if (!providers.some((x) => OUR_INTERCEPTOR in Object(x))) {
        const provider = (): Interceptor => interceptor;
        Object.defineProperty(provider, OUR_INTERCEPTOR, { value: true });
        own['interceptor_providers'] = [provider, ...(providers as unknown[])];
      }
    } else if (Array.isArray(list) && list.length > 0) {
      if (!list.some((x) => OUR_INTERCEPTOR in Object(x)))
        own['interceptors'] = [interceptor, ...(list as unknown[])];
    }
    p.callOptions = own;
  } catch (err) {
    onInternalError('grpc call options', err);
  }
  return props;
}

/**
 * A followed call: grpc-js's InterceptingCallInterface over the next layer's call, handing the
 * observer what passes. Implemented here rather than with the app's copy's InterceptingCall
 * (the hook does not know which copy made the client).
 */
class FollowedCall implements NextCall {
  /** The app got its final status (ours or the call's): nothing more goes up. */
  private settled = false;
  /** The call below reported its final status (the observer is told once). */
  private statusSeen = false;

  constructor(
    private readonly next: NextCall,
    private readonly observer: GrpcCallObserver,
    private readonly onInternalError: (where: string, err: unknown) => void,
  ) {}

  cancelWithStatus(code: number, details: string): void {
    this.next.cancelWithStatus(code, details);
  }
  getPeer(): string {
    return this.next.getPeer();
  }
  getAuthContext(): unknown {
    return typeof this.next.getAuthContext === 'function' ? this.next.getAuthContext() : null;
  }
  startRead(): void {
    this.next.startRead();
  }
  halfClose(): void {
    this.next.halfClose();
  }
  sendMessage(message: unknown): void {
    this.sendMessageWithContext({}, message);
  }
  sendMessageWithContext(context: unknown, message: unknown): void {
    try {
      this.observer.onRequest?.(message);
    } catch (err) {
      this.onInternalError('grpc onRequest', err);
    }
    this.next.sendMessageWithContext(context, message);
  }

  start(metadata: unknown, listener: Listener | undefined): void {
    try {
      if (this.observer.onStart) this.observer.onStart(metadataCarrier(metadata));
    } catch (err) {
      this.onInternalError('grpc onStart', err);
    }
    const up: Listener = listener ?? {};
    this.next.start(metadata, {
      onReceiveMetadata: (md) => {
        if (!this.settled) up.onReceiveMetadata?.(md);
      },
      onReceiveMessage: (message) => {
        if (this.settled) return;
        let answer: GrpcStatusAnswer | undefined;
        try {
          answer = this.observer.onMessage?.(message);
        } catch (err) {
          this.onInternalError('grpc onMessage', err);
        }
        if (answer === undefined) {
          up.onReceiveMessage?.(message);
          return;
        }
        // enforce mode mid-call: the app gets our status, the call below is cancelled
        this.settled = true;
        up.onReceiveStatus?.({ ...answer, metadata: emptyMetadataLike(metadata) });
        this.next.cancelWithStatus(CANCELLED, 'ended by the A2A instrumentation');
      },
      onReceiveStatus: (status) => {
        if (this.statusSeen) return;
        this.statusSeen = true;
        let answer: ReturnType<NonNullable<GrpcCallObserver['onStatus']>>;
        try {
          answer = this.observer.onStatus?.(status);
        } catch (err) {
          this.onInternalError('grpc onStatus', err);
        }
        if (this.settled) return; // the app got our status already
        this.settled = true;
        if (answer === undefined) {
          up.onReceiveStatus?.(status);
        } else if (isPromise(answer)) {
          answer.then(
            (a) =>
              up.onReceiveStatus?.(a === undefined ? status : { ...a, metadata: status.metadata }),
            (err: unknown) => {
              this.onInternalError('grpc onStatus', err);
              up.onReceiveStatus?.(status);
            },
          );
        } else {
          up.onReceiveStatus?.({ ...answer, metadata: status.metadata });
        }
      },
    });
  }
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return (
    typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function'
  );
}

/** grpc-js Metadata seen through get/set of string values. */
function metadataCarrier(metadata: unknown): GrpcMetadataCarrier {
  const md = metadata as { get?: AnyFn; set?: AnyFn };
  return {
    get(name) {
      const v = typeof md?.get === 'function' ? md.get(name) : undefined;
      const first: unknown = Array.isArray(v) ? v[0] : undefined;
      return typeof first === 'string' ? first : undefined;
    },
    set(name, value) {
      if (typeof md?.set === 'function') md.set(name, value);
    },
  };
}

/** An empty Metadata of the app's copy (a clone of the request's, emptied), for our status. */
function emptyMetadataLike(metadata: unknown): unknown {
  try {
    const Ctor = (metadata as { constructor?: unknown })?.constructor;
    if (typeof Ctor === 'function') return new (Ctor as new () => unknown)();
  } catch {
    // fall through
  }
  return metadata;
}
