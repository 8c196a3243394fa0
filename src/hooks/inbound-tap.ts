/**
 * InboundTap: sees the requests the application's own HTTP servers receive (the task updates
 * agents push to the app's webhook; the A2A requests the app answers as an agent), the body bytes
 * of the ones a delegate follows, without changing what the app reads, and for those the response
 * as the app sends it: a header added just before its headers are sent, the bytes it writes (only
 * when asked), its end.
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
 * - The response of a followed request: `writeHead` is wrapped on THAT response object (Node's
 *   implicit headers, sent by the first `write` / `end`, go through `writeHead` too), asking the
 *   observer, inside the app's own async context, for headers to add before the original runs;
 *   a name the app set itself is left alone. `write` / `end` are wrapped only when the observer
 *   taps the body, each chunk reported (copied) before the original runs with the same
 *   arguments. `'finish'` / `'close'` tell the response's end. Nothing else of the response is
 *   touched: whatever framework serves it (express, Hono's node adapter, a bundled server), it
 *   goes through these methods of Node's `ServerResponse`.
 * - Not covered: HTTP/2 servers (`http2.Http2ServerRequest` is fed by the stream, not by
 *   `push`), and servers that are not Node's `http`/`https` (uWebSockets, …).
 *
 * Every delegate / observer call is wrapped in try/catch and reported via `onInternalError`;
 * nothing thrown reaches the server or the app.
 */
import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const HTTP_SERVER_REQUEST_START = 'http.server.request.start';

export interface InboundRequestInfo {
  method: string;
  /** The request line's target: path and query, e.g. `/webhook?x=1`. */
  target: string;
  /** Request header value by lower-case name (repeated headers joined as Node joins them). */
  header(name: string): string | undefined;
  /** The local port the connection came in on. */
  localPort: number | undefined;
  /** The local address the connection came in on (`127.0.0.1`, `::1`, …). */
  readonly localAddress: string | undefined;
  /** The connection is TLS (an `https` server). */
  readonly encrypted: boolean;
}

export interface InboundObserver {
  /** A chunk of the raw body (content encoding not decoded). Do not mutate it. */
  onBody?(chunk: Buffer): void;
  /** The body ended; `complete` false when the request was cut short. */
  onEnd?(complete: boolean): void;
  /**
   * Asked once, just before the response's headers are sent (inside the app's async context, so
   * `context.active()` is the handler's): headers to add. Never asked when the app never answers.
   */
  responseHeaders?(statusCode: number): Record<string, string> | undefined;
  /** Hand the response body bytes the app writes to `onResponseBody` (copies). */
  readonly tapResponse?: boolean;
  onResponseBody?(chunk: Buffer): void;
  /**
   * The response ended: `finished` when all of it was handed to the OS, false when the connection
   * closed first. `header` reads the response's headers as sent.
   */
  onResponseEnd?(
    statusCode: number,
    finished: boolean,
    header: (name: string) => string | undefined,
  ): void;
}

export interface InboundTapDelegate {
  onRequest(info: InboundRequestInfo): InboundObserver | undefined;
}

interface StartMessage {
  request?: IncomingMessage;
  response?: ServerResponse;
  socket?: { localPort?: number; localAddress?: string; encrypted?: boolean };
}

type AnyFn = (...args: unknown[]) => unknown;

type PushFn = (chunk: unknown, encoding?: BufferEncoding) => boolean;

export class InboundTap {
  private subscribed = false;
  private readonly onStart = (message: unknown): void => this.start(message as StartMessage);

  /** `delegates` are asked in turn; the first to return an observer follows the request. */
  constructor(
    private readonly delegates: readonly InboundTapDelegate[],
    private readonly onInternalError: (where: string, err: unknown) => void,
  ) {}

  enable(): void {
    if (this.subscribed) return;
    diagnosticsChannel.subscribe(HTTP_SERVER_REQUEST_START, this.onStart);
    this.subscribed = true;
  }

  disable(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    try {
      diagnosticsChannel.unsubscribe(HTTP_SERVER_REQUEST_START, this.onStart);
    } catch (err) {
      this.onInternalError('unsubscribe', err);
    }
  }

  private start(message: StartMessage): void {
    let observer: InboundObserver | undefined;
    const req = message?.request;
    try {
      if (!req || typeof req.push !== 'function') return;
      const info: InboundRequestInfo = {
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
        get localAddress() {
          return message.socket?.localAddress ?? req.socket?.localAddress;
        },
        get encrypted() {
          const socket = (message.socket ?? req.socket) as { encrypted?: boolean } | undefined;
          return socket?.encrypted === true;
        },
      };
      for (const delegate of this.delegates) {
        observer = delegate.onRequest(info);
        if (observer !== undefined) break;
      }
    } catch (err) {
      this.onInternalError('onRequest', err);
      return;
    }
    if (!observer || !req) return;
    if (observer.onBody !== undefined || observer.onEnd !== undefined) this.follow(req, observer);
    const res = message.response;
    if (
      res !== undefined &&
      (observer.responseHeaders !== undefined ||
        observer.tapResponse === true ||
        observer.onResponseEnd !== undefined)
    )
      this.followResponse(res, observer);
  }

  private followResponse(res: ServerResponse, observer: InboundObserver): void {
    const onInternalError = this.onInternalError;
    try {
      if (observer.responseHeaders !== undefined) {
        const original = res.writeHead as unknown as AnyFn;
        let asked = false;
        const writeHead = function (this: ServerResponse, statusCode: unknown) {
          if (!asked) {
            asked = true;
            try {
              const add = observer.responseHeaders!(
                typeof statusCode === 'number' ? statusCode : this.statusCode,
              );
              if (add !== undefined && !this.headersSent)
                for (const name of Object.keys(add))
                  if (!this.hasHeader(name)) this.setHeader(name, add[name]!);
            } catch (err) {
              onInternalError('responseHeaders', err);
            }
          }
          // eslint-disable-next-line prefer-rest-params -- the same arguments, whatever they are
          return Reflect.apply(original, this, arguments);
        };
        ownMethod(res, 'writeHead', writeHead);
      }
      if (observer.tapResponse === true) {
        for (const name of ['write', 'end'] as const) {
          const original = res[name] as unknown as AnyFn;
          const tapped = function (this: ServerResponse, chunk: unknown, encoding: unknown) {
            try {
              if (typeof chunk === 'string')
                observer.onResponseBody?.(
                  Buffer.from(
                    chunk,
                    typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8',
                  ),
                );
              else if (chunk instanceof Uint8Array) observer.onResponseBody?.(Buffer.from(chunk));
            } catch (err) {
              onInternalError('onResponseBody', err);
            }
            // eslint-disable-next-line prefer-rest-params -- the same arguments, whatever they are
            return Reflect.apply(original, this, arguments);
          };
          ownMethod(res, name, tapped);
        }
      }
      if (observer.onResponseEnd !== undefined) {
        let ended = false;
        const end = (finished: boolean): void => {
          if (ended) return;
          ended = true;
          try {
            observer.onResponseEnd!(res.statusCode, finished, (name) => {
              const v = res.getHeader(name);
              return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v);
            });
          } catch (err) {
            onInternalError('onResponseEnd', err);
          }
        };
        res.once('finish', () => end(true));
        res.once('close', () => end(false));
      }
    } catch (err) {
      onInternalError('followResponse', err);
    }
  }

  private follow(req: IncomingMessage, observer: InboundObserver): void {
    const onInternalError = this.onInternalError;
    const original = req.push as PushFn;
    let ended = false;
    const end = (complete: boolean): void => {
      if (ended) return;
      ended = true;
      try {
        observer.onEnd?.(complete);
      } catch (err) {
        onInternalError('onEnd', err);
      }
    };
    const push: PushFn = function (this: IncomingMessage, chunk, _encoding) {
      if (!ended) {
        try {
          if (chunk === null) end(true);
          else if (Buffer.isBuffer(chunk)) observer.onBody?.(chunk);
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

/** A wrapper set on THIS object only (an own property): the class and other objects untouched. */
function ownMethod(target: object, name: string, fn: AnyFn): void {
  Object.defineProperty(target, name, {
    value: fn,
    configurable: true,
    writable: true,
    enumerable: false,
  });
}
