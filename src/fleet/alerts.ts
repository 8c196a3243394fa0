/**
 * Fleet alerts: Alertmanager's webhook notifications (version "4") and its API v2 alert
 * list, read into the few facts an instance needs to evict a card another instance
 * found stale (the memory that makes one alert evict once is core/seen-alerts.ts: the
 * instrumentation's shared state holds it).
 *
 * Pure: no I/O, no timers, no OpenTelemetry; every function is total (odd input is
 * ignored and counted, never thrown on).
 */
import { DRIFT_KINDS, type DriftKind } from '../core/drift-kinds';
import { CALLER_DRIFT_KINDS } from '../core/served-card';
import { ArtifactSchemaDriftError, StaleAgentCardError } from '../core/errors';
import { isRecord } from '../core/json-path';
import type { DriftEvent } from '../core/judge';
import { normaliseUrl } from '../core/url';
import * as sc from '../semconv';

/**
 * The labels the counter rules keep (examples/observability/alerts.yaml), each under both of
 * its spellings: the Prometheus name (dots escaped to underscores: Prometheus 2, Prometheus 3's
 * default OTLP translation, the Collector's exporter) first, then the attribute's own name,
 * which Prometheus 3 keeps under `translation_strategy: NoUTF8EscapingWithSuffixes` (or
 * NoTranslation) when a rule groups by it. An alert that carries both is read by the first.
 */
const LABEL_CARD_URL = sc.ALERT_LABEL_CARD_URL;
const LABEL_DRIFT_KIND = sc.ALERT_LABEL_DRIFT_KIND;
const LABEL_SKILL_ID = sc.ALERT_LABEL_SKILL_ID;
const LABEL_AGENT_NAME = sc.ALERT_LABEL_AGENT_NAME;

/** Alerts read from one payload; past this they are counted as ignored. */
const MAX_ALERTS_PER_PAYLOAD = 10_000;
/** Request bodies (webhook) and responses (poll) larger than this are refused. */
export const MAX_ALERT_BODY_BYTES = 1024 * 1024;
const MAX_URL_LENGTH = 2048;
const MAX_LABEL_LENGTH = 256;
const MAX_KEY_PART = 512;

/** A firing alert that names a card: what the instance acts on. */
export interface FleetAlert {
  /** Identity of this firing: the alert's fingerprint (or its labels) + startsAt. */
  key: string;
  /** The card URL, normalised as the instrumentation records it. */
  cardUrl: string;
  kind: DriftKind;
  skillId?: string;
  agentName?: string;
  /** startsAt, ms since the epoch (Alertmanager's clock), when it parses. */
  startsAt?: number;
}

/** Why an alert was not acted on (counted in `ignored`). */
export type IgnoredReason =
  | 'not firing'
  | 'no card url'
  | 'bad card url'
  | 'no drift kind'
  | 'card_changed'
  | 'caller drift'
  | 'malformed'
  | 'too many';

export type AlertParse =
  | {
      ok: true;
      alerts: FleetAlert[];
      ignored: number;
      reasons: Partial<Record<IgnoredReason, number>>;
    }
  | { ok: false; error: string };

const KINDS: ReadonlySet<string> = new Set(DRIFT_KINDS);
const CALLER_KINDS: ReadonlySet<string> = new Set(CALLER_DRIFT_KINDS);

function label(
  labels: Record<string, unknown>,
  names: readonly string[],
  max = MAX_LABEL_LENGTH,
): string | undefined {
  for (const name of names) {
    // Own properties only: a label named like an Object.prototype member is not a label.
    if (!Object.prototype.hasOwnProperty.call(labels, name)) continue;
    const v = labels[name];
    if (typeof v !== 'string' || v.length === 0) continue;
    return v.length > max ? v.slice(0, max) : v;
  }
  return undefined;
}

function time(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.length > 64) return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * The labels as a stable string (sorted names), bounded: the identity of an alert without a
 * fingerprint.
 */
function labelsKey(labels: Record<string, unknown>): string {
  const names = Object.keys(labels).sort();
  let out = '';
  for (const n of names) {
    const v = labels[n];
    out += `${n}=${typeof v === 'string' ? v : ''}\u0001`;
    if (out.length > 4 * MAX_KEY_PART) break;
  }
  return out;
}

/**
 * One alert, whose state is `state` (read by the caller from the alert itself): a
 * FleetAlert, or why it is ignored.
 */
function readAlert(a: unknown, firing: boolean): FleetAlert | IgnoredReason {
  if (!isRecord(a) || !isRecord(a.labels)) return 'malformed';
  if (!firing) return 'not firing';
  const labels = a.labels;
  const rawUrl = label(labels, LABEL_CARD_URL, MAX_URL_LENGTH + 1);
  if (rawUrl === undefined) return 'no card url';
  if (rawUrl.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(rawUrl)) return 'bad card url';
  const cardUrl = normaliseUrl(rawUrl);
  if (cardUrl === undefined) return 'bad card url';
  const kind = label(labels, LABEL_DRIFT_KIND);
  // The agent's side: callers of THIS process's agent on an older card. The card the alert
  // names is the agent's own and is current; nothing in the callers is to be evicted for it.
  if (kind !== undefined && CALLER_KINDS.has(kind)) return 'caller drift';
  if (kind === undefined || !KINDS.has(kind)) return 'no drift kind';
  // card_changed is the confirmation that a card was re-fetched, not evidence against one.
  if (kind === 'card_changed') return 'card_changed';
  const fingerprint =
    typeof a.fingerprint === 'string' && a.fingerprint.length > 0
      ? a.fingerprint.slice(0, MAX_KEY_PART)
      : undefined;
  const startsAtRaw = typeof a.startsAt === 'string' ? a.startsAt.slice(0, MAX_KEY_PART) : '';
  const alert: FleetAlert = {
    key: `${fingerprint ?? labelsKey(labels)}\u0000${startsAtRaw}`,
    cardUrl,
    kind: kind as DriftKind,
  };
  const skillId = label(labels, LABEL_SKILL_ID);
  if (skillId !== undefined) alert.skillId = skillId;
  const agentName = label(labels, LABEL_AGENT_NAME);
  if (agentName !== undefined) alert.agentName = agentName;
  const startsAt = time(a.startsAt);
  if (startsAt !== undefined) alert.startsAt = startsAt;
  return alert;
}

function collect(items: unknown[], firing: (a: unknown) => boolean): AlertParse {
  const alerts: FleetAlert[] = [];
  const reasons: Partial<Record<IgnoredReason, number>> = {};
  let ignored = 0;
  const count = (r: IgnoredReason, n = 1): void => {
    reasons[r] = (reasons[r] ?? 0) + n;
    ignored += n;
  };
  const n = Math.min(items.length, MAX_ALERTS_PER_PAYLOAD);
  for (let i = 0; i < n; i++) {
    const a = items[i];
    let read: FleetAlert | IgnoredReason;
    try {
      read = readAlert(a, firing(a));
    } catch {
      read = 'malformed'; // a hostile getter; never seen in JSON.parse output
    }
    if (typeof read === 'string') count(read);
    else alerts.push(read);
  }
  if (items.length > n) count('too many', items.length - n);
  return { ok: true, alerts, ignored, reasons };
}

/**
 * Alertmanager's webhook notification (`version: "4"`). Each alert carries its own
 * `status` (`firing` | `resolved`): a notification of a group may mix both, so the
 * notification's own status is not used.
 */
export function parseWebhookPayload(value: unknown): AlertParse {
  if (!isRecord(value))
    return { ok: false, error: 'expected a JSON object (Alertmanager webhook payload)' };
  if (value.version !== '4') {
    return {
      ok: false,
      error: `unsupported webhook payload version ${JSON.stringify(typeof value.version === 'string' ? value.version.slice(0, 32) : (value.version ?? null))}; expected "4"`,
    };
  }
  if (!Array.isArray(value.alerts)) return { ok: false, error: 'expected "alerts" to be an array' };
  return collect(value.alerts, (a) => isRecord(a) && a.status === 'firing');
}

/**
 * Alertmanager's API v2 `GET /api/v2/alerts` answer: an array of alerts whose
 * `status.state` is `active`, `suppressed` (silenced or inhibited) or `unprocessed` (not
 * yet checked against silences): only `active` ones are acted on.
 */
export function parseApiAlerts(value: unknown): AlertParse {
  if (!Array.isArray(value))
    return { ok: false, error: 'expected a JSON array (Alertmanager API v2 alerts)' };
  return collect(value, (a) => isRecord(a) && isRecord(a.status) && a.status.state === 'active');
}

/**
 * The DriftEvent the callbacks get for a fleet alert (no fingerprint: the alert does not say which
 * card the other instance held).
 */
export function fleetDriftEvent(alert: FleetAlert): DriftEvent {
  const what = alert.skillId !== undefined ? `skillId=${JSON.stringify(alert.skillId)}` : 'a skill';
  const who = alert.agentName !== undefined ? ` of agent ${JSON.stringify(alert.agentName)}` : '';
  const message = `Another instance of the fleet saw ${alert.kind} for ${what}${who} with the Agent Card at ${alert.cardUrl}: re-fetch the Agent Card before retrying`;
  const details = { kind: alert.kind, skillId: alert.skillId, cardUrl: alert.cardUrl };
  const event: DriftEvent = {
    kind: alert.kind,
    source: 'fleet',
    error:
      alert.kind === 'output_mode_mismatch'
        ? new ArtifactSchemaDriftError(message, details)
        : new StaleAgentCardError(message, details),
    cardUrl: alert.cardUrl,
  };
  if (alert.skillId !== undefined) event.skillId = alert.skillId;
  if (alert.agentName !== undefined) event.agentName = alert.agentName;
  return event;
}
