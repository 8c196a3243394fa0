/**
 * Push notifications: the webhooks the app registers on its outgoing calls are
 * remembered (core/push.ts, process-wide in shared state), and the task updates agents POST
 * to them are judged like polled or streamed updates, each on a `TaskPushNotification` span
 * (a2a-call.ts `deliverPush`).
 *
 * `PushReceiver` is the inbound tap's delegate: it follows only POSTs to a registered
 * webhook path carrying a secret header, reads their body (capped, decompressed) off the
 * app's path, and hands a genuine push — webhook and secret of a registration for the task the
 * body names — to `deliverPush`. A push matching a registration whose SendMessage has not
 * said its task id yet is held (bounded) and delivered when it does.
 */
import { ROOT_CONTEXT, propagation, type Context, type TextMapGetter } from '@opentelemetry/api';
import { BodyReader } from '../core/body-reader';
import { decodePush, secretDigest, type InboundFacts } from '../core/push';
import type { InboundObserver, InboundRequestInfo, InboundTapDelegate } from '../hooks/inbound-tap';
import { logger } from '../diag-logger';
import type { CallDeps } from './a2a-call';
import { deliverPush } from './a2a-call';
import { sharedState } from './shared-state';

const getter: TextMapGetter<InboundRequestInfo> = {
  keys: () => ['traceparent', 'tracestate', 'baggage'],
  get: (carrier, key) => carrier.header(key.toLowerCase()),
};

export class PushReceiver implements InboundTapDelegate {
  constructor(
    /** The calls' dependencies, or undefined when the instrumentation is not active. */
    private readonly deps: () => CallDeps | undefined,
  ) {}

  onRequest(info: InboundRequestInfo): InboundObserver | undefined {
    const registry = sharedState().pushes;
    if (registry === undefined || registry.size === 0) return undefined;
    if (info.method !== 'POST' || !registry.watchesPath(info.target)) return undefined;
    const token = info.header('x-a2a-notification-token');
    const authorization = info.header('authorization');
    if (token === undefined && authorization === undefined) return undefined;
    const deps = this.deps();
    if (deps === undefined) return undefined;
    const type = (info.header('content-type') ?? '').toLowerCase();
    if (!(type === '' || type.includes('json'))) return undefined;
    const secrets: string[] = [];
    if (token !== undefined) secrets.push(secretDigest('token', token));
    if (authorization !== undefined) secrets.push(secretDigest('authorization', authorization));
    const facts: InboundFacts = {
      pathKey: info.target,
      host: info.header('host'),
      localPort: info.localPort,
      secrets,
    };
    const at = Date.now();
    const parent: Context = propagation.extract(ROOT_CONTEXT, info, getter);
    const reader = new BodyReader(
      'json',
      info.header('content-encoding'),
      deps.config.maxInspectBytes,
      {
        onDocument: (value) => {
          const result = decodePush(value);
          const match = registry.match(facts, result.taskId, Date.now());
          if (match === undefined) return; // not a push the app registered for: nothing
          if ('bound' in match) deliverPush(deps, match.bound, result, at, parent);
          else registry.hold(match.pending, { result, at, parent });
        },
        onProblem: (problem) => logger.debug(`push body not judged: ${problem}`),
        onEnd: () => {},
      },
    );
    return {
      onBody: (chunk) => reader.push(chunk),
      onEnd: (complete) => reader.end(complete),
    };
  }
}
