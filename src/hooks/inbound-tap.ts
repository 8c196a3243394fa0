/**
 * InboundTap: sees the requests the application's own HTTP servers receive (the task
 * updates agents push to the app's webhook), and the body bytes of the ones the delegate
 * follows, without changing what the app reads.
 *
 * How it works
 * - Node publishes `http.server.request.start` (`{request, response, socket, server}`)
 *   synchronously when a request's headers are parsed, before the server emits `'request'`,
 *   so before any body byte reaches the request stream. The delegate sees method, target,
 *   headers and local port, and returns an observer to follow the request, or undefined (the
 *   common case: one call, nothing kept).
 * - A followed request's `push` is wrapped on THAT request object (an own property): Node's
 *   HTTP parser hands each body chunk to `stream.push(chunk)` and the end to `push(null)`. The
 *   wrapper reports the chunk, then calls the original with the same arguments and returns its
 *   result (the parser's backpressure). Whether, when and how the app reads (`'data'`,
 *   `for await`, a body parser, reading late, never) is unchanged: no `'data'` / `'readable'`
 *   listener is ever added (one would switch the stream to flowing mode and lose the bytes of
 *   an app that reads late). A `'close'` listener tells a body cut short.
 * - An app that never reads a body larger than the stream's buffer stops the parser (Node's
 *   backpressure): the observer then sees no end and is dropped at `'close'`.
 * - Not covered: HTTP/2 servers (`http2.Http2ServerRequest` is fed by the stream, not by
 *   `push`), and servers that are not Node's `http`/`https` (uWebSockets, …).
 *
 * Every delegate / observer call is wrapped in try/catch and reported via `onInternalError`;
 * nothing thrown reaches the server or the app.
 */
import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

export const HTTP_SERVER_REQUEST_START = 'http.server.request.start';

export interface InboundRequestInfo {
  method: string;
  /** The request line's target: path and query, e.g. `/webhook?x=1`. */
  target: string;
  /** Request header value by lower-case name (repeated headers joined as Node joins them). */
  header(name: string): string | undefined;
  /** The local port the connection came in on. */
  localPort: number | undefined;
}

export interface InboundObserver {
  /** A chunk of the raw body (content encoding not decoded). Do not mutate it. */
  onBody(chunk: Buffer): void;
  /** The body ended; `complete` false when the request was cut short. */
  onEnd(complete: boolean): void;
}

export interface InboundTapDelegate {
  onRequest(info: InboundRequestInfo): InboundObserver | undefined;
}

interface StartMessage {
  request?: IncomingMessage;
  socket?: { localPort?: number };
}

type PushFn = (chunk: unknown, encoding?: BufferEncoding) => boolean;

export class InboundTap {
  #subscribed = false;
  readonly #onStart = (message: unknown): void => this.#start(message as StartMessage);

  constructor(
    private readonly delegate: InboundTapDelegate,
    private readonly onInternalError: (where: string, err: unknown) => void,
  ) {}

  enable(): void {
    if (this.#subscribed) return;
    diagnosticsChannel.subscribe(HTTP_SERVER_REQUEST_START, this.#onStart);
    this.#subscribed = true;
  }

  disable(): void {
    if (!this.#subscribed) return;
    this.#subscribed = false;
    try {
      diagnosticsChannel.unsubscribe(HTTP_SERVER_REQUEST_START, this.#onStart);
    } catch (err) {
      this.onInternalError('unsubscribe', err);
    }
  }

  #start(message: StartMessage): void {
    let observer: InboundObserver | undefined;
    const req = message?.request;
    try {
      if (!req || typeof req.push !== 'function') return;
      observer = this.delegate.onRequest({
        method: req.method ?? '',
        target: req.url ?? '',
        // read only when asked: Node builds `headers` lazily, and most requests are never asked
        header: (name) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        get localPort() {
          return message.socket?.localPort ?? req.socket?.localPort;
        },
      });
    } catch (err) {
      this.onInternalError('onRequest', err);
      return;
    }
    if (!observer || !req) return;
    this.#follow(req, observer);
  }

  #follow(req: IncomingMessage, observer: InboundObserver): void {
    const onInternalError = this.onInternalError;
    const original = req.push as PushFn;
    let ended = false;
    const end = (complete: boolean): void => {
      if (ended) return;
      ended = true;
      try {
        observer.onEnd(complete);
      } catch (err) {
        onInternalError('onEnd', err);
      }
    };
    const push: PushFn = function (this: IncomingMessage, chunk, _encoding) {
      if (!ended) {
        try {
          if (chunk === null) end(true);
          else if (Buffer.isBuffer(chunk)) observer.onBody(chunk);
        } catch (err) {
          onInternalError('onBody', err);
        }
      }
      // eslint-disable-next-line prefer-rest-params -- the same arguments, whatever they are
      return Reflect.apply(original, this, arguments) as boolean;
    };
    try {
      Object.defineProperty(req, 'push', {
        value: push,
        configurable: true,
        writable: true,
        enumerable: false,
      });
      req.once('close', () => end(false));
    } catch (err) {
      onInternalError('follow', err);
    }
  }
}
