/**
 * How a card URL and a request URL relate, for the card registry's lookup of the card that judges
 * a call: the key a card is held under, the agent a per-agent card URL scopes to, the path a card
 * found by its content speaks for, and the prefix of an HTTP+JSON operation route.
 *
 * Pure and total: string work on URLs already normalised by url.ts (or parsed here).
 */
import { normaliseUrl, originOfNormalised, pathEnd } from './url';

/**
 * `{agentId}` of a per-agent card URL: `…/.well-known/{agentId}/agent-card.json` (or
 * `agent.json`). Undefined for the spec's one-agent paths.
 */
export function agentScopeOf(cardUrl: string): string | undefined {
  const path = cardUrl.slice(0, pathEnd(cardUrl));
  const segs = path.split('/');
  const n = segs.length;
  if (n < 3) return undefined;
  const last = segs[n - 1].toLowerCase();
  if (last !== 'agent-card.json' && last !== 'agent.json') return undefined;
  const scope = segs[n - 2];
  if (scope === '.well-known' || scope.length === 0 || segs[n - 3] !== '.well-known')
    return undefined;
  try {
    return decodeURIComponent(scope);
  } catch {
    return scope;
  }
}

/**
 * The normalised URL of the folder a sniffed card was served from: `…/x/agent/card` → `…/x`,
 * `…/a2a/agent.json` → `…/a2a`.
 */
export function sniffedPathScope(cardUrl: string): string | undefined {
  const n = normaliseUrl(cardUrl);
  if (n === undefined) return undefined;
  let cut = n.lastIndexOf('/');
  if (n.endsWith('/agent/card')) cut = n.length - '/agent/card'.length;
  const origin = originOfNormalised(n);
  return origin === undefined || cut < origin.length ? origin : n.slice(0, cut);
}

/** True when `n` is `prefix` or below it at a segment boundary. */
export function isUnder(n: string, prefix: string): boolean {
  return n === prefix || (n.startsWith(prefix) && n.charCodeAt(prefix.length) === 47);
}

/** True when `scope` is one of the path segments of the normalised URL `n`. */
export function pathHasSegment(n: string, origin: string, scope: string): boolean {
  const segs = n.slice(origin.length).split('/');
  for (const seg of segs) {
    if (seg === scope) return true;
    if (seg.indexOf('%') >= 0) {
      try {
        if (decodeURIComponent(seg) === scope) return true;
      } catch {
        // not a valid escape: compared as is above
      }
    }
  }
  return false;
}

/**
 * The key a card URL is held under: the WHATWG-parsed href without its fragment (so
 * scheme/host case and default ports do not matter, but the query does: two tenants'
 * cards behind `?tenant=` stay apart); an unparsable string is its own key.
 */
export function cardKey(cardUrl: unknown): string {
  if (typeof cardUrl !== 'string') return '';
  try {
    const u = new URL(cardUrl);
    u.hash = '';
    return u.href;
  } catch {
    return cardUrl;
  }
}

/** The last path segments that name one operation of the HTTP+JSON binding, not an agent. */
const OPERATION_ROUTES = new Set(['message:send', 'message:stream']);

/**
 * The prefix of a normalised endpoint URL whose last path segment is an operation route
 * (`http://h/a2a/agents/x/v1/message:stream` → `http://h/a2a/agents/x/v1`), else undefined.
 */
export function operationRoutePrefix(n: string): string | undefined {
  const end = pathEnd(n);
  const path = n.slice(0, end);
  const i = path.lastIndexOf('/');
  const origin = originOfNormalised(n);
  if (i < 0 || origin === undefined || i <= origin.length) return undefined;
  return OPERATION_ROUTES.has(path.slice(i + 1).toLowerCase()) ? path.slice(0, i) : undefined;
}
