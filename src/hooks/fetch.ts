/**
 * The global fetch hook: replaces globalThis.fetch with a thin wrapper that hands each
 * call to the instrumentation (which may make a span active around it) and restores the
 * original on uninstall. It never reads the response.
 */
export type FetchFn = typeof globalThis.fetch;
export type FetchHandler = (original: FetchFn, input: Parameters<FetchFn>[0], init: Parameters<FetchFn>[1]) => ReturnType<FetchFn>;

const WRAPPED = Symbol.for('opentelemetry-instrumentation-a2a.fetch-original');

export class FetchHook {
  private original: FetchFn | undefined;
  private wrapper: FetchFn | undefined;

  constructor(private readonly handler: FetchHandler) {}

  install(): void {
    if (this.wrapper || typeof globalThis.fetch !== 'function') return;
    const original = globalThis.fetch;
    const handler = this.handler;
    const wrapper = function fetch(input: Parameters<FetchFn>[0], init?: Parameters<FetchFn>[1]): ReturnType<FetchFn> {
      return handler(original, input, init);
    } as FetchFn;
    Object.defineProperty(wrapper, WRAPPED, { value: original });
    this.original = original;
    this.wrapper = wrapper;
    globalThis.fetch = wrapper;
  }

  /** Restores the original fetch, unless someone wrapped ours since (then ours stays and passes through). */
  uninstall(): void {
    if (!this.wrapper) return;
    if (globalThis.fetch === this.wrapper && this.original) globalThis.fetch = this.original;
    this.wrapper = undefined;
    this.original = undefined;
  }

  /** The fetch that was global before install (for the instrumentation's own untraced requests). */
  get originalFetch(): FetchFn | undefined {
    return this.original;
  }

  get installed(): boolean {
    return this.wrapper !== undefined;
  }
}
