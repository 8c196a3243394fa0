/**
 * Span and metric attributes built from what the core says, pure functions of their input:
 * capped strings, error messages without credentials or queries, a card response's freshness,
 * a card's attributes (memoised per registry entry), and a drift event's span, event and metric
 * attributes (the telemetry contract's names, semconv.ts).
 */
import type { Attributes } from '@opentelemetry/api';
import { normaliseUrl } from '../core/card';
import type { DriftEvent } from '../core/judge';
import type { CardEntry } from '../core/registry';
import { withoutQuery, type UrlFacts } from '../core/url';
import * as sc from '../semconv';

/** The longest string attribute value (longer ones are cut). */
const MAX_ATTR_LEN = 256;
/** Media types listed in `a2a.drift.expected_output_modes`. */
const MAX_EXPECTED_MODES = 16;
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*/gi;

export function cap(value: string): string {
  return value.length > MAX_ATTR_LEN ? value.slice(0, MAX_ATTR_LEN) : value;
}

/** User info in anything URL-like, with or without a scheme: `//alice:secret@host`. */
const USERINFO_IN_TEXT = /\/\/[^\s/?#@"'<>]*@/g;
/**
 * A query in anything URL-like, absolute or not: `/a2a?api_key=…`, `host/a2a?token=…` (up to
 * whitespace or a quote).
 */
const QUERY_IN_TEXT = /\?[^\s"'<>]+/g;

/**
 * An error message for the span status: URLs inside it are normalised (no user info, query,
 * fragment); user info and queries of anything else URL-like (relative URLs, scheme-less
 * `//user:pw@host`) are removed too; then capped.
 */
export function safeMessage(text: string): string {
  const head = text.length > 4 * MAX_ATTR_LEN ? text.slice(0, 4 * MAX_ATTR_LEN) : text;
  return cap(
    head
      .replace(URL_IN_TEXT, (u) => normaliseUrl(u) ?? '[url]')
      .replace(USERINFO_IN_TEXT, '//')
      .replace(QUERY_IN_TEXT, ''),
  );
}

export interface Freshness {
  maxAge?: number;
  etag?: string;
  lastModified?: string;
}

/**
 * A card response's freshness: `Cache-Control` max-age (seconds; `no-store` / `no-cache` → 0),
 * `ETag`, `Last-Modified` (capped).
 */
export function freshness(headers: Record<string, string>): Freshness | undefined {
  const cc = headers['cache-control'];
  const etag = headers['etag'];
  const lm = headers['last-modified'];
  if (cc === undefined && etag === undefined && lm === undefined) return undefined;
  const out: Freshness = {};
  if (cc !== undefined) {
    const m = /(?:^|[,\s])max-age\s*=\s*"?(\d{1,10})/i.exec(cc);
    if (m) out.maxAge = Number(m[1]);
    else if (/(?:^|[,\s])no-(?:store|cache)\b/i.test(cc)) out.maxAge = 0;
  }
  if (etag !== undefined && etag.length > 0) out.etag = cap(etag);
  if (lm !== undefined && lm.length > 0) out.lastModified = cap(lm);
  return out;
}

/** Card entries are immutable snapshots: their span attributes are built once per entry. */
const cardAttributeMemo = new WeakMap<CardEntry, Readonly<Attributes>>();

export function cardAttributes(entry: CardEntry): Readonly<Attributes> {
  const known = cardAttributeMemo.get(entry);
  if (known) return known;
  const attrs: Attributes = {
    [sc.ATTR_A2A_AGENT_CARD_FINGERPRINT]: entry.fingerprint,
    [sc.ATTR_A2A_AGENT_CARD_URL]: withoutQuery(entry.cardUrl),
  };
  if (entry.card.name !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_NAME] = cap(entry.card.name);
  if (entry.card.version !== undefined)
    attrs[sc.ATTR_GEN_AI_AGENT_VERSION] = cap(entry.card.version);
  cardAttributeMemo.set(entry, attrs);
  return attrs;
}

/** A drifted span's attributes: the kind, `error.type` (not for card_changed), the evidence. */
export function driftAttributes(event: DriftEvent): Attributes {
  const attrs: Attributes = { [sc.ATTR_A2A_DRIFT_KIND]: event.kind };
  if (event.kind !== 'card_changed') attrs[sc.ATTR_ERROR_TYPE] = event.error.name;
  if (event.evidence !== undefined && event.kind !== 'card_changed')
    attrs[sc.ATTR_A2A_DRIFT_EVIDENCE] = event.evidence;
  if (event.expectedModes)
    attrs[sc.ATTR_A2A_DRIFT_EXPECTED_MODES] = event.expectedModes
      .slice(0, MAX_EXPECTED_MODES)
      .map(cap);
  if (event.actualMediaType !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_ACTUAL_MEDIA_TYPE] = cap(event.actualMediaType);
  if (event.actualMediaTypes !== undefined && event.actualMediaTypes.length > 0)
    attrs[sc.ATTR_A2A_DRIFT_ACTUAL_MEDIA_TYPES] = event.actualMediaTypes.map(cap);
  if (event.matchedPattern !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_PATTERN] = cap(event.matchedPattern);
  if (event.rpcCode !== undefined) attrs[sc.ATTR_A2A_DRIFT_RPC_CODE] = event.rpcCode;
  if (event.previousFingerprint !== undefined) {
    attrs[sc.ATTR_A2A_DRIFT_PREVIOUS_FINGERPRINT] = event.previousFingerprint;
    if (event.fingerprint !== undefined)
      attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = event.fingerprint;
  }
  return attrs;
}

/** The `a2a.agent_card.changed` span event's attributes. */
export function cardChangedEventAttributes(event: DriftEvent): Attributes {
  const attrs: Attributes = { [sc.ATTR_A2A_DRIFT_KIND]: event.kind };
  if (event.previousFingerprint !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_PREVIOUS_FINGERPRINT] = event.previousFingerprint;
  if (event.fingerprint !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = event.fingerprint;
  return attrs;
}

/**
 * The drift counter's labels: WHICH card (its URL as fetched: no query, fragment or
 * credentials) on which port: one series per card × skill × kind.
 */
export function driftMetricAttributes(
  event: DriftEvent,
  peer: Pick<UrlFacts, 'host' | 'port'>,
): Attributes {
  const attrs: Attributes = { [sc.ATTR_A2A_DRIFT_KIND]: event.kind };
  if (event.skillId !== undefined) attrs[sc.ATTR_A2A_SKILL_ID] = cap(event.skillId);
  if (event.agentName !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_NAME] = cap(event.agentName);
  if (event.cardUrl !== undefined)
    attrs[sc.ATTR_A2A_AGENT_CARD_URL] = cap(withoutQuery(event.cardUrl));
  if (peer.host !== undefined) {
    attrs[sc.ATTR_SERVER_ADDRESS] = peer.host;
    attrs[sc.ATTR_SERVER_PORT] = peer.port;
  }
  return attrs;
}
