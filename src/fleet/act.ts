/**
 * The one function both fleet transports feed (webhook.ts, poller.ts): each firing alert
 * naming a card is acted on once (fingerprint + startsAt, the shared state's bounded memory):
 * unless this process evicted that card URL less than the debounce window ago (its own
 * evidence or another alert), or holds a card fetched after the alert started, the callbacks
 * get a DriftEvent with `source: 'fleet'`, the card held is marked suspect
 * (`a2a.agent_card.suspect_source=fleet`) and, with refetchCardOnDrift, re-fetched.
 */
import { currentRoute } from './route';
import { fleetDriftEvent, type AlertParse, type FleetAlert } from './alerts';
import { SeenAlerts } from '../core/seen-alerts';
import { OPTIONS } from '../options';
import { logger } from '../diag-logger';
import { claimFleetEviction, deliverFleetDrift } from '../telemetry/drift-events';
import { sharedState } from '../telemetry/shared-state';

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
export function actOnAlerts(alerts: readonly FleetAlert[], now = Date.now()): number {
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

export function act(parsed: AlertParse & { ok: true }, now = Date.now()): AlertOutcome {
  const evicted = actOnAlerts(parsed.alerts, now);
  noteIgnored(parsed);
  return { accepted: parsed.alerts.length, ignored: parsed.ignored, evicted };
}

/** What delivering a batch did: this process's outcome and, in a cluster, the workers told. */
export interface Delivery extends AlertOutcome {
  /** In a cluster: the live workers running the package when the alerts arrived. */
  workers?: number;
  /** In a cluster: those that acted on them (acknowledged). */
  told?: number;
  /** Every live worker acted (always true outside a cluster): the alerts may be answered 200. */
  complete: boolean;
}

/**
 * Act on a batch wherever the application runs (cluster.ts): in this process, and, in a
 * cluster primary, in every worker; in a worker its primary welcomed, through the primary
 * (which acts and tells every worker), or here when the primary does not answer. Never rejects.
 */
export async function deliver(parsed: AlertParse & { ok: true }): Promise<Delivery> {
  const route = currentRoute();
  if (route?.role === 'worker') {
    const relayed = await route.send(parsed.alerts).catch(() => undefined);
    if (relayed) {
      noteIgnored(parsed);
      return { accepted: parsed.alerts.length, ignored: parsed.ignored, evicted: 0, ...relayed };
    }
    return { ...act(parsed), complete: false }; // the primary did not answer: this worker acts
  }
  const outcome = act(parsed);
  const fanned = route ? await route.send(parsed.alerts).catch(() => undefined) : undefined;
  return fanned ? { ...outcome, ...fanned } : { ...outcome, complete: true };
}

function noteIgnored(parsed: AlertParse & { ok: true }): void {
  if (parsed.ignored > 0) logger.debug(`fleet alerts ignored: ${JSON.stringify(parsed.reasons)}`);
  if ((parsed.reasons['no drift kind'] ?? 0) > 0)
    warnOnce(
      'no-kind',
      `fleet alerts name a card but no known a2a_drift_kind; they are ignored (keep a2a_drift_kind in the rule's "sum by")`,
    );
}

const warned = new Set<string>();
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  logger.warn(message);
}
