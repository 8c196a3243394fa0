/**
 * A small `node:http` A2A 0.1 JSON-RPC peer, as the seed's fleet ran it.
 *
 *   GET  {baseUrl}/.well-known/agent.json   0.1 Agent Card (live object, `redeploy` mutates `skills` in place)
 *   POST {rpcUrl}  (default {baseUrl}/)     tasks/send, tasks/get, tasks/cancel, tasks/sendSubscribe, tasks/resubscribe
 *
 * 0.1 shapes (A2A spec as of tag v0.1.0):
 *   Task        {id, sessionId, status:{state, message?, timestamp?}, artifacts?, history?, metadata?}
 *   Part        {type:'text', text} | {type:'file', file:{name?, mimeType?, bytes?|uri?}} | {type:'data', data}
 *   Artifact    {name?, description?, parts, metadata?, index, append?, lastChunk?}
 *   SSE result  TaskStatusUpdateEvent {id, status, final, metadata?}
 *               TaskArtifactUpdateEvent {id, artifact, metadata?}
 *   each wrapped as `data: {"jsonrpc":"2.0","id":<request id>,"result":<event>}`.
 *
 * `tasks/send` answers 200 with the Task in state `submitted`; the task then
 * moves (asynchronously) to `working` and to `failed` with
 * `status.message.parts[0] = {type:'text', text:'unknown skill'}` when the skill
 * id is not in the CURRENT card, or to `completed` with one artifact.
 * The skill id is read from `params.skillId`, then `params.metadata.skillId`,
 * then `params.message.metadata.skillId`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import zlib from 'node:zlib';
import { SEED_SUMMARIZE_SKILL, SEED_TRANSLATE_SKILL } from './wire';

export interface V01Skill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
}

export interface V01Card {
  name: string;
  description?: string;
  url: string;
  version: string;
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    stateTransitionHistory?: boolean;
  };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: V01Skill[];
}

export type V01Part =
  | { type: 'text'; text: string; metadata?: Record<string, unknown> }
  | {
      type: 'file';
      file: { name?: string; mimeType?: string; bytes?: string; uri?: string };
      metadata?: Record<string, unknown>;
    }
  | { type: 'data'; data: Record<string, unknown>; metadata?: Record<string, unknown> };

export interface V01Message {
  role: 'user' | 'agent';
  parts: V01Part[];
  metadata?: Record<string, unknown>;
}

export type V01TaskState =
  'submitted' | 'working' | 'input-required' | 'completed' | 'canceled' | 'failed' | 'unknown';

export interface V01Artifact {
  name?: string;
  description?: string;
  parts: V01Part[];
  metadata?: Record<string, unknown>;
  index: number;
  append?: boolean;
  lastChunk?: boolean;
}

export interface V01Task {
  id: string;
  sessionId: string;
  status: { state: V01TaskState; message?: V01Message; timestamp?: string };
  artifacts?: V01Artifact[];
  history?: V01Message[];
  metadata?: Record<string, unknown>;
}

export interface V01SseFraming {
  /** `\r\n` line endings instead of `\n`. */
  crlf: boolean;
  /** Write each event in pieces of this many bytes (0 = one write per event). */
  chunkBytes: number;
  /** Delay between two pieces, ms (0 = setImmediate). */
  chunkDelayMs: number;
  /** Pretty-print the JSON over several `data:` lines. */
  multilineData: boolean;
  /** Send a `: keep-alive` comment line before every event. */
  comments: boolean;
}

export interface RawV01Behaviour {
  /** Delay before each state transition after `submitted`, ms. Default 10. */
  transitionDelayMs: number;
  /** `'submitted'` (default, as in the seed) or `'final'`: hold the `tasks/send` reply until the task is terminal. */
  sendReturns: 'submitted' | 'final';
  /** Reject an unknown skill with this JSON-RPC error code (e.g. -32602) instead of failing inside the lifecycle. */
  errorOnUnknownSkill: number | null;
  /** Text of `status.message.parts[0].text` of a failed task. Default 'unknown skill'. */
  unknownSkillText: string;
  /** Artifact part kind: text parts (0.1 text parts carry no media type) or file parts. */
  artifactKind: 'text' | 'file';
  /** mimeType of file parts; default: first outputMode of the skill in the CURRENT card. */
  fileMimeType: string | null;
  /** Number of artifact chunks (SSE: one TaskArtifactUpdateEvent each; tasks/get: parts of one artifact). Default 1. */
  artifactChunks: number;
  /** gzip responses when the request has `Accept-Encoding: gzip`. */
  gzip: boolean;
  sse: V01SseFraming;
  /** No skill id in the request: `'first-skill'` (default) or `'fail'`. */
  missingSkillId: 'first-skill' | 'fail';
}

export interface RawV01PeerOptions {
  name?: string;
  description?: string;
  version?: string;
  skills?: V01Skill[];
  streaming?: boolean;
  pushNotifications?: boolean;
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  /** Path of the JSON-RPC endpoint; default '/'. */
  rpcPath?: string;
  /** Extra response headers for the card (e.g. `{'cache-control': 'max-age=3600'}`). */
  cardHeaders?: Record<string, string>;
  behaviour?: Partial<RawV01Behaviour>;
  /** Deprecated shorthands for `behaviour.*`. */
  errorOnUnknownSkill?: number | null;
  gzip?: boolean;
  splitSse?: boolean;
}

export interface V01RequestRecord {
  method: string;
  params: Record<string, unknown> | undefined;
  id: unknown;
  headers: http.IncomingHttpHeaders;
}

export interface RawV01Peer {
  readonly baseUrl: string;
  readonly port: number;
  /** `${baseUrl}/.well-known/agent.json` */
  readonly cardUrl: string;
  /** JSON-RPC endpoint (= `card.url`). */
  readonly rpcUrl: string;
  /** The live card (served by reference). */
  readonly card: V01Card;
  readonly tasks: ReadonlyMap<string, V01Task>;
  /** Every JSON-RPC request received, oldest first. */
  readonly requests: V01RequestRecord[];
  readonly cardFetches: number;
  readonly behaviour: Readonly<RawV01Behaviour>;
  /** Replace `card.skills` in place (same array), keeping `version`. */
  redeploy(skills: V01Skill[]): void;
  setBehaviour(patch: Partial<RawV01Behaviour>): void;
  close(): Promise<void>;
}

export const V01_DEFAULT_SKILL: V01Skill = SEED_SUMMARIZE_SKILL;
export const V01_TRANSLATE_SKILL: V01Skill = SEED_TRANSLATE_SKILL;

const TERMINAL: ReadonlySet<V01TaskState> = new Set(['completed', 'canceled', 'failed']);

type StreamEvent =
  | { kind: 'status'; status: V01Task['status']; final: boolean }
  | { kind: 'artifact'; artifact: V01Artifact };

interface TaskEntry {
  task: V01Task;
  events: EventEmitter;
  /** Events so far (replayed by resubscribe). */
  log: StreamEvent[];
}

const clone = <T>(v: T): T => structuredClone(v);

export async function startRawV01Peer(opts: RawV01PeerOptions = {}): Promise<RawV01Peer> {
  let behaviour: RawV01Behaviour = {
    transitionDelayMs: 10,
    sendReturns: 'submitted',
    errorOnUnknownSkill: opts.errorOnUnknownSkill ?? null,
    unknownSkillText: 'unknown skill',
    artifactKind: 'text',
    fileMimeType: null,
    artifactChunks: 1,
    gzip: opts.gzip ?? false,
    sse: opts.splitSse
      ? { crlf: true, chunkBytes: 7, chunkDelayMs: 0, multilineData: false, comments: true }
      : { crlf: false, chunkBytes: 0, chunkDelayMs: 0, multilineData: false, comments: false },
    missingSkillId: 'first-skill',
    ...opts.behaviour,
  };
  const rpcPath = opts.rpcPath ?? '/';
  const card: V01Card = {
    name: opts.name ?? 'raw-v01-peer',
    description: opts.description ?? 'A2A 0.1 test peer',
    url: '', // set after listen
    version: opts.version ?? '1.0',
    capabilities: {
      streaming: opts.streaming ?? true,
      pushNotifications: opts.pushNotifications ?? false,
    },
    defaultInputModes: opts.defaultInputModes ?? ['text/plain'],
    defaultOutputModes: opts.defaultOutputModes ?? ['text/plain'],
    skills: (opts.skills ?? [V01_DEFAULT_SKILL]).map(clone),
  };
  const tasks = new Map<string, TaskEntry>();
  const requests: V01RequestRecord[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let cardFetches = 0;
  let closed = false;

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };

  const emit = (entry: TaskEntry, ev: StreamEvent): void => {
    entry.log.push(ev);
    entry.events.emit('event', ev);
  };

  function artifactParts(skill: V01Skill, chunk: number, chunks: number): V01Part[] {
    const text = `result from ${skill.id}${chunks > 1 ? ` (${chunk + 1}/${chunks})` : ''}`;
    if (behaviour.artifactKind === 'file') {
      const mimeType =
        behaviour.fileMimeType ??
        skill.outputModes?.[0] ??
        card.defaultOutputModes[0] ??
        'text/plain';
      return [
        {
          type: 'file',
          file: {
            name: `${skill.id}-${chunk}`,
            mimeType,
            bytes: Buffer.from(text).toString('base64'),
          },
        },
      ];
    }
    return [{ type: 'text', text }];
  }

  /** Run the lifecycle after `submitted`; decides against the CURRENT card. */
  function runLifecycle(entry: TaskEntry, skillId: string | undefined): void {
    const d = behaviour.transitionDelayMs;
    later(d, () => {
      const skill = skillId === undefined ? undefined : card.skills.find((s) => s.id === skillId);
      if (entry.task.status.state === 'canceled') return;
      if (!skill) {
        entry.task.status = {
          state: 'failed',
          message: { role: 'agent', parts: [{ type: 'text', text: behaviour.unknownSkillText }] },
          timestamp: new Date().toISOString(),
        };
        emit(entry, { kind: 'status', status: clone(entry.task.status), final: true });
        return;
      }
      entry.task.status = { state: 'working', timestamp: new Date().toISOString() };
      emit(entry, { kind: 'status', status: clone(entry.task.status), final: false });
      later(d, () => {
        if (entry.task.status.state === 'canceled') return;
        const chunks = Math.max(1, behaviour.artifactChunks);
        const all: V01Part[] = [];
        for (let i = 0; i < chunks; i++) {
          const parts = artifactParts(skill, i, chunks);
          all.push(...parts);
          emit(entry, {
            kind: 'artifact',
            artifact: {
              name: `${skill.id}-result`,
              parts,
              index: 0,
              append: i > 0,
              lastChunk: i === chunks - 1,
            },
          });
        }
        entry.task.artifacts = [{ name: `${skill.id}-result`, parts: all, index: 0 }];
        entry.task.status = { state: 'completed', timestamp: new Date().toISOString() };
        emit(entry, { kind: 'status', status: clone(entry.task.status), final: true });
      });
    });
  }

  type RpcResult =
    { result: unknown } | { error: { code: number; message: string; data?: unknown } };

  function resolveSkillId(params: Record<string, unknown>): string | undefined {
    const fromObj = (o: unknown): string | undefined => {
      if (o && typeof o === 'object') {
        const v = (o as Record<string, unknown>)['skillId'];
        if (typeof v === 'string' && v !== '') return v;
      }
      return undefined;
    };
    const direct = params['skillId'];
    if (typeof direct === 'string' && direct !== '') return direct;
    const msg = params['message'] as Record<string, unknown> | undefined;
    const found = fromObj(params['metadata']) ?? fromObj(msg?.['metadata']);
    if (found) return found;
    return behaviour.missingSkillId === 'first-skill' ? card.skills[0]?.id : undefined;
  }

  /** tasks/send and tasks/sendSubscribe: create (or restart) the task. */
  function createTask(
    params: Record<string, unknown>,
  ): { entry: TaskEntry } | { error: { code: number; message: string; data?: unknown } } {
    const message = params['message'] as V01Message | undefined;
    if (!message || !Array.isArray(message.parts))
      return {
        error: {
          code: -32602,
          message: 'Invalid params',
          data: 'params.message.parts is required',
        },
      };
    const skillId = resolveSkillId(params);
    const known = skillId !== undefined && card.skills.some((s) => s.id === skillId);
    if (!known && behaviour.errorOnUnknownSkill !== null) {
      return {
        error: {
          code: behaviour.errorOnUnknownSkill,
          message: behaviour.errorOnUnknownSkill === -32602 ? 'Invalid params' : 'unknown skill',
          data: { skillId: skillId ?? null, reason: 'unknown skill' },
        },
      };
    }
    const id =
      typeof params['id'] === 'string' && params['id'] !== ''
        ? (params['id'] as string)
        : randomUUID();
    const sessionId =
      typeof params['sessionId'] === 'string' && params['sessionId'] !== ''
        ? (params['sessionId'] as string)
        : randomUUID();
    const prev = tasks.get(id);
    const entry: TaskEntry = prev ?? {
      task: { id, sessionId, status: { state: 'submitted' } },
      events: new EventEmitter(),
      log: [],
    };
    entry.task.sessionId = sessionId;
    entry.task.status = { state: 'submitted', timestamp: new Date().toISOString() };
    delete entry.task.artifacts;
    entry.task.history = [...(entry.task.history ?? []), clone(message)];
    entry.task.metadata = { ...(skillId ? { skillId } : {}) };
    entry.log = [];
    tasks.set(id, entry);
    emit(entry, { kind: 'status', status: clone(entry.task.status), final: false });
    runLifecycle(entry, skillId);
    return { entry };
  }

  function taskView(t: V01Task, historyLength?: unknown): V01Task {
    const out = clone(t);
    const n = typeof historyLength === 'number' ? historyLength : 0;
    if (n > 0 && out.history) out.history = out.history.slice(-n);
    else delete out.history;
    return out;
  }

  const waitTerminal = (entry: TaskEntry): Promise<void> =>
    new Promise((resolve) => {
      if (TERMINAL.has(entry.task.status.state)) return resolve();
      const on = (ev: StreamEvent): void => {
        if (ev.kind === 'status' && ev.final) {
          entry.events.off('event', on);
          resolve();
        }
      };
      entry.events.on('event', on);
    });

  async function handleUnary(method: string, params: Record<string, unknown>): Promise<RpcResult> {
    switch (method) {
      case 'tasks/send': {
        const r = createTask(params);
        if ('error' in r) return r;
        // Snapshot NOW: the reply shows `submitted` even if the lifecycle races ahead.
        const snapshot = taskView(r.entry.task, params['historyLength']);
        if (behaviour.sendReturns === 'final') {
          await waitTerminal(r.entry);
          return { result: taskView(r.entry.task, params['historyLength']) };
        }
        return { result: snapshot };
      }
      case 'tasks/get': {
        const entry = tasks.get(String(params['id']));
        if (!entry) return { error: { code: -32001, message: 'Task not found' } };
        return { result: taskView(entry.task, params['historyLength']) };
      }
      case 'tasks/cancel': {
        const entry = tasks.get(String(params['id']));
        if (!entry) return { error: { code: -32001, message: 'Task not found' } };
        if (TERMINAL.has(entry.task.status.state))
          return { error: { code: -32002, message: 'Task cannot be canceled' } };
        entry.task.status = { state: 'canceled', timestamp: new Date().toISOString() };
        emit(entry, { kind: 'status', status: clone(entry.task.status), final: true });
        return { result: taskView(entry.task) };
      }
      case 'tasks/pushNotification/set':
      case 'tasks/pushNotification/get':
        return { error: { code: -32003, message: 'Push Notification is not supported' } };
      default:
        return { error: { code: -32601, message: 'Method not found' } };
    }
  }

  function acceptsGzip(req: http.IncomingMessage): boolean {
    return behaviour.gzip && /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));
  }

  function sendJson(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    body: unknown,
    extra: Record<string, string> = {},
  ): void {
    const buf = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
    if (acceptsGzip(req)) {
      const gz = zlib.gzipSync(buf);
      res.writeHead(status, {
        ...headers,
        'content-encoding': 'gzip',
        'content-length': String(gz.length),
        vary: 'accept-encoding',
      });
      res.end(gz);
      return;
    }
    res.writeHead(status, { ...headers, 'content-length': String(buf.length) });
    res.end(buf);
  }

  /** Serialise one SSE event per the framing knobs. */
  function frame(payload: unknown): string {
    const nl = behaviour.sse.crlf ? '\r\n' : '\n';
    const json = behaviour.sse.multilineData
      ? JSON.stringify(payload, null, 1)
      : JSON.stringify(payload);
    const lines = json.split('\n').map((l) => `data: ${l}`);
    const comment = behaviour.sse.comments ? `: keep-alive${nl}` : '';
    return comment + lines.join(nl) + nl + nl;
  }

  async function streamTask(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    rpcId: unknown,
    entry: TaskEntry,
  ): Promise<void> {
    const gzip = acceptsGzip(req);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    const gz = gzip ? zlib.createGzip() : null;
    if (gz) gz.pipe(res);
    const sink = gz ?? res;
    const writeRaw = async (s: string): Promise<void> => {
      const buf = Buffer.from(s);
      const size = behaviour.sse.chunkBytes > 0 ? behaviour.sse.chunkBytes : buf.length;
      for (let off = 0; off < buf.length; off += size) {
        if (closed || res.destroyed) return;
        sink.write(buf.subarray(off, off + size));
        if (gz) gz.flush(zlib.constants.Z_SYNC_FLUSH);
        if (size < buf.length) {
          await new Promise<void>((r) =>
            behaviour.sse.chunkDelayMs > 0
              ? setTimeout(r, behaviour.sse.chunkDelayMs)
              : setImmediate(r),
          );
        }
      }
    };
    const toWire = (ev: StreamEvent): unknown => ({
      jsonrpc: '2.0',
      id: rpcId,
      result:
        ev.kind === 'status'
          ? { id: entry.task.id, status: ev.status, final: ev.final }
          : { id: entry.task.id, artifact: ev.artifact },
    });

    // Queue events so writes never interleave.
    const queue: StreamEvent[] = [...entry.log]; // sendSubscribe: starts with `submitted`; resubscribe: replays the task so far
    let wake: (() => void) | null = null;
    const on = (ev: StreamEvent): void => {
      queue.push(ev);
      wake?.();
    };
    entry.events.on('event', on);
    try {
      for (;;) {
        while (queue.length === 0) {
          if (closed || res.destroyed) return;
          await new Promise<void>((r) => (wake = r));
          wake = null;
        }
        const ev = queue.shift() as StreamEvent;
        await writeRaw(frame(toWire(ev)));
        if (ev.kind === 'status' && ev.final) break;
      }
    } finally {
      entry.events.off('event', on);
      if (!res.destroyed) sink.end();
    }
  }

  async function handleRpc(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: string,
  ): Promise<void> {
    let body: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      sendJson(req, res, 200, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'JSON parse error' },
      });
      return;
    }
    const id = body.id ?? null;
    if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
      sendJson(req, res, 200, {
        jsonrpc: '2.0',
        id,
        error: { code: -32600, message: 'Invalid Request' },
      });
      return;
    }
    const params = (body.params && typeof body.params === 'object' ? body.params : {}) as Record<
      string,
      unknown
    >;
    requests.push({
      method: body.method,
      params: body.params as Record<string, unknown> | undefined,
      id,
      headers: req.headers,
    });

    if (body.method === 'tasks/sendSubscribe' || body.method === 'tasks/resubscribe') {
      if (!card.capabilities.streaming) {
        sendJson(req, res, 200, {
          jsonrpc: '2.0',
          id,
          error: { code: -32004, message: 'Unsupported operation' },
        });
        return;
      }
      let entry: TaskEntry | undefined;
      if (body.method === 'tasks/sendSubscribe') {
        const r = createTask(params);
        if ('error' in r) {
          sendJson(req, res, 200, { jsonrpc: '2.0', id, error: r.error });
          return;
        }
        entry = r.entry;
      } else {
        entry = tasks.get(String(params['id']));
        if (!entry) {
          sendJson(req, res, 200, {
            jsonrpc: '2.0',
            id,
            error: { code: -32001, message: 'Task not found' },
          });
          return;
        }
      }
      await streamTask(req, res, id, entry);
      return;
    }
    const r = await handleUnary(body.method, params);
    sendJson(req, res, 200, { jsonrpc: '2.0', id, ...r });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/.well-known/agent.json') {
      cardFetches++;
      sendJson(req, res, 200, card, opts.cardHeaders ?? {});
      return;
    }
    if (req.method === 'POST' && url.pathname === rpcPath) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        handleRpc(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
          if (!res.headersSent)
            sendJson(req, res, 500, {
              jsonrpc: '2.0',
              id: null,
              error: { code: -32603, message: String(err) },
            });
          else res.destroy();
        });
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const rpcUrl = `${baseUrl}${rpcPath}`;
  card.url = rpcUrl;

  return {
    baseUrl,
    port,
    cardUrl: `${baseUrl}/.well-known/agent.json`,
    rpcUrl,
    card,
    get tasks() {
      return new Map([...tasks].map(([k, v]) => [k, v.task]));
    },
    requests,
    get cardFetches() {
      return cardFetches;
    },
    get behaviour() {
      return behaviour;
    },
    redeploy(skills: V01Skill[]): void {
      card.skills.splice(0, card.skills.length, ...skills.map(clone));
    },
    setBehaviour(patch: Partial<RawV01Behaviour>): void {
      behaviour = { ...behaviour, ...patch, sse: { ...behaviour.sse, ...(patch.sse ?? {}) } };
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const e of tasks.values())
        e.events.emit('event', { kind: 'status', status: e.task.status, final: true });
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
