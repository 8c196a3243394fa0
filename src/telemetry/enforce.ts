/**
 * Enforce mode (`enforce: true`): the field report's guard, the one place the instrumentation changes
 * what the app sees. A non-streaming response is read whole (up to maxInspectBytes) and only
 * handed to the app if it showed no drift, else fetch rejects with the drift error; a stream is
 * passed through and errors at the chunk that completes the event showing drift. The rebuilt
 * Response keeps the original's status, headers, url, redirected flag and type.
 */
import type { UnderlyingByteSource } from 'node:stream/web';
import type { A2ACall } from './a2a-call';

/**
 * Enforce mode: the field report's guard. A non-streaming response is read whole and only
 * handed to the app if it showed no drift; a stream is passed through and errors at
 * the chunk that completes the event showing drift.
 */
export async function enforceResponse(
  call: A2ACall,
  response: Response,
  maxInspectBytes: number,
): Promise<Response> {
  if (!response.body) return response;
  const streaming =
    call.isStreaming || (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const reader = response.body.getReader();
  if (!streaming) {
    // Read the body whole, up to the inspection cap: past it nothing can be judged, so the
    // rest is passed through unbuffered (a byte stream: the buffered head, then the wire).
    const max = maxInspectBytes;
    const head: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      head.push(value);
      size += value.byteLength;
      if (size > max) return rebuildResponse(response, byteStream(head, reader, undefined));
    }
    // An answer whose words raised a suspicion: wait for the card fetched again (bounded).
    await call.pendingConfirmation;
    const drift = call.enforceableDrift;
    if (drift) throw drift.error;
    return rebuildResponse(response, Buffer.concat(head, size));
  }
  return rebuildResponse(response, byteStream([], reader, call));
}

/**
 * A byte stream (BYOB readers work, as on fetch's own body) that yields `head`, then what
 * `reader` yields. With `call`: errors with the drift error at the chunk that completes the
 * event showing drift (enforce mode on streams).
 */
function byteStream(
  head: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
  call: A2ACall | undefined,
): ReadableStream<Uint8Array> {
  let i = 0;
  const source: UnderlyingByteSource = {
    type: 'bytes',
    async pull(controller) {
      if (i < head.length) {
        controller.enqueue(head[i++]);
        return;
      }
      const { done, value } = await reader.read();
      if (call?.pendingConfirmation) await call.pendingConfirmation;
      const drift = call?.enforceableDrift;
      if (drift) {
        controller.error(drift.error);
        void reader.cancel(drift.error).catch(() => {});
        return;
      }
      if (done) {
        controller.close();
        controller.byobRequest?.respond(0);
      } else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  };
  return new ReadableStream(source) as ReadableStream<Uint8Array>;
}

/**
 * Responses rebuilt by enforce mode keep the original's `url`, `redirected` and `type`
 * (fetch's Response constructor cannot set them): getters on a prototype between the
 * object and Response.prototype, so they are not own properties, and `clone()` keeps them.
 */
interface Origin {
  url: string;
  redirected: boolean;
  type: Response['type'];
}
const ORIGIN = new WeakMap<object, Origin>();
let rebuiltPrototype: object | undefined;

function rebuiltProto(): object {
  if (rebuiltPrototype) return rebuiltPrototype;
  const base = globalThis.Response.prototype;
  const getter = (name: string): ((this: unknown) => unknown) | undefined =>
    Object.getOwnPropertyDescriptor(base, name)?.get;
  const own = (name: keyof Origin): PropertyDescriptor => {
    const original = getter(name);
    return {
      configurable: true,
      enumerable: true,
      get(this: object): unknown {
        const o = ORIGIN.get(this);
        return o !== undefined ? o[name] : original?.call(this);
      },
    };
  };
  const baseClone = base.clone;
  const proto: object = Object.create(base, {
    url: own('url'),
    redirected: own('redirected'),
    type: own('type'),
    clone: {
      configurable: true,
      writable: true,
      value: function clone(this: Response): Response {
        const copy = baseClone.call(this);
        const o = ORIGIN.get(this);
        if (o !== undefined) {
          Object.setPrototypeOf(copy, proto);
          ORIGIN.set(copy, o);
        }
        return copy;
      },
    },
  });
  rebuiltPrototype = proto;
  return proto;
}

/**
 * A Response with the same status, headers, url, redirected flag and type as `original`, over
 * `body`.
 */
function rebuildResponse(
  original: Response,
  body: ConstructorParameters<typeof Response>[0],
): Response {
  const rebuilt = new Response(body, {
    status: original.status,
    statusText: original.statusText,
    headers: original.headers,
  });
  ORIGIN.set(rebuilt, { url: original.url, redirected: original.redirected, type: original.type });
  Object.setPrototypeOf(rebuilt, rebuiltProto());
  return rebuilt;
}
