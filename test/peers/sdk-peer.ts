/**
 * A REAL `@a2a-js/sdk@1.3.x` A2A server for tests, on 127.0.0.1:<random port>.
 *
 * One `DefaultRequestHandler` (+ `InMemoryTaskStore` + the executor below) is
 * mounted on express with the SDK's own handlers:
 *
 *   GET  {baseUrl}/.well-known/agent-card.json      agentCardHandler  (1.0 card)
 *   POST {baseUrl}/a2a/jsonrpc                      jsonRpcHandler    (1.0 JSON-RPC)
 *   *    {baseUrl}/a2a/rest/...                     restHandler       (1.0 HTTP+JSON: /message:send, /tasks/{id}, ...)
 *   GET  {baseUrl}/v03/.well-known/agent-card.json  agentCardHandler  legacyCompat on (0.3 card unless `A2A-Version: 1.0`)
 *   POST {baseUrl}/v03/jsonrpc                      jsonRpcHandler    legacyCompat on (0.3 `message/send` ...)
 *   *    {baseUrl}/v03/rest/v1/...                  restHandler       legacyCompat on (0.3 REST `/v1/message:send` ...)
 *
 * With `legacyOnMainPaths: true` the main paths get `legacyCompat` too (the
 * layout of the SDK's own compat-v1-server sample: one URL, dispatch by the
 * `A2A-Version` header / method name).
 *
 * Findings about SDK 1.3.0 this peer relies on (see also test/peers.test.ts):
 * - The card is served BY REFERENCE (`JSON.stringify(await getAgentCard())` on
 *   every GET), so `redeploy()` mutating `card.skills` changes the next GET at
 *   once while `version` stays the same. ETag is a hash of the body (so it does
 *   change), `Cache-Control: public, max-age=3600` by default.
 * - The SDK validates NO skill id; an unknown skill is whatever the executor
 *   does with it. Here: SUBMITTED, then FAILED with "unknown skill: <id>".
 * - `sendMessage` is blocking by default: the reply carries the FINAL task.
 *   With `configuration.returnImmediately: true` (1.0; 0.3 spelling
 *   `configuration.blocking: false`; SDK client: `ClientConfig.polling: true`
 *   or `sendMessage({configuration: {returnImmediately: true, ...}})`) the reply
 *   is the FIRST task event this executor publishes, i.e. TASK_STATE_SUBMITTED.
 *   `setBehaviour({returnImmediately: true|false})` forces either on the server.
 * - 1.0 JSON-RPC / REST requests without an `A2A-Version` header count as 0.3
 *   (§3.6.2). The card lists 0.3 interfaces, so such requests are accepted on
 *   the strict 1.0 paths too (and answered the 1.0 way).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import express from 'express';
import { Role, TaskState } from '@a2a-js/sdk';
import type {
  AgentCard,
  AgentSkill,
  Artifact,
  Message,
  Part,
  SendMessageRequest,
  Task,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  InMemoryPushNotificationStore,
  DefaultPushNotificationSender,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from '@a2a-js/sdk/server/express';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { SEED_SUMMARIZE_SKILL, SEED_TRANSLATE_SKILL } from './wire';

/** A skill as tests write it; normalised to the SDK's proto `AgentSkill`. */
export interface PeerSkillInput {
  id: string;
  name?: string;
  description?: string;
  tags?: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

/** Where the executor found the skill id of a request. */
export type SkillIdSource = 'request-metadata' | 'message-metadata' | 'default';

export interface SdkPeerBehaviour {
  /**
   * Delay between publishing the SUBMITTED task and the next event (FAILED,
   * or WORKING on the success path). A number, or `[min, max]` for a uniform
   * random delay. Default `[0, 20]`.
   */
  settleDelayMs: number | [number, number];
  /**
   * `'client'` (default): honour the request's `configuration.returnImmediately`
   * (0.3: `blocking: false`). `true` / `false`: force it on the server side.
   */
  returnImmediately: 'client' | boolean;
  /** Number of artifact-update events per skill id (default 1; `long-stream`: 20). */
  artifactChunks: Record<string, number>;
  /** Delay between two artifact chunks, ms (default 2). */
  chunkDelayMs: number;
  /** Per skill id: a delay between two artifact chunks other than `chunkDelayMs`. */
  chunkDelays?: Record<string, number>;
  /** No skill id in the request: `'first-skill'` (default) uses the first skill of the CURRENT card; `'fail'` fails the task. */
  missingSkillId: 'first-skill' | 'fail';
  /** Text of the artifact for a skill and media type. */
  artifactText: (skillId: string, mediaType: string, chunk: number, chunks: number) => string;
  /**
   * How a skill the card no longer lists fails: `'words'` (default) a FAILED task whose status
   * says `unknown skill: <id>`; `'silent'` a FAILED task with no status message (fasta2a after its
   * retries, Strands' fixed text without the name); `'throw'` the executor throws an error whose
   * text does not name the skill (the SDK answers -32603, or ends the stream with an error);
   * `'answer'` the task completes with `artifactText` (LLM frameworks that tell the model, whose
   * answer then says so in words of its own).
   */
  goneSkill: 'words' | 'silent' | 'throw' | 'answer';
  /** Every task fails with no status message, whatever its skill (a broken agent, card unchanged). */
  broken: boolean;
  /**
   * How the card URLs answer (the SDK's handler by default): `'slow'` after `cardDelayMs`;
   * `'500'`, `'html'` (a 200 HTML page), `'redirect'` (302 to the 0.3 card) instead of the card;
   * `'json-error'` a 200 `{"error":"maintenance"}` (a gateway's maintenance page), `'500-json'` a
   * 500 with a JSON error body, `'401'` / `'403'`, `'304'` (304 whatever the request), `'never'`
   * (headers never sent), `'huge'` (a 200 JSON body of 8 MiB), `'endless'` (a 200 JSON body
   * that never ends).
   */
  cardAnswer:
    | 'card'
    | 'slow'
    | '500'
    | 'html'
    | 'redirect'
    | 'json-error'
    | '500-json'
    | '401'
    | '403'
    | '304'
    | 'never'
    | 'huge'
    | 'endless';
  cardDelayMs: number;
  /**
   * Answer a card GET whose `If-None-Match` names the card's current weak ETag with 304, as a
   * caching reverse proxy in front of the SDK would (the SDK's handler sets a weak ETag and
   * answers 200 regardless). The number of 304s is `cardNotModified`.
   */
  conditionalCard: boolean;
}

export interface SdkPeerOptions {
  name?: string;
  description?: string;
  /** Card `version` (default '1.0'); never changed by `redeploy`. */
  version?: string;
  skills?: PeerSkillInput[];
  streaming?: boolean;
  pushNotifications?: boolean;
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  /** `agentCardHandler` cache max-age in seconds (SDK default 3600; 0 = `no-cache`). */
  cardMaxAge?: number;
  /**
   * Skills only the authenticated extended card lists (`capabilities.extendedAgentCard`; the
   * SDK answers `GetExtendedAgentCard` / 0.3 `agent/getAuthenticatedExtendedCard` and REST
   * `GET …/extendedAgentCard` with the card plus these). The executor serves them too.
   */
  extendedSkills?: PeerSkillInput[];
  /**
   * With `pushNotifications: true`: the SDK's push sender. `'v1'` (default, the SDK's
   * `DefaultPushNotificationSender`: 1.0 bodies for every wire version) or `'legacy-aware'`
   * (`createLegacyAwarePushNotificationSender`: 0.3 Task snapshots for configs registered in 0.3).
   */
  pushSender?: 'v1' | 'legacy-aware';
  /**
   * Also serve the same request handler over gRPC (`@a2a-js/sdk/server/grpc` on
   * `@grpc/grpc-js`, 127.0.0.1:<random port>), listed FIRST in the card's interfaces (the SDK
   * client then prefers it).
   */
  grpc?: boolean;
  /** The port to listen on (a redeploy on the same URL); default a free one. */
  port?: number;
  /** Also enable the SDK's legacyCompat on the main (1.0) paths. Default false. */
  legacyOnMainPaths?: boolean;
  behaviour?: Partial<SdkPeerBehaviour>;
}

/** One executor run, for assertions. */
export interface SdkExecution {
  taskId: string;
  contextId: string;
  skillId: string | undefined;
  skillIdSource: SkillIdSource;
  outcome: 'completed' | 'failed' | 'aborted';
  /** Media type of the artifact parts (success only). */
  mediaType?: string;
  /** `requestContext.context.requestedVersion` (the `A2A-Version` header, '0.3' if absent). */
  requestedVersion: string | undefined;
}

export interface SdkPeer {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly port: number;
  /** `${baseUrl}/.well-known/agent-card.json` (1.0 card; 0.3-shaped only when `legacyOnMainPaths` and no `A2A-Version: 1.0` header). */
  readonly cardUrl: string;
  /** 1.0 JSON-RPC endpoint: `${baseUrl}/a2a/jsonrpc` (POST, methods `SendMessage`, `GetTask`, ...). */
  readonly jsonRpcUrl: string;
  /** 1.0 HTTP+JSON base: `${baseUrl}/a2a/rest` (POST `/message:send`, `/message:stream`, GET `/tasks/{id}`, ...). */
  readonly restUrl: string;
  /** Base URL to give `ClientFactory.createFromUrl` for the 0.3 card: `${baseUrl}/v03`. */
  readonly v03BaseUrl: string;
  /** `${baseUrl}/v03/.well-known/agent-card.json`: 0.3 card for requests without `A2A-Version` (or with 0.3). */
  readonly v03CardUrl: string;
  /** 0.3 JSON-RPC endpoint `${baseUrl}/v03/jsonrpc` (methods `message/send`, `message/stream`, `tasks/get`, ...). */
  readonly v03JsonRpcUrl: string;
  /** 0.3 HTTP+JSON base `${baseUrl}/v03/rest` (POST `/v1/message:send`, GET `/v1/tasks/{id}`, ...). */
  readonly v03RestUrl: string;
  /** With `grpc: true`: the gRPC target `127.0.0.1:<port>` (the card's GRPC interface url). */
  readonly grpcTarget: string | undefined;
  /** The live card object the SDK serves by reference. */
  readonly card: AgentCard;
  readonly requestHandler: DefaultRequestHandler;
  /** Executor runs, oldest first. */
  readonly executions: SdkExecution[];
  /** Number of GETs of any agent-card URL of this peer. */
  readonly cardFetches: number;
  /** Card GETs answered 304 (`conditionalCard`). */
  readonly cardNotModified: number;
  readonly behaviour: Readonly<SdkPeerBehaviour>;
  /** Replace `card.skills` IN PLACE (same array object), keeping `version`. */
  redeploy(skills: PeerSkillInput[]): void;
  setBehaviour(patch: Partial<SdkPeerBehaviour>): void;
  close(): Promise<void>;
}

export const DEFAULT_SKILL: PeerSkillInput = SEED_SUMMARIZE_SKILL;

/** Variant A of the seed: the skill set swapped, same card `version`. */
export const TRANSLATE_SKILL: PeerSkillInput = SEED_TRANSLATE_SKILL;

/** Variant B of the seed: same id `summarize-v2`, now returns `text/plain`. */
export const SUMMARIZE_PLAIN_SKILL: PeerSkillInput = {
  ...DEFAULT_SKILL,
  outputModes: ['text/plain'],
};

/** A skill that, by default, streams 20 artifact chunks. */
export const LONG_STREAM_SKILL: PeerSkillInput = {
  id: 'long-stream',
  name: 'Long stream',
  description: 'Streams many artifact chunks.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};

export function toAgentSkill(s: PeerSkillInput): AgentSkill {
  return {
    id: s.id,
    name: s.name ?? s.id,
    description: s.description ?? '',
    tags: [...(s.tags ?? [])],
    examples: [...(s.examples ?? [])],
    inputModes: [...(s.inputModes ?? [])],
    outputModes: [...(s.outputModes ?? [])],
    securityRequirements: [],
  };
}

function defaultArtifactText(
  skillId: string,
  mediaType: string,
  chunk: number,
  chunks: number,
): string {
  const suffix = chunks > 1 ? ` (${chunk + 1}/${chunks})` : '';
  if (mediaType === 'text/markdown')
    return `## ${skillId}${suffix}\n\n- result from **${skillId}**\n`;
  return `result from ${skillId}${suffix}`;
}

function textPart(text: string, mediaType: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text, 'text/plain')],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function readSkillId(meta: Record<string, unknown> | undefined): string | undefined {
  // `a2a.skillId`: the skill-invocation extension's key (A2A 1.0 server frameworks)
  const v = meta?.['skillId'] ?? meta?.['a2a.skillId'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function pickDelay(d: number | [number, number]): number {
  if (typeof d === 'number') return d;
  const [min, max] = d;
  return min + Math.floor(Math.random() * (max - min + 1));
}

class PeerExecutor implements AgentExecutor {
  closed = false;
  constructor(
    private readonly card: AgentCard,
    private readonly behaviour: () => SdkPeerBehaviour,
    private readonly log: SdkExecution[],
    private readonly extendedSkills: AgentSkill[] = [],
  ) {}

  cancelTask = async (_taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    /* nothing long-running to cancel */
  };

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const b = this.behaviour();
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;

    let skillId = readSkillId(ctx.request.metadata);
    let source: SkillIdSource = 'request-metadata';
    if (!skillId) {
      skillId = readSkillId(user.metadata);
      source = 'message-metadata';
    }
    if (!skillId) {
      source = 'default';
      skillId = b.missingSkillId === 'first-skill' ? this.card.skills[0]?.id : undefined;
    }
    const record: SdkExecution = {
      taskId,
      contextId,
      skillId,
      skillIdSource: source,
      outcome: 'aborted',
      requestedVersion: ctx.context.requestedVersion,
    };
    this.log.push(record);

    const now = (): string => new Date().toISOString();
    const history = ctx.task ? [...ctx.task.history, user] : [user];
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: ctx.task?.artifacts ?? [],
      history,
      metadata: skillId ? { skillId } : undefined,
    };
    bus.publish(AgentEvent.task(task));

    await sleep(pickDelay(b.settleDelayMs));
    if (this.closed) return;

    // Decide against the CURRENT card (it may have been redeployed meanwhile).
    const listed = skillId
      ? (this.card.skills.find((s) => s.id === skillId) ??
        this.extendedSkills.find((s) => s.id === skillId))
      : undefined;
    const skill =
      listed ??
      (skillId && b.goneSkill === 'answer'
        ? { id: skillId, outputModes: [] as string[] }
        : undefined);
    if (!skill || b.broken) {
      record.outcome = 'failed';
      // a fixed text without the skill's name (Strands' executor says exactly this)
      if (b.goneSkill === 'throw') throw new Error('Agent execution failed');
      const text = skillId ? `unknown skill: ${skillId}` : 'unknown skill: (none given)';
      const words = !b.broken && b.goneSkill === 'words';
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_FAILED,
            message: words ? agentMessage(text, taskId, contextId) : undefined,
            timestamp: now(),
          },
          metadata: undefined,
        }),
      );
      return;
    }

    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );

    const mediaType = skill.outputModes[0] ?? this.card.defaultOutputModes[0] ?? 'text/plain';
    const chunks = Math.max(1, b.artifactChunks[skill.id] ?? 1);
    const artifactId = randomUUID();
    const delay = b.chunkDelays?.[skill.id] ?? b.chunkDelayMs;
    for (let i = 0; i < chunks; i++) {
      if (i > 0 && delay > 0) await sleep(delay);
      if (this.closed) return;
      const artifact: Artifact = {
        artifactId,
        name: `${skill.id}-result`,
        description: '',
        parts: [textPart(b.artifactText(skill.id, mediaType, i, chunks), mediaType)],
        metadata: undefined,
        extensions: [],
      };
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact,
          append: i > 0,
          lastChunk: i === chunks - 1,
          metadata: undefined,
        }),
      );
    }

    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
    record.outcome = 'completed';
    record.mediaType = mediaType;
  };
}

/** Lets `setBehaviour({returnImmediately})` override what the client asked for. */
class PeerRequestHandler extends DefaultRequestHandler {
  forceReturnImmediately: () => 'client' | boolean = () => 'client';

  override sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const force = this.forceReturnImmediately();
    if (force !== 'client') {
      params = {
        ...params,
        configuration: {
          acceptedOutputModes: params.configuration?.acceptedOutputModes ?? [],
          taskPushNotificationConfig: params.configuration?.taskPushNotificationConfig,
          historyLength: params.configuration?.historyLength,
          returnImmediately: force,
        },
      };
    }
    return super.sendMessage(params, context);
  }
}

export async function startSdkPeer(opts: SdkPeerOptions = {}): Promise<SdkPeer> {
  let behaviour: SdkPeerBehaviour = {
    settleDelayMs: [0, 20],
    returnImmediately: 'client',
    artifactChunks: { [LONG_STREAM_SKILL.id]: 20 },
    chunkDelayMs: 2,
    missingSkillId: 'first-skill',
    goneSkill: 'words',
    broken: false,
    cardAnswer: 'card',
    cardDelayMs: 3000,
    conditionalCard: false,
    artifactText: defaultArtifactText,
    ...opts.behaviour,
  };

  const card: AgentCard = {
    name: opts.name ?? 'sdk-peer',
    description: opts.description ?? 'A2A test peer built on @a2a-js/sdk',
    supportedInterfaces: [], // filled in once the port is known
    provider: undefined,
    version: opts.version ?? '1.0',
    capabilities: {
      streaming: opts.streaming ?? true,
      pushNotifications: opts.pushNotifications ?? false,
      extensions: [],
      ...(opts.extendedSkills ? { extendedAgentCard: true } : {}),
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: opts.defaultInputModes ?? ['text/plain'],
    defaultOutputModes: opts.defaultOutputModes ?? ['text/plain'],
    skills: (opts.skills ?? [DEFAULT_SKILL]).map(toAgentSkill),
    signatures: [],
  };

  const executions: SdkExecution[] = [];
  const extendedSkills = (opts.extendedSkills ?? []).map(toAgentSkill);
  const executor = new PeerExecutor(card, () => behaviour, executions, extendedSkills);
  const pushStore = new InMemoryPushNotificationStore();
  const requestHandler = new PeerRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    pushStore,
    opts.pushSender === 'legacy-aware'
      ? createLegacyAwarePushNotificationSender(pushStore)
      : new DefaultPushNotificationSender(pushStore),
    opts.extendedSkills
      ? () => Promise.resolve({ ...card, skills: [...card.skills, ...extendedSkills] })
      : undefined,
  );
  requestHandler.forceReturnImmediately = () => behaviour.returnImmediately;

  let cardFetches = 0;
  let cardNotModified = 0;
  const app = express();
  app.use((req, res, next) => {
    // the same card at a path recognised by its content only (reactive-agents' `/agent/card`)
    if (req.method === 'GET' && req.path === '/agent/card' && behaviour.cardAnswer === 'card') {
      cardFetches++;
      return void res.json(card);
    }
    if (
      req.method === 'GET' &&
      (req.path.endsWith('/.well-known/agent-card.json') || req.path === '/agent/card')
    ) {
      cardFetches++;
      const answer = behaviour.cardAnswer;
      if (answer === '500') return void res.status(500).type('text/plain').send('boom');
      if (answer === 'json-error') return void res.status(200).json({ error: 'maintenance' });
      if (answer === '500-json')
        return void res.status(500).json({ error: { code: 500, message: 'maintenance' } });
      if (answer === '401' || answer === '403')
        return void res.status(Number(answer)).json({ error: 'unauthorized' });
      if (answer === '304') return void res.status(304).end();
      if (answer === 'never') return; // the socket stays open, nothing is sent
      if (answer === 'huge') {
        res.status(200).type('application/json');
        return void res.send(`{"name":"x","skills":[],"url":"${'a'.repeat(8 * 1024 * 1024)}"}`);
      }
      if (answer === 'endless') {
        res.status(200).type('application/json');
        res.write('{"name":"x","skills":[],"pad":"');
        const chunk = 'a'.repeat(64 * 1024);
        const timer = setInterval(() => {
          if (res.destroyed || res.writableEnded) clearInterval(timer);
          else res.write(chunk);
        }, 5);
        timer.unref();
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (answer === 'html') return void res.status(200).type('text/html').send('<html></html>');
      if (answer === 'redirect') return void res.redirect(302, '/v03/.well-known/agent-card.json');
      if (answer === 'slow') return void setTimeout(next, behaviour.cardDelayMs).unref();
      if (behaviour.conditionalCard) {
        const etag = `W/"${createHash('sha256').update(JSON.stringify(card)).digest('hex').slice(0, 16)}"`;
        res.setHeader('etag', etag);
        // the SDK's own ETag would replace it: this layer's is the one served
        const setHeader = res.setHeader.bind(res);
        res.setHeader = ((name: string, value: number | string | readonly string[]) =>
          name.toLowerCase() === 'etag' ? res : setHeader(name, value)) as typeof res.setHeader;
        const inm = req.headers['if-none-match'];
        // weak comparison: W/"x" and "x" name the same card
        if (inm !== undefined && inm.replace(/^W\//, '') === etag.replace(/^W\//, '')) {
          cardNotModified++;
          return void res.status(304).end();
        }
      }
    }
    next();
  });
  const mainLegacy = opts.legacyOnMainPaths ? { legacyCompat: { enabled: true } } : {};
  const legacy = { legacyCompat: { enabled: true } };
  const cache = opts.cardMaxAge === undefined ? {} : { cache: { maxAge: opts.cardMaxAge } };
  const userBuilder = UserBuilder.noAuthentication;

  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: requestHandler, ...cache, ...mainLegacy }),
  );
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder, ...mainLegacy }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder, ...mainLegacy }));
  app.use(
    '/v03/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: requestHandler, ...cache, ...legacy }),
  );
  app.use('/v03/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder, ...legacy }));
  app.use('/v03/rest', restHandler({ requestHandler, userBuilder, ...legacy }));

  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const urls = {
    cardUrl: `${baseUrl}/.well-known/agent-card.json`,
    jsonRpcUrl: `${baseUrl}/a2a/jsonrpc`,
    restUrl: `${baseUrl}/a2a/rest`,
    v03BaseUrl: `${baseUrl}/v03`,
    v03CardUrl: `${baseUrl}/v03/.well-known/agent-card.json`,
    v03JsonRpcUrl: `${baseUrl}/v03/jsonrpc`,
    v03RestUrl: `${baseUrl}/v03/rest`,
  };
  let grpcServer: { tryShutdown(cb: () => void): void; forceShutdown(): void } | undefined;
  let grpcTarget: string | undefined;
  if (opts.grpc) {
    // loaded here only: tests that hook grpc-js must enable the instrumentation first
    const grpc = await import('@grpc/grpc-js');
    const { grpcService, A2AService } = await import('@a2a-js/sdk/server/grpc');
    const server = new grpc.Server();
    server.addService(A2AService, grpcService({ requestHandler, userBuilder: userBuilder }));
    const grpcPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    grpcServer = server;
    grpcTarget = `127.0.0.1:${grpcPort}`;
    card.supportedInterfaces.push({
      url: grpcTarget,
      protocolBinding: 'GRPC',
      tenant: '',
      protocolVersion: '1.0',
    });
  }
  // First entry is preferred by 1.0 clients. The 0.3 entries are required by
  // SDK 1.3.0 for its compat layer (toCompatAgentCard / validateVersion).
  card.supportedInterfaces.push(
    { url: urls.jsonRpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: urls.restUrl, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
    { url: urls.v03JsonRpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    { url: urls.v03RestUrl, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' },
  );

  let closed = false;
  return {
    baseUrl,
    port,
    ...urls,
    grpcTarget,
    card,
    requestHandler,
    executions,
    get cardNotModified() {
      return cardNotModified;
    },
    get cardFetches() {
      return cardFetches;
    },
    get behaviour() {
      return behaviour;
    },
    redeploy(skills: PeerSkillInput[]): void {
      card.skills.splice(0, card.skills.length, ...skills.map(toAgentSkill));
    },
    setBehaviour(patch: Partial<SdkPeerBehaviour>): void {
      behaviour = { ...behaviour, ...patch };
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      executor.closed = true;
      if (grpcServer) grpcServer.forceShutdown();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
