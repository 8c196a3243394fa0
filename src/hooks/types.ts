/**
 * The contract between the hooks (which only move bytes) and the instrumentation.
 * Hooks call these synchronously as bytes pass; every call is made inside a try/catch
 * by the hook, so a throwing observer can never reach the application.
 */

/** What is known of an undici request when it is created. */
export interface WireRequestInfo {
  /** `GET`, `POST`, ... */
  method: string;
  /** `http://127.0.0.1:1234` */
  origin: string;
  /** Path and query, e.g. `/a2a?x=1`. */
  path: string;
  /**
   * The request body when undici holds it whole at creation (string or bytes); undefined when
   * streamed or absent.
   */
  body?: Uint8Array | string;
  /**
   * Request header value by lower-case name: what is on the request now, including headers
   * added by earlier create subscribers.
   */
  header(name: string): string | undefined;
  /** The names of the request's headers now, lower case. */
  headerNames(): string[];
  /**
   * Adds headers to the request (e.g. trace propagation), as instrumentation-undici does. Call it
   * only inside `onCreate`. Yields to later adders: if a create subscriber that runs after ours
   * adds one of these names through `request.addHeader`, our entry is removed, so the request
   * carries one. Never throws: a header undici refuses (invalid name or value) is skipped and
   * reported as an internal error.
   */
  addHeaders(headers: Record<string, string>): void;
}

/**
 * Per-exchange observer. Each hop of a redirect is its own undici request and gets its own
 * onCreate.
 */
export interface WireObserver {
  /** A chunk of the request body as it is sent (only when the body was not whole at creation). */
  onRequestBody?(chunk: Uint8Array): void;
  /** Response status and headers (names lower-case; repeated headers joined with `, `). */
  onResponseHeaders?(statusCode: number, headers: Record<string, string>): void;
  /**
   * A chunk of the raw response body as received (transfer encoding removed, content encoding not).
   */
  onResponseBody?(chunk: Uint8Array): void;
  /** The response ended normally (undici `trailers`). */
  onComplete?(): void;
  /** The request failed or was aborted (undici `error`). */
  onError?(error: unknown): void;
}

export interface WireTapDelegate {
  /**
   * The response headers onResponseHeaders needs (lower-case); the others are skipped undecoded.
   * Default: all.
   */
  responseHeaderNames?: readonly string[];
  /**
   * Called synchronously when undici creates a request (inside the caller's `fetch()` /
   * `request()` call, so the caller's async context is active). Return an observer to
   * follow this request, or undefined to ignore it at no further cost.
   */
  onCreate(info: WireRequestInfo): WireObserver | undefined;
}
