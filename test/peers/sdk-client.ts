/**
 * Helpers to drive an SDK peer with the REAL `@a2a-js/sdk` client.
 *
 * How the SDK client (1.3.0) puts a skill id on the wire:
 *   client.sendMessage({ tenant: '', message, configuration: undefined, metadata: { skillId } })
 *     → 1.0 JSON-RPC `params.metadata.skillId` (request metadata)
 *     → 0.3 JSON-RPC `params.metadata.skillId` (MessageSendParams.metadata)
 *   and `message.metadata.skillId` → `params.message.metadata.skillId`.
 * `sendMessage` takes the raw proto `SendMessageRequest`, so every field must be
 * written (hence `sendRequest()` below).
 *
 * Blocking vs. returnImmediately: the SDK client sends
 * `configuration.returnImmediately = ClientConfig.polling ?? false` unless the
 * request sets `configuration.returnImmediately` itself. Blocking → the reply is
 * the final task; returnImmediately → TASK_STATE_SUBMITTED (this peer's first event).
 */
import { Role, TaskState } from '@a2a-js/sdk';
import type {
  AgentCard,
  Message,
  Part,
  SendMessageConfiguration,
  SendMessageRequest,
  StreamResponse,
  Task,
} from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
  type ClientConfig,
} from '@a2a-js/sdk/client';
import type { SdkPeer } from './sdk-peer';

export type SdkTransportChoice = 'jsonrpc' | 'rest' | 'v03-jsonrpc' | 'v03-rest';

export interface CreateSdkClientOptions {
  clientConfig?: ClientConfig;
  /** Passed to the transports and the card resolver; default: global `fetch` looked up at call time. */
  fetchImpl?: typeof fetch;
}

/**
 * 1.0 (`jsonrpc` / `rest`): `ClientFactory.createFromUrl(peer.baseUrl)` — fetches
 * `/.well-known/agent-card.json` with `A2A-Version: 1.0`.
 *
 * 0.3 (`v03-jsonrpc` / `v03-rest`): GETs `peer.v03CardUrl` WITHOUT an `A2A-Version`
 * header (the SDK answers with its 0.3 card), drops the embedded 1.0
 * `supportedInterfaces` (so the card looks like one from a 0.3-only server; the
 * SDK treats the hybrid card as 1.0) and builds the client with
 * `legacyCompat` transports via `createFromAgentCard`. Calls then go to
 * `peer.v03JsonRpcUrl` / `peer.v03RestUrl` with `A2A-Version: 0.3`.
 */
export async function createSdkClient(
  peer: SdkPeer,
  transport: SdkTransportChoice = 'jsonrpc',
  opts: CreateSdkClientOptions = {},
): Promise<Client> {
  const fetchOpt = opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {};
  const preferredTransports = transport.endsWith('rest') ? ['HTTP+JSON'] : ['JSONRPC'];
  if (transport === 'jsonrpc' || transport === 'rest') {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory(fetchOpt), new RestTransportFactory(fetchOpt)],
        cardResolver: new DefaultAgentCardResolver(fetchOpt),
        preferredTransports,
        ...(opts.clientConfig ? { clientConfig: opts.clientConfig } : {}),
      }),
    );
    return factory.createFromUrl(peer.baseUrl);
  }
  const legacy = { legacyCompat: { enabled: true }, ...fetchOpt };
  const resolver = new DefaultAgentCardResolver(legacy);
  const doFetch = opts.fetchImpl ?? fetch;
  const res = await doFetch(peer.v03CardUrl);
  if (!res.ok) throw new Error(`GET ${peer.v03CardUrl} -> ${res.status}`);
  const raw = (await res.json()) as Record<string, unknown>;
  delete raw['supportedInterfaces'];
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(legacy), new RestTransportFactory(legacy)],
      cardResolver: resolver,
      preferredTransports,
      ...(opts.clientConfig ? { clientConfig: opts.clientConfig } : {}),
    }),
  );
  // createFromAgentCard runs the resolver's normalizeAgentCard (0.3 → 1.0 shape).
  return factory.createFromAgentCard(raw as unknown as AgentCard);
}

export function textPart(text: string, mediaType = 'text/plain'): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType };
}

let counter = 0;
export function userMessage(text: string, metadata?: Record<string, unknown>): Message {
  return {
    messageId: `msg-${process.pid}-${Date.now()}-${++counter}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [textPart(text)],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export interface SendRequestOptions {
  text?: string;
  /** Put the skill id in request metadata (`params.metadata.skillId`). Default true. */
  inRequestMetadata?: boolean;
  /** Put the skill id in message metadata (`params.message.metadata.skillId`). Default true. */
  inMessageMetadata?: boolean;
  returnImmediately?: boolean;
}

/** A full proto `SendMessageRequest` carrying `skillId`. */
export function sendRequest(
  skillId: string | undefined,
  o: SendRequestOptions = {},
): SendMessageRequest {
  const meta = skillId === undefined ? undefined : { skillId };
  const configuration: SendMessageConfiguration | undefined =
    o.returnImmediately === undefined
      ? undefined
      : {
          acceptedOutputModes: [],
          taskPushNotificationConfig: undefined,
          returnImmediately: o.returnImmediately,
        };
  return {
    tenant: '',
    message: userMessage(
      o.text ?? 'Please summarize this text.',
      o.inMessageMetadata === false ? undefined : meta,
    ),
    configuration,
    metadata: o.inRequestMetadata === false ? undefined : meta,
  };
}

/** Narrow a `sendMessage` result to a Task. */
export function asTask(result: Message | Task): Task {
  if ('messageId' in result)
    throw new Error(`expected a Task, got a Message ${JSON.stringify(result)}`);
  return result;
}

/** Text of the first text part of a message, or ''. */
export function messageText(m: Message | undefined): string {
  for (const p of m?.parts ?? []) if (p.content?.$case === 'text') return p.content.value;
  return '';
}

/** Collect every event of a stream. */
export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const ev of stream) out.push(ev);
  return out;
}

/** Polls GetTask every 5 ms until the task is completed, failed or rejected: that state. */
export async function pollUntilTerminal(client: Client, id: string): Promise<TaskState> {
  for (let i = 0; i < 200; i++) {
    const t = await client.getTask({ tenant: '', id, historyLength: undefined } as never);
    const s = t.status?.state;
    if (
      s === TaskState.TASK_STATE_COMPLETED ||
      s === TaskState.TASK_STATE_FAILED ||
      s === TaskState.TASK_STATE_REJECTED
    )
      return s;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('task never ended');
}
