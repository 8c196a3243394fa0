/**
 * The drift callbacks: registration (process-wide), debounce per card URL and
 * fingerprint, and dispatch that can never reach the request that revealed the drift.
 */
import { diag } from '@opentelemetry/api';
import type { DriftEvent } from '../core/judge';
import { sharedState, type DriftCallback } from './shared-state';

const MAX_DEBOUNCE_KEYS = 10_000;

/**
 * Register a process-wide callback called on Agent Card drift, so the application can
 * evict its cached card. Returns a function that removes it. Works the same whether the
 * instrumentation was started by the register entry or by the application.
 */
export function onAgentCardDrift(callback: DriftCallback): () => void {
  if (typeof callback !== 'function') {
    diag.warn('opentelemetry-instrumentation-a2a: onAgentCardDrift expects a function; ignored');
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
        diag.warn('opentelemetry-instrumentation-a2a: drift callback rejected', err);
      });
    }
  } catch (err) {
    diag.warn('opentelemetry-instrumentation-a2a: drift callback threw', err);
  }
}

/**
 * Dispatch `event` to the registered callbacks and `extra` (the config's onDrift), at
 * most once per `debounceMs` for the same card URL and fingerprint. The callbacks run on
 * a later turn of the event loop (setImmediate), never on the request's own path; a
 * callback that never settles holds nothing. Returns whether it was dispatched.
 */
export function dispatchDrift(event: DriftEvent, debounceMs: number, now: number, extra?: DriftCallback): boolean {
  const state = sharedState();
  if (state.callbacks.size === 0 && !extra) return false;
  const key = `${event.cardUrl ?? ''}\u0000${event.fingerprint ?? ''}\u0000${event.kind === 'card_changed' ? 'changed' : 'drift'}`;
  const last = state.lastDispatch.get(key);
  if (last !== undefined && now - last < debounceMs) return false;
  state.lastDispatch.delete(key);
  state.lastDispatch.set(key, now);
  if (state.lastDispatch.size > MAX_DEBOUNCE_KEYS) {
    const oldest = state.lastDispatch.keys().next().value;
    if (oldest !== undefined) state.lastDispatch.delete(oldest);
  }
  const targets = [...state.callbacks];
  if (extra) targets.push(extra);
  setImmediate(() => {
    for (const cb of targets) safeInvoke(cb, event);
  });
  return true;
}
