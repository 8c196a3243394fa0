/**
 * Headers of undici's requests and responses in each version's representation (undici <= 5's
 * `"name: value\r\n"` string, undici 6/7's flat `[k, v, k, v]` array of strings or Buffers,
 * undici 5 H2's object): read, filtered by name without decoding the others, and added at create
 * the way instrumentation-undici does, yielding to later adders.
 */
import { wrapMethod, type UndiciRequestLike } from './undici-request';

function headerText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array)
    return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('latin1');
  if (Array.isArray(v)) return v.map(headerText).join(', ');
  return v == null ? '' : String(v);
}

/**
 * Looks up a request header (lower-case `name`) in any of undici's representations:
 * undici <= 5 string `"name: value\r\n..."`, undici 6/7 flat array `[k, v, k, v]` (v may be
 * an array), undici 5 H2 object. `host` and `content-length` are kept apart by undici.
 */
export function lookupRequestHeader(request: UndiciRequestLike, name: string): string | undefined {
  const lname = name.toLowerCase();
  if (lname === 'host' && typeof request.host === 'string') return request.host;
  if (lname === 'content-length' && typeof request.contentLength === 'number')
    return String(request.contentLength);
  const h = request.headers;
  const found: string[] = [];
  if (typeof h === 'string') {
    for (const line of h.split('\r\n')) {
      const i = line.indexOf(':');
      if (i > 0 && line.slice(0, i).trim().toLowerCase() === lname)
        found.push(line.slice(i + 1).trim());
    }
  } else if (Array.isArray(h)) {
    if (h.length > 0 && Array.isArray(h[0])) {
      // [[k, v], ...]
      for (const pair of h as unknown[][]) {
        if (headerText(pair[0]).toLowerCase() === lname) found.push(headerText(pair[1]));
      }
    } else {
      for (let i = 0; i + 1 < h.length; i += 2) {
        if (headerText(h[i]).toLowerCase() === lname) found.push(headerText(h[i + 1]));
      }
    }
  } else if (h && typeof h === 'object') {
    for (const k of Object.keys(h)) {
      if (k.toLowerCase() === lname) found.push(headerText((h as Record<string, unknown>)[k]));
    }
  }
  return found.length ? found.join(', ') : undefined;
}

/** The names of a request's headers (lower case; shapes as lookupRequestHeader reads them). */
export function requestHeaderNames(request: UndiciRequestLike): string[] {
  const h = request.headers;
  const names: string[] = [];
  if (typeof h === 'string') {
    for (const line of h.split('\r\n')) {
      const i = line.indexOf(':');
      if (i > 0) names.push(line.slice(0, i).trim().toLowerCase());
    }
  } else if (Array.isArray(h)) {
    if (h.length > 0 && Array.isArray(h[0])) {
      for (const pair of h as unknown[][]) names.push(headerText(pair[0]).toLowerCase());
    } else {
      for (let i = 0; i + 1 < h.length; i += 2) names.push(headerText(h[i]).toLowerCase());
    }
  } else if (h && typeof h === 'object') {
    for (const k of Object.keys(h)) names.push(k.toLowerCase());
  }
  return names;
}

/**
 * Response headers a delegate asked for, with a cheap length filter so other names are never
 * decoded.
 */
export interface HeaderFilter {
  names: ReadonlySet<string>;
  /** By byte length: the wanted names as lower-case bytes, each with its string. */
  byLength: ReadonlyMap<number, ReadonlyArray<readonly [Uint8Array, string]>>;
}

export function headerFilter(names: readonly string[] | undefined): HeaderFilter | undefined {
  if (!names) return undefined;
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  const byLength = new Map<number, Array<readonly [Uint8Array, string]>>();
  for (const name of lower) {
    const bytes = new Uint8Array(Buffer.from(name, 'latin1'));
    const same = byLength.get(bytes.byteLength);
    if (same) same.push([bytes, name]);
    else byLength.set(bytes.byteLength, [[bytes, name]]);
  }
  return { names: new Set(lower), byLength };
}

/**
 * Response headers (undici's flat `[name, value, ...]` of Buffers or strings) as a lower-case
 * record.
 */
export function responseHeaderRecord(raw: unknown, filter?: HeaderFilter): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(raw)) {
    if (raw && typeof raw === 'object') {
      for (const k of Object.keys(raw)) {
        const key = k.toLowerCase();
        if (!filter || filter.names.has(key))
          setHeader(out, key, headerText((raw as Record<string, unknown>)[k]));
      }
    }
    return out;
  }
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name: unknown = raw[i];
    let key: string | undefined;
    if (filter === undefined) {
      key = headerText(name).toLowerCase();
    } else if (name instanceof Uint8Array) {
      // undici's usual form, compared in place: only wanted names are decoded.
      const same = filter.byLength.get(name.byteLength);
      if (same === undefined) continue;
      for (let j = 0; j < same.length && key === undefined; j++)
        if (asciiCaseEqual(name, same[j][0])) key = same[j][1];
      if (key === undefined) continue;
    } else {
      const text = headerText(name);
      if (!filter.byLength.has(text.length)) continue;
      key = text.toLowerCase();
      if (!filter.names.has(key)) continue;
    }
    setHeader(out, key, headerText(raw[i + 1]));
  }
  return out;
}

/** `a` equals the lower-case ASCII bytes `lower`, ignoring ASCII case. */
function asciiCaseEqual(a: Uint8Array, lower: Uint8Array): boolean {
  if (a.byteLength !== lower.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) {
    let c = a[i];
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower[i]) return false;
  }
  return true;
}

function setHeader(out: Record<string, string>, key: string, value: string): void {
  if (Object.prototype.hasOwnProperty.call(out, key)) {
    out[key] = `${out[key]}, ${value}`;
  } else if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  } else {
    out[key] = value;
  }
}

/**
 * Per request object: the headers {@link addRequestHeaders} added (lower-case name -> name and
 * value as added).
 */
export const addedHeaders = new WeakMap<object, Map<string, [string, string]>>();

/**
 * Adds headers to an undici request at create, the way instrumentation-undici does
 * (`request.addHeader` where it exists, else undici 5's string or the flat array), and
 * yields to later adders: `addHeader` is wrapped (once, on the copy's `Request` prototype;
 * on the request's own object where it has its own) so that a later `addHeader` of a name
 * added here first removes our entry, leaving exactly one.
 */
export function addRequestHeaders(
  request: UndiciRequestLike,
  headers: Record<string, string>,
  onError: (err: unknown) => void = () => {},
): void {
  let ours = addedHeaders.get(request);
  if (ours === undefined && typeof request.addHeader === 'function') {
    ours = new Map();
    addedHeaders.set(request, ours);
    wrapMethod(
      request,
      'addHeader',
      (original) =>
        function addHeader(this: object, key: unknown, ...rest: unknown[]): unknown {
          const map = addedHeaders.get(this);
          if (map !== undefined && map.size > 0) yieldHeader(this as UndiciRequestLike, map, key);
          return original.call(this, key, ...rest);
        },
    );
  }
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (typeof value !== 'string') continue;
    try {
      if (typeof request.addHeader === 'function') {
        request.addHeader(name, value); // through our wrapper: replaces a value we added before
      } else if (typeof request.headers === 'string') {
        request.headers += `${name}: ${value}\r\n`;
      } else if (Array.isArray(request.headers)) {
        request.headers.push(name, value);
      } else {
        continue;
      }
    } catch (err) {
      onError(err); // undici refused it (invalid name or value): skipped
      continue;
    }
    ours?.set(name.toLowerCase(), [name, value]);
  }
}

/** A header is added over one we added: ours is removed first, so the request carries one. */
function yieldHeader(
  request: UndiciRequestLike,
  map: Map<string, [string, string]>,
  key: unknown,
): void {
  const lname = typeof key === 'string' ? key.toLowerCase() : undefined;
  const mine = lname === undefined ? undefined : map.get(lname);
  if (mine === undefined) return;
  map.delete(lname as string);
  try {
    removeRequestHeader(request, mine[0], mine[1]);
  } catch {
    // leave it
  }
}

/**
 * Removes the last `name: value` entry (added by {@link addRequestHeaders}) from the request's
 * headers.
 */
function removeRequestHeader(request: UndiciRequestLike, name: string, value: string): void {
  const h = request.headers;
  if (typeof h === 'string') {
    const line = `${name}: ${value}\r\n`;
    const i = h.lastIndexOf(line);
    if (i >= 0 && (i === 0 || h.endsWith('\r\n', i)))
      request.headers = h.slice(0, i) + h.slice(i + line.length);
  } else if (Array.isArray(h)) {
    const lname = name.toLowerCase();
    for (let i = h.length - 2; i >= 0; i -= 2) {
      if (
        h[i + 1] === value &&
        typeof h[i] === 'string' &&
        (h[i] as string).toLowerCase() === lname
      ) {
        h.splice(i, 2);
        return;
      }
    }
  }
}
