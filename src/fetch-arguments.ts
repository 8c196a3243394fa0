/**
 * What a request says about itself before it is sent, read without side effects: fetch's
 * `init` headers, the URL's origin and path, and a request body as text when it is whole and
 * can be a JSON object (A2A bodies always are). Used by the fetch wrapper and the wire tap's
 * request creation alike.
 */
import type { FetchFn } from './hooks/fetch';
import { pathEnd } from './core/url';

export type FetchInput = Parameters<FetchFn>[0];
export type FetchInit = Parameters<FetchFn>[1];

export function headerFromInit(init: FetchInit, name: string): string | undefined {
  const headers = init?.headers;
  if (!headers) return undefined;
  try {
    if (typeof (headers as Headers).get === 'function')
      return (headers as Headers).get(name) ?? undefined;
    if (Array.isArray(headers)) {
      for (const pair of headers)
        if (Array.isArray(pair) && String(pair[0]).toLowerCase() === name) return String(pair[1]);
      return undefined;
    }
    for (const key of Object.keys(headers))
      if (key.toLowerCase() === name) return String((headers as Record<string, unknown>)[key]);
  } catch {
    // exotic headers objects are not inspected
  }
  return undefined;
}

/** The names of the headers in fetch's `init` and of a Request input (lower case). */
export function headerNamesFromInit(init: FetchInit, request?: Request): string[] {
  const names: string[] = [];
  try {
    request?.headers.forEach((_v, k) => names.push(k));
    const headers = init?.headers;
    if (!headers) return names;
    if (typeof (headers as Headers).forEach === 'function' && !Array.isArray(headers))
      (headers as Headers).forEach((_v, k) => names.push(k.toLowerCase()));
    else if (Array.isArray(headers)) {
      for (const pair of headers)
        if (Array.isArray(pair)) names.push(String(pair[0]).toLowerCase());
    } else for (const key of Object.keys(headers)) names.push(key.toLowerCase());
  } catch {
    // exotic headers objects: read as carrying credentials
    names.push('authorization');
  }
  return names;
}

/** `origin + path` of a URL (what ignoreUrls is tested on): no query, no fragment, bounded. */
export function originAndPath(url: string): string {
  return url.slice(0, Math.min(pathEnd(url), 2048));
}

export function startsLikeJsonObject(bytes: Uint8Array): boolean {
  let i = 0;
  while (
    i < bytes.byteLength &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  return i === bytes.byteLength || bytes[i] === 0x7b;
}

export function bodyText(body: unknown, max: number): string | undefined {
  if (typeof body === 'string') return body.length <= max ? body : undefined;
  if (body instanceof Uint8Array) {
    if (body.byteLength > max || body.byteLength === 0) return undefined;
    // Only JSON objects can be A2A JSON-RPC: skip the decode for anything else.
    if (!startsLikeJsonObject(body)) return undefined;
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  }
  return undefined;
}
