/**
 * The shape of one row of the conformance table (implementations.ts): how to start the agent and
 * redeploy it in place, what it serves, where its client puts the skill id and what it can
 * express, each with the source that says so. The checks (checks.ts) read only these fields:
 * a check runs where a row declares the capability and is N/A, with the row's reason, elsewhere.
 */
import type { Json } from '../lib';

/** A running agent: what every starter returns (plus its own endpoint fields). */
export interface Peer {
  port: number;
  origin: string;
  cardUrl: string;
  /** what `ClientFactory.createFromUrl` takes */
  baseUrl?: string;
  /** the card's path under baseUrl, where it is not `/.well-known/agent-card.json` ('' : baseUrl is the card) */
  cardPath?: string;
  pid?: number | undefined;
  stop(): Promise<void>;
}

/** A peer's own endpoint field (`rpcUrl`, `jsonRpcUrl`, ...), which its starter adds. */
export function endpoint(peer: Peer, name: string): string {
  const url = (peer as unknown as Record<string, unknown>)[name];
  if (typeof url !== 'string') throw new Error(`the peer has no endpoint ${name}`);
  return url;
}

/** A fact and where it comes from (a file and line of the implementation, or a recording). */
export interface Fact<T = string> {
  value: T;
  source: string;
}

/** Which deployment: the healthy agent or a redeploy in place (same port, same card version). */
export type Variant = 'healthy' | 'A' | 'B';
/** A deployment: the variant and the starter's own options (streaming mode, how it fails...). */
export interface Deploy {
  variant: Variant;
  opts?: Record<string, unknown>;
  /** run the agent under this package's register entry (the agent's side: agent-side.ts) */
  register?: import('../child-peer.mjs').RegisterEntry;
}

/**
 * The agent's side: the row's agent runs under this package's register entry (its `start` passes
 * `Deploy.register` to the child), called by a client without the package (agent-side.ts).
 */
export interface AgentSide {
  /** how the entry is loaded: `--import` of the ESM entry, or `--require` of the CommonJS one */
  load: 'import' | 'require';
  /**
   * a call of `skill` as a client without the package sends it (the span it makes: `span.name`,
   * default SendMessage; `span.attributes` it carries)
   */
  send(skill: string): Probe;
  /** where the served card is (the path the package must know to learn it), and what says so */
  card: Fact;
  /**
   * the path of a 0.3 card the same agent serves, where its main card is 1.0 only: a2a-go's
   * client (0.3 only) reads this one (agent-side.ts)
   */
  card03Path?: string;
}

/**
 * How the app's client talks to the agent (drivers.ts runs each). `noSkill`: the client names no
 * skill anywhere in its requests (Google ADK's RemoteA2aAgent, Strands, Microsoft Agent Framework,
 * Agno clients: A2A leaves routing to the agent): the driver drops the skill id, the app declares
 * none; the checks derive this style from every row's own client specs.
 */
export type ClientSpec = ClientKind & { noSkill?: boolean };

/** The clients by kind (ClientSpec adds what every kind can do). */
export type ClientKind =
  /** `@a2a-js/sdk` 1.3's ClientFactory: from the card URL, or from the card the app holds */
  | {
      kind: 'sdk';
      transport: 'JSONRPC' | 'HTTP+JSON';
      /** its 0.3 mode (legacyCompat) */
      legacy?: boolean;
      from: 'url' | 'card';
      /** drop the 1.0 `supportedInterfaces` of a hybrid card (as a 0.3-only client sees it) */
      stripInterfaces?: boolean;
      /** a send answers before the task ends: poll GetTask until it does */
      poll?: boolean;
    }
  /** raw `fetch` of JSON-RPC (0.3 `message/send` / `message/stream`, 1.0 `SendMessage` / `SendStreamingMessage`) */
  | {
      kind: 'jsonrpc';
      version: '0.3' | '1.0';
      endpoint: string;
      poll?: boolean;
      /** 1.0 shapes under the 0.3 slash method names (what Mastra keeps) */
      slashNames?: boolean;
      /** 0.3: the key of `message.metadata` the skill id goes under (default `skillId`) */
      skillKey?: string;
    }
  /**
   * raw `fetch` of the 0.1-era `tasks/send` / `tasks/sendSubscribe` (python-a2a), each at its
   * own endpoint; the skill id declared by the app with `withSkill`, or in `message.metadata`
   */
  | { kind: 'jsonrpc01'; send: string; stream: string; skillBy: 'withSkill' | 'metadata' }
  /**
   * gRPC at the peer's `grpcTarget`: the SDK's ClientFactory with its gRPC transport (from the
   * card URL or the held card; `legacyCompat` its 0.3 mode), its 0.3 `LegacyGrpcTransport`, or
   * the 1.0 `GrpcTransportFactory`'s transport on the card
   */
  | {
      kind: 'grpc';
      via: 'factory' | 'legacy' | 'transport';
      from?: 'url' | 'card';
      legacyCompat?: boolean;
    };

/** What a call returned, the same whatever the client: checked by the checks against `Expect`. */
export interface Outcome {
  /** the task's final state, lower case: completed, failed, submitted... */
  state?: string;
  /** polled clients: the state the send answered with */
  answered?: string;
  /** the first part of the first artifact */
  part?: { kind: string; text?: string; mediaType?: string };
  /** the text of the final status message */
  statusText?: string;
  /** the agent's answer: the artifacts' text, or the last agent message of the history */
  answer?: string;
  /** how many artifacts the task has */
  artifacts?: number;
  /** stream events in order: task, status, artifact, message, error */
  events?: string[];
  /** the call failed: the client's error message, or the JSON-RPC error */
  error?: string;
  /** raw clients: the response body as received */
  wire?: string;
  /** raw clients: the response's Content-Type */
  contentType?: string | null;
  /** the task's id */
  taskId?: string;
  /** SDK-shaped clients: what the app got (task, events, or the error), to compare runs */
  raw?: unknown;
}

/** What a call must have returned (only the fields given are checked). */
export interface Expect {
  state?: string;
  /** polled clients: the state the send answered with */
  answered?: string;
  /** the text of the final status message matches */
  statusMatch?: RegExp;
  /** the `a2a.task.state` of the call's span in healthy traffic (default TASK_STATE_COMPLETED) */
  spanState?: string;
  part?: { kind?: string; text?: string; mediaType?: string };
  statusText?: string;
  answer?: string;
  artifacts?: number;
  events?: string[];
  /** the first stream event */
  firstEvent?: string;
  /** at least this many stream events */
  minEvents?: number;
  /** the call fails (its error message matches) */
  error?: RegExp;
  /** the wire (raw clients) matches */
  wire?: RegExp;
  /** the response's Content-Type (raw clients) */
  contentType?: string;
  /** get: the task id asked for (default: the task of the path's send) */
  taskId?: string;
  /** attributes the call's span carries, with these values */
  spanAttributes?: Record<string, unknown>;
  /** the call's span status message matches */
  spanStatusMessage?: RegExp;
  /** stream: the span's `a2a.stream.event_count` is the number of events the app got */
  countsEvents?: boolean;
}

/** send and stream a skill; get: GetTask of the task the path's send made (or of `Expect.taskId`) */
export type Op = 'send' | 'stream' | 'get';

/** One way of calling the agent with a skill, and what comes back. */
export interface Path {
  /** shown in the test name */
  label: string;
  /** the deployment (default: the check's own variant, no options) */
  deploy?: Record<string, unknown>;
  client: ClientSpec;
  /** `a2a.protocol.version` of the calls' spans ('none': the span claims no version) */
  protocol?: '0.3' | '1.0' | '0.1' | 'none';
  /** per operation: what the app sees */
  ops: Partial<Record<Op, Expect>>;
  /** the span that carries the verdict, where it is not the call's own (a polled GetTask) */
  judgedOn?: 'GetTask';
  /** gRPC: the RPC attributes and negotiated card every span of the path carries */
  grpc?: {
    service: string;
    version: '1.0' | '0.3';
    agentName: string;
    methodOf?: Record<string, string>;
  };
  /** the spans' status is ERROR (true) or not (false); unchecked when absent (error calls: ERROR unless false) */
  errorSpan?: boolean;
  /** the text sent, where it is not the row's prompt of the skill (a prompt the scripted model reads) */
  prompt?: string;
  /** the calls' spans carry no `a2a.drift.unjudged_reason` (everything was judged) */
  judged?: boolean;
  /** `a2a.skill.id_source` of the calls' spans: the app declared it, or it was read from the wire */
  skillSource?: 'application' | 'wire';
  /** the calls' spans carry the fingerprint of the card the app holds (the route is tied to the card) */
  cardFingerprint?: boolean;
}

/** How an agent tells the app that a skill is gone. */
export type GoneSkillSays =
  /** the task or error carries text naming the skill as unknown */
  | 'words'
  /** the call fails, with nothing that names the skill */
  | 'failure'
  /** the call succeeds as if nothing happened */
  | 'silence';

/** A variant A path: the skill removed from agent and card, called by an app holding the old card. */
export interface GonePath extends Path {
  /** how the agent says it, on this path (the next checks pick their rows by it) */
  says: Fact<GoneSkillSays>;
  /**
   * the verdict on the span today: unknown_skill; invalid_params (the agent rejects a skill its
   * card listed); or none (no verdict: no drift attribute on the span, none on any span)
   */
  verdict: 'unknown_skill' | 'invalid_params' | 'none';
  /** `a2a.drift.evidence`, where the row pins it */
  evidence?: 'content' | 'protocol' | 'card';
  /** `a2a.drift.suspicion` (evidence `card`: what made the card be looked at), where pinned */
  suspicion?: 'failure' | 'words' | 'history' | 'revalidation';
  /** `a2a.drift.rpc_code`, where the row pins it */
  rpcCode?: number;
  /** `a2a.drift.confirmed` (the card re-served lacks the skill), where the row pins it */
  confirmed?: boolean;
  /**
   * the verdict on a call of the gone skill once the card revalidated in the background has
   * been seen changed (the revalidation check runs this path's deployment too)
   */
  afterRevalidation?: 'unknown_skill' | 'skill_not_in_card';
}

/** A variant B path: a listed skill answering with a media type its card does not list. */
export interface ModePath extends Path {
  mediaType: string;
  /** `a2a.drift.evidence`, where the row pins it */
  evidence?: 'content' | 'protocol';
  /** `a2a.drift.expected_output_modes`, where the row pins it */
  expectedModes?: string[];
}

/** A request the app sends as it is (errors, the bytes compared with and without). */
export interface Probe {
  label: string;
  request(peer: Peer, tag: string): { url: string; init?: RequestInit };
  /** HTTP status of the answer */
  status: number;
  /** the answer's Content-Type, where the row pins it */
  contentType?: string;
  /** the answer's body matches */
  body?: RegExp;
  /** the span this request makes, that it is an error span, its verdict and attributes if any */
  span?: {
    name: string;
    error: boolean;
    drift?: string;
    httpStatus?: number;
    attributes?: Record<string, unknown>;
  };
}

/** Not expressible, with the reason (the check reports N/A with it). */
export interface NotExpressible {
  na: string;
}

export interface Row {
  /** `<language>-<implementation>`; the matrix's row name */
  id: string;
  /** the implementation and its versions, as the doc names it */
  name: string;
  /** the agent code of this row (its folder) */
  agentCode: string;
  /** why the agent cannot run here (toolchain, venv missing), or undefined */
  unavailable(): string | undefined;
  /** a row CI may leave unrun, with why; a row without it fails the run when it cannot start */
  optional?: string;
  /** starts a deployment; `samePortsAs` is the deployment it replaces in place */
  start(deploy: Deploy, samePortsAs?: Peer): Promise<Peer>;
  /** the interpreter of the agent's own environment (the Python fingerprint runs in it too) */
  agentPython?: string;

  facts: {
    /** protocol versions and bindings served */
    bindings: Fact;
    /** the clients the row drives, and where they put the skill id */
    clients: Fact;
    /** where the card is and what it says */
    card: Fact;
    /** what is judged (the product's verdicts on this agent) */
    judged: Fact;
    /** live fixtures recorded from this agent, if any */
    fixtures?: string;
  };

  card: {
    /** `a2a.protocol.version` of the GetAgentCard span (undefined: the card names none) */
    protocol: string | undefined;
    /** `[skill id, outputModes]` in card order */
    skills: Array<[string, string[] | undefined]>;
    /** top-level card fields and their values on the live card */
    fields?(peer: Peer): Json;
    /** the card span carries no `a2a.drift.unjudged_reason` */
    judged?: boolean;
    /** attributes the card span carries, with these values */
    spanAttributes?(peer: Peer): Record<string, unknown>;
    /**
     * the field report's Python `skill_fingerprint` cannot read this card's bytes: the error it raises
     * (value, matched against its stderr) and why
     */
    seedRaises?: Fact<RegExp>;
  };

  /** the skills called: one by `send`, one by `stream`; the prompt of each */
  skills: { send: string; stream: string; prompts: Record<string, string> };
  /** the skill id on the wire of a skill named in this row, where only the running agent knows it */
  skillId?(peer: Peer, name: string): string;

  capabilities: {
    streaming: Fact<boolean>;
    push: Fact<boolean>;
    grpc: Fact<boolean>;
    /** how variant B can be expressed: a file part, a data part, a raw part, or not at all */
    variantB: Fact<'file' | 'data' | 'raw' | 'none'>;
  };

  /** healthy traffic: every path sends `skills.send` and streams `skills.stream` */
  healthy: Path[];
  /** JSON-RPC and HTTP errors of the healthy agent */
  errors: Probe[] | NotExpressible;
  /** errors the app's client meets (a gRPC status): each span an error span, no verdict */
  errorCalls?: Path[];
  /** the bytes the app sees with and without the instrumentation */
  sameBytes:
    | {
        probes: Probe[];
        /** calls through the app's client: what it got (task, events, error) compared */
        calls?: Path[];
        /** drift verdicts the instrumented run may make: [span name, kind] */
        drift?: Array<[string, string]>;
      }
    | NotExpressible;
  /** variant A: `gone` removed from the agent and its card, `left` the card's skills after */
  variantA:
    | {
        gone: string;
        left: string[];
        paths: GonePath[];
        /** a call of a skill still on the card, on the redeployed agent */
        still: Path;
        /** card_changed cannot be seen, and why (the redeploy took the card too) */
        cardChanged?: NotExpressible;
        /** after the card is re-fetched, a call of the gone skill: skill_not_in_card */
        afterRefetch?: Path;
        /**
         * a skill still listed whose answer names ANOTHER tool as unavailable: no verdict (on the
         * redeployed agent, or on the healthy one where `on` says so)
         */
        namesAnother?: Array<Path & { on?: 'healthy' }>;
      }
    | NotExpressible;
  /**
   * another agent on the same origin (its own card and endpoint): its calls are never judged
   * against the first agent's card, and each carries its own
   */
  secondAgent?: {
    /** the peer's endpoint fields of its card and its JSON-RPC 0.3 endpoint */
    cardUrl: string;
    rpcUrl: string;
    skill: string;
    prompt: string;
    /** `gen_ai.agent.name` of its spans, where the card names it */
    agentName?: string;
  };
  /** variant B: a listed skill answers with another media type, the card unchanged */
  variantB: { skill: string; paths: ModePath[] } | NotExpressible;
  /**
   * Its live wire, recorded into test/fixtures/<fixture>/ by conformance/record.ts: deployments
   * in order (each replacing the last on the same port), the exchanges of each.
   */
  recording?: {
    fixture: string;
    /** the packages whose versions index.json names */
    versionsOf: string[];
    /** what index.json's recordedWith says instead, for an agent that is neither Node nor Python */
    recordedWith?: () => Record<string, string>;
    steps: Array<{
      deploy: Deploy;
      exchanges: RecordedExchange[];
    }>;
  };
  /** the agent's side: its agent under the register entry, called by clients without it */
  agentSide?: AgentSide | NotExpressible;
  /**
   * What no shared check can say of this agent: small tests run after the checks, on the same
   * agents (rows/<id>.quirks.ts), each with why it is this agent's own.
   */
  quirks?: Quirk[];
}

/** One exchange of a recording: its fixture name, the note index.json keeps, the request. */
export interface RecordedExchange {
  name: string;
  note: string;
  /**
   * A call made first and not recorded, for an agent that answers a send at once and works
   * after it (FastA2A): `waitBeforeMs` before it, `waitMs` after it; its JSON body is passed to
   * `request` (which reads the task back).
   */
  first?: {
    request(
      peer: Peer,
      rec: import('../record-lib.mjs').Recorder,
    ): { url: string; init?: RequestInit };
    waitBeforeMs?: number;
    waitMs: number;
  };
  /** `previous`: the JSON body recorded just before (a task read back by its id) */
  request(
    peer: Peer,
    rec: import('../record-lib.mjs').Recorder,
    first?: Json,
    previous?: Json,
  ): { url: string; init?: RequestInit };
}

/** A test of one row's own behaviour. */
export interface Quirk {
  title: string;
  /** why no shared check expresses it */
  why: string;
  run(ctx: import('./checks').RowContext): Promise<void>;
}

/** A quirk: its title, why no shared check says it, and the test. */
export function quirk(title: string, why: string, run: Quirk['run']): Quirk {
  return { title, why, run };
}

/** An implementation the doc lists that is not (yet) a row: its own test file, or fixtures. */
export interface DocOnlyRow {
  id: string;
  /** the test file that still runs it; none for recorded-only implementations */
  file?: string;
  name: string;
  testedAs: string;
  bindings: string;
  card: string;
  judged: string;
}

export function isNA(x: unknown): x is NotExpressible {
  return typeof x === 'object' && x !== null && 'na' in x;
}
