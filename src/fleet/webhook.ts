/**
 * The webhook transport: a Node `(req, res)` handler for Alertmanager's notifications
 * (`POST`, JSON version "4"), mounted by the app in its own server (createAlertWebhookHandler)
 * or served by the register entry's listener (listener.ts). Never throws into the app.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ALERT_BODY_BYTES, parseWebhookPayload } from './alerts';
import { deliver, warnOnce } from './act';
import { pathEnd } from '../core/url';
import { logger } from '../diag-logger';

/** Past this much discarded body the connection is closed instead of drained. */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;

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

export function isLoopbackAddress(address: string | undefined): boolean {
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

export function makeWebhookHandler(
  options: AlertWebhookOptions,
  internal: boolean,
): AlertWebhookHandler {
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
 * The webhook's credentials check alone (the register entry's listener uses it for its other
 * request: asking it to yield its port). Throws as createAlertWebhookHandler does.
 */
export function makeAuthorisation(
  options: AlertWebhookOptions,
  internal: boolean,
): (req: IncomingMessage) => boolean {
  const settings: WebhookSettings = tokenSetting(options, internal);
  return (req) => authorised(settings, req);
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
  // In a cluster every live worker must have acted before the 200 (fleet/cluster.ts): a 503
  // has Alertmanager send again, and whoever acted already ignores the re-send.
  void deliver(parsed).then(
    (d) =>
      answer(res, d.complete ? 200 : 503, {
        accepted: d.accepted,
        ignored: d.ignored,
        ...(d.workers !== undefined ? { workers: d.workers, told: d.told } : {}),
      }),
    (err: unknown) => {
      logger.debug(`fleet webhook failed`, err);
      answer(res, 500, { error: 'internal error' });
    },
  );
}
