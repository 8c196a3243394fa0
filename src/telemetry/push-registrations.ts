/**
 * The push-notification webhooks the app registers on its outgoing calls, held
 * process-wide (shared state) in core/push.ts's bounded registry.
 */
import { PushRegistry, type PushRegistration } from '../core/push';
import type { DecodedRequest } from '../core/model';
import { logger } from '../diag-logger';
import { sharedState } from './shared-state';

export function pushRegistry(): PushRegistry {
  const state = sharedState();
  return (state.pushes ??= new PushRegistry());
}

/**
 * Remembers the webhook `req` registers (if any): bound to its task at once
 * (CreateTaskPushNotificationConfig), or pending until the SendMessage's answer names it.
 */
export function registerPushWebhook(
  req: DecodedRequest,
  endpointUrl: string,
): PushRegistration | undefined {
  const webhook = req.pushWebhook;
  if (webhook === undefined) return undefined;
  const isCreate = req.operation === 'CreateTaskPushNotificationConfig';
  if (isCreate && req.taskId === undefined) return undefined;
  const reg: PushRegistration = {
    webhook,
    origin: {
      endpointUrl,
      binding: req.binding,
      wireMethod: req.wireMethod,
      ...(req.protocolVersion !== undefined ? { protocolVersion: req.protocolVersion } : {}),
    },
    createdAt: Date.now(),
    ...(isCreate ? { taskId: req.taskId } : {}),
  };
  if (!pushRegistry().add(reg)) {
    logger.debug(
      'push webhook registered without a token or credentials: its pushes are not judged',
    );
    return undefined;
  }
  return reg;
}
