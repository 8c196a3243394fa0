/**
 * Fleet-wide eviction, the receiving side: Alertmanager tells every instance that one of
 * them found an Agent Card stale, and each instance's onAgentCardDrift callbacks evict it.
 *
 * Two transports feed one function (actOnAlerts):
 *  - webhook: Alertmanager POSTs its notification (JSON version "4") to
 *    createAlertWebhookHandler(), mounted by the app in its own server or served by the
 *    register entry's listener (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT);
 *  - poll: the register entry GETs `<url>/api/v2/alerts?active=true&silenced=false&inhibited=false`
 *    every OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS
 * (OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL).
 *
 * Each firing alert naming a card (label a2a_agent_card_url) is acted on once (fingerprint +
 * startsAt, bounded memory): unless this process evicted that card URL less than the debounce
 * window ago (its own evidence or another alert), or holds a card fetched after the alert
 * started, the callbacks get a DriftEvent with `source: 'fleet'`, the card held is marked
 * suspect (`a2a.agent_card.suspect_source=fleet`) and, with refetchCardOnDrift, re-fetched.
 *
 * Nothing here keeps the process alive (the listener, its connections, the poll timer and
 * the poll's socket are unref'd) or throws into the application; neither transport makes
 * spans.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import {
  fleetDriftEvent,
  parseApiAlerts,
  parseWebhookPayload,
  type AlertParse,
  type FleetAlert,
} from './alerts';
import { SeenAlerts } from '../core/seen-alerts';
import { OPTIONS } from '../options';
import { pathEnd } from '../core/url';
import { logger } from '../diag-logger';
import { runAsOwnRequest } from '../telemetry/own-requests';
import { claimFleetEviction, deliverFleetDrift } from '../telemetry/drift-events';
import { sharedState } from '../telemetry/shared-state';

/** The listener's one path. */
const WEBHOOK_PATH = '/a2a/alerts';
/** Request bodies (webhook) and responses (poll) larger than this are refused. */
const MAX_ALERT_BODY_BYTES = 1024 * 1024;
/** Past this much discarded body the connection is closed instead of drained. */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;
const DEFAULT_POLL_MS = 15_000;
const MIN_POLL_MS = 100;
const POLL_TIMEOUT_MS = 10_000;
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
const WATCHDOG_MS = 200;

// ---------------------------------------------------------------------------------------
// The one function both transports feed
// ---------------------------------------------------------------------------------------

/** What a batch of alerts did: alerts acted on for the first time, and callbacks called. */
export interface AlertOutcome {
  accepted: number;
  ignored: number;
  /** Alerts that led to an eviction (callbacks called, card marked suspect). */
  evicted: number;
}

/**
 * Act on the firing alerts that name a card (see the file comment). Returns how many led to
 * an eviction. Never throws.
 */
function actOnAlerts(alerts: readonly FleetAlert[], now = Date.now()): number {
  let evicted = 0;
  try {
    const state = sharedState();
    const seen = (state.seenAlerts ??= new SeenAlerts());
    const listener = state.fleet;
    let debounceMs: number = OPTIONS.driftCallbackDebounceMs.default;
    try {
      if (listener) debounceMs = listener.debounceMs();
    } catch {
      // the default window
    }
    for (const alert of alerts) {
      if (!seen.firstTime(alert.key, now)) continue; // re-sent or polled again
      // the card held under the alert's URL, or those under it with a query (LangGraph: one
      // card per `?assistant_id=`, one URL in telemetry: each of them is implicated)
      const helds = state.cards.heldAt(alert.cardUrl);
      // A card fetched after the alert started is newer than the evidence: not implicated.
      const implicated =
        alert.startsAt === undefined
          ? helds
          : helds.filter((e) => e.fetchedAt <= (alert.startsAt as number));
      if (helds.length > 0 && implicated.length === 0) continue;
      const held = implicated[0];
      if (!claimFleetEviction(alert.cardUrl, held?.fingerprint, debounceMs, now)) continue;
      evicted++;
      for (const e of implicated) if (!e.suspect) state.cards.markSuspect(e.cardUrl, 'fleet');
      let extra;
      try {
        extra = listener?.onDrift();
      } catch {
        extra = undefined;
      }
      deliverFleetDrift(fleetDriftEvent(alert), extra);
      if (listener)
        for (const e of implicated) {
          try {
            listener.refetch(e.cardUrl, e.fingerprint);
          } catch (err) {
            logger.debug(`fleet re-fetch failed`, err);
          }
        }
    }
  } catch (err) {
    logger.debug(`acting on fleet alerts failed`, err);
  }
  return evicted;
}

function act(parsed: AlertParse & { ok: true }, now = Date.now()): AlertOutcome {
  const evicted = actOnAlerts(parsed.alerts, now);
  if (parsed.ignored > 0) logger.debug(`fleet alerts ignored: ${JSON.stringify(parsed.reasons)}`);
  if ((parsed.reasons['no drift kind'] ?? 0) > 0)
    warnOnce(
      'no-kind',
      `fleet alerts name a card but no known a2a_drift_kind; they are ignored (keep a2a_drift_kind in the rule's "sum by")`,
    );
  return { accepted: parsed.alerts.length, ignored: parsed.ignored, evicted };
}

const warned = new Set<string>();
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  logger.warn(message);
}

// ---------------------------------------------------------------------------------------
// Webhook
// ---------------------------------------------------------------------------------------

export interface AlertWebhookOptions {
  /**
   * The bearer token Alertmanager sends (`http_config.authorization.credentials`), compared
   * in constant time. Required: without one (unset, empty, not a string)
   * createAlertWebhookHandler throws, unless `unsafeAllowLoopbackWithoutToken` is set.
   */
  token?: string;
  /** Only this request path is answered (others get 404). Default: any path (the app routes). */
  path?: string;
  /**
   * UNSAFE, for a server only local processes can reach (never behind a reverse proxy or a
   * sidecar on the same host: their requests come from loopback too): without a token, answer
   * clients on a loopback address whose request names no forwarding header (`Forwarded`,
   * `X-Forwarded-For`, `X-Real-IP`). Default false.
   */
  unsafeAllowLoopbackWithoutToken?: boolean;
}

export type AlertWebhookHandler = (req: IncomingMessage, res: ServerResponse) => void;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function isLoopbackAddress(address: string | undefined): boolean {
  if (typeof address !== 'string') return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a === '::1' || a === 'localhost' || /^127\./.test(a) || /^::ffff:127\./.test(a);
}

function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  return u.slice(0, pathEnd(u));
}

function answer(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  close = false,
): void {
  try {
    if (res.headersSent || res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...(close ? { connection: 'close' } : {}),
      ...headers,
    });
    res.end(text);
  } catch (err) {
    logger.debug(`fleet webhook answer failed`, err);
    try {
      res.destroy();
    } catch {
      // nothing left to do
    }
  }
}

/**
 * Read the request body, keeping at most `keep` bytes; calls `done` once, at its end, with
 * the bytes kept (undefined when it was larger) — the rest is read and discarded, so the
 * client gets the answer instead of a broken pipe (up to MAX_DISCARD_BYTES, then `done` is
 * called with `tooLargeToDrain`, and the connection is closed after the answer).
 */
function readBody(
  req: IncomingMessage,
  keep: number,
  done: (body: Buffer | undefined, tooLargeToDrain: boolean) => void,
): void {
  let called = false;
  const finish = (body: Buffer | undefined, tooLarge: boolean): void => {
    if (called) return;
    called = true;
    done(body, tooLarge);
  };
  if (req.readableEnded) {
    finish(Buffer.alloc(0), false);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > keep) over = true;
  req.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (!over && size > keep) {
      over = true;
      chunks.length = 0;
    }
    if (!over) chunks.push(chunk);
    else if (size > keep + MAX_DISCARD_BYTES) {
      req.pause();
      finish(undefined, true);
    }
  });
  req.on('end', () => finish(over ? undefined : Buffer.concat(chunks, size), false));
  req.on('error', () => finish(undefined, true));
}

/**
 * A Node `(req, res)` handler for Alertmanager's webhook (`POST`, JSON version "4"), for
 * apps that mount it in their own server (`http.createServer(handler)`, `app.post('/a2a/alerts',
 * handler)`;
 * a body already parsed by express.json() is used as is). Answers 200 `{accepted, ignored}`,
 * 401 (token missing or wrong), 400 (not JSON, or not a version 4 payload), 413 (over 1 MiB),
 * 405 (not POST), 404 (another path, with `path`). The handler never throws; creating it
 * throws a TypeError when no token is given (unless `unsafeAllowLoopbackWithoutToken`): secure
 * by default, a forgotten `process.env.X` is found at start-up, not by a forged alert.
 */
export function createAlertWebhookHandler(options: AlertWebhookOptions = {}): AlertWebhookHandler {
  return makeWebhookHandler(options, false);
}

/** Headers a proxy adds: a request carrying one did not start on this host. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/** The handler's settings, read once when it is made. */
interface WebhookSettings {
  /** sha256 of the bearer token. */
  token?: Buffer;
  /** No token: answer loopback clients not behind a proxy (unsafeAllowLoopbackWithoutToken). */
  loopbackWithoutToken: boolean;
  /** The one path answered, or any. */
  path?: string;
}

/** An answer: its status, JSON body and extra headers. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A step that either gives the payload's value or ends in a reply. */
type BodyStep = { value: unknown } | { refused: Reply };

const TOO_LARGE = { error: `payload larger than ${MAX_ALERT_BODY_BYTES} bytes` };

function makeWebhookHandler(options: AlertWebhookOptions, internal: boolean): AlertWebhookHandler {
  const settings: WebhookSettings = {
    ...tokenSetting(options, internal),
    path: pathSetting(options),
  };
  return function a2aAlertWebhook(req: IncomingMessage, res: ServerResponse): void {
    try {
      handleAlertRequest(settings, req, res);
    } catch (err) {
      logger.debug(`fleet webhook failed`, err);
      answer(res, 500, { error: 'internal error' });
    }
  };
}

/**
 * The token (hashed), or leave to answer loopback clients without one; a TypeError when
 * there is neither (see createAlertWebhookHandler).
 */
function tokenSetting(
  options: AlertWebhookOptions,
  internal: boolean,
): Pick<WebhookSettings, 'token' | 'loopbackWithoutToken'> {
  const raw: unknown = (options as AlertWebhookOptions | null | undefined)?.token;
  if (typeof raw === 'string' && raw.length > 0)
    return { token: sha256(raw), loopbackWithoutToken: false };
  if (
    (options as AlertWebhookOptions | null | undefined)?.unsafeAllowLoopbackWithoutToken === true
  ) {
    if (!internal)
      warnOnce(
        'unsafe-loopback',
        `createAlertWebhookHandler: no token, unsafeAllowLoopbackWithoutToken set: any local process (a reverse proxy or a sidecar on this host included) can post alerts; set a token`,
      );
    return { loopbackWithoutToken: true };
  }
  throw new TypeError(
    `createAlertWebhookHandler needs a token (a non-empty string; got ${raw === undefined ? 'none' : raw === '' ? 'an empty string' : typeof raw}): ` +
      `the bearer token Alertmanager sends (http_config.authorization). Without one, any client ` +
      `could post alerts, through a reverse proxy on this host too. ` +
      `{ unsafeAllowLoopbackWithoutToken: true } answers loopback clients without a token (unsafe, see the README)`,
  );
}

/** The `path` option when it is a non-empty string; otherwise any path. */
function pathSetting(options: AlertWebhookOptions): string | undefined {
  try {
    if (typeof options?.path === 'string' && options.path.length > 0) return options.path;
  } catch {
    // an odd path option: any path
  }
  return undefined;
}

/**
 * One request, step by step: the path, the method and the credentials; the body (read with
 * its cap, or as a body parser left it); JSON; the alerts acted on; the reply.
 */
function handleAlertRequest(
  settings: WebhookSettings,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const refused = refusal(settings, req);
  if (refused) {
    replyAfterBody(req, res, refused);
    return;
  }
  const parsedBefore = (req as IncomingMessage & { body?: unknown }).body;
  if (parsedBefore !== undefined && req.readableEnded) {
    // Mounted behind a body parser (express.json(), express.raw(), express.text()).
    replyTo(res, valueOfParsedBody(parsedBefore));
    return;
  }
  readBody(req, MAX_ALERT_BODY_BYTES, (body, tooLarge) => {
    if (body === undefined) {
      answer(res, 413, TOO_LARGE, {}, tooLarge);
      if (tooLarge) res.once('finish', () => req.destroy());
      return;
    }
    replyTo(res, parseJson(body.toString('utf8')));
  });
}

/** Step 1: the reply refusing a request to another path, not a POST, or not authorised. */
function refusal(settings: WebhookSettings, req: IncomingMessage): Reply | undefined {
  if (settings.path !== undefined && pathOf(req.url) !== settings.path)
    return { status: 404, body: { error: `not found: POST ${settings.path}` } };
  if ((req.method ?? '').toUpperCase() !== 'POST')
    return {
      status: 405,
      body: { error: 'method not allowed: POST only' },
      headers: { allow: 'POST' },
    };
  if (!authorised(settings, req))
    return {
      status: 401,
      body: {
        error: settings.token
          ? 'missing or wrong bearer token'
          : 'no token configured: only loopback clients not behind a proxy are answered',
      },
      headers: { 'www-authenticate': 'Bearer' },
    };
  return undefined;
}

/** The bearer token, compared in constant time; or, without one, a loopback client. */
function authorised(settings: WebhookSettings, req: IncomingMessage): boolean {
  if (!settings.token) {
    if (!settings.loopbackWithoutToken || !isLoopbackAddress(req.socket?.remoteAddress))
      return false;
    return FORWARDING_HEADERS.every((h) => req.headers[h] === undefined);
  }
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) return false;
  return timingSafeEqual(sha256(m[1]), settings.token);
}

/** Every refusal waits for the end of the request body (read and discarded). */
function replyAfterBody(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  readBody(req, 0, (_b, tooLarge) =>
    answer(res, reply.status, reply.body, reply.headers, tooLarge),
  );
}

/** Step 2, behind a body parser: its value as is, or its text (capped) parsed. */
function valueOfParsedBody(parsed: unknown): BodyStep {
  if (!Buffer.isBuffer(parsed) && typeof parsed !== 'string') return { value: parsed };
  const text = parsed.toString();
  if (Buffer.byteLength(text) > MAX_ALERT_BODY_BYTES)
    return { refused: { status: 413, body: TOO_LARGE } };
  return parseJson(text);
}

/** Step 3: the body as JSON. */
function parseJson(text: string): BodyStep {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { refused: { status: 400, body: { error: 'the body is not JSON' } } };
  }
}

/** Steps 4 and 5: the alerts of a version 4 payload acted on, and the reply. */
function replyTo(res: ServerResponse, step: BodyStep): void {
  if ('refused' in step) {
    answer(res, step.refused.status, step.refused.body);
    return;
  }
  const parsed = parseWebhookPayload(step.value);
  if (!parsed.ok) {
    answer(res, 400, { error: parsed.error });
    return;
  }
  const outcome = act(parsed);
  answer(res, 200, { accepted: outcome.accepted, ignored: outcome.ignored });
}

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

// ---------------------------------------------------------------------------------------
// Poll
// ---------------------------------------------------------------------------------------

/** Resources that keep the process alive only for a poll still connecting (see distro/start-sdk.ts). */
const IDLE_RESOURCES = new Set(['ConnectWrap', 'GetAddrInfoReqWrap', 'PipeWrap', 'TTYWrap']);

function onlyConnectsLeft(): boolean {
  if (typeof process.getActiveResourcesInfo !== 'function') return false;
  return process.getActiveResourcesInfo().every((t) => IDLE_RESOURCES.has(t));
}

interface PollTarget {
  url: URL;
  headers: Record<string, string>;
  shown: string;
}

function pollTarget(base: string): PollTarget | undefined {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (u.username !== '' || u.password !== '') {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
    u.username = '';
    u.password = '';
  }
  const prefix = u.pathname.replace(/\/+$/, '');
  const url = new URL(
    `${u.origin}${prefix}/api/v2/alerts?active=true&silenced=false&inhibited=false`,
  );
  return { url, headers, shown: `${u.origin}${prefix}` };
}

/** One GET of the alert list, untraced, bounded in bytes and time; never rejects. */
function getAlerts(
  target: PollTarget,
  timeoutMs: number,
  track: (req: http.ClientRequest | undefined) => void,
): Promise<{ value?: unknown; error?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: { value?: unknown; error?: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      track(undefined);
      resolve(r);
    };
    const timer = setTimeout(() => {
      req?.destroy(new Error(`no answer in ${timeoutMs} ms`));
      settle({ error: `no answer in ${timeoutMs} ms` });
    }, timeoutMs);
    timer.unref();
    let req: http.ClientRequest | undefined;
    try {
      const mod = target.url.protocol === 'https:' ? https : http;
      req = runAsOwnRequest(() =>
        mod.request(target.url, { method: 'GET', headers: target.headers, agent: false }, (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            res.resume();
            settle({ error: `HTTP ${status}` });
            req?.destroy();
            return;
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > MAX_ALERT_BODY_BYTES) {
            settle({ error: `answer larger than ${MAX_ALERT_BODY_BYTES} bytes` });
            req?.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.byteLength;
            if (size > MAX_ALERT_BODY_BYTES) {
              settle({ error: `answer larger than ${MAX_ALERT_BODY_BYTES} bytes` });
              req?.destroy();
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            if (settled) return;
            try {
              settle({ value: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) });
            } catch {
              settle({ error: 'the answer is not JSON' });
            }
          });
          res.on('error', (err) => settle({ error: err.message }));
        }),
      );
      track(req);
      req.on('socket', (socket) => {
        try {
          socket.unref();
        } catch {
          // gone already
        }
      });
      req.on('error', (err) => settle({ error: err.message }));
      req.end();
    } catch (err) {
      settle({ error: err instanceof Error ? err.message : String(err) });
    }
  });
}

export interface AlertmanagerPoller {
  /** Poll now (tests); resolves with what the poll did, or an error text. */
  pollNow(): Promise<AlertOutcome | { error: string }>;
  stop(): void;
}

/**
 * Poll Alertmanager's API v2 for active, unsilenced, uninhibited alerts every `intervalMs`
 * (first poll at once). The timer and the request are unref'd; a poll still connecting
 * when nothing else keeps the process alive is given up. Undefined for a URL that is not http(s).
 */
export function startAlertmanagerPoller(
  opts: { url: string; intervalMs?: number; autoStart?: boolean },
  warn: (message: string) => void = (m) => logger.warn(m),
): AlertmanagerPoller | undefined {
  const target = pollTarget(opts.url);
  if (!target) return undefined;
  const intervalMs = Math.max(MIN_POLL_MS, Math.floor(opts.intervalMs ?? DEFAULT_POLL_MS));
  const timeoutMs = Math.min(POLL_TIMEOUT_MS, Math.max(1000, intervalMs));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let inFlight: http.ClientRequest | undefined;
  let running: Promise<AlertOutcome | { error: string }> | undefined;
  let failing = false;

  const track = (req: http.ClientRequest | undefined): void => {
    inFlight = req;
    if (req && !watchdog) {
      watchdog = setInterval(() => {
        try {
          if (
            inFlight &&
            (inFlight.socket === null || inFlight.socket.connecting) &&
            onlyConnectsLeft()
          )
            inFlight.destroy(new Error('given up: the process is ending'));
        } catch {
          // never into the app
        }
      }, WATCHDOG_MS);
      watchdog.unref();
    } else if (!req && watchdog) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  };

  const pollOnce = async (): Promise<AlertOutcome | { error: string }> => {
    const r = await getAlerts(target, timeoutMs, track);
    let out: AlertOutcome | { error: string };
    if (r.error !== undefined) out = { error: r.error };
    else {
      const parsed = parseApiAlerts(r.value);
      out = parsed.ok ? act(parsed) : { error: parsed.error };
    }
    if ('error' in out) {
      if (!failing)
        warn(
          `polling Alertmanager at ${target.shown} failed (${out.error.slice(0, 200)}); retrying every ${intervalMs} ms`,
        );
      failing = true;
    } else if (failing) {
      failing = false;
      logger.info(`polling Alertmanager at ${target.shown} works again`);
    }
    return out;
  };

  const pollNow = (): Promise<AlertOutcome | { error: string }> => {
    running ??= pollOnce()
      .catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const schedule = (ms: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void pollNow().finally(() => schedule(intervalMs));
    }, ms);
    timer.unref();
  };
  if (opts.autoStart !== false) schedule(0);

  return {
    pollNow,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      inFlight?.destroy();
      track(undefined);
    },
  };
}

// ---------------------------------------------------------------------------------------
// The register entry's configuration
// ---------------------------------------------------------------------------------------

export interface FleetEnvConfig {
  webhook?: { port: number; host: string; token?: string };
  poll?: { url: string; intervalMs: number };
}

/**
 * The fleet transports from OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT / _HOST / _TOKEN and
 * OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL / _POLL_MS. Bad values are warned about (once
 * each) and that transport is left off (a bad poll interval: the default).
 */
export function fleetConfigFromEnv(env: NodeJS.ProcessEnv): FleetEnvConfig {
  const read = (name: string): string | undefined => {
    const v = env[`OTEL_INSTRUMENTATION_A2A_${name}`];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const out: FleetEnvConfig = {};
  const portRaw = read('WEBHOOK_PORT');
  if (portRaw !== undefined) {
    const port = Number(portRaw);
    const host = read('WEBHOOK_HOST') ?? '127.0.0.1';
    const token = read('WEBHOOK_TOKEN');
    if (!/^\d+$/.test(portRaw) || !Number.isInteger(port) || port > 65535) {
      logger.warn(
        `invalid OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT ${JSON.stringify(portRaw.slice(0, 100))}; the fleet alert webhook is not started`,
      );
    } else if (token === undefined && !isLoopbackAddress(host)) {
      logger.warn(
        `OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST=${JSON.stringify(host.slice(0, 100))} is not a loopback address and OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN is not set; the fleet alert webhook is not started (set the token Alertmanager sends as its bearer credentials)`,
      );
    } else {
      out.webhook = { port, host, ...(token !== undefined ? { token } : {}) };
    }
  }
  const url = read('ALERTMANAGER_URL');
  if (url !== undefined) {
    let intervalMs = DEFAULT_POLL_MS;
    const pollRaw = read('ALERTMANAGER_POLL_MS');
    if (pollRaw !== undefined) {
      const n = Number(pollRaw);
      if (/^\d+$/.test(pollRaw) && Number.isSafeInteger(n) && n >= MIN_POLL_MS) intervalMs = n;
      else
        logger.warn(
          `invalid OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS ${JSON.stringify(pollRaw.slice(0, 100))} (at least ${MIN_POLL_MS}); using ${DEFAULT_POLL_MS}`,
        );
    }
    if (pollTarget(url) === undefined)
      logger.warn(
        `invalid OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL (not an http(s) URL); Alertmanager is not polled`,
      );
    else out.poll = { url, intervalMs };
  }
  return out;
}

export interface FleetReceivers {
  webhook?: AlertWebhookListener;
  poller?: AlertmanagerPoller;
  close(): void;
}

/**
 * Start what `config` asks for. Never throws; `warn` reports a listener that cannot listen or a
 * poll that fails.
 */
export function startFleetReceivers(
  config: FleetEnvConfig,
  warn: (message: string) => void,
): FleetReceivers {
  let webhook: AlertWebhookListener | undefined;
  let poller: AlertmanagerPoller | undefined;
  try {
    if (config.webhook) webhook = startAlertWebhookListener(config.webhook, warn);
  } catch (err) {
    warn(
      `the fleet alert webhook could not start (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  try {
    if (config.poll) poller = startAlertmanagerPoller(config.poll, warn);
  } catch (err) {
    warn(
      `Alertmanager polling could not start (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return {
    webhook,
    poller,
    close: () => {
      webhook?.close();
      poller?.stop();
    },
  };
}
