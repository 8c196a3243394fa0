/**
 * Is this HTTP request A2A, and what is it? Runs on EVERY outgoing HTTP request of the host
 * application, so the non-A2A case costs a handful of string checks and no allocation
 * (no regex, no URL parsing, no JSON parsing unless the body looks like JSON-RPC).
 *
 * Decisions (callers depend on them):
 * - `GET …/.well-known/agent.json`, `GET …/.well-known/agent-card.json` (any base path,
 *   any query) and the per-agent `GET …/.well-known/{agentId}/agent-card.json` →
 *   `{type: 'card', extended: false}`; GETs whose path only hints at a card (cardPathKind)
 *   → `{type: 'card', extended: false, sniff: true}`: a card only if the answer is one.
 * - The REST extended-card fetches `GET …/extendedAgentCard` (1.0), `GET …/v1/card` (0.3) and
 *   the Python SDK's `GET …/agent/authenticatedExtendedCard` (a2a-python 0.2)
 *   → `{type: 'card', extended: true}`: their body is a bare Agent Card (feed it to
 *   `decodeCard`), so they are handled like card fetches (span name `GetAgentCard`).
 *   The JSON-RPC `GetExtendedAgentCard` / `agent/getAuthenticatedExtendedCard` calls are
 *   operations (their span is named so); the card in their result is handled like a card
 *   fetch's answer (`jsonRpcExtendedCard`), held under the endpoint's URL.
 * - JSON-RPC is recognised by the body: POST, body ≤ maxBodyBytes (UTF-8 bytes), first
 *   non-blank character `{` and containing `"method"`, then parsed and decoded.
 * - HTTP+JSON is recognised by the path (`decodeHttpJsonRequest`). Paths distinctive of
 *   A2A (`message:send`, `message:stream`, `tasks/{id}:cancel`, `tasks/{id}:subscribe`,
 *   `extendedAgentCard`) are enough. Generic ones (`GET …/tasks/{id}`, `GET …/tasks`, the
 *   push-config collection, `GET /v1/card`) need a second hint, because plenty of non-A2A
 *   APIs have them: a valid `A2A-Version` header, or `opts.knownA2AEndpoint` (the caller
 *   knows the URL belongs to an agent, e.g. from a card's endpoints).
 * - A POST whose body is not known (`bodyText` undefined) and whose path is not a REST A2A
 *   path → `{type: 'maybe-operation'}`; call again with the body once it is known.
 *   For a REST path without a body the operation is returned without body-borne fields.
 * - Everything else → undefined.
 */
import { parseJsonSafe } from './json-path';

export { parseJsonSafe }; // part of this module's API (tests, callers)
import type { Classification } from './model';
import {
  decodeHttpJsonRequest,
  isDistinctiveRestOperation,
  looksLikeRestPath,
} from './protocol/http-json';
import { decodeJsonRpcRequest } from './protocol/jsonrpc';
import { normaliseVersion } from './protocol/common';
import { pathEnd } from './url';

export interface ClassifyOptions {
  /** Dotted paths to look for a skill id (see DEFAULT_SKILL_ID_PATHS). */
  skillIdPaths: readonly string[];
  /** The request's `A2A-Version` header, if any. */
  a2aVersionHeader?: string;
  /** Bodies larger than this (UTF-8 bytes) are not parsed. */
  maxBodyBytes: number;
  /** The caller knows the URL is an A2A agent endpoint (accepts generic REST paths). */
  knownA2AEndpoint?: boolean;
}

const WK_AGENT = '/.well-known/agent.json';
const WK_AGENT_CARD = '/.well-known/agent-card.json';
const AGENT_JSON = '/agent.json';
const AGENT_CARD_JSON = '/agent-card.json';
const WELL_KNOWN_SEG = '/.well-known/';
/** The Python SDK's (a2a-python 0.2) authenticated extended card, `GET …/agent/authenticatedExtendedCard`. */
const PY_EXTENDED_CARD = '/agent/authenticatedExtendedCard';

/**
 * Where an Agent Card is, by path (every implementation seen keeps `agent` or `card` in the
 * card path's last segment):
 * - `certain`: `…/.well-known/agent-card.json`, `…/.well-known/agent.json`, and the
 *   per-agent `…/.well-known/{agentId}/agent-card.json` (Mastra, VoltAgent);
 * - `extended`: the Python SDK's `…/agent/authenticatedExtendedCard` (a2a-python 0.2);
 * - `sniff`: other paths that name a card (`…/agent.json` anywhere: python-a2a;
 *   `…/agent/card`: reactive-agents; any last path segment containing `agent` or `card`):
 *   a card only when the JSON answer is one (`isAgentCard`);
 * - undefined: anything else (no further cost).
 */
function cardPathKind(url: string): 'certain' | 'extended' | 'sniff' | undefined {
  if (typeof url !== 'string') return undefined;
  const end = pathEnd(url);
  const slash = url.lastIndexOf('/', end - 1);
  // Every card path's last segment names an agent or a card: the common case ends here.
  if (slash < 0 || !namesCard(url, slash + 1, end)) return undefined;
  if (url.endsWith(WK_AGENT_CARD, end) || url.endsWith(WK_AGENT, end)) return 'certain';
  if (url.endsWith(AGENT_CARD_JSON, end) || url.endsWith(AGENT_JSON, end)) {
    // per agent: the segment before `{agentId}` is `.well-known`
    const prev = url.lastIndexOf('/', slash - 1);
    return prev >= 0 &&
      url.startsWith(WELL_KNOWN_SEG, prev - WELL_KNOWN_SEG.length + 1) &&
      prev > url.indexOf('://') + 3
      ? 'certain'
      : 'sniff';
  }
  return url.endsWith(PY_EXTENDED_CARD, end) ? 'extended' : 'sniff';
}

/** `agent` or `card`, any case, within url[from, end): no allocation (this runs on every GET). */
function namesCard(url: string, from: number, end: number): boolean {
  for (let i = from; i + 4 <= end; i++) {
    const c = url.charCodeAt(i) | 0x20;
    if (c === 97 /* a */) {
      if (
        i + 5 <= end &&
        (url.charCodeAt(i + 1) | 0x20) === 103 &&
        (url.charCodeAt(i + 2) | 0x20) === 101 &&
        (url.charCodeAt(i + 3) | 0x20) === 110 &&
        (url.charCodeAt(i + 4) | 0x20) === 116
      )
        return true;
    } else if (c === 99 /* c */) {
      if (
        (url.charCodeAt(i + 1) | 0x20) === 97 &&
        (url.charCodeAt(i + 2) | 0x20) === 114 &&
        (url.charCodeAt(i + 3) | 0x20) === 100
      )
        return true;
    }
  }
  return false;
}
const SNIFF_CARD: Classification = Object.freeze({
  type: 'card',
  extended: false,
  sniff: true,
}) as Classification;

function isMethod(method: string, upper: string): boolean {
  return method === upper || (method.length === upper.length && method.toUpperCase() === upper);
}

/** UTF-8 byte length of a string without allocating; stops counting past `limit`. */
function utf8LengthOver(s: string, limit: number): boolean {
  if (s.length > limit) return true; // every UTF-16 unit is ≥ 1 byte
  if (s.length * 3 <= limit) return false; // every UTF-16 unit is ≤ 3 bytes
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}

/** Cheap JSON-RPC prefilter: first non-blank char is `{` and the text contains `"method"`. */
function looksLikeJsonRpc(body: string): boolean {
  const n = body.length;
  let i = 0;
  while (i < n) {
    const c = body.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 0xfeff) break;
    i++;
  }
  return i < n && body.charCodeAt(i) === 123 && body.indexOf('"method"', i) >= 0;
}

function firstNonBlankIsBrace(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) continue;
    return c === 123;
  }
  return false;
}

/**
 * Classifies an HTTP request as an Agent Card fetch, an A2A operation, a possible operation
 * (POST with the body not known yet) or nothing A2A (undefined). Never throws.
 *
 * @param method HTTP method
 * @param url absolute URL or path (with query)
 * @param bodyText the request body as text, when known
 */
export function classifyRequest(
  method: string,
  url: string,
  bodyText: string | undefined,
  opts: ClassifyOptions,
): Classification {
  try {
    if (typeof method !== 'string' || typeof url !== 'string') return undefined;
    const isGet = isMethod(method, 'GET');
    if (isGet) {
      const where = cardPathKind(url);
      if (where === 'certain') return { type: 'card', extended: false };
      if (where === 'extended') return { type: 'card', extended: true };
      if (!looksLikeRestPath(url)) return where === 'sniff' ? SNIFF_CARD : undefined; // the common case ends here
    }
    const o = opts !== null && typeof opts === 'object' ? opts : undefined;
    const skillIdPaths = o?.skillIdPaths;
    const header = o?.a2aVersionHeader;
    const maxBody = typeof o?.maxBodyBytes === 'number' ? o.maxBodyBytes : 0;
    const known = o?.knownA2AEndpoint === true;

    if (isGet) {
      const req = decodeHttpJsonRequest('GET', url, undefined, skillIdPaths, header);
      const sniff = cardPathKind(url) === 'sniff' ? SNIFF_CARD : undefined;
      if (req === undefined) return sniff;
      if (!isDistinctiveRestOperation(req) && !known && normaliseVersion(header) === undefined)
        return sniff;
      if (req.operation === 'GetExtendedAgentCard') return { type: 'card', extended: true };
      return { type: 'operation', request: req };
    }

    const isPost = isMethod(method, 'POST');
    if (!isPost && !isMethod(method, 'DELETE')) return undefined;

    let parsed: unknown;
    let haveParsed = false;
    if (isPost && typeof bodyText === 'string' && !utf8LengthOver(bodyText, maxBody)) {
      if (looksLikeJsonRpc(bodyText)) {
        const r = parseJsonSafe(bodyText);
        if (r.ok) {
          parsed = r.value;
          haveParsed = true;
          const req = decodeJsonRpcRequest(parsed, skillIdPaths, header);
          if (req !== undefined) return { type: 'operation', request: req };
        }
      }
    }

    if (looksLikeRestPath(url)) {
      if (
        isPost &&
        !haveParsed &&
        typeof bodyText === 'string' &&
        !utf8LengthOver(bodyText, maxBody) &&
        firstNonBlankIsBrace(bodyText)
      ) {
        const r = parseJsonSafe(bodyText);
        if (r.ok) parsed = r.value;
      }
      const req = decodeHttpJsonRequest(
        isPost ? 'POST' : 'DELETE',
        url,
        parsed,
        skillIdPaths,
        header,
      );
      if (req !== undefined) {
        if (!isDistinctiveRestOperation(req) && !known && normaliseVersion(header) === undefined)
          return undefined;
        return { type: 'operation', request: req };
      }
    }

    if (isPost && bodyText === undefined) return { type: 'maybe-operation' };
    return undefined;
  } catch {
    return undefined;
  }
}
