/**
 * The GET of this package's own card requests (confirming re-fetch, background revalidation):
 * made with node:http / node:https rather than fetch, because nothing of it may keep the process
 * alive. A fetch holds a ref'd undici socket until its answer or its timeout: an agent whose card
 * endpoint never answers kept an app that was done 5 s longer, and `shutdown()` could not end it.
 * Here the socket and the timeout timer are unref'd (a process with nothing else to do exits with
 * the request pending), and abortBackgroundRequests() ends every one in flight (disable, SDK
 * shutdown).
 *
 * Never redirected (the answer of a redirect is returned as it is), the body read (decoded) up to
 * a cap, never more: a chunked, compressed or endless body cannot grow memory. Only moves bytes.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

export interface BackgroundAnswer {
  status: number;
  /** Response headers, lower-case names (the first value of a repeated one). */
  headers: Record<string, string>;
  /** The body as UTF-8; undefined when it passed the cap or could not be decoded. */
  body?: string;
}

export interface BackgroundGetOptions {
  timeoutMs: number;
  maxBytes: number;
  /** https to this process's own server: its certificate is not checked (the peer is itself). */
  ownServer?: boolean;
}

/** The requests in flight: ended by abortBackgroundRequests. */
const inFlight = new Set<http.ClientRequest>();

/** Ends every background request in flight (their promises reject). */
export function abortBackgroundRequests(): void {
  for (const req of inFlight) req.destroy(new Error('background request aborted'));
  inFlight.clear();
}

/** Background requests in flight now (for tests). */
export function backgroundRequestsInFlight(): number {
  return inFlight.size;
}

/**
 * GET `url` with `headers`; rejects on a network error, the timeout, or an abort. Statuses are
 * answers, whatever they are (a 3xx, 4xx, 5xx resolves with its status and no body read).
 */
export function backgroundGet(
  url: string,
  headers: Record<string, string>,
  opts: BackgroundGetOptions,
): Promise<BackgroundAnswer> {
  return new Promise<BackgroundAnswer>((resolve, reject) => {
    let settled = false;
    const u = new URL(url);
    const lib = u.protocol === 'https:' ? https : u.protocol === 'http:' ? http : undefined;
    if (lib === undefined) {
      reject(new Error(`cannot fetch a ${u.protocol} URL`));
      return;
    }
    // agent: false: a socket of its own, never pooled (a pooled keep-alive socket is ref'd again
    // by the next user), closed with the answer
    const req = lib.request(u, {
      method: 'GET',
      headers,
      agent: false,
      ...(opts.ownServer === true ? { rejectUnauthorized: false } : {}),
    });
    const done = (err: Error | undefined, answer?: BackgroundAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      inFlight.delete(req);
      if (err !== undefined) {
        req.destroy();
        reject(err);
      } else resolve(answer as BackgroundAnswer);
    };
    const timer = setTimeout(
      () => done(new Error(`no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    timer.unref();
    inFlight.add(req);
    req.on('socket', (socket) => socket.unref());
    req.on('error', (err) => done(err));
    req.on('response', (res) => {
      // an answer cut (the socket destroyed: the cap, a timeout, an abort) errors the response;
      // never an unhandled 'error' in the app
      res.on('error', () => done(new Error('answer cut')));
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) h[k] = Array.isArray(v) ? (v[0] ?? '') : v;
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        req.destroy();
        done(undefined, { status, headers: h });
        return;
      }
      const length = Number(h['content-length'] ?? '0');
      if (length > opts.maxBytes) {
        req.destroy();
        done(undefined, { status, headers: h });
        return;
      }
      const encoding = (h['content-encoding'] ?? '').trim().toLowerCase();
      let stream: NodeJS.ReadableStream = res;
      if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
      else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
      else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
      else if (encoding !== '' && encoding !== 'identity') {
        req.destroy();
        done(undefined, { status, headers: h });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.byteLength;
        if (size > opts.maxBytes) {
          req.destroy();
          done(undefined, { status, headers: h });
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', () => done(undefined, { status, headers: h }));
      stream.on('end', () =>
        done(undefined, { status, headers: h, body: Buffer.concat(chunks, size).toString('utf8') }),
      );
      res.on('aborted', () => done(new Error('answer cut')));
    });
    req.end();
  });
}
