/**
 * The register entry's webhook listener (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT): `POST
 * /a2a/alerts` served by the webhook handler (webhook.ts) on a port of its own, unref'd,
 * making no spans, and yielding its port to the app's own server.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { makeWebhookHandler } from './webhook';
import { logger } from '../diag-logger';

/** The listener's one path. */
const WEBHOOK_PATH = '/a2a/alerts';
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

/** Listeners that yield their port to the app: called with the port of each app `listen`. */
const yielders = new Set<(port: number) => void>();
let listenWrapped = false;

/**
 * Watches the app's servers: `net.Server.prototype.listen` (http, https, express, fastify…
 * all end there) is wrapped once, and before the app's server binds a port one of our
 * listeners holds, that listener closes (synchronously: the port is free when the app's bind
 * runs). Our own listeners' calls pass through.
 */
function watchAppListens(): void {
  if (listenWrapped) return;
  listenWrapped = true;
  const proto = net.Server.prototype as unknown as {
    listen: (this: net.Server, ...args: unknown[]) => net.Server;
  };
  const original = proto.listen;
  proto.listen = function listen(this: net.Server, ...args: unknown[]): net.Server {
    if (yielders.size > 0 && !ownServers.has(this)) {
      try {
        const port = listenPort(args);
        if (port !== undefined) for (const y of [...yielders]) y(port);
      } catch (err) {
        logger.debug(`fleet listener: watching the app's listen failed`, err);
      }
    }
    return original.apply(this, args);
  };
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
  const handler = makeWebhookHandler(
    { token: opts.token, path: WEBHOOK_PATH, unsafeAllowLoopbackWithoutToken: true },
    true,
  );
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
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (yielded || closed) return; // a bind that lost to the app after we yielded
    warn(
      `the fleet alert webhook could not listen on ${opts.host}:${opts.port} (${err.code ?? err.message}); fleet alerts will not be received by webhook`,
    );
  });
  const close = (): void => {
    if (closed) return;
    closed = true;
    yielders.delete(yieldTo);
    try {
      server.close();
      server.closeAllConnections();
    } catch (err) {
      logger.debug(`closing the fleet alert webhook failed`, err);
    }
  };
  const yieldTo = (port: number): void => {
    if (closed || port !== opts.port) return;
    yielded = true;
    close();
    warn(
      `the application listens on port ${port} itself: the fleet alert webhook ` +
        `(OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT=${port}) yields it and is closed; fleet alerts ` +
        `will not be received by webhook (mount createAlertWebhookHandler({ token }) in the ` +
        `application's server, or give the webhook a port of its own)`,
    );
  };
  if (opts.port > 0) {
    watchAppListens();
    yielders.add(yieldTo);
  }
  server.on('listening', () => {
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
