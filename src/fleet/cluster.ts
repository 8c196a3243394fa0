/**
 * Fleet alerts in a `node:cluster` application: one receiver per application, not per worker.
 *
 * Every worker holds its own cards, so an alert must reach every worker. The primary owns the
 * ports of a cluster (a worker's `listen` is the primary's), so the primary receives: its
 * webhook listener and its poll are the application's only ones, and it tells every live
 * worker over the cluster's IPC channel (`worker.send`). A worker acts on what it is told
 * (actOnAlerts: each alert once, each card once per debounce window) and acknowledges; the
 * webhook's 200 then means every live worker acted or, when one died meanwhile, says how many
 * were told. A worker that never acknowledges within ACK_TIMEOUT_MS makes the answer a 503,
 * so that Alertmanager sends again; the workers that already acted ignore the re-send (the
 * primary sends each worker only what it has not acknowledged, and the worker's own memory of
 * alerts drops what it has seen). The primary keeps the recent alerts (bounded in number and
 * age) and replays them to a worker that starts later.
 *
 * The handshake: a worker running the register entry says `hello` when it starts; a primary
 * running it answers `welcome` (with the replay and which receivers it runs), and from then on
 * sends it every alert. A handler the application mounted in its workers' server
 * (createAlertWebhookHandler) is reached in one worker per alert: that worker relays the alert
 * to the primary, which acts and tells every worker. A worker whose primary does not answer
 * (pm2's cluster mode runs the primary as pm2's daemon, which never loads the register entry),
 * or answers without receivers of its own, receives for itself: it polls when polling is
 * configured, and it does not start the webhook (workers sharing one port would each receive a
 * share of the alerts and answer 200 for all of them); a warning says so.
 *
 * The messages are plain objects whose `type` is MESSAGE_TYPE; anything else is left alone
 * (the application's own messages still reach its listeners: a listener added to `process`
 * takes nothing from the others). A cluster worker's IPC channel already keeps it alive (the
 * cluster module listens on it), so the listener added here changes nothing in its lifetime.
 *
 * Never throws into the application.
 */
import type { Cluster, Worker } from 'node:cluster';
import { isMainThread } from 'node:worker_threads';
import type { FleetAlert } from './alerts';
import { actOnAlerts } from './act';
import { currentRoute, setRoute, type FanOut, type FleetRoute } from './route';
import { logger } from '../diag-logger';

/** The `type` of every message of ours; nothing the application sends looks like it. */
export const MESSAGE_TYPE = 'opentelemetry-instrumentation-a2a/fleet-alerts';
/** How long the primary waits for one worker's acknowledgement. */
export const ACK_TIMEOUT_MS = 2_000;
/** How long a worker waits for its primary's welcome before it is on its own. */
export const HELLO_TIMEOUT_MS = 2_000;
/** The recent alerts the primary replays to a worker that starts later: at most this many... */
export const REPLAY_MAX_ALERTS = 2_000;
/** ...received less than this long ago. */
export const REPLAY_MAX_AGE_MS = 10 * 60_000;
/** Alerts in one message to a worker, at most (a payload holds up to 10,000). */
const MAX_ALERTS_PER_MESSAGE = 10_000;

type Op = 'hello' | 'welcome' | 'alerts' | 'ack' | 'relay' | 'relayed';

interface FleetMessage {
  type: typeof MESSAGE_TYPE;
  op: Op;
  id?: number;
  alerts?: FleetAlert[];
  workers?: number;
  told?: number;
  complete?: boolean;
  /** welcome: the primary's own receivers. */
  receives?: Receives;
}

/** The receivers a primary runs for its workers. */
export interface Receives {
  webhook: boolean;
  poll: boolean;
}

/** A cluster worker's main thread (Node removes NODE_UNIQUE_ID once the worker is set up). */
export function isClusterWorker(): boolean {
  return isMainThread && clusterWorkerId() !== undefined;
}

/** This process's cluster worker id, if it is a cluster worker. */
export function clusterWorkerId(): number | undefined {
  try {
    const id = loadCluster().worker?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * node:cluster, loaded when fleet receivers start (not at the register entry's load: it costs
 * several milliseconds of start-up, and most applications never use it).
 */
function loadCluster(): Cluster {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when needed (above)
  return require('node:cluster') as Cluster;
}

function isOurs(msg: unknown): msg is FleetMessage {
  return (
    msg !== null &&
    typeof msg === 'object' &&
    (msg as { type?: unknown }).type === MESSAGE_TYPE &&
    typeof (msg as { op?: unknown }).op === 'string'
  );
}

/** The alerts of a message, each checked (a message is data: it is read as such). */
function alertsOf(msg: FleetMessage): FleetAlert[] {
  if (!Array.isArray(msg.alerts)) return [];
  const out: FleetAlert[] = [];
  for (const a of msg.alerts.slice(0, MAX_ALERTS_PER_MESSAGE) as unknown[]) {
    if (a === null || typeof a !== 'object') continue;
    const r = a as Record<string, unknown>;
    if (typeof r.key !== 'string' || typeof r.cardUrl !== 'string' || typeof r.kind !== 'string')
      continue;
    out.push({
      key: r.key,
      cardUrl: r.cardUrl,
      kind: r.kind as FleetAlert['kind'],
      ...(typeof r.skillId === 'string' ? { skillId: r.skillId } : {}),
      ...(typeof r.agentName === 'string' ? { agentName: r.agentName } : {}),
      ...(typeof r.startsAt === 'number' ? { startsAt: r.startsAt } : {}),
    });
  }
  return out;
}

function message(op: Op, rest: Omit<FleetMessage, 'type' | 'op'> = {}): FleetMessage {
  return { type: MESSAGE_TYPE, op, ...rest };
}

/** Send to a worker, or to the primary (`process`), without throwing; false when the channel is gone. */
function sendTo(
  target: Worker | NodeJS.Process,
  msg: FleetMessage,
  onError: () => void = () => undefined,
): boolean {
  try {
    const cb = (err: Error | null): void => {
      if (err) onError();
    };
    if (target === process) {
      if (typeof process.send !== 'function') return false;
      process.send(msg, undefined, {}, cb);
    } else (target as Worker).send(msg, cb);
    return true;
  } catch (err) {
    logger.debug(`fleet: sending to the cluster failed`, err);
    onError();
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// The primary
// ---------------------------------------------------------------------------------------

interface Remembered {
  alert: FleetAlert;
  at: number;
  /** Ids of the workers that acknowledged it. */
  acked: Set<number>;
}

interface Pending {
  workerId: number;
  keys: string[];
  resolve(ok: boolean): void;
}

export interface ClusterPrimary {
  stop(): void;
}

/**
 * The primary's side: welcomes workers (replaying recent alerts, saying which receivers it
 * runs), tells them every alert, and relays for them. Installs the route.
 */
export function startClusterPrimary(receives: Receives): ClusterPrimary {
  const cluster = loadCluster();
  const recent = new Map<string, Remembered>();
  const welcomed = new Map<number, Worker>();
  const pending = new Map<number, Pending>();
  let forked = Object.keys(cluster.workers ?? {}).length > 0;
  let seq = 0;

  const forget = (): void => {
    const oldest = Date.now() - REPLAY_MAX_AGE_MS;
    for (const [key, r] of recent) {
      if (recent.size <= REPLAY_MAX_ALERTS && r.at >= oldest) break;
      recent.delete(key);
    }
  };
  const remember = (alerts: readonly FleetAlert[]): void => {
    const t = Date.now();
    for (const alert of alerts) {
      const known = recent.get(alert.key);
      recent.delete(alert.key); // re-inserted: the most recent last
      recent.set(alert.key, { alert, at: t, acked: known?.acked ?? new Set() });
    }
    forget();
  };
  const live = (w: Worker): boolean => {
    try {
      return w.isConnected() && !w.isDead();
    } catch {
      return false;
    }
  };

  /** Send `alerts` to one worker; true once it acknowledges, false on its death or timeout. */
  const tell = (
    worker: Worker,
    op: 'alerts' | 'welcome',
    alerts: FleetAlert[],
  ): Promise<boolean> => {
    if (op === 'alerts' && alerts.length === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const id = ++seq;
      let done = false;
      const finish = (ok: boolean): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        pending.delete(id);
        if (ok) for (const key of entry.keys) recent.get(key)?.acked.add(worker.id);
        resolve(ok);
      };
      const entry: Pending = {
        workerId: worker.id,
        keys: alerts.map((a) => a.key),
        resolve: finish,
      };
      const timer = setTimeout(() => finish(false), ACK_TIMEOUT_MS);
      timer.unref();
      pending.set(id, entry);
      const msg = message(op, { id, alerts, ...(op === 'welcome' ? { receives } : {}) });
      if (!sendTo(worker, msg, () => finish(false))) finish(false);
    });
  };

  const fanOut = async (alerts: readonly FleetAlert[]): Promise<FanOut | undefined> => {
    remember(alerts);
    if (!forked) return undefined;
    const targets = [...welcomed.values()].filter(live);
    const results = await Promise.all(
      targets.map((w) =>
        tell(
          w,
          'alerts',
          alerts.filter((a) => !recent.get(a.key)?.acked.has(w.id)),
        ),
      ),
    );
    const told = results.filter(Boolean).length;
    const complete = targets.every((w, i) => results[i] || !live(w));
    return { workers: targets.length, told, complete };
  };

  const onFork = (): void => {
    forked = true;
  };
  const onMessage = (worker: Worker, msg: unknown): void => {
    try {
      if (!isOurs(msg)) return;
      if (msg.op === 'hello') {
        forked = true;
        welcomed.set(worker.id, worker);
        forget();
        void tell(
          worker,
          'welcome',
          [...recent.values()].map((r) => r.alert),
        );
      } else if (msg.op === 'ack' && typeof msg.id === 'number') {
        const p = pending.get(msg.id);
        if (p && p.workerId === worker.id) p.resolve(true);
      } else if (msg.op === 'relay' && typeof msg.id === 'number') {
        const id = msg.id;
        const alerts = alertsOf(msg);
        actOnAlerts(alerts); // the primary's own callbacks, as for an alert it received
        void fanOut(alerts).then((r) =>
          sendTo(
            worker,
            message('relayed', { id, ...(r ?? { workers: 0, told: 0, complete: true }) }),
          ),
        );
      }
    } catch (err) {
      logger.debug(`fleet: a cluster message failed`, err);
    }
  };
  const onGone = (worker: Worker): void => {
    welcomed.delete(worker.id);
    for (const p of [...pending.values()]) if (p.workerId === worker.id) p.resolve(false);
    for (const r of recent.values()) r.acked.delete(worker.id);
  };
  cluster.on('fork', onFork);
  cluster.on('message', onMessage);
  cluster.on('exit', onGone);
  cluster.on('disconnect', onGone);
  const route: FleetRoute = { role: 'primary', send: fanOut };
  setRoute(route);
  return {
    stop: () => {
      cluster.removeListener('fork', onFork);
      cluster.removeListener('message', onMessage);
      cluster.removeListener('exit', onGone);
      cluster.removeListener('disconnect', onGone);
      for (const p of [...pending.values()]) p.resolve(false);
      if (currentRoute() === route) setRoute(undefined);
    },
  };
}

// ---------------------------------------------------------------------------------------
// A worker
// ---------------------------------------------------------------------------------------

export interface ClusterWorkerSide {
  stop(): void;
}

/**
 * A worker's side: says hello, acts on what the primary tells it and acknowledges. `answered`
 * is called once: with the receivers the primary runs when it welcomes this worker, or with
 * undefined when the primary does not answer within HELLO_TIMEOUT_MS (this side then removes
 * its listener).
 */
export function startClusterWorker(
  answered: (receives: Receives | undefined) => void,
): ClusterWorkerSide {
  const tellAnswer = (receives: Receives | undefined): void => {
    try {
      answered(receives);
    } catch (err) {
      logger.debug(`fleet: starting a worker's own receivers failed`, err);
    }
  };
  let welcomed = false;
  let stopped = false;
  let seq = 0;
  const relays = new Map<number, (r: FanOut | undefined) => void>();
  const ack = (id: unknown): void => {
    if (typeof id === 'number') sendTo(process, message('ack', { id }));
  };
  const onMessage = (msg: unknown): void => {
    try {
      if (!isOurs(msg)) return; // the application's own message: not ours to read
      if (msg.op === 'welcome') {
        if (!welcomed) {
          welcomed = true;
          clearTimeout(timer);
          setRoute(route);
          const r = msg.receives;
          tellAnswer({ webhook: r?.webhook === true, poll: r?.poll === true });
        }
        actOnAlerts(alertsOf(msg));
        ack(msg.id);
      } else if (msg.op === 'alerts') {
        actOnAlerts(alertsOf(msg));
        ack(msg.id);
      } else if (msg.op === 'relayed' && typeof msg.id === 'number') {
        relays.get(msg.id)?.({
          workers: Number(msg.workers) || 0,
          told: Number(msg.told) || 0,
          complete: msg.complete === true,
        });
      }
    } catch (err) {
      logger.debug(`fleet: a cluster message failed`, err);
    }
  };
  const route: FleetRoute = {
    role: 'worker',
    send: (alerts) =>
      new Promise<FanOut | undefined>((resolve) => {
        const id = ++seq;
        const finish = (r: FanOut | undefined): void => {
          clearTimeout(t);
          relays.delete(id);
          resolve(r);
        };
        const t = setTimeout(() => finish(undefined), ACK_TIMEOUT_MS + 1_000);
        t.unref();
        relays.set(id, finish);
        if (
          !sendTo(process, message('relay', { id, alerts: [...alerts] }), () => finish(undefined))
        )
          finish(undefined);
      }),
  };
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    process.removeListener('message', onMessage);
    for (const finish of [...relays.values()]) finish(undefined);
    if (currentRoute() === route) setRoute(undefined);
  };
  process.on('message', onMessage);
  const timer = setTimeout(() => {
    if (welcomed || stopped) return;
    stop();
    tellAnswer(undefined);
  }, HELLO_TIMEOUT_MS);
  timer.unref();
  if (!sendTo(process, message('hello'))) {
    clearTimeout(timer);
    stop();
    tellAnswer(undefined);
  }
  return { stop };
}
