/**
 * This package's own requests (card re-fetch, Alertmanager poll): made with tracing suppressed
 * (no span from any instrumentation that honours it), and ignored by this package's wire tap.
 */
import { context, createContextKey } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** Set around the instrumentation's own requests: the wire tap ignores them. */
export const OWN_REQUEST_KEY = createContextKey('opentelemetry-instrumentation-a2a.own-request');

/**
 * Run `fn` as one of this package's own requests (card re-fetch, Alertmanager poll):
 * tracing is suppressed (no span from any instrumentation that honours it) and this
 * package's wire tap ignores the undici requests made inside.
 */
export function runAsOwnRequest<T>(fn: () => T): T {
  return context.with(suppressTracing(context.active()).setValue(OWN_REQUEST_KEY, true), fn);
}
