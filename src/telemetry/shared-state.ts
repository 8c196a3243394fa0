/**
 * Process-wide state, shared by every copy of this package loaded in the process
 * (CommonJS and ESM entries, or two installed copies): the Agent Card and negotiation
 * registries and the drift callbacks. Kept on globalThis under a registered symbol.
 */
import { SeenAlerts } from '../core/seen-alerts';
import { CardRegistry } from '../core/card-registry';
import { NegotiationRegistry } from '../core/negotiation-registry';
import type { PushRegistry } from '../core/push';
import type { CallerDriftKind, ServedCards } from '../core/served-card';
import type { DriftEvent } from '../core/judge';

export type DriftCallback = (event: DriftEvent) => void | Promise<void>;

/**
 * A call this process's A2A server answered for a caller on an older card of the agent (the
 * agent's side): what its SERVER span says, without message content.
 */
export interface StaleCallerEvent {
  kind: CallerDriftKind;
  /** The A2A operation (`SendMessage`, `GetTask`, ...). */
  operation: string;
  /** The skill the request named, as the caller wrote it (capped). */
  skillId?: string;
  /** The fingerprint the caller announced (A2A-Card-Fingerprint), when it is not the served card's. */
  callerFingerprint?: string;
  /** The served card's fingerprint and URL. */
  fingerprint?: string;
  cardUrl?: string;
  /** The served card's agent name. */
  agentName?: string;
}

export type StaleCallerCallback = (event: StaleCallerEvent) => void | Promise<void>;

/**
 * How fleet alerts (src/fleet/) reach the instrumentation: installed by the
 * enabled A2AInstrumentation, which owns the debounce window, the config's onDrift and the
 * card re-fetch. Absent, fleet alerts use the default window and re-fetch nothing.
 */
export interface FleetListener {
  owner: object;
  debounceMs(): number;
  onDrift(): DriftCallback | undefined;
  /** refetchCardOnDrift: re-fetch the card (untraced), if the option is on. */
  refetch(cardUrl: string, fingerprintInUse: string | undefined): void;
}

export interface SharedState {
  /** Bumped on an incompatible change of this object's shape. */
  readonly schema: 1;
  cards: CardRegistry;
  negotiations: NegotiationRegistry;
  callbacks: Set<DriftCallback>;
  /**
   * card URL + fingerprint + changed/drift → last time a callback was dispatched for it (debounce).
   */
  lastDispatch: Map<string, number>;
  /**
   * card URL → last eviction of that card, local or fleet (debounce across the two; created on
   * first use).
   */
  lastEviction?: Map<string, number>;
  /**
   * Fleet alerts already acted on (created on first use: a copy of an older version may have made
   * this object).
   */
  seenAlerts?: SeenAlerts;
  fleet?: FleetListener;
  /**
   * Push-notification webhooks the app registered (created on first use: a copy of an older
   * version may have made this object). Telemetry/push-notifications.ts.
   */
  pushes?: PushRegistry;
  /**
   * The Agent Cards this process serves as an agent (created on first use).
   * Telemetry/server-calls.ts.
   */
  served?: ServedCards;
  /**
   * onStaleCaller callbacks (the agent's side; created on first use: a copy of an older
   * version may have made this object). Telemetry/drift-events.ts.
   */
  staleCallers?: Set<StaleCallerCallback>;
  /**
   * The A2AInstrumentation that makes spans in this process (the first enabled one, until it
   * is disabled): a second instance, or a second copy of the package, stays idle instead of
   * making every span twice.
   */
  owner?: object;
}

const KEY = Symbol.for('opentelemetry-instrumentation-a2a.shared-state');

export function sharedState(): SharedState {
  const g = globalThis as unknown as Record<symbol, SharedState | undefined>;
  const existing = g[KEY];
  if (existing && existing.schema === 1) return existing;
  const created: SharedState = {
    schema: 1,
    cards: new CardRegistry(),
    negotiations: new NegotiationRegistry(),
    callbacks: new Set(),
    lastDispatch: new Map(),
  };
  Object.defineProperty(g, KEY, {
    value: created,
    configurable: true,
    enumerable: false,
    writable: true,
  });
  return created;
}
