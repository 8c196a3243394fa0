/**
 * Every span attribute, status and event this package writes, built here and nowhere else: one
 * pure function per moment of a call (the start of an operation or a card fetch, the response
 * headers, a card response, what the negotiation settled, each result, a drift and its
 * confirmation, an error, the end of a stream, a gRPC call and its status) returning the
 * attributes (and, where the moment has one, the span status) that a call's span (call-span.ts)
 * and the others only apply. Also capped strings, error messages without credentials or queries,
 * a card response's freshness, and the drift counter's labels. Names come from semconv.ts; card
 * URLs pass through `reportedCardUrl` (no query, fragment or credentials) here only.
 */
import { SpanStatusCode, type Attributes, type SpanStatus } from '@opentelemetry/api';
import { normaliseUrl } from '../core/card';
import type { DriftEvent, NegotiationContext } from '../core/judge';
import type { DecodedRequest, DecodedResult, OperationName } from '../core/model';
import { isSendOperation } from '../core/protocol/common';
import { normaliseVersion } from '../core/protocol/versions';
import type { CardEntry, CardUpdate } from '../core/card-registry';
import type { CallerVerdict, ServedCard } from '../core/served-card';
import { withoutQuery, type UrlFacts } from '../core/url';
import * as sc from '../semconv';
import type { StaleCallerEvent } from './shared-state';

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

/**
 * What a span is told at one moment: attributes to set and, for a failure, the status. CallSpan
 * applies it as it is (attributes first, then the status).
 */
export interface SpanUpdate {
  attributes: Attributes;
  status?: SpanStatus;
}

/** A card URL as telemetry carries it: without its query, fragment or credentials. */
function reportedCardUrl(cardUrl: string): string {
  return withoutQuery(cardUrl);
}

// --- the start of a call ------------------------------------------------------------------

/** The peer: `server.address` and `server.port`, when the URL could be parsed. */
export function peerAttributes(url: Pick<UrlFacts, 'host' | 'port'>): Attributes {
  const attrs: Attributes = {};
  if (url.host !== undefined) {
    attrs[sc.ATTR_SERVER_ADDRESS] = url.host;
    attrs[sc.ATTR_SERVER_PORT] = url.port;
  }
  return attrs;
}

/** The card a span speaks of: its fingerprint, URL (reported), agent name and version (capped). */
interface CardIdentity {
  fingerprint?: string;
  cardUrl?: string;
  agentName?: string;
  cardVersion?: string;
}

function cardIdentityAttributes(card: CardIdentity): Attributes {
  const attrs: Attributes = {};
  if (card.fingerprint) attrs[sc.ATTR_A2A_AGENT_CARD_FINGERPRINT] = card.fingerprint;
  if (card.cardUrl) attrs[sc.ATTR_A2A_AGENT_CARD_URL] = reportedCardUrl(card.cardUrl);
  if (card.agentName !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_NAME] = cap(card.agentName);
  if (card.cardVersion !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_VERSION] = cap(card.cardVersion);
  return attrs;
}

/** Card entries are immutable snapshots: their span attributes are built once per entry. */
const cardAttributeMemo = new WeakMap<CardEntry, Readonly<Attributes>>();

/** A card entry's attributes (cardIdentityAttributes), memoised per entry. */
export function cardAttributes(entry: CardEntry): Readonly<Attributes> {
  const known = cardAttributeMemo.get(entry);
  if (known) return known;
  const attrs = cardIdentityAttributes({
    fingerprint: entry.fingerprint,
    cardUrl: entry.cardUrl,
    agentName: entry.card.name,
    cardVersion: entry.card.version,
  });
  cardAttributeMemo.set(entry, attrs);
  return attrs;
}

/**
 * What the negotiation settled when an operation call started (negotiation.ts): the context it
 * is judged against and how it was found.
 */
export interface Negotiated {
  context: NegotiationContext;
  /** Where the skill id came from (reported only with a skill id). */
  skillIdSource?: string;
  /**
   * A lifecycle call (GetTask, CancelTask, SubscribeToTask with a task id): whether the
   * SendMessage that created the task is remembered. Undefined for other calls.
   */
  lifecycleKnown?: boolean;
  /** The card held for the endpoint (not for a remembered lifecycle negotiation). */
  entry?: CardEntry;
}

/**
 * The negotiation's attributes: the skill and where its id came from, the card in use (that of
 * the remembered negotiation, or the card held for the endpoint, and whether it is suspect),
 * whether a lifecycle call's negotiation is known.
 */
export function negotiationAttributes(n: Negotiated): Attributes {
  const ctx = n.context;
  const attrs: Attributes = {};
  if (ctx.skillId !== undefined) {
    attrs[sc.ATTR_A2A_SKILL_ID] = cap(ctx.skillId);
    if (n.skillIdSource) attrs[sc.ATTR_A2A_SKILL_ID_SOURCE] = n.skillIdSource;
  }
  if (n.entry !== undefined) {
    Object.assign(attrs, cardAttributes(n.entry));
    if (n.entry.suspect) {
      attrs[sc.ATTR_A2A_AGENT_CARD_SUSPECT] = true;
      attrs[sc.ATTR_A2A_AGENT_CARD_SUSPECT_SOURCE] = n.entry.suspectSource ?? 'local';
    }
  } else Object.assign(attrs, cardIdentityAttributes(ctx));
  if (n.lifecycleKnown !== undefined)
    attrs[sc.ATTR_A2A_LIFECYCLE_NEGOTIATION_KNOWN] = n.lifecycleKnown;
  return attrs;
}

/** The start of an operation call (or of a pushed update: `push`). */
export interface OperationStart {
  url: Pick<UrlFacts, 'host' | 'port'>;
  request: DecodedRequest;
  push: boolean;
  negotiated: Negotiated;
  /** The version the card offers for a request that does not say its own (versionFromCard). */
  versionFromCard?: string;
}

/**
 * An operation span's start attributes: the peer, the operation and binding (not for a push),
 * the version (the request's, else the card's), the ids the request carries, the negotiation.
 */
export function operationStartAttributes(start: OperationStart): Attributes {
  const req = start.request;
  const attrs = peerAttributes(start.url);
  if (!start.push) {
    attrs[sc.ATTR_A2A_METHOD_NAME] = req.operation;
    attrs[sc.ATTR_A2A_BINDING] = req.binding;
    // a send starts the agent's work: the GenAI conventions' invoke agent client span (reading
    // or cancelling a task, resubscribing, push configuration and cards do not)
    if (isSendOperation(req.operation))
      attrs[sc.ATTR_GEN_AI_OPERATION_NAME] = sc.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT;
  }
  if (req.protocolVersion) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = req.protocolVersion;
  else if (start.versionFromCard !== undefined)
    attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = start.versionFromCard;
  if (req.taskId !== undefined) attrs[sc.ATTR_A2A_TASK_ID] = cap(req.taskId);
  if (req.contextId !== undefined) attrs[sc.ATTR_GEN_AI_CONVERSATION_ID] = cap(req.contextId);
  if (req.messageId !== undefined) attrs[sc.ATTR_A2A_MESSAGE_ID] = cap(req.messageId);
  if (req.extensions !== undefined) Object.assign(attrs, extensionsAttributes(req.extensions));
  return Object.assign(attrs, negotiationAttributes(start.negotiated));
}

/** The A2A extensions a call activates (bounded by requestExtensions): a protocol identifier. */
export function extensionsAttributes(extensions: readonly string[]): Attributes {
  return extensions.length > 0 ? { [sc.ATTR_A2A_REQUEST_EXTENSIONS]: [...extensions] } : {};
}

/**
 * An operation span's name: the A2A operation, or under the GenAI conventions' opt-in
 * (`genAiSpanNames`) `invoke_agent {gen_ai.agent.name}` for the operations that invoke an agent.
 */
export function operationSpanName(
  operation: OperationName,
  attributes: Attributes,
  genAiSpanNames: boolean,
): string {
  if (!genAiSpanNames || !isSendOperation(operation)) return operation;
  const agent = attributes[sc.ATTR_GEN_AI_AGENT_NAME];
  return typeof agent === 'string' && agent.length > 0
    ? `${sc.SPAN_INVOKE_AGENT} ${agent}`
    : sc.SPAN_INVOKE_AGENT;
}

/** A card fetch span's start attributes: the peer. */
export function cardFetchStartAttributes(url: Pick<UrlFacts, 'host' | 'port'>): Attributes {
  return peerAttributes(url);
}

/** gRPC binding: the RPC conventions, set once the request is known. */
export function grpcCallAttributes(service: string, method: string): Attributes {
  return {
    [sc.ATTR_RPC_SYSTEM]: 'grpc',
    [sc.ATTR_RPC_SERVICE]: service,
    [sc.ATTR_RPC_METHOD]: method,
  };
}

// --- the response -------------------------------------------------------------------------

/** The (final, not a redirect's) response status. */
export function responseHeadersAttributes(statusCode: number): Attributes {
  return { [sc.ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode };
}

/** An HTTP 4xx/5xx answer: an error whatever the body says (a decoded A2A error refines it). */
export function httpErrorUpdate(statusCode: number): SpanUpdate {
  return {
    attributes: { [sc.ATTR_ERROR_TYPE]: String(statusCode) },
    status: { code: SpanStatusCode.ERROR, message: `HTTP ${statusCode}` },
  };
}

/** What a card response adds to the card fetch span (card-response.ts). */
export interface CardFetched {
  update: CardUpdate;
  fresh?: Freshness;
  skillCount: number;
  /** The protocol version the card speaks (cardProtocolVersion). */
  protocolVersion?: string;
}

/**
 * A card response's attributes: the card's, its freshness, skill count and version; the previous
 * fingerprint when it changed, and whether (and from what) its version changed.
 */
export function cardResponseAttributes(c: CardFetched): Attributes {
  const { update, fresh } = c;
  const attrs: Attributes = { ...cardAttributes(update.entry) };
  if (fresh?.maxAge !== undefined) attrs[sc.ATTR_A2A_AGENT_CARD_MAX_AGE] = fresh.maxAge;
  if (fresh?.etag !== undefined) attrs[sc.ATTR_A2A_AGENT_CARD_ETAG] = fresh.etag;
  if (fresh?.lastModified !== undefined)
    attrs[sc.ATTR_A2A_AGENT_CARD_LAST_MODIFIED] = fresh.lastModified;
  attrs[sc.ATTR_A2A_AGENT_CARD_SKILL_COUNT] = c.skillCount;
  if (c.protocolVersion !== undefined) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = c.protocolVersion;
  if (
    update.previousFingerprint !== undefined &&
    update.previousFingerprint !== update.entry.fingerprint
  )
    attrs[sc.ATTR_A2A_AGENT_CARD_PREVIOUS_FINGERPRINT] = update.previousFingerprint;
  if (update.versionChanged) {
    attrs[sc.ATTR_A2A_AGENT_CARD_VERSION_CHANGED] = true;
    if (update.previousVersion !== undefined)
      attrs[sc.ATTR_A2A_AGENT_CARD_PREVIOUS_VERSION] = cap(update.previousVersion);
  }
  return attrs;
}

/** What the span already says when a result comes (a stream repeats what it said). */
export interface ResultSeen {
  /** The task id on the span (the request's or an earlier result's): the first one stays. */
  taskId?: string;
  /** The conversation id and task state last set. */
  contextId?: string;
  state?: string;
  /** The request said its version: the result's does not replace it. */
  requestVersion?: string;
  /**
   * The version (as the result said it) last set from a result: a stream repeats it on every
   * event, and setting it again would change nothing.
   */
  resultVersion?: string;
  /** The call already showed drift: its `error.type` stays. */
  drifted: boolean;
}

/**
 * What a result that changes nothing on its span returns (a stream event repeating the task id,
 * conversation id, state and version already said): shared and frozen, so most events of a
 * stream allocate no update; CallSpan applies nothing for it.
 */
export const NO_RESULT_UPDATE: SpanUpdate = Object.freeze({
  attributes: Object.freeze({}) as Attributes,
});

/**
 * One decoded result (a response, a stream event, a gRPC message or status, a push): the task id
 * (when none is on the span yet), the conversation id and task state (when they changed), the
 * version the result speaks (when the request did not say), and for an A2A error its code as
 * `error.type` (unless drift said) and the status (its code and reason only: the peer's text may
 * echo the request).
 */
export function resultUpdate(result: DecodedResult, seen: ResultSeen): SpanUpdate {
  const newTask = result.taskId !== undefined && seen.taskId === undefined;
  const newContext = result.contextId !== undefined && result.contextId !== seen.contextId;
  const newState = result.state !== undefined && result.state !== seen.state;
  const newVersion =
    !!result.protocolVersion &&
    !seen.requestVersion &&
    result.protocolVersion !== seen.resultVersion;
  const error = result.error;
  // A stream event repeating what the span already says: nothing to set, nothing allocated.
  if (!newTask && !newContext && !newState && !newVersion && error === undefined)
    return NO_RESULT_UPDATE;
  const attrs: Attributes = {};
  if (newTask) attrs[sc.ATTR_A2A_TASK_ID] = cap(result.taskId as string);
  if (newContext) attrs[sc.ATTR_GEN_AI_CONVERSATION_ID] = cap(result.contextId as string);
  if (newState) attrs[sc.ATTR_A2A_TASK_STATE] = result.state as string;
  if (newVersion) {
    const v = result.protocolVersion as string;
    attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = normaliseVersion(v) ?? v;
  }
  if (error === undefined) return { attributes: attrs };
  if (error.code !== undefined && !seen.drifted) attrs[sc.ATTR_ERROR_TYPE] = String(error.code);
  return {
    attributes: attrs,
    status: {
      code: SpanStatusCode.ERROR,
      message: `A2A error ${error.code ?? ''}${error.reason ? ` ${cap(error.reason)}` : ''}`.trim(),
    },
  };
}

/** A pushed update: what it carried. */
export function pushPayloadAttributes(result: DecodedResult): Attributes {
  return result.kind !== 'other' ? { [sc.ATTR_A2A_PUSH_PAYLOAD]: result.kind } : {};
}

/** Why the exchange could not be judged for drift (the first reason only: the caller's rule). */
export function unjudgedAttributes(reason: string): Attributes {
  return { [sc.ATTR_A2A_UNJUDGED_REASON]: reason };
}

/** A thrown error ending the call: its name as `error.type`, its message made safe. */
export function thrownErrorUpdate(err: Error): SpanUpdate {
  return {
    attributes: { [sc.ATTR_ERROR_TYPE]: cap(err.name || 'Error') },
    status: { code: SpanStatusCode.ERROR, message: safeMessage(err.message) },
  };
}

/** The protocol version a call speaks, told at its end (the card's, across families). */
export function protocolVersionAttributes(version: string): Attributes {
  return { [sc.ATTR_A2A_PROTOCOL_VERSION]: version };
}

/** The end of the call: the number of stream events, when more than one. */
export function callEndAttributes(events: number): Attributes {
  return events > 1 ? { [sc.ATTR_A2A_STREAM_EVENTS]: events } : {};
}

/** gRPC binding: the call's final status code. */
export function grpcStatusAttributes(code: number): Attributes {
  return { [sc.ATTR_RPC_GRPC_STATUS_CODE]: code };
}

// --- drift --------------------------------------------------------------------------------

/** What a drift tells its span: attributes, status and the event to add. */
export interface DriftUpdate extends SpanUpdate {
  /** card_changed: the span event (the span keeps status UNSET); other kinds record the error. */
  event?: { name: string; attributes: Attributes };
}

/**
 * A drift on its span. card_changed is the confirmation, not a failure (status UNSET, an event);
 * every other kind is an error. `confirmedBy`: the card fetched again that confirmed a
 * content-level suspicion (its fingerprint is the current one).
 */
export function driftUpdate(event: DriftEvent, confirmedBy?: { fingerprint: string }): DriftUpdate {
  const attrs = driftAttributes(event);
  if (confirmedBy !== undefined) {
    attrs[sc.ATTR_A2A_DRIFT_REFETCH] = 'changed';
    attrs[sc.ATTR_A2A_DRIFT_CONFIRMED] = true;
    attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = confirmedBy.fingerprint;
  }
  if (event.kind === 'card_changed')
    return {
      attributes: attrs,
      event: { name: sc.EVENT_AGENT_CARD_CHANGED, attributes: cardChangedEventAttributes(event) },
    };
  return {
    attributes: attrs,
    status: { code: SpanStatusCode.ERROR, message: safeMessage(event.error.message) },
  };
}

/**
 * refetchCardOnDrift: what the card fetched again says of the one in use (`inUse`): `failed`
 * (no fingerprint), else `changed` or `unchanged`, whether that confirms the drift, and the
 * current fingerprint when it changed.
 */
export function refetchAttributes(fingerprint: string | undefined, inUse: string): Attributes {
  if (fingerprint === undefined) return { [sc.ATTR_A2A_DRIFT_REFETCH]: 'failed' };
  const changed = fingerprint !== inUse;
  const attrs: Attributes = {
    [sc.ATTR_A2A_DRIFT_REFETCH]: changed ? 'changed' : 'unchanged',
    [sc.ATTR_A2A_DRIFT_CONFIRMED]: changed,
  };
  if (changed) attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = fingerprint;
  return attrs;
}

/** A content-level suspicion the card fetched again did not confirm: the kind, what the re-fetch found. */
export function unconfirmedAttributes(
  event: Pick<DriftEvent, 'kind' | 'suspicion'>,
  refetch: 'unchanged' | 'failed' | 'not_a_card' | 'skipped_credentials',
): Attributes {
  const attrs: Attributes = {
    [sc.ATTR_A2A_DRIFT_UNCONFIRMED]: event.kind,
    [sc.ATTR_A2A_DRIFT_REFETCH]: refetch,
  };
  if (event.suspicion !== undefined) attrs[sc.ATTR_A2A_DRIFT_SUSPICION] = event.suspicion;
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
  if (event.scope !== undefined) attrs[sc.ATTR_A2A_DRIFT_SCOPE] = event.scope;
  if (event.suspicion !== undefined) attrs[sc.ATTR_A2A_DRIFT_SUSPICION] = event.suspicion;
  // a card of the agent itself says it: confirmed by definition
  if (event.evidence === 'card') attrs[sc.ATTR_A2A_DRIFT_CONFIRMED] = true;
  if (event.currentFingerprint !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = event.currentFingerprint;
  if (event.previousFingerprint !== undefined) {
    attrs[sc.ATTR_A2A_DRIFT_PREVIOUS_FINGERPRINT] = event.previousFingerprint;
    if (event.fingerprint !== undefined)
      attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = event.fingerprint;
  }
  Object.assign(attrs, cardDiffAttributes(event));
  return attrs;
}

/** The `a2a.agent_card.changed` span event's attributes. */
export function cardChangedEventAttributes(event: DriftEvent): Attributes {
  const attrs: Attributes = { [sc.ATTR_A2A_DRIFT_KIND]: event.kind };
  if (event.previousFingerprint !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_PREVIOUS_FINGERPRINT] = event.previousFingerprint;
  if (event.fingerprint !== undefined)
    attrs[sc.ATTR_A2A_DRIFT_CURRENT_FINGERPRINT] = event.fingerprint;
  Object.assign(attrs, cardDiffAttributes(event));
  return attrs;
}

/**
 * What changed on a card_changed (its diff, ids only; each list bounded by the diff): the skills
 * removed, added, with other modes, and the capabilities flipped. Empty lists are left out.
 */
export function cardDiffAttributes(event: DriftEvent): Attributes {
  const diff = event.diff;
  if (event.kind !== 'card_changed' || diff === undefined) return {};
  const attrs: Attributes = {};
  if (diff.removed.length > 0) attrs[sc.ATTR_A2A_AGENT_CARD_SKILLS_REMOVED] = [...diff.removed];
  if (diff.added.length > 0) attrs[sc.ATTR_A2A_AGENT_CARD_SKILLS_ADDED] = [...diff.added];
  if (diff.modesChanged.length > 0)
    attrs[sc.ATTR_A2A_AGENT_CARD_SKILLS_MODES_CHANGED] = diff.modesChanged.map((m) => m.id);
  if (diff.truncated) attrs[sc.ATTR_A2A_AGENT_CARD_SKILLS_CHANGED_TRUNCATED] = true;
  if (diff.capabilities.length > 0)
    attrs[sc.ATTR_A2A_AGENT_CARD_CAPABILITIES_CHANGED] = [...diff.capabilities];
  return attrs;
}

/** The attributes of one of the package's own card requests (a2a.client.card_requests). */
export function cardRequestAttributes(purpose: string, result: string): Attributes {
  return {
    [sc.ATTR_A2A_AGENT_CARD_REQUEST_PURPOSE]: purpose,
    [sc.ATTR_A2A_AGENT_CARD_REQUEST_RESULT]: result,
  };
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
    attrs[sc.ATTR_A2A_AGENT_CARD_URL] = cap(reportedCardUrl(event.cardUrl));
  if (event.flapping === true) attrs[sc.ATTR_A2A_AGENT_CARD_FLAPPING] = true;
  if (peer.host !== undefined) {
    attrs[sc.ATTR_SERVER_ADDRESS] = peer.host;
    attrs[sc.ATTR_SERVER_PORT] = peer.port;
  }
  return attrs;
}

// --- the agent's side (server-calls.ts) ------------------------------------------------------

/** What a SERVER span of an inbound A2A operation is started with. */
export interface ServerCallStart {
  request: DecodedRequest;
  verdict: CallerVerdict;
  served: ServedCard | undefined;
}

/**
 * A SERVER span's attributes: the operation, binding and version the request spoke, the ids it
 * carries, the skill it names, the served card (fingerprint, URL, agent), and a stale caller's
 * kind and announced fingerprint, or why it could not be judged.
 */
export function serverCallAttributes(start: ServerCallStart): Attributes {
  const req = start.request;
  const v = start.verdict;
  const attrs: Attributes = {
    [sc.ATTR_A2A_METHOD_NAME]: req.operation,
    [sc.ATTR_A2A_BINDING]: req.binding,
  };
  if (isSendOperation(req.operation))
    attrs[sc.ATTR_GEN_AI_OPERATION_NAME] = sc.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT;
  if (req.protocolVersion) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = req.protocolVersion;
  else if (start.served?.card.protocolVersion !== undefined) {
    const fromCard = normaliseVersion(start.served.card.protocolVersion);
    if (fromCard !== undefined) attrs[sc.ATTR_A2A_PROTOCOL_VERSION] = fromCard;
  }
  if (req.taskId !== undefined) attrs[sc.ATTR_A2A_TASK_ID] = cap(req.taskId);
  if (req.contextId !== undefined) attrs[sc.ATTR_GEN_AI_CONVERSATION_ID] = cap(req.contextId);
  if (req.messageId !== undefined) attrs[sc.ATTR_A2A_MESSAGE_ID] = cap(req.messageId);
  if (v.skillId !== undefined) {
    attrs[sc.ATTR_A2A_SKILL_ID] = cap(v.skillId);
    if (v.skillIdSource !== undefined) attrs[sc.ATTR_A2A_SKILL_ID_SOURCE] = v.skillIdSource;
  }
  const served = start.served;
  if (served !== undefined) {
    attrs[sc.ATTR_A2A_AGENT_CARD_FINGERPRINT] = served.fingerprint;
    attrs[sc.ATTR_A2A_AGENT_CARD_URL] = cap(reportedCardUrl(served.url));
    if (served.card.name !== undefined) attrs[sc.ATTR_GEN_AI_AGENT_NAME] = cap(served.card.name);
    if (served.card.version !== undefined)
      attrs[sc.ATTR_GEN_AI_AGENT_VERSION] = cap(served.card.version);
  }
  if (v.callerFingerprint !== undefined && v.callerFingerprint !== served?.fingerprint)
    attrs[sc.ATTR_A2A_CALLER_CARD_FINGERPRINT] = v.callerFingerprint;
  if (v.drift !== undefined) attrs[sc.ATTR_A2A_DRIFT_KIND] = v.drift;
  else if (v.unjudged !== undefined) attrs[sc.ATTR_A2A_UNJUDGED_REASON] = v.unjudged;
  return attrs;
}

/** A stale caller's `a2a.drift` span event (the span's status is left alone). */
export function callerDriftEvent(verdict: CallerVerdict): { name: string; attributes: Attributes } {
  const attrs: Attributes = {};
  if (verdict.drift !== undefined) attrs[sc.ATTR_A2A_DRIFT_KIND] = verdict.drift;
  if (verdict.skillId !== undefined) attrs[sc.ATTR_A2A_SKILL_ID] = cap(verdict.skillId);
  if (verdict.callerFingerprint !== undefined)
    attrs[sc.ATTR_A2A_CALLER_CARD_FINGERPRINT] = verdict.callerFingerprint;
  return { name: sc.EVENT_DRIFT, attributes: attrs };
}

/** The server's answer status on its SERVER span: an error only for a 5xx (the server's own). */
export function serverResponseUpdate(statusCode: number, finished: boolean): SpanUpdate {
  const attributes: Attributes = { [sc.ATTR_HTTP_RESPONSE_STATUS_CODE]: statusCode };
  if (statusCode >= 500)
    return {
      attributes: { ...attributes, [sc.ATTR_ERROR_TYPE]: String(statusCode) },
      status: { code: SpanStatusCode.ERROR, message: `HTTP ${statusCode}` },
    };
  if (!finished)
    return {
      attributes: {
        ...attributes,
        [sc.ATTR_A2A_UNJUDGED_REASON]: 'connection closed before the answer ended',
      },
    };
  return { attributes };
}

/** `a2a.server.stale_calls`' labels: the kind, the skill (bounded by the caller), the served card. */
/** What an onStaleCaller callback is told about a stale caller's call (`v.drift` set). */
export function staleCallerEvent(
  operation: string,
  v: CallerVerdict,
  served: ServedCard | undefined,
): StaleCallerEvent {
  const event: StaleCallerEvent = { kind: v.drift!, operation };
  if (v.skillId !== undefined) event.skillId = cap(v.skillId);
  if (v.callerFingerprint !== undefined) event.callerFingerprint = v.callerFingerprint;
  if (served !== undefined) {
    event.fingerprint = served.fingerprint;
    event.cardUrl = reportedCardUrl(served.url);
    if (served.card.name !== undefined) event.agentName = cap(served.card.name);
  }
  return event;
}

export function staleCallMetricAttributes(
  kind: string,
  skillLabel: string | undefined,
  served: ServedCard | undefined,
): Attributes {
  const attrs: Attributes = { [sc.ATTR_A2A_DRIFT_KIND]: kind };
  if (skillLabel !== undefined) attrs[sc.ATTR_A2A_SKILL_ID] = cap(skillLabel);
  if (served !== undefined) attrs[sc.ATTR_A2A_AGENT_CARD_URL] = cap(reportedCardUrl(served.url));
  return attrs;
}
