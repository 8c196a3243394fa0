/**
 * Push notifications: the webhooks the application registers with agents, and the
 * task updates the agents POST to them. Pure: no OpenTelemetry, no I/O, no timers; time is
 * passed in.
 *
 * - `pushWebhookOf` reads a registration from an outgoing request's params: SendMessage's
 *   `configuration.taskPushNotificationConfig` (1.0) / `configuration.pushNotificationConfig`
 *   (0.2–0.3), CreateTaskPushNotificationConfig's config (1.0 flat, 0.3
 *   `{taskId, pushNotificationConfig}`). The secret (token, or the `Authorization` value built
 *   from `authentication`) is kept only as a SHA-256 digest, never as text: nothing here can
 *   leak it into a span, a log or a hook.
 * - `PushRegistry` holds registrations, bounded like the negotiations (entry cap, age cap),
 *   indexed by the webhook's path (the inbound check for every request of the app's server is
 *   one Map lookup) and by task id. A SendMessage's registration is pending until its answer
 *   names the task; pushes that match a pending registration's webhook and secret arrive
 *   before that (the agent pushes while the client still reads the answer) are held, a few per
 *   registration, and handed over when the task id is bound.
 * - `decodePush` decodes a pushed body of any version into the model (1.0: exactly one of
 *   `task` / `statusUpdate` / `artifactUpdate` / `message`; 0.3: a Task snapshot, or an event
 *   with `kind`).
 */
import { createHash } from 'node:crypto';
import { isRecord, nonEmptyStr, own, ownEither, arr } from './json-path';
import type { DecodedRequest, DecodedResult, PushWebhook } from './model';

export type { PushWebhook };
import { isSendOperation } from './protocol/common';
import { decodeStreamEvent } from './protocol/results';

/** The header a push's secret arrives in. */
export type SecretHeader = 'token' | 'authorization';

/**
 * The digest of a secret header's value. `token`: `X-A2A-Notification-Token`; `authorization`:
 * the whole `Authorization` value (`<scheme> <credentials>`).
 */
export function secretDigest(header: SecretHeader, value: string): string {
  return createHash('sha256')
    .update(header === 'token' ? 't\0' : 'a\0')
    .update(value, 'utf8')
    .digest('hex');
}

const MAX_URL_CHARS = 4096;
const MAX_SECRET_CHARS = 8192;
const MAX_SCHEMES = 4;

function webhookFrom(cfg: unknown): PushWebhook | undefined {
  if (!isRecord(cfg)) return undefined;
  const url = nonEmptyStr(own(cfg, 'url'));
  if (url === undefined || url.length > MAX_URL_CHARS) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const secrets: string[] = [];
  const token = nonEmptyStr(own(cfg, 'token'));
  if (token !== undefined && token.length <= MAX_SECRET_CHARS)
    secrets.push(secretDigest('token', token));
  const auth = own(cfg, 'authentication');
  if (isRecord(auth)) {
    const credentials = nonEmptyStr(own(auth, 'credentials'));
    if (credentials !== undefined && credentials.length <= MAX_SECRET_CHARS) {
      // 1.0 `scheme`; 0.3 `schemes: [...]` (senders use the first; any is accepted)
      const schemes: string[] = [];
      const one = nonEmptyStr(own(auth, 'scheme'));
      if (one !== undefined) schemes.push(one);
      const many = arr(own(auth, 'schemes'));
      if (many)
        for (let i = 0; i < many.length && schemes.length < MAX_SCHEMES; i++) {
          const s = nonEmptyStr(many[i]);
          if (s !== undefined && s.length <= 64) schemes.push(s);
        }
      for (const s of schemes) secrets.push(secretDigest('authorization', `${s} ${credentials}`));
    }
  }
  const defaultPort = u.protocol === 'https:' ? 443 : 80;
  return {
    pathKey: (u.pathname || '/') + u.search,
    authority: u.host.toLowerCase(),
    port: u.port === '' ? defaultPort : Number(u.port),
    secrets,
  };
}

/**
 * The webhook an outgoing request registers, or undefined. `params`: the JSON-RPC `params`, or
 * the HTTP+JSON body. Never throws.
 */
export function pushWebhookOf(
  operation: DecodedRequest['operation'],
  params: unknown,
): PushWebhook | undefined {
  try {
    if (!isRecord(params)) return undefined;
    if (isSendOperation(operation)) {
      const conf = own(params, 'configuration');
      if (!isRecord(conf)) return undefined;
      return webhookFrom(
        ownEither(conf, 'taskPushNotificationConfig', 'task_push_notification_config') ??
          ownEither(conf, 'pushNotificationConfig', 'push_notification_config') ??
          // 0.1 TaskSendParams carried it beside the message
          undefined,
      );
    }
    if (operation === 'CreateTaskPushNotificationConfig') {
      // 1.0 flat TaskPushNotificationConfig; drafts `{config: …}`; 0.2/0.3 `{taskId,
      // pushNotificationConfig}`
      if (own(params, 'url') !== undefined) return webhookFrom(params);
      const inner =
        ownEither(params, 'pushNotificationConfig', 'push_notification_config') ??
        own(params, 'config');
      if (isRecord(inner) && own(inner, 'url') === undefined)
        return webhookFrom(ownEither(inner, 'pushNotificationConfig', 'push_notification_config'));
      return webhookFrom(inner);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** What a push's task updates are judged in: the endpoint and request shape of the call that registered it. */
export interface PushOrigin {
  /** The URL of the A2A call that registered the webhook (its endpoint scope). */
  endpointUrl: string;
  binding: DecodedRequest['binding'];
  wireMethod: string;
  protocolVersion?: string;
}

export interface PushRegistration {
  webhook: PushWebhook;
  origin: PushOrigin;
  /** Undefined while the SendMessage that registered it has not said its task id. */
  taskId?: string;
  createdAt: number;
  /** Pushes that matched before the task id was known (pending only, bounded). */
  held?: Array<{ result: DecodedResult; at: number; parent: unknown }>;
}

export interface PushRegistryOptions {
  maxEntries?: number;
  maxAgeMs?: number;
}

/** Pushes held per pending registration (a task's first updates; more are dropped). */
export const MAX_HELD_PUSHES = 8;
/** Registrations per task id and webhook path (several configs of one task). */
const MAX_PER_TASK = 8;

/** How an inbound request reached the app's server. */
export interface InboundFacts {
  /** The request line's target (`pathname + search`). */
  pathKey: string;
  /** The `Host` header, if any. */
  host?: string;
  /** The port the server accepted the connection on. */
  localPort?: number;
  /** Digests of the secret headers the request carries. */
  secrets: readonly string[];
}

function sameWebhook(w: PushWebhook, f: InboundFacts): boolean {
  if (w.pathKey !== f.pathKey) return false;
  const host = f.host?.toLowerCase();
  const hostOk =
    host !== undefined &&
    (host === w.authority ||
      // the Host header may omit the default port the registration wrote, or the reverse
      host.replace(/:(80|443)$/, '') === w.authority.replace(/:(80|443)$/, ''));
  if (!hostOk && f.localPort !== w.port) return false;
  for (const s of f.secrets) if (w.secrets.includes(s)) return true;
  return false;
}

/**
 * Bounded registry of push registrations. Pending (no task id yet) and bound registrations
 * share the caps; the oldest go first, and entries older than maxAgeMs are dropped.
 */
export class PushRegistry {
  private maxEntries: number;
  private maxAgeMs: number;
  /** Every registration, oldest first (insertion order of a Set). */
  private readonly all = new Set<PushRegistration>();
  /** taskId → its registrations. */
  private readonly byTask = new Map<string, PushRegistration[]>();
  /** Webhook pathKey → number of registrations on it. */
  private readonly paths = new Map<string, number>();
  /**
   * Registrations without a task id yet (their SendMessage is in flight: few). A push for a task
   * no registration is bound to is compared with these only, never with every registration.
   */
  private readonly pending = new Set<PushRegistration>();

  constructor(opts?: PushRegistryOptions) {
    this.maxEntries = Math.max(1, Math.floor(opts?.maxEntries ?? 10000));
    this.maxAgeMs = Math.max(0, opts?.maxAgeMs ?? 3_600_000);
  }

  setLimits(maxEntries: number, maxAgeMs: number): void {
    if (Number.isFinite(maxEntries) && maxEntries >= 1) this.maxEntries = Math.floor(maxEntries);
    if (Number.isFinite(maxAgeMs) && maxAgeMs >= 0) this.maxAgeMs = maxAgeMs;
    this.trim(undefined);
  }

  get size(): number {
    return this.all.size;
  }

  /** True when some registration's webhook has this path: the inbound request may be a push. */
  watchesPath(pathKey: string): boolean {
    return this.paths.has(pathKey);
  }

  /** Adds a registration (bound when it has a task id). Ignored without a secret to check. */
  add(reg: PushRegistration): boolean {
    if (reg.webhook.secrets.length === 0) return false;
    this.all.add(reg);
    this.paths.set(reg.webhook.pathKey, (this.paths.get(reg.webhook.pathKey) ?? 0) + 1);
    if (reg.taskId !== undefined) this.index(reg, reg.taskId);
    else this.pending.add(reg);
    this.trim(reg.createdAt);
    return true;
  }

  /**
   * The SendMessage that registered `reg` named its task: bind it, and hand back the held
   * pushes for that task (the others are dropped).
   */
  bind(reg: PushRegistration, taskId: string): PushRegistration['held'] {
    if (!this.all.has(reg) || reg.taskId !== undefined) return undefined;
    reg.taskId = taskId;
    this.pending.delete(reg);
    this.index(reg, taskId);
    const held = reg.held;
    reg.held = undefined;
    return held?.filter((h) => h.result.taskId === taskId);
  }

  /** A pending registration whose call ended without a task id. */
  remove(reg: PushRegistration): void {
    if (!this.all.delete(reg)) return;
    this.pending.delete(reg);
    const n = (this.paths.get(reg.webhook.pathKey) ?? 1) - 1;
    if (n <= 0) this.paths.delete(reg.webhook.pathKey);
    else this.paths.set(reg.webhook.pathKey, n);
    if (reg.taskId !== undefined) {
      const list = this.byTask.get(reg.taskId);
      if (list) {
        const i = list.indexOf(reg);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.byTask.delete(reg.taskId);
      }
    }
  }

  /**
   * The registration an inbound push for `taskId` is genuine for: its webhook (path, host or
   * port) and secret match a registration bound to that task. `pending`: none is bound, but a
   * pending one's webhook and secret match (the task id may be named by its answer soon).
   */
  match(
    f: InboundFacts,
    taskId: string | undefined,
    now: number,
  ): { bound: PushRegistration } | { pending: PushRegistration } | undefined {
    if (taskId !== undefined) {
      const list = this.byTask.get(taskId);
      if (list)
        for (const reg of list) {
          if (now - reg.createdAt > this.maxAgeMs) continue;
          if (sameWebhook(reg.webhook, f)) return { bound: reg };
        }
    }
    for (const reg of this.pending) {
      if (now - reg.createdAt > this.maxAgeMs) continue;
      if (sameWebhook(reg.webhook, f)) return { pending: reg };
    }
    return undefined;
  }

  /** Holds a push for a pending registration (bounded); false when full. */
  hold(
    reg: PushRegistration,
    item: { result: DecodedResult; at: number; parent: unknown },
  ): boolean {
    if (reg.taskId !== undefined || !this.all.has(reg)) return false;
    const held = (reg.held ??= []);
    if (held.length >= MAX_HELD_PUSHES) return false;
    held.push(item);
    return true;
  }

  clear(): void {
    this.all.clear();
    this.pending.clear();
    this.byTask.clear();
    this.paths.clear();
  }

  private index(reg: PushRegistration, taskId: string): void {
    let list = this.byTask.get(taskId);
    if (!list) this.byTask.set(taskId, (list = []));
    list.push(reg);
    if (list.length > MAX_PER_TASK) this.remove(list[0]);
  }

  private trim(now: number | undefined): void {
    for (const reg of this.all) {
      if (this.all.size > this.maxEntries) {
        this.remove(reg);
        continue;
      }
      if (now !== undefined && now - reg.createdAt > this.maxAgeMs) {
        this.remove(reg);
        continue;
      }
      break;
    }
  }
}

/** The request a pushed update is decoded as: a bare payload of the HTTP+JSON binding. */
const PUSH_REQUEST: DecodedRequest = {
  operation: 'GetTask',
  wireMethod: 'TaskPushNotification',
  binding: 'http+json',
  streaming: false,
};

/**
 * Decodes a pushed body (parsed JSON) of any version: 1.0 StreamResponse members (`task`,
 * `statusUpdate`, `artifactUpdate`, `message`), 0.2/0.3 objects with `kind` (a Task snapshot
 * for the SDK's 0.3 sender), bare Tasks. Never throws.
 */
export function decodePush(body: unknown): DecodedResult {
  const r = decodeStreamEvent(body, PUSH_REQUEST);
  if (r.taskId === undefined && r.kind === 'message' && isRecord(body)) {
    // a pushed Message names its task in the message
    const m = own(body, 'message') ?? body;
    const t = nonEmptyStr(ownEither(m, 'taskId', 'task_id'));
    if (t !== undefined) r.taskId = t;
  }
  return r;
}
