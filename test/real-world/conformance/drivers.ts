/**
 * The app's clients, one driver per ClientSpec kind: each sends or streams one skill and returns
 * what the app saw as an Outcome (the same fields whatever the client), so that a check can state
 * what must come back once for every row.
 */
import {
  Role,
  TaskState,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';
import { grpcClient, grpcClients, legacyGrpc } from '../grpc-clients';
import { asTask, collect, messageText, sendRequest } from '../../peers/sdk-client';
import { withSkill } from '../../../src/index';
import { getCard, messages, nextRpcId, sdkClient, type Json } from '../lib';
import { endpoint, type ClientSpec, type Op, type Outcome, type Peer } from './types';

const { v03Message, v10Params } = messages('conf-');
const V10 = { 'A2A-Version': '1.0' };
/** the states a polling client stops at */
const DONE = new Set(['completed', 'failed', 'canceled', 'rejected']);

/** TASK_STATE_COMPLETED, completed, 3 → completed */
function stateWord(s: unknown): string | undefined {
  if (s === undefined || s === null) return undefined;
  const name = typeof s === 'number' ? TaskState[s] : String(s);
  return name
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

function sdkPart(p: Part | undefined): Outcome['part'] {
  if (!p) return undefined;
  const c = p.content;
  return {
    kind: c?.$case ?? 'none',
    ...(c?.$case === 'text' ? { text: c.value } : {}),
    ...(p.mediaType ? { mediaType: p.mediaType } : {}),
  };
}
const SDK_EVENT: Record<string, string> = {
  task: 'task',
  statusUpdate: 'status',
  artifactUpdate: 'artifact',
  msg: 'message',
  message: 'message',
};

/** What the SDK's Client and its gRPC transports have in common: the calls a driver makes. */
interface SdkLikeClient {
  sendMessage(req: ReturnType<typeof sendRequest>): Promise<Message | Task>;
  sendMessageStream(req: ReturnType<typeof sendRequest>): AsyncIterable<StreamResponse>;
  getTask(req: { tenant: string; id: string; historyLength: number | undefined }): Promise<Task>;
}

/** A call through an SDK-shaped client (`@a2a-js/sdk` Client, its gRPC transports). */
async function clientCall(
  client: SdkLikeClient,
  poll: boolean,
  op: Op,
  skill: string,
  text: string,
  noSkill = false,
): Promise<Outcome> {
  const named = noSkill ? undefined : skill;
  try {
    if (op === 'get') {
      const task = await client.getTask({ tenant: '', id: skill, historyLength: undefined });
      return { state: stateWord(task.status?.state), taskId: task.id, raw: task };
    }
    if (op === 'send') {
      let task = asTask(await client.sendMessage(sendRequest(named, { text })));
      const answered = stateWord(task.status?.state);
      for (let i = 0; poll && !DONE.has(stateWord(task.status?.state) ?? ''); i++) {
        if (i === 100) throw new Error(`task ${task.id} did not finish`);
        await new Promise((r) => setTimeout(r, 20));
        task = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
      }
      const agentSaid = task.history.filter((m) => m.role === Role.ROLE_AGENT).pop();
      return {
        state: stateWord(task.status?.state),
        ...(poll ? { answered } : {}),
        taskId: task.id,
        part: sdkPart(task.artifacts[task.artifacts.length - 1]?.parts[0]),
        statusText: messageText(task.status?.message),
        artifacts: task.artifacts.length,
        answer: task.artifacts.length
          ? task.artifacts
              .flatMap((a) => a.parts)
              .map((x) => (x.content?.$case === 'text' ? x.content.value : ''))
              .join('')
          : messageText(agentSaid),
        raw: task,
      };
    }
    const events: StreamResponse[] = await collect(
      client.sendMessageStream(sendRequest(named, { text })),
    );
    let state: string | undefined;
    let statusText: string | undefined;
    for (const e of events) {
      const p = e.payload;
      if (p?.$case === 'task' || p?.$case === 'statusUpdate') {
        state = stateWord(p.value.status?.state);
        statusText = messageText(p.value.status?.message);
      }
    }
    return {
      state,
      statusText,
      events: events.map((e) => SDK_EVENT[e.payload?.$case ?? ''] ?? 'other'),
      raw: events,
    };
  } catch (e) {
    return {
      error: (e as Error).message,
      raw: `${(e as Error).constructor.name} ${(e as Error).message}`,
    };
  }
}

/** One kind of client's call of `skill` (`held`: the card the app holds, which the raw JSON-RPC clients do not read). */
type Driver<K extends ClientSpec['kind']> = (
  spec: Extract<ClientSpec, { kind: K }>,
  peer: Peer,
  held: Json | undefined,
  op: Op,
  skill: string,
  text: string,
) => Promise<Outcome>;

/** The card a client builds from: the held one, or the one the app fetches now. */
async function cardFor(peer: Peer, held: Json | undefined, strip = false): Promise<Json> {
  let card = held ?? (await getCard(peer.cardUrl)).card;
  if (strip) {
    card = structuredClone(card);
    delete card.supportedInterfaces;
  }
  return card;
}

const sdkCall: Driver<'sdk'> = async (spec, peer, held, op, skill, text) => {
  const opts = { transport: spec.transport, rest: true, legacy: spec.legacy };
  const client =
    spec.from === 'url'
      ? await sdkClient({ baseUrl: peer.baseUrl ?? peer.origin, path: peer.cardPath }, opts)
      : await sdkClient({ card: await cardFor(peer, held, spec.stripInterfaces) }, opts);
  return clientCall(client, spec.poll ?? false, op, skill, text, spec.noSkill);
};

/**
 * gRPC: the SDK's ClientFactory with its gRPC transport (it picks GRPC from the card), its 0.3
 * LegacyGrpcTransport on the card's target, or the 1.0 GrpcTransportFactory's transport.
 */
const grpcCall: Driver<'grpc'> = async (spec, peer, held, op, skill, text) => {
  const target = endpoint(peer, 'grpcTarget');
  let client: SdkLikeClient;
  if (spec.via === 'legacy') client = (await legacyGrpc(target)) as unknown as SdkLikeClient;
  else if (spec.via === 'transport')
    client = (await new (await grpcClients()).grpc.GrpcTransportFactory().create(
      target,
      structuredClone(await cardFor(peer, held)) as never,
    )) as unknown as SdkLikeClient;
  else
    client = (await grpcClient(
      spec.from === 'url'
        ? { baseUrl: peer.baseUrl ?? peer.origin }
        : { card: await cardFor(peer, held) },
      { legacyCompat: spec.legacyCompat },
    )) as unknown as SdkLikeClient;
  return clientCall(client, false, op, skill, text, spec.noSkill);
};

/** A JSON-RPC result (0.3 Task or 1.0 `{task}` / `{message}`) as an Outcome. */
function rpcResult(version: '0.3' | '1.0', body: Json): Outcome {
  if (body.error) return { error: `${body.error.code} ${body.error.message}` };
  // a 1.0 `{task}` wrapper; fasta2a sends it to 0.3 calls too
  const task = (body.result?.task ?? body.result) as Json | undefined;
  const artifacts = (task?.artifacts ?? []) as Json[];
  const p = artifacts[artifacts.length - 1]?.parts?.[0] as Json | undefined;
  const status = task?.status as Json | undefined;
  const agentSaid = ((task?.history ?? []) as Json[]).filter((m) => /agent/i.test(m.role)).pop();
  const answerParts = (
    artifacts.length ? artifacts.flatMap((a) => a.parts) : (agentSaid?.parts ?? [])
  ) as Json[];
  return {
    state: stateWord(status?.state),
    taskId: task?.id as string | undefined,
    part: p ? wirePart(p) : undefined,
    artifacts: artifacts.length,
    answer: answerParts.map((x) => x.text ?? '').join(''),
    statusText: (status?.message?.parts as Json[] | undefined)?.find((x) => 'text' in x)?.text,
  };
}
/** 0.3 `{kind, text | file | data}` and 1.0 `{text | raw | data | url, mediaType}` parts */
function wirePart(p: Json): NonNullable<Outcome['part']> {
  const kind = p.kind ?? ['text', 'raw', 'data', 'url', 'file'].find((k) => k in p) ?? 'unknown';
  const mediaType = p.mediaType ?? p.file?.mimeType ?? p.mimeType;
  return {
    kind,
    ...(typeof p.text === 'string' ? { text: p.text } : {}),
    ...(mediaType ? { mediaType } : {}),
  };
}
/** the kind of a stream event's result: 0.3 `kind`, 1.0 the one key */
function eventKind(result: Json): string {
  const k = result.kind ?? Object.keys(result)[0];
  return (
    {
      'status-update': 'status',
      statusUpdate: 'status',
      'artifact-update': 'artifact',
      artifactUpdate: 'artifact',
    }[k as string] ?? k
  );
}

const rpcCall: Driver<'jsonrpc'> = async (spec, peer, _held, op, skill, text) => {
  const v10 = spec.version === '1.0';
  const method =
    v10 && !spec.slashNames
      ? { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask' }[op]
      : { send: 'message/send', stream: 'message/stream', get: 'tasks/get' }[op];
  // a get names the task (in `skill`'s place)
  const params =
    op === 'get'
      ? { id: skill }
      : spec.noSkill
        ? v10
          ? { message: v10Params(text, skill).message }
          : { message: v03Message(text) }
        : v10
          ? v10Params(text, skill)
          : {
              message: spec.skillKey
                ? { ...v03Message(text), metadata: { [spec.skillKey]: skill } }
                : v03Message(text, skill),
            };
  const res = await fetch(endpoint(peer, spec.endpoint), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: op === 'stream' ? 'text/event-stream' : 'application/json',
      ...(v10 ? V10 : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextRpcId(), method, params }),
  });
  const wire = await res.text();
  const contentType = res.headers.get('content-type');
  if (op !== 'stream') {
    let body: Json;
    try {
      body = JSON.parse(wire) as Json;
    } catch {
      return { error: `HTTP ${res.status}`, wire };
    }
    const out = { ...rpcResult(spec.version, body), wire, contentType };
    if (!spec.poll || out.error !== undefined) return out;
    const id = (body.result?.task ?? body.result)?.id as string;
    for (let i = 0; i < 100; i++) {
      const polled = await fetch(endpoint(peer, spec.endpoint), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(v10 ? V10 : {}) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: nextRpcId(),
          method: v10 ? 'GetTask' : 'tasks/get',
          params: { id },
        }),
      });
      const polledWire = await polled.text();
      const got = rpcResult(spec.version, JSON.parse(polledWire) as Json);
      // the wire of a polled send: the last poll's answer (the task as it ended)
      if (got.error !== undefined || DONE.has(got.state ?? ''))
        return { ...got, answered: out.state, wire: polledWire };
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`task ${id} did not finish`);
  }
  const out: Outcome = { events: [], wire, contentType };
  for (const block of wire.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim())
      .join('\n');
    if (!data) continue;
    const ev = JSON.parse(data.slice(data.indexOf('{'))) as Json;
    if (ev.error) {
      out.events!.push('error');
      out.error = `${ev.error.code} ${ev.error.message}`;
      continue;
    }
    const r = ev.result as Json;
    out.events!.push(eventKind(r));
    out.taskId ??= (r.task?.id ?? r.taskId ?? r.id) as string | undefined;
    const status = (r.status ?? r.statusUpdate?.status ?? r.task?.status) as Json | undefined;
    if (status?.state) out.state = stateWord(status.state);
  }
  return out;
};

/** python-a2a's 0.1 `tasks/send` / `tasks/sendSubscribe`: bare Tasks, SSE `event: update/complete`. */
const rpc01Call: Driver<'jsonrpc01'> = async (spec, peer, _held, op, skill, text) => {
  const n = nextRpcId();
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: `conf-rpc-${n}`,
    method: op === 'send' ? 'tasks/send' : 'tasks/sendSubscribe',
    params: {
      id: `conf-task-${n}`,
      sessionId: 'conf-session',
      message: {
        role: 'user',
        parts: [{ type: 'text', text }],
        ...(spec.skillBy === 'metadata' && !spec.noSkill ? { metadata: { skillId: skill } } : {}),
      },
    },
  });
  if (op === 'get') throw new Error('the 0.1 driver sends and streams only');
  const url = endpoint(peer, spec[op]);
  const go = () =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: op === 'stream' ? 'text/event-stream' : 'application/json',
      },
      body,
    });
  const res =
    spec.skillBy === 'withSkill' && !spec.noSkill ? await withSkill(skill, go) : await go();
  const wire = await res.text();
  if (op === 'send') {
    try {
      return { ...rpcResult('0.3', JSON.parse(wire) as Json), wire };
    } catch {
      return { error: `HTTP ${res.status}`, wire };
    }
  }
  const out: Outcome = { events: [], wire };
  for (const block of wire.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const event = lines
      .find((l) => l.startsWith('event:'))
      ?.slice(6)
      .trim();
    const data = lines
      .find((l) => l.startsWith('data:'))
      ?.slice(5)
      .trim();
    if (!event || !data) continue;
    out.events!.push(event);
    const state = (JSON.parse(data) as Json).status?.state;
    if (state) out.state = stateWord(state);
  }
  return out;
};

/** Runs one call of `skill` the way `spec` says; `held`: the card the app holds, if any. */
export function call(
  spec: ClientSpec,
  peer: Peer,
  held: Json | undefined,
  op: Op,
  skill: string,
  text: string,
): Promise<Outcome> {
  switch (spec.kind) {
    case 'sdk':
      return sdkCall(spec, peer, held, op, skill, text);
    case 'jsonrpc':
      return rpcCall(spec, peer, held, op, skill, text);
    case 'jsonrpc01':
      return rpc01Call(spec, peer, held, op, skill, text);
    case 'grpc':
      return grpcCall(spec, peer, held, op, skill, text);
  }
}

/** Does the client fetch the card itself (else the app fetches it first, as an app would)? */
export function fetchesCard(spec: ClientSpec): boolean {
  return spec.kind === 'sdk' && spec.from === 'url';
}

/** A short name of the client for test names and the doc. */
export function clientName(spec: ClientSpec): string {
  return spec.noSkill ? `${kindName(spec)}, naming no skill` : kindName(spec);
}

function kindName(spec: ClientSpec): string {
  switch (spec.kind) {
    case 'sdk':
      return `@a2a-js/sdk ${spec.transport}${spec.legacy ? ' (0.3 mode)' : ''} from the ${spec.from === 'url' ? 'card URL' : 'held card'}`;
    case 'jsonrpc':
      return `raw JSON-RPC ${spec.version}`;
    case 'jsonrpc01':
      return `raw 0.1 tasks/send (skill by ${spec.skillBy})`;
    case 'grpc':
      return `@a2a-js/sdk gRPC (${spec.via})`;
  }
}
