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
import {
  startClusterPrimary,
  startClusterWorker,
  isClusterWorker,
  type ClusterPrimary,
} from './cluster';
import {
  startAlertWebhookListener,
  watchForHolderElsewhere,
  type AlertWebhookListener,
} from './listener';
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

export { watchForHolderElsewhere };

export interface FleetReceivers {
  webhook?: AlertWebhookListener;
  poller?: AlertmanagerPoller;
  close(): void;
}

/**
 * Start what `config` asks for. Never throws; `warn` reports a listener that cannot listen or a
 * poll that fails.
 *
 * One receiver per application (cluster.ts): a `node:cluster` worker starts nothing while its
 * primary runs the receivers (the primary receives and tells every worker); a worker whose
 * primary does not run the package, or runs no receiver, polls itself, and does not start the
 * webhook (one port shared by the workers would give each a share of the alerts), with a
 * warning. Called whatever the configuration: the cluster's handshake also serves handlers the
 * application mounts in its workers.
 */
export function startFleetReceivers(
  config: FleetEnvConfig,
  warn: (message: string) => void,
): FleetReceivers {
  if (isClusterWorker()) return startInWorker(config, warn);
  const out = config.webhook || config.poll ? startHere(config, warn) : undefined;
  let primary: ClusterPrimary | undefined;
  try {
    primary = startClusterPrimary({
      webhook: out?.webhook !== undefined,
      poll: out?.poller !== undefined,
    });
  } catch (err) {
    logger.debug(`fleet: watching the cluster's workers failed`, err);
  }
  return {
    webhook: out?.webhook,
    poller: out?.poller,
    close: () => {
      out?.close();
      primary?.stop();
    },
  };
}

function startHere(config: FleetEnvConfig, warn: (message: string) => void): FleetReceivers {
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

/** A cluster worker: its primary receives for it, or it polls on its own. */
function startInWorker(config: FleetEnvConfig, warn: (message: string) => void): FleetReceivers {
  let own: FleetReceivers | undefined;
  let closed = false;
  if (config.webhook) watchForHolderElsewhere(config.webhook);
  const side = startClusterWorker((receives) => {
    if (closed) return;
    if (config.webhook && !receives?.webhook)
      warn(
        `this process is a node:cluster worker whose primary ${
          receives
            ? 'runs no fleet alert webhook'
            : "does not run this package's register entry (as in pm2's cluster mode)"
        }: the fleet alert webhook (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT=${config.webhook.port}) ` +
          `is not started in the workers, which would share the port and each receive a share ` +
          `of the alerts; ${
            receives
              ? "give the primary's environment OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT"
              : 'run the primary under the register entry too'
          }, or use OTEL_INSTRUMENTATION_A2A_ALERTMANAGER_URL (each worker then polls)`,
      );
    if (config.poll && !receives?.poll) own = startHere({ poll: config.poll }, warn);
  });
  return {
    close: () => {
      closed = true;
      side.stop();
      own?.close();
    },
  };
}
