/**
 * Fleet-wide eviction, the receiving side: Alertmanager tells every instance that one of
 * them found an Agent Card stale, and each instance's onAgentCardDrift callbacks evict it.
 *
 * Two transports feed one function (actOnAlerts, act.ts):
 *  - webhook: Alertmanager POSTs its notification (JSON version "4") to
 *    createAlertWebhookHandler() (webhook.ts), mounted by the app in its own server or served
 *    by the register entry's listener (listener.ts, OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT);
 *  - poll (poller.ts): the register entry GETs
 *    `<url>/api/v2/alerts?active=true&silenced=false&inhibited=false` every
 *    OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_POLL_MS (OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL).
 * Both read Alertmanager's payloads with alerts.ts. This file reads the register entry's
 * settings for them from the environment and starts them.
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
import { startAlertWebhookListener, type AlertWebhookListener } from './listener';
import {
  DEFAULT_POLL_MS,
  MIN_POLL_MS,
  pollTarget,
  startAlertmanagerPoller,
  type AlertmanagerPoller,
} from './poller';
import { isLoopbackAddress } from './webhook';
import { logger } from '../diag-logger';

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
