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

export function followFetchResult(
  call: A2ACall,
  result: Promise<Response>,
  config: Pick<ResolvedConfig, 'enforce' | 'maxInspectBytes'>,
): Promise<Response> {
  // A patched fetch may return anything: only a thenable is followed.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  if (!result || typeof (result as Partial<Promise<Response>>).then !== 'function') {
    call.fetchResolved();
    return result;
  }
  if (config.enforce && call.target.type === 'operation') {
    return result.then(
      (response) => {
        call.fetchResolved();
        return enforceResponse(call, response, config.maxInspectBytes);
      },
      (err: unknown) => {
        call.fetchRejected(err);
        throw err;
      },
    );
  }
  // Observe mode: these reactions are registered before the app's, so they run first; the
  // rejection is handled here and still reaches the app through the original promise.
  result.then(
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
