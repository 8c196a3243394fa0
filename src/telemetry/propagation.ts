/**
 * Trace context between the A2A span and the peer: what the A2A CLIENT span sends with the
 * request (`propagate`), and which trace an A2A span first seen at undici's request creation
 * joins (`wireParent`); `followHop` does the first for each undici request of a call.
 */
import { propagation, trace, type Context, type TextMapGetter } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { logger } from '../diag-logger';
import type { WireObserver, WireRequestInfo } from '../hooks/types';
import { HEADER_CARD_FINGERPRINT } from '../semconv';
import type { A2ACall } from './a2a-call';

const WIRE_HEADER_GETTER: TextMapGetter<WireRequestInfo> = {
  get: (info, key) => info.header(key.toLowerCase()),
  keys: () => [],
};

/**
 * The parent of an A2A span first seen at undici's request creation (the undici package's
 * API): the active context, unless it holds no span while the request already carries a
 * trace context (an HTTP client instrumentation subscribed before us made its span and
 * injected it, or the app set it): then the A2A span joins that trace, under that span,
 * rather than start a trace the peer never sees.
 */
export function wireParent(info: WireRequestInfo, ctx: Context): Context {
  if (trace.getSpan(ctx) !== undefined) return ctx;
  const extracted = propagation.extract(ctx, info, WIRE_HEADER_GETTER);
  return trace.getSpan(extracted) !== undefined ? extracted : ctx;
}

/**
 * Trace context propagation from the A2A CLIENT span: the configured propagators' fields
 * (W3C `traceparent`, `baggage` by default) are added to the undici request at its creation,
 * except those already on it. An HTTP client instrumentation subscribed before us
 * (instrumentation-undici, from its own child span of this one) or the application has then
 * set them: the request carries them once. One subscribed after us replaces ours (the wire
 * tap drops our value when it adds the same header: WireRequestInfo.addHeaders).
 */
export function propagate(call: A2ACall, info: WireRequestInfo, ctx: Context): void {
  if (isTracingSuppressed(ctx)) return;
  const carrier: Record<string, string> = {};
  // Inside the fetch wrapper the active context holds the call's span already.
  propagation.inject(trace.getSpan(ctx) === call.span ? ctx : call.activeContext(ctx), carrier);
  let toAdd: Record<string, string> | undefined;
  for (const name of Object.keys(carrier)) {
    if (info.header(name) !== undefined) continue;
    (toAdd ??= {})[name] = carrier[name]!;
  }
  if (toAdd) info.addHeaders(toAdd);
}

/**
 * The fingerprint of the card the call negotiated with, to the agent (`A2A-Card-Fingerprint`,
 * docs/card-fingerprint-extension.md): an agent whose card changed sees its stale caller. Not
 * when the request carries one already, or the option is off.
 */
export function announceCard(call: A2ACall, info: WireRequestInfo): void {
  const fingerprint = call.announcedFingerprint;
  if (fingerprint === undefined || info.header(HEADER_CARD_FINGERPRINT) !== undefined) return;
  info.addHeaders({ [HEADER_CARD_FINGERPRINT]: fingerprint });
}

/**
 * Follows one undici request of `call`, carrying the call's trace context and its card's
 * fingerprint to the peer.
 */
export function followHop(call: A2ACall, info: WireRequestInfo, ctx: Context): WireObserver {
  try {
    propagate(call, info, ctx);
  } catch (err) {
    logger.debug('could not add trace context headers', err);
  }
  try {
    announceCard(call, info);
  } catch (err) {
    logger.debug('could not add the card fingerprint header', err);
  }
  return call.attachHop();
}
