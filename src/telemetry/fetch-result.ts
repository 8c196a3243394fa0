/**
 * What the fetch wrapper does with the original fetch's result for an A2A call: settles the
 * call when the promise settles (observe mode: the app gets fetch's own promise, no extra hop)
 * or, in enforce mode, reads the response before the app gets it (telemetry/enforce.ts).
 */
import { safeExecuteInTheMiddle } from '@opentelemetry/instrumentation';
import { logger } from '../diag-logger';
import type { ResolvedConfig } from '../config';
import type { A2ACall } from './a2a-call';
import { enforceResponse } from './enforce';

export function followFetchResult<T>(
  call: A2ACall,
  result: T,
  config: Pick<ResolvedConfig, 'enforce' | 'maxInspectBytes'>,
): T {
  // A patched fetch may return anything: only a thenable is followed.
  const promise = result as unknown as Promise<Response> | undefined;
  if (!promise || typeof promise.then !== 'function') {
    call.fetchResolved();
    return result;
  }
  if (config.enforce && call.target.type === 'operation') {
    return promise.then(
      (response) => {
        call.fetchResolved();
        return enforceResponse(call, response, config.maxInspectBytes);
      },
      (err: unknown) => {
        call.fetchRejected(err);
        throw err;
      },
    ) as unknown as T;
  }
  // Observe mode: these reactions are registered before the app's, so they run first; the
  // rejection is handled here and still reaches the app through the original promise.
  promise.then(
    () => settleQuietly(() => call.fetchResolved()),
    (err: unknown) => settleQuietly(() => call.fetchRejected(err)),
  );
  return result;
}

/**
 * Runs the call's settle step on a side branch of the app's promise: a failure there must not
 * become an unhandled rejection.
 */
function settleQuietly(fn: () => void): void {
  safeExecuteInTheMiddle(
    fn,
    (err) => {
      if (err) logger.debug('ending a fetch span failed', err);
    },
    true,
  );
}
