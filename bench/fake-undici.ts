/**
 * undici as the instrumentations see it, without the network: a request shaped like undici 6's
 * `Request` as far as the wire tap and instrumentation-undici read it, and one exchange
 * published on undici's diagnostics channels (create, headers, the body through `onData`,
 * trailers) exactly as undici publishes a real one. Used by bench/own-work.ts (row 7) and
 * bench/registry-memory.ts (row 5).
 */
import * as dc from 'node:diagnostics_channel';

export class FakeUndiciRequest {
  constructor(
    readonly method: string,
    readonly origin: string,
    readonly path: string,
    readonly body: string | undefined,
    public headers: string[],
  ) {}
  addHeader(key: string, value: string): this {
    this.headers.push(key, value);
    return this;
  }
  onData(_chunk: Buffer): boolean {
    return true;
  }
}

const create = dc.channel('undici:request:create');
const headersCh = dc.channel('undici:request:headers');
const trailersCh = dc.channel('undici:request:trailers');

/**
 * Publishes `request`'s creation, a response with `statusCode` and `responseHeaders` (raw
 * name/value pairs), its body `chunks`, and its end.
 */
export function publishExchange(
  request: FakeUndiciRequest,
  statusCode: number,
  responseHeaders: Buffer[],
  chunks: readonly Buffer[],
): void {
  create.publish({ request });
  headersCh.publish({
    request,
    response: { statusCode, headers: responseHeaders, statusText: 'OK' },
  });
  for (const c of chunks) request.onData(c);
  trailersCh.publish({ request, trailers: [] });
}

/**
 * The same exchange with each body chunk in its own turn of the event loop, `gapMs` apart (a
 * paced stream: a language model's words); resolves after the trailers.
 */
export async function publishExchangePaced(
  request: FakeUndiciRequest,
  statusCode: number,
  responseHeaders: Buffer[],
  chunks: readonly Buffer[],
  gapMs = 1,
): Promise<void> {
  create.publish({ request });
  headersCh.publish({
    request,
    response: { statusCode, headers: responseHeaders, statusText: 'OK' },
  });
  for (const c of chunks) {
    // gapMs 0: the next turn at once (setImmediate), no idle time between chunks
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    else await new Promise((r) => setImmediate(r));
    request.onData(c);
  }
  trailersCh.publish({ request, trailers: [] });
}
