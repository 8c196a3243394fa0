/**
 * The poll transport (OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL): GET
 * `<url>/api/v2/alerts?active=true&silenced=false&inhibited=false` every
 * OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS, untraced, bounded in bytes and time; the timer
 * and the socket are unref'd.
 */
import http from 'node:http';
import https from 'node:https';
import { MAX_ALERT_BODY_BYTES, parseApiAlerts } from './alerts';
import { deliver, type AlertOutcome } from './act';
import { logger } from '../diag-logger';
import { runAsOwnRequest } from '../telemetry/own-requests';

export const DEFAULT_POLL_MS = 15_000;
export const MIN_POLL_MS = 100;
const POLL_TIMEOUT_MS = 10_000;
const WATCHDOG_MS = 200;

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

export function pollTarget(base: string): PollTarget | undefined {
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
      if (!parsed.ok) out = { error: parsed.error };
      else {
        // In a cluster primary the workers are told too (fleet/cluster.ts); a worker that did
        // not act gets the alert again at the next poll (the primary remembers who acted).
        const d = await deliver(parsed);
        out = { accepted: d.accepted, ignored: d.ignored, evicted: d.evicted };
        if (d.workers !== undefined) Object.assign(out, { workers: d.workers, told: d.told });
      }
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
