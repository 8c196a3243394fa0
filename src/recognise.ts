/**
 * Recognising A2A calls among the host application's requests, and starting their calls:
 *
 * - at the fetch wrapper, from fetch's arguments (URL, method, a whole body, the A2A-Version
 *   header): `fetchCall`;
 * - at undici's request creation for requests no wrapped fetch claimed (undici.request,
 *   undici.fetch, ...): `wireRequest`, which also watches the requests that can only be told
 *   later — a JSON body streamed after creation (`deferredObserver`, decided at the response
 *   headers) and a GET whose path only hints at an Agent Card (`cardSniffer`, decided by its
 *   answer).
 *
 * Classification itself is the core's (`core/classify.ts`); this file applies the config
 * (ignored URLs, body cap, skill-id paths) and the registry (REST task paths count at an endpoint
 * a fetched card advertises).
 */
import { context, type Context } from '@opentelemetry/api';
import { BodyReader } from './core/body-reader';
import { isAgentCard } from './core/card';
import { requestCarriesCredentials } from './core/credentials';
import { classifyRequest, type ClassifyOptions } from './core/classify';
import type { Classification, DecodedRequest } from './core/model';
import { requestExtensions } from './core/protocol/common';
import { withJsonRpcVersionHeader } from './core/protocol/jsonrpc';
import { isIgnoredUrl, type ResolvedConfig } from './config';
import {
  bodyText,
  headerFromInit,
  headerNamesFromInit,
  originAndPath,
  startsLikeJsonObject,
  type FetchInit,
  type FetchInput,
} from './fetch-arguments';
import type { WireObserver, WireRequestInfo } from './hooks/types';
import type { A2ACall } from './telemetry/a2a-call';
import type { CallTarget } from './telemetry/call-judgement';
import { MAX_CARD_BYTES } from './telemetry/card-refetch';
import { followHop, wireParent } from './telemetry/propagation';
import { sharedState } from './telemetry/shared-state';

/** fetchCall's answer when the URL and body say the request is not A2A. */
export const NOT_A2A = Symbol('not-a2a');

/** Starts an A2A call (the instrumentation's: it tracks the calls it made). */
export type NewCall = (
  target: CallTarget,
  url: string,
  parent: Context,
  startTime?: number,
) => A2ACall;

export class Recogniser {
  /** classifyRequest options without a version header, reused while the config is the same. */
  private classifyOptions: ClassifyOptions | undefined;

  constructor(
    private readonly config: () => ResolvedConfig,
    private readonly newCall: NewCall,
  ) {}

  /**
   * An A2ACall for a fetch() about to run, NOT_A2A when the URL and body say it is not A2A,
   * undefined when only the wire can tell (streamed body).
   */
  fetchCall(input: FetchInput, init: FetchInit): A2ACall | typeof NOT_A2A | undefined {
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
      initBody !== undefined ? bodyText(initBody, this.config().maxRequestBodyBytes) : undefined;
    if (method !== 'GET' && body === undefined) return undefined; // a streamed body: the wire tap decides when it has seen it
    const cls = this.classifyLazily(method, url, body, () => headerFromInit(init, 'a2a-version'));
    if (!cls) return NOT_A2A;
    if (cls.type === 'maybe-operation') return undefined;
    if (cls.type === 'card' && cls.sniff === true) return undefined; // a card only if its answer is one: the wire tap sniffs it
    const credentials =
      cls.type === 'card' && requestCarriesCredentials(url, headerNamesFromInit(init, request));
    if (cls.type === 'operation')
      withExtensions(
        cls.request,
        headerFromInit(init, 'a2a-extensions') ??
          request?.headers.get('a2a-extensions') ??
          undefined,
        headerFromInit(init, 'x-a2a-extensions') ??
          request?.headers.get('x-a2a-extensions') ??
          undefined,
      );
    const call = this.newCall(callTarget(cls, credentials), url, context.active());
    call.followsRedirects = (init?.redirect ?? request?.redirect ?? 'follow') === 'follow';
    return call;
  }

  /**
   * An undici request no wrapped fetch claimed: the observer of its A2A call (which then has
   * started), of a request still to be told (streamed JSON body, a path that may answer a
   * card), or undefined when it is not A2A.
   */
  wireRequest(info: WireRequestInfo, ctx: Context): WireObserver | undefined {
    const url = info.origin + info.path;
    const method = info.method.toUpperCase();
    const body = bodyText(info.body, this.config().maxRequestBodyBytes);
    if (method !== 'GET' && body === undefined) {
      // A body not whole at creation (fetch bodies never are): decide once it has been sent.
      if (info.body !== undefined || method !== 'POST') return undefined;
      return this.deferredObserver(url, method, ctx, info.header('a2a-version'), [
        info.header('a2a-extensions'),
        info.header('x-a2a-extensions'),
      ]);
    }
    const cls = this.classifyLazily(method, url, body, () => info.header('a2a-version'));
    if (!cls || cls.type === 'maybe-operation') return undefined;
    const credentials = cls.type === 'card' && requestCarriesCredentials(url, info.headerNames());
    if (cls.type === 'card' && cls.sniff === true) return this.cardSniffer(url, ctx, credentials);
    if (cls.type === 'operation')
      withExtensions(cls.request, info.header('a2a-extensions'), info.header('x-a2a-extensions'));
    const parent = wireParent(info, ctx);
    return followHop(this.newCall(callTarget(cls, credentials), url, parent), info, parent);
  }

  private classify(
    method: string,
    url: string,
    body: string | undefined,
    versionHeader: string | undefined,
  ): Classification {
    const cfg = this.config();
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
    // REST paths common outside A2A (GET …/tasks/{id}; the 0.3 extended card GET …/v1/card,
    // which is otherwise only sniffed) count only at an endpoint a fetched card advertises.
    if (
      versionHeader === undefined &&
      (cls === undefined
        ? url.includes('/tasks')
        : cls.type === 'card' && cls.sniff === true && url.includes('/v1/card')) &&
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

  /**
   * A GET whose path only hints at an Agent Card (`…/agent/card`, `…/agent.json` outside
   * `.well-known`): its JSON answer is kept (capped) and, if it is an Agent Card
   * (`isAgentCard`), replayed into a GetAgentCard call that starts when the request did.
   * Anything else gets no span and costs only the copy of a small JSON body. `credentials`: the
   * request carried the app's credentials (the card keeps the mark as any card fetch does).
   */
  private cardSniffer(url: string, parent: Context, credentials: boolean): WireObserver {
    const startTime = Date.now();
    const max = Math.min(this.config().maxInspectBytes, MAX_CARD_BYTES);
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
          credentials
            ? { type: 'card', sniffed: true, credentials }
            : { type: 'card', sniffed: true },
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
    extensionHeaders: ReadonlyArray<string | undefined> = [],
  ): WireObserver {
    const startTime = Date.now();
    const max = this.config().maxRequestBodyBytes;
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
        withExtensions(cls.request, ...extensionHeaders);
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

/** Records the A2A extensions the call's headers activate on its decoded request. */
function withExtensions(req: DecodedRequest, ...headers: Array<string | undefined>): void {
  const list = requestExtensions(...headers);
  if (list !== undefined) req.extensions = list;
}

function callTarget(
  cls: Extract<Classification, { type: 'card' } | { type: 'operation' }>,
  credentials = false,
): CallTarget {
  if (cls.type === 'operation') return { type: 'operation', request: cls.request };
  const target: CallTarget = cls.extended ? { type: 'card', extended: true } : { type: 'card' };
  if (credentials) target.credentials = true;
  return target;
}
