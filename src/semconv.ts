/**
 * Every span, attribute, event and metric name this package emits, in one place.
 * Names marked semconv follow OpenTelemetry's GenAI semantic conventions for A2A
 * (development status); they are copied here rather than imported from the
 * incubating entry at run time. The others are this package's own public contract (the spans
 * and attributes the documentation lists): they change only with a major version.
 *
 * Only this file spells them, and only telemetry/span-attributes.ts (the attribute builder) uses
 * the attribute and event names (test/telemetry/attribute-names.test.ts checks both): a new
 * attribute is a name here, its value in the builder, and a line in the documentation.
 */

export const SPAN_GET_AGENT_CARD = 'GetAgentCard';
/** A task update an agent pushed to the application's webhook (push notifications). */
export const SPAN_TASK_PUSH_NOTIFICATION = 'TaskPushNotification';
/**
 * GenAI conventions' invoke agent client span name, `invoke_agent {gen_ai.agent.name}` (or
 * `invoke_agent` when the name is not known), used for SendMessage and SendStreamingMessage only
 * under `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`.
 */
export const SPAN_INVOKE_AGENT = 'invoke_agent';
/** The opt-in value of `OTEL_SEMCONV_STABILITY_OPT_IN` for the GenAI conventions' latest names. */
export const SEMCONV_OPT_IN_GEN_AI = 'gen_ai_latest_experimental';

// semconv
export const ATTR_A2A_METHOD_NAME = 'a2a.method.name';
export const ATTR_A2A_PROTOCOL_VERSION = 'a2a.protocol.version';
export const ATTR_A2A_TASK_ID = 'a2a.task.id';
export const ATTR_A2A_TASK_STATE = 'a2a.task.state';
export const ATTR_A2A_MESSAGE_ID = 'a2a.message.id';
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const ATTR_GEN_AI_AGENT_VERSION = 'gen_ai.agent.version';
/** GenAI conventions (development): `invoke_agent` on the operations that invoke an agent. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT = 'invoke_agent';
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';

// this package
export const ATTR_A2A_SKILL_ID = 'a2a.skill.id';
/**
 * Where the skill id came from: a configured request path such as `params.skillId`, or
 * `application` (withSkill).
 */
export const ATTR_A2A_SKILL_ID_SOURCE = 'a2a.skill.id_source';
export const ATTR_A2A_AGENT_CARD_FINGERPRINT = 'a2a.agent_card.fingerprint';
export const ATTR_A2A_AGENT_CARD_URL = 'a2a.agent_card.url';
/** The card in use was already implicated in a drift and has not been re-fetched since. */
export const ATTR_A2A_AGENT_CARD_SUSPECT = 'a2a.agent_card.suspect';
/**
 * Who implicated the card in use: `local` (this process saw the drift) or `fleet` (an alert from
 * another instance).
 */
export const ATTR_A2A_AGENT_CARD_SUSPECT_SOURCE = 'a2a.agent_card.suspect_source';
/**
 * On GetAgentCard: the card response's freshness: `Cache-Control` max-age (seconds), `ETag`,
 * `Last-Modified`.
 */
export const ATTR_A2A_AGENT_CARD_MAX_AGE = 'a2a.agent_card.max_age_s';
export const ATTR_A2A_AGENT_CARD_ETAG = 'a2a.agent_card.etag';
export const ATTR_A2A_AGENT_CARD_LAST_MODIFIED = 'a2a.agent_card.last_modified';
/** On GetAgentCard: the card's fingerprint before this fetch, when it was fetched before. */
export const ATTR_A2A_AGENT_CARD_PREVIOUS_FINGERPRINT = 'a2a.agent_card.previous_fingerprint';
/**
 * On GetAgentCard: the card's `version` changed since the previous fetch (not an error by itself).
 */
export const ATTR_A2A_AGENT_CARD_VERSION_CHANGED = 'a2a.agent_card.version_changed';
export const ATTR_A2A_AGENT_CARD_PREVIOUS_VERSION = 'a2a.agent_card.previous_version';
export const ATTR_A2A_AGENT_CARD_SKILL_COUNT = 'a2a.agent_card.skill_count';
/**
 * On lifecycle calls (GetTask, SubscribeToTask, CancelTask): whether the SendMessage that created
 * the task is still remembered.
 */
export const ATTR_A2A_LIFECYCLE_NEGOTIATION_KNOWN = 'a2a.lifecycle.negotiation_known';
/** TaskPushNotification: what the push carried (`task`, `status-update`, `artifact-update`, `message`). */
export const ATTR_A2A_PUSH_PAYLOAD = 'a2a.push.payload';
export const ATTR_A2A_BINDING = 'a2a.binding';
/** gRPC binding: the OpenTelemetry RPC conventions (`rpc.system` = `grpc`). */
export const ATTR_RPC_SYSTEM = 'rpc.system';
export const ATTR_RPC_SERVICE = 'rpc.service';
export const ATTR_RPC_METHOD = 'rpc.method';
export const ATTR_RPC_GRPC_STATUS_CODE = 'rpc.grpc.status_code';
export const ATTR_A2A_STREAM_EVENTS = 'a2a.stream.event_count';
/**
 * Why the exchange could not be judged for drift (body over the cap, not JSON, no card known, ...).
 */
export const ATTR_A2A_UNJUDGED_REASON = 'a2a.drift.unjudged_reason';

export const ATTR_A2A_DRIFT_KIND = 'a2a.drift.kind';
export const ATTR_A2A_DRIFT_EXPECTED_MODES = 'a2a.drift.expected_output_modes';
export const ATTR_A2A_DRIFT_ACTUAL_MEDIA_TYPE = 'a2a.drift.actual_media_type';
/** Every mismatching media type of the answer (string[]), the most telling first-found order. */
export const ATTR_A2A_DRIFT_ACTUAL_MEDIA_TYPES = 'a2a.drift.actual_media_types';
export const ATTR_A2A_DRIFT_PATTERN = 'a2a.drift.matched_pattern';
export const ATTR_A2A_DRIFT_RPC_CODE = 'a2a.drift.rpc_code';
export const ATTR_A2A_DRIFT_PREVIOUS_FINGERPRINT = 'a2a.drift.previous_fingerprint';
export const ATTR_A2A_DRIFT_CURRENT_FINGERPRINT = 'a2a.drift.current_fingerprint';

/**
 * refetchCardOnDrift: what the confirming re-fetch found: `changed`, `unchanged` (the peer is
 * broken, not the cache) or `failed`.
 */
export const ATTR_A2A_DRIFT_REFETCH = 'a2a.drift.refetch';
/** refetchCardOnDrift: the card really changed since the one in use. */
export const ATTR_A2A_DRIFT_CONFIRMED = 'a2a.drift.confirmed';
/** Drift spans: `protocol` or `content` (an answer's words, confirmed by the card fetched again). */
export const ATTR_A2A_DRIFT_EVIDENCE = 'a2a.drift.evidence';
/** A content-level suspicion the card fetched again did not confirm: the kind suspected. */
export const ATTR_A2A_DRIFT_UNCONFIRMED = 'a2a.drift.unconfirmed';
/**
 * Evidence `card`: what made the card be looked at (`failure`, `words`, `revalidation`,
 * `history`); also on an unconfirmed suspicion.
 */
export const ATTR_A2A_DRIFT_SUSPICION = 'a2a.drift.suspicion';
/** card_changed: the skill ids the new card no longer lists (at most 32). */
export const ATTR_A2A_AGENT_CARD_SKILLS_REMOVED = 'a2a.agent_card.skills_removed';
/** card_changed: the skill ids the new card adds (at most 32). */
export const ATTR_A2A_AGENT_CARD_SKILLS_ADDED = 'a2a.agent_card.skills_added';
/** card_changed: the skill ids whose input or output modes changed (at most 32). */
export const ATTR_A2A_AGENT_CARD_SKILLS_MODES_CHANGED = 'a2a.agent_card.skills_modes_changed';
/** card_changed: true when a list above was cut at 32 ids. */
export const ATTR_A2A_AGENT_CARD_SKILLS_CHANGED_TRUNCATED =
  'a2a.agent_card.skills_changed_truncated';
/** card_changed: the capabilities flipped (`streaming`, `push_notifications`). */
export const ATTR_A2A_AGENT_CARD_CAPABILITIES_CHANGED = 'a2a.agent_card.capabilities_changed';

/**
 * Span event on the GetAgentCard span whose card changed under the same version (card_changed: not
 * an error).
 */
export const EVENT_AGENT_CARD_CHANGED = 'a2a.agent_card.changed';

export const METRIC_CARD_DRIFT = 'a2a.client.card_drift';
export const METRIC_CARD_DRIFT_UNIT = '{event}';

/**
 * The package's own card requests (a confirming re-fetch, a background revalidation): a counter
 * by why it was made and what it found (`skipped_credentials`: none was made, the card needs the
 * app's credentials). A card_changed of a card alternating between two fingerprints (a rolling
 * deploy serving two cards at one URL) says so with `a2a.agent_card.flapping=true`, counted once
 * per transition per debounce window.
 */
export const METRIC_CARD_REQUESTS = 'a2a.client.card_requests';
export const METRIC_CARD_REQUESTS_UNIT = '{request}';
/** `confirmation` | `revalidation` */
export const ATTR_A2A_AGENT_CARD_REQUEST_PURPOSE = 'a2a.agent_card.request_purpose';
/** `unchanged` | `not_modified` | `changed` | `not_a_card` | `failed` | `skipped_credentials` */
export const ATTR_A2A_AGENT_CARD_REQUEST_RESULT = 'a2a.agent_card.request_result';
export const ATTR_A2A_AGENT_CARD_FLAPPING = 'a2a.agent_card.flapping';

/**
 * The drift counter's labels as a fleet alert carries them, each under both of its spellings:
 * the Prometheus name (dots escaped to underscores) and the attribute's own name (Prometheus 3's
 * UTF-8 names, `translation_strategy: NoUTF8EscapingWithSuffixes`).
 */
export const ALERT_LABEL_CARD_URL = ['a2a_agent_card_url', ATTR_A2A_AGENT_CARD_URL] as const;
export const ALERT_LABEL_DRIFT_KIND = ['a2a_drift_kind', ATTR_A2A_DRIFT_KIND] as const;
export const ALERT_LABEL_SKILL_ID = ['a2a_skill_id', ATTR_A2A_SKILL_ID] as const;
export const ALERT_LABEL_AGENT_NAME = ['gen_ai_agent_name', ATTR_GEN_AI_AGENT_NAME] as const;

// Which skill a call is for, however the caller names it, and the extensions it activates.
/**
 * output_mode_mismatch of a call that named no skill, judged against the card as a whole:
 * `card` (no `a2a.skill.id`); otherwise `skill` (left out).
 */
export const ATTR_A2A_DRIFT_SCOPE = 'a2a.drift.scope';
/** The A2A extension URIs the call activates (its `A2A-Extensions` header), at most 16. */
export const ATTR_A2A_REQUEST_EXTENSIONS = 'a2a.request.extensions';
// --- the agent's side: SERVER spans, stale callers, the card fingerprint on the wire ----------

/**
 * The span event of a stale caller on the SERVER span (`a2a.drift.kind` =
 * `caller_skill_not_in_card` | `caller_card_stale`); the span's status stays the server's own.
 */
export const EVENT_DRIFT = 'a2a.drift';
/** The fingerprint of the card a caller announced (request header) when it is not the served one. */
export const ATTR_A2A_CALLER_CARD_FINGERPRINT = 'a2a.caller.card_fingerprint';
/** Inbound A2A calls from stale callers, by kind, skill (bounded) and served card URL. */
export const METRIC_SERVER_STALE_CALLS = 'a2a.server.stale_calls';
export const METRIC_SERVER_STALE_CALLS_UNIT = '{call}';
/**
 * The card fingerprint on the wire, both ways (docs/card-fingerprint-extension.md): an agent's
 * response announces the fingerprint of the card it serves; a caller's request announces the
 * fingerprint of the card it negotiated with. An HTTP header, not an attribute (lower-case, as
 * Node and undici hand headers over).
 */
export const HEADER_CARD_FINGERPRINT = 'a2a-card-fingerprint';
/** The A2A extension that documents the header (its URI, for `capabilities.extensions`). */
export const EXTENSION_CARD_FINGERPRINT_URI =
  'urn:opentelemetry-instrumentation-a2a:extension:card-fingerprint:v1';
