// Public exports: the telemetry contract's list, and the configuration types.
export { A2AInstrumentation } from './instrumentation';
export type { A2AInstrumentationConfig, A2ARequestInfo, A2AResponseInfo } from './config';
export { skillFingerprint } from './core/fingerprint';
export { StaleAgentCardError, ArtifactSchemaDriftError } from './core/errors';
export type { DriftEvent } from './core/judge';
export type { DriftKind } from './core/drift-kinds';
export { onAgentCardDrift, onStaleCaller } from './telemetry/drift-events';
export type { StaleCallerEvent } from './telemetry/shared-state';
export { createAlertWebhookHandler } from './fleet/webhook';
export type { AlertWebhookOptions, AlertWebhookHandler } from './fleet/webhook';
export { withSkill } from './telemetry/skill-context';
export { setServedAgentCard } from './telemetry/server-calls';
