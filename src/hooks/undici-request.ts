/**
 * undici's internal `Request` object, whichever copy and version (5, 6, 7) built it: the fields
 * the tap reads, its body chunks as bytes, and its methods wrapped (once on the copy's `Request`
 * prototype, or on the object itself when it has its own) so a tap sees what they are handed.
 */
import { copyNameAndLength } from './look-alike';

/** The subset of undici's (any version) `Request` object we read. */
export interface UndiciRequestLike {
  method?: unknown;
  origin?: unknown;
  path?: unknown;
  body?: unknown;
  headers?: unknown;
  host?: unknown;
  contentLength?: unknown;
  constructor?: unknown;
  [method: string]: unknown;
}

export function isBytes(v: unknown): v is Uint8Array {
  return v instanceof Uint8Array; // Buffer included
}

export function toBytes(chunk: unknown): Uint8Array | undefined {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (ArrayBuffer.isView(chunk))
    return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  return undefined;
}

export function originString(origin: unknown): string {
  if (typeof origin === 'string') {
    // undici passes `url.origin`-like strings; tolerate a trailing slash.
    return origin.length > 1 && origin.endsWith('/') ? origin.slice(0, -1) : origin;
  }
  if (origin && typeof origin === 'object') {
    const o = (origin as { origin?: unknown }).origin;
    if (typeof o === 'string') return o;
    return String(origin);
  }
  return '';
}

/** Makes the wrapper of a request method from the original (the wrapper finds its state from `this`). */
type MakeWrapper = (
  original: (this: unknown, ...args: unknown[]) => unknown,
) => (this: object, ...args: unknown[]) => unknown;

/**
 * Wraps `name` once on the prototype of `request` (undici's internal `Request` class of that
 * copy) when the method lives there and the request has no own one; returns false when it
 * cannot (the caller then wraps the request's own property). Why the prototype: an own
 * property added to each request object gives undici's objects a second hidden class, and
 * undici's hot paths then run polymorphic (measured: ~5 % more client CPU per SendMessage on
 * Node 20). The wrapper is a pass-through for requests nobody follows (one WeakMap lookup).
 * Installed once per copy and method; it stays installed (a pass-through) after disable().
 */
function wrapOnPrototype(
  request: UndiciRequestLike,
  name: string,
  makeWrapper: MakeWrapper,
): boolean {
  if (Object.prototype.hasOwnProperty.call(request, name)) return false;
  const proto = Object.getPrototypeOf(request) as Record<string, unknown> | null;
  if (proto === null || proto === Object.prototype) return false;
  let done = prototypeWrapped.get(proto);
  if (done?.has(name)) return true;
  const d = Object.getOwnPropertyDescriptor(proto, name);
  if (d === undefined || typeof d.value !== 'function' || !d.writable) return false;
  const original = d.value as (this: unknown, ...args: unknown[]) => unknown;
  const wrapper = makeWrapper(original);
  copyNameAndLength(original, wrapper);
  proto[name] = wrapper;
  if (done === undefined) {
    done = new Set();
    prototypeWrapped.set(proto, done);
  }
  done.add(name);
  return true;
}

/** Per undici `Request` prototype: the method names wrapped there. */
const prototypeWrapped = new WeakMap<object, Set<string>>();

/** The wrappers wrapMethod put on request objects' own properties. */
const ownWrappers = new WeakSet<object>();

/**
 * Wraps method `name` of `request` so that `makeWrapper`'s wrapper runs for it: on its
 * prototype when possible (wrapOnPrototype), else on the request's own property (once: a
 * request already carrying our wrapper keeps it). The wrapper finds its state from `this`, so
 * one wrapper serves every tap and both places. False when there is no such method.
 */
export function wrapMethod(
  request: UndiciRequestLike,
  name: string,
  makeWrapper: MakeWrapper,
): boolean {
  if (wrapOnPrototype(request, name, makeWrapper)) return true;
  const current = request[name];
  if (typeof current !== 'function') return false;
  if (ownWrappers.has(current)) return true;
  const wrapper = makeWrapper(current as (this: unknown, ...args: unknown[]) => unknown);
  ownWrappers.add(wrapper);
  request[name] = wrapper;
  return true;
}
