/**
 * URL normalisation for matching request URLs to Agent Card endpoints.
 *
 * Interim: `src/core/card.ts` will own `normaliseUrl`; this copy has the same contract so
 * the registry can switch to it without behaviour change. Pure, total (never throws).
 */

/**
 * `scheme://host[:port]/path` with scheme and host lower-cased (WHATWG URL does that),
 * the default port dropped, userinfo, query and fragment dropped, and trailing slashes
 * dropped (`https://h/` → `https://h`, `https://h/a2a/` → `https://h/a2a`).
 * Relative URLs are resolved against `base`. `undefined` when it cannot be parsed, or
 * when `url` is neither a string nor a URL.
 */
export function normaliseUrl(url: string | URL, base?: string | URL): string | undefined {
  try {
    const raw = typeof url === 'string' ? url : url instanceof URL ? url.href : undefined;
    if (raw === undefined) return undefined;
    const b = typeof base === 'string' || base instanceof URL ? base : undefined;
    const u = b === undefined ? new URL(raw) : new URL(raw, b);
    let path = u.pathname;
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
    if (end !== path.length) path = path.slice(0, end);
    if (u.host === '' && !u.href.startsWith(u.protocol + '//')) return u.protocol + path; // opaque (mailto:…)
    return u.protocol + '//' + u.host + path;
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
