/**
 * Whether a card request carried the application's credentials: a card so fetched is never
 * fetched again by the package (it would have to replay them, or would get another card without
 * them). Decided by what is harmless, not by a list of known secrets: anything a plain card fetch
 * does not need counts as a credential. Pure, total (never throws).
 *
 * - Request headers: only those a card fetch needs, or that transport, caching and trace context
 *   add, are harmless (HARMLESS_HEADERS, and `sec-fetch-*`, which fetch adds itself, and other
 *   tracers' context headers); any other
 *   header (Authorization, Cookie, X-API-Key, a gateway's own `X-Tenant-Token`, ...) is a
 *   credential.
 * - The URL: userinfo (`https://user:pass@host/`) is a credential, and so is a query parameter
 *   whose name suggests a secret: it contains `key`, `token`, `sig`, `secret`, `password`,
 *   `passwd`, `auth`, `code`, `credential`, `session` or `jwt` (any case), or starts with
 *   `x-amz-` or `x-goog-` (signed URLs). Other parameters (`?assistant_id=`, `?agent=`) are
 *   harmless: an agent picked by its query is still revalidated.
 */

/** Request headers a card fetch may carry that give nothing away. */
const HARMLESS_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'a2a-version',
  'a2a-extensions',
  // conditional requests
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
  'if-range',
  'cache-control',
  'pragma',
  // trace context
  'traceparent',
  'tracestate',
  'baggage',
  'b3',
  'sentry-trace',
  'uber-trace-id',
  'x-amzn-trace-id',
  'x-cloud-trace-context',
  'x-request-id',
  'x-correlation-id',
  // transport
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'te',
]);

/** Prefixes of the trace-context headers of other tracers (Zipkin, Datadog, OpenTracing). */
const HARMLESS_HEADER_PREFIXES = ['sec-fetch-', 'x-b3-', 'x-datadog-', 'ot-tracer-'];

/** Query parameter names that suggest a secret (lower case, matched as substrings). */
const SECRET_PARAM_PARTS = [
  'key',
  'token',
  'sig',
  'secret',
  'password',
  'passwd',
  'auth',
  'code',
  'credential',
  'session',
  'jwt',
];
const SECRET_PARAM_PREFIXES = ['x-amz-', 'x-goog-'];

/** True when a request header of this name may carry a credential (anything not harmless). */
export function isCredentialHeader(name: string): boolean {
  const n = name.toLowerCase();
  return !HARMLESS_HEADERS.has(n) && !HARMLESS_HEADER_PREFIXES.some((p) => n.startsWith(p));
}

/** True when a query parameter of this name suggests a secret. */
export function isSecretParam(name: string): boolean {
  const n = name.toLowerCase();
  return (
    SECRET_PARAM_PARTS.some((part) => n.includes(part)) ||
    SECRET_PARAM_PREFIXES.some((prefix) => n.startsWith(prefix))
  );
}

/** True when the URL itself carries a credential: userinfo, or a secret-like query parameter. */
export function urlCarriesCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.username !== '' || u.password !== '') return true;
    for (const name of u.searchParams.keys()) if (isSecretParam(name)) return true;
    return false;
  } catch {
    // a URL that cannot be read is not fetched again either
    return true;
  }
}

/** True when a card request with these header names at this URL carried credentials. */
export function requestCarriesCredentials(url: string, headerNames: Iterable<string>): boolean {
  try {
    for (const name of headerNames) if (isCredentialHeader(name)) return true;
    return urlCarriesCredentials(url);
  } catch {
    return true;
  }
}
