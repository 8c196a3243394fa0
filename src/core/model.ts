/**
 * The normalised model every wire dialect (A2A 0.1, 0.2, 0.3, 1.0; JSON-RPC and
 * HTTP+JSON) is decoded into. Pure data: no OpenTelemetry, no I/O.
 *
 * Decoders are total: they accept any value JSON can hold (and `undefined`) and never
 * throw. What they cannot make sense of is said in `problem`, never guessed.
 */

/** A2A operations, always by their 1.0 name. */
export type OperationName =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'ListTasks'
  | 'GetExtendedAgentCard'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig';

export type Binding = 'jsonrpc' | 'http+json' | 'grpc';

/** Where a request's skill id came from. `application` = declared by the app (withSkill). */
export type SkillIdSource = string;

/** One A2A request as seen on the wire. */
export interface DecodedRequest {
  operation: OperationName;
  /**
   * The method as the peer spoke it: `tasks/send`, `message/send`, `SendMessage`, `POST
   * /v1/message:send`.
   */
  wireMethod: string;
  binding: Binding;
  /**
   * `0.1`, `0.2`, `0.3` or `1.0` when the request tells it (method name, part shape, header, path,
   * gRPC service name).
   */
  protocolVersion?: string;
  /** True for SendStreamingMessage and SubscribeToTask (the response is an SSE stream). */
  streaming: boolean;
  rpcId?: string | number;
  taskId?: string;
  contextId?: string;
  messageId?: string;
  skillId?: string;
  /** The configured location the skill id was found at, e.g. `params.skillId`. */
  skillIdSource?: SkillIdSource;
  /** 1.0 `tenant` as sent in the request params / REST body (never taken from the URL path). */
  tenant?: string;
  /**
   * SendMessage / SendStreamingMessage: the kinds and media types of the message's parts (no
   * content).
   */
  messageParts?: DecodedPart[];
  /**
   * Skill names a data part of the sent message gives under a `skill` / `skillId` / `skill_id`
   * key (`{"skill": "get_products", "parameters": {...}}`), with the key, e.g.
   * `message.parts[].data.skill`. Candidates only: a skill id is taken from them when no
   * configured path held one and the card in use lists the name (negotiation).
   */
  partSkillNames?: Array<{ name: string; source: string }>;
  /**
   * Skill names the message's or the request's metadata gives under a key that names a skill
   * (`a2a.skillId`, `skill`, ...: isSkillKey in protocol/common.ts), with where, e.g.
   * `params.message.metadata["a2a.skillId"]`. Candidates only, as partSkillNames.
   */
  metadataSkillNames?: Array<{ name: string; source: string }>;
  /**
   * The A2A extensions the call activates (its `A2A-Extensions` header: protocol/common.ts
   * requestExtensions); set by the recogniser, which sees the headers.
   */
  extensions?: string[];
  /**
   * The push-notification webhook this request registers (SendMessage's configuration,
   * CreateTaskPushNotificationConfig); its secret only as digests (core/push.ts).
   */
  pushWebhook?: PushWebhook;
}

/** A webhook as the application registered it. */
export interface PushWebhook {
  /** `pathname + search` of the URL, as the agent's POST request line carries it. */
  pathKey: string;
  /** `host[:port]` of the URL, lower-cased, default port dropped. */
  authority: string;
  /** The URL's port (default port of its scheme when none is written). */
  port: number;
  /** SHA-256 digests of the header values a genuine push carries (see `secretDigest`). */
  secrets: readonly string[];
}

/** Task states, always in their 1.0 spelling. */
export type TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_UNSPECIFIED';

export type PartKind = 'text' | 'file' | 'data' | 'unknown';

export interface DecodedPart {
  kind: PartKind;
  /** The explicit media type: 1.0 `mediaType`, or a file's `mimeType` (0.1–0.3). */
  mediaType?: string;
  /**
   * Set when the part (or its artifact) is marked as the agent's intermediate work rather than
   * its answer (a tool call or result, a thought, a code step): the marker, e.g.
   * `adk_type=function_call`. Such parts are not judged as output (output-parts.ts).
   */
  intermediate?: string;
}

export interface DecodedArtifact {
  artifactId?: string;
  parts: DecodedPart[];
}

export interface RpcError {
  code?: number;
  message?: string;
  /** Kept for the judge only (e.g. to see a skill id named in it); never exported. */
  data?: unknown;
  /**
   * A symbolic reason when the peer gave one: the `reason` of a `google.rpc.ErrorInfo` in
   * `data` / `details` (1.0, e.g. `TASK_NOT_FOUND`), else a REST error's `status` name
   * (e.g. `NOT_FOUND`).
   */
  reason?: string;
}

export type ResultKind =
  'task' | 'message' | 'status-update' | 'artifact-update' | 'task-list' | 'error' | 'other';

/** One response body, or one stream event. */
export interface DecodedResult {
  kind: ResultKind;
  error?: RpcError;
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  /**
   * The text of the status message's text parts, joined by a space, capped in length.
   * Only the judge reads it (failure patterns); it is never exported.
   */
  statusText?: string;
  /** Text of the last agent message in a task's `history` (capped; judge only, never exported). */
  historyText?: string;
  /** Text of the artifacts' text parts (capped; judge only, never exported). */
  artifactText?: string;
  /** Text of a Message result's text parts (capped; judge only, never exported). */
  messageText?: string;
  artifacts: DecodedArtifact[];
  /**
   * The parts of a Message result (kind `message`): an agent's direct reply, which is
   * output just as artifacts are. Absent for other kinds.
   */
  messageParts?: DecodedPart[];
  /** Artifact update: its parts extend the artifact sent before (`append: true`). */
  append?: boolean;
  /** Stream: this event ends the stream (0.2–0.3 `final`, or a terminal state). */
  final?: boolean;
  /** Inferred from the shape where the request did not tell. */
  protocolVersion?: string;
  /**
   * The method-name family of the versions the shapes leave, when they leave several of one
   * family (`0`: 0.x, `1`: 1.x) and no single version.
   */
  versionFamily?: '0' | '1';
  /**
   * Why this could not be decoded (or only partly). Present => the judge will not claim drift from
   * what is missing.
   */
  problem?: string;
}

export interface AgentEndpoint {
  url: string;
  /** `JSONRPC`, `HTTP+JSON`, `GRPC`, ... as the card says. */
  binding?: string;
  protocolVersion?: string;
  /** 1.0 `supportedInterfaces[].tenant`. */
  tenant?: string;
}

export interface SkillInfo {
  id: string;
  /** The skill's `name` in the card (frameworks often name it after the tool behind it). */
  name?: string;
  /** Effective modes: the skill's own, or the card's defaults when the skill has none. */
  inputModes: string[];
  outputModes: string[];
}

export interface DecodedCard {
  name?: string;
  version?: string;
  description?: string;
  protocolVersion?: string;
  endpoints: AgentEndpoint[];
  streaming: boolean;
  pushNotifications: boolean;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: SkillInfo[];
  /** More skills than MAX_SKILLS were listed: a skill not found may be among those not read. */
  skillsTruncated?: boolean;
  problem?: string;
}

/** What an HTTP request is, as far as A2A goes. */
export type Classification =
  /**
   * `sniff`: the path only hints at a card: it is one only if its JSON answer is an Agent Card
   * (`isAgentCard`).
   */
  | { type: 'card'; extended: boolean; sniff?: boolean }
  | { type: 'operation'; request: DecodedRequest }
  | { type: 'maybe-operation' } // a POST whose body is not known yet (streamed body)
  | undefined;

/** What the client negotiated with: the card in use for this task's skill, at negotiation time. */
export interface NegotiationContext {
  skillId?: string;
  /**
   * Whether a card is known for the endpoint (false: nothing can be said about skills or modes).
   */
  cardKnown: boolean;
  cardUrl?: string;
  fingerprint?: string;
  agentName?: string;
  cardVersion?: string;
  /**
   * Whether the card in use lists `skillId` (only meaningful when cardKnown and skillId); undefined
   * when the card had more skills than were read and this one was not among them.
   */
  skillInCard?: boolean;
  /** That skill's effective output modes in the card in use. */
  outputModes?: readonly string[];
  /** That skill's effective input modes in the card in use. */
  inputModes?: readonly string[];
  /**
   * Other names a peer's text may use for the skill: its `name` in the card and the tool a
   * framework derives its id from (skill-names.ts), none of them another skill's id or name.
   */
  skillAliases?: readonly string[];
  /** Where the skill id came from when the negotiation, not the request decoder, found it. */
  skillIdSource?: string;
  /**
   * The card in use does not list the skill, and an earlier card of the same agent (card URL)
   * did: the skill was dropped by a redeploy the app has already seen.
   */
  skillInEarlierCard?: boolean;
  /**
   * The card in use lists the skill, and a newer card of the same agent, fetched by this
   * package itself (to confirm a suspicion, or to revalidate), does not: its fingerprint, and
   * what made the package fetch it.
   */
  droppedByNewerCard?: { fingerprint: string; cause: Suspicion };
  /**
   * A call that names no skill (and a card with more than one): every output mode some skill of
   * the card in use lists, and its defaultOutputModes (skill-names.ts cardOutputModes). An answer
   * part of a type outside all of them is variant B whatever skill handled it (scope `card`).
   */
  cardOutputModes?: readonly string[];
  /** A call that names no skill, and the card as a whole says nothing: why. */
  cardModesUnjudged?: string;
}

/**
 * What made the package look at a card again: a call for the skill that failed (`failure`), an
 * answer naming the skill with words of absence or failure (`words`), a background revalidation
 * (`revalidation`), an earlier card of the agent that listed the skill (`history`), or an agent
 * announcing the fingerprint of another card than the one negotiated with (`announced`).
 */
export type Suspicion = 'failure' | 'words' | 'revalidation' | 'history' | 'announced';
