/**
 * The register entry's webhook listener (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT): `POST
 * /a2a/alerts` served by the webhook handler (webhook.ts) on a port of its own, unref'd,
 * making no spans, and yielding its port to the app's own server, wherever that server listens
 * from: this thread (the wrapped `net.Server.prototype.listen` closes the listener before the
 * app's bind), or another thread or process of the application (a `worker_threads` Worker, a
 * `child_process.fork` child, a cluster worker), which loads the register entry too (both
 * inherit the parent's `--require` / `--import`) and, before its server binds the webhook's
 * port, asks the listener over that port to yield it (YIELD_PATH): the listener closes, answers,
 * and the app's bind follows. That bind is then a few milliseconds late: `listen()` returns at
 * once and 'listening' comes after the answer.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { isMainThread, threadId } from 'node:worker_threads';
import { clusterWorkerId } from './cluster';
import { makeAuthorisation, makeWebhookHandler } from './webhook';
import { logger } from '../diag-logger';
import { runAsOwnRequest } from '../telemetry/own-requests';

/** The listener's one path. */
const WEBHOOK_PATH = '/a2a/alerts';
/**
 * Another thread or process of the application asks the listener to yield its port here
 * (`POST`, the webhook's credentials, YIELD_HEADER saying which port and who asks).
 */
export const YIELD_PATH = '/a2a/alerts/yield-port';
const YIELD_HEADER = 'x-opentelemetry-instrumentation-a2a-yield';
/** How long an app's bind waits for the answer to its request that the listener yield. */
const YIELD_ASK_TIMEOUT_MS = 1_000;
/**
 * The listener's connections: at most this many at once (more are closed on arrival, so the
 * listener holds at most this many descriptors however many connections arrive; Alertmanager
 * sends one notification at a time per receiver).
 */
const LISTENER_MAX_CONNECTIONS = 32;
/** A connection with no byte in or out for this long is closed. */
const LISTENER_IDLE_TIMEOUT_MS = 5_000;
/** The request's headers must have arrived this long after it started... */
const LISTENER_HEADERS_TIMEOUT_MS = 5_000;
/** ...and the whole request (headers and at most 1 MiB of body) this long after. */
const LISTENER_REQUEST_TIMEOUT_MS = 10_000;
/** How often Node checks the two above (its default, 30 s, let slow requests live that long). */
const LISTENER_CHECK_INTERVAL_MS = 1_000;

export interface AlertWebhookListener {
  /** The bound address, once listening. */
  address(): AddressInfo | undefined;
  close(): void;
}

/**
 * The port a `net.Server#listen(...)` call asks for (`listen(port[, host])`,
 * `listen('8080')`, `listen({ port, host })`), or undefined (a pipe, a handle, an fd, no port,
 * port 0). The host is not looked at: any address on that port is the app's.
 */
export function listenPort(args: readonly unknown[]): number | undefined {
  const first = args[0];
  const raw =
    first !== null && typeof first === 'object' ? (first as { port?: unknown }).port : first;
  let port: number | undefined;
  if (typeof raw === 'number') port = raw;
  else if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) port = Number(raw.trim());
  return port !== undefined && Number.isInteger(port) && port > 0 && port <= 65535
    ? port
    : undefined;
}

/**
 * Listeners of this thread that yield their port to the app: called with the port of each app
 * `listen`; they say whether they were listening on it ('held'), still binding it ('binding':
 * closed before their bind, the warning left to the caller), or neither.
 */
type YieldResult = 'held' | 'binding' | 'none';
const yielders = new Set<(port: number) => YieldResult>();
let listenWrapped = false;

/** A webhook listener that may be held by another thread or process of the application. */
interface Elsewhere {
  port: number;
  host: string;
  token?: string;
}
let elsewhere: Elsewhere | undefined;
/** This thread is a cluster worker's main thread (see viaPrimary). */
let inClusterWorker = false;
/** Warnings of this thread's own listeners closed before their bind, pending the ask's answer. */
let pendingWarnings: Array<() => void> = [];

/**
 * Watches the app's servers: `net.Server.prototype.listen` (http, https, express, fastify…
 * all end there) is wrapped once, and before the app's server binds a port one of our
 * listeners holds, that listener closes (synchronously: the port is free when the app's bind
 * runs). When none of this thread holds it and the listener may be in another thread or
 * process of the application (watchForHolderElsewhere), the app's bind waits for that
 * listener to yield (askToYield). Our own listeners' calls pass through.
 */
function watchAppListens(): void {
  if (listenWrapped) return;
  listenWrapped = true;
  const proto = net.Server.prototype as unknown as {
    listen: (this: net.Server, ...args: unknown[]) => net.Server;
  };
  const original = proto.listen;
  proto.listen = function listen(this: net.Server, ...args: unknown[]): net.Server {
    if ((yielders.size > 0 || elsewhere) && !ownServers.has(this)) {
      let deferred = false;
      try {
        const port = listenPort(args);
        if (port !== undefined) {
          let held = false;
          let binding = false;
          for (const y of [...yielders]) {
            const r = y(port);
            held ||= r === 'held';
            binding ||= r === 'binding';
          }
          const target = elsewhere;
          if (!held && target && target.port === port && !this.listening && !viaPrimary(args)) {
            elsewhere = undefined; // asked once: the listener, if anywhere, is gone after
            deferred = true;
            void askToYield(target).then((yielded) => {
              const warnings = pendingWarnings;
              pendingWarnings = [];
              // The listener elsewhere had the port: ours could not have taken it.
              if (!yielded) for (const w of warnings) w();
              try {
                original.apply(this, args);
              } catch (err) {
                // What listen() would have thrown, on the server (as a failed bind is).
                process.nextTick(() => this.emit('error', err));
              }
            });
          } else if (binding) {
            for (const w of pendingWarnings.splice(0)) w();
          }
        }
      } catch (err) {
        logger.debug(`fleet listener: watching the app's listen failed`, err);
      }
      if (deferred) return this;
    }
    return original.apply(this, args);
  };
}

/**
 * In a thread or process of the application where the webhook listener may be held by another
 * (a worker thread, a forked child, a cluster worker): before the app's server listens on the
 * webhook's port, ask whoever holds it to yield. Only for the port the register entry was
 * given, once.
 */
export function watchForHolderElsewhere(opts: Elsewhere | undefined): void {
  if (!opts || !(opts.port > 0)) return;
  elsewhere = { ...opts };
  inClusterWorker =
    isMainThread && typeof process.send === 'function' && clusterWorkerId() !== undefined;
  watchAppListens();
}

/**
 * A cluster worker's listen that the primary makes (all but `exclusive: true`): the primary's
 * own patch sees it and yields synchronously, and asking over the port would reach the
 * application's server once another worker shares it.
 */
function viaPrimary(args: readonly unknown[]): boolean {
  if (!inClusterWorker) return false;
  const first = args[0];
  return !(
    first !== null &&
    typeof first === 'object' &&
    (first as { exclusive?: unknown }).exclusive === true
  );
}

/** Where to reach a listener bound to `host`: a wildcard address is reached on loopback. */
function connectHost(host: string): string {
  if (host === '' || host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host.replace(/^\[|\]$/g, '');
}

/** Who asks: this process, its parent, this thread, its cluster worker id. */
function whoAsks(port: number): string {
  const worker = typeof process.send === 'function' ? clusterWorkerId() : undefined;
  return `port=${port}; pid=${process.pid}; ppid=${process.ppid}; thread=${threadId}${
    worker !== undefined ? `; worker=${worker}` : ''
  }`;
}

/**
 * Ask the listener on `target` to yield its port; true when it did. Untraced, bounded in time,
 * never rejects (no listener there, another server, a refusal: false).
 */
function askToYield(target: Elsewhere): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    const settle = (yielded: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(yielded);
    };
    const timer = setTimeout(() => settle(false), YIELD_ASK_TIMEOUT_MS);
    try {
      req = runAsOwnRequest(() =>
        http.request(
          {
            host: connectHost(target.host),
            port: target.port,
            method: 'POST',
            path: YIELD_PATH,
            agent: false,
            headers: {
              [YIELD_HEADER]: whoAsks(target.port),
              'content-length': '0',
              connection: 'close',
              ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
            },
          },
          (res) => {
            res.resume();
            settle(res.statusCode === 200 && res.headers[YIELD_HEADER] === 'yielded');
          },
        ),
      );
      req.on('error', () => settle(false));
      req.end();
    } catch (err) {
      logger.debug(`fleet listener: asking for the port failed`, err);
      settle(false);
    }
  });
}

/** The asker, read from its YIELD_HEADER: whether it belongs to this process, and what it is. */
function asker(header: unknown, port: number): string | undefined {
  if (typeof header !== 'string' || header.length > 200) return undefined;
  const f = (name: string): number | undefined => {
    const m = new RegExp(`(?:^|;)\\s*${name}=(\\d+)`).exec(header);
    return m ? Number(m[1]) : undefined;
  };
  if (f('port') !== port) return undefined;
  const pid = f('pid');
  const worker = f('worker');
  if (pid === process.pid) return `in worker thread ${f('thread') ?? '?'} of this process`;
  if (pid !== undefined && f('ppid') === process.pid)
    return worker !== undefined
      ? `in its cluster worker ${worker} (process ${pid})`
      : `in its child process ${pid}`;
  return undefined; // not this application's thread nor child: not ours to obey
}

const ownServers = new WeakSet<net.Server>();

/**
 * The register entry's listener: `POST /a2a/alerts` on host:port. The server, and every
 * connection it accepts, is unref'd (it never keeps the process alive), and it emits its
 * events past http.Server.prototype.emit, where HTTP server instrumentations hook, so its
 * traffic makes no spans. The app wins its port: when the app's own server listens on this
 * port (any address), the listener closes first and one warning says so.
 */
export function startAlertWebhookListener(
  opts: { port: number; host: string; token?: string },
  warn: (message: string) => void,
): AlertWebhookListener {
  // Without a token only on a loopback address (fleetConfigFromEnv): a port of its own.
  const settings = { token: opts.token, path: WEBHOOK_PATH, unsafeAllowLoopbackWithoutToken: true };
  const webhook = makeWebhookHandler(settings, true);
  const authorised = makeAuthorisation(settings, true);
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (req.url !== YIELD_PATH) {
      webhook(req, res);
      return;
    }
    try {
      const who = asker(req.headers[YIELD_HEADER], opts.port);
      const ok =
        (req.method ?? '').toUpperCase() === 'POST' && authorised(req) && who !== undefined;
      if (ok) {
        // Stop listening first: the port is free when the asker reads the answer.
        yieldTo(opts.port, who, res);
        return;
      }
      req.resume();
      res.writeHead(403, { connection: 'close', 'content-length': '0' });
      res.end();
    } catch (err) {
      logger.debug(`fleet listener: a request to yield failed`, err);
      res.destroy();
    }
  };
  const server = http.createServer(
    {
      requestTimeout: LISTENER_REQUEST_TIMEOUT_MS,
      headersTimeout: LISTENER_HEADERS_TIMEOUT_MS,
      keepAliveTimeout: LISTENER_IDLE_TIMEOUT_MS,
      connectionsCheckingInterval: LISTENER_CHECK_INTERVAL_MS, // its timer is unref'd by Node
    },
    handler,
  );
  ownServers.add(server);
  server.emit = EventEmitter.prototype.emit;
  server.maxConnections = LISTENER_MAX_CONNECTIONS;
  // Idle sockets (none sent a byte, or stopped): destroyed (no 'timeout' listener of ours).
  server.setTimeout(LISTENER_IDLE_TIMEOUT_MS);
  server.on('connection', (socket) => {
    try {
      socket.unref();
    } catch {
      // a socket already gone
    }
  });
  let closed = false;
  let yielded = false;
  let listening = false;
  let failed = false;
  server.on('error', (err: NodeJS.ErrnoException) => {
    failed = true;
    if (yielded || closed) return; // a bind that lost to the app after we yielded
    const other =
      err.code === 'EADDRINUSE' && (!isMainThread || typeof process.send === 'function')
        ? ` (another process holds it: the webhook of the process that started this one, when it runs the register entry too)`
        : '';
    warn(
      `the fleet alert webhook could not listen on ${opts.host}:${opts.port} (${err.code ?? err.message})${other}; fleet alerts will not be received by webhook`,
    );
  });
  const close = (after?: http.ServerResponse): void => {
    if (closed) return;
    closed = true;
    yielders.delete(yieldHere);
    try {
      server.close();
      if (after) after.once('close', () => server.closeAllConnections());
      else server.closeAllConnections();
    } catch (err) {
      logger.debug(`closing the fleet alert webhook failed`, err);
    }
  };
  const warnYielded = (port: number, where?: string): void =>
    warn(
      `the application listens on port ${port} itself${where ? ` (${where})` : ''}: the fleet alert webhook ` +
        `(OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT=${port}) yields it and is closed; fleet alerts ` +
        `will not be received by webhook (mount createAlertWebhookHandler({ token }) in the ` +
        `application's server, or give the webhook a port of its own)`,
    );
  /** Yield to another thread or process of the application that asked over the port. */
  const yieldTo = (port: number, where: string, res: http.ServerResponse): void => {
    yielded = true;
    close(res);
    res.writeHead(200, { [YIELD_HEADER]: 'yielded', connection: 'close', 'content-length': '0' });
    res.end();
    warnYielded(port, where);
  };
  /** Yield to an app's listen in this thread (see YieldResult). */
  const yieldHere = (port: number): YieldResult => {
    if (closed || port !== opts.port) return 'none';
    if (failed && !listening) {
      yielders.delete(yieldHere); // it never held the port: nothing to yield, nothing to say
      closed = true;
      return 'none';
    }
    const was: YieldResult = listening ? 'held' : 'binding';
    yielded = true;
    close();
    if (was === 'held') warnYielded(port);
    else pendingWarnings.push(() => warnYielded(port));
    return was;
  };
  if (opts.port > 0) {
    watchAppListens();
    yielders.add(yieldHere);
    // A thread or a process started by another that may hold the port (see the file comment).
    if (!isMainThread || typeof process.send === 'function') watchForHolderElsewhere(opts);
  }
  server.on('listening', () => {
    listening = true;
    if (closed) server.close(); // bound after yielding (a host name resolved late)
  });
  server.listen(opts.port, opts.host);
  server.unref();
  return {
    address: () => {
      const a = server.address();
      return a && typeof a === 'object' ? a : undefined;
    },
    close,
  };
}
