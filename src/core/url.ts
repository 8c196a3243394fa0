/**
 * URL normalisation for matching request URLs to Agent Card endpoints (the registry) and
 * for the card URLs reported on spans. Pure, total (never throws).
 */

import { boundedMemo } from './memo';

const SPECIAL = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:']);

/** Index just past a URL's path (its first `?` or `#`, else its length), without allocating. */
export function pathEnd(url: string): number {
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  if (q < 0) return h < 0 ? url.length : h;
  return h < 0 || q < h ? q : h;
}

/**
 * Normalises a URL for matching: `scheme://host[:port]/path`, scheme and host lower-cased,
 * default port dropped, userinfo / query / fragment dropped, trailing slashes dropped
 * (`https://H.example:443/a2a/?x#y` → `https://h.example/a2a`; `https://h/` → `https://h`).
 * Relative URLs are resolved against `base`. Opaque URLs (`mailto:x`) give `scheme:path`.
 * Undefined when it cannot be parsed or is neither a string nor a URL. Never throws.
 */
export function normaliseUrl(url: string | URL, base?: string | URL): string | undefined {
  try {
    const raw = typeof url === 'string' ? url : url instanceof URL ? url.href : undefined;
    if (raw === undefined) return undefined;
    const b = typeof base === 'string' || base instanceof URL ? base : undefined;
    const u = b === undefined ? (url instanceof URL ? url : new URL(raw)) : new URL(raw, b); // a URL object is not parsed again
    let path = u.pathname;
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
    if (end !== path.length) path = path.slice(0, end);
    const protocol = u.protocol; // always lower case
    if (u.host === '' && !u.href.startsWith(protocol + '//')) return protocol + path; // opaque
    // WHATWG URL lower-cases the host of special schemes only.
    const host = SPECIAL.has(protocol) ? u.host : u.host.toLowerCase();
    return protocol + '//' + host + path;
  } catch {
    return undefined;
  }
}

/** `scheme://host[:port]` of a string produced by normaliseUrl; undefined for opaque URLs. */
export function originOfNormalised(normalised: string): string | undefined {
  const s = normalised.indexOf('://');
  if (s < 0) return undefined;
  const p = normalised.indexOf('/', s + 3);
  return p < 0 ? normalised : normalised.slice(0, p);
}

/** What the telemetry needs from a request URL: its matching key and server address/port. */
export interface UrlFacts {
  /** normaliseUrl(raw), or the raw URL up to its query when it cannot be parsed. */
  readonly key: string;
  /** True when `key` came from normaliseUrl (registry lookups only make sense then). */
  readonly parsed: boolean;
  /** Host name without IPv6 brackets; undefined when the URL could not be parsed. */
  readonly host: string | undefined;
  readonly port: number | undefined;
  /**
   * Which card a card fetch of this URL got: `key` plus the query (`?assistant_id=…`: the
   * LangGraph server serves every assistant's card at one path, told apart by the query).
   * Never reported as is: telemetry gets `withoutQuery` of it.
   */
  readonly cardKey: string;
}

const FACTS_CACHE_MAX = 512;

function computeFacts(raw: string): UrlFacts {
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  const n = u ? normaliseUrl(u) : undefined;
  if (!u || n === undefined) {
    const key = raw.split('?')[0];
    return { key, parsed: false, host: undefined, port: undefined, cardKey: key };
  }
  const host =
    u.hostname.startsWith('[') && u.hostname.endsWith(']') ? u.hostname.slice(1, -1) : u.hostname;
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { key: n, parsed: true, host, port, cardKey: u.search.length > 1 ? n + u.search : n };
}

const memoFacts = boundedMemo(computeFacts, FACTS_CACHE_MAX, 2048);

/**
 * UrlFacts of an absolute URL, memoised (core/memo.ts): agents call the same few endpoints
 * over and over, and parsing a URL costs microseconds on every call. Never throws.
 */
export function urlFacts(raw: string): UrlFacts {
  return typeof raw === 'string' ? memoFacts(raw) : NOT_A_URL; // not converted: a hostile toString could throw
}

const NOT_A_URL: UrlFacts = {
  key: '',
  parsed: false,
  host: undefined,
  port: undefined,
  cardKey: '',
};

/**
 * A card URL as telemetry may carry it: without its query or fragment (a card held under
 * `UrlFacts.cardKey` keeps its query for the registry and re-fetches only). Never throws.
 */
export function withoutQuery(url: string): string {
  return typeof url === 'string' ? url.slice(0, pathEnd(url)) : '';
}
