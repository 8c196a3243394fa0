/**
 * The global fetch hook: replaces globalThis.fetch with a thin wrapper that hands each
 * call to the instrumentation (which may make a span active around it) and restores the
 * original on uninstall. It never reads the response.
 *
 * Invisible to the application:
 * - The wrapper has the original's `name`, `length` and own property keys (`prototype`
 *   only if the original has one); the original is kept in a closure, not on the wrapper.
 * - `init` is read by the handler and again by the original fetch. A plain `init` object
 *   (prototype `Object.prototype` or null) whose keys the handler reads are data properties
 *   is passed as is: reading a data property is unobservable. Any other `init` (accessors, a
 *   class instance, a Proxy) is passed, to the handler and to the original alike, as a
 *   memoising Proxy: each property is read from the real `init` at most once and a throwing
 *   getter throws the same error again on later reads, so the original fetch rejects with it
 *   just as it would without us.
 * - A synchronous throw from the handler becomes a rejected promise, as native fetch (an
 *   async function) would give.
 */
import { types } from 'node:util';
import { copyNameAndLength } from './look-alike';

export type FetchFn = typeof globalThis.fetch;
type FetchInput = Parameters<FetchFn>[0];
type FetchInit = Parameters<FetchFn>[1];
export type FetchHandler = (
  original: FetchFn,
  input: FetchInput,
  init: FetchInit,
) => ReturnType<FetchFn>;

/** The `init` keys the instrumentation's handler reads. */
const HANDLER_KEYS = ['body', 'headers', 'method', 'redirect'] as const;

const { getPrototypeOf, getOwnPropertyDescriptor } = Object;
const objectProto = Object.prototype;

/** True when reading the handler's keys of `init` runs no application code. */
function isInertInit(init: object): boolean {
  if (types.isProxy(init)) return false;
  const proto = getPrototypeOf(init) as unknown;
  if (proto !== objectProto && proto !== null) return false;
  for (const key of HANDLER_KEYS) {
    const d = getOwnPropertyDescriptor(init, key);
    if (d !== undefined && d.get !== undefined) return false; // (a setter-only accessor reads as undefined)
  }
  return true;
}

interface Memo {
  readonly threw: boolean;
  readonly value: unknown;
}

/** A Proxy over `init` whose first read of a key is remembered (value or thrown error). */
function memoisingInit<T extends object>(init: T): T {
  const memo = new Map<PropertyKey, Memo>();
  return new Proxy(init, {
    get(target, key): unknown {
      let m = memo.get(key);
      if (m === undefined) {
        try {
          m = { threw: false, value: Reflect.get(target, key) };
        } catch (err) {
          m = { threw: true, value: err };
        }
        memo.set(key, m);
      }
      if (m.threw) throw m.value;
      return m.value;
    },
  });
}

/** `init` as the handler and the original fetch should see it (see the file comment). */
function readOnceInit(init: FetchInit): FetchInit {
  if (init === null || typeof init !== 'object') return init;
  return isInertInit(init) ? init : memoisingInit(init);
}

/** A function shaped like `original` (name, length, prototype or not) that calls `body`. */
function lookAlike(
  original: FetchFn,
  body: (input: FetchInput, init: FetchInit) => ReturnType<FetchFn>,
): FetchFn {
  let wrapper: FetchFn;
  if (Object.prototype.hasOwnProperty.call(original, 'prototype')) {
    wrapper = function fetch(input: FetchInput, init?: FetchInit): ReturnType<FetchFn> {
      return body(input, init);
    } as FetchFn;
  } else {
    // A method has no `prototype` own property.
    wrapper = {
      fetch(input: FetchInput, init?: FetchInit): ReturnType<FetchFn> {
        return body(input, init);
      },
    }.fetch as FetchFn;
  }
  copyNameAndLength(original, wrapper);
  return wrapper;
}

export class FetchHook {
  private original: FetchFn | undefined;
  private wrapper: FetchFn | undefined;

  constructor(private readonly handler: FetchHandler) {}

  install(): void {
    if (this.wrapper || typeof globalThis.fetch !== 'function') return;
    const original = globalThis.fetch;
    const handler = this.handler;
    const wrapper = lookAlike(original, (input, init) => {
      try {
        return handler(original, input, init === undefined ? init : readOnceInit(init));
      } catch (err) {
        return Promise.reject(err);
      }
    });
    this.original = original;
    this.wrapper = wrapper;
    globalThis.fetch = wrapper;
  }

  /**
   * Restores the original fetch, unless someone wrapped ours since (then ours stays and passes
   * through).
   */
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
