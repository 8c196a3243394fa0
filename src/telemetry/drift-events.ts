/**
 * The drift callbacks: registration (process-wide), debounce per card URL and
 * fingerprint (and per card URL between local and fleet evidence), and dispatch that
 * can never reach the request that revealed the drift.
 */
import { logger } from '../diag-logger';
import type { DriftEvent } from '../core/judge';
import {
  sharedState,
  type DriftCallback,
  type SharedState,
  type StaleCallerCallback,
  type StaleCallerEvent,
} from './shared-state';

const MAX_DEBOUNCE_KEYS = 10_000;

/**
 * Register a process-wide callback called on Agent Card drift, so the application can
 * evict its cached card. Returns a function that removes it. Works the same whether the
 * instrumentation was started by the register entry or by the application.
 */
export function onAgentCardDrift(callback: DriftCallback): () => void {
  if (typeof callback !== 'function') {
    logger.warn('onAgentCardDrift expects a function; ignored');
    return () => {};
  }
  const { callbacks } = sharedState();
  callbacks.add(callback);
  return () => {
    callbacks.delete(callback);
  };
}

function safeInvoke(callback: DriftCallback, event: DriftEvent): void {
  try {
    const result = callback(event);
    if (result && typeof (result as Promise<void>).then === 'function') {
      (result as Promise<void>).then(undefined, (err: unknown) => {
        logger.warn('drift callback rejected', err);
      });
    }
  } catch (err) {
    logger.warn('drift callback threw', err);
  }
}

function driftKey(
  cardUrl: string | undefined,
  fingerprint: string | undefined,
  changed: boolean,
): string {
  return `${cardUrl ?? ''}\u0000${fingerprint ?? ''}\u0000${changed ? 'changed' : 'drift'}`;
}

function recent(map: Map<string, number>, key: string, now: number, debounceMs: number): boolean {
  const last = map.get(key);
  return last !== undefined && now - last < debounceMs;
}

function remember(map: Map<string, number>, key: string, now: number): void {
  map.delete(key);
  map.set(key, now);
  if (map.size > MAX_DEBOUNCE_KEYS) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** card URL → last eviction (local or fleet); on the shared state, made on first use. */
function evictions(state: SharedState): Map<string, number> {
  return (state.lastEviction ??= new Map());
}

function deliver(event: DriftEvent, extra: DriftCallback | undefined): void {
  const state = sharedState();
  const targets = [...state.callbacks];
  if (extra) targets.push(extra);
  if (targets.length === 0) return;
  setImmediate(() => {
    for (const cb of targets) safeInvoke(cb, event);
  });
}

/**
 * Dispatch `event` to the registered callbacks and `extra` (the config's onDrift), at
 * most once per `debounceMs` for the same card URL and fingerprint. The callbacks run on
 * a later turn of the event loop (setImmediate), never on the request's own path; a
 * callback that never settles holds nothing. Returns whether it was dispatched.
 *
 * A local event also records the eviction of its card URL (SharedState.lastEviction), so that a
 * fleet alert about that card inside the window does not call the callbacks again.
 */
export function dispatchDrift(
  event: DriftEvent,
  debounceMs: number,
  now: number,
  extra?: DriftCallback,
): boolean {
  const state = sharedState();
  if (state.callbacks.size === 0 && !extra) return false;
  const key = driftKey(event.cardUrl, event.fingerprint, event.kind === 'card_changed');
  if (recent(state.lastDispatch, key, now, debounceMs)) return false;
  remember(state.lastDispatch, key, now);
  // card_changed too: the process has just fetched the new card, a fleet alert would be late.
  if (event.cardUrl) remember(evictions(state), event.cardUrl, now);
  deliver(event, extra);
  return true;
}

/**
 * Claim the eviction of `cardUrl` for a fleet alert: false when the card URL was evicted
 * (for local evidence or another alert) less than `debounceMs` ago. Claimed, it records
 * the eviction for the card URL and for the fingerprint this process holds for it
 * (`heldFingerprint`), so that local evidence against that same card inside the window
 * does not call the callbacks again either (evidence against a card fetched since does).
 */
export function claimFleetEviction(
  cardUrl: string,
  heldFingerprint: string | undefined,
  debounceMs: number,
  now: number,
): boolean {
  const state = sharedState();
  const last = evictions(state);
  if (recent(last, cardUrl, now, debounceMs)) return false;
  remember(last, cardUrl, now);
  if (heldFingerprint !== undefined)
    remember(state.lastDispatch, driftKey(cardUrl, heldFingerprint, false), now);
  return true;
}

/** Deliver a fleet event (claimed with claimFleetEviction) to the callbacks and `extra`. */
export function deliverFleetDrift(event: DriftEvent, extra?: DriftCallback): void {
  deliver(event, extra);
}

/**
 * Register a process-wide callback called for each call this process's A2A server answers for
 * a stale caller (`caller_skill_not_in_card`, `caller_card_stale`: the agent's side, option
 * `serverSpans`). Returns a function that removes it. It is told, never asked: nothing is to be
 * evicted (the card is this process's own), the answer is already on its way. Called on a later
 * turn of the event loop, once per call (no debounce: the app counts or samples as it wishes).
 */
export function onStaleCaller(callback: StaleCallerCallback): () => void {
  if (typeof callback !== 'function') {
    logger.warn('onStaleCaller expects a function; ignored');
    return () => {};
  }
  const callbacks = (sharedState().staleCallers ??= new Set());
  callbacks.add(callback);
  return () => {
    callbacks.delete(callback);
  };
}

/** Hand `event` to the onStaleCaller callbacks, off the request's path. */
export function dispatchStaleCaller(event: StaleCallerEvent): void {
  const callbacks = sharedState().staleCallers;
  if (callbacks === undefined || callbacks.size === 0) return;
  const targets = [...callbacks];
  setImmediate(() => {
    for (const cb of targets) {
      try {
        const result = cb(event);
        if (result && typeof (result as Promise<void>).then === 'function')
          (result as Promise<void>).then(undefined, (err: unknown) => {
            logger.warn('stale-caller callback rejected', err);
          });
      } catch (err) {
        logger.warn('stale-caller callback threw', err);
      }
    }
  });
}
